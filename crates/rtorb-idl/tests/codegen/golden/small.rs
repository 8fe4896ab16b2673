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
    impl ::rtorb_cdr::CdrEncode for Mode {
        fn encode(&self, e: &mut ::rtorb_cdr::Encoder) -> ::rtorb_cdr::Result<()> {
            e.write_u32(*self as u32);
            Ok(())
        }
    }
    impl ::rtorb_cdr::CdrDecode for Mode {
        const MIN_WIRE_SIZE: usize = 4;
        fn decode(d: &mut ::rtorb_cdr::Decoder) -> ::rtorb_cdr::Result<Self> {
            match d.read_u32()? {
                0 => Ok(Mode::Fast),
                1 => Ok(Mode::Slow),
                value => {
                    Err(::rtorb_cdr::CdrError::InvalidEnum {
                        value,
                        count: 2,
                    })
                }
            }
        }
    }
    impl ::rtorb::runtime::IdlType for Mode {
        fn type_code() -> ::rtorb_cdr::TypeCode {
            ::rtorb_cdr::TypeCode::enum_tc(
                "IDL:Small/Mode:1.0",
                "Mode",
                ["fast", "slow"],
            )
        }
    }
    /// IDL typedef `Small::Four`. Bounded to 4 elements, checked where it is written and read.
    pub type Four = ::std::vec::Vec<i32>;
    /// The TypeCode of `Four` (`tk_alias`).
    pub fn four_type_code() -> ::rtorb_cdr::TypeCode {
        ::rtorb_cdr::TypeCode::alias(
            "IDL:Small/Four:1.0",
            "Four",
            ::rtorb_cdr::TypeCode::sequence(::rtorb_cdr::TypeCode::long(), 4),
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
    impl ::rtorb_cdr::CdrEncode for Pair {
        fn encode(&self, e: &mut ::rtorb_cdr::Encoder) -> ::rtorb_cdr::Result<()> {
            ::rtorb_cdr::CdrEncode::encode(&self.a, e)?;
            ::rtorb::runtime::check_bound(self.b.len(), 5)?;
            e.write_string(&self.b)?;
            Ok(())
        }
    }
    impl ::rtorb_cdr::CdrDecode for Pair {
        const MIN_WIRE_SIZE: usize = 9;
        fn decode(d: &mut ::rtorb_cdr::Decoder) -> ::rtorb_cdr::Result<Self> {
            Ok(Pair {
                a: <i32 as ::rtorb_cdr::CdrDecode>::decode(d)?,
                b: {
                    let s = d.read_string()?;
                    ::rtorb::runtime::check_bound(s.len(), 5)?;
                    s
                },
            })
        }
    }
    impl ::rtorb::runtime::IdlType for Pair {
        fn type_code() -> ::rtorb_cdr::TypeCode {
            ::rtorb_cdr::TypeCode::struct_tc(
                "IDL:Small/Pair:1.0",
                "Pair",
                [
                    ("a", ::rtorb_cdr::TypeCode::long()),
                    ("b", ::rtorb_cdr::TypeCode::string(5)),
                ],
            )
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
    impl ::rtorb_cdr::CdrEncode for Pick {
        fn encode(&self, e: &mut ::rtorb_cdr::Encoder) -> ::rtorb_cdr::Result<()> {
            match self {
                Pick::N(x) => {
                    ::rtorb_cdr::CdrEncode::encode(&Mode::Fast, e)?;
                    ::rtorb_cdr::CdrEncode::encode(x, e)?;
                }
                Pick::S(x) => {
                    ::rtorb_cdr::CdrEncode::encode(&Mode::Slow, e)?;
                    ::rtorb_cdr::CdrEncode::encode(x, e)?;
                }
            }
            Ok(())
        }
    }
    impl ::rtorb_cdr::CdrDecode for Pick {
        const MIN_WIRE_SIZE: usize = 4;
        fn decode(d: &mut ::rtorb_cdr::Decoder) -> ::rtorb_cdr::Result<Self> {
            let disc: Mode = <Mode as ::rtorb_cdr::CdrDecode>::decode(d)?;
            Ok(
                match disc {
                    Mode::Fast => Pick::N(<i32 as ::rtorb_cdr::CdrDecode>::decode(d)?),
                    Mode::Slow => {
                        Pick::S(
                            <::std::string::String as ::rtorb_cdr::CdrDecode>::decode(d)?,
                        )
                    }
                },
            )
        }
    }
    impl ::rtorb::runtime::IdlType for Pick {
        fn type_code() -> ::rtorb_cdr::TypeCode {
            ::rtorb_cdr::TypeCode::union_tc(
                    "IDL:Small/Pick:1.0",
                    "Pick",
                    <Mode as ::rtorb::runtime::IdlType>::type_code(),
                    ::std::vec![
                        ::rtorb_cdr::UnionMember::new(::rtorb_cdr::Value::Enum(0), "n",
                        ::rtorb_cdr::TypeCode::long()),::rtorb_cdr::UnionMember::new(::rtorb_cdr::Value::Enum(1),
                        "s", ::rtorb_cdr::TypeCode::string(0)),
                    ],
                )
                .unwrap_or_else(|_| ::rtorb_cdr::TypeCode::null())
        }
    }
    /// IDL exception `Small::Bad` (`IDL:Small/Bad:1.0`).
    #[derive(Debug, Clone, PartialEq)]
    pub struct Bad {
        /// `why`
        pub why: ::std::string::String,
    }
    impl ::rtorb_cdr::CdrEncode for Bad {
        fn encode(&self, e: &mut ::rtorb_cdr::Encoder) -> ::rtorb_cdr::Result<()> {
            ::rtorb_cdr::CdrEncode::encode(&self.why, e)?;
            Ok(())
        }
    }
    impl ::rtorb_cdr::CdrDecode for Bad {
        const MIN_WIRE_SIZE: usize = 5;
        fn decode(d: &mut ::rtorb_cdr::Decoder) -> ::rtorb_cdr::Result<Self> {
            Ok(Bad {
                why: <::std::string::String as ::rtorb_cdr::CdrDecode>::decode(d)?,
            })
        }
    }
    impl ::rtorb::runtime::IdlType for Bad {
        fn type_code() -> ::rtorb_cdr::TypeCode {
            ::rtorb_cdr::TypeCode::exception_tc(
                "IDL:Small/Bad:1.0",
                "Bad",
                [("why", ::rtorb_cdr::TypeCode::string(0))],
            )
        }
    }
    impl ::rtorb::runtime::UserException for Bad {
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
            System(::rtorb::runtime::SystemException),
        }
        impl ::core::convert::From<::rtorb::runtime::SystemException> for AddError {
            fn from(e: ::rtorb::runtime::SystemException) -> Self {
                AddError::System(e)
            }
        }
        impl ::rtorb::runtime::OperationError for AddError {
            fn from_user_exception(
                repository_id: &str,
                members: &mut ::rtorb_cdr::Decoder,
            ) -> ::core::option::Option<::rtorb_cdr::Result<Self>> {
                if repository_id
                    == <super::Bad as ::rtorb::runtime::UserException>::REPOSITORY_ID
                {
                    return Some(
                        <super::Bad as ::rtorb_cdr::CdrDecode>::decode(members)
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
            req: &mut ::rtorb::runtime::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::runtime::SystemException> {
            match req.operation_bytes() {
                b"add" => {
                    let d = req.arguments();
                    let a = <i32 as ::rtorb_cdr::CdrDecode>::decode(d)?;
                    let b = <i32 as ::rtorb_cdr::CdrDecode>::decode(d)?;
                    match servant.add(a, b) {
                        Ok((r0, r1)) => {
                            req.write_results(|e: &mut ::rtorb_cdr::Encoder| {
                                ::rtorb_cdr::CdrEncode::encode(&r0, e)?;
                                ::rtorb_cdr::CdrEncode::encode(&r1, e)?;
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
                    req.write_results(|e: &mut ::rtorb_cdr::Encoder| {
                        ::rtorb_cdr::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"_set_current" => {
                    let d = req.arguments();
                    let value = <super::Mode as ::rtorb_cdr::CdrDecode>::decode(d)?;
                    servant.set_current(value)
                }
                _ => Err(::rtorb::runtime::bad_operation()),
            }
        }
    }
    /// Client stub of IDL interface `Small::Calc` (`IDL:Small/Calc:1.0`).
    #[derive(Debug, Clone)]
    pub struct Calc(::rtorb::runtime::Object);
    impl ::rtorb::runtime::Stub for Calc {
        const REPOSITORY_ID: &'static str = "IDL:Small/Calc:1.0";
        fn from_object(object: ::rtorb::runtime::Object) -> Self {
            Calc(object)
        }
        fn as_object(&self) -> &::rtorb::runtime::Object {
            &self.0
        }
        fn into_object(self) -> ::rtorb::runtime::Object {
            self.0
        }
    }
    /// The operations of the base (or of `CORBA::Object`).
    impl ::core::ops::Deref for Calc {
        type Target = ::rtorb::runtime::Object;
        fn deref(&self) -> &::rtorb::runtime::Object {
            &self.0
        }
    }
    impl ::rtorb::runtime::IdlType for Calc {
        fn type_code() -> ::rtorb_cdr::TypeCode {
            ::rtorb_cdr::TypeCode::objref("IDL:Small/Calc:1.0", "Calc")
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
            ::rtorb::runtime::Stub::as_object(self)
                .call(
                    "add",
                    |servant: &(dyn CalcServant + 'static)| servant.add(a, b),
                    |e: &mut ::rtorb_cdr::Encoder| {
                        ::rtorb_cdr::CdrEncode::encode(&a, e)?;
                        ::rtorb_cdr::CdrEncode::encode(&b, e)?;
                        Ok(())
                    },
                    |reply: ::rtorb::runtime::Reply| {
                        reply
                            .decode(|d: &mut ::rtorb_cdr::Decoder| {
                                let r = (
                                    <i32 as ::rtorb_cdr::CdrDecode>::decode(d)?,
                                    <i32 as ::rtorb_cdr::CdrDecode>::decode(d)?,
                                );
                                Ok(r)
                            })
                    },
                )
        }
        /// IDL operation `poke`.
        pub fn poke(
            &self,
        ) -> ::core::result::Result<(), ::rtorb::runtime::SystemException> {
            ::rtorb::runtime::Stub::as_object(self)
                .call_oneway(
                    "poke",
                    |servant: &(dyn CalcServant + 'static)| servant.poke(),
                    |_e: &mut ::rtorb_cdr::Encoder| { Ok(()) },
                )
        }
        /// Reads IDL attribute `current`.
        pub fn current(
            &self,
        ) -> ::core::result::Result<Mode, ::rtorb::runtime::SystemException> {
            ::rtorb::runtime::Stub::as_object(self)
                .call(
                    "_get_current",
                    |servant: &(dyn CalcServant + 'static)| servant.current(),
                    |_e: &mut ::rtorb_cdr::Encoder| { Ok(()) },
                    |reply: ::rtorb::runtime::Reply| {
                        reply.decode(<Mode as ::rtorb_cdr::CdrDecode>::decode)
                    },
                )
        }
        /// Writes IDL attribute `current`.
        pub fn set_current(
            &self,
            value: Mode,
        ) -> ::core::result::Result<(), ::rtorb::runtime::SystemException> {
            ::rtorb::runtime::Stub::as_object(self)
                .call(
                    "_set_current",
                    |servant: &(dyn CalcServant + 'static)| servant.set_current(value),
                    |e: &mut ::rtorb_cdr::Encoder| {
                        ::rtorb_cdr::CdrEncode::encode(&value, e)?;
                        Ok(())
                    },
                    |reply: ::rtorb::runtime::Reply| {
                        reply.decode(|_d: &mut ::rtorb_cdr::Decoder| Ok(()))
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
        fn poke(&self) -> ::core::result::Result<(), ::rtorb::runtime::SystemException>;
        /// Reads IDL attribute `current`.
        fn current(
            &self,
        ) -> ::core::result::Result<Mode, ::rtorb::runtime::SystemException>;
        /// Writes IDL attribute `current`.
        fn set_current(
            &self,
            value: Mode,
        ) -> ::core::result::Result<(), ::rtorb::runtime::SystemException>;
    }
    /// Skeleton of IDL interface `Small::Calc`, wrapping a servant.
    pub struct CalcSkeleton<S>(pub S);
    impl<S: CalcServant + 'static> ::rtorb::runtime::Skeleton for CalcSkeleton<S> {
        fn repository_ids(&self) -> &'static [&'static str] {
            calc::REPOSITORY_IDS
        }
        fn dispatch(
            &self,
            req: &mut ::rtorb::runtime::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::runtime::SystemException> {
            calc::dispatch(&self.0, req)
        }
        fn servant(&self) -> ::core::option::Option<&dyn ::core::any::Any> {
            ::core::option::Option::Some(&self.0)
        }
        fn servant_cast(&self, query: &mut dyn ::core::any::Any) {
            ::rtorb::runtime::ServantCast::<
                dyn CalcServant,
            >::offer(query, |s| s.downcast_ref::<S>().map(|s| s as &dyn CalcServant));
        }
    }
}
