/// IDL module `Vals`.
pub mod vals {
    /// IDL value box `Vals::Name` (`IDL:Vals/Name:1.0`). A member of this type is an `Option<Name>` (`None`: the null value); boxes are not shared when written.
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Name(pub ::std::string::String);
    impl Name {
        /// The repository id of `Vals::Name`.
        pub const REPOSITORY_ID: &'static str = "IDL:Vals/Name:1.0";
        /// Reads the boxed value into a new shared value.
        pub fn unmarshal(
            d: &mut ::rtorb::codegen::Decoder,
        ) -> ::rtorb::codegen::Result<
            ::std::sync::Arc<dyn ::rtorb::codegen::valuetype::ValueBase>,
        > {
            Ok(
                ::std::sync::Arc::new(
                    Name(
                        <::std::string::String as ::rtorb::codegen::CdrDecode>::decode(
                            d,
                        )?,
                    ),
                ),
            )
        }
    }
    impl ::rtorb::codegen::valuetype::ValueBase for Name {
        fn repository_id(&self) -> &'static str {
            "IDL:Vals/Name:1.0"
        }
        fn write_state(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            ::rtorb::codegen::CdrEncode::encode(&self.0, e)?;
            Ok(())
        }
        fn as_any(&self) -> &dyn ::std::any::Any {
            self
        }
        fn upcast(
            self: ::std::sync::Arc<Self>,
            to: ::std::any::TypeId,
        ) -> ::core::option::Option<::std::boxed::Box<dyn ::std::any::Any>> {
            if to == ::std::any::TypeId::of::<Name>() {
                return Some(::std::boxed::Box::new(self));
            }
            None
        }
    }
    impl ::rtorb::codegen::IdlType for Name {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::guarded_type_code(
                ::rtorb::codegen::TCKind::ValueBox,
                "IDL:Vals/Name:1.0",
                || ::rtorb::codegen::TypeCode::value_box(
                    "IDL:Vals/Name:1.0",
                    "Name",
                    ::rtorb::codegen::TypeCode::string(0),
                ),
            )
        }
    }
    /// Writes the box as a value.
    impl ::rtorb::codegen::CdrEncode for Name {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            ::rtorb::codegen::valuetype::write_value_unshared(e, Some(self))
        }
    }
    /// Reads a box (not null).
    impl ::rtorb::codegen::CdrDecode for Name {
        const MIN_WIRE_SIZE: usize = 4;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            ::rtorb::codegen::valuetype::read_value_unshared::<
                Name,
            >(d, Self::REPOSITORY_ID, Self::unmarshal)?
                .ok_or(::rtorb::codegen::CdrError::TypeMismatch("null value"))
        }
    }
    impl ::rtorb::codegen::AnyValue for Name {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <Name as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// IDL abstract valuetype `Vals::Base` (`IDL:Vals/Base:1.0`): implemented by the Rust type of every value of this type or a type derived from it, reading the state this type declares. A member of this type is an `Option<Arc<dyn BaseValue>>`.
    pub trait BaseValue: ::rtorb::codegen::valuetype::ValueBase {}
    impl ::rtorb::codegen::IdlType for dyn BaseValue {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::guarded_type_code(
                ::rtorb::codegen::TCKind::Value,
                "IDL:Vals/Base:1.0",
                || ::rtorb::codegen::TypeCode::value_tc(
                    "IDL:Vals/Base:1.0",
                    "Base",
                    ::rtorb::codegen::typecode::VM_ABSTRACT,
                    None,
                    ::std::vec![],
                ),
            )
        }
    }
    /// The operations and attributes of IDL valuetype `Vals::Base`, which run locally: implement them for the Rust type of the value.
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    pub trait BaseOperations {
        /// IDL operation `size`.
        fn size(&self) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException>;
    }
    /// IDL valuetype `Vals::Shape` (`IDL:Vals/Shape:1.0`): implemented by the Rust type of every value of this type or a type derived from it, reading the state this type declares. A member of this type is an `Option<Arc<dyn ShapeValue>>`.
    pub trait ShapeValue: BaseValue {
        /// The state member `x`.
        fn x(&self) -> &i32;
        /// The state member `label`.
        fn label(&self) -> &::core::option::Option<Name>;
    }
    impl ::rtorb::codegen::IdlType for dyn ShapeValue {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::guarded_type_code(
                ::rtorb::codegen::TCKind::Value,
                "IDL:Vals/Shape:1.0",
                || ::rtorb::codegen::TypeCode::value_tc(
                    "IDL:Vals/Shape:1.0",
                    "Shape",
                    ::rtorb::codegen::typecode::VM_NONE,
                    None,
                    ::std::vec![
                        ::rtorb::codegen::ValueMember { name : "x".into(), type_code :
                        ::rtorb::codegen::TypeCode::long(), visibility :
                        ::rtorb::codegen::typecode::PUBLIC_MEMBER
                        },::rtorb::codegen::ValueMember { name : "label".into(),
                        type_code : < Name as ::rtorb::codegen::IdlType >::type_code(),
                        visibility : ::rtorb::codegen::typecode::PRIVATE_MEMBER },
                    ],
                ),
            )
        }
    }
    /// The operations and attributes of IDL valuetype `Vals::Shape`, which run locally: implement them for the Rust type of the value.
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    pub trait ShapeOperations {
        /// IDL operation `size`.
        fn size(&self) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException>;
    }
    /// The factories (initialisers) of IDL valuetype `Vals::Shape`: implement them to build values.
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    pub trait ShapeInit: Send + Sync {
        /// IDL factory `at`.
        fn at(
            &self,
            x_: i32,
        ) -> ::core::result::Result<
            ::std::sync::Arc<dyn ShapeValue>,
            ::rtorb::codegen::SystemException,
        >;
    }
    /// The state of IDL valuetype `Vals::Shape` (`IDL:Vals/Shape:1.0`), those of its concrete bases first. Share a value as `Arc<Shape>`; register it with `Shape::register_factory()` where it may arrive as a value of a base type.
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Shape {
        /// `x` (public state)
        pub x: i32,
        /// `label` (private state)
        pub label: ::core::option::Option<Name>,
    }
    impl Shape {
        /// The repository id of `Vals::Shape`.
        pub const REPOSITORY_ID: &'static str = "IDL:Vals/Shape:1.0";
        /// Reads the state of a value (after its header).
        pub fn read_state(
            d: &mut ::rtorb::codegen::Decoder,
        ) -> ::rtorb::codegen::Result<Self> {
            Ok(Shape {
                x: <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?,
                label: ::rtorb::codegen::valuetype::read_value_unshared::<
                    Name,
                >(d, Name::REPOSITORY_ID, Name::unmarshal)?,
            })
        }
        /// Reads the state of a value into a new shared value: the reader to register.
        pub fn unmarshal(
            d: &mut ::rtorb::codegen::Decoder,
        ) -> ::rtorb::codegen::Result<
            ::std::sync::Arc<dyn ::rtorb::codegen::valuetype::ValueBase>,
        > {
            Ok(::std::sync::Arc::new(Self::read_state(d)?))
        }
        /// Registers [`Self::unmarshal`] as the factory of `IDL:Vals/Shape:1.0`, so that a value of this type arriving where a base type is declared is read as this type.
        pub fn register_factory() {
            ::rtorb::codegen::register_value_factory(
                Self::REPOSITORY_ID,
                Self::unmarshal,
            );
        }
    }
    impl ::rtorb::codegen::valuetype::ValueBase for Shape {
        fn repository_id(&self) -> &'static str {
            "IDL:Vals/Shape:1.0"
        }
        fn truncatable_ids(&self) -> &'static [&'static str] {
            &[]
        }
        fn write_state(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            ::rtorb::codegen::CdrEncode::encode(&self.x, e)?;
            ::rtorb::codegen::valuetype::write_value_unshared(e, self.label.as_ref())?;
            Ok(())
        }
        fn as_any(&self) -> &dyn ::std::any::Any {
            self
        }
        fn upcast(
            self: ::std::sync::Arc<Self>,
            to: ::std::any::TypeId,
        ) -> ::core::option::Option<::std::boxed::Box<dyn ::std::any::Any>> {
            if to == ::std::any::TypeId::of::<Shape>() {
                return Some(::std::boxed::Box::new(self));
            }
            if to == ::std::any::TypeId::of::<dyn ShapeValue>() {
                return Some(
                    ::std::boxed::Box::new(self as ::std::sync::Arc<dyn ShapeValue>),
                );
            }
            if to == ::std::any::TypeId::of::<dyn BaseValue>() {
                return Some(
                    ::std::boxed::Box::new(self as ::std::sync::Arc<dyn BaseValue>),
                );
            }
            None
        }
    }
    impl ShapeValue for Shape {
        fn x(&self) -> &i32 {
            &self.x
        }
        fn label(&self) -> &::core::option::Option<Name> {
            &self.label
        }
    }
    impl BaseValue for Shape {}
    impl ::rtorb::codegen::IdlType for Shape {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            <dyn ShapeValue as ::rtorb::codegen::IdlType>::type_code()
        }
    }
    /// Writes the value, unshared.
    impl ::rtorb::codegen::CdrEncode for Shape {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            ::rtorb::codegen::valuetype::write_value_unshared(e, Some(self))
        }
    }
    /// Reads a value of this type (not null).
    impl ::rtorb::codegen::CdrDecode for Shape {
        const MIN_WIRE_SIZE: usize = 4;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            ::rtorb::codegen::valuetype::read_value_unshared::<
                Shape,
            >(d, Self::REPOSITORY_ID, Self::unmarshal)?
                .ok_or(::rtorb::codegen::CdrError::TypeMismatch("null value"))
        }
    }
    impl ::rtorb::codegen::AnyValue for Shape {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <Shape as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// IDL valuetype `Vals::Point` (`IDL:Vals/Point:1.0`): implemented by the Rust type of every value of this type or a type derived from it, reading the state this type declares. A member of this type is an `Option<Arc<dyn PointValue>>`.
    pub trait PointValue: ShapeValue {
        /// The state member `y`.
        fn y(&self) -> &i32;
    }
    impl ::rtorb::codegen::IdlType for dyn PointValue {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::guarded_type_code(
                ::rtorb::codegen::TCKind::Value,
                "IDL:Vals/Point:1.0",
                || ::rtorb::codegen::TypeCode::value_tc(
                    "IDL:Vals/Point:1.0",
                    "Point",
                    ::rtorb::codegen::typecode::VM_TRUNCATABLE,
                    Some(<dyn ShapeValue as ::rtorb::codegen::IdlType>::type_code()),
                    ::std::vec![
                        ::rtorb::codegen::ValueMember { name : "y".into(), type_code :
                        ::rtorb::codegen::TypeCode::long(), visibility :
                        ::rtorb::codegen::typecode::PUBLIC_MEMBER },
                    ],
                ),
            )
        }
    }
    /// The operations and attributes of IDL valuetype `Vals::Point`, which run locally: implement them for the Rust type of the value.
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    pub trait PointOperations {
        /// IDL operation `size`.
        fn size(&self) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException>;
    }
    /// The state of IDL valuetype `Vals::Point` (`IDL:Vals/Point:1.0`), those of its concrete bases first. Share a value as `Arc<Point>`; register it with `Point::register_factory()` where it may arrive as a value of a base type.
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Point {
        /// `x` (public state)
        pub x: i32,
        /// `label` (private state)
        pub label: ::core::option::Option<Name>,
        /// `y` (public state)
        pub y: i32,
    }
    impl Point {
        /// The repository id of `Vals::Point`.
        pub const REPOSITORY_ID: &'static str = "IDL:Vals/Point:1.0";
        /// Reads the state of a value (after its header).
        pub fn read_state(
            d: &mut ::rtorb::codegen::Decoder,
        ) -> ::rtorb::codegen::Result<Self> {
            Ok(Point {
                x: <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?,
                label: ::rtorb::codegen::valuetype::read_value_unshared::<
                    Name,
                >(d, Name::REPOSITORY_ID, Name::unmarshal)?,
                y: <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?,
            })
        }
        /// Reads the state of a value into a new shared value: the reader to register.
        pub fn unmarshal(
            d: &mut ::rtorb::codegen::Decoder,
        ) -> ::rtorb::codegen::Result<
            ::std::sync::Arc<dyn ::rtorb::codegen::valuetype::ValueBase>,
        > {
            Ok(::std::sync::Arc::new(Self::read_state(d)?))
        }
        /// Registers [`Self::unmarshal`] as the factory of `IDL:Vals/Point:1.0`, so that a value of this type arriving where a base type is declared is read as this type.
        pub fn register_factory() {
            ::rtorb::codegen::register_value_factory(
                Self::REPOSITORY_ID,
                Self::unmarshal,
            );
        }
    }
    impl ::rtorb::codegen::valuetype::ValueBase for Point {
        fn repository_id(&self) -> &'static str {
            "IDL:Vals/Point:1.0"
        }
        fn truncatable_ids(&self) -> &'static [&'static str] {
            &["IDL:Vals/Shape:1.0"]
        }
        fn write_state(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            ::rtorb::codegen::CdrEncode::encode(&self.x, e)?;
            ::rtorb::codegen::valuetype::write_value_unshared(e, self.label.as_ref())?;
            ::rtorb::codegen::CdrEncode::encode(&self.y, e)?;
            Ok(())
        }
        fn as_any(&self) -> &dyn ::std::any::Any {
            self
        }
        fn upcast(
            self: ::std::sync::Arc<Self>,
            to: ::std::any::TypeId,
        ) -> ::core::option::Option<::std::boxed::Box<dyn ::std::any::Any>> {
            if to == ::std::any::TypeId::of::<Point>() {
                return Some(::std::boxed::Box::new(self));
            }
            if to == ::std::any::TypeId::of::<dyn PointValue>() {
                return Some(
                    ::std::boxed::Box::new(self as ::std::sync::Arc<dyn PointValue>),
                );
            }
            if to == ::std::any::TypeId::of::<dyn ShapeValue>() {
                return Some(
                    ::std::boxed::Box::new(self as ::std::sync::Arc<dyn ShapeValue>),
                );
            }
            if to == ::std::any::TypeId::of::<dyn BaseValue>() {
                return Some(
                    ::std::boxed::Box::new(self as ::std::sync::Arc<dyn BaseValue>),
                );
            }
            None
        }
    }
    impl PointValue for Point {
        fn y(&self) -> &i32 {
            &self.y
        }
    }
    impl ShapeValue for Point {
        fn x(&self) -> &i32 {
            &self.x
        }
        fn label(&self) -> &::core::option::Option<Name> {
            &self.label
        }
    }
    impl BaseValue for Point {}
    impl ::rtorb::codegen::IdlType for Point {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            <dyn PointValue as ::rtorb::codegen::IdlType>::type_code()
        }
    }
    /// Writes the value, unshared.
    impl ::rtorb::codegen::CdrEncode for Point {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            ::rtorb::codegen::valuetype::write_value_unshared(e, Some(self))
        }
    }
    /// Reads a value of this type (not null).
    impl ::rtorb::codegen::CdrDecode for Point {
        const MIN_WIRE_SIZE: usize = 4;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            ::rtorb::codegen::valuetype::read_value_unshared::<
                Point,
            >(d, Self::REPOSITORY_ID, Self::unmarshal)?
                .ok_or(::rtorb::codegen::CdrError::TypeMismatch("null value"))
        }
    }
    impl ::rtorb::codegen::AnyValue for Point {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <Point as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// IDL native type `Vals::Handle`: an opaque handle to whatever the program puts there. It cannot be marshalled, so only operations of local interfaces (and of valuetypes) use it.
    #[derive(Debug, Clone)]
    pub struct Handle(pub ::rtorb::codegen::Opaque);
    /// Types declared in IDL local interface `Vals::User`.
    pub mod user {
        /// Repository ids of `Vals::User`, most derived first, then every base.
        pub const REPOSITORY_IDS: &[&str] = &["IDL:Vals/User:1.0"];
    }
    /// IDL local interface `Vals::User` (`IDL:Vals/User:1.0`): implemented in the program, called directly, never marshalled. A reference is an `rtorb::object::Local<dyn User>`.
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    pub trait User: Send + Sync {
        /// IDL operation `open`.
        fn open(
            &self,
            p: ::core::option::Option<::std::sync::Arc<dyn PointValue>>,
        ) -> ::core::result::Result<Handle, ::rtorb::codegen::SystemException>;
    }
    impl ::rtorb::codegen::IdlType for dyn User {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::local_interface("IDL:Vals/User:1.0", "User")
        }
    }
    /// Types and operation support of IDL interface `Vals::Counter`.
    pub mod counter {
        /// Repository ids of `Vals::Counter`, most derived first, then every base.
        pub const REPOSITORY_IDS: &[&str] = &["IDL:Vals/Counter:1.0"];
        /// Runs a request on a servant of `Vals::Counter`: decodes the arguments, calls the servant, writes the results or exception.
        pub fn dispatch<S: super::CounterServant + ?Sized>(
            servant: &S,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            match req.operation_bytes() {
                b"count" => {
                    let r = servant.count()?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                b"scaled" => {
                    let d = req.arguments();
                    let by = <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?;
                    let r = servant.scaled(by)?;
                    req.write_results(|e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&r, e)?;
                        Ok(())
                    })
                }
                _ => Err(::rtorb::codegen::bad_operation()),
            }
        }
    }
    /// Client stub of IDL interface `Vals::Counter` (`IDL:Vals/Counter:1.0`).
    #[derive(Debug, Clone)]
    pub struct Counter(::rtorb::codegen::Object);
    impl ::rtorb::codegen::Stub for Counter {
        const REPOSITORY_ID: &'static str = "IDL:Vals/Counter:1.0";
        fn from_object(object: ::rtorb::codegen::Object) -> Self {
            Counter(object)
        }
        fn as_object(&self) -> &::rtorb::codegen::Object {
            &self.0
        }
        fn into_object(self) -> ::rtorb::codegen::Object {
            self.0
        }
    }
    /// The operations of the base (or of `CORBA::Object`).
    impl ::core::ops::Deref for Counter {
        type Target = ::rtorb::codegen::Object;
        fn deref(&self) -> &::rtorb::codegen::Object {
            &self.0
        }
    }
    impl ::rtorb::codegen::IdlType for Counter {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::TypeCode::objref("IDL:Vals/Counter:1.0", "Counter")
        }
    }
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    impl Counter {
        /// IDL operation `count`.
        pub fn count(
            &self,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "count",
                    |servant: &(dyn CounterServant + 'static)| servant.count(),
                    |_e: &mut ::rtorb::codegen::Encoder| { Ok(()) },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(<i32 as ::rtorb::codegen::CdrDecode>::decode)
                    },
                )
        }
        /// IDL operation `scaled`.
        pub fn scaled(
            &self,
            by: i32,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException> {
            ::rtorb::codegen::Stub::as_object(self)
                .call(
                    "scaled",
                    |servant: &(dyn CounterServant + 'static)| servant.scaled(by),
                    |e: &mut ::rtorb::codegen::Encoder| {
                        ::rtorb::codegen::CdrEncode::encode(&by, e)?;
                        Ok(())
                    },
                    |reply: ::rtorb::codegen::Reply| {
                        reply.decode(<i32 as ::rtorb::codegen::CdrDecode>::decode)
                    },
                )
        }
    }
    /// Servant trait of IDL interface `Vals::Counter`: implement it and register `CounterSkeleton(servant)`.
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    pub trait CounterServant: Send + Sync {
        /// IDL operation `count`.
        fn count(
            &self,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException>;
        /// IDL operation `scaled`.
        fn scaled(
            &self,
            by: i32,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException>;
    }
    /// Skeleton of IDL interface `Vals::Counter`, wrapping a servant.
    pub struct CounterSkeleton<S>(pub S);
    impl<S: CounterServant + 'static> ::rtorb::codegen::Skeleton for CounterSkeleton<S> {
        fn repository_ids(&self) -> &'static [&'static str] {
            counter::REPOSITORY_IDS
        }
        fn dispatch(
            &self,
            req: &mut ::rtorb::codegen::ServerRequest<'_>,
        ) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {
            counter::dispatch(&self.0, req)
        }
        fn servant(&self) -> ::core::option::Option<&dyn ::core::any::Any> {
            ::core::option::Option::Some(&self.0)
        }
        fn servant_cast(&self, query: &mut dyn ::core::any::Any) {
            ::rtorb::codegen::ServantCast::<
                dyn CounterServant,
            >::offer(query, |s| s.downcast_ref::<S>().map(|s| s as &dyn CounterServant));
        }
    }
    /// IDL valuetype `Vals::Tally` (`IDL:Vals/Tally:1.0`): implemented by the Rust type of every value of this type or a type derived from it, reading the state this type declares. A member of this type is an `Option<Arc<dyn TallyValue>>`.
    pub trait TallyValue: ::rtorb::codegen::valuetype::ValueBase {
        /// The state member `total`.
        fn total(&self) -> &i32;
    }
    impl ::rtorb::codegen::IdlType for dyn TallyValue {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::guarded_type_code(
                ::rtorb::codegen::TCKind::Value,
                "IDL:Vals/Tally:1.0",
                || ::rtorb::codegen::TypeCode::value_tc(
                    "IDL:Vals/Tally:1.0",
                    "Tally",
                    ::rtorb::codegen::typecode::VM_NONE,
                    None,
                    ::std::vec![
                        ::rtorb::codegen::ValueMember { name : "total".into(), type_code
                        : ::rtorb::codegen::TypeCode::long(), visibility :
                        ::rtorb::codegen::typecode::PUBLIC_MEMBER },
                    ],
                ),
            )
        }
    }
    /// The operations and attributes of IDL valuetype `Vals::Tally`, which run locally: implement them for the Rust type of the value. It requires the operations of the interfaces the valuetype supports (itself or through a value base), through their traits (`CounterServant`): implement those for the same type too, which can then also serve as the servant of such an interface (one that is not local).
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    pub trait TallyOperations: CounterServant {
        /// IDL operation `doubled`.
        fn doubled(
            &self,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException>;
    }
    /// The state of IDL valuetype `Vals::Tally` (`IDL:Vals/Tally:1.0`), those of its concrete bases first. Share a value as `Arc<Tally>`; register it with `Tally::register_factory()` where it may arrive as a value of a base type.
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Tally {
        /// `total` (public state)
        pub total: i32,
    }
    impl Tally {
        /// The repository id of `Vals::Tally`.
        pub const REPOSITORY_ID: &'static str = "IDL:Vals/Tally:1.0";
        /// Reads the state of a value (after its header).
        pub fn read_state(
            d: &mut ::rtorb::codegen::Decoder,
        ) -> ::rtorb::codegen::Result<Self> {
            Ok(Tally {
                total: <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?,
            })
        }
        /// Reads the state of a value into a new shared value: the reader to register.
        pub fn unmarshal(
            d: &mut ::rtorb::codegen::Decoder,
        ) -> ::rtorb::codegen::Result<
            ::std::sync::Arc<dyn ::rtorb::codegen::valuetype::ValueBase>,
        > {
            Ok(::std::sync::Arc::new(Self::read_state(d)?))
        }
        /// Registers [`Self::unmarshal`] as the factory of `IDL:Vals/Tally:1.0`, so that a value of this type arriving where a base type is declared is read as this type.
        pub fn register_factory() {
            ::rtorb::codegen::register_value_factory(
                Self::REPOSITORY_ID,
                Self::unmarshal,
            );
        }
    }
    impl ::rtorb::codegen::valuetype::ValueBase for Tally {
        fn repository_id(&self) -> &'static str {
            "IDL:Vals/Tally:1.0"
        }
        fn truncatable_ids(&self) -> &'static [&'static str] {
            &[]
        }
        fn write_state(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            ::rtorb::codegen::CdrEncode::encode(&self.total, e)?;
            Ok(())
        }
        fn as_any(&self) -> &dyn ::std::any::Any {
            self
        }
        fn upcast(
            self: ::std::sync::Arc<Self>,
            to: ::std::any::TypeId,
        ) -> ::core::option::Option<::std::boxed::Box<dyn ::std::any::Any>> {
            if to == ::std::any::TypeId::of::<Tally>() {
                return Some(::std::boxed::Box::new(self));
            }
            if to == ::std::any::TypeId::of::<dyn TallyValue>() {
                return Some(
                    ::std::boxed::Box::new(self as ::std::sync::Arc<dyn TallyValue>),
                );
            }
            None
        }
    }
    impl TallyValue for Tally {
        fn total(&self) -> &i32 {
            &self.total
        }
    }
    impl ::rtorb::codegen::IdlType for Tally {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            <dyn TallyValue as ::rtorb::codegen::IdlType>::type_code()
        }
    }
    /// Writes the value, unshared.
    impl ::rtorb::codegen::CdrEncode for Tally {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            ::rtorb::codegen::valuetype::write_value_unshared(e, Some(self))
        }
    }
    /// Reads a value of this type (not null).
    impl ::rtorb::codegen::CdrDecode for Tally {
        const MIN_WIRE_SIZE: usize = 4;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            ::rtorb::codegen::valuetype::read_value_unshared::<
                Tally,
            >(d, Self::REPOSITORY_ID, Self::unmarshal)?
                .ok_or(::rtorb::codegen::CdrError::TypeMismatch("null value"))
        }
    }
    impl ::rtorb::codegen::AnyValue for Tally {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <Tally as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// IDL valuetype `Vals::Tagged` (`IDL:Vals/Tagged:1.0`): implemented by the Rust type of every value of this type or a type derived from it, reading the state this type declares. A member of this type is an `Option<Arc<dyn TaggedValue>>`.
    pub trait TaggedValue: TallyValue {
        /// The state member `tag`.
        fn tag(&self) -> &::std::string::String;
    }
    impl ::rtorb::codegen::IdlType for dyn TaggedValue {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::guarded_type_code(
                ::rtorb::codegen::TCKind::Value,
                "IDL:Vals/Tagged:1.0",
                || ::rtorb::codegen::TypeCode::value_tc(
                    "IDL:Vals/Tagged:1.0",
                    "Tagged",
                    ::rtorb::codegen::typecode::VM_NONE,
                    Some(<dyn TallyValue as ::rtorb::codegen::IdlType>::type_code()),
                    ::std::vec![
                        ::rtorb::codegen::ValueMember { name : "tag".into(), type_code :
                        ::rtorb::codegen::TypeCode::string(0), visibility :
                        ::rtorb::codegen::typecode::PUBLIC_MEMBER },
                    ],
                ),
            )
        }
    }
    /// The operations and attributes of IDL valuetype `Vals::Tagged`, which run locally: implement them for the Rust type of the value. It requires the operations of the interfaces the valuetype supports (itself or through a value base), through their traits (`CounterServant`): implement those for the same type too, which can then also serve as the servant of such an interface (one that is not local).
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    pub trait TaggedOperations: CounterServant {
        /// IDL operation `doubled`.
        fn doubled(
            &self,
        ) -> ::core::result::Result<i32, ::rtorb::codegen::SystemException>;
    }
    /// The state of IDL valuetype `Vals::Tagged` (`IDL:Vals/Tagged:1.0`), those of its concrete bases first. Share a value as `Arc<Tagged>`; register it with `Tagged::register_factory()` where it may arrive as a value of a base type.
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Tagged {
        /// `total` (public state)
        pub total: i32,
        /// `tag` (public state)
        pub tag: ::std::string::String,
    }
    impl Tagged {
        /// The repository id of `Vals::Tagged`.
        pub const REPOSITORY_ID: &'static str = "IDL:Vals/Tagged:1.0";
        /// Reads the state of a value (after its header).
        pub fn read_state(
            d: &mut ::rtorb::codegen::Decoder,
        ) -> ::rtorb::codegen::Result<Self> {
            Ok(Tagged {
                total: <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?,
                tag: <::std::string::String as ::rtorb::codegen::CdrDecode>::decode(d)?,
            })
        }
        /// Reads the state of a value into a new shared value: the reader to register.
        pub fn unmarshal(
            d: &mut ::rtorb::codegen::Decoder,
        ) -> ::rtorb::codegen::Result<
            ::std::sync::Arc<dyn ::rtorb::codegen::valuetype::ValueBase>,
        > {
            Ok(::std::sync::Arc::new(Self::read_state(d)?))
        }
        /// Registers [`Self::unmarshal`] as the factory of `IDL:Vals/Tagged:1.0`, so that a value of this type arriving where a base type is declared is read as this type.
        pub fn register_factory() {
            ::rtorb::codegen::register_value_factory(
                Self::REPOSITORY_ID,
                Self::unmarshal,
            );
        }
    }
    impl ::rtorb::codegen::valuetype::ValueBase for Tagged {
        fn repository_id(&self) -> &'static str {
            "IDL:Vals/Tagged:1.0"
        }
        fn truncatable_ids(&self) -> &'static [&'static str] {
            &[]
        }
        fn write_state(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            ::rtorb::codegen::CdrEncode::encode(&self.total, e)?;
            ::rtorb::codegen::CdrEncode::encode(&self.tag, e)?;
            Ok(())
        }
        fn as_any(&self) -> &dyn ::std::any::Any {
            self
        }
        fn upcast(
            self: ::std::sync::Arc<Self>,
            to: ::std::any::TypeId,
        ) -> ::core::option::Option<::std::boxed::Box<dyn ::std::any::Any>> {
            if to == ::std::any::TypeId::of::<Tagged>() {
                return Some(::std::boxed::Box::new(self));
            }
            if to == ::std::any::TypeId::of::<dyn TaggedValue>() {
                return Some(
                    ::std::boxed::Box::new(self as ::std::sync::Arc<dyn TaggedValue>),
                );
            }
            if to == ::std::any::TypeId::of::<dyn TallyValue>() {
                return Some(
                    ::std::boxed::Box::new(self as ::std::sync::Arc<dyn TallyValue>),
                );
            }
            None
        }
    }
    impl TaggedValue for Tagged {
        fn tag(&self) -> &::std::string::String {
            &self.tag
        }
    }
    impl TallyValue for Tagged {
        fn total(&self) -> &i32 {
            &self.total
        }
    }
    impl ::rtorb::codegen::IdlType for Tagged {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            <dyn TaggedValue as ::rtorb::codegen::IdlType>::type_code()
        }
    }
    /// Writes the value, unshared.
    impl ::rtorb::codegen::CdrEncode for Tagged {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            ::rtorb::codegen::valuetype::write_value_unshared(e, Some(self))
        }
    }
    /// Reads a value of this type (not null).
    impl ::rtorb::codegen::CdrDecode for Tagged {
        const MIN_WIRE_SIZE: usize = 4;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            ::rtorb::codegen::valuetype::read_value_unshared::<
                Tagged,
            >(d, Self::REPOSITORY_ID, Self::unmarshal)?
                .ok_or(::rtorb::codegen::CdrError::TypeMismatch("null value"))
        }
    }
    impl ::rtorb::codegen::AnyValue for Tagged {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <Tagged as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
    /// IDL valuetype `Vals::Opener` (`IDL:Vals/Opener:1.0`): implemented by the Rust type of every value of this type or a type derived from it, reading the state this type declares. A member of this type is an `Option<Arc<dyn OpenerValue>>`.
    pub trait OpenerValue: ::rtorb::codegen::valuetype::ValueBase {
        /// The state member `base`.
        fn base(&self) -> &i32;
    }
    impl ::rtorb::codegen::IdlType for dyn OpenerValue {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            ::rtorb::codegen::guarded_type_code(
                ::rtorb::codegen::TCKind::Value,
                "IDL:Vals/Opener:1.0",
                || ::rtorb::codegen::TypeCode::value_tc(
                    "IDL:Vals/Opener:1.0",
                    "Opener",
                    ::rtorb::codegen::typecode::VM_NONE,
                    None,
                    ::std::vec![
                        ::rtorb::codegen::ValueMember { name : "base".into(), type_code :
                        ::rtorb::codegen::TypeCode::long(), visibility :
                        ::rtorb::codegen::typecode::PUBLIC_MEMBER },
                    ],
                ),
            )
        }
    }
    /// The operations and attributes of IDL valuetype `Vals::Opener`, which run locally: implement them for the Rust type of the value. It requires the operations of the interfaces the valuetype supports (itself or through a value base), through their traits (`User`): implement those for the same type too, which can then also serve as the servant of such an interface (one that is not local).
    #[allow(
        clippy::should_implement_trait,
        clippy::wrong_self_convention,
        clippy::result_large_err,
        clippy::type_complexity
    )]
    pub trait OpenerOperations: User {}
    /// The state of IDL valuetype `Vals::Opener` (`IDL:Vals/Opener:1.0`), those of its concrete bases first. Share a value as `Arc<Opener>`; register it with `Opener::register_factory()` where it may arrive as a value of a base type.
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Opener {
        /// `base` (public state)
        pub base: i32,
    }
    impl Opener {
        /// The repository id of `Vals::Opener`.
        pub const REPOSITORY_ID: &'static str = "IDL:Vals/Opener:1.0";
        /// Reads the state of a value (after its header).
        pub fn read_state(
            d: &mut ::rtorb::codegen::Decoder,
        ) -> ::rtorb::codegen::Result<Self> {
            Ok(Opener {
                base: <i32 as ::rtorb::codegen::CdrDecode>::decode(d)?,
            })
        }
        /// Reads the state of a value into a new shared value: the reader to register.
        pub fn unmarshal(
            d: &mut ::rtorb::codegen::Decoder,
        ) -> ::rtorb::codegen::Result<
            ::std::sync::Arc<dyn ::rtorb::codegen::valuetype::ValueBase>,
        > {
            Ok(::std::sync::Arc::new(Self::read_state(d)?))
        }
        /// Registers [`Self::unmarshal`] as the factory of `IDL:Vals/Opener:1.0`, so that a value of this type arriving where a base type is declared is read as this type.
        pub fn register_factory() {
            ::rtorb::codegen::register_value_factory(
                Self::REPOSITORY_ID,
                Self::unmarshal,
            );
        }
    }
    impl ::rtorb::codegen::valuetype::ValueBase for Opener {
        fn repository_id(&self) -> &'static str {
            "IDL:Vals/Opener:1.0"
        }
        fn truncatable_ids(&self) -> &'static [&'static str] {
            &[]
        }
        fn write_state(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            ::rtorb::codegen::CdrEncode::encode(&self.base, e)?;
            Ok(())
        }
        fn as_any(&self) -> &dyn ::std::any::Any {
            self
        }
        fn upcast(
            self: ::std::sync::Arc<Self>,
            to: ::std::any::TypeId,
        ) -> ::core::option::Option<::std::boxed::Box<dyn ::std::any::Any>> {
            if to == ::std::any::TypeId::of::<Opener>() {
                return Some(::std::boxed::Box::new(self));
            }
            if to == ::std::any::TypeId::of::<dyn OpenerValue>() {
                return Some(
                    ::std::boxed::Box::new(self as ::std::sync::Arc<dyn OpenerValue>),
                );
            }
            None
        }
    }
    impl OpenerValue for Opener {
        fn base(&self) -> &i32 {
            &self.base
        }
    }
    impl ::rtorb::codegen::IdlType for Opener {
        fn type_code() -> ::rtorb::codegen::TypeCode {
            <dyn OpenerValue as ::rtorb::codegen::IdlType>::type_code()
        }
    }
    /// Writes the value, unshared.
    impl ::rtorb::codegen::CdrEncode for Opener {
        fn encode(
            &self,
            e: &mut ::rtorb::codegen::Encoder,
        ) -> ::rtorb::codegen::Result<()> {
            ::rtorb::codegen::valuetype::write_value_unshared(e, Some(self))
        }
    }
    /// Reads a value of this type (not null).
    impl ::rtorb::codegen::CdrDecode for Opener {
        const MIN_WIRE_SIZE: usize = 4;
        fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {
            ::rtorb::codegen::valuetype::read_value_unshared::<
                Opener,
            >(d, Self::REPOSITORY_ID, Self::unmarshal)?
                .ok_or(::rtorb::codegen::CdrError::TypeMismatch("null value"))
        }
    }
    impl ::rtorb::codegen::AnyValue for Opener {
        fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {
            ::rtorb::codegen::Any::from_cdr(
                <Opener as ::rtorb::codegen::IdlType>::type_code(),
                self,
            )
        }
        fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {
            any.decode_cdr()
        }
    }
}
