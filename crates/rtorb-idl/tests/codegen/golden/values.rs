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
            d: &mut ::rtorb_cdr::Decoder,
        ) -> ::rtorb_cdr::Result<
            ::std::sync::Arc<dyn ::rtorb_cdr::valuetype::ValueBase>,
        > {
            Ok(
                ::std::sync::Arc::new(
                    Name(<::std::string::String as ::rtorb_cdr::CdrDecode>::decode(d)?),
                ),
            )
        }
    }
    impl ::rtorb_cdr::valuetype::ValueBase for Name {
        fn repository_id(&self) -> &'static str {
            "IDL:Vals/Name:1.0"
        }
        fn write_state(&self, e: &mut ::rtorb_cdr::Encoder) -> ::rtorb_cdr::Result<()> {
            ::rtorb_cdr::CdrEncode::encode(&self.0, e)?;
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
    impl ::rtorb::runtime::IdlType for Name {
        fn type_code() -> ::rtorb_cdr::TypeCode {
            ::rtorb::runtime::guarded_type_code(
                ::rtorb_cdr::TCKind::ValueBox,
                "IDL:Vals/Name:1.0",
                || ::rtorb_cdr::TypeCode::value_box(
                    "IDL:Vals/Name:1.0",
                    "Name",
                    ::rtorb_cdr::TypeCode::string(0),
                ),
            )
        }
    }
    /// Writes the box as a value.
    impl ::rtorb_cdr::CdrEncode for Name {
        fn encode(&self, e: &mut ::rtorb_cdr::Encoder) -> ::rtorb_cdr::Result<()> {
            ::rtorb_cdr::valuetype::write_value_unshared(e, Some(self))
        }
    }
    /// Reads a box (not null).
    impl ::rtorb_cdr::CdrDecode for Name {
        const MIN_WIRE_SIZE: usize = 4;
        fn decode(d: &mut ::rtorb_cdr::Decoder) -> ::rtorb_cdr::Result<Self> {
            ::rtorb_cdr::valuetype::read_value_unshared::<
                Name,
            >(d, Self::REPOSITORY_ID, Self::unmarshal)?
                .ok_or(::rtorb_cdr::CdrError::TypeMismatch("null value"))
        }
    }
    /// IDL abstract valuetype `Vals::Base` (`IDL:Vals/Base:1.0`): implemented by the Rust type of every value of this type or a type derived from it, reading the state this type declares. A member of this type is an `Option<Arc<dyn BaseValue>>`.
    pub trait BaseValue: ::rtorb_cdr::valuetype::ValueBase {}
    impl ::rtorb::runtime::IdlType for dyn BaseValue {
        fn type_code() -> ::rtorb_cdr::TypeCode {
            ::rtorb::runtime::guarded_type_code(
                ::rtorb_cdr::TCKind::Value,
                "IDL:Vals/Base:1.0",
                || ::rtorb_cdr::TypeCode::value_tc(
                    "IDL:Vals/Base:1.0",
                    "Base",
                    ::rtorb_cdr::typecode::VM_ABSTRACT,
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
        fn size(&self) -> ::core::result::Result<i32, ::rtorb::runtime::SystemException>;
    }
    /// IDL valuetype `Vals::Shape` (`IDL:Vals/Shape:1.0`): implemented by the Rust type of every value of this type or a type derived from it, reading the state this type declares. A member of this type is an `Option<Arc<dyn ShapeValue>>`.
    pub trait ShapeValue: BaseValue {
        /// The state member `x`.
        fn x(&self) -> &i32;
        /// The state member `label`.
        fn label(&self) -> &::core::option::Option<Name>;
    }
    impl ::rtorb::runtime::IdlType for dyn ShapeValue {
        fn type_code() -> ::rtorb_cdr::TypeCode {
            ::rtorb::runtime::guarded_type_code(
                ::rtorb_cdr::TCKind::Value,
                "IDL:Vals/Shape:1.0",
                || ::rtorb_cdr::TypeCode::value_tc(
                    "IDL:Vals/Shape:1.0",
                    "Shape",
                    ::rtorb_cdr::typecode::VM_NONE,
                    None,
                    ::std::vec![
                        ::rtorb_cdr::ValueMember { name : "x".into(), type_code :
                        ::rtorb_cdr::TypeCode::long(), visibility :
                        ::rtorb_cdr::typecode::PUBLIC_MEMBER },::rtorb_cdr::ValueMember {
                        name : "label".into(), type_code : < Name as
                        ::rtorb::runtime::IdlType >::type_code(), visibility :
                        ::rtorb_cdr::typecode::PRIVATE_MEMBER },
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
        fn size(&self) -> ::core::result::Result<i32, ::rtorb::runtime::SystemException>;
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
            ::rtorb::runtime::SystemException,
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
        pub fn read_state(d: &mut ::rtorb_cdr::Decoder) -> ::rtorb_cdr::Result<Self> {
            Ok(Shape {
                x: <i32 as ::rtorb_cdr::CdrDecode>::decode(d)?,
                label: ::rtorb_cdr::valuetype::read_value_unshared::<
                    Name,
                >(d, Name::REPOSITORY_ID, Name::unmarshal)?,
            })
        }
        /// Reads the state of a value into a new shared value: the reader to register.
        pub fn unmarshal(
            d: &mut ::rtorb_cdr::Decoder,
        ) -> ::rtorb_cdr::Result<
            ::std::sync::Arc<dyn ::rtorb_cdr::valuetype::ValueBase>,
        > {
            Ok(::std::sync::Arc::new(Self::read_state(d)?))
        }
        /// Registers [`Self::unmarshal`] as the factory of `IDL:Vals/Shape:1.0`, so that a value of this type arriving where a base type is declared is read as this type.
        pub fn register_factory() {
            ::rtorb::runtime::register_value_factory(
                Self::REPOSITORY_ID,
                Self::unmarshal,
            );
        }
    }
    impl ::rtorb_cdr::valuetype::ValueBase for Shape {
        fn repository_id(&self) -> &'static str {
            "IDL:Vals/Shape:1.0"
        }
        fn truncatable_ids(&self) -> &'static [&'static str] {
            &[]
        }
        fn write_state(&self, e: &mut ::rtorb_cdr::Encoder) -> ::rtorb_cdr::Result<()> {
            ::rtorb_cdr::CdrEncode::encode(&self.x, e)?;
            ::rtorb_cdr::valuetype::write_value_unshared(e, self.label.as_ref())?;
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
    impl ::rtorb::runtime::IdlType for Shape {
        fn type_code() -> ::rtorb_cdr::TypeCode {
            <dyn ShapeValue as ::rtorb::runtime::IdlType>::type_code()
        }
    }
    /// Writes the value, unshared.
    impl ::rtorb_cdr::CdrEncode for Shape {
        fn encode(&self, e: &mut ::rtorb_cdr::Encoder) -> ::rtorb_cdr::Result<()> {
            ::rtorb_cdr::valuetype::write_value_unshared(e, Some(self))
        }
    }
    /// Reads a value of this type (not null).
    impl ::rtorb_cdr::CdrDecode for Shape {
        const MIN_WIRE_SIZE: usize = 4;
        fn decode(d: &mut ::rtorb_cdr::Decoder) -> ::rtorb_cdr::Result<Self> {
            ::rtorb_cdr::valuetype::read_value_unshared::<
                Shape,
            >(d, Self::REPOSITORY_ID, Self::unmarshal)?
                .ok_or(::rtorb_cdr::CdrError::TypeMismatch("null value"))
        }
    }
    /// IDL valuetype `Vals::Point` (`IDL:Vals/Point:1.0`): implemented by the Rust type of every value of this type or a type derived from it, reading the state this type declares. A member of this type is an `Option<Arc<dyn PointValue>>`.
    pub trait PointValue: ShapeValue {
        /// The state member `y`.
        fn y(&self) -> &i32;
    }
    impl ::rtorb::runtime::IdlType for dyn PointValue {
        fn type_code() -> ::rtorb_cdr::TypeCode {
            ::rtorb::runtime::guarded_type_code(
                ::rtorb_cdr::TCKind::Value,
                "IDL:Vals/Point:1.0",
                || ::rtorb_cdr::TypeCode::value_tc(
                    "IDL:Vals/Point:1.0",
                    "Point",
                    ::rtorb_cdr::typecode::VM_TRUNCATABLE,
                    Some(<dyn ShapeValue as ::rtorb::runtime::IdlType>::type_code()),
                    ::std::vec![
                        ::rtorb_cdr::ValueMember { name : "y".into(), type_code :
                        ::rtorb_cdr::TypeCode::long(), visibility :
                        ::rtorb_cdr::typecode::PUBLIC_MEMBER },
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
        fn size(&self) -> ::core::result::Result<i32, ::rtorb::runtime::SystemException>;
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
        pub fn read_state(d: &mut ::rtorb_cdr::Decoder) -> ::rtorb_cdr::Result<Self> {
            Ok(Point {
                x: <i32 as ::rtorb_cdr::CdrDecode>::decode(d)?,
                label: ::rtorb_cdr::valuetype::read_value_unshared::<
                    Name,
                >(d, Name::REPOSITORY_ID, Name::unmarshal)?,
                y: <i32 as ::rtorb_cdr::CdrDecode>::decode(d)?,
            })
        }
        /// Reads the state of a value into a new shared value: the reader to register.
        pub fn unmarshal(
            d: &mut ::rtorb_cdr::Decoder,
        ) -> ::rtorb_cdr::Result<
            ::std::sync::Arc<dyn ::rtorb_cdr::valuetype::ValueBase>,
        > {
            Ok(::std::sync::Arc::new(Self::read_state(d)?))
        }
        /// Registers [`Self::unmarshal`] as the factory of `IDL:Vals/Point:1.0`, so that a value of this type arriving where a base type is declared is read as this type.
        pub fn register_factory() {
            ::rtorb::runtime::register_value_factory(
                Self::REPOSITORY_ID,
                Self::unmarshal,
            );
        }
    }
    impl ::rtorb_cdr::valuetype::ValueBase for Point {
        fn repository_id(&self) -> &'static str {
            "IDL:Vals/Point:1.0"
        }
        fn truncatable_ids(&self) -> &'static [&'static str] {
            &["IDL:Vals/Shape:1.0"]
        }
        fn write_state(&self, e: &mut ::rtorb_cdr::Encoder) -> ::rtorb_cdr::Result<()> {
            ::rtorb_cdr::CdrEncode::encode(&self.x, e)?;
            ::rtorb_cdr::valuetype::write_value_unshared(e, self.label.as_ref())?;
            ::rtorb_cdr::CdrEncode::encode(&self.y, e)?;
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
    impl ::rtorb::runtime::IdlType for Point {
        fn type_code() -> ::rtorb_cdr::TypeCode {
            <dyn PointValue as ::rtorb::runtime::IdlType>::type_code()
        }
    }
    /// Writes the value, unshared.
    impl ::rtorb_cdr::CdrEncode for Point {
        fn encode(&self, e: &mut ::rtorb_cdr::Encoder) -> ::rtorb_cdr::Result<()> {
            ::rtorb_cdr::valuetype::write_value_unshared(e, Some(self))
        }
    }
    /// Reads a value of this type (not null).
    impl ::rtorb_cdr::CdrDecode for Point {
        const MIN_WIRE_SIZE: usize = 4;
        fn decode(d: &mut ::rtorb_cdr::Decoder) -> ::rtorb_cdr::Result<Self> {
            ::rtorb_cdr::valuetype::read_value_unshared::<
                Point,
            >(d, Self::REPOSITORY_ID, Self::unmarshal)?
                .ok_or(::rtorb_cdr::CdrError::TypeMismatch("null value"))
        }
    }
    /// IDL native type `Vals::Handle`: an opaque handle to whatever the program puts there. It cannot be marshalled, so only operations of local interfaces (and of valuetypes) use it.
    #[derive(Debug, Clone)]
    pub struct Handle(pub ::rtorb::runtime::Opaque);
    /// Types declared in IDL local interface `Vals::User`.
    pub mod user {
        /// Repository ids of `Vals::User`, most derived first, then every base.
        pub const REPOSITORY_IDS: &[&str] = &["IDL:Vals/User:1.0"];
    }
    /// IDL local interface `Vals::User` (`IDL:Vals/User:1.0`): implemented in the program, called directly, never marshalled. A reference is an `rtorb::runtime::Local<dyn User>`.
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
        ) -> ::core::result::Result<Handle, ::rtorb::runtime::SystemException>;
    }
    impl ::rtorb::runtime::IdlType for dyn User {
        fn type_code() -> ::rtorb_cdr::TypeCode {
            ::rtorb_cdr::TypeCode::local_interface("IDL:Vals/User:1.0", "User")
        }
    }
}
