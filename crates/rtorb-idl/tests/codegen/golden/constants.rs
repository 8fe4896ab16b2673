/// Constants and the expressions that compute them.
///
/// IDL module `Constants`.
pub mod constants {
    /// An enumeration used as a constant type.
    ///
    /// IDL enum `Constants::Level` (`IDL:Constants/Level:1.0`): an `unsigned long` on the wire.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
    #[repr(u32)]
    #[allow(clippy::enum_variant_names)]
    pub enum Level {
        /// `low`
        #[default]
        Low = 0,
        /// `medium`
        Medium = 1,
        /// `high`
        High = 2,
    }
    impl ::rtorb::codegen::CdrEncode for Level {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            e.write_u32(*self as u32);
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for Level {
        const MIN_WIRE_SIZE: usize = 4;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            match d.read_u32()? {
                0 => Ok(Level::Low),
                1 => Ok(Level::Medium),
                2 => Ok(Level::High),
                value => {
                    Err(::rtorb::codegen::CdrError::InvalidEnum {
                        value,
                        count: 3,
                    })
                }
            }
        }
    }
    impl ::rtorb::codegen::IdlType for Level {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::enum_tc(
                "IDL:Constants/Level:1.0",
                "Level",
                ["low", "medium", "high"],
            )
        }
    }
    impl ::rtorb::codegen::AnyValue for Level {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <Level as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// IDL constant `Constants::S_MIN`.
    pub const S_MIN: i16 = -32768;
    /// IDL constant `Constants::S_EXPR`.
    pub const S_EXPR: i16 = 13;
    /// IDL constant `Constants::US_MAX`.
    pub const US_MAX: u16 = 65535;
    /// IDL constant `Constants::L_SHIFT`.
    pub const L_SHIFT: i32 = 1048576;
    /// IDL constant `Constants::L_RSHIFT`.
    pub const L_RSHIFT: i32 = -128;
    /// IDL constant `Constants::L_MASK`.
    pub const L_MASK: i32 = 3852;
    /// IDL constant `Constants::L_DIV`.
    pub const L_DIV: i32 = 3;
    /// IDL constant `Constants::L_MOD`.
    pub const L_MOD: i32 = 2;
    /// IDL constant `Constants::L_NEG`.
    pub const L_NEG: i32 = -9;
    /// IDL constant `Constants::L_NOT`.
    pub const L_NOT: i32 = -1;
    /// IDL constant `Constants::L_OCTAL`.
    pub const L_OCTAL: i32 = 511;
    /// IDL constant `Constants::UL_MAX`.
    pub const UL_MAX: u32 = 4294967295;
    /// IDL constant `Constants::LL_MIN`.
    pub const LL_MIN: i64 = -9223372036854775808;
    /// IDL constant `Constants::LL_REF`.
    pub const LL_REF: i64 = 1099511627776;
    /// IDL constant `Constants::ULL_MAX`.
    pub const ULL_MAX: u64 = 18446744073709551615;
    /// IDL constant `Constants::ULL_SHIFT`.
    pub const ULL_SHIFT: u64 = 1099511627776;
    /// IDL constant `Constants::F_HALF`.
    pub const F_HALF: f32 = 0.5f32;
    /// IDL constant `Constants::F_EXP`.
    pub const F_EXP: f32 = 1500.0f32;
    /// IDL constant `Constants::D_RATIO`.
    pub const D_RATIO: f64 = 1.61803398875f64;
    /// IDL constant `Constants::D_EXPR`.
    pub const D_EXPR: f64 = 2.7360679775f64;
    /// IDL constant `Constants::D_SMALL`.
    pub const D_SMALL: f64 = 1e-300f64;
    /// IDL constant `Constants::LD`. A `long double` constant is held as a `f64`.
    pub const LD: f64 = 2.5f64;
    /// IDL constant `Constants::C_PLAIN`.
    pub const C_PLAIN: char = 'a';
    /// IDL constant `Constants::C_ESCAPE`.
    pub const C_ESCAPE: char = '\n';
    /// IDL constant `Constants::C_HEX`.
    pub const C_HEX: char = 'A';
    /// IDL constant `Constants::C_OCT`.
    pub const C_OCT: char = 'A';
    /// IDL constant `Constants::C_QUOTE`.
    pub const C_QUOTE: char = '\'';
    /// IDL constant `Constants::WC_PLAIN`.
    pub const WC_PLAIN: char = 'z';
    /// IDL constant `Constants::WC_UNICODE`.
    pub const WC_UNICODE: char = 'λ';
    /// IDL constant `Constants::STR`.
    pub const STR: &str = "plain";
    /// IDL constant `Constants::STR_CONCAT`.
    pub const STR_CONCAT: &str = "concat";
    /// IDL constant `Constants::STR_ESCAPES`.
    pub const STR_ESCAPES: &str = "tab\tquote\"backslash\\";
    /// IDL constant `Constants::STR_BOUNDED`.
    pub const STR_BOUNDED: &str = "bounded";
    /// IDL constant `Constants::STR_REF`.
    pub const STR_REF: &str = "plain";
    /// IDL constant `Constants::WSTR`.
    pub const WSTR: &str = "wide é";
    /// IDL constant `Constants::WSTR_BOUNDED`.
    pub const WSTR_BOUNDED: &str = "short";
    /// IDL constant `Constants::FX`. A `fixed` constant is its decimal text; `rtorb_cdr::Fixed` parses it.
    pub const FX: &str = "123.45";
    /// IDL constant `Constants::FX_EXPR`. A `fixed` constant is its decimal text; `rtorb_cdr::Fixed` parses it.
    pub const FX_EXPR: &str = "3.375";
    /// IDL constant `Constants::FX_NEG`. A `fixed` constant is its decimal text; `rtorb_cdr::Fixed` parses it.
    pub const FX_NEG: &str = "-0.5";
    /// IDL constant `Constants::TOP_LEVEL`.
    pub const TOP_LEVEL: Level = Level::High;
    /// IDL constant `Constants::TOP_LEVEL_REF`.
    pub const TOP_LEVEL_REF: Level = Level::High;
    /// IDL constant `Constants::O_MAX`.
    pub const O_MAX: u8 = 255;
    /// IDL constant `Constants::O_EXPR`.
    pub const O_EXPR: u8 = 17;
    /// IDL constant `Constants::B_TRUE`.
    pub const B_TRUE: bool = true;
    /// IDL constant `Constants::B_FALSE`.
    pub const B_FALSE: bool = false;
    /// IDL constant `Constants::B_REF`.
    pub const B_REF: bool = true;
    /// A typedef'd constant type.
    ///
    /// IDL typedef `Constants::Count`.
    pub type Count = i32;
    /// The TypeCode of `Count` (`tk_alias`).
    pub fn count_type_code() -> ::rtorb::codegen::TypeCode {
        ::rtorb::codegen::TypeCode::alias(
            "IDL:Constants/Count:1.0",
            "Count",
            ::rtorb::codegen::TypeCode::long(),
        )
    }
    /// IDL constant `Constants::TOTAL`.
    pub const TOTAL: i32 = 65536;
    /// Types and operation support of IDL interface `Constants::Limits`.
    pub mod limits {
        /// IDL constant `Constants::Limits::MAXIMUM`.
        pub const MAXIMUM: u32 = 32768;
        /// IDL constant `Constants::Limits::LABEL`.
        pub const LABEL: &str = "limits";
        /// Repository ids of `Constants::Limits`, most derived first, then every base.
        pub const REPOSITORY_IDS: &[&str] = &["IDL:Constants/Limits:1.0"];
        /// Runs a request on a servant of `Constants::Limits`: decodes the arguments, calls the servant, writes the results or exception.
        pub fn dispatch<S: super::LimitsServant + ?Sized>(
            servant: &S,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            match req.operation_bytes() {
                b"limit" => {
                    let r = servant.limit()?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                _ => Err(::rtorb::codegen::bad_operation()),
            }
        }
    }
    /// Constants scoped in an interface.
    ///
    /// Client stub of IDL interface `Constants::Limits` (`IDL:Constants/Limits:1.0`).
    #[derive(Debug, Clone)]
    pub struct Limits(::rtorb::codegen::Object);
    impl ::rtorb::codegen::Stub for Limits {
        const REPOSITORY_ID: &'static str = "IDL:Constants/Limits:1.0";
        fn from_object(object: ::rtorb::codegen::Object) -> Self {
            Limits(object)
        }
        fn as_object(&self) -> &::rtorb::codegen::Object {
            &self.0
        }
        fn into_object(self) -> ::rtorb::codegen::Object {
            self.0
        }
    }
    /// The operations of the base (or of `CORBA::Object`).
    impl ::core::ops::Deref for Limits {
        type Target = ::rtorb::codegen::Object;
        fn deref(&self) -> &::rtorb::codegen::Object {
            &self.0
        }
    }
    impl ::rtorb::codegen::IdlType for Limits {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::objref("IDL:Constants/Limits:1.0", "Limits")
        }
    }
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    impl Limits {
        /// IDL operation `limit`.
        pub fn limit(
            &self,
        ) -> ::core::result::Result<u32, ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "limit",
                    |servant: &(dyn LimitsServant + 'static)| servant.limit(),
                    |_e: &mut ::rtorb::codegen::Encoder| { Ok(()) },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(<u32 as ::rtorb::codegen::CdrDecode>::decode)
                    },
                )
        }
    }
    /// Servant trait of IDL interface `Constants::Limits`: implement it and register `LimitsSkeleton(servant)`.
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    pub trait LimitsServant: Send + Sync {
        /// IDL operation `limit`.
        fn limit(
            &self,
        ) -> ::core::result::Result<u32, ::rtorb::codegen::SystemException>;
    }
    /// Skeleton of IDL interface `Constants::Limits`, wrapping a servant.
    pub struct LimitsSkeleton<S>(pub S);
    impl<S: LimitsServant + 'static> ::rtorb::codegen::Skeleton for LimitsSkeleton<S> {
        fn repository_ids(&self) -> &'static [&'static str] {
            limits::REPOSITORY_IDS
        }
        fn dispatch(
            &self,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            limits::dispatch(&self.0, req)
        }
        fn servant(&self) -> ::core::option::Option<&dyn ::core::any::Any> {
            ::core::option::Option::Some(&self.0)
        }
        fn servant_cast(&self, query: &mut dyn ::core::any::Any) {
            ::rtorb::codegen::ServantCast::<
                dyn LimitsServant,
            >::offer(query, |s| s.downcast_ref::<S>().map(|s| s as &dyn LimitsServant));
        }
    }
    /// An array sized by a constant expression.
    ///
    /// IDL typedef `Constants::Buffer`.
    pub type Buffer = [i32; 4];
    /// The TypeCode of `Buffer` (`tk_alias`).
    pub fn buffer_type_code() -> ::rtorb::codegen::TypeCode {
        ::rtorb::codegen::TypeCode::alias(
            "IDL:Constants/Buffer:1.0",
            "Buffer",
            ::rtorb::codegen::TypeCode::array(::rtorb::codegen::TypeCode::long(), 4),
        )
    }
}
