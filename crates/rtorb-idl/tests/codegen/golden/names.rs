/// Shared declarations.
///
/// IDL module `Shared`.
pub mod shared {
    /// A token passed between services.
    ///
    /// IDL struct `Shared::Token` (`IDL:Shared/Token:1.0`).
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Token {
        /// `value`
        pub value: ::std::string::String,
        /// `serial`
        pub serial: u32,
    }
    impl ::rtorb::codegen::CdrEncode for Token {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            ::rtorb::codegen::CdrEncode::encode(&self.value, e)?;
            ::rtorb::codegen::CdrEncode::encode(&self.serial, e)?;
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for Token {
        const MIN_WIRE_SIZE: usize = 9;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            Ok(Token {
                value: <::std::string::String as ::rtorb::codegen::CdrDecode>::decode(
                    d,
                )?,
                serial: <u32 as ::rtorb::codegen::CdrDecode>::decode(d)?,
            })
        }
    }
    impl ::rtorb::codegen::IdlType for Token {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::struct_tc(
                "IDL:Shared/Token:1.0",
                "Token",
                [
                    ("value", ::rtorb::codegen::TypeCode::string(0)),
                    ("serial", ::rtorb::codegen::TypeCode::ulong()),
                ],
            )
        }
    }
    impl ::rtorb::codegen::AnyValue for Token {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <Token as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// Types and operation support of IDL interface `Shared::Service`.
    pub mod service {
        /// Repository ids of `Shared::Service`, most derived first, then every base.
        pub const REPOSITORY_IDS: &[&str] = &["IDL:Shared/Service:1.0"];
        /// Runs a request on a servant of `Shared::Service`: decodes the arguments, calls the servant, writes the results or exception.
        pub fn dispatch<S: super::ServiceServant + ?Sized>(
            servant: &S,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            match req.operation_bytes() {
                b"issue" => {
                    let r = servant.issue()?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"revoke" => {
                    let d = req.arguments();
                    let t = <super::Token as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    servant.revoke(t)
                }
                _ => Err(::rtorb::codegen::bad_operation()),
            }
        }
    }
    /// A service every other interface derives from.
    ///
    /// Client stub of IDL interface `Shared::Service` (`IDL:Shared/Service:1.0`).
    #[derive(Debug, Clone)]
    pub struct Service(::rtorb::codegen::Object);
    impl ::rtorb::codegen::Stub for Service {
        const REPOSITORY_ID: &'static str = "IDL:Shared/Service:1.0";
        fn from_object(object: ::rtorb::codegen::Object) -> Self {
            Service(object)
        }
        fn as_object(&self) -> &::rtorb::codegen::Object {
            &self.0
        }
        fn into_object(self) -> ::rtorb::codegen::Object {
            self.0
        }
    }
    /// The operations of the base (or of `CORBA::Object`).
    impl ::core::ops::Deref for Service {
        type Target = ::rtorb::codegen::Object;
        fn deref(&self) -> &::rtorb::codegen::Object {
            &self.0
        }
    }
    impl ::rtorb::codegen::IdlType for Service {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::objref("IDL:Shared/Service:1.0", "Service")
        }
    }
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    impl Service {
        /// IDL operation `issue`.
        pub fn issue(
            &self,
        ) -> ::core::result::Result<Token, ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "issue",
                    |servant: &(dyn ServiceServant + 'static)| servant.issue(),
                    |_e: &mut ::rtorb::codegen::Encoder| { Ok(()) },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(<Token as ::rtorb::codegen::CdrDecode>::decode)
                    },
                )
        }
        /// IDL operation `revoke`.
        pub fn revoke(
            &self,
            t: &Token,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "revoke",
                    |servant: &(dyn ServiceServant + 'static)| {
                        servant.revoke(::rtorb::codegen::ParamFrom::param_from(t))
                    },
                    |e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(t, e)?;
                        Ok(())
                    },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(|_d: &mut ::rtorb::codegen::Decoder| Ok(()))
                    },
                )
        }
    }
    /// Servant trait of IDL interface `Shared::Service`: implement it and register `ServiceSkeleton(servant)`.
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    pub trait ServiceServant: Send + Sync {
        /// IDL operation `issue`.
        fn issue(
            &self,
        ) -> ::core::result::Result<Token, ::rtorb::codegen::SystemException>;
        /// IDL operation `revoke`.
        fn revoke(
            &self,
            t: Token,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException>;
    }
    /// Skeleton of IDL interface `Shared::Service`, wrapping a servant.
    pub struct ServiceSkeleton<S>(pub S);
    impl<S: ServiceServant + 'static> ::rtorb::codegen::Skeleton for ServiceSkeleton<S> {
        fn repository_ids(&self) -> &'static [&'static str] {
            service::REPOSITORY_IDS
        }
        fn dispatch(
            &self,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            service::dispatch(&self.0, req)
        }
        fn servant(&self) -> ::core::option::Option<&dyn ::core::any::Any> {
            ::core::option::Option::Some(&self.0)
        }
        fn servant_cast(&self, query: &mut dyn ::core::any::Any) {
            ::rtorb::codegen::ServantCast::<
                dyn ServiceServant,
            >::offer(query, |s| s.downcast_ref::<S>().map(|s| s as &dyn ServiceServant));
        }
    }
}
/// Names Rust reserves.
///
/// A doc comment with \<angle brackets\>, \[brackets\], \`backquotes\`,
/// \*stars\*, \_underscores\_ and \# signs.
///
/// IDL module `match`.
pub mod r#match {
    /// A struct named after a keyword, with keyword members.
    ///
    /// IDL struct `match::type` (`IDL:match/type:1.0`).
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Type {
        /// `fn`
        pub r#fn: i32,
        /// `let`
        pub r#let: ::std::string::String,
        /// `ref`
        pub r#ref: bool,
    }
    impl ::rtorb::codegen::CdrEncode for Type {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            ::rtorb::codegen::CdrEncode::encode(&self.r#fn, e)?;
            ::rtorb::codegen::CdrEncode::encode(&self.r#let, e)?;
            ::rtorb::codegen::CdrEncode::encode(&self.r#ref, e)?;
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for Type {
        const MIN_WIRE_SIZE: usize = 10;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            Ok(Type {
                r#fn: <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?,
                r#let: <::std::string::String as ::rtorb::codegen::CdrDecode>::decode(
                    d,
                )?,
                r#ref: <bool as ::rtorb::codegen::CdrDecode>::decode(d)?,
            })
        }
    }
    impl ::rtorb::codegen::IdlType for Type {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::struct_tc(
                "IDL:match/type:1.0",
                "type",
                [
                    ("fn", ::rtorb::codegen::TypeCode::long()),
                    ("let", ::rtorb::codegen::TypeCode::string(0)),
                    ("ref", ::rtorb::codegen::TypeCode::boolean()),
                ],
            )
        }
    }
    impl ::rtorb::codegen::AnyValue for Type {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <Type as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// IDL enum `match::loop` (`IDL:match/loop:1.0`): an `unsigned long` on the wire.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
    #[repr(u32)]
    #[allow(clippy::enum_variant_names)]
    pub enum Loop {
        /// `break`
        #[default]
        Break = 0,
        /// `continue`
        Continue = 1,
        /// `return`
        Return = 2,
        /// `yield`
        Yield = 3,
    }
    impl ::rtorb::codegen::CdrEncode for Loop {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            e.write_u32(*self as u32);
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for Loop {
        const MIN_WIRE_SIZE: usize = 4;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            match d.read_u32()? {
                0 => Ok(Loop::Break),
                1 => Ok(Loop::Continue),
                2 => Ok(Loop::Return),
                3 => Ok(Loop::Yield),
                value => {
                    Err(::rtorb::codegen::CdrError::InvalidEnum {
                        value,
                        count: 4,
                    })
                }
            }
        }
    }
    impl ::rtorb::codegen::IdlType for Loop {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::enum_tc(
                "IDL:match/loop:1.0",
                "loop",
                ["break", "continue", "return", "yield"],
            )
        }
    }
    impl ::rtorb::codegen::AnyValue for Loop {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <Loop as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// IDL constant `match::self`.
    pub const SELF: i32 = 1;
    /// IDL constant `match::Self_`.
    pub const SELF_: i32 = 2;
    /// IDL typedef `match::super`.
    pub type Super = i32;
    /// The TypeCode of `super` (`tk_alias`).
    pub fn super_type_code() -> ::rtorb::codegen::TypeCode {
        ::rtorb::codegen::TypeCode::alias(
            "IDL:match/super:1.0",
            "super",
            ::rtorb::codegen::TypeCode::long(),
        )
    }
    /// IDL union `match::where` (`IDL:match/where:1.0`): a variant per case, holding the member. The discriminator written for a case is its first label; the `default` case holds the discriminator with the member.
    #[derive(Debug, Clone, PartialEq)]
    #[allow(clippy::large_enum_variant, clippy::enum_variant_names)]
    pub enum Where {
        /// `case 1: impl`
        Impl(i32),
        /// `case 2: trait`
        Trait(::std::string::String),
        /// No member: the discriminator matches no label.
        NoMember(i32),
    }
    impl ::rtorb::codegen::CdrEncode for Where {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            match self {
                Where::Impl(x) => {
                    ::rtorb::codegen::CdrEncode::encode(&1i32, e)?;
                    ::rtorb::codegen::CdrEncode::encode(x, e)?;
                }
                Where::Trait(x) => {
                    ::rtorb::codegen::CdrEncode::encode(&2i32, e)?;
                    ::rtorb::codegen::CdrEncode::encode(x, e)?;
                }
                Where::NoMember(disc) => {
                    ::rtorb::codegen::CdrEncode::encode(disc, e)?;
                }
            }
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for Where {
        const MIN_WIRE_SIZE: usize = 4;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            let disc: i32 = <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?;
            Ok(
                match disc {
                    1 => Where::Impl(<i32 as ::rtorb::codegen::CdrDecode>::decode(d)?),
                    2 => {
                        Where::Trait(
                            <::std::string::String as ::rtorb::codegen::CdrDecode>::decode(
                                d,
                            )?,
                        )
                    }
                    disc => Where::NoMember(disc),
                },
            )
        }
    }
    impl ::rtorb::codegen::IdlType for Where {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::union_tc(
                    "IDL:match/where:1.0",
                    "where",
                    ::rtorb::codegen::TypeCode::long(),
                    ::std::vec![
                        ::rtorb::codegen::UnionMember::new(::rtorb::codegen::Value::Long(1),
                        "impl",
                        ::rtorb::codegen::TypeCode::long()),::rtorb::codegen::UnionMember::new(::rtorb::codegen::Value::Long(2),
                        "trait", ::rtorb::codegen::TypeCode::string(0)),
                    ],
                )
                .unwrap_or_else(|_| ::rtorb::codegen::TypeCode::null())
        }
    }
    impl ::rtorb::codegen::AnyValue for Where {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <Where as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// IDL exception `match::unsafe` (`IDL:match/unsafe:1.0`).
    #[derive(Debug, Clone, PartialEq)]
    pub struct Unsafe {
        /// `static`
        pub r#static: ::std::string::String,
    }
    impl ::rtorb::codegen::CdrEncode for Unsafe {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            ::rtorb::codegen::CdrEncode::encode(&self.r#static, e)?;
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for Unsafe {
        const MIN_WIRE_SIZE: usize = 5;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            Ok(Unsafe {
                r#static: <::std::string::String as ::rtorb::codegen::CdrDecode>::decode(
                    d,
                )?,
            })
        }
    }
    impl ::rtorb::codegen::IdlType for Unsafe {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::exception_tc(
                "IDL:match/unsafe:1.0",
                "unsafe",
                [("static", ::rtorb::codegen::TypeCode::string(0))],
            )
        }
    }
    impl ::rtorb::codegen::AnyValue for Unsafe {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <Unsafe as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    impl ::rtorb::codegen::UserException for Unsafe {
        const REPOSITORY_ID: &'static str = "IDL:match/unsafe:1.0";
    }
    impl ::std::fmt::Display for Unsafe {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            f.write_str("user exception match::unsafe")
        }
    }
    impl ::std::error::Error for Unsafe {}
    /// Types and operation support of IDL interface `match::mod`.
    pub mod r#mod {
        /// The errors of `match::mod::move`.
        #[derive(Debug, Clone, PartialEq)]
        #[allow(clippy::large_enum_variant, clippy::enum_variant_names)]
        pub enum MoveError {
            /// `match::unsafe`
            Unsafe(super::Unsafe),
            /// A system exception.
            System(::rtorb::codegen::SystemException),
        }
        impl ::core::convert::From<::rtorb::codegen::SystemException> for MoveError {
            fn from(e: ::rtorb::codegen::SystemException) -> Self {
                MoveError::System(e)
            }
        }
        impl ::rtorb::codegen::OperationError for MoveError {
            fn from_user_exception(
                repository_id: &str,
                members: &mut ::rtorb::codegen::Decoder,
            ) -> ::core::option::Option<::rtorb::codegen::Result<Self>> {
                if repository_id
                    == <super::Unsafe as ::rtorb::codegen::UserException>::REPOSITORY_ID
                {
                    return Some(
                        <super::Unsafe as ::rtorb::codegen::CdrDecode>::decode(members)
                            .map(MoveError::Unsafe),
                    );
                }
                None
            }
        }
        impl ::std::fmt::Display for MoveError {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                match self {
                    MoveError::Unsafe(x) => ::std::fmt::Display::fmt(x, f),
                    MoveError::System(s) => ::std::fmt::Display::fmt(s, f),
                }
            }
        }
        impl ::std::error::Error for MoveError {}
        /// Repository ids of `match::mod`, most derived first, then every base.
        pub const REPOSITORY_IDS: &[&str] = &["IDL:match/mod:1.0"];
        /// Runs a request on a servant of `match::mod`: decodes the arguments, calls the servant, writes the results or exception.
        pub fn dispatch<S: super::ModServant + ?Sized>(
            servant: &S,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            match req.operation_bytes() {
                b"move" => {
                    let d = req.arguments();
                    let r#box = <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    let crate_ = <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    match servant.r#move(r#box, crate_) {
                        Ok((r0, r1, r2)) => {
                            req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                                ::rtorb::codegen::CdrEncode::encode(&r0, e)?;
                                ::rtorb::codegen::CdrEncode::encode(&r1, e)?;
                                ::rtorb::codegen::CdrEncode::encode(&r2, e)?;
                                Ok(())
                            })
                        }
                        Err(MoveError::Unsafe(x)) => req.write_user_exception(&x),
                        Err(MoveError::System(s)) => Err(s),
                    }
                }
                b"macro" => {
                    let d = req.arguments();
                    let r#use = <super::Type as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    servant.r#macro(r#use)
                }
                b"token" => {
                    let r = servant.token()?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"_get_async" => {
                    let r = servant.r#async()?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"_set_async" => {
                    let d = req.arguments();
                    let value = <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    servant.set_async(value)
                }
                b"_get_await" => {
                    let r = servant.r#await()?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                _ => Err(::rtorb::codegen::bad_operation()),
            }
        }
    }
    /// An interface named after a keyword.
    ///
    /// Client stub of IDL interface `match::mod` (`IDL:match/mod:1.0`).
    #[derive(Debug, Clone)]
    pub struct Mod(::rtorb::codegen::Object);
    impl ::rtorb::codegen::Stub for Mod {
        const REPOSITORY_ID: &'static str = "IDL:match/mod:1.0";
        fn from_object(object: ::rtorb::codegen::Object) -> Self {
            Mod(object)
        }
        fn as_object(&self) -> &::rtorb::codegen::Object {
            &self.0
        }
        fn into_object(self) -> ::rtorb::codegen::Object {
            self.0
        }
    }
    /// The operations of the base (or of `CORBA::Object`).
    impl ::core::ops::Deref for Mod {
        type Target = ::rtorb::codegen::Object;
        fn deref(&self) -> &::rtorb::codegen::Object {
            &self.0
        }
    }
    impl ::rtorb::codegen::IdlType for Mod {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::objref("IDL:match/mod:1.0", "mod")
        }
    }
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    impl Mod {
        /// IDL operation `move`.
        pub fn r#move(
            &self,
            r#box: i32,
            crate_: &i32,
        ) -> ::core::result::Result<(i32, i32, i32), r#mod::MoveError> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "move",
                    |servant: &(dyn ModServant + 'static)| {
                        servant.r#move(r#box, ::core::clone::Clone::clone(crate_))
                    },
                    |e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r#box, e)?;
                        ::rtorb::codegen::CdrEncode::encode(crate_, e)?;
                        Ok(())
                    },
                    |reply: ::rtorb::codegen::Reply| {
                        reply
                            .decode(|d: &mut ::rtorb::codegen::Decoder| {
                                let r = (
                                    <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?,
                                    <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?,
                                    <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?,
                                );
                                Ok(r)
                            })
                    },
                )
        }
        /// IDL operation `macro`.
        pub fn r#macro(
            &self,
            r#use: &Type,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call_oneway(
                    "macro",
                    |servant: &(dyn ModServant + 'static)| {
                        servant.r#macro(::rtorb::codegen::ParamFrom::param_from(r#use))
                    },
                    |e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(r#use, e)?;
                        Ok(())
                    },
                )
        }
        /// IDL operation `token`.
        pub fn token(
            &self,
        ) -> ::core::result::Result<
            super::shared::Token,
            ::rtorb::codegen::SystemException,
        > {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "token",
                    |servant: &(dyn ModServant + 'static)| servant.token(),
                    |_e: &mut ::rtorb::codegen::Encoder| { Ok(()) },
                    |reply: ::rtorb::codegen::Reply| {
                        reply
                            .decode(
                                <super::shared::Token as ::rtorb::codegen::CdrDecode>::decode,
                            )
                    },
                )
        }
        /// Reads IDL attribute `async`.
        pub fn r#async(
            &self,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "_get_async",
                    |servant: &(dyn ModServant + 'static)| servant.r#async(),
                    |_e: &mut ::rtorb::codegen::Encoder| { Ok(()) },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(<i32 as ::rtorb::codegen::CdrDecode>::decode)
                    },
                )
        }
        /// Writes IDL attribute `async`.
        pub fn set_async(
            &self,
            value: i32,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "_set_async",
                    |servant: &(dyn ModServant + 'static)| servant.set_async(value),
                    |e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&value, e)?;
                        Ok(())
                    },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(|_d: &mut ::rtorb::codegen::Decoder| Ok(()))
                    },
                )
        }
        /// Reads IDL attribute `await`.
        pub fn r#await(
            &self,
        ) -> ::core::result::Result<
            ::std::string::String,
            ::rtorb::codegen::SystemException,
        > {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "_get_await",
                    |servant: &(dyn ModServant + 'static)| servant.r#await(),
                    |_e: &mut ::rtorb::codegen::Encoder| { Ok(()) },
                    |reply: ::rtorb::codegen::Reply| {
                        reply
                            .decode(
                                <::std::string::String as ::rtorb::codegen::CdrDecode>::decode,
                            )
                    },
                )
        }
    }
    /// Servant trait of IDL interface `match::mod`: implement it and register `ModSkeleton(servant)`.
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    pub trait ModServant: Send + Sync {
        /// IDL operation `move`.
        fn r#move(
            &self,
            r#box: i32,
            crate_: i32,
        ) -> ::core::result::Result<(i32, i32, i32), r#mod::MoveError>;
        /// IDL operation `macro`.
        ///
        /// Oneway: the client does not wait, and an error is not sent back.
        fn r#macro(
            &self,
            r#use: Type,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException>;
        /// IDL operation `token`.
        fn token(
            &self,
        ) -> ::core::result::Result<
            super::shared::Token,
            ::rtorb::codegen::SystemException,
        >;
        /// Reads IDL attribute `async`.
        fn r#async(
            &self,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException>;
        /// Writes IDL attribute `async`.
        fn set_async(
            &self,
            value: i32,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException>;
        /// Reads IDL attribute `await`.
        fn r#await(
            &self,
        ) -> ::core::result::Result<
            ::std::string::String,
            ::rtorb::codegen::SystemException,
        >;
    }
    /// Skeleton of IDL interface `match::mod`, wrapping a servant.
    pub struct ModSkeleton<S>(pub S);
    impl<S: ModServant + 'static> ::rtorb::codegen::Skeleton for ModSkeleton<S> {
        fn repository_ids(&self) -> &'static [&'static str] {
            r#mod::REPOSITORY_IDS
        }
        fn dispatch(
            &self,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            r#mod::dispatch(&self.0, req)
        }
        fn servant(&self) -> ::core::option::Option<&dyn ::core::any::Any> {
            ::core::option::Option::Some(&self.0)
        }
        fn servant_cast(&self, query: &mut dyn ::core::any::Any) {
            ::rtorb::codegen::ServantCast::<
                dyn ModServant,
            >::offer(query, |s| s.downcast_ref::<S>().map(|s| s as &dyn ModServant));
        }
    }
}
/// Names that differ only in case or underscores in IDL.
///
/// IDL module `Clashes`.
pub mod clashes {
    /// IDL struct `Clashes::getName` (`IDL:Clashes/getName:1.0`).
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct GetName {
        /// `value`
        pub value: i32,
    }
    impl ::rtorb::codegen::CdrEncode for GetName {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            ::rtorb::codegen::CdrEncode::encode(&self.value, e)?;
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for GetName {
        const MIN_WIRE_SIZE: usize = 4;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            Ok(GetName {
                value: <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?,
            })
        }
    }
    impl ::rtorb::codegen::IdlType for GetName {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::struct_tc(
                "IDL:Clashes/getName:1.0",
                "getName",
                [("value", ::rtorb::codegen::TypeCode::long())],
            )
        }
    }
    impl ::rtorb::codegen::AnyValue for GetName {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <GetName as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// IDL struct `Clashes::get_name` (`IDL:Clashes/get_name:1.0`).
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct GetName_ {
        /// `value`
        pub value: i32,
    }
    impl ::rtorb::codegen::CdrEncode for GetName_ {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            ::rtorb::codegen::CdrEncode::encode(&self.value, e)?;
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for GetName_ {
        const MIN_WIRE_SIZE: usize = 4;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            Ok(GetName_ {
                value: <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?,
            })
        }
    }
    impl ::rtorb::codegen::IdlType for GetName_ {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::struct_tc(
                "IDL:Clashes/get_name:1.0",
                "get_name",
                [("value", ::rtorb::codegen::TypeCode::long())],
            )
        }
    }
    impl ::rtorb::codegen::AnyValue for GetName_ {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <GetName_ as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// IDL constant `Clashes::maxLength`.
    pub const MAX_LENGTH: i32 = 1;
    /// IDL constant `Clashes::MAX_LENGTH_`.
    pub const MAX_LENGTH_: i32 = 2;
    /// IDL enum `Clashes::Lights` (`IDL:Clashes/Lights:1.0`): an `unsigned long` on the wire.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
    #[repr(u32)]
    #[allow(clippy::enum_variant_names)]
    pub enum Lights {
        /// `RED_LIGHT`
        #[default]
        RedLight = 0,
        /// `redLight`
        RedLight_ = 1,
        /// `GreenLight`
        GreenLight = 2,
    }
    impl ::rtorb::codegen::CdrEncode for Lights {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            e.write_u32(*self as u32);
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for Lights {
        const MIN_WIRE_SIZE: usize = 4;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            match d.read_u32()? {
                0 => Ok(Lights::RedLight),
                1 => Ok(Lights::RedLight_),
                2 => Ok(Lights::GreenLight),
                value => {
                    Err(::rtorb::codegen::CdrError::InvalidEnum {
                        value,
                        count: 3,
                    })
                }
            }
        }
    }
    impl ::rtorb::codegen::IdlType for Lights {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::enum_tc(
                "IDL:Clashes/Lights:1.0",
                "Lights",
                ["RED_LIGHT", "redLight", "GreenLight"],
            )
        }
    }
    impl ::rtorb::codegen::AnyValue for Lights {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <Lights as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// Types and operation support of IDL interface `Clashes::Accessors`.
    pub mod accessors {
        /// Repository ids of `Clashes::Accessors`, most derived first, then every base.
        pub const REPOSITORY_IDS: &[&str] = &["IDL:Clashes/Accessors:1.0"];
        /// Runs a request on a servant of `Clashes::Accessors`: decodes the arguments, calls the servant, writes the results or exception.
        pub fn dispatch<S: super::AccessorsServant + ?Sized>(
            servant: &S,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            match req.operation_bytes() {
                b"getValue" => {
                    let r = servant.get_value()?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"get_value_" => {
                    let r = servant.get_value_()?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"set_value_2" => {
                    let d = req.arguments();
                    let v = <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    servant.set_value_2(v)
                }
                b"_get_value" => {
                    let r = servant.value()?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"_set_value" => {
                    let d = req.arguments();
                    let value = <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    servant.set_value(value)
                }
                _ => Err(::rtorb::codegen::bad_operation()),
            }
        }
    }
    /// Client stub of IDL interface `Clashes::Accessors` (`IDL:Clashes/Accessors:1.0`).
    #[derive(Debug, Clone)]
    pub struct Accessors(::rtorb::codegen::Object);
    impl ::rtorb::codegen::Stub for Accessors {
        const REPOSITORY_ID: &'static str = "IDL:Clashes/Accessors:1.0";
        fn from_object(object: ::rtorb::codegen::Object) -> Self {
            Accessors(object)
        }
        fn as_object(&self) -> &::rtorb::codegen::Object {
            &self.0
        }
        fn into_object(self) -> ::rtorb::codegen::Object {
            self.0
        }
    }
    /// The operations of the base (or of `CORBA::Object`).
    impl ::core::ops::Deref for Accessors {
        type Target = ::rtorb::codegen::Object;
        fn deref(&self) -> &::rtorb::codegen::Object {
            &self.0
        }
    }
    impl ::rtorb::codegen::IdlType for Accessors {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::objref("IDL:Clashes/Accessors:1.0", "Accessors")
        }
    }
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    impl Accessors {
        /// IDL operation `getValue`.
        pub fn get_value(
            &self,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "getValue",
                    |servant: &(dyn AccessorsServant + 'static)| servant.get_value(),
                    |_e: &mut ::rtorb::codegen::Encoder| { Ok(()) },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(<i32 as ::rtorb::codegen::CdrDecode>::decode)
                    },
                )
        }
        /// IDL operation `get_value_`.
        pub fn get_value_(
            &self,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "get_value_",
                    |servant: &(dyn AccessorsServant + 'static)| servant.get_value_(),
                    |_e: &mut ::rtorb::codegen::Encoder| { Ok(()) },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(<i32 as ::rtorb::codegen::CdrDecode>::decode)
                    },
                )
        }
        /// IDL operation `set_value_2`.
        pub fn set_value_2(
            &self,
            v: i32,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "set_value_2",
                    |servant: &(dyn AccessorsServant + 'static)| servant.set_value_2(v),
                    |e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&v, e)?;
                        Ok(())
                    },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(|_d: &mut ::rtorb::codegen::Decoder| Ok(()))
                    },
                )
        }
        /// Reads IDL attribute `value`.
        pub fn value(
            &self,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "_get_value",
                    |servant: &(dyn AccessorsServant + 'static)| servant.value(),
                    |_e: &mut ::rtorb::codegen::Encoder| { Ok(()) },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(<i32 as ::rtorb::codegen::CdrDecode>::decode)
                    },
                )
        }
        /// Writes IDL attribute `value`.
        pub fn set_value(
            &self,
            value: i32,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "_set_value",
                    |servant: &(dyn AccessorsServant + 'static)| {
                        servant.set_value(value)
                    },
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
    /// Servant trait of IDL interface `Clashes::Accessors`: implement it and register `AccessorsSkeleton(servant)`.
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    pub trait AccessorsServant: Send + Sync {
        /// IDL operation `getValue`.
        fn get_value(
            &self,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException>;
        /// IDL operation `get_value_`.
        fn get_value_(
            &self,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException>;
        /// IDL operation `set_value_2`.
        fn set_value_2(
            &self,
            v: i32,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException>;
        /// Reads IDL attribute `value`.
        fn value(
            &self,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException>;
        /// Writes IDL attribute `value`.
        fn set_value(
            &self,
            value: i32,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException>;
    }
    /// Skeleton of IDL interface `Clashes::Accessors`, wrapping a servant.
    pub struct AccessorsSkeleton<S>(pub S);
    impl<S: AccessorsServant + 'static> ::rtorb::codegen::Skeleton
    for AccessorsSkeleton<S> {
        fn repository_ids(&self) -> &'static [&'static str] {
            accessors::REPOSITORY_IDS
        }
        fn dispatch(
            &self,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            accessors::dispatch(&self.0, req)
        }
        fn servant(&self) -> ::core::option::Option<&dyn ::core::any::Any> {
            ::core::option::Option::Some(&self.0)
        }
        fn servant_cast(&self, query: &mut dyn ::core::any::Any) {
            ::rtorb::codegen::ServantCast::<
                dyn AccessorsServant,
            >::offer(
                query,
                |s| s.downcast_ref::<S>().map(|s| s as &dyn AccessorsServant),
            );
        }
    }
    /// IDL module `CosNaming`.
    pub mod cos_naming {
        /// IDL struct `Clashes::CosNaming::NameComponent` (`IDL:Clashes/CosNaming/NameComponent:1.0`).
        #[derive(Debug, Clone, PartialEq, Default)]
        pub struct NameComponent {
            /// `id`
            pub id: ::std::string::String,
            /// `kind`
            pub kind: ::std::string::String,
        }
        impl ::rtorb::codegen::CdrEncode for NameComponent {
            fn encode(
                &self,
                e: &mut ::rtorb::codegen::Encoder,
            ) -> ::rtorb::codegen::Result<()> {
                ::rtorb::codegen::CdrEncode::encode(&self.id, e)?;
                ::rtorb::codegen::CdrEncode::encode(&self.kind, e)?;
                Ok(())
            }
        }
        impl ::rtorb::codegen::CdrDecode for NameComponent {
            const MIN_WIRE_SIZE: usize = 10;
            fn decode(
                d: &mut ::rtorb::codegen::Decoder,
            ) -> ::rtorb::codegen::Result<Self> {
                Ok(NameComponent {
                    id: <::std::string::String as ::rtorb::codegen::CdrDecode>::decode(
                        d,
                    )?,
                    kind: <::std::string::String as ::rtorb::codegen::CdrDecode>::decode(
                        d,
                    )?,
                })
            }
        }
        impl ::rtorb::codegen::IdlType for NameComponent {
            fn type_code() -> ::rtorb::codegen::TypeCode {
                ::rtorb::codegen::TypeCode::struct_tc(
                    "IDL:Clashes/CosNaming/NameComponent:1.0",
                    "NameComponent",
                    [
                        ("id", ::rtorb::codegen::TypeCode::string(0)),
                        ("kind", ::rtorb::codegen::TypeCode::string(0)),
                    ],
                )
            }
        }
        impl ::rtorb::codegen::AnyValue for NameComponent {
            fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
                ::rtorb::codegen::Any::from_cdr(
                    <NameComponent as ::rtorb::codegen::IdlType>::type_code(),
                    self,
                )
            }
            fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
                any.decode_cdr()
            }
        }
    }
    /// IDL module `cos_naming_`.
    pub mod cos_naming_ {
        /// IDL struct `Clashes::cos_naming_::Binding` (`IDL:Clashes/cos_naming_/Binding:1.0`).
        #[derive(Debug, Clone, PartialEq, Default)]
        pub struct Binding {
            /// `b`
            pub b: i32,
        }
        impl ::rtorb::codegen::CdrEncode for Binding {
            fn encode(
                &self,
                e: &mut ::rtorb::codegen::Encoder,
            ) -> ::rtorb::codegen::Result<()> {
                ::rtorb::codegen::CdrEncode::encode(&self.b, e)?;
                Ok(())
            }
        }
        impl ::rtorb::codegen::CdrDecode for Binding {
            const MIN_WIRE_SIZE: usize = 4;
            fn decode(
                d: &mut ::rtorb::codegen::Decoder,
            ) -> ::rtorb::codegen::Result<Self> {
                Ok(Binding {
                    b: <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?,
                })
            }
        }
        impl ::rtorb::codegen::IdlType for Binding {
            fn type_code() -> ::rtorb::codegen::TypeCode {
                ::rtorb::codegen::TypeCode::struct_tc(
                    "IDL:Clashes/cos_naming_/Binding:1.0",
                    "Binding",
                    [("b", ::rtorb::codegen::TypeCode::long())],
                )
            }
        }
        impl ::rtorb::codegen::AnyValue for Binding {
            fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
                ::rtorb::codegen::Any::from_cdr(
                    <Binding as ::rtorb::codegen::IdlType>::type_code(),
                    self,
                )
            }
            fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
                any.decode_cdr()
            }
        }
    }
}
