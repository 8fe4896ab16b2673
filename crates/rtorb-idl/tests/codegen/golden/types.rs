/// Types of every kind.
///
/// IDL module `Types`.
pub mod types {
    /// IDL enum `Types::Color` (`IDL:example.org/Types/Color:1.0`): an `unsigned long` on the wire.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
    #[repr(u32)]
    #[allow(clippy::enum_variant_names)]
    pub enum Color {
        /// `red`
        #[default]
        Red = 0,
        /// `green`
        Green = 1,
        /// `blue`
        Blue = 2,
    }
    impl ::rtorb::codegen::CdrEncode for Color {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            e.write_u32(*self as u32);
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for Color {
        const MIN_WIRE_SIZE: usize = 4;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            match d.read_u32()? {
                0 => Ok(Color::Red),
                1 => Ok(Color::Green),
                2 => Ok(Color::Blue),
                value => {
                    Err(::rtorb::codegen::CdrError::InvalidEnum {
                        value,
                        count: 3,
                    })
                }
            }
        }
    }
    impl ::rtorb::codegen::IdlType for Color {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::enum_tc(
                "IDL:example.org/Types/Color:1.0",
                "Color",
                ["red", "green", "blue"],
            )
        }
    }
    impl ::rtorb::codegen::AnyValue for Color {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <Color as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// IDL enum `Types::Single` (`IDL:example.org/Types/Single:1.0`): an `unsigned long` on the wire.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
    #[repr(u32)]
    #[allow(clippy::enum_variant_names)]
    pub enum Single {
        /// `only`
        #[default]
        Only = 0,
    }
    impl ::rtorb::codegen::CdrEncode for Single {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            e.write_u32(*self as u32);
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for Single {
        const MIN_WIRE_SIZE: usize = 4;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            match d.read_u32()? {
                0 => Ok(Single::Only),
                value => {
                    Err(::rtorb::codegen::CdrError::InvalidEnum {
                        value,
                        count: 1,
                    })
                }
            }
        }
    }
    impl ::rtorb::codegen::IdlType for Single {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::enum_tc(
                "IDL:example.org/Types/Single:1.0",
                "Single",
                ["only"],
            )
        }
    }
    impl ::rtorb::codegen::AnyValue for Single {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <Single as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// IDL typedef `Types::Integer`.
    pub type Integer = i32;
    /// The TypeCode of `Integer` (`tk_alias`).
    pub fn integer_type_code() -> ::rtorb::codegen::TypeCode {
        ::rtorb::codegen::TypeCode::alias(
            "IDL:example.org/Types/Integer:1.0",
            "Integer",
            ::rtorb::codegen::TypeCode::long(),
        )
    }
    /// IDL typedef `Types::AliasOfAlias`.
    pub type AliasOfAlias = Integer;
    /// The TypeCode of `AliasOfAlias` (`tk_alias`).
    pub fn alias_of_alias_type_code() -> ::rtorb::codegen::TypeCode {
        ::rtorb::codegen::TypeCode::alias(
            "IDL:example.org/Types/AliasOfAlias:1.0",
            "AliasOfAlias",
            integer_type_code(),
        )
    }
    /// IDL typedef `Types::Longs`.
    pub type Longs = ::std::vec::Vec<i32>;
    /// The TypeCode of `Longs` (`tk_alias`).
    pub fn longs_type_code() -> ::rtorb::codegen::TypeCode {
        ::rtorb::codegen::TypeCode::alias(
            "IDL:example.org/Types/Longs:1.0",
            "Longs",
            ::rtorb::codegen::TypeCode::sequence(::rtorb::codegen::TypeCode::long(), 0),
        )
    }
    /// IDL typedef `Types::FiveLongs`. Bounded to 5 elements, checked where it is written and read.
    pub type FiveLongs = ::std::vec::Vec<i32>;
    /// The TypeCode of `FiveLongs` (`tk_alias`).
    pub fn five_longs_type_code() -> ::rtorb::codegen::TypeCode {
        ::rtorb::codegen::TypeCode::alias(
            "IDL:example.org/Types/FiveLongs:1.0",
            "FiveLongs",
            ::rtorb::codegen::TypeCode::sequence(::rtorb::codegen::TypeCode::long(), 5),
        )
    }
    /// IDL typedef `Types::Octets`.
    pub type Octets = ::rtorb::codegen::Bytes;
    /// The TypeCode of `Octets` (`tk_alias`).
    pub fn octets_type_code() -> ::rtorb::codegen::TypeCode {
        ::rtorb::codegen::TypeCode::alias(
            "IDL:example.org/Types/Octets:1.0",
            "Octets",
            ::rtorb::codegen::TypeCode::sequence(::rtorb::codegen::TypeCode::octet(), 0),
        )
    }
    /// IDL typedef `Types::SixteenOctets`. Bounded to 16 elements, checked where it is written and read.
    pub type SixteenOctets = ::rtorb::codegen::Bytes;
    /// The TypeCode of `SixteenOctets` (`tk_alias`).
    pub fn sixteen_octets_type_code() -> ::rtorb::codegen::TypeCode {
        ::rtorb::codegen::TypeCode::alias(
            "IDL:example.org/Types/SixteenOctets:1.0",
            "SixteenOctets",
            ::rtorb::codegen::TypeCode::sequence(::rtorb::codegen::TypeCode::octet(), 16),
        )
    }
    /// IDL typedef `Types::Nested`.
    pub type Nested = ::std::vec::Vec<::std::vec::Vec<::std::string::String>>;
    /// The TypeCode of `Nested` (`tk_alias`).
    pub fn nested_type_code() -> ::rtorb::codegen::TypeCode {
        ::rtorb::codegen::TypeCode::alias(
            "IDL:example.org/Types/Nested:1.0",
            "Nested",
            ::rtorb::codegen::TypeCode::sequence(
                ::rtorb::codegen::TypeCode::sequence(
                    ::rtorb::codegen::TypeCode::string(0),
                    0,
                ),
                0,
            ),
        )
    }
    /// IDL typedef `Types::Text`.
    pub type Text = ::std::string::String;
    /// The TypeCode of `Text` (`tk_alias`).
    pub fn text_type_code() -> ::rtorb::codegen::TypeCode {
        ::rtorb::codegen::TypeCode::alias(
            "IDL:example.org/Types/Text:1.0",
            "Text",
            ::rtorb::codegen::TypeCode::string(0),
        )
    }
    /// IDL typedef `Types::ShortText`. Bounded to 12 characters, checked where it is written and read.
    pub type ShortText = ::std::string::String;
    /// The TypeCode of `ShortText` (`tk_alias`).
    pub fn short_text_type_code() -> ::rtorb::codegen::TypeCode {
        ::rtorb::codegen::TypeCode::alias(
            "IDL:example.org/Types/ShortText:1.0",
            "ShortText",
            ::rtorb::codegen::TypeCode::string(12),
        )
    }
    /// IDL typedef `Types::WideText`.
    pub type WideText = ::std::string::String;
    /// The TypeCode of `WideText` (`tk_alias`).
    pub fn wide_text_type_code() -> ::rtorb::codegen::TypeCode {
        ::rtorb::codegen::TypeCode::alias(
            "IDL:example.org/Types/WideText:1.0",
            "WideText",
            ::rtorb::codegen::TypeCode::wstring(0),
        )
    }
    /// IDL typedef `Types::ShortWideText`. Bounded to 6 characters, checked where it is written and read.
    pub type ShortWideText = ::std::string::String;
    /// The TypeCode of `ShortWideText` (`tk_alias`).
    pub fn short_wide_text_type_code() -> ::rtorb::codegen::TypeCode {
        ::rtorb::codegen::TypeCode::alias(
            "IDL:example.org/Types/ShortWideText:1.0",
            "ShortWideText",
            ::rtorb::codegen::TypeCode::wstring(6),
        )
    }
    /// IDL typedef `Types::Money`.
    pub type Money = ::rtorb::codegen::Fixed;
    /// The TypeCode of `Money` (`tk_alias`).
    pub fn money_type_code() -> ::rtorb::codegen::TypeCode {
        ::rtorb::codegen::TypeCode::alias(
            "IDL:example.org/Types/Money:1.0",
            "Money",
            ::rtorb::codegen::TypeCode::fixed(9, 2)
                .unwrap_or_else(|_| ::rtorb::codegen::TypeCode::null()),
        )
    }
    /// IDL typedef `Types::Grid`.
    pub type Grid = [[i32; 4]; 3];
    /// The TypeCode of `Grid` (`tk_alias`).
    pub fn grid_type_code() -> ::rtorb::codegen::TypeCode {
        ::rtorb::codegen::TypeCode::alias(
            "IDL:example.org/Types/Grid:1.0",
            "Grid",
            ::rtorb::codegen::TypeCode::array(
                ::rtorb::codegen::TypeCode::array(::rtorb::codegen::TypeCode::long(), 4),
                3,
            ),
        )
    }
    /// IDL typedef `Types::Palette`.
    pub type Palette = [[[Color; 2]; 2]; 2];
    /// The TypeCode of `Palette` (`tk_alias`).
    pub fn palette_type_code() -> ::rtorb::codegen::TypeCode {
        ::rtorb::codegen::TypeCode::alias(
            "IDL:example.org/Types/Palette:1.0",
            "Palette",
            ::rtorb::codegen::TypeCode::array(
                ::rtorb::codegen::TypeCode::array(
                    ::rtorb::codegen::TypeCode::array(
                        <Color as ::rtorb::codegen::IdlType>::type_code(),
                        2,
                    ),
                    2,
                ),
                2,
            ),
        )
    }
    /// IDL typedef `Types::Names`.
    pub type Names = [::std::string::String; 2];
    /// The TypeCode of `Names` (`tk_alias`).
    pub fn names_type_code() -> ::rtorb::codegen::TypeCode {
        ::rtorb::codegen::TypeCode::alias(
            "IDL:example.org/Types/Names:1.0",
            "Names",
            ::rtorb::codegen::TypeCode::array(::rtorb::codegen::TypeCode::string(0), 2),
        )
    }
    /// IDL typedef `Types::Grids`.
    pub type Grids = ::std::vec::Vec<Grid>;
    /// The TypeCode of `Grids` (`tk_alias`).
    pub fn grids_type_code() -> ::rtorb::codegen::TypeCode {
        ::rtorb::codegen::TypeCode::alias(
            "IDL:example.org/Types/Grids:1.0",
            "Grids",
            ::rtorb::codegen::TypeCode::sequence(grid_type_code(), 0),
        )
    }
    /// IDL typedef `Types::Anything`.
    pub type Anything = ::rtorb::codegen::Any;
    /// The TypeCode of `Anything` (`tk_alias`).
    pub fn anything_type_code() -> ::rtorb::codegen::TypeCode {
        ::rtorb::codegen::TypeCode::alias(
            "IDL:example.org/Types/Anything:1.0",
            "Anything",
            ::rtorb::codegen::TypeCode::any(),
        )
    }
    /// IDL typedef `Types::Reference`.
    pub type Reference = ::core::option::Option<::rtorb::codegen::Object>;
    /// The TypeCode of `Reference` (`tk_alias`).
    pub fn reference_type_code() -> ::rtorb::codegen::TypeCode {
        ::rtorb::codegen::TypeCode::alias(
            "IDL:example.org/Types/Reference:1.0",
            "Reference",
            ::rtorb::codegen::TypeCode::objref("IDL:omg.org/CORBA/Object:1.0", "Object"),
        )
    }
    /// IDL typedef `Types::Kind`.
    pub type Kind = ::rtorb::codegen::TypeCode;
    /// The TypeCode of `Kind` (`tk_alias`).
    pub fn kind_type_code() -> ::rtorb::codegen::TypeCode {
        ::rtorb::codegen::TypeCode::alias(
            "IDL:example.org/Types/Kind:1.0",
            "Kind",
            ::rtorb::codegen::TypeCode::tc_typecode(),
        )
    }
    /// Every basic type as a member.
    ///
    /// IDL struct `Types::Basic` (`IDL:example.org/Types/Basic:1.0`).
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Basic {
        /// `s`
        pub s: i16,
        /// `us`
        pub us: u16,
        /// `l`
        pub l: i32,
        /// `ul`
        pub ul: u32,
        /// `ll`
        pub ll: i64,
        /// `ull`
        pub ull: u64,
        /// `f`
        pub f: f32,
        /// `d`
        pub d: f64,
        /// `ld`
        pub ld: ::rtorb::codegen::LongDouble,
        /// `c`
        pub c: char,
        /// `wc`
        pub wc: char,
        /// `b`
        pub b: bool,
        /// `o`
        pub o: u8,
    }
    impl ::rtorb::codegen::CdrEncode for Basic {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            ::rtorb::codegen::CdrEncode::encode(&self.s, e)?;
            ::rtorb::codegen::CdrEncode::encode(&self.us, e)?;
            ::rtorb::codegen::CdrEncode::encode(&self.l, e)?;
            ::rtorb::codegen::CdrEncode::encode(&self.ul, e)?;
            ::rtorb::codegen::CdrEncode::encode(&self.ll, e)?;
            ::rtorb::codegen::CdrEncode::encode(&self.ull, e)?;
            ::rtorb::codegen::CdrEncode::encode(&self.f, e)?;
            ::rtorb::codegen::CdrEncode::encode(&self.d, e)?;
            ::rtorb::codegen::CdrEncode::encode(&self.ld, e)?;
            ::rtorb::codegen::CdrEncode::encode(&self.c, e)?;
            e.write_wchar(self.wc)?;
            ::rtorb::codegen::CdrEncode::encode(&self.b, e)?;
            ::rtorb::codegen::CdrEncode::encode(&self.o, e)?;
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for Basic {
        const MIN_WIRE_SIZE: usize = 60;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            Ok(Basic {
                s: <i16 as ::rtorb::codegen::CdrDecode>::decode(d)?,
                us: <u16 as ::rtorb::codegen::CdrDecode>::decode(d)?,
                l: <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?,
                ul: <u32 as ::rtorb::codegen::CdrDecode>::decode(d)?,
                ll: <i64 as ::rtorb::codegen::CdrDecode>::decode(d)?,
                ull: <u64 as ::rtorb::codegen::CdrDecode>::decode(d)?,
                f: <f32 as ::rtorb::codegen::CdrDecode>::decode(d)?,
                d: <f64 as ::rtorb::codegen::CdrDecode>::decode(d)?,
                ld: <::rtorb::codegen::LongDouble as ::rtorb::codegen::CdrDecode>::decode(
                    d,
                )?,
                c: <char as ::rtorb::codegen::CdrDecode>::decode(d)?,
                wc: d.read_wchar()?,
                b: <bool as ::rtorb::codegen::CdrDecode>::decode(d)?,
                o: <u8 as ::rtorb::codegen::CdrDecode>::decode(d)?,
            })
        }
    }
    impl ::rtorb::codegen::IdlType for Basic {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::struct_tc(
                "IDL:example.org/Types/Basic:1.0",
                "Basic",
                [
                    ("s", ::rtorb::codegen::TypeCode::short()),
                    ("us", ::rtorb::codegen::TypeCode::ushort()),
                    ("l", ::rtorb::codegen::TypeCode::long()),
                    ("ul", ::rtorb::codegen::TypeCode::ulong()),
                    ("ll", ::rtorb::codegen::TypeCode::longlong()),
                    ("ull", ::rtorb::codegen::TypeCode::ulonglong()),
                    ("f", ::rtorb::codegen::TypeCode::float()),
                    ("d", ::rtorb::codegen::TypeCode::double()),
                    ("ld", ::rtorb::codegen::TypeCode::longdouble()),
                    ("c", ::rtorb::codegen::TypeCode::char()),
                    ("wc", ::rtorb::codegen::TypeCode::wchar()),
                    ("b", ::rtorb::codegen::TypeCode::boolean()),
                    ("o", ::rtorb::codegen::TypeCode::octet()),
                ],
            )
        }
    }
    impl ::rtorb::codegen::AnyValue for Basic {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <Basic as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// Template and constructed members.
    ///
    /// IDL struct `Types::Composite` (`IDL:example.org/Types/Composite:1.0`).
    #[derive(Debug, Clone, PartialEq)]
    pub struct Composite {
        /// `t`
        pub t: Text,
        /// `short_text`
        pub short_text: ShortText,
        /// `wide`
        pub wide: WideText,
        /// `short_wide`
        pub short_wide: ShortWideText,
        /// `many`
        pub many: Longs,
        /// `five`
        pub five: FiveLongs,
        /// `bytes`
        pub bytes: Octets,
        /// `sixteen`
        pub sixteen: SixteenOctets,
        /// `table`
        pub table: Nested,
        /// `price`
        pub price: Money,
        /// `whole`
        pub whole: ::rtorb::codegen::Fixed,
        /// `cells`
        pub cells: Grid,
        /// `paint`
        pub paint: Palette,
        /// `labels`
        pub labels: Names,
        /// `layers`
        pub layers: Grids,
        /// `hue`
        pub hue: Color,
        /// `plain`
        pub plain: Basic,
        /// `colors`
        pub colors: ::std::vec::Vec<Color>,
        /// `tiny`
        pub tiny: ::std::string::String,
    }
    impl ::rtorb::codegen::CdrEncode for Composite {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            ::rtorb::codegen::CdrEncode::encode(&self.t, e)?;
            ::rtorb::codegen::check_bound(self.short_text.len(), 12)?;
            e.write_string(&self.short_text)?;
            e.write_wstring(&self.wide)?;
            ::rtorb::codegen::check_bound(self.short_wide.chars().count(), 6)?;
            e.write_wstring(&self.short_wide)?;
            ::rtorb::codegen::CdrEncode::encode(&self.many, e)?;
            ::rtorb::codegen::check_bound(self.five.len(), 5)?;
            ::rtorb::codegen::CdrEncode::encode(&self.five, e)?;
            ::rtorb::codegen::CdrEncode::encode(&self.bytes, e)?;
            ::rtorb::codegen::check_bound(self.sixteen.len(), 16)?;
            ::rtorb::codegen::CdrEncode::encode(&self.sixteen, e)?;
            ::rtorb::codegen::CdrEncode::encode(&self.table, e)?;
            e.write_fixed(&self.price);
            e.write_fixed(&self.whole);
            ::rtorb::codegen::CdrEncode::encode(&self.cells, e)?;
            ::rtorb::codegen::CdrEncode::encode(&self.paint, e)?;
            ::rtorb::codegen::CdrEncode::encode(&self.labels, e)?;
            ::rtorb::codegen::CdrEncode::encode(&self.layers, e)?;
            ::rtorb::codegen::CdrEncode::encode(&self.hue, e)?;
            ::rtorb::codegen::CdrEncode::encode(&self.plain, e)?;
            ::rtorb::codegen::check_bound(self.colors.len(), 3)?;
            ::rtorb::codegen::CdrEncode::encode(&self.colors, e)?;
            ::rtorb::codegen::check_bound(self.tiny.len(), 3)?;
            e.write_string(&self.tiny)?;
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for Composite {
        const MIN_WIRE_SIZE: usize = 213;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            Ok(Composite {
                t: <::std::string::String as ::rtorb::codegen::CdrDecode>::decode(d)?,
                short_text: {
                    let s = d.read_string()?;
                    ::rtorb::codegen::check_bound(s.len(), 12)?;
                    s
                },
                wide: d.read_wstring()?,
                short_wide: {
                    let s = d.read_wstring()?;
                    ::rtorb::codegen::check_bound(s.chars().count(), 6)?;
                    s
                },
                many: <::std::vec::Vec<i32> as ::rtorb::codegen::CdrDecode>::decode(d)?,
                five: {
                    let v = <::std::vec::Vec<
                        i32,
                    > as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    ::rtorb::codegen::check_bound(v.len(), 5)?;
                    v
                },
                bytes: <::rtorb::codegen::Bytes as ::rtorb::codegen::CdrDecode>::decode(
                    d,
                )?,
                sixteen: {
                    let v = <::rtorb::codegen::Bytes as ::rtorb::codegen::CdrDecode>::decode(
                        d,
                    )?;
                    ::rtorb::codegen::check_bound(v.len(), 16)?;
                    v
                },
                table: <::std::vec::Vec<
                    ::std::vec::Vec<::std::string::String>,
                > as ::rtorb::codegen::CdrDecode>::decode(d)?,
                price: d.read_fixed(9, 2)?,
                whole: d.read_fixed(5, 0)?,
                cells: <[[i32; 4]; 3] as ::rtorb::codegen::CdrDecode>::decode(d)?,
                paint: <[[[Color; 2]; 2]; 2] as ::rtorb::codegen::CdrDecode>::decode(d)?,
                labels: <[::std::string::String; 2] as ::rtorb::codegen::CdrDecode>::decode(
                    d,
                )?,
                layers: <::std::vec::Vec<
                    Grid,
                > as ::rtorb::codegen::CdrDecode>::decode(d)?,
                hue: <Color as ::rtorb::codegen::CdrDecode>::decode(d)?,
                plain: <Basic as ::rtorb::codegen::CdrDecode>::decode(d)?,
                colors: {
                    let v = <::std::vec::Vec<
                        Color,
                    > as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    ::rtorb::codegen::check_bound(v.len(), 3)?;
                    v
                },
                tiny: {
                    let s = d.read_string()?;
                    ::rtorb::codegen::check_bound(s.len(), 3)?;
                    s
                },
            })
        }
    }
    impl ::rtorb::codegen::IdlType for Composite {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::struct_tc(
                "IDL:example.org/Types/Composite:1.0",
                "Composite",
                [
                    ("t", text_type_code()),
                    ("short_text", short_text_type_code()),
                    ("wide", wide_text_type_code()),
                    ("short_wide", short_wide_text_type_code()),
                    ("many", longs_type_code()),
                    ("five", five_longs_type_code()),
                    ("bytes", octets_type_code()),
                    ("sixteen", sixteen_octets_type_code()),
                    ("table", nested_type_code()),
                    ("price", money_type_code()),
                    (
                        "whole",
                        ::rtorb::codegen::TypeCode::fixed(5, 0)
                            .unwrap_or_else(|_| ::rtorb::codegen::TypeCode::null()),
                    ),
                    ("cells", grid_type_code()),
                    ("paint", palette_type_code()),
                    ("labels", names_type_code()),
                    ("layers", grids_type_code()),
                    ("hue", <Color as ::rtorb::codegen::IdlType>::type_code()),
                    ("plain", <Basic as ::rtorb::codegen::IdlType>::type_code()),
                    (
                        "colors",
                        ::rtorb::codegen::TypeCode::sequence(
                            <Color as ::rtorb::codegen::IdlType>::type_code(),
                            3,
                        ),
                    ),
                    ("tiny", ::rtorb::codegen::TypeCode::string(3)),
                ],
            )
        }
    }
    impl ::rtorb::codegen::AnyValue for Composite {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <Composite as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// Members that hold any, Object and TypeCode.
    ///
    /// IDL struct `Types::Dynamic` (`IDL:example.org/Types/Dynamic:1.0`).
    #[derive(Debug, Clone)]
    pub struct Dynamic {
        /// `value`
        pub value: Anything,
        /// `target`
        pub target: Reference,
        /// `code`
        pub code: Kind,
    }
    impl ::rtorb::codegen::CdrEncode for Dynamic {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            ::rtorb::codegen::CdrEncode::encode(&self.value, e)?;
            ::rtorb::codegen::write_object(e, self.target.as_ref())?;
            ::rtorb::codegen::CdrEncode::encode(&self.code, e)?;
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for Dynamic {
        const MIN_WIRE_SIZE: usize = 17;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            Ok(Dynamic {
                value: <::rtorb::codegen::Any as ::rtorb::codegen::CdrDecode>::decode(
                    d,
                )?,
                target: ::rtorb::codegen::read_object(d)?,
                code: <::rtorb::codegen::TypeCode as ::rtorb::codegen::CdrDecode>::decode(
                    d,
                )?,
            })
        }
    }
    impl ::rtorb::codegen::IdlType for Dynamic {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::struct_tc(
                "IDL:example.org/Types/Dynamic:1.0",
                "Dynamic",
                [
                    ("value", anything_type_code()),
                    ("target", reference_type_code()),
                    ("code", kind_type_code()),
                ],
            )
        }
    }
    impl ::rtorb::codegen::AnyValue for Dynamic {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <Dynamic as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// A tree: recursive through a sequence.
    ///
    /// IDL struct `Types::Tree` (`IDL:example.org/Types/Tree:1.0`).
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Tree {
        /// `value`
        pub value: i32,
        /// `children`
        pub children: ::std::vec::Vec<Tree>,
    }
    impl ::rtorb::codegen::CdrEncode for Tree {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            ::rtorb::codegen::CdrEncode::encode(&self.value, e)?;
            ::rtorb::codegen::CdrEncode::encode(&self.children, e)?;
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for Tree {
        const MIN_WIRE_SIZE: usize = 8;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            Ok(Tree {
                value: <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?,
                children: <::std::vec::Vec<
                    Tree,
                > as ::rtorb::codegen::CdrDecode>::decode(d)?,
            })
        }
    }
    impl ::rtorb::codegen::IdlType for Tree {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::struct_tc(
                "IDL:example.org/Types/Tree:1.0",
                "Tree",
                [
                    ("value", ::rtorb::codegen::TypeCode::long()),
                    (
                        "children",
                        ::rtorb::codegen::TypeCode::sequence(
                            ::rtorb::codegen::TypeCode::recursive(
                                    ::rtorb::codegen::TCKind::Struct,
                                    "IDL:example.org/Types/Tree:1.0",
                                )
                                .unwrap_or_else(|_| ::rtorb::codegen::TypeCode::null()),
                            0,
                        ),
                    ),
                ],
            )
        }
    }
    impl ::rtorb::codegen::AnyValue for Tree {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <Tree as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// A list: recursive through a bounded sequence.
    ///
    /// IDL struct `Types::Chain` (`IDL:example.org/Types/Chain:1.0`).
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Chain {
        /// `label`
        pub label: ::std::string::String,
        /// `next`
        pub next: ::std::vec::Vec<Chain>,
    }
    impl ::rtorb::codegen::CdrEncode for Chain {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            ::rtorb::codegen::CdrEncode::encode(&self.label, e)?;
            ::rtorb::codegen::check_bound(self.next.len(), 1)?;
            ::rtorb::codegen::CdrEncode::encode(&self.next, e)?;
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for Chain {
        const MIN_WIRE_SIZE: usize = 9;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            Ok(Chain {
                label: <::std::string::String as ::rtorb::codegen::CdrDecode>::decode(
                    d,
                )?,
                next: {
                    let v = <::std::vec::Vec<
                        Chain,
                    > as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    ::rtorb::codegen::check_bound(v.len(), 1)?;
                    v
                },
            })
        }
    }
    impl ::rtorb::codegen::IdlType for Chain {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::struct_tc(
                "IDL:example.org/Types/Chain:1.0",
                "Chain",
                [
                    ("label", ::rtorb::codegen::TypeCode::string(0)),
                    (
                        "next",
                        ::rtorb::codegen::TypeCode::sequence(
                            ::rtorb::codegen::TypeCode::recursive(
                                    ::rtorb::codegen::TCKind::Struct,
                                    "IDL:example.org/Types/Chain:1.0",
                                )
                                .unwrap_or_else(|_| ::rtorb::codegen::TypeCode::null()),
                            1,
                        ),
                    ),
                ],
            )
        }
    }
    impl ::rtorb::codegen::AnyValue for Chain {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <Chain as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// IDL union `Types::ByShort` (`IDL:example.org/Types/ByShort:1.0`): a variant per case, holding the member. The discriminator written for a case is its first label; the `default` case holds the discriminator with the member.
    #[derive(Debug, Clone, PartialEq)]
    #[allow(clippy::large_enum_variant, clippy::enum_variant_names)]
    pub enum ByShort {
        /// `case -1: minus`
        Minus(::std::string::String),
        /// `case 1: plus`
        Plus(i32),
        /// `default: other` (with the discriminator)
        Other(i16, bool),
    }
    impl ::rtorb::codegen::CdrEncode for ByShort {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            match self {
                ByShort::Minus(x) => {
                    ::rtorb::codegen::CdrEncode::encode(&-1i16, e)?;
                    ::rtorb::codegen::CdrEncode::encode(x, e)?;
                }
                ByShort::Plus(x) => {
                    ::rtorb::codegen::CdrEncode::encode(&1i16, e)?;
                    ::rtorb::codegen::CdrEncode::encode(x, e)?;
                }
                ByShort::Other(disc, x) => {
                    ::rtorb::codegen::CdrEncode::encode(disc, e)?;
                    ::rtorb::codegen::CdrEncode::encode(x, e)?;
                }
            }
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for ByShort {
        const MIN_WIRE_SIZE: usize = 2;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            let disc: i16 = <i16 as ::rtorb::codegen::CdrDecode>::decode(d)?;
            Ok(
                match disc {
                    -1 => {
                        ByShort::Minus(
                            <::std::string::String as ::rtorb::codegen::CdrDecode>::decode(
                                d,
                            )?,
                        )
                    }
                    1 => ByShort::Plus(<i32 as ::rtorb::codegen::CdrDecode>::decode(d)?),
                    disc => {
                        ByShort::Other(
                            disc,
                            <bool as ::rtorb::codegen::CdrDecode>::decode(d)?,
                        )
                    }
                },
            )
        }
    }
    impl ::rtorb::codegen::IdlType for ByShort {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::union_tc(
                    "IDL:example.org/Types/ByShort:1.0",
                    "ByShort",
                    ::rtorb::codegen::TypeCode::short(),
                    ::std::vec![
                        ::rtorb::codegen::UnionMember::new(::rtorb::codegen::Value::Short(-
                        1), "minus",
                        ::rtorb::codegen::TypeCode::string(0)),::rtorb::codegen::UnionMember::new(::rtorb::codegen::Value::Short(1),
                        "plus",
                        ::rtorb::codegen::TypeCode::long()),::rtorb::codegen::UnionMember::default_case("other",
                        ::rtorb::codegen::TypeCode::boolean()),
                    ],
                )
                .unwrap_or_else(|_| ::rtorb::codegen::TypeCode::null())
        }
    }
    impl ::rtorb::codegen::AnyValue for ByShort {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <ByShort as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// IDL union `Types::ByUShort` (`IDL:example.org/Types/ByUShort:1.0`): a variant per case, holding the member. The discriminator written for a case is its first label; the `default` case holds the discriminator with the member.
    #[derive(Debug, Clone, PartialEq)]
    #[allow(clippy::large_enum_variant, clippy::enum_variant_names)]
    pub enum ByUShort {
        /// `case 0: zero`
        Zero(i32),
        /// `case 65535: max`
        Max(u8),
        /// No member: the discriminator matches no label.
        NoMember(u16),
    }
    impl ::rtorb::codegen::CdrEncode for ByUShort {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            match self {
                ByUShort::Zero(x) => {
                    ::rtorb::codegen::CdrEncode::encode(&0u16, e)?;
                    ::rtorb::codegen::CdrEncode::encode(x, e)?;
                }
                ByUShort::Max(x) => {
                    ::rtorb::codegen::CdrEncode::encode(&65535u16, e)?;
                    ::rtorb::codegen::CdrEncode::encode(x, e)?;
                }
                ByUShort::NoMember(disc) => {
                    ::rtorb::codegen::CdrEncode::encode(disc, e)?;
                }
            }
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for ByUShort {
        const MIN_WIRE_SIZE: usize = 2;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            let disc: u16 = <u16 as ::rtorb::codegen::CdrDecode>::decode(d)?;
            Ok(
                match disc {
                    0 => ByUShort::Zero(<i32 as ::rtorb::codegen::CdrDecode>::decode(d)?),
                    65535 => {
                        ByUShort::Max(<u8 as ::rtorb::codegen::CdrDecode>::decode(d)?)
                    }
                    disc => ByUShort::NoMember(disc),
                },
            )
        }
    }
    impl ::rtorb::codegen::IdlType for ByUShort {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::union_tc(
                    "IDL:example.org/Types/ByUShort:1.0",
                    "ByUShort",
                    ::rtorb::codegen::TypeCode::ushort(),
                    ::std::vec![
                        ::rtorb::codegen::UnionMember::new(::rtorb::codegen::Value::UShort(0),
                        "zero",
                        ::rtorb::codegen::TypeCode::long()),::rtorb::codegen::UnionMember::new(::rtorb::codegen::Value::UShort(65535),
                        "max", ::rtorb::codegen::TypeCode::octet()),
                    ],
                )
                .unwrap_or_else(|_| ::rtorb::codegen::TypeCode::null())
        }
    }
    impl ::rtorb::codegen::AnyValue for ByUShort {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <ByUShort as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// IDL union `Types::ByLong` (`IDL:example.org/Types/ByLong:1.0`): a variant per case, holding the member. The discriminator written for a case is its first label; the `default` case holds the discriminator with the member.
    #[derive(Debug, Clone, PartialEq)]
    #[allow(clippy::large_enum_variant, clippy::enum_variant_names)]
    pub enum ByLong {
        /// `case 1, 2: small`
        Small(i32),
        /// `default: big` (with the discriminator)
        Big(i32, ::std::string::String),
    }
    impl ::rtorb::codegen::CdrEncode for ByLong {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            match self {
                ByLong::Small(x) => {
                    ::rtorb::codegen::CdrEncode::encode(&1i32, e)?;
                    ::rtorb::codegen::CdrEncode::encode(x, e)?;
                }
                ByLong::Big(disc, x) => {
                    ::rtorb::codegen::CdrEncode::encode(disc, e)?;
                    ::rtorb::codegen::CdrEncode::encode(x, e)?;
                }
            }
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for ByLong {
        const MIN_WIRE_SIZE: usize = 4;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            let disc: i32 = <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?;
            Ok(
                match disc {
                    1 | 2 => {
                        ByLong::Small(<i32 as ::rtorb::codegen::CdrDecode>::decode(d)?)
                    }
                    disc => {
                        ByLong::Big(
                            disc,
                            <::std::string::String as ::rtorb::codegen::CdrDecode>::decode(
                                d,
                            )?,
                        )
                    }
                },
            )
        }
    }
    impl ::rtorb::codegen::IdlType for ByLong {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::union_tc(
                    "IDL:example.org/Types/ByLong:1.0",
                    "ByLong",
                    ::rtorb::codegen::TypeCode::long(),
                    ::std::vec![
                        ::rtorb::codegen::UnionMember::new(::rtorb::codegen::Value::Long(1),
                        "small",
                        ::rtorb::codegen::TypeCode::long()),::rtorb::codegen::UnionMember::new(::rtorb::codegen::Value::Long(2),
                        "small",
                        ::rtorb::codegen::TypeCode::long()),::rtorb::codegen::UnionMember::default_case("big",
                        ::rtorb::codegen::TypeCode::string(0)),
                    ],
                )
                .unwrap_or_else(|_| ::rtorb::codegen::TypeCode::null())
        }
    }
    impl ::rtorb::codegen::AnyValue for ByLong {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <ByLong as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// IDL union `Types::ByULong` (`IDL:example.org/Types/ByULong:1.0`): a variant per case, holding the member. The discriminator written for a case is its first label; the `default` case holds the discriminator with the member.
    #[derive(Debug, Clone, PartialEq)]
    #[allow(clippy::large_enum_variant, clippy::enum_variant_names)]
    pub enum ByULong {
        /// `case 7: seven`
        Seven(Text),
        /// No member: the discriminator matches no label.
        NoMember(u32),
    }
    impl ::rtorb::codegen::CdrEncode for ByULong {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            match self {
                ByULong::Seven(x) => {
                    ::rtorb::codegen::CdrEncode::encode(&7u32, e)?;
                    ::rtorb::codegen::CdrEncode::encode(x, e)?;
                }
                ByULong::NoMember(disc) => {
                    ::rtorb::codegen::CdrEncode::encode(disc, e)?;
                }
            }
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for ByULong {
        const MIN_WIRE_SIZE: usize = 4;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            let disc: u32 = <u32 as ::rtorb::codegen::CdrDecode>::decode(d)?;
            Ok(
                match disc {
                    7 => {
                        ByULong::Seven(
                            <::std::string::String as ::rtorb::codegen::CdrDecode>::decode(
                                d,
                            )?,
                        )
                    }
                    disc => ByULong::NoMember(disc),
                },
            )
        }
    }
    impl ::rtorb::codegen::IdlType for ByULong {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::union_tc(
                    "IDL:example.org/Types/ByULong:1.0",
                    "ByULong",
                    ::rtorb::codegen::TypeCode::ulong(),
                    ::std::vec![
                        ::rtorb::codegen::UnionMember::new(::rtorb::codegen::Value::ULong(7),
                        "seven", text_type_code()),
                    ],
                )
                .unwrap_or_else(|_| ::rtorb::codegen::TypeCode::null())
        }
    }
    impl ::rtorb::codegen::AnyValue for ByULong {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <ByULong as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// IDL union `Types::ByLongLong` (`IDL:example.org/Types/ByLongLong:1.0`): a variant per case, holding the member. The discriminator written for a case is its first label; the `default` case holds the discriminator with the member.
    #[derive(Debug, Clone, PartialEq)]
    #[allow(clippy::large_enum_variant, clippy::enum_variant_names)]
    pub enum ByLongLong {
        /// `case 10000000000: huge`
        Huge(f64),
        /// `default: rest` (with the discriminator)
        Rest(i64, i32),
    }
    impl ::rtorb::codegen::CdrEncode for ByLongLong {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            match self {
                ByLongLong::Huge(x) => {
                    ::rtorb::codegen::CdrEncode::encode(&10000000000i64, e)?;
                    ::rtorb::codegen::CdrEncode::encode(x, e)?;
                }
                ByLongLong::Rest(disc, x) => {
                    ::rtorb::codegen::CdrEncode::encode(disc, e)?;
                    ::rtorb::codegen::CdrEncode::encode(x, e)?;
                }
            }
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for ByLongLong {
        const MIN_WIRE_SIZE: usize = 8;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            let disc: i64 = <i64 as ::rtorb::codegen::CdrDecode>::decode(d)?;
            Ok(
                match disc {
                    10000000000 => {
                        ByLongLong::Huge(
                            <f64 as ::rtorb::codegen::CdrDecode>::decode(d)?,
                        )
                    }
                    disc => {
                        ByLongLong::Rest(
                            disc,
                            <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?,
                        )
                    }
                },
            )
        }
    }
    impl ::rtorb::codegen::IdlType for ByLongLong {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::union_tc(
                    "IDL:example.org/Types/ByLongLong:1.0",
                    "ByLongLong",
                    ::rtorb::codegen::TypeCode::longlong(),
                    ::std::vec![
                        ::rtorb::codegen::UnionMember::new(::rtorb::codegen::Value::LongLong(10000000000),
                        "huge",
                        ::rtorb::codegen::TypeCode::double()),::rtorb::codegen::UnionMember::default_case("rest",
                        ::rtorb::codegen::TypeCode::long()),
                    ],
                )
                .unwrap_or_else(|_| ::rtorb::codegen::TypeCode::null())
        }
    }
    impl ::rtorb::codegen::AnyValue for ByLongLong {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <ByLongLong as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// IDL union `Types::ByULongLong` (`IDL:example.org/Types/ByULongLong:1.0`): a variant per case, holding the member. The discriminator written for a case is its first label; the `default` case holds the discriminator with the member.
    #[derive(Debug, Clone, PartialEq)]
    #[allow(clippy::large_enum_variant, clippy::enum_variant_names)]
    pub enum ByULongLong {
        /// `case 1: one`
        One(char),
        /// No member: the discriminator matches no label.
        NoMember(u64),
    }
    impl ::rtorb::codegen::CdrEncode for ByULongLong {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            match self {
                ByULongLong::One(x) => {
                    ::rtorb::codegen::CdrEncode::encode(&1u64, e)?;
                    ::rtorb::codegen::CdrEncode::encode(x, e)?;
                }
                ByULongLong::NoMember(disc) => {
                    ::rtorb::codegen::CdrEncode::encode(disc, e)?;
                }
            }
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for ByULongLong {
        const MIN_WIRE_SIZE: usize = 8;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            let disc: u64 = <u64 as ::rtorb::codegen::CdrDecode>::decode(d)?;
            Ok(
                match disc {
                    1 => {
                        ByULongLong::One(
                            <char as ::rtorb::codegen::CdrDecode>::decode(d)?,
                        )
                    }
                    disc => ByULongLong::NoMember(disc),
                },
            )
        }
    }
    impl ::rtorb::codegen::IdlType for ByULongLong {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::union_tc(
                    "IDL:example.org/Types/ByULongLong:1.0",
                    "ByULongLong",
                    ::rtorb::codegen::TypeCode::ulonglong(),
                    ::std::vec![
                        ::rtorb::codegen::UnionMember::new(::rtorb::codegen::Value::ULongLong(1),
                        "one", ::rtorb::codegen::TypeCode::char()),
                    ],
                )
                .unwrap_or_else(|_| ::rtorb::codegen::TypeCode::null())
        }
    }
    impl ::rtorb::codegen::AnyValue for ByULongLong {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <ByULongLong as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// IDL union `Types::ByChar` (`IDL:example.org/Types/ByChar:1.0`): a variant per case, holding the member. The discriminator written for a case is its first label; the `default` case holds the discriminator with the member.
    #[derive(Debug, Clone, PartialEq)]
    #[allow(clippy::large_enum_variant, clippy::enum_variant_names)]
    pub enum ByChar {
        /// `case 'a': a`
        A(i32),
        /// `case 'b', 'c': bc`
        Bc(::std::string::String),
        /// `default: other` (with the discriminator)
        Other(char, u8),
    }
    impl ::rtorb::codegen::CdrEncode for ByChar {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            match self {
                ByChar::A(x) => {
                    ::rtorb::codegen::CdrEncode::encode(&'a', e)?;
                    ::rtorb::codegen::CdrEncode::encode(x, e)?;
                }
                ByChar::Bc(x) => {
                    ::rtorb::codegen::CdrEncode::encode(&'b', e)?;
                    ::rtorb::codegen::CdrEncode::encode(x, e)?;
                }
                ByChar::Other(disc, x) => {
                    ::rtorb::codegen::CdrEncode::encode(disc, e)?;
                    ::rtorb::codegen::CdrEncode::encode(x, e)?;
                }
            }
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for ByChar {
        const MIN_WIRE_SIZE: usize = 1;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            let disc: char = <char as ::rtorb::codegen::CdrDecode>::decode(d)?;
            Ok(
                match disc {
                    'a' => ByChar::A(<i32 as ::rtorb::codegen::CdrDecode>::decode(d)?),
                    'b' | 'c' => {
                        ByChar::Bc(
                            <::std::string::String as ::rtorb::codegen::CdrDecode>::decode(
                                d,
                            )?,
                        )
                    }
                    disc => {
                        ByChar::Other(
                            disc,
                            <u8 as ::rtorb::codegen::CdrDecode>::decode(d)?,
                        )
                    }
                },
            )
        }
    }
    impl ::rtorb::codegen::IdlType for ByChar {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::union_tc(
                    "IDL:example.org/Types/ByChar:1.0",
                    "ByChar",
                    ::rtorb::codegen::TypeCode::char(),
                    ::std::vec![
                        ::rtorb::codegen::UnionMember::new(::rtorb::codegen::Value::Char('a'),
                        "a",
                        ::rtorb::codegen::TypeCode::long()),::rtorb::codegen::UnionMember::new(::rtorb::codegen::Value::Char('b'),
                        "bc",
                        ::rtorb::codegen::TypeCode::string(0)),::rtorb::codegen::UnionMember::new(::rtorb::codegen::Value::Char('c'),
                        "bc",
                        ::rtorb::codegen::TypeCode::string(0)),::rtorb::codegen::UnionMember::default_case("other",
                        ::rtorb::codegen::TypeCode::octet()),
                    ],
                )
                .unwrap_or_else(|_| ::rtorb::codegen::TypeCode::null())
        }
    }
    impl ::rtorb::codegen::AnyValue for ByChar {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <ByChar as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// IDL union `Types::ByBool` (`IDL:example.org/Types/ByBool:1.0`): a variant per case, holding the member. The discriminator written for a case is its first label; the `default` case holds the discriminator with the member.
    #[derive(Debug, Clone, PartialEq)]
    #[allow(clippy::large_enum_variant, clippy::enum_variant_names)]
    pub enum ByBool {
        /// `case true: yes`
        Yes(i32),
        /// `case false: no`
        No(::std::string::String),
    }
    impl ::rtorb::codegen::CdrEncode for ByBool {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            match self {
                ByBool::Yes(x) => {
                    ::rtorb::codegen::CdrEncode::encode(&true, e)?;
                    ::rtorb::codegen::CdrEncode::encode(x, e)?;
                }
                ByBool::No(x) => {
                    ::rtorb::codegen::CdrEncode::encode(&false, e)?;
                    ::rtorb::codegen::CdrEncode::encode(x, e)?;
                }
            }
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for ByBool {
        const MIN_WIRE_SIZE: usize = 1;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            let disc: bool = <bool as ::rtorb::codegen::CdrDecode>::decode(d)?;
            Ok(
                match disc {
                    true => ByBool::Yes(<i32 as ::rtorb::codegen::CdrDecode>::decode(d)?),
                    false => {
                        ByBool::No(
                            <::std::string::String as ::rtorb::codegen::CdrDecode>::decode(
                                d,
                            )?,
                        )
                    }
                },
            )
        }
    }
    impl ::rtorb::codegen::IdlType for ByBool {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::union_tc(
                    "IDL:example.org/Types/ByBool:1.0",
                    "ByBool",
                    ::rtorb::codegen::TypeCode::boolean(),
                    ::std::vec![
                        ::rtorb::codegen::UnionMember::new(::rtorb::codegen::Value::Boolean(true),
                        "yes",
                        ::rtorb::codegen::TypeCode::long()),::rtorb::codegen::UnionMember::new(::rtorb::codegen::Value::Boolean(false),
                        "no", ::rtorb::codegen::TypeCode::string(0)),
                    ],
                )
                .unwrap_or_else(|_| ::rtorb::codegen::TypeCode::null())
        }
    }
    impl ::rtorb::codegen::AnyValue for ByBool {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <ByBool as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// IDL union `Types::ByBoolOne` (`IDL:example.org/Types/ByBoolOne:1.0`): a variant per case, holding the member. The discriminator written for a case is its first label; the `default` case holds the discriminator with the member.
    #[derive(Debug, Clone, PartialEq)]
    #[allow(clippy::large_enum_variant, clippy::enum_variant_names)]
    pub enum ByBoolOne {
        /// `case false: off`
        Off(f64),
        /// No member: the discriminator matches no label.
        NoMember(bool),
    }
    impl ::rtorb::codegen::CdrEncode for ByBoolOne {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            match self {
                ByBoolOne::Off(x) => {
                    ::rtorb::codegen::CdrEncode::encode(&false, e)?;
                    ::rtorb::codegen::CdrEncode::encode(x, e)?;
                }
                ByBoolOne::NoMember(disc) => {
                    ::rtorb::codegen::CdrEncode::encode(disc, e)?;
                }
            }
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for ByBoolOne {
        const MIN_WIRE_SIZE: usize = 1;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            let disc: bool = <bool as ::rtorb::codegen::CdrDecode>::decode(d)?;
            Ok(
                match disc {
                    false => {
                        ByBoolOne::Off(<f64 as ::rtorb::codegen::CdrDecode>::decode(d)?)
                    }
                    disc => ByBoolOne::NoMember(disc),
                },
            )
        }
    }
    impl ::rtorb::codegen::IdlType for ByBoolOne {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::union_tc(
                    "IDL:example.org/Types/ByBoolOne:1.0",
                    "ByBoolOne",
                    ::rtorb::codegen::TypeCode::boolean(),
                    ::std::vec![
                        ::rtorb::codegen::UnionMember::new(::rtorb::codegen::Value::Boolean(false),
                        "off", ::rtorb::codegen::TypeCode::double()),
                    ],
                )
                .unwrap_or_else(|_| ::rtorb::codegen::TypeCode::null())
        }
    }
    impl ::rtorb::codegen::AnyValue for ByBoolOne {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <ByBoolOne as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// IDL union `Types::ByEnum` (`IDL:example.org/Types/ByEnum:1.0`): a variant per case, holding the member. The discriminator written for a case is its first label; the `default` case holds the discriminator with the member.
    #[derive(Debug, Clone, PartialEq)]
    #[allow(clippy::large_enum_variant, clippy::enum_variant_names)]
    pub enum ByEnum {
        /// `case Color::Red: r`
        R(i32),
        /// `case Color::Green, Color::Blue: gb`
        Gb(::std::string::String),
    }
    impl ::rtorb::codegen::CdrEncode for ByEnum {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            match self {
                ByEnum::R(x) => {
                    ::rtorb::codegen::CdrEncode::encode(&Color::Red, e)?;
                    ::rtorb::codegen::CdrEncode::encode(x, e)?;
                }
                ByEnum::Gb(x) => {
                    ::rtorb::codegen::CdrEncode::encode(&Color::Green, e)?;
                    ::rtorb::codegen::CdrEncode::encode(x, e)?;
                }
            }
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for ByEnum {
        const MIN_WIRE_SIZE: usize = 4;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            let disc: Color = <Color as ::rtorb::codegen::CdrDecode>::decode(d)?;
            Ok(
                match disc {
                    Color::Red => {
                        ByEnum::R(<i32 as ::rtorb::codegen::CdrDecode>::decode(d)?)
                    }
                    Color::Green | Color::Blue => {
                        ByEnum::Gb(
                            <::std::string::String as ::rtorb::codegen::CdrDecode>::decode(
                                d,
                            )?,
                        )
                    }
                },
            )
        }
    }
    impl ::rtorb::codegen::IdlType for ByEnum {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::union_tc(
                    "IDL:example.org/Types/ByEnum:1.0",
                    "ByEnum",
                    <Color as ::rtorb::codegen::IdlType>::type_code(),
                    ::std::vec![
                        ::rtorb::codegen::UnionMember::new(::rtorb::codegen::Value::Enum(0),
                        "r",
                        ::rtorb::codegen::TypeCode::long()),::rtorb::codegen::UnionMember::new(::rtorb::codegen::Value::Enum(1),
                        "gb",
                        ::rtorb::codegen::TypeCode::string(0)),::rtorb::codegen::UnionMember::new(::rtorb::codegen::Value::Enum(2),
                        "gb", ::rtorb::codegen::TypeCode::string(0)),
                    ],
                )
                .unwrap_or_else(|_| ::rtorb::codegen::TypeCode::null())
        }
    }
    impl ::rtorb::codegen::AnyValue for ByEnum {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <ByEnum as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// IDL union `Types::ByEnumDefault` (`IDL:example.org/Types/ByEnumDefault:1.0`): a variant per case, holding the member. The discriminator written for a case is its first label; the `default` case holds the discriminator with the member.
    #[derive(Debug, Clone, PartialEq)]
    #[allow(clippy::large_enum_variant, clippy::enum_variant_names)]
    pub enum ByEnumDefault {
        /// `case Color::Red: r`
        R(i32),
        /// `default: other` (with the discriminator)
        Other(Color, Color),
    }
    impl ::rtorb::codegen::CdrEncode for ByEnumDefault {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            match self {
                ByEnumDefault::R(x) => {
                    ::rtorb::codegen::CdrEncode::encode(&Color::Red, e)?;
                    ::rtorb::codegen::CdrEncode::encode(x, e)?;
                }
                ByEnumDefault::Other(disc, x) => {
                    ::rtorb::codegen::CdrEncode::encode(disc, e)?;
                    ::rtorb::codegen::CdrEncode::encode(x, e)?;
                }
            }
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for ByEnumDefault {
        const MIN_WIRE_SIZE: usize = 4;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            let disc: Color = <Color as ::rtorb::codegen::CdrDecode>::decode(d)?;
            Ok(
                match disc {
                    Color::Red => {
                        ByEnumDefault::R(
                            <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?,
                        )
                    }
                    disc => {
                        ByEnumDefault::Other(
                            disc,
                            <Color as ::rtorb::codegen::CdrDecode>::decode(d)?,
                        )
                    }
                },
            )
        }
    }
    impl ::rtorb::codegen::IdlType for ByEnumDefault {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::union_tc(
                    "IDL:example.org/Types/ByEnumDefault:1.0",
                    "ByEnumDefault",
                    <Color as ::rtorb::codegen::IdlType>::type_code(),
                    ::std::vec![
                        ::rtorb::codegen::UnionMember::new(::rtorb::codegen::Value::Enum(0),
                        "r",
                        ::rtorb::codegen::TypeCode::long()),::rtorb::codegen::UnionMember::default_case("other",
                        < Color as ::rtorb::codegen::IdlType >::type_code()),
                    ],
                )
                .unwrap_or_else(|_| ::rtorb::codegen::TypeCode::null())
        }
    }
    impl ::rtorb::codegen::AnyValue for ByEnumDefault {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <ByEnumDefault as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// IDL union `Types::ByAlias` (`IDL:example.org/Types/ByAlias:1.0`): a variant per case, holding the member. The discriminator written for a case is its first label; the `default` case holds the discriminator with the member.
    #[derive(Debug, Clone, PartialEq)]
    #[allow(clippy::large_enum_variant, clippy::enum_variant_names)]
    pub enum ByAlias {
        /// `case 3: cells`
        Cells(Grid),
        /// `default: rest` (with the discriminator)
        Rest(i32, Longs),
    }
    impl ::rtorb::codegen::CdrEncode for ByAlias {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            match self {
                ByAlias::Cells(x) => {
                    ::rtorb::codegen::CdrEncode::encode(&3i32, e)?;
                    ::rtorb::codegen::CdrEncode::encode(x, e)?;
                }
                ByAlias::Rest(disc, x) => {
                    ::rtorb::codegen::CdrEncode::encode(disc, e)?;
                    ::rtorb::codegen::CdrEncode::encode(x, e)?;
                }
            }
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for ByAlias {
        const MIN_WIRE_SIZE: usize = 4;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            let disc: i32 = <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?;
            Ok(
                match disc {
                    3 => {
                        ByAlias::Cells(
                            <[[i32; 4]; 3] as ::rtorb::codegen::CdrDecode>::decode(d)?,
                        )
                    }
                    disc => {
                        ByAlias::Rest(
                            disc,
                            <::std::vec::Vec<
                                i32,
                            > as ::rtorb::codegen::CdrDecode>::decode(d)?,
                        )
                    }
                },
            )
        }
    }
    impl ::rtorb::codegen::IdlType for ByAlias {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::union_tc(
                    "IDL:example.org/Types/ByAlias:1.0",
                    "ByAlias",
                    integer_type_code(),
                    ::std::vec![
                        ::rtorb::codegen::UnionMember::new(::rtorb::codegen::Value::Long(3),
                        "cells",
                        grid_type_code()),::rtorb::codegen::UnionMember::default_case("rest",
                        longs_type_code()),
                    ],
                )
                .unwrap_or_else(|_| ::rtorb::codegen::TypeCode::null())
        }
    }
    impl ::rtorb::codegen::AnyValue for ByAlias {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <ByAlias as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// A union that holds itself through a sequence.
    ///
    /// IDL union `Types::Expr` (`IDL:example.org/Types/Expr:1.0`): a variant per case, holding the member. The discriminator written for a case is its first label; the `default` case holds the discriminator with the member.
    #[derive(Debug, Clone, PartialEq)]
    #[allow(clippy::large_enum_variant, clippy::enum_variant_names)]
    pub enum Expr {
        /// `case 0: literal`
        Literal(i32),
        /// `case 1: sum`
        Sum(::std::vec::Vec<Expr>),
        /// No member: the discriminator matches no label.
        NoMember(i32),
    }
    impl ::rtorb::codegen::CdrEncode for Expr {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            match self {
                Expr::Literal(x) => {
                    ::rtorb::codegen::CdrEncode::encode(&0i32, e)?;
                    ::rtorb::codegen::CdrEncode::encode(x, e)?;
                }
                Expr::Sum(x) => {
                    ::rtorb::codegen::CdrEncode::encode(&1i32, e)?;
                    ::rtorb::codegen::CdrEncode::encode(x, e)?;
                }
                Expr::NoMember(disc) => {
                    ::rtorb::codegen::CdrEncode::encode(disc, e)?;
                }
            }
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for Expr {
        const MIN_WIRE_SIZE: usize = 4;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            let disc: i32 = <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?;
            Ok(
                match disc {
                    0 => Expr::Literal(<i32 as ::rtorb::codegen::CdrDecode>::decode(d)?),
                    1 => {
                        Expr::Sum(
                            <::std::vec::Vec<
                                Expr,
                            > as ::rtorb::codegen::CdrDecode>::decode(d)?,
                        )
                    }
                    disc => Expr::NoMember(disc),
                },
            )
        }
    }
    impl ::rtorb::codegen::IdlType for Expr {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::union_tc(
                    "IDL:example.org/Types/Expr:1.0",
                    "Expr",
                    ::rtorb::codegen::TypeCode::long(),
                    ::std::vec![
                        ::rtorb::codegen::UnionMember::new(::rtorb::codegen::Value::Long(0),
                        "literal",
                        ::rtorb::codegen::TypeCode::long()),::rtorb::codegen::UnionMember::new(::rtorb::codegen::Value::Long(1),
                        "sum",
                        ::rtorb::codegen::TypeCode::sequence(::rtorb::codegen::TypeCode::recursive(::rtorb::codegen::TCKind::Union,
                        "IDL:example.org/Types/Expr:1.0").unwrap_or_else(| _ |
                        ::rtorb::codegen::TypeCode::null()), 0)),
                    ],
                )
                .unwrap_or_else(|_| ::rtorb::codegen::TypeCode::null())
        }
    }
    impl ::rtorb::codegen::AnyValue for Expr {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <Expr as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// An exception with members of several kinds.
    ///
    /// IDL exception `Types::Failure` (`IDL:example.org/Types/Failure:1.0`).
    #[derive(Debug, Clone, PartialEq)]
    pub struct Failure {
        /// `code`
        pub code: i32,
        /// `reason`
        pub reason: Text,
        /// `data`
        pub data: Longs,
        /// `hue`
        pub hue: Color,
    }
    impl ::rtorb::codegen::CdrEncode for Failure {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            ::rtorb::codegen::CdrEncode::encode(&self.code, e)?;
            ::rtorb::codegen::CdrEncode::encode(&self.reason, e)?;
            ::rtorb::codegen::CdrEncode::encode(&self.data, e)?;
            ::rtorb::codegen::CdrEncode::encode(&self.hue, e)?;
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for Failure {
        const MIN_WIRE_SIZE: usize = 17;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            Ok(Failure {
                code: <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?,
                reason: <::std::string::String as ::rtorb::codegen::CdrDecode>::decode(
                    d,
                )?,
                data: <::std::vec::Vec<i32> as ::rtorb::codegen::CdrDecode>::decode(d)?,
                hue: <Color as ::rtorb::codegen::CdrDecode>::decode(d)?,
            })
        }
    }
    impl ::rtorb::codegen::IdlType for Failure {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::exception_tc(
                "IDL:example.org/Types/Failure:1.0",
                "Failure",
                [
                    ("code", ::rtorb::codegen::TypeCode::long()),
                    ("reason", text_type_code()),
                    ("data", longs_type_code()),
                    ("hue", <Color as ::rtorb::codegen::IdlType>::type_code()),
                ],
            )
        }
    }
    impl ::rtorb::codegen::AnyValue for Failure {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <Failure as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    impl ::rtorb::codegen::UserException for Failure {
        const REPOSITORY_ID: &'static str = "IDL:example.org/Types/Failure:1.0";
    }
    impl ::std::fmt::Display for Failure {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            f.write_str("user exception Types::Failure")
        }
    }
    impl ::std::error::Error for Failure {}
    /// An exception without members.
    ///
    /// IDL exception `Types::Empty` (`IDL:example.org/Types/Empty:1.0`).
    #[derive(Debug, Clone, PartialEq)]
    pub struct Empty {}
    impl ::rtorb::codegen::CdrEncode for Empty {
        fn encode(
            &self,
            _e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for Empty {
        const MIN_WIRE_SIZE: usize = 0;
        fn decode(_d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            Ok(Empty {})
        }
    }
    impl ::rtorb::codegen::IdlType for Empty {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::exception_tc(
                "IDL:example.org/Types/Empty:1.0",
                "Empty",
                ::std::vec::Vec::<(&str, ::rtorb::codegen::TypeCode)>::new(),
            )
        }
    }
    impl ::rtorb::codegen::AnyValue for Empty {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <Empty as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    impl ::rtorb::codegen::UserException for Empty {
        const REPOSITORY_ID: &'static str = "IDL:example.org/Types/Empty:1.0";
    }
    impl ::std::fmt::Display for Empty {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            f.write_str("user exception Types::Empty")
        }
    }
    impl ::std::error::Error for Empty {}
    /// Types and operation support of IDL interface `Types::Carrier`.
    pub mod carrier {
        /// The errors of `Types::Carrier::add`.
        #[derive(Debug, Clone, PartialEq)]
        #[allow(clippy::large_enum_variant, clippy::enum_variant_names)]
        pub enum AddError {
            /// `Types::Failure`
            Failure(super::Failure),
            /// `Types::Empty`
            Empty(super::Empty),
            /// A system exception.
            System(::rtorb::codegen::SystemException),
        }
        impl ::core::convert::From<::rtorb::codegen::SystemException> for AddError {
            fn from(e: ::rtorb::codegen::SystemException) -> Self {
                AddError::System(e)
            }
        }
        impl ::rtorb::codegen::OperationError for AddError {
            fn from_user_exception(
                repository_id: &str,
                members: &mut ::rtorb::codegen::Decoder,
            ) -> ::core::option::Option<::rtorb::codegen::Result<Self>> {
                if repository_id
                    == <super::Failure as ::rtorb::codegen::UserException>::REPOSITORY_ID
                {
                    return Some(
                        <super::Failure as ::rtorb::codegen::CdrDecode>::decode(members)
                            .map(AddError::Failure),
                    );
                }
                if repository_id
                    == <super::Empty as ::rtorb::codegen::UserException>::REPOSITORY_ID
                {
                    return Some(
                        <super::Empty as ::rtorb::codegen::CdrDecode>::decode(members)
                            .map(AddError::Empty),
                    );
                }
                None
            }
        }
        impl ::std::fmt::Display for AddError {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                match self {
                    AddError::Failure(x) => ::std::fmt::Display::fmt(x, f),
                    AddError::Empty(x) => ::std::fmt::Display::fmt(x, f),
                    AddError::System(s) => ::std::fmt::Display::fmt(s, f),
                }
            }
        }
        impl ::std::error::Error for AddError {}
        /// Repository ids of `Types::Carrier`, most derived first, then every base.
        pub const REPOSITORY_IDS: &[&str] = &["IDL:example.org/Types/Carrier:1.0"];
        /// Runs a request on a servant of `Types::Carrier`: decodes the arguments, calls the servant, writes the results or exception.
        pub fn dispatch<S: super::CarrierServant + ?Sized>(
            servant: &S,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            match req.operation_bytes() {
                b"echo_basic" => {
                    let d = req.arguments();
                    let b = <super::Basic as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    let r = servant.echo_basic(b)?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"echo_composite" => {
                    let d = req.arguments();
                    let c = <super::Composite as ::rtorb::codegen::CdrDecode>::decode(
                        d,
                    )?;
                    let r = servant.echo_composite(c)?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"echo_dynamic" => {
                    let d = req.arguments();
                    let d_ = <super::Dynamic as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    let r = servant.echo_dynamic(d_)?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"echo_tree" => {
                    let d = req.arguments();
                    let t = <super::Tree as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    let r = servant.echo_tree(t)?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"echo_by_char" => {
                    let d = req.arguments();
                    let u = <super::ByChar as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    let r = servant.echo_by_char(u)?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"echo_expr" => {
                    let d = req.arguments();
                    let e_ = <super::Expr as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    let r = servant.echo_expr(e_)?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"add" => {
                    let d = req.arguments();
                    let a = d.read_fixed(9, 2)?;
                    let b = d.read_fixed(9, 2)?;
                    match servant.add(a, b) {
                        Ok(r) => {
                            req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                                e.write_fixed(&r);
                                Ok(())
                            })
                        }
                        Err(AddError::Failure(x)) => req.write_user_exception(&x),
                        Err(AddError::Empty(x)) => req.write_user_exception(&x),
                        Err(AddError::System(s)) => Err(s),
                    }
                }
                b"kind_of" => {
                    let d = req.arguments();
                    let a = <::rtorb::codegen::Any as ::rtorb::codegen::CdrDecode>::decode(
                        d,
                    )?;
                    let r = servant.kind_of(a)?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                _ => Err(::rtorb::codegen::bad_operation()),
            }
        }
    }
    /// Client stub of IDL interface `Types::Carrier` (`IDL:example.org/Types/Carrier:1.0`).
    #[derive(Debug, Clone)]
    pub struct Carrier(::rtorb::codegen::Object);
    impl ::rtorb::codegen::Stub for Carrier {
        const REPOSITORY_ID: &'static str = "IDL:example.org/Types/Carrier:1.0";
        fn from_object(object: ::rtorb::codegen::Object) -> Self {
            Carrier(object)
        }
        fn as_object(&self) -> &::rtorb::codegen::Object {
            &self.0
        }
        fn into_object(self) -> ::rtorb::codegen::Object {
            self.0
        }
    }
    /// The operations of the base (or of `CORBA::Object`).
    impl ::core::ops::Deref for Carrier {
        type Target = ::rtorb::codegen::Object;
        fn deref(&self) -> &::rtorb::codegen::Object {
            &self.0
        }
    }
    impl ::rtorb::codegen::IdlType for Carrier {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::objref(
                "IDL:example.org/Types/Carrier:1.0",
                "Carrier",
            )
        }
    }
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    impl Carrier {
        /// IDL operation `echo_basic`.
        pub fn echo_basic(
            &self,
            b: &Basic,
        ) -> ::core::result::Result<Basic, ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .invoke(
                    "echo_basic",
                    |e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(b, e)?;
                        Ok(())
                    },
                )?
                .decode(<Basic as ::rtorb::codegen::CdrDecode>::decode)
        }
        /// IDL operation `echo_composite`.
        pub fn echo_composite(
            &self,
            c: &Composite,
        ) -> ::core::result::Result<Composite, ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .invoke(
                    "echo_composite",
                    |e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(c, e)?;
                        Ok(())
                    },
                )?
                .decode(<Composite as ::rtorb::codegen::CdrDecode>::decode)
        }
        /// IDL operation `echo_dynamic`.
        pub fn echo_dynamic(
            &self,
            d_: &Dynamic,
        ) -> ::core::result::Result<Dynamic, ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::with_invoker(
                ::rtorb::codegen::Stub::as_object(self).invoker(),
                || {
                    ::rtorb::codegen::Stub::as_object(self)
                        .invoke(
                            "echo_dynamic",
                            |e: &mut ::rtorb::codegen::Encoder| {
                                ::rtorb::codegen::CdrEncode::encode(d_, e)?;
                                Ok(())
                            },
                        )?
                        .decode(<Dynamic as ::rtorb::codegen::CdrDecode>::decode)
                },
            )
        }
        /// IDL operation `echo_tree`.
        pub fn echo_tree(
            &self,
            t: &Tree,
        ) -> ::core::result::Result<Tree, ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .invoke(
                    "echo_tree",
                    |e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(t, e)?;
                        Ok(())
                    },
                )?
                .decode(<Tree as ::rtorb::codegen::CdrDecode>::decode)
        }
        /// IDL operation `echo_by_char`.
        pub fn echo_by_char(
            &self,
            u: &ByChar,
        ) -> ::core::result::Result<ByChar, ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .invoke(
                    "echo_by_char",
                    |e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(u, e)?;
                        Ok(())
                    },
                )?
                .decode(<ByChar as ::rtorb::codegen::CdrDecode>::decode)
        }
        /// IDL operation `echo_expr`.
        pub fn echo_expr(
            &self,
            e_: &Expr,
        ) -> ::core::result::Result<Expr, ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .invoke(
                    "echo_expr",
                    |e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(e_, e)?;
                        Ok(())
                    },
                )?
                .decode(<Expr as ::rtorb::codegen::CdrDecode>::decode)
        }
        /// IDL operation `add`.
        pub fn add(
            &self,
            a: &Money,
            b: &Money,
        ) -> ::core::result::Result<Money, carrier::AddError> {
            ::rtorb::codegen::Stub::as_object(self)
                .invoke(
                    "add",
                    |e: &mut ::rtorb::codegen::Encoder| {
                        e.write_fixed(a);
                        e.write_fixed(b);
                        Ok(())
                    },
                )?
                .decode(|d: &mut ::rtorb::codegen::Decoder| {
                    let r = d.read_fixed(9, 2)?;
                    Ok(r)
                })
        }
        /// IDL operation `kind_of`.
        pub fn kind_of(
            &self,
            a: &::rtorb::codegen::Any,
        ) -> ::core::result::Result<Kind, ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .invoke(
                    "kind_of",
                    |e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(a, e)?;
                        Ok(())
                    },
                )?
                .decode(<Kind as ::rtorb::codegen::CdrDecode>::decode)
        }
    }
    /// Servant trait of IDL interface `Types::Carrier`: implement it and register `CarrierSkeleton(servant)`.
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    pub trait CarrierServant: Send + Sync {
        /// IDL operation `echo_basic`.
        fn echo_basic(
            &self,
            b: Basic,
        ) -> ::core::result::Result<Basic, ::rtorb::codegen::SystemException>;
        /// IDL operation `echo_composite`.
        fn echo_composite(
            &self,
            c: Composite,
        ) -> ::core::result::Result<Composite, ::rtorb::codegen::SystemException>;
        /// IDL operation `echo_dynamic`.
        fn echo_dynamic(
            &self,
            d_: Dynamic,
        ) -> ::core::result::Result<Dynamic, ::rtorb::codegen::SystemException>;
        /// IDL operation `echo_tree`.
        fn echo_tree(
            &self,
            t: Tree,
        ) -> ::core::result::Result<Tree, ::rtorb::codegen::SystemException>;
        /// IDL operation `echo_by_char`.
        fn echo_by_char(
            &self,
            u: ByChar,
        ) -> ::core::result::Result<ByChar, ::rtorb::codegen::SystemException>;
        /// IDL operation `echo_expr`.
        fn echo_expr(
            &self,
            e_: Expr,
        ) -> ::core::result::Result<Expr, ::rtorb::codegen::SystemException>;
        /// IDL operation `add`.
        fn add(
            &self,
            a: Money,
            b: Money,
        ) -> ::core::result::Result<Money, carrier::AddError>;
        /// IDL operation `kind_of`.
        fn kind_of(
            &self,
            a: ::rtorb::codegen::Any,
        ) -> ::core::result::Result<Kind, ::rtorb::codegen::SystemException>;
    }
    /// Skeleton of IDL interface `Types::Carrier`, wrapping a servant.
    pub struct CarrierSkeleton<S>(pub S);
    impl<S: CarrierServant + 'static> ::rtorb::codegen::Skeleton for CarrierSkeleton<S> {
        fn repository_ids(&self) -> &'static [&'static str] {
            carrier::REPOSITORY_IDS
        }
        fn dispatch(
            &self,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            carrier::dispatch(&self.0, req)
        }
        fn servant(&self) -> ::core::option::Option<&dyn ::core::any::Any> {
            ::core::option::Option::Some(&self.0)
        }
        fn servant_cast(&self, query: &mut dyn ::core::any::Any) {
            ::rtorb::codegen::ServantCast::<
                dyn CarrierServant,
            >::offer(query, |s| s.downcast_ref::<S>().map(|s| s as &dyn CarrierServant));
        }
    }
}
