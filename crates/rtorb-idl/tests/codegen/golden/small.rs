/// A small module for the golden output.
///
/// IDL module `Small`.
pub mod small {
    /// IDL constant `Small::LIMIT`.
    pub const LIMIT: i32 = 10;
    /// IDL enum `Small::Mode` (`IDL:Small/Mode:1.0`): an `unsigned long` on the wire.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
    #[repr(u32)]
    #[allow(clippy::enum_variant_names)]
    pub enum Mode {
        /// `fast`
        #[default]
        Fast = 0,
        /// `slow`
        Slow = 1,
    }
    impl ::rtorb::codegen::CdrEncode for Mode {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            e.write_u32(*self as u32);
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for Mode {
        const MIN_WIRE_SIZE: usize = 4;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            match d.read_u32()? {
                0 => Ok(Mode::Fast),
                1 => Ok(Mode::Slow),
                value => {
                    Err(::rtorb::codegen::CdrError::InvalidEnum {
                        value,
                        count: 2,
                    })
                }
            }
        }
    }
    impl ::rtorb::codegen::IdlType for Mode {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::enum_tc(
                "IDL:Small/Mode:1.0",
                "Mode",
                ["fast", "slow"],
            )
        }
    }
    impl ::rtorb::codegen::AnyValue for Mode {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <Mode as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// IDL typedef `Small::Four`. Bounded to 4 elements, checked where it is written and read.
    pub type Four = ::std::vec::Vec<i32>;
    /// The TypeCode of `Four` (`tk_alias`).
    pub fn four_type_code() -> ::rtorb::codegen::TypeCode {
        ::rtorb::codegen::TypeCode::alias(
            "IDL:Small/Four:1.0",
            "Four",
            ::rtorb::codegen::TypeCode::sequence(::rtorb::codegen::TypeCode::long(), 4),
        )
    }
    /// IDL struct `Small::Pair` (`IDL:Small/Pair:1.0`).
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Pair {
        /// `a`
        pub a: i32,
        /// `b`
        pub b: ::std::string::String,
    }
    impl ::rtorb::codegen::CdrEncode for Pair {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            ::rtorb::codegen::CdrEncode::encode(&self.a, e)?;
            ::rtorb::codegen::check_bound(self.b.len(), 5)?;
            e.write_string(&self.b)?;
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for Pair {
        const MIN_WIRE_SIZE: usize = 9;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            Ok(Pair {
                a: <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?,
                b: {
                    let s = d.read_string()?;
                    ::rtorb::codegen::check_bound(s.len(), 5)?;
                    s
                },
            })
        }
    }
    impl ::rtorb::codegen::IdlType for Pair {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::struct_tc(
                "IDL:Small/Pair:1.0",
                "Pair",
                [
                    ("a", ::rtorb::codegen::TypeCode::long()),
                    ("b", ::rtorb::codegen::TypeCode::string(5)),
                ],
            )
        }
    }
    impl ::rtorb::codegen::AnyValue for Pair {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <Pair as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// IDL union `Small::Pick` (`IDL:Small/Pick:1.0`): a variant per case, holding the member. The discriminator written for a case is its first label; the `default` case holds the discriminator with the member.
    #[derive(Debug, Clone, PartialEq)]
    #[allow(clippy::large_enum_variant, clippy::enum_variant_names)]
    pub enum Pick {
        /// `case Mode::Fast: n`
        N(i32),
        /// `case Mode::Slow: s`
        S(::std::string::String),
    }
    impl ::rtorb::codegen::CdrEncode for Pick {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            match self {
                Pick::N(x) => {
                    ::rtorb::codegen::CdrEncode::encode(&Mode::Fast, e)?;
                    ::rtorb::codegen::CdrEncode::encode(x, e)?;
                }
                Pick::S(x) => {
                    ::rtorb::codegen::CdrEncode::encode(&Mode::Slow, e)?;
                    ::rtorb::codegen::CdrEncode::encode(x, e)?;
                }
            }
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for Pick {
        const MIN_WIRE_SIZE: usize = 4;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            let disc: Mode = <Mode as ::rtorb::codegen::CdrDecode>::decode(d)?;
            Ok(
                match disc {
                    Mode::Fast => {
                        Pick::N(<i32 as ::rtorb::codegen::CdrDecode>::decode(d)?)
                    }
                    Mode::Slow => {
                        Pick::S(
                            <::std::string::String as ::rtorb::codegen::CdrDecode>::decode(
                                d,
                            )?,
                        )
                    }
                },
            )
        }
    }
    impl ::rtorb::codegen::IdlType for Pick {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::union_tc(
                    "IDL:Small/Pick:1.0",
                    "Pick",
                    <Mode as ::rtorb::codegen::IdlType>::type_code(),
                    ::std::vec![
                        ::rtorb::codegen::UnionMember::new(::rtorb::codegen::Value::Enum(0),
                        "n",
                        ::rtorb::codegen::TypeCode::long()),::rtorb::codegen::UnionMember::new(::rtorb::codegen::Value::Enum(1),
                        "s", ::rtorb::codegen::TypeCode::string(0)),
                    ],
                )
                .unwrap_or_else(|_| ::rtorb::codegen::TypeCode::null())
        }
    }
    impl ::rtorb::codegen::AnyValue for Pick {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <Pick as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// IDL exception `Small::Bad` (`IDL:Small/Bad:1.0`).
    #[derive(Debug, Clone, PartialEq)]
    pub struct Bad {
        /// `why`
        pub why: ::std::string::String,
    }
    impl ::rtorb::codegen::CdrEncode for Bad {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            ::rtorb::codegen::CdrEncode::encode(&self.why, e)?;
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for Bad {
        const MIN_WIRE_SIZE: usize = 5;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            Ok(Bad {
                why: <::std::string::String as ::rtorb::codegen::CdrDecode>::decode(d)?,
            })
        }
    }
    impl ::rtorb::codegen::IdlType for Bad {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::exception_tc(
                "IDL:Small/Bad:1.0",
                "Bad",
                [("why", ::rtorb::codegen::TypeCode::string(0))],
            )
        }
    }
    impl ::rtorb::codegen::AnyValue for Bad {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <Bad as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    impl ::rtorb::codegen::UserException for Bad {
        const REPOSITORY_ID: &'static str = "IDL:Small/Bad:1.0";
    }
    impl ::std::fmt::Display for Bad {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            f.write_str("user exception Small::Bad")
        }
    }
    impl ::std::error::Error for Bad {}
    /// Types and operation support of IDL interface `Small::Calc`.
    pub mod calc {
        /// The errors of `Small::Calc::add`.
        #[derive(Debug, Clone, PartialEq)]
        #[allow(clippy::large_enum_variant, clippy::enum_variant_names)]
        pub enum AddError {
            /// `Small::Bad`
            Bad(super::Bad),
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
                    == <super::Bad as ::rtorb::codegen::UserException>::REPOSITORY_ID
                {
                    return Some(
                        <super::Bad as ::rtorb::codegen::CdrDecode>::decode(members)
                            .map(AddError::Bad),
                    );
                }
                None
            }
        }
        impl ::std::fmt::Display for AddError {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                match self {
                    AddError::Bad(x) => ::std::fmt::Display::fmt(x, f),
                    AddError::System(s) => ::std::fmt::Display::fmt(s, f),
                }
            }
        }
        impl ::std::error::Error for AddError {}
        /// Repository ids of `Small::Calc`, most derived first, then every base.
        pub const REPOSITORY_IDS: &[&str] = &["IDL:Small/Calc:1.0"];
        /// Runs a request on a servant of `Small::Calc`: decodes the arguments, calls the servant, writes the results or exception.
        pub fn dispatch<S: super::CalcServant + ?Sized>(
            servant: &S,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            match req.operation_bytes() {
                b"add" => {
                    let d = req.arguments();
                    let a = <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    let b = <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    match servant.add(a, b) {
                        Ok((r0, r1)) => {
                            req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                                ::rtorb::codegen::CdrEncode::encode(&r0, e)?;
                                ::rtorb::codegen::CdrEncode::encode(&r1, e)?;
                                Ok(())
                            })
                        }
                        Err(AddError::Bad(x)) => req.write_user_exception(&x),
                        Err(AddError::System(s)) => Err(s),
                    }
                }
                b"poke" => servant.poke(),
                b"_get_current" => {
                    let r = servant.current()?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"_set_current" => {
                    let d = req.arguments();
                    let value = <super::Mode as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    servant.set_current(value)
                }
                _ => Err(::rtorb::codegen::bad_operation()),
            }
        }
    }
    /// Client stub of IDL interface `Small::Calc` (`IDL:Small/Calc:1.0`).
    #[derive(Debug, Clone)]
    pub struct Calc(::rtorb::codegen::Object);
    impl ::rtorb::codegen::Stub for Calc {
        const REPOSITORY_ID: &'static str = "IDL:Small/Calc:1.0";
        fn from_object(object: ::rtorb::codegen::Object) -> Self {
            Calc(object)
        }
        fn as_object(&self) -> &::rtorb::codegen::Object {
            &self.0
        }
        fn into_object(self) -> ::rtorb::codegen::Object {
            self.0
        }
    }
    /// The operations of the base (or of `CORBA::Object`).
    impl ::core::ops::Deref for Calc {
        type Target = ::rtorb::codegen::Object;
        fn deref(&self) -> &::rtorb::codegen::Object {
            &self.0
        }
    }
    impl ::rtorb::codegen::IdlType for Calc {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::objref("IDL:Small/Calc:1.0", "Calc")
        }
    }
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    impl Calc {
        /// IDL operation `add`.
        pub fn add(
            &self,
            a: i32,
            b: i32,
        ) -> ::core::result::Result<(i32, i32), calc::AddError> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "add",
                    |servant: &(dyn CalcServant + 'static)| servant.add(a, b),
                    |e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&a, e)?;
                        ::rtorb::codegen::CdrEncode::encode(&b, e)?;
                        Ok(())
                    },
                    |reply: ::rtorb::codegen::Reply| {
                        reply
                            .decode(|d: &mut ::rtorb::codegen::Decoder| {
                                let r = (
                                    <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?,
                                    <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?,
                                );
                                Ok(r)
                            })
                    },
                )
        }
        /// IDL operation `poke`.
        pub fn poke(
            &self,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call_oneway(
                    "poke",
                    |servant: &(dyn CalcServant + 'static)| servant.poke(),
                    |_e: &mut ::rtorb::codegen::Encoder| { Ok(()) },
                )
        }
        /// Reads IDL attribute `current`.
        pub fn current(
            &self,
        ) -> ::core::result::Result<Mode, ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "_get_current",
                    |servant: &(dyn CalcServant + 'static)| servant.current(),
                    |_e: &mut ::rtorb::codegen::Encoder| { Ok(()) },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(<Mode as ::rtorb::codegen::CdrDecode>::decode)
                    },
                )
        }
        /// Writes IDL attribute `current`.
        pub fn set_current(
            &self,
            value: Mode,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "_set_current",
                    |servant: &(dyn CalcServant + 'static)| servant.set_current(value),
                    |e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&value, e)?;
                        Ok(())
                    },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(|_d: &mut ::rtorb::codegen::Decoder| Ok(()))
                    },
                )
        }
    }
    /// Servant trait of IDL interface `Small::Calc`: implement it and register `CalcSkeleton(servant)`.
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    pub trait CalcServant: Send + Sync {
        /// IDL operation `add`.
        fn add(
            &self,
            a: i32,
            b: i32,
        ) -> ::core::result::Result<(i32, i32), calc::AddError>;
        /// IDL operation `poke`.
        ///
        /// Oneway: the client does not wait, and an error is not sent back.
        fn poke(&self) -> ::core::result::Result<(), ::rtorb::codegen::SystemException>;
        /// Reads IDL attribute `current`.
        fn current(
            &self,
        ) -> ::core::result::Result<Mode, ::rtorb::codegen::SystemException>;
        /// Writes IDL attribute `current`.
        fn set_current(
            &self,
            value: Mode,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException>;
    }
    /// Skeleton of IDL interface `Small::Calc`, wrapping a servant.
    pub struct CalcSkeleton<S>(pub S);
    impl<S: CalcServant + 'static> ::rtorb::codegen::Skeleton for CalcSkeleton<S> {
        fn repository_ids(&self) -> &'static [&'static str] {
            calc::REPOSITORY_IDS
        }
        fn dispatch(
            &self,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            calc::dispatch(&self.0, req)
        }
        fn servant(&self) -> ::core::option::Option<&dyn ::core::any::Any> {
            ::core::option::Option::Some(&self.0)
        }
        fn servant_cast(&self, query: &mut dyn ::core::any::Any) {
            ::rtorb::codegen::ServantCast::<
                dyn CalcServant,
            >::offer(query, |s| s.downcast_ref::<S>().map(|s| s as &dyn CalcServant));
        }
    }
}
