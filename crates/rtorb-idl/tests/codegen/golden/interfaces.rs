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
/// The first part of a module that is reopened below.
///
/// IDL module `Outer`.
pub mod outer {
    /// A nested module.
    ///
    /// IDL module `Inner`.
    pub mod inner {
        /// IDL struct `Outer::Inner::Pair` (`IDL:Outer/Inner/Pair:1.0`).
        #[derive(Debug, Clone, PartialEq, Default)]
        pub struct Pair {
            /// `a`
            pub a: i32,
            /// `b`
            pub b: i32,
        }
        impl ::rtorb::codegen::CdrEncode for Pair {
            fn encode(
                &self,
                e: &mut ::rtorb::codegen::Encoder,
            ) -> ::rtorb::codegen::Result<()> {
                ::rtorb::codegen::CdrEncode::encode(&self.a, e)?;
                ::rtorb::codegen::CdrEncode::encode(&self.b, e)?;
                Ok(())
            }
        }
        impl ::rtorb::codegen::CdrDecode for Pair {
            const MIN_WIRE_SIZE: usize = 8;
            fn decode(
                d: &mut ::rtorb::codegen::Decoder,
            ) -> ::rtorb::codegen::Result<Self> {
                Ok(Pair {
                    a: <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?,
                    b: <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?,
                })
            }
        }
        impl ::rtorb::codegen::IdlType for Pair {
            fn type_code() -> ::rtorb::codegen::TypeCode {
                ::rtorb::codegen::TypeCode::struct_tc(
                    "IDL:Outer/Inner/Pair:1.0",
                    "Pair",
                    [
                        ("a", ::rtorb::codegen::TypeCode::long()),
                        ("b", ::rtorb::codegen::TypeCode::long()),
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
        /// Added to the reopened nested module.
        ///
        /// IDL constant `Outer::Inner::REOPENED`.
        pub const REOPENED: i32 = 2;
    }
    /// Uses the forward-declared interface.
    ///
    /// IDL struct `Outer::Holder` (`IDL:Outer/Holder:1.0`).
    #[derive(Debug, Clone, Default)]
    pub struct Holder {
        /// `ref`
        pub r#ref: ::core::option::Option<Later>,
    }
    impl ::rtorb::codegen::CdrEncode for Holder {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            ::rtorb::codegen::write_object(
                e,
                self.r#ref.as_ref().map(::rtorb::codegen::Stub::as_object),
            )?;
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for Holder {
        const MIN_WIRE_SIZE: usize = 9;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            Ok(Holder {
                r#ref: ::rtorb::codegen::read_object(d)?
                    .map(<Later as ::rtorb::codegen::Stub>::from_object),
            })
        }
    }
    impl ::rtorb::codegen::IdlType for Holder {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::struct_tc(
                "IDL:Outer/Holder:1.0",
                "Holder",
                [("ref", <Later as ::rtorb::codegen::IdlType>::type_code())],
            )
        }
    }
    impl ::rtorb::codegen::AnyValue for Holder {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <Holder as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// IDL exception `Outer::Denied` (`IDL:Outer/Denied:1.0`).
    #[derive(Debug, Clone, PartialEq)]
    pub struct Denied {
        /// `who`
        pub who: ::std::string::String,
    }
    impl ::rtorb::codegen::CdrEncode for Denied {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            ::rtorb::codegen::CdrEncode::encode(&self.who, e)?;
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for Denied {
        const MIN_WIRE_SIZE: usize = 5;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            Ok(Denied {
                who: <::std::string::String as ::rtorb::codegen::CdrDecode>::decode(d)?,
            })
        }
    }
    impl ::rtorb::codegen::IdlType for Denied {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::exception_tc(
                "IDL:Outer/Denied:1.0",
                "Denied",
                [("who", ::rtorb::codegen::TypeCode::string(0))],
            )
        }
    }
    impl ::rtorb::codegen::AnyValue for Denied {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <Denied as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    impl ::rtorb::codegen::UserException for Denied {
        const REPOSITORY_ID: &'static str = "IDL:Outer/Denied:1.0";
    }
    impl ::std::fmt::Display for Denied {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            f.write_str("user exception Outer::Denied")
        }
    }
    impl ::std::error::Error for Denied {}
    /// IDL exception `Outer::Busy` (`IDL:Outer/Busy:1.0`).
    #[derive(Debug, Clone, PartialEq)]
    pub struct Busy {}
    impl ::rtorb::codegen::CdrEncode for Busy {
        fn encode(
            &self,
            _e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for Busy {
        const MIN_WIRE_SIZE: usize = 0;
        fn decode(_d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            Ok(Busy {})
        }
    }
    impl ::rtorb::codegen::IdlType for Busy {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::exception_tc(
                "IDL:Outer/Busy:1.0",
                "Busy",
                ::std::vec::Vec::<(&str, ::rtorb::codegen::TypeCode)>::new(),
            )
        }
    }
    impl ::rtorb::codegen::AnyValue for Busy {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <Busy as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    impl ::rtorb::codegen::UserException for Busy {
        const REPOSITORY_ID: &'static str = "IDL:Outer/Busy:1.0";
    }
    impl ::std::fmt::Display for Busy {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            f.write_str("user exception Outer::Busy")
        }
    }
    impl ::std::error::Error for Busy {}
    /// Types and operation support of IDL interface `Outer::Top`.
    pub mod top {
        /// Repository ids of `Outer::Top`, most derived first, then every base.
        pub const REPOSITORY_IDS: &[&str] = &["IDL:Outer/Top:1.0"];
        /// Runs a request on a servant of `Outer::Top`: decodes the arguments, calls the servant, writes the results or exception.
        pub fn dispatch<S: super::TopServant + ?Sized>(
            servant: &S,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            match req.operation_bytes() {
                b"apex" => {
                    let d = req.arguments();
                    let x_ = <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    let r = servant.apex(x_)?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"_get_depth" => {
                    let r = servant.depth()?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                _ => Err(::rtorb::codegen::bad_operation()),
            }
        }
    }
    /// The root of a diamond.
    ///
    /// Client stub of IDL interface `Outer::Top` (`IDL:Outer/Top:1.0`).
    #[derive(Debug, Clone)]
    pub struct Top(::rtorb::codegen::Object);
    impl ::rtorb::codegen::Stub for Top {
        const REPOSITORY_ID: &'static str = "IDL:Outer/Top:1.0";
        fn from_object(object: ::rtorb::codegen::Object) -> Self {
            Top(object)
        }
        fn as_object(&self) -> &::rtorb::codegen::Object {
            &self.0
        }
        fn into_object(self) -> ::rtorb::codegen::Object {
            self.0
        }
    }
    /// The operations of the base (or of `CORBA::Object`).
    impl ::core::ops::Deref for Top {
        type Target = ::rtorb::codegen::Object;
        fn deref(&self) -> &::rtorb::codegen::Object {
            &self.0
        }
    }
    impl ::rtorb::codegen::IdlType for Top {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::objref("IDL:Outer/Top:1.0", "Top")
        }
    }
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    impl Top {
        /// IDL operation `apex`.
        pub fn apex(
            &self,
            x_: i32,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "apex",
                    |servant: &(dyn TopServant + 'static)| servant.apex(x_),
                    |e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&x_, e)?;
                        Ok(())
                    },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(<i32 as ::rtorb::codegen::CdrDecode>::decode)
                    },
                )
        }
        /// Reads IDL attribute `depth`.
        pub fn depth(
            &self,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "_get_depth",
                    |servant: &(dyn TopServant + 'static)| servant.depth(),
                    |_e: &mut ::rtorb::codegen::Encoder| { Ok(()) },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(<i32 as ::rtorb::codegen::CdrDecode>::decode)
                    },
                )
        }
    }
    /// Servant trait of IDL interface `Outer::Top`: implement it and register `TopSkeleton(servant)`.
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    pub trait TopServant: Send + Sync {
        /// IDL operation `apex`.
        fn apex(
            &self,
            x_: i32,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException>;
        /// Reads IDL attribute `depth`.
        fn depth(
            &self,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException>;
    }
    /// Skeleton of IDL interface `Outer::Top`, wrapping a servant.
    pub struct TopSkeleton<S>(pub S);
    impl<S: TopServant + 'static> ::rtorb::codegen::Skeleton for TopSkeleton<S> {
        fn repository_ids(&self) -> &'static [&'static str] {
            top::REPOSITORY_IDS
        }
        fn dispatch(
            &self,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            top::dispatch(&self.0, req)
        }
        fn servant(&self) -> ::core::option::Option<&dyn ::core::any::Any> {
            ::core::option::Option::Some(&self.0)
        }
        fn servant_cast(&self, query: &mut dyn ::core::any::Any) {
            ::rtorb::codegen::ServantCast::<
                dyn TopServant,
            >::offer(query, |s| s.downcast_ref::<S>().map(|s| s as &dyn TopServant));
        }
    }
    /// Types and operation support of IDL interface `Outer::LeftSide`.
    pub mod left_side {
        /// Repository ids of `Outer::LeftSide`, most derived first, then every base.
        pub const REPOSITORY_IDS: &[&str] = &[
            "IDL:Outer/LeftSide:1.0",
            "IDL:Outer/Top:1.0",
        ];
        /// Runs a request on a servant of `Outer::LeftSide`: decodes the arguments, calls the servant, writes the results or exception.
        pub fn dispatch<S: super::LeftSideServant + ?Sized>(
            servant: &S,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            match req.operation_bytes() {
                b"left" => {
                    let r = servant.left()?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"apex" => {
                    let d = req.arguments();
                    let x_ = <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    let r = servant.apex(x_)?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"_get_depth" => {
                    let r = servant.depth()?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                _ => Err(::rtorb::codegen::bad_operation()),
            }
        }
    }
    /// Client stub of IDL interface `Outer::LeftSide` (`IDL:Outer/LeftSide:1.0`).
    #[derive(Debug, Clone)]
    pub struct LeftSide(Top);
    impl ::rtorb::codegen::Stub for LeftSide {
        const REPOSITORY_ID: &'static str = "IDL:Outer/LeftSide:1.0";
        fn from_object(object: ::rtorb::codegen::Object) -> Self {
            LeftSide(<Top as ::rtorb::codegen::Stub>::from_object(object))
        }
        fn as_object(&self) -> &::rtorb::codegen::Object {
            ::rtorb::codegen::Stub::as_object(&self.0)
        }
        fn into_object(self) -> ::rtorb::codegen::Object {
            ::rtorb::codegen::Stub::into_object(self.0)
        }
    }
    /// The operations of the base (or of `CORBA::Object`).
    impl ::core::ops::Deref for LeftSide {
        type Target = Top;
        fn deref(&self) -> &Top {
            &self.0
        }
    }
    impl ::rtorb::codegen::IdlType for LeftSide {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::objref("IDL:Outer/LeftSide:1.0", "LeftSide")
        }
    }
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    impl LeftSide {
        /// IDL operation `left`.
        pub fn left(
            &self,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "left",
                    |servant: &(dyn LeftSideServant + 'static)| servant.left(),
                    |_e: &mut ::rtorb::codegen::Encoder| { Ok(()) },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(<i32 as ::rtorb::codegen::CdrDecode>::decode)
                    },
                )
        }
    }
    /// Servant trait of IDL interface `Outer::LeftSide`: implement it and register `LeftSideSkeleton(servant)`.
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    pub trait LeftSideServant: TopServant {
        /// IDL operation `left`.
        fn left(&self) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException>;
    }
    /// Skeleton of IDL interface `Outer::LeftSide`, wrapping a servant.
    pub struct LeftSideSkeleton<S>(pub S);
    impl<S: LeftSideServant + 'static> ::rtorb::codegen::Skeleton
    for LeftSideSkeleton<S> {
        fn repository_ids(&self) -> &'static [&'static str] {
            left_side::REPOSITORY_IDS
        }
        fn dispatch(
            &self,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            left_side::dispatch(&self.0, req)
        }
        fn servant(&self) -> ::core::option::Option<&dyn ::core::any::Any> {
            ::core::option::Option::Some(&self.0)
        }
        fn servant_cast(&self, query: &mut dyn ::core::any::Any) {
            ::rtorb::codegen::ServantCast::<
                dyn LeftSideServant,
            >::offer(
                query,
                |s| s.downcast_ref::<S>().map(|s| s as &dyn LeftSideServant),
            );
            ::rtorb::codegen::ServantCast::<
                dyn TopServant,
            >::offer(query, |s| s.downcast_ref::<S>().map(|s| s as &dyn TopServant));
        }
    }
    /// Types and operation support of IDL interface `Outer::RightSide`.
    pub mod right_side {
        /// Repository ids of `Outer::RightSide`, most derived first, then every base.
        pub const REPOSITORY_IDS: &[&str] = &[
            "IDL:Outer/RightSide:1.0",
            "IDL:Outer/Top:1.0",
        ];
        /// Runs a request on a servant of `Outer::RightSide`: decodes the arguments, calls the servant, writes the results or exception.
        pub fn dispatch<S: super::RightSideServant + ?Sized>(
            servant: &S,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            match req.operation_bytes() {
                b"right" => {
                    let r = servant.right()?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"apex" => {
                    let d = req.arguments();
                    let x_ = <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    let r = servant.apex(x_)?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"_get_depth" => {
                    let r = servant.depth()?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                _ => Err(::rtorb::codegen::bad_operation()),
            }
        }
    }
    /// Client stub of IDL interface `Outer::RightSide` (`IDL:Outer/RightSide:1.0`).
    #[derive(Debug, Clone)]
    pub struct RightSide(Top);
    impl ::rtorb::codegen::Stub for RightSide {
        const REPOSITORY_ID: &'static str = "IDL:Outer/RightSide:1.0";
        fn from_object(object: ::rtorb::codegen::Object) -> Self {
            RightSide(<Top as ::rtorb::codegen::Stub>::from_object(object))
        }
        fn as_object(&self) -> &::rtorb::codegen::Object {
            ::rtorb::codegen::Stub::as_object(&self.0)
        }
        fn into_object(self) -> ::rtorb::codegen::Object {
            ::rtorb::codegen::Stub::into_object(self.0)
        }
    }
    /// The operations of the base (or of `CORBA::Object`).
    impl ::core::ops::Deref for RightSide {
        type Target = Top;
        fn deref(&self) -> &Top {
            &self.0
        }
    }
    impl ::rtorb::codegen::IdlType for RightSide {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::objref("IDL:Outer/RightSide:1.0", "RightSide")
        }
    }
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    impl RightSide {
        /// IDL operation `right`.
        pub fn right(
            &self,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "right",
                    |servant: &(dyn RightSideServant + 'static)| servant.right(),
                    |_e: &mut ::rtorb::codegen::Encoder| { Ok(()) },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(<i32 as ::rtorb::codegen::CdrDecode>::decode)
                    },
                )
        }
    }
    /// Servant trait of IDL interface `Outer::RightSide`: implement it and register `RightSideSkeleton(servant)`.
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    pub trait RightSideServant: TopServant {
        /// IDL operation `right`.
        fn right(
            &self,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException>;
    }
    /// Skeleton of IDL interface `Outer::RightSide`, wrapping a servant.
    pub struct RightSideSkeleton<S>(pub S);
    impl<S: RightSideServant + 'static> ::rtorb::codegen::Skeleton
    for RightSideSkeleton<S> {
        fn repository_ids(&self) -> &'static [&'static str] {
            right_side::REPOSITORY_IDS
        }
        fn dispatch(
            &self,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            right_side::dispatch(&self.0, req)
        }
        fn servant(&self) -> ::core::option::Option<&dyn ::core::any::Any> {
            ::core::option::Option::Some(&self.0)
        }
        fn servant_cast(&self, query: &mut dyn ::core::any::Any) {
            ::rtorb::codegen::ServantCast::<
                dyn RightSideServant,
            >::offer(
                query,
                |s| s.downcast_ref::<S>().map(|s| s as &dyn RightSideServant),
            );
            ::rtorb::codegen::ServantCast::<
                dyn TopServant,
            >::offer(query, |s| s.downcast_ref::<S>().map(|s| s as &dyn TopServant));
        }
    }
    /// Types and operation support of IDL interface `Outer::Bottom`.
    pub mod bottom {
        /// Repository ids of `Outer::Bottom`, most derived first, then every base.
        pub const REPOSITORY_IDS: &[&str] = &[
            "IDL:Outer/Bottom:1.0",
            "IDL:Outer/LeftSide:1.0",
            "IDL:Outer/Top:1.0",
            "IDL:Outer/RightSide:1.0",
        ];
        /// Runs a request on a servant of `Outer::Bottom`: decodes the arguments, calls the servant, writes the results or exception.
        pub fn dispatch<S: super::BottomServant + ?Sized>(
            servant: &S,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            match req.operation_bytes() {
                b"floor" => {
                    let r = servant.floor()?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"left" => {
                    let r = servant.left()?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"apex" => {
                    let d = req.arguments();
                    let x_ = <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    let r = servant.apex(x_)?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"right" => {
                    let r = servant.right()?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"_get_depth" => {
                    let r = servant.depth()?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                _ => Err(::rtorb::codegen::bad_operation()),
            }
        }
    }
    /// Diamond inheritance: \`Top\` reached twice.
    ///
    /// Client stub of IDL interface `Outer::Bottom` (`IDL:Outer/Bottom:1.0`).
    #[derive(Debug, Clone)]
    pub struct Bottom(::rtorb::codegen::Object);
    impl ::rtorb::codegen::Stub for Bottom {
        const REPOSITORY_ID: &'static str = "IDL:Outer/Bottom:1.0";
        fn from_object(object: ::rtorb::codegen::Object) -> Self {
            Bottom(object)
        }
        fn as_object(&self) -> &::rtorb::codegen::Object {
            &self.0
        }
        fn into_object(self) -> ::rtorb::codegen::Object {
            self.0
        }
    }
    /// The operations of the base (or of `CORBA::Object`).
    impl ::core::ops::Deref for Bottom {
        type Target = ::rtorb::codegen::Object;
        fn deref(&self) -> &::rtorb::codegen::Object {
            &self.0
        }
    }
    impl ::rtorb::codegen::IdlType for Bottom {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::objref("IDL:Outer/Bottom:1.0", "Bottom")
        }
    }
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    impl Bottom {
        /// IDL operation `floor`.
        pub fn floor(
            &self,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "floor",
                    |servant: &(dyn BottomServant + 'static)| servant.floor(),
                    |_e: &mut ::rtorb::codegen::Encoder| { Ok(()) },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(<i32 as ::rtorb::codegen::CdrDecode>::decode)
                    },
                )
        }
        /// IDL operation `left`.
        pub fn left(
            &self,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "left",
                    |servant: &(dyn LeftSideServant + 'static)| servant.left(),
                    |_e: &mut ::rtorb::codegen::Encoder| { Ok(()) },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(<i32 as ::rtorb::codegen::CdrDecode>::decode)
                    },
                )
        }
        /// IDL operation `apex`.
        pub fn apex(
            &self,
            x_: i32,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "apex",
                    |servant: &(dyn TopServant + 'static)| servant.apex(x_),
                    |e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&x_, e)?;
                        Ok(())
                    },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(<i32 as ::rtorb::codegen::CdrDecode>::decode)
                    },
                )
        }
        /// IDL operation `right`.
        pub fn right(
            &self,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "right",
                    |servant: &(dyn RightSideServant + 'static)| servant.right(),
                    |_e: &mut ::rtorb::codegen::Encoder| { Ok(()) },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(<i32 as ::rtorb::codegen::CdrDecode>::decode)
                    },
                )
        }
        /// Reads IDL attribute `depth`.
        pub fn depth(
            &self,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "_get_depth",
                    |servant: &(dyn TopServant + 'static)| servant.depth(),
                    |_e: &mut ::rtorb::codegen::Encoder| { Ok(()) },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(<i32 as ::rtorb::codegen::CdrDecode>::decode)
                    },
                )
        }
    }
    /// Servant trait of IDL interface `Outer::Bottom`: implement it and register `BottomSkeleton(servant)`.
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    pub trait BottomServant: LeftSideServant + RightSideServant {
        /// IDL operation `floor`.
        fn floor(
            &self,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException>;
    }
    /// Skeleton of IDL interface `Outer::Bottom`, wrapping a servant.
    pub struct BottomSkeleton<S>(pub S);
    impl<S: BottomServant + 'static> ::rtorb::codegen::Skeleton for BottomSkeleton<S> {
        fn repository_ids(&self) -> &'static [&'static str] {
            bottom::REPOSITORY_IDS
        }
        fn dispatch(
            &self,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            bottom::dispatch(&self.0, req)
        }
        fn servant(&self) -> ::core::option::Option<&dyn ::core::any::Any> {
            ::core::option::Option::Some(&self.0)
        }
        fn servant_cast(&self, query: &mut dyn ::core::any::Any) {
            ::rtorb::codegen::ServantCast::<
                dyn BottomServant,
            >::offer(query, |s| s.downcast_ref::<S>().map(|s| s as &dyn BottomServant));
            ::rtorb::codegen::ServantCast::<
                dyn LeftSideServant,
            >::offer(
                query,
                |s| s.downcast_ref::<S>().map(|s| s as &dyn LeftSideServant),
            );
            ::rtorb::codegen::ServantCast::<
                dyn TopServant,
            >::offer(query, |s| s.downcast_ref::<S>().map(|s| s as &dyn TopServant));
            ::rtorb::codegen::ServantCast::<
                dyn RightSideServant,
            >::offer(
                query,
                |s| s.downcast_ref::<S>().map(|s| s as &dyn RightSideServant),
            );
        }
    }
    /// Types and operation support of IDL interface `Outer::Later`.
    pub mod later {
        /// The errors of `Outer::Later::guarded`.
        #[derive(Debug, Clone, PartialEq)]
        #[allow(clippy::large_enum_variant, clippy::enum_variant_names)]
        pub enum GuardedError {
            /// `Outer::Denied`
            Denied(super::Denied),
            /// `Outer::Busy`
            Busy(super::Busy),
            /// A system exception.
            System(::rtorb::codegen::SystemException),
        }
        impl ::core::convert::From<::rtorb::codegen::SystemException> for GuardedError {
            fn from(e: ::rtorb::codegen::SystemException) -> Self {
                GuardedError::System(e)
            }
        }
        impl ::rtorb::codegen::OperationError for GuardedError {
            fn from_user_exception(
                repository_id: &str,
                members: &mut ::rtorb::codegen::Decoder,
            ) -> ::core::option::Option<::rtorb::codegen::Result<Self>> {
                if repository_id
                    == <super::Denied as ::rtorb::codegen::UserException>::REPOSITORY_ID
                {
                    return Some(
                        <super::Denied as ::rtorb::codegen::CdrDecode>::decode(members)
                            .map(GuardedError::Denied),
                    );
                }
                if repository_id
                    == <super::Busy as ::rtorb::codegen::UserException>::REPOSITORY_ID
                {
                    return Some(
                        <super::Busy as ::rtorb::codegen::CdrDecode>::decode(members)
                            .map(GuardedError::Busy),
                    );
                }
                None
            }
        }
        impl ::std::fmt::Display for GuardedError {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                match self {
                    GuardedError::Denied(x) => ::std::fmt::Display::fmt(x, f),
                    GuardedError::Busy(x) => ::std::fmt::Display::fmt(x, f),
                    GuardedError::System(s) => ::std::fmt::Display::fmt(s, f),
                }
            }
        }
        impl ::std::error::Error for GuardedError {}
        /// The errors of `Outer::Later::_get_protected_value`.
        #[derive(Debug, Clone, PartialEq)]
        #[allow(clippy::large_enum_variant, clippy::enum_variant_names)]
        pub enum GetProtectedValueError {
            /// `Outer::Denied`
            Denied(super::Denied),
            /// A system exception.
            System(::rtorb::codegen::SystemException),
        }
        impl ::core::convert::From<::rtorb::codegen::SystemException>
        for GetProtectedValueError {
            fn from(e: ::rtorb::codegen::SystemException) -> Self {
                GetProtectedValueError::System(e)
            }
        }
        impl ::rtorb::codegen::OperationError for GetProtectedValueError {
            fn from_user_exception(
                repository_id: &str,
                members: &mut ::rtorb::codegen::Decoder,
            ) -> ::core::option::Option<::rtorb::codegen::Result<Self>> {
                if repository_id
                    == <super::Denied as ::rtorb::codegen::UserException>::REPOSITORY_ID
                {
                    return Some(
                        <super::Denied as ::rtorb::codegen::CdrDecode>::decode(members)
                            .map(GetProtectedValueError::Denied),
                    );
                }
                None
            }
        }
        impl ::std::fmt::Display for GetProtectedValueError {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                match self {
                    GetProtectedValueError::Denied(x) => ::std::fmt::Display::fmt(x, f),
                    GetProtectedValueError::System(s) => ::std::fmt::Display::fmt(s, f),
                }
            }
        }
        impl ::std::error::Error for GetProtectedValueError {}
        /// The errors of `Outer::Later::_set_protected_value`.
        #[derive(Debug, Clone, PartialEq)]
        #[allow(clippy::large_enum_variant, clippy::enum_variant_names)]
        pub enum SetProtectedValueError {
            /// `Outer::Busy`
            Busy(super::Busy),
            /// `Outer::Denied`
            Denied(super::Denied),
            /// A system exception.
            System(::rtorb::codegen::SystemException),
        }
        impl ::core::convert::From<::rtorb::codegen::SystemException>
        for SetProtectedValueError {
            fn from(e: ::rtorb::codegen::SystemException) -> Self {
                SetProtectedValueError::System(e)
            }
        }
        impl ::rtorb::codegen::OperationError for SetProtectedValueError {
            fn from_user_exception(
                repository_id: &str,
                members: &mut ::rtorb::codegen::Decoder,
            ) -> ::core::option::Option<::rtorb::codegen::Result<Self>> {
                if repository_id
                    == <super::Busy as ::rtorb::codegen::UserException>::REPOSITORY_ID
                {
                    return Some(
                        <super::Busy as ::rtorb::codegen::CdrDecode>::decode(members)
                            .map(SetProtectedValueError::Busy),
                    );
                }
                if repository_id
                    == <super::Denied as ::rtorb::codegen::UserException>::REPOSITORY_ID
                {
                    return Some(
                        <super::Denied as ::rtorb::codegen::CdrDecode>::decode(members)
                            .map(SetProtectedValueError::Denied),
                    );
                }
                None
            }
        }
        impl ::std::fmt::Display for SetProtectedValueError {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                match self {
                    SetProtectedValueError::Busy(x) => ::std::fmt::Display::fmt(x, f),
                    SetProtectedValueError::Denied(x) => ::std::fmt::Display::fmt(x, f),
                    SetProtectedValueError::System(s) => ::std::fmt::Display::fmt(s, f),
                }
            }
        }
        impl ::std::error::Error for SetProtectedValueError {}
        /// The errors of `Outer::Later::_get_watched`.
        #[derive(Debug, Clone, PartialEq)]
        #[allow(clippy::large_enum_variant, clippy::enum_variant_names)]
        pub enum GetWatchedError {
            /// `Outer::Busy`
            Busy(super::Busy),
            /// A system exception.
            System(::rtorb::codegen::SystemException),
        }
        impl ::core::convert::From<::rtorb::codegen::SystemException>
        for GetWatchedError {
            fn from(e: ::rtorb::codegen::SystemException) -> Self {
                GetWatchedError::System(e)
            }
        }
        impl ::rtorb::codegen::OperationError for GetWatchedError {
            fn from_user_exception(
                repository_id: &str,
                members: &mut ::rtorb::codegen::Decoder,
            ) -> ::core::option::Option<::rtorb::codegen::Result<Self>> {
                if repository_id
                    == <super::Busy as ::rtorb::codegen::UserException>::REPOSITORY_ID
                {
                    return Some(
                        <super::Busy as ::rtorb::codegen::CdrDecode>::decode(members)
                            .map(GetWatchedError::Busy),
                    );
                }
                None
            }
        }
        impl ::std::fmt::Display for GetWatchedError {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                match self {
                    GetWatchedError::Busy(x) => ::std::fmt::Display::fmt(x, f),
                    GetWatchedError::System(s) => ::std::fmt::Display::fmt(s, f),
                }
            }
        }
        impl ::std::error::Error for GetWatchedError {}
        /// Repository ids of `Outer::Later`, most derived first, then every base.
        pub const REPOSITORY_IDS: &[&str] = &[
            "IDL:Outer/Later:1.0",
            "IDL:Shared/Service:1.0",
        ];
        /// Runs a request on a servant of `Outer::Later`: decodes the arguments, calls the servant, writes the results or exception.
        pub fn dispatch<S: super::LaterServant + ?Sized>(
            servant: &S,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            match req.operation_bytes() {
                b"in_out" => {
                    let d = req.arguments();
                    let a = <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    let c = <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    let (r0, r1) = servant.in_out(a, c)?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r0, e)?;
                        ::rtorb::codegen::CdrEncode::encode(&r1, e)?;
                        Ok(())
                    })
                }
                b"all_kinds" => {
                    let d = req.arguments();
                    let s = <::std::string::String as ::rtorb::codegen::CdrDecode>::decode(
                        d,
                    )?;
                    let l = <::std::vec::Vec<
                        i32,
                    > as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    let t = <super::super::shared::Token as ::rtorb::codegen::CdrDecode>::decode(
                        d,
                    )?;
                    let (r0, r1, r2) = servant.all_kinds(s, l, t)?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r0, e)?;
                        ::rtorb::codegen::CdrEncode::encode(&r1, e)?;
                        ::rtorb::codegen::CdrEncode::encode(&r2, e)?;
                        Ok(())
                    })
                }
                b"fire" => {
                    let d = req.arguments();
                    let message = <::std::string::String as ::rtorb::codegen::CdrDecode>::decode(
                        d,
                    )?;
                    servant.fire(message)
                }
                b"fire_and_forget" => servant.fire_and_forget(),
                b"guarded" => {
                    let d = req.arguments();
                    let level = <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    match servant.guarded(level) {
                        Ok(()) => Ok(()),
                        Err(GuardedError::Denied(x)) => req.write_user_exception(&x),
                        Err(GuardedError::Busy(x)) => req.write_user_exception(&x),
                        Err(GuardedError::System(s)) => Err(s),
                    }
                }
                b"with_context" => {
                    let d = req.arguments();
                    let x_ = <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    let _context = <::std::vec::Vec<
                        ::std::string::String,
                    > as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    let r = servant.with_context(x_)?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"self_ref" => {
                    let d = req.arguments();
                    let other = ::rtorb::codegen::read_object(d)?
                        .map(<super::Later as ::rtorb::codegen::Stub>::from_object);
                    let r = servant.self_ref(other)?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::write_object(
                            e,
                            r.as_ref().map(::rtorb::codegen::Stub::as_object),
                        )?;
                        Ok(())
                    })
                }
                b"upcast" => {
                    let d = req.arguments();
                    let b = ::rtorb::codegen::read_object(d)?
                        .map(<super::Bottom as ::rtorb::codegen::Stub>::from_object);
                    let r = servant.upcast(b)?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::write_object(
                            e,
                            r.as_ref().map(::rtorb::codegen::Stub::as_object),
                        )?;
                        Ok(())
                    })
                }
                b"issue" => {
                    let r = servant.issue()?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"revoke" => {
                    let d = req.arguments();
                    let t = <super::super::shared::Token as ::rtorb::codegen::CdrDecode>::decode(
                        d,
                    )?;
                    servant.revoke(t)
                }
                b"_get_first" => {
                    let r = servant.first()?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"_set_first" => {
                    let d = req.arguments();
                    let value = <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    servant.set_first(value)
                }
                b"_get_second" => {
                    let r = servant.second()?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"_set_second" => {
                    let d = req.arguments();
                    let value = <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    servant.set_second(value)
                }
                b"_get_third" => {
                    let r = servant.third()?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"_set_third" => {
                    let d = req.arguments();
                    let value = <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    servant.set_third(value)
                }
                b"_get_label" => {
                    let r = servant.label()?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"_get_tag" => {
                    let r = servant.tag()?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"_get_pair" => {
                    let r = servant.pair()?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"_set_pair" => {
                    let d = req.arguments();
                    let value = <super::inner::Pair as ::rtorb::codegen::CdrDecode>::decode(
                        d,
                    )?;
                    servant.set_pair(value)
                }
                b"_get_protected_value" => {
                    match servant.protected_value() {
                        Ok(r) => {
                            req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                                ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                                Ok(())
                            })
                        }
                        Err(GetProtectedValueError::Denied(x)) => {
                            req.write_user_exception(&x)
                        }
                        Err(GetProtectedValueError::System(s)) => Err(s),
                    }
                }
                b"_set_protected_value" => {
                    let d = req.arguments();
                    let value = <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    match servant.set_protected_value(value) {
                        Ok(()) => Ok(()),
                        Err(SetProtectedValueError::Busy(x)) => {
                            req.write_user_exception(&x)
                        }
                        Err(SetProtectedValueError::Denied(x)) => {
                            req.write_user_exception(&x)
                        }
                        Err(SetProtectedValueError::System(s)) => Err(s),
                    }
                }
                b"_get_watched" => {
                    match servant.watched() {
                        Ok(r) => {
                            req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                                ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                                Ok(())
                            })
                        }
                        Err(GetWatchedError::Busy(x)) => req.write_user_exception(&x),
                        Err(GetWatchedError::System(s)) => Err(s),
                    }
                }
                _ => Err(::rtorb::codegen::bad_operation()),
            }
        }
    }
    /// Single inheritance from an interface of another module.
    ///
    /// Client stub of IDL interface `Outer::Later` (`IDL:Outer/Later:1.0`).
    #[derive(Debug, Clone)]
    pub struct Later(super::shared::Service);
    impl ::rtorb::codegen::Stub for Later {
        const REPOSITORY_ID: &'static str = "IDL:Outer/Later:1.0";
        fn from_object(object: ::rtorb::codegen::Object) -> Self {
            Later(
                <super::shared::Service as ::rtorb::codegen::Stub>::from_object(object),
            )
        }
        fn as_object(&self) -> &::rtorb::codegen::Object {
            ::rtorb::codegen::Stub::as_object(&self.0)
        }
        fn into_object(self) -> ::rtorb::codegen::Object {
            ::rtorb::codegen::Stub::into_object(self.0)
        }
    }
    /// The operations of the base (or of `CORBA::Object`).
    impl ::core::ops::Deref for Later {
        type Target = super::shared::Service;
        fn deref(&self) -> &super::shared::Service {
            &self.0
        }
    }
    impl ::rtorb::codegen::IdlType for Later {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::objref("IDL:Outer/Later:1.0", "Later")
        }
    }
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    impl Later {
        /// IDL operation `in_out`.
        pub fn in_out(
            &self,
            a: i32,
            c: &i32,
        ) -> ::core::result::Result<(i32, i32), ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "in_out",
                    |servant: &(dyn LaterServant + 'static)| {
                        servant.in_out(a, ::core::clone::Clone::clone(c))
                    },
                    |e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&a, e)?;
                        ::rtorb::codegen::CdrEncode::encode(c, e)?;
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
        /// IDL operation `all_kinds`.
        pub fn all_kinds(
            &self,
            s: &str,
            l: &::std::vec::Vec<i32>,
            t: &super::shared::Token,
        ) -> ::core::result::Result<
            (::std::string::String, inner::Pair, ::std::vec::Vec<i32>),
            ::rtorb::codegen::SystemException,
        > {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "all_kinds",
                    |servant: &(dyn LaterServant + 'static)| {
                        servant
                            .all_kinds(
                                ::rtorb::codegen::ParamFrom::param_from(s),
                                ::core::clone::Clone::clone(l),
                                ::rtorb::codegen::ParamFrom::param_from(t),
                            )
                    },
                    |e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(s, e)?;
                        ::rtorb::codegen::CdrEncode::encode(l, e)?;
                        ::rtorb::codegen::CdrEncode::encode(t, e)?;
                        Ok(())
                    },
                    |reply: ::rtorb::codegen::Reply| {
                        reply
                            .decode(|d: &mut ::rtorb::codegen::Decoder| {
                                let r = (
                                    <::std::string::String as ::rtorb::codegen::CdrDecode>::decode(
                                        d,
                                    )?,
                                    <inner::Pair as ::rtorb::codegen::CdrDecode>::decode(d)?,
                                    <::std::vec::Vec<
                                        i32,
                                    > as ::rtorb::codegen::CdrDecode>::decode(d)?,
                                );
                                Ok(r)
                            })
                    },
                )
        }
        /// IDL operation `fire`.
        pub fn fire(
            &self,
            message: &str,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call_oneway(
                    "fire",
                    |servant: &(dyn LaterServant + 'static)| {
                        servant.fire(::rtorb::codegen::ParamFrom::param_from(message))
                    },
                    |e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(message, e)?;
                        Ok(())
                    },
                )
        }
        /// IDL operation `fire_and_forget`.
        pub fn fire_and_forget(
            &self,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call_oneway(
                    "fire_and_forget",
                    |servant: &(dyn LaterServant + 'static)| servant.fire_and_forget(),
                    |_e: &mut ::rtorb::codegen::Encoder| { Ok(()) },
                )
        }
        /// IDL operation `guarded`.
        pub fn guarded(
            &self,
            level: i32,
        ) -> ::core::result::Result<(), later::GuardedError> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "guarded",
                    |servant: &(dyn LaterServant + 'static)| servant.guarded(level),
                    |e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&level, e)?;
                        Ok(())
                    },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(|_d: &mut ::rtorb::codegen::Decoder| Ok(()))
                    },
                )
        }
        /// IDL operation `with_context`.
        pub fn with_context(
            &self,
            x_: i32,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "with_context",
                    |servant: &(dyn LaterServant + 'static)| servant.with_context(x_),
                    |e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&x_, e)?;
                        e.write_u32(0);
                        Ok(())
                    },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(<i32 as ::rtorb::codegen::CdrDecode>::decode)
                    },
                )
        }
        /// IDL operation `self_ref`.
        pub fn self_ref(
            &self,
            other: &::core::option::Option<Later>,
        ) -> ::core::result::Result<
            ::core::option::Option<Later>,
            ::rtorb::codegen::SystemException,
        > {
            ::rtorb::codegen::with_invoker(
                ::rtorb::codegen::Stub::as_object(self).invoker(),
                || {
                    ::rtorb::codegen::Stub::as_object(self)
                        .call(
                            "self_ref",
                            |servant: &(dyn LaterServant + 'static)| {
                                servant
                                    .self_ref(::rtorb::codegen::ParamFrom::param_from(other))
                            },
                            |e: &mut ::rtorb::codegen::Encoder| {
                                ::rtorb::codegen::write_object(
                                    e,
                                    other.as_ref().map(::rtorb::codegen::Stub::as_object),
                                )?;
                                Ok(())
                            },
                            |reply: ::rtorb::codegen::Reply| {
                                reply
                                    .decode(|d: &mut ::rtorb::codegen::Decoder| {
                                        let r = ::rtorb::codegen::read_object(d)?
                                            .map(<Later as ::rtorb::codegen::Stub>::from_object);
                                        Ok(r)
                                    })
                            },
                        )
                },
            )
        }
        /// IDL operation `upcast`.
        pub fn upcast(
            &self,
            b: &::core::option::Option<Bottom>,
        ) -> ::core::result::Result<
            ::core::option::Option<Top>,
            ::rtorb::codegen::SystemException,
        > {
            ::rtorb::codegen::with_invoker(
                ::rtorb::codegen::Stub::as_object(self).invoker(),
                || {
                    ::rtorb::codegen::Stub::as_object(self)
                        .call(
                            "upcast",
                            |servant: &(dyn LaterServant + 'static)| {
                                servant.upcast(::rtorb::codegen::ParamFrom::param_from(b))
                            },
                            |e: &mut ::rtorb::codegen::Encoder| {
                                ::rtorb::codegen::write_object(
                                    e,
                                    b.as_ref().map(::rtorb::codegen::Stub::as_object),
                                )?;
                                Ok(())
                            },
                            |reply: ::rtorb::codegen::Reply| {
                                reply
                                    .decode(|d: &mut ::rtorb::codegen::Decoder| {
                                        let r = ::rtorb::codegen::read_object(d)?
                                            .map(<Top as ::rtorb::codegen::Stub>::from_object);
                                        Ok(r)
                                    })
                            },
                        )
                },
            )
        }
        /// Several attributes on one line.
        ///
        /// Reads IDL attribute `first`.
        pub fn first(
            &self,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "_get_first",
                    |servant: &(dyn LaterServant + 'static)| servant.first(),
                    |_e: &mut ::rtorb::codegen::Encoder| { Ok(()) },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(<i32 as ::rtorb::codegen::CdrDecode>::decode)
                    },
                )
        }
        /// Several attributes on one line.
        ///
        /// Writes IDL attribute `first`.
        pub fn set_first(
            &self,
            value: i32,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "_set_first",
                    |servant: &(dyn LaterServant + 'static)| servant.set_first(value),
                    |e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&value, e)?;
                        Ok(())
                    },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(|_d: &mut ::rtorb::codegen::Decoder| Ok(()))
                    },
                )
        }
        /// Several attributes on one line.
        ///
        /// Reads IDL attribute `second`.
        pub fn second(
            &self,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "_get_second",
                    |servant: &(dyn LaterServant + 'static)| servant.second(),
                    |_e: &mut ::rtorb::codegen::Encoder| { Ok(()) },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(<i32 as ::rtorb::codegen::CdrDecode>::decode)
                    },
                )
        }
        /// Several attributes on one line.
        ///
        /// Writes IDL attribute `second`.
        pub fn set_second(
            &self,
            value: i32,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "_set_second",
                    |servant: &(dyn LaterServant + 'static)| servant.set_second(value),
                    |e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&value, e)?;
                        Ok(())
                    },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(|_d: &mut ::rtorb::codegen::Decoder| Ok(()))
                    },
                )
        }
        /// Several attributes on one line.
        ///
        /// Reads IDL attribute `third`.
        pub fn third(
            &self,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "_get_third",
                    |servant: &(dyn LaterServant + 'static)| servant.third(),
                    |_e: &mut ::rtorb::codegen::Encoder| { Ok(()) },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(<i32 as ::rtorb::codegen::CdrDecode>::decode)
                    },
                )
        }
        /// Several attributes on one line.
        ///
        /// Writes IDL attribute `third`.
        pub fn set_third(
            &self,
            value: i32,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "_set_third",
                    |servant: &(dyn LaterServant + 'static)| servant.set_third(value),
                    |e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&value, e)?;
                        Ok(())
                    },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(|_d: &mut ::rtorb::codegen::Decoder| Ok(()))
                    },
                )
        }
        /// Reads IDL attribute `label`.
        pub fn label(
            &self,
        ) -> ::core::result::Result<
            ::std::string::String,
            ::rtorb::codegen::SystemException,
        > {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "_get_label",
                    |servant: &(dyn LaterServant + 'static)| servant.label(),
                    |_e: &mut ::rtorb::codegen::Encoder| { Ok(()) },
                    |reply: ::rtorb::codegen::Reply| {
                        reply
                            .decode(
                                <::std::string::String as ::rtorb::codegen::CdrDecode>::decode,
                            )
                    },
                )
        }
        /// Reads IDL attribute `tag`.
        pub fn tag(
            &self,
        ) -> ::core::result::Result<
            ::std::string::String,
            ::rtorb::codegen::SystemException,
        > {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "_get_tag",
                    |servant: &(dyn LaterServant + 'static)| servant.tag(),
                    |_e: &mut ::rtorb::codegen::Encoder| { Ok(()) },
                    |reply: ::rtorb::codegen::Reply| {
                        reply
                            .decode(
                                <::std::string::String as ::rtorb::codegen::CdrDecode>::decode,
                            )
                    },
                )
        }
        /// Reads IDL attribute `pair`.
        pub fn pair(
            &self,
        ) -> ::core::result::Result<inner::Pair, ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "_get_pair",
                    |servant: &(dyn LaterServant + 'static)| servant.pair(),
                    |_e: &mut ::rtorb::codegen::Encoder| { Ok(()) },
                    |reply: ::rtorb::codegen::Reply| {
                        reply
                            .decode(<inner::Pair as ::rtorb::codegen::CdrDecode>::decode)
                    },
                )
        }
        /// Writes IDL attribute `pair`.
        pub fn set_pair(
            &self,
            value: &inner::Pair,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "_set_pair",
                    |servant: &(dyn LaterServant + 'static)| {
                        servant.set_pair(::rtorb::codegen::ParamFrom::param_from(value))
                    },
                    |e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(value, e)?;
                        Ok(())
                    },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(|_d: &mut ::rtorb::codegen::Decoder| Ok(()))
                    },
                )
        }
        /// Accessors that raise exceptions.
        ///
        /// Reads IDL attribute `protected_value`.
        pub fn protected_value(
            &self,
        ) -> ::core::result::Result<i32, later::GetProtectedValueError> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "_get_protected_value",
                    |servant: &(dyn LaterServant + 'static)| servant.protected_value(),
                    |_e: &mut ::rtorb::codegen::Encoder| { Ok(()) },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(<i32 as ::rtorb::codegen::CdrDecode>::decode)
                    },
                )
        }
        /// Accessors that raise exceptions.
        ///
        /// Writes IDL attribute `protected_value`.
        pub fn set_protected_value(
            &self,
            value: i32,
        ) -> ::core::result::Result<(), later::SetProtectedValueError> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "_set_protected_value",
                    |servant: &(dyn LaterServant + 'static)| {
                        servant.set_protected_value(value)
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
        /// Reads IDL attribute `watched`.
        pub fn watched(&self) -> ::core::result::Result<i32, later::GetWatchedError> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "_get_watched",
                    |servant: &(dyn LaterServant + 'static)| servant.watched(),
                    |_e: &mut ::rtorb::codegen::Encoder| { Ok(()) },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(<i32 as ::rtorb::codegen::CdrDecode>::decode)
                    },
                )
        }
    }
    /// Servant trait of IDL interface `Outer::Later`: implement it and register `LaterSkeleton(servant)`.
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    pub trait LaterServant: super::shared::ServiceServant {
        /// IDL operation `in_out`.
        fn in_out(
            &self,
            a: i32,
            c: i32,
        ) -> ::core::result::Result<(i32, i32), ::rtorb::codegen::SystemException>;
        /// IDL operation `all_kinds`.
        fn all_kinds(
            &self,
            s: ::std::string::String,
            l: ::std::vec::Vec<i32>,
            t: super::shared::Token,
        ) -> ::core::result::Result<
            (::std::string::String, inner::Pair, ::std::vec::Vec<i32>),
            ::rtorb::codegen::SystemException,
        >;
        /// IDL operation `fire`.
        ///
        /// Oneway: the client does not wait, and an error is not sent back.
        fn fire(
            &self,
            message: ::std::string::String,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException>;
        /// IDL operation `fire_and_forget`.
        ///
        /// Oneway: the client does not wait, and an error is not sent back.
        fn fire_and_forget(
            &self,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException>;
        /// IDL operation `guarded`.
        fn guarded(&self, level: i32) -> ::core::result::Result<(), later::GuardedError>;
        /// IDL operation `with_context`.
        ///
        /// The request's context (IDL `context` clause) is read and not passed on.
        fn with_context(
            &self,
            x_: i32,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException>;
        /// IDL operation `self_ref`.
        fn self_ref(
            &self,
            other: ::core::option::Option<Later>,
        ) -> ::core::result::Result<
            ::core::option::Option<Later>,
            ::rtorb::codegen::SystemException,
        >;
        /// IDL operation `upcast`.
        fn upcast(
            &self,
            b: ::core::option::Option<Bottom>,
        ) -> ::core::result::Result<
            ::core::option::Option<Top>,
            ::rtorb::codegen::SystemException,
        >;
        /// Several attributes on one line.
        ///
        /// Reads IDL attribute `first`.
        fn first(
            &self,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException>;
        /// Several attributes on one line.
        ///
        /// Writes IDL attribute `first`.
        fn set_first(
            &self,
            value: i32,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException>;
        /// Several attributes on one line.
        ///
        /// Reads IDL attribute `second`.
        fn second(
            &self,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException>;
        /// Several attributes on one line.
        ///
        /// Writes IDL attribute `second`.
        fn set_second(
            &self,
            value: i32,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException>;
        /// Several attributes on one line.
        ///
        /// Reads IDL attribute `third`.
        fn third(
            &self,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException>;
        /// Several attributes on one line.
        ///
        /// Writes IDL attribute `third`.
        fn set_third(
            &self,
            value: i32,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException>;
        /// Reads IDL attribute `label`.
        fn label(
            &self,
        ) -> ::core::result::Result<
            ::std::string::String,
            ::rtorb::codegen::SystemException,
        >;
        /// Reads IDL attribute `tag`.
        fn tag(
            &self,
        ) -> ::core::result::Result<
            ::std::string::String,
            ::rtorb::codegen::SystemException,
        >;
        /// Reads IDL attribute `pair`.
        fn pair(
            &self,
        ) -> ::core::result::Result<inner::Pair, ::rtorb::codegen::SystemException>;
        /// Writes IDL attribute `pair`.
        fn set_pair(
            &self,
            value: inner::Pair,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException>;
        /// Accessors that raise exceptions.
        ///
        /// Reads IDL attribute `protected_value`.
        fn protected_value(
            &self,
        ) -> ::core::result::Result<i32, later::GetProtectedValueError>;
        /// Accessors that raise exceptions.
        ///
        /// Writes IDL attribute `protected_value`.
        fn set_protected_value(
            &self,
            value: i32,
        ) -> ::core::result::Result<(), later::SetProtectedValueError>;
        /// Reads IDL attribute `watched`.
        fn watched(&self) -> ::core::result::Result<i32, later::GetWatchedError>;
    }
    /// Skeleton of IDL interface `Outer::Later`, wrapping a servant.
    pub struct LaterSkeleton<S>(pub S);
    impl<S: LaterServant + 'static> ::rtorb::codegen::Skeleton for LaterSkeleton<S> {
        fn repository_ids(&self) -> &'static [&'static str] {
            later::REPOSITORY_IDS
        }
        fn dispatch(
            &self,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            later::dispatch(&self.0, req)
        }
        fn servant(&self) -> ::core::option::Option<&dyn ::core::any::Any> {
            ::core::option::Option::Some(&self.0)
        }
        fn servant_cast(&self, query: &mut dyn ::core::any::Any) {
            ::rtorb::codegen::ServantCast::<
                dyn LaterServant,
            >::offer(query, |s| s.downcast_ref::<S>().map(|s| s as &dyn LaterServant));
            ::rtorb::codegen::ServantCast::<
                dyn super::shared::ServiceServant,
            >::offer(
                query,
                |s| {
                    s
                        .downcast_ref::<S>()
                        .map(|s| s as &dyn super::shared::ServiceServant)
                },
            );
        }
    }
    /// Types and operation support of IDL interface `Outer::Contextual`.
    pub mod contextual {
        /// Repository ids of `Outer::Contextual`, most derived first, then every base.
        pub const REPOSITORY_IDS: &[&str] = &["IDL:Outer/Contextual:1.0"];
        /// Runs a request on a servant of `Outer::Contextual`: decodes the arguments, calls the servant, writes the results or exception.
        pub fn dispatch<S: super::ContextualServant + ?Sized>(
            servant: &S,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            match req.operation_bytes() {
                b"scaled" => {
                    let d = req.arguments();
                    let x_ = <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    let _context = <::std::vec::Vec<
                        ::std::string::String,
                    > as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    let r = servant.scaled(x_)?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"bare" => {
                    let d = req.arguments();
                    let _context = <::std::vec::Vec<
                        ::std::string::String,
                    > as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    servant.bare()
                }
                _ => Err(::rtorb::codegen::bad_operation()),
            }
        }
    }
    /// An operation with a \`context\` clause.
    ///
    /// Client stub of IDL interface `Outer::Contextual` (`IDL:Outer/Contextual:1.0`).
    #[derive(Debug, Clone)]
    pub struct Contextual(::rtorb::codegen::Object);
    impl ::rtorb::codegen::Stub for Contextual {
        const REPOSITORY_ID: &'static str = "IDL:Outer/Contextual:1.0";
        fn from_object(object: ::rtorb::codegen::Object) -> Self {
            Contextual(object)
        }
        fn as_object(&self) -> &::rtorb::codegen::Object {
            &self.0
        }
        fn into_object(self) -> ::rtorb::codegen::Object {
            self.0
        }
    }
    /// The operations of the base (or of `CORBA::Object`).
    impl ::core::ops::Deref for Contextual {
        type Target = ::rtorb::codegen::Object;
        fn deref(&self) -> &::rtorb::codegen::Object {
            &self.0
        }
    }
    impl ::rtorb::codegen::IdlType for Contextual {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::objref("IDL:Outer/Contextual:1.0", "Contextual")
        }
    }
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    impl Contextual {
        /// IDL operation `scaled`.
        pub fn scaled(
            &self,
            x_: i32,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "scaled",
                    |servant: &(dyn ContextualServant + 'static)| servant.scaled(x_),
                    |e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&x_, e)?;
                        e.write_u32(0);
                        Ok(())
                    },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(<i32 as ::rtorb::codegen::CdrDecode>::decode)
                    },
                )
        }
        /// IDL operation `bare`.
        pub fn bare(
            &self,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "bare",
                    |servant: &(dyn ContextualServant + 'static)| servant.bare(),
                    |e: &mut ::rtorb::codegen::Encoder| {
                        e.write_u32(0);
                        Ok(())
                    },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(|_d: &mut ::rtorb::codegen::Decoder| Ok(()))
                    },
                )
        }
    }
    /// Servant trait of IDL interface `Outer::Contextual`: implement it and register `ContextualSkeleton(servant)`.
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    pub trait ContextualServant: Send + Sync {
        /// IDL operation `scaled`.
        ///
        /// The request's context (IDL `context` clause) is read and not passed on.
        fn scaled(
            &self,
            x_: i32,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException>;
        /// IDL operation `bare`.
        ///
        /// The request's context (IDL `context` clause) is read and not passed on.
        fn bare(&self) -> ::core::result::Result<(), ::rtorb::codegen::SystemException>;
    }
    /// Skeleton of IDL interface `Outer::Contextual`, wrapping a servant.
    pub struct ContextualSkeleton<S>(pub S);
    impl<S: ContextualServant + 'static> ::rtorb::codegen::Skeleton
    for ContextualSkeleton<S> {
        fn repository_ids(&self) -> &'static [&'static str] {
            contextual::REPOSITORY_IDS
        }
        fn dispatch(
            &self,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            contextual::dispatch(&self.0, req)
        }
        fn servant(&self) -> ::core::option::Option<&dyn ::core::any::Any> {
            ::core::option::Option::Some(&self.0)
        }
        fn servant_cast(&self, query: &mut dyn ::core::any::Any) {
            ::rtorb::codegen::ServantCast::<
                dyn ContextualServant,
            >::offer(
                query,
                |s| s.downcast_ref::<S>().map(|s| s as &dyn ContextualServant),
            );
        }
    }
    /// Types and operation support of IDL interface `Outer::Renamed`.
    pub mod renamed {
        /// Repository ids of `Outer::Renamed`, most derived first, then every base.
        pub const REPOSITORY_IDS: &[&str] = &["IDL:custom/Renamed:2.1"];
        /// Runs a request on a servant of `Outer::Renamed`: decodes the arguments, calls the servant, writes the results or exception.
        pub fn dispatch<S: super::RenamedServant + ?Sized>(
            servant: &S,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            match req.operation_bytes() {
                b"op" => servant.op(),
                _ => Err(::rtorb::codegen::bad_operation()),
            }
        }
    }
    /// Repository id set with \`typeid\` and a prefix with \`typeprefix\`.
    ///
    /// Client stub of IDL interface `Outer::Renamed` (`IDL:custom/Renamed:2.1`).
    #[derive(Debug, Clone)]
    pub struct Renamed(::rtorb::codegen::Object);
    impl ::rtorb::codegen::Stub for Renamed {
        const REPOSITORY_ID: &'static str = "IDL:custom/Renamed:2.1";
        fn from_object(object: ::rtorb::codegen::Object) -> Self {
            Renamed(object)
        }
        fn as_object(&self) -> &::rtorb::codegen::Object {
            &self.0
        }
        fn into_object(self) -> ::rtorb::codegen::Object {
            self.0
        }
    }
    /// The operations of the base (or of `CORBA::Object`).
    impl ::core::ops::Deref for Renamed {
        type Target = ::rtorb::codegen::Object;
        fn deref(&self) -> &::rtorb::codegen::Object {
            &self.0
        }
    }
    impl ::rtorb::codegen::IdlType for Renamed {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::objref("IDL:custom/Renamed:2.1", "Renamed")
        }
    }
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    impl Renamed {
        /// IDL operation `op`.
        pub fn op(
            &self,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "op",
                    |servant: &(dyn RenamedServant + 'static)| servant.op(),
                    |_e: &mut ::rtorb::codegen::Encoder| { Ok(()) },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(|_d: &mut ::rtorb::codegen::Decoder| Ok(()))
                    },
                )
        }
    }
    /// Servant trait of IDL interface `Outer::Renamed`: implement it and register `RenamedSkeleton(servant)`.
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    pub trait RenamedServant: Send + Sync {
        /// IDL operation `op`.
        fn op(&self) -> ::core::result::Result<(), ::rtorb::codegen::SystemException>;
    }
    /// Skeleton of IDL interface `Outer::Renamed`, wrapping a servant.
    pub struct RenamedSkeleton<S>(pub S);
    impl<S: RenamedServant + 'static> ::rtorb::codegen::Skeleton for RenamedSkeleton<S> {
        fn repository_ids(&self) -> &'static [&'static str] {
            renamed::REPOSITORY_IDS
        }
        fn dispatch(
            &self,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            renamed::dispatch(&self.0, req)
        }
        fn servant(&self) -> ::core::option::Option<&dyn ::core::any::Any> {
            ::core::option::Option::Some(&self.0)
        }
        fn servant_cast(&self, query: &mut dyn ::core::any::Any) {
            ::rtorb::codegen::ServantCast::<
                dyn RenamedServant,
            >::offer(query, |s| s.downcast_ref::<S>().map(|s| s as &dyn RenamedServant));
        }
    }
    /// IDL module `Prefixed`.
    pub mod prefixed {
        /// Types and operation support of IDL interface `Outer::Prefixed::Inside`.
        pub mod inside {
            /// Repository ids of `Outer::Prefixed::Inside`, most derived first, then every base.
            pub const REPOSITORY_IDS: &[&str] = &[
                "IDL:acme.example/Prefixed/Inside:1.0",
            ];
            /// Runs a request on a servant of `Outer::Prefixed::Inside`: decodes the arguments, calls the servant, writes the results or exception.
            pub fn dispatch<S: super::InsideServant + ?Sized>(
                servant: &S,
                req: &mut ::rtorb::codegen::ServerRequest<'_>,
            ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
                match req.operation_bytes() {
                    b"op" => servant.op(),
                    _ => Err(::rtorb::codegen::bad_operation()),
                }
            }
        }
        /// Client stub of IDL interface `Outer::Prefixed::Inside` (`IDL:acme.example/Prefixed/Inside:1.0`).
        #[derive(Debug, Clone)]
        pub struct Inside(::rtorb::codegen::Object);
        impl ::rtorb::codegen::Stub for Inside {
            const REPOSITORY_ID: &'static str = "IDL:acme.example/Prefixed/Inside:1.0";
            fn from_object(object: ::rtorb::codegen::Object) -> Self {
                Inside(object)
            }
            fn as_object(&self) -> &::rtorb::codegen::Object {
                &self.0
            }
            fn into_object(self) -> ::rtorb::codegen::Object {
                self.0
            }
        }
        /// The operations of the base (or of `CORBA::Object`).
        impl ::core::ops::Deref for Inside {
            type Target = ::rtorb::codegen::Object;
            fn deref(&self) -> &::rtorb::codegen::Object {
                &self.0
            }
        }
        impl ::rtorb::codegen::IdlType for Inside {
            fn type_code() -> ::rtorb::codegen::TypeCode {
                ::rtorb::codegen::TypeCode::objref(
                    "IDL:acme.example/Prefixed/Inside:1.0",
                    "Inside",
                )
            }
        }
        #[allow(
            clippy::should_implement_trait,
            clippy::wrong_self_convention,
            clippy::result_large_err,
            clippy::type_complexity
        )]
        impl Inside {
            /// IDL operation `op`.
            pub fn op(
                &self,
            ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
                ::rtorb::codegen::Stub::as_object(self)
                    .call(
                        "op",
                        |servant: &(dyn InsideServant + 'static)| servant.op(),
                        |_e: &mut ::rtorb::codegen::Encoder| { Ok(()) },
                        |reply: ::rtorb::codegen::Reply| {
                            reply.decode(|_d: &mut ::rtorb::codegen::Decoder| Ok(()))
                        },
                    )
            }
        }
        /// Servant trait of IDL interface `Outer::Prefixed::Inside`: implement it and register `InsideSkeleton(servant)`.
        #[allow(
            clippy::should_implement_trait,
            clippy::wrong_self_convention,
            clippy::result_large_err,
            clippy::type_complexity
        )]
        pub trait InsideServant: Send + Sync {
            /// IDL operation `op`.
            fn op(
                &self,
            ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException>;
        }
        /// Skeleton of IDL interface `Outer::Prefixed::Inside`, wrapping a servant.
        pub struct InsideSkeleton<S>(pub S);
        impl<S: InsideServant + 'static> ::rtorb::codegen::Skeleton
        for InsideSkeleton<S> {
            fn repository_ids(&self) -> &'static [&'static str] {
                inside::REPOSITORY_IDS
            }
            fn dispatch(
                &self,
                req: &mut ::rtorb::codegen::ServerRequest<'_>,
            ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
                inside::dispatch(&self.0, req)
            }
            fn servant(&self) -> ::core::option::Option<&dyn ::core::any::Any> {
                ::core::option::Option::Some(&self.0)
            }
            fn servant_cast(&self, query: &mut dyn ::core::any::Any) {
                ::rtorb::codegen::ServantCast::<
                    dyn InsideServant,
                >::offer(
                    query,
                    |s| s.downcast_ref::<S>().map(|s| s as &dyn InsideServant),
                );
            }
        }
    }
}
/// \`\#pragma\` controls of repository ids.
///
/// IDL module `Pragmas`.
pub mod pragmas {
    /// Types and operation support of IDL interface `Pragmas::WithPrefix`.
    pub mod with_prefix {
        /// Repository ids of `Pragmas::WithPrefix`, most derived first, then every base.
        pub const REPOSITORY_IDS: &[&str] = &["IDL:pragmas.example/WithPrefix:1.0"];
        /// Runs a request on a servant of `Pragmas::WithPrefix`: decodes the arguments, calls the servant, writes the results or exception.
        pub fn dispatch<S: super::WithPrefixServant + ?Sized>(
            servant: &S,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            match req.operation_bytes() {
                b"op" => servant.op(),
                _ => Err(::rtorb::codegen::bad_operation()),
            }
        }
    }
    /// Client stub of IDL interface `Pragmas::WithPrefix` (`IDL:pragmas.example/WithPrefix:1.0`).
    #[derive(Debug, Clone)]
    pub struct WithPrefix(::rtorb::codegen::Object);
    impl ::rtorb::codegen::Stub for WithPrefix {
        const REPOSITORY_ID: &'static str = "IDL:pragmas.example/WithPrefix:1.0";
        fn from_object(object: ::rtorb::codegen::Object) -> Self {
            WithPrefix(object)
        }
        fn as_object(&self) -> &::rtorb::codegen::Object {
            &self.0
        }
        fn into_object(self) -> ::rtorb::codegen::Object {
            self.0
        }
    }
    /// The operations of the base (or of `CORBA::Object`).
    impl ::core::ops::Deref for WithPrefix {
        type Target = ::rtorb::codegen::Object;
        fn deref(&self) -> &::rtorb::codegen::Object {
            &self.0
        }
    }
    impl ::rtorb::codegen::IdlType for WithPrefix {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::objref(
                "IDL:pragmas.example/WithPrefix:1.0",
                "WithPrefix",
            )
        }
    }
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    impl WithPrefix {
        /// IDL operation `op`.
        pub fn op(
            &self,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "op",
                    |servant: &(dyn WithPrefixServant + 'static)| servant.op(),
                    |_e: &mut ::rtorb::codegen::Encoder| { Ok(()) },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(|_d: &mut ::rtorb::codegen::Decoder| Ok(()))
                    },
                )
        }
    }
    /// Servant trait of IDL interface `Pragmas::WithPrefix`: implement it and register `WithPrefixSkeleton(servant)`.
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    pub trait WithPrefixServant: Send + Sync {
        /// IDL operation `op`.
        fn op(&self) -> ::core::result::Result<(), ::rtorb::codegen::SystemException>;
    }
    /// Skeleton of IDL interface `Pragmas::WithPrefix`, wrapping a servant.
    pub struct WithPrefixSkeleton<S>(pub S);
    impl<S: WithPrefixServant + 'static> ::rtorb::codegen::Skeleton
    for WithPrefixSkeleton<S> {
        fn repository_ids(&self) -> &'static [&'static str] {
            with_prefix::REPOSITORY_IDS
        }
        fn dispatch(
            &self,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            with_prefix::dispatch(&self.0, req)
        }
        fn servant(&self) -> ::core::option::Option<&dyn ::core::any::Any> {
            ::core::option::Option::Some(&self.0)
        }
        fn servant_cast(&self, query: &mut dyn ::core::any::Any) {
            ::rtorb::codegen::ServantCast::<
                dyn WithPrefixServant,
            >::offer(
                query,
                |s| s.downcast_ref::<S>().map(|s| s as &dyn WithPrefixServant),
            );
        }
    }
    /// Types and operation support of IDL interface `Pragmas::WithId`.
    pub mod with_id {
        /// Repository ids of `Pragmas::WithId`, most derived first, then every base.
        pub const REPOSITORY_IDS: &[&str] = &["LOCAL:with-id"];
        /// Runs a request on a servant of `Pragmas::WithId`: decodes the arguments, calls the servant, writes the results or exception.
        pub fn dispatch<S: super::WithIdServant + ?Sized>(
            servant: &S,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            match req.operation_bytes() {
                b"op" => servant.op(),
                _ => Err(::rtorb::codegen::bad_operation()),
            }
        }
    }
    /// Client stub of IDL interface `Pragmas::WithId` (`LOCAL:with-id`).
    #[derive(Debug, Clone)]
    pub struct WithId(::rtorb::codegen::Object);
    impl ::rtorb::codegen::Stub for WithId {
        const REPOSITORY_ID: &'static str = "LOCAL:with-id";
        fn from_object(object: ::rtorb::codegen::Object) -> Self {
            WithId(object)
        }
        fn as_object(&self) -> &::rtorb::codegen::Object {
            &self.0
        }
        fn into_object(self) -> ::rtorb::codegen::Object {
            self.0
        }
    }
    /// The operations of the base (or of `CORBA::Object`).
    impl ::core::ops::Deref for WithId {
        type Target = ::rtorb::codegen::Object;
        fn deref(&self) -> &::rtorb::codegen::Object {
            &self.0
        }
    }
    impl ::rtorb::codegen::IdlType for WithId {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::objref("LOCAL:with-id", "WithId")
        }
    }
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    impl WithId {
        /// IDL operation `op`.
        pub fn op(
            &self,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "op",
                    |servant: &(dyn WithIdServant + 'static)| servant.op(),
                    |_e: &mut ::rtorb::codegen::Encoder| { Ok(()) },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(|_d: &mut ::rtorb::codegen::Decoder| Ok(()))
                    },
                )
        }
    }
    /// Servant trait of IDL interface `Pragmas::WithId`: implement it and register `WithIdSkeleton(servant)`.
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    pub trait WithIdServant: Send + Sync {
        /// IDL operation `op`.
        fn op(&self) -> ::core::result::Result<(), ::rtorb::codegen::SystemException>;
    }
    /// Skeleton of IDL interface `Pragmas::WithId`, wrapping a servant.
    pub struct WithIdSkeleton<S>(pub S);
    impl<S: WithIdServant + 'static> ::rtorb::codegen::Skeleton for WithIdSkeleton<S> {
        fn repository_ids(&self) -> &'static [&'static str] {
            with_id::REPOSITORY_IDS
        }
        fn dispatch(
            &self,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            with_id::dispatch(&self.0, req)
        }
        fn servant(&self) -> ::core::option::Option<&dyn ::core::any::Any> {
            ::core::option::Option::Some(&self.0)
        }
        fn servant_cast(&self, query: &mut dyn ::core::any::Any) {
            ::rtorb::codegen::ServantCast::<
                dyn WithIdServant,
            >::offer(query, |s| s.downcast_ref::<S>().map(|s| s as &dyn WithIdServant));
        }
    }
    /// Types and operation support of IDL interface `Pragmas::WithVersion`.
    pub mod with_version {
        /// Repository ids of `Pragmas::WithVersion`, most derived first, then every base.
        pub const REPOSITORY_IDS: &[&str] = &["IDL:pragmas.example/WithVersion:3.4"];
        /// Runs a request on a servant of `Pragmas::WithVersion`: decodes the arguments, calls the servant, writes the results or exception.
        pub fn dispatch<S: super::WithVersionServant + ?Sized>(
            servant: &S,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            match req.operation_bytes() {
                b"op" => servant.op(),
                _ => Err(::rtorb::codegen::bad_operation()),
            }
        }
    }
    /// Client stub of IDL interface `Pragmas::WithVersion` (`IDL:pragmas.example/WithVersion:3.4`).
    #[derive(Debug, Clone)]
    pub struct WithVersion(::rtorb::codegen::Object);
    impl ::rtorb::codegen::Stub for WithVersion {
        const REPOSITORY_ID: &'static str = "IDL:pragmas.example/WithVersion:3.4";
        fn from_object(object: ::rtorb::codegen::Object) -> Self {
            WithVersion(object)
        }
        fn as_object(&self) -> &::rtorb::codegen::Object {
            &self.0
        }
        fn into_object(self) -> ::rtorb::codegen::Object {
            self.0
        }
    }
    /// The operations of the base (or of `CORBA::Object`).
    impl ::core::ops::Deref for WithVersion {
        type Target = ::rtorb::codegen::Object;
        fn deref(&self) -> &::rtorb::codegen::Object {
            &self.0
        }
    }
    impl ::rtorb::codegen::IdlType for WithVersion {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::objref(
                "IDL:pragmas.example/WithVersion:3.4",
                "WithVersion",
            )
        }
    }
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    impl WithVersion {
        /// IDL operation `op`.
        pub fn op(
            &self,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "op",
                    |servant: &(dyn WithVersionServant + 'static)| servant.op(),
                    |_e: &mut ::rtorb::codegen::Encoder| { Ok(()) },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(|_d: &mut ::rtorb::codegen::Decoder| Ok(()))
                    },
                )
        }
    }
    /// Servant trait of IDL interface `Pragmas::WithVersion`: implement it and register `WithVersionSkeleton(servant)`.
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    pub trait WithVersionServant: Send + Sync {
        /// IDL operation `op`.
        fn op(&self) -> ::core::result::Result<(), ::rtorb::codegen::SystemException>;
    }
    /// Skeleton of IDL interface `Pragmas::WithVersion`, wrapping a servant.
    pub struct WithVersionSkeleton<S>(pub S);
    impl<S: WithVersionServant + 'static> ::rtorb::codegen::Skeleton
    for WithVersionSkeleton<S> {
        fn repository_ids(&self) -> &'static [&'static str] {
            with_version::REPOSITORY_IDS
        }
        fn dispatch(
            &self,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            with_version::dispatch(&self.0, req)
        }
        fn servant(&self) -> ::core::option::Option<&dyn ::core::any::Any> {
            ::core::option::Option::Some(&self.0)
        }
        fn servant_cast(&self, query: &mut dyn ::core::any::Any) {
            ::rtorb::codegen::ServantCast::<
                dyn WithVersionServant,
            >::offer(
                query,
                |s| s.downcast_ref::<S>().map(|s| s as &dyn WithVersionServant),
            );
        }
    }
    /// IDL struct `Pragmas::Versioned` (`IDL:pragmas.example/Versioned:1.7`).
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Versioned {
        /// `v`
        pub v: i32,
    }
    impl ::rtorb::codegen::CdrEncode for Versioned {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            ::rtorb::codegen::CdrEncode::encode(&self.v, e)?;
            Ok(())
        }
    }
    impl ::rtorb::codegen::CdrDecode for Versioned {
        const MIN_WIRE_SIZE: usize = 4;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            Ok(Versioned {
                v: <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?,
            })
        }
    }
    impl ::rtorb::codegen::IdlType for Versioned {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::struct_tc(
                "IDL:pragmas.example/Versioned:1.7",
                "Versioned",
                [("v", ::rtorb::codegen::TypeCode::long())],
            )
        }
    }
    impl ::rtorb::codegen::AnyValue for Versioned {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <Versioned as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
}
