//! TypeCodes: run-time descriptions of IDL types (CORBA 3.x, "TypeCodes",
//! and the CDR "Encoding of TypeCodes").
//!
//! A [`TypeCode`] is an immutable tree behind an [`Arc`], so cloning one is
//! a reference-count increment. Constructors exist for every kind;
//! accessors follow the CORBA `TypeCode` interface and return `None` where
//! CORBA raises `BadKind` or `Bounds`.
//!
//! # Recursive types
//!
//! IDL lets a struct, union or valuetype contain itself through a sequence
//! (`struct Node { sequence<Node> children; }`). rtorb never builds a cycle
//! of `Arc`s for this. Inside the definition, the self-reference is a
//! *placeholder*, [`TypeCode::recursive`], naming the kind and repository
//! id of the enclosing type, just as CORBA's `create_recursive_tc` does.
//! The placeholder is bound by the innermost enclosing struct, union,
//! valuetype, event or value box with that id.
//!
//! The accessors that step into a type ([`TypeCode::member_type`],
//! [`TypeCode::content_type`], [`TypeCode::concrete_base_type`]) resolve the
//! placeholders they expose: `Node.member_type(0)` is `sequence<Node>` whose
//! content type is `Node` itself, built on demand as a fresh node that
//! points at `Node` (no cycle, so nothing leaks). On the wire a placeholder
//! becomes an indirection to the enclosing TypeCode, and a decoded
//! indirection to an enclosing TypeCode becomes a placeholder.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock};

use crate::decoder::Decoder;
use crate::encoder::Encoder;
use crate::error::{CdrError, Result};
use crate::traits::{CdrDecode, CdrEncode};
use crate::types::FIXED_MAX_DIGITS;
use crate::value::{self, Value};

/// The kind of a TypeCode, with the numbers CDR gives them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u32)]
pub enum TCKind {
    /// `tk_null` (0): no type.
    Null = 0,
    /// `tk_void` (1).
    Void = 1,
    /// `tk_short` (2).
    Short = 2,
    /// `tk_long` (3).
    Long = 3,
    /// `tk_ushort` (4).
    UShort = 4,
    /// `tk_ulong` (5).
    ULong = 5,
    /// `tk_float` (6).
    Float = 6,
    /// `tk_double` (7).
    Double = 7,
    /// `tk_boolean` (8).
    Boolean = 8,
    /// `tk_char` (9).
    Char = 9,
    /// `tk_octet` (10).
    Octet = 10,
    /// `tk_any` (11).
    Any = 11,
    /// `tk_TypeCode` (12).
    TypeCode = 12,
    /// `tk_Principal` (13), a `sequence<octet>` on the wire.
    Principal = 13,
    /// `tk_objref` (14).
    ObjRef = 14,
    /// `tk_struct` (15).
    Struct = 15,
    /// `tk_union` (16).
    Union = 16,
    /// `tk_enum` (17).
    Enum = 17,
    /// `tk_string` (18).
    String = 18,
    /// `tk_sequence` (19).
    Sequence = 19,
    /// `tk_array` (20).
    Array = 20,
    /// `tk_alias` (21): a typedef.
    Alias = 21,
    /// `tk_except` (22).
    Except = 22,
    /// `tk_longlong` (23).
    LongLong = 23,
    /// `tk_ulonglong` (24).
    ULongLong = 24,
    /// `tk_longdouble` (25).
    LongDouble = 25,
    /// `tk_wchar` (26).
    WChar = 26,
    /// `tk_wstring` (27).
    WString = 27,
    /// `tk_fixed` (28).
    Fixed = 28,
    /// `tk_value` (29): a valuetype.
    Value = 29,
    /// `tk_value_box` (30).
    ValueBox = 30,
    /// `tk_native` (31).
    Native = 31,
    /// `tk_abstract_interface` (32).
    AbstractInterface = 32,
    /// `tk_local_interface` (33).
    LocalInterface = 33,
    /// `tk_component` (34).
    Component = 34,
    /// `tk_home` (35).
    Home = 35,
    /// `tk_event` (36): an eventtype.
    Event = 36,
}

impl TCKind {
    /// The kind word that marks a TypeCode indirection on the wire.
    pub const INDIRECTION: u32 = 0xffff_ffff;

    const ALL: [TCKind; 37] = [
        TCKind::Null,
        TCKind::Void,
        TCKind::Short,
        TCKind::Long,
        TCKind::UShort,
        TCKind::ULong,
        TCKind::Float,
        TCKind::Double,
        TCKind::Boolean,
        TCKind::Char,
        TCKind::Octet,
        TCKind::Any,
        TCKind::TypeCode,
        TCKind::Principal,
        TCKind::ObjRef,
        TCKind::Struct,
        TCKind::Union,
        TCKind::Enum,
        TCKind::String,
        TCKind::Sequence,
        TCKind::Array,
        TCKind::Alias,
        TCKind::Except,
        TCKind::LongLong,
        TCKind::ULongLong,
        TCKind::LongDouble,
        TCKind::WChar,
        TCKind::WString,
        TCKind::Fixed,
        TCKind::Value,
        TCKind::ValueBox,
        TCKind::Native,
        TCKind::AbstractInterface,
        TCKind::LocalInterface,
        TCKind::Component,
        TCKind::Home,
        TCKind::Event,
    ];

    /// The number CDR writes for this kind.
    pub const fn to_u32(self) -> u32 {
        self as u32
    }

    /// The kind a CDR number denotes, if any (the indirection marker is not
    /// a kind).
    pub fn from_u32(n: u32) -> Option<TCKind> {
        TCKind::ALL.get(n as usize).copied()
    }

    /// Whether TypeCodes of this kind have no parameters at all (their
    /// encoding is the kind alone).
    pub fn is_basic(self) -> bool {
        matches!(
            self,
            TCKind::Null
                | TCKind::Void
                | TCKind::Short
                | TCKind::Long
                | TCKind::UShort
                | TCKind::ULong
                | TCKind::Float
                | TCKind::Double
                | TCKind::Boolean
                | TCKind::Char
                | TCKind::Octet
                | TCKind::Any
                | TCKind::TypeCode
                | TCKind::Principal
                | TCKind::LongLong
                | TCKind::ULongLong
                | TCKind::LongDouble
                | TCKind::WChar
        )
    }

    /// Whether a TypeCode of this kind can be the target of a recursive
    /// reference (it has a repository id and members or content).
    fn can_recurse(self) -> bool {
        matches!(
            self,
            TCKind::Struct | TCKind::Union | TCKind::Value | TCKind::Event | TCKind::ValueBox
        )
    }
}

/// `ValueModifier` `VM_NONE`: an ordinary concrete valuetype.
pub const VM_NONE: i16 = 0;
/// `ValueModifier` `VM_CUSTOM`: a custom-marshalled valuetype.
pub const VM_CUSTOM: i16 = 1;
/// `ValueModifier` `VM_ABSTRACT`: an abstract valuetype.
pub const VM_ABSTRACT: i16 = 2;
/// `ValueModifier` `VM_TRUNCATABLE`: a valuetype truncatable to its base.
pub const VM_TRUNCATABLE: i16 = 3;
/// `Visibility` of a private valuetype state member.
pub const PRIVATE_MEMBER: i16 = 0;
/// `Visibility` of a public valuetype state member.
pub const PUBLIC_MEMBER: i16 = 1;

/// A member of a union TypeCode.
#[derive(Debug, Clone, PartialEq)]
pub struct UnionMember {
    /// The case label, a value of the discriminator type; `None` for the
    /// `default` member.
    pub label: Option<Value>,
    /// The member name (may be empty).
    pub name: String,
    /// The member type.
    pub type_code: TypeCode,
}

impl UnionMember {
    /// A member selected by `label`.
    pub fn new(label: Value, name: impl Into<String>, type_code: TypeCode) -> UnionMember {
        UnionMember {
            label: Some(label),
            name: name.into(),
            type_code,
        }
    }

    /// The `default` member.
    pub fn default_case(name: impl Into<String>, type_code: TypeCode) -> UnionMember {
        UnionMember {
            label: None,
            name: name.into(),
            type_code,
        }
    }
}

/// A state member of a valuetype TypeCode.
#[derive(Debug, Clone, PartialEq)]
pub struct ValueMember {
    /// The member name (may be empty).
    pub name: String,
    /// The member type.
    pub type_code: TypeCode,
    /// [`PUBLIC_MEMBER`] or [`PRIVATE_MEMBER`].
    pub visibility: i16,
}

#[derive(Debug)]
pub(crate) enum Body {
    Basic(TCKind),
    String {
        wide: bool,
        bound: u32,
    },
    Fixed {
        digits: u16,
        scale: i16,
    },
    Sequence {
        content: TypeCode,
        bound: u32,
    },
    Array {
        content: TypeCode,
        length: u32,
    },
    /// alias and value box: id, name, content.
    Named {
        kind: TCKind,
        id: String,
        name: String,
        content: TypeCode,
    },
    /// objref, native, abstract and local interface, component, home.
    Interface {
        kind: TCKind,
        id: String,
        name: String,
    },
    /// struct and except.
    Struct {
        kind: TCKind,
        id: String,
        name: String,
        members: Vec<(String, TypeCode)>,
    },
    Union {
        id: String,
        name: String,
        discriminator: TypeCode,
        default_index: i32,
        /// Labels already checked against the discriminator type; the
        /// default member's label is `None`.
        members: Vec<UnionMember>,
    },
    Enum {
        id: String,
        name: String,
        members: Vec<String>,
    },
    /// value and event.
    Value {
        kind: TCKind,
        id: String,
        name: String,
        modifier: i16,
        base: Option<TypeCode>,
        members: Vec<ValueMember>,
    },
    Recursive {
        kind: TCKind,
        id: String,
    },
}

#[derive(Debug)]
struct Inner {
    body: Body,
    /// Ids of recursive placeholders in this tree not bound inside it.
    free: Vec<String>,
    /// An estimate of the encoded size with every shared subtree written
    /// out; bounds what a hostile stream of repeated indirections can
    /// amplify to.
    size: u64,
}

/// A run-time description of an IDL type.
///
/// Cheap to clone. `==` is [`TypeCode::equal`].
#[derive(Clone)]
pub struct TypeCode(Arc<Inner>);

impl std::fmt::Debug for TypeCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.body.fmt(f)
    }
}

impl PartialEq for TypeCode {
    fn eq(&self, other: &TypeCode) -> bool {
        self.equal(other)
    }
}

static BASIC: LazyLock<Vec<TypeCode>> = LazyLock::new(|| {
    TCKind::ALL
        .iter()
        .map(|k| {
            let kind = if k.is_basic() { *k } else { TCKind::Null };
            TypeCode::build(Body::Basic(kind))
        })
        .collect()
});

fn str_size(s: &str) -> u64 {
    s.len() as u64 + 8
}

impl TypeCode {
    fn build(body: Body) -> TypeCode {
        let mut children: Vec<&TypeCode> = Vec::new();
        let mut own: u64 = 8;
        let mut binder: Option<&str> = None;
        match &body {
            Body::Basic(_) | Body::String { .. } | Body::Fixed { .. } => {}
            Body::Sequence { content, .. } | Body::Array { content, .. } => children.push(content),
            Body::Named {
                kind,
                id,
                name,
                content,
            } => {
                children.push(content);
                own += str_size(id) + str_size(name);
                if *kind == TCKind::ValueBox {
                    binder = Some(id);
                }
            }
            Body::Interface { id, name, .. } => own += str_size(id) + str_size(name),
            Body::Struct {
                id, name, members, ..
            } => {
                own += str_size(id) + str_size(name);
                for (n, t) in members {
                    own += str_size(n);
                    children.push(t);
                }
                binder = Some(id);
            }
            Body::Union {
                id,
                name,
                discriminator,
                members,
                ..
            } => {
                own += str_size(id) + str_size(name);
                children.push(discriminator);
                for m in members {
                    own += str_size(&m.name) + 8;
                    children.push(&m.type_code);
                }
                binder = Some(id);
            }
            Body::Enum { id, name, members } => {
                own += str_size(id) + str_size(name);
                own += members.iter().map(|n| str_size(n)).sum::<u64>();
            }
            Body::Value {
                id,
                name,
                base,
                members,
                ..
            } => {
                own += str_size(id) + str_size(name);
                if let Some(b) = base {
                    children.push(b);
                }
                for m in members {
                    own += str_size(&m.name) + 2;
                    children.push(&m.type_code);
                }
                binder = Some(id);
            }
            Body::Recursive { .. } => {}
        }
        let mut size = own;
        let mut free: Vec<String> = Vec::new();
        if let Body::Recursive { id, .. } = &body {
            free.push(id.clone());
        }
        for c in &children {
            size = size.saturating_add(c.0.size);
            for id in &c.0.free {
                if Some(id.as_str()) != binder && !free.contains(id) {
                    free.push(id.clone());
                }
            }
        }
        TypeCode(Arc::new(Inner { body, free, size }))
    }

    pub(crate) fn body(&self) -> &Body {
        &self.0.body
    }

    // ----- constructors -------------------------------------------------

    /// The TypeCode of a kind without parameters (`tk_long`, `tk_any`,
    /// ...); `None` for kinds that need parameters.
    pub fn basic(kind: TCKind) -> Option<TypeCode> {
        if kind.is_basic() {
            BASIC.get(kind as usize).cloned()
        } else {
            None
        }
    }

    fn basic_of(kind: TCKind) -> TypeCode {
        TypeCode::basic(kind).unwrap_or_else(|| TypeCode::build(Body::Basic(TCKind::Null)))
    }

    /// `tk_null`.
    pub fn null() -> TypeCode {
        TypeCode::basic_of(TCKind::Null)
    }
    /// `tk_void`.
    pub fn void() -> TypeCode {
        TypeCode::basic_of(TCKind::Void)
    }
    /// `tk_short`.
    pub fn short() -> TypeCode {
        TypeCode::basic_of(TCKind::Short)
    }
    /// `tk_long`.
    pub fn long() -> TypeCode {
        TypeCode::basic_of(TCKind::Long)
    }
    /// `tk_ushort`.
    pub fn ushort() -> TypeCode {
        TypeCode::basic_of(TCKind::UShort)
    }
    /// `tk_ulong`.
    pub fn ulong() -> TypeCode {
        TypeCode::basic_of(TCKind::ULong)
    }
    /// `tk_longlong`.
    pub fn longlong() -> TypeCode {
        TypeCode::basic_of(TCKind::LongLong)
    }
    /// `tk_ulonglong`.
    pub fn ulonglong() -> TypeCode {
        TypeCode::basic_of(TCKind::ULongLong)
    }
    /// `tk_float`.
    pub fn float() -> TypeCode {
        TypeCode::basic_of(TCKind::Float)
    }
    /// `tk_double`.
    pub fn double() -> TypeCode {
        TypeCode::basic_of(TCKind::Double)
    }
    /// `tk_longdouble`.
    pub fn longdouble() -> TypeCode {
        TypeCode::basic_of(TCKind::LongDouble)
    }
    /// `tk_boolean`.
    pub fn boolean() -> TypeCode {
        TypeCode::basic_of(TCKind::Boolean)
    }
    /// `tk_char`.
    pub fn char() -> TypeCode {
        TypeCode::basic_of(TCKind::Char)
    }
    /// `tk_wchar`.
    pub fn wchar() -> TypeCode {
        TypeCode::basic_of(TCKind::WChar)
    }
    /// `tk_octet`.
    pub fn octet() -> TypeCode {
        TypeCode::basic_of(TCKind::Octet)
    }
    /// `tk_any`.
    pub fn any() -> TypeCode {
        TypeCode::basic_of(TCKind::Any)
    }
    /// `tk_TypeCode`.
    pub fn tc_typecode() -> TypeCode {
        TypeCode::basic_of(TCKind::TypeCode)
    }
    /// `tk_Principal`.
    pub fn principal() -> TypeCode {
        TypeCode::basic_of(TCKind::Principal)
    }

    /// `string` with a bound (0 for unbounded).
    pub fn string(bound: u32) -> TypeCode {
        TypeCode::build(Body::String { wide: false, bound })
    }

    /// `wstring` with a bound (0 for unbounded).
    pub fn wstring(bound: u32) -> TypeCode {
        TypeCode::build(Body::String { wide: true, bound })
    }

    /// `fixed<digits, scale>`; at most 31 digits and `0 <= scale <= digits`.
    pub fn fixed(digits: u16, scale: i16) -> Result<TypeCode> {
        if digits > FIXED_MAX_DIGITS || scale < 0 || scale as u16 > digits {
            return Err(CdrError::BadTypeCode("fixed digits or scale out of range"));
        }
        Ok(TypeCode::build(Body::Fixed { digits, scale }))
    }

    /// `sequence<content, bound>` (bound 0 for unbounded).
    pub fn sequence(content: TypeCode, bound: u32) -> TypeCode {
        TypeCode::build(Body::Sequence { content, bound })
    }

    /// A one-dimensional array of `length` elements. A multidimensional
    /// array is an array of arrays, outermost dimension first.
    pub fn array(content: TypeCode, length: u32) -> TypeCode {
        TypeCode::build(Body::Array { content, length })
    }

    /// A typedef: `alias` named `name` with repository id `id` of
    /// `content`.
    pub fn alias(id: impl Into<String>, name: impl Into<String>, content: TypeCode) -> TypeCode {
        TypeCode::build(Body::Named {
            kind: TCKind::Alias,
            id: id.into(),
            name: name.into(),
            content,
        })
    }

    /// A value box of `content`.
    pub fn value_box(
        id: impl Into<String>,
        name: impl Into<String>,
        content: TypeCode,
    ) -> TypeCode {
        TypeCode::build(Body::Named {
            kind: TCKind::ValueBox,
            id: id.into(),
            name: name.into(),
            content,
        })
    }

    fn interface(kind: TCKind, id: String, name: String) -> TypeCode {
        TypeCode::build(Body::Interface { kind, id, name })
    }

    /// An object reference to an interface.
    pub fn objref(id: impl Into<String>, name: impl Into<String>) -> TypeCode {
        TypeCode::interface(TCKind::ObjRef, id.into(), name.into())
    }

    /// An abstract interface.
    pub fn abstract_interface(id: impl Into<String>, name: impl Into<String>) -> TypeCode {
        TypeCode::interface(TCKind::AbstractInterface, id.into(), name.into())
    }

    /// A local interface (never marshalled).
    pub fn local_interface(id: impl Into<String>, name: impl Into<String>) -> TypeCode {
        TypeCode::interface(TCKind::LocalInterface, id.into(), name.into())
    }

    /// A native type (never marshalled).
    pub fn native(id: impl Into<String>, name: impl Into<String>) -> TypeCode {
        TypeCode::interface(TCKind::Native, id.into(), name.into())
    }

    /// A CCM component (an object reference on the wire).
    pub fn component(id: impl Into<String>, name: impl Into<String>) -> TypeCode {
        TypeCode::interface(TCKind::Component, id.into(), name.into())
    }

    /// A CCM home (an object reference on the wire).
    pub fn home(id: impl Into<String>, name: impl Into<String>) -> TypeCode {
        TypeCode::interface(TCKind::Home, id.into(), name.into())
    }

    fn struct_like<N: Into<String>>(
        kind: TCKind,
        id: String,
        name: String,
        members: impl IntoIterator<Item = (N, TypeCode)>,
    ) -> TypeCode {
        let members = members.into_iter().map(|(n, t)| (n.into(), t)).collect();
        TypeCode::build(Body::Struct {
            kind,
            id,
            name,
            members,
        })
    }

    /// A struct with `(name, type)` members.
    pub fn struct_tc<N: Into<String>>(
        id: impl Into<String>,
        name: impl Into<String>,
        members: impl IntoIterator<Item = (N, TypeCode)>,
    ) -> TypeCode {
        TypeCode::struct_like(TCKind::Struct, id.into(), name.into(), members)
    }

    /// A user exception with `(name, type)` members.
    pub fn exception_tc<N: Into<String>>(
        id: impl Into<String>,
        name: impl Into<String>,
        members: impl IntoIterator<Item = (N, TypeCode)>,
    ) -> TypeCode {
        TypeCode::struct_like(TCKind::Except, id.into(), name.into(), members)
    }

    /// An enum with its enumerator names, in order.
    pub fn enum_tc<N: Into<String>>(
        id: impl Into<String>,
        name: impl Into<String>,
        members: impl IntoIterator<Item = N>,
    ) -> TypeCode {
        TypeCode::build(Body::Enum {
            id: id.into(),
            name: name.into(),
            members: members.into_iter().map(Into::into).collect(),
        })
    }

    /// A union. The discriminator type (aliases allowed) must be an
    /// integer, `char`, `wchar`, `boolean`, `octet` or enum type; every
    /// label must be a value of it, labels must be distinct, and at most
    /// one member may be the default.
    pub fn union_tc(
        id: impl Into<String>,
        name: impl Into<String>,
        discriminator: TypeCode,
        members: Vec<UnionMember>,
    ) -> Result<TypeCode> {
        if !value::is_discriminator_type(&discriminator) {
            return Err(CdrError::BadTypeCode("invalid union discriminator type"));
        }
        let mut default_index = -1i32;
        let mut seen = std::collections::HashSet::new();
        for (i, m) in members.iter().enumerate() {
            match &m.label {
                None => {
                    if default_index >= 0 {
                        return Err(CdrError::BadTypeCode("union has two default members"));
                    }
                    default_index = i32::try_from(i)
                        .map_err(|_| CdrError::BadTypeCode("too many union members"))?;
                }
                Some(label) => {
                    let key = value::label_key(&discriminator, label)?;
                    if !seen.insert(key) {
                        return Err(CdrError::BadTypeCode("duplicate union label"));
                    }
                }
            }
        }
        Ok(TypeCode::build(Body::Union {
            id: id.into(),
            name: name.into(),
            discriminator,
            default_index,
            members,
        }))
    }

    fn value_like(
        kind: TCKind,
        id: String,
        name: String,
        modifier: i16,
        base: Option<TypeCode>,
        members: Vec<ValueMember>,
    ) -> TypeCode {
        TypeCode::build(Body::Value {
            kind,
            id,
            name,
            modifier,
            base,
            members,
        })
    }

    /// A valuetype: its modifier ([`VM_NONE`], ...), its concrete base
    /// valuetype if any, and its own state members.
    pub fn value_tc(
        id: impl Into<String>,
        name: impl Into<String>,
        modifier: i16,
        concrete_base: Option<TypeCode>,
        members: Vec<ValueMember>,
    ) -> TypeCode {
        TypeCode::value_like(
            TCKind::Value,
            id.into(),
            name.into(),
            modifier,
            concrete_base,
            members,
        )
    }

    /// An eventtype (laid out like a valuetype).
    pub fn event_tc(
        id: impl Into<String>,
        name: impl Into<String>,
        modifier: i16,
        concrete_base: Option<TypeCode>,
        members: Vec<ValueMember>,
    ) -> TypeCode {
        TypeCode::value_like(
            TCKind::Event,
            id.into(),
            name.into(),
            modifier,
            concrete_base,
            members,
        )
    }

    /// A placeholder for the enclosing struct, union, valuetype, eventtype
    /// or value box of kind `kind` and repository id `id`, for use inside
    /// that type's own definition (CORBA `create_recursive_tc`). See the
    /// module documentation.
    pub fn recursive(kind: TCKind, id: impl Into<String>) -> Result<TypeCode> {
        if !kind.can_recurse() {
            return Err(CdrError::BadTypeCode(
                "only struct, union, value, event and value box types can recurse",
            ));
        }
        Ok(TypeCode::build(Body::Recursive {
            kind,
            id: id.into(),
        }))
    }

    // ----- accessors ----------------------------------------------------

    /// The kind. A recursive placeholder reports the kind of the type it
    /// stands for.
    pub fn kind(&self) -> TCKind {
        match &self.0.body {
            Body::Basic(k) => *k,
            Body::String { wide: false, .. } => TCKind::String,
            Body::String { wide: true, .. } => TCKind::WString,
            Body::Fixed { .. } => TCKind::Fixed,
            Body::Sequence { .. } => TCKind::Sequence,
            Body::Array { .. } => TCKind::Array,
            Body::Named { kind, .. }
            | Body::Interface { kind, .. }
            | Body::Struct { kind, .. }
            | Body::Value { kind, .. }
            | Body::Recursive { kind, .. } => *kind,
            Body::Union { .. } => TCKind::Union,
            Body::Enum { .. } => TCKind::Enum,
        }
    }

    /// Whether this is an unresolved recursive placeholder.
    pub fn is_recursive_placeholder(&self) -> bool {
        matches!(self.0.body, Body::Recursive { .. })
    }

    /// The repository id (objref, struct, union, enum, alias, except,
    /// value, value box, native, abstract and local interface, component,
    /// home, event; and recursive placeholders).
    pub fn id(&self) -> Option<&str> {
        match &self.0.body {
            Body::Named { id, .. }
            | Body::Interface { id, .. }
            | Body::Struct { id, .. }
            | Body::Union { id, .. }
            | Body::Enum { id, .. }
            | Body::Value { id, .. }
            | Body::Recursive { id, .. } => Some(id),
            _ => None,
        }
    }

    /// The simple name, for the kinds that have a repository id.
    pub fn name(&self) -> Option<&str> {
        match &self.0.body {
            Body::Named { name, .. }
            | Body::Interface { name, .. }
            | Body::Struct { name, .. }
            | Body::Union { name, .. }
            | Body::Enum { name, .. }
            | Body::Value { name, .. } => Some(name),
            _ => None,
        }
    }

    /// The number of members (struct, union, enum, except, value, event).
    pub fn member_count(&self) -> Option<usize> {
        match &self.0.body {
            Body::Struct { members, .. } => Some(members.len()),
            Body::Union { members, .. } => Some(members.len()),
            Body::Enum { members, .. } => Some(members.len()),
            Body::Value { members, .. } => Some(members.len()),
            _ => None,
        }
    }

    /// The name of member `index`.
    pub fn member_name(&self, index: usize) -> Option<&str> {
        match &self.0.body {
            Body::Struct { members, .. } => members.get(index).map(|m| m.0.as_str()),
            Body::Union { members, .. } => members.get(index).map(|m| m.name.as_str()),
            Body::Enum { members, .. } => members.get(index).map(String::as_str),
            Body::Value { members, .. } => members.get(index).map(|m| m.name.as_str()),
            _ => None,
        }
    }

    /// The type of member `index` (struct, union, except, value, event),
    /// with recursive references to this type resolved.
    pub fn member_type(&self, index: usize) -> Option<TypeCode> {
        self.member_type_ref(index)
            .map(|t| self.resolve_child(t).into_owned())
    }

    pub(crate) fn member_type_ref(&self, index: usize) -> Option<&TypeCode> {
        match &self.0.body {
            Body::Struct { members, .. } => members.get(index).map(|m| &m.1),
            Body::Union { members, .. } => members.get(index).map(|m| &m.type_code),
            Body::Value { members, .. } => members.get(index).map(|m| &m.type_code),
            _ => None,
        }
    }

    /// The label of union member `index`, a value of the discriminator
    /// type; the default member's label is the octet 0, as CORBA has it.
    pub fn member_label(&self, index: usize) -> Option<Value> {
        match &self.0.body {
            Body::Union { members, .. } => members
                .get(index)
                .map(|m| m.label.clone().unwrap_or(Value::Octet(0))),
            _ => None,
        }
    }

    /// The visibility of valuetype member `index` ([`PUBLIC_MEMBER`] or
    /// [`PRIVATE_MEMBER`]).
    pub fn member_visibility(&self, index: usize) -> Option<i16> {
        match &self.0.body {
            Body::Value { members, .. } => members.get(index).map(|m| m.visibility),
            _ => None,
        }
    }

    /// The discriminator type of a union.
    pub fn discriminator_type(&self) -> Option<TypeCode> {
        match &self.0.body {
            Body::Union { discriminator, .. } => Some(discriminator.clone()),
            _ => None,
        }
    }

    /// The index of a union's default member, or -1 if it has none.
    pub fn default_index(&self) -> Option<i32> {
        match &self.0.body {
            Body::Union { default_index, .. } => Some(*default_index),
            _ => None,
        }
    }

    /// The bound of a string, wstring or sequence (0 for unbounded), or
    /// the length of an array.
    pub fn length(&self) -> Option<u32> {
        match &self.0.body {
            Body::String { bound, .. } | Body::Sequence { bound, .. } => Some(*bound),
            Body::Array { length, .. } => Some(*length),
            _ => None,
        }
    }

    /// The element type of a sequence or array, the aliased type of an
    /// alias, or the boxed type of a value box.
    pub fn content_type(&self) -> Option<TypeCode> {
        match &self.0.body {
            Body::Sequence { content, .. } | Body::Array { content, .. } => Some(content.clone()),
            Body::Named { content, .. } => Some(self.resolve_child(content).into_owned()),
            _ => None,
        }
    }

    /// The digits of a fixed type.
    pub fn fixed_digits(&self) -> Option<u16> {
        match &self.0.body {
            Body::Fixed { digits, .. } => Some(*digits),
            _ => None,
        }
    }

    /// The scale of a fixed type.
    pub fn fixed_scale(&self) -> Option<i16> {
        match &self.0.body {
            Body::Fixed { scale, .. } => Some(*scale),
            _ => None,
        }
    }

    /// The `ValueModifier` of a valuetype or eventtype.
    pub fn type_modifier(&self) -> Option<i16> {
        match &self.0.body {
            Body::Value { modifier, .. } => Some(*modifier),
            _ => None,
        }
    }

    /// The concrete base of a valuetype or eventtype; `Some(None)` when
    /// it has none (CORBA returns a nil TypeCode there).
    pub fn concrete_base_type(&self) -> Option<Option<TypeCode>> {
        match &self.0.body {
            Body::Value { base, .. } => {
                Some(base.as_ref().map(|b| self.resolve_child(b).into_owned()))
            }
            _ => None,
        }
    }

    /// This TypeCode with every alias at the top stripped.
    pub fn unalias(&self) -> &TypeCode {
        let mut tc = self;
        // Alias chains are finite trees; no loop is possible.
        while let Body::Named {
            kind: TCKind::Alias,
            content,
            ..
        } = &tc.0.body
        {
            tc = content;
        }
        tc
    }

    /// `child` (a direct part of `self`) with placeholders that `self`
    /// binds replaced by `self`.
    pub(crate) fn resolve_child<'a>(&'a self, child: &'a TypeCode) -> Cow<'a, TypeCode> {
        let binds = match &self.0.body {
            Body::Struct { id, .. } | Body::Union { id, .. } | Body::Value { id, .. } => Some(id),
            Body::Named {
                kind: TCKind::ValueBox,
                id,
                ..
            } => Some(id),
            _ => None,
        };
        match binds {
            Some(id) if child.0.free.contains(id) => Cow::Owned(embed(child, id, self)),
            _ => Cow::Borrowed(child),
        }
    }

    // ----- comparison -----------------------------------------------------

    /// Whether two TypeCodes are equal in the sense of CORBA's
    /// `TypeCode::equal`: same kind and every parameter the same, names
    /// and aliases included. A recursive placeholder equals a TypeCode of
    /// the same kind and repository id.
    pub fn equal(&self, other: &TypeCode) -> bool {
        if Arc::ptr_eq(&self.0, &other.0) {
            return true;
        }
        compare(self, other, false)
    }

    /// Whether two TypeCodes are equivalent in the sense of CORBA's
    /// `TypeCode::equivalent`: aliases are stripped at every level, names
    /// are ignored, and two types that both have a non-empty repository id
    /// are equivalent exactly when the ids are.
    pub fn equivalent(&self, other: &TypeCode) -> bool {
        if Arc::ptr_eq(&self.0, &other.0) {
            return true;
        }
        compare(self, other, true)
    }

    /// The TypeCode with all optional names and member names removed
    /// (CORBA `get_compact_typecode`); repository ids and aliases stay.
    pub fn get_compact_typecode(&self) -> TypeCode {
        map_children(self, &mut |t| Some(t.get_compact_typecode()), true)
    }
}

/// Rebuilds `tc` with `f` applied to every direct child TypeCode (if `f`
/// returns `None` the child is kept); with `strip`, names are emptied too.
fn map_children(
    tc: &TypeCode,
    f: &mut dyn FnMut(&TypeCode) -> Option<TypeCode>,
    strip: bool,
) -> TypeCode {
    let mut g = |t: &TypeCode| f(t).unwrap_or_else(|| t.clone());
    let nm = |s: &String| if strip { String::new() } else { s.clone() };
    let body = match &tc.0.body {
        Body::Basic(_) | Body::String { .. } | Body::Fixed { .. } | Body::Recursive { .. } => {
            return tc.clone();
        }
        Body::Interface { kind, id, name } => Body::Interface {
            kind: *kind,
            id: id.clone(),
            name: nm(name),
        },
        Body::Sequence { content, bound } => Body::Sequence {
            content: g(content),
            bound: *bound,
        },
        Body::Array { content, length } => Body::Array {
            content: g(content),
            length: *length,
        },
        Body::Named {
            kind,
            id,
            name,
            content,
        } => Body::Named {
            kind: *kind,
            id: id.clone(),
            name: nm(name),
            content: g(content),
        },
        Body::Struct {
            kind,
            id,
            name,
            members,
        } => Body::Struct {
            kind: *kind,
            id: id.clone(),
            name: nm(name),
            members: members.iter().map(|(n, t)| (nm(n), g(t))).collect(),
        },
        Body::Union {
            id,
            name,
            discriminator,
            default_index,
            members,
        } => Body::Union {
            id: id.clone(),
            name: nm(name),
            discriminator: g(discriminator),
            default_index: *default_index,
            members: members
                .iter()
                .map(|m| UnionMember {
                    label: m.label.clone(),
                    name: nm(&m.name),
                    type_code: g(&m.type_code),
                })
                .collect(),
        },
        Body::Enum { id, name, members } => Body::Enum {
            id: id.clone(),
            name: nm(name),
            members: members.iter().map(nm).collect(),
        },
        Body::Value {
            kind,
            id,
            name,
            modifier,
            base,
            members,
        } => Body::Value {
            kind: *kind,
            id: id.clone(),
            name: nm(name),
            modifier: *modifier,
            base: base.as_ref().map(&mut g),
            members: members
                .iter()
                .map(|m| ValueMember {
                    name: nm(&m.name),
                    type_code: g(&m.type_code),
                    visibility: m.visibility,
                })
                .collect(),
        },
    };
    TypeCode::build(body)
}

/// Replaces the free placeholders with id `id` in `tc` by `target`.
fn embed(tc: &TypeCode, id: &str, target: &TypeCode) -> TypeCode {
    if !tc.0.free.iter().any(|f| f == id) {
        return tc.clone();
    }
    if let Body::Recursive { id: pid, .. } = &tc.0.body
        && pid == id
    {
        return target.clone();
    }
    map_children(tc, &mut |t| Some(embed(t, id, target)), false)
}

fn compare(a: &TypeCode, b: &TypeCode, equiv: bool) -> bool {
    let (a, b) = if equiv {
        (a.unalias(), b.unalias())
    } else {
        (a, b)
    };
    if Arc::ptr_eq(&a.0, &b.0) {
        return true;
    }
    if a.kind() != b.kind() {
        return false;
    }
    if a.is_recursive_placeholder() || b.is_recursive_placeholder() {
        return a.id() == b.id();
    }
    if equiv
        && let (Some(x), Some(y)) = (a.id(), b.id())
        && !x.is_empty()
        && !y.is_empty()
    {
        return x == y;
    }
    let names = |x: &str, y: &str| equiv || x == y;
    let tc = |x: &TypeCode, y: &TypeCode| compare(x, y, equiv);
    match (&a.0.body, &b.0.body) {
        (Body::Basic(_), Body::Basic(_)) => true,
        (Body::String { bound: x, .. }, Body::String { bound: y, .. }) => x == y,
        (
            Body::Fixed {
                digits: d1,
                scale: s1,
            },
            Body::Fixed {
                digits: d2,
                scale: s2,
            },
        ) => d1 == d2 && s1 == s2,
        (
            Body::Sequence {
                content: c1,
                bound: b1,
            },
            Body::Sequence {
                content: c2,
                bound: b2,
            },
        ) => b1 == b2 && tc(c1, c2),
        (
            Body::Array {
                content: c1,
                length: l1,
            },
            Body::Array {
                content: c2,
                length: l2,
            },
        ) => l1 == l2 && tc(c1, c2),
        (
            Body::Named {
                id: i1,
                name: n1,
                content: c1,
                ..
            },
            Body::Named {
                id: i2,
                name: n2,
                content: c2,
                ..
            },
        ) => (equiv || i1 == i2) && names(n1, n2) && tc(c1, c2),
        (
            Body::Interface {
                id: i1, name: n1, ..
            },
            Body::Interface {
                id: i2, name: n2, ..
            },
        ) => i1 == i2 && names(n1, n2),
        (
            Body::Struct {
                id: i1,
                name: n1,
                members: m1,
                ..
            },
            Body::Struct {
                id: i2,
                name: n2,
                members: m2,
                ..
            },
        ) => {
            (equiv || i1 == i2)
                && names(n1, n2)
                && m1.len() == m2.len()
                && m1
                    .iter()
                    .zip(m2)
                    .all(|(x, y)| names(&x.0, &y.0) && tc(&x.1, &y.1))
        }
        (
            Body::Union {
                id: i1,
                name: n1,
                discriminator: d1,
                default_index: x1,
                members: m1,
            },
            Body::Union {
                id: i2,
                name: n2,
                discriminator: d2,
                default_index: x2,
                members: m2,
            },
        ) => {
            (equiv || i1 == i2)
                && names(n1, n2)
                && x1 == x2
                && tc(d1, d2)
                && m1.len() == m2.len()
                && m1.iter().zip(m2).all(|(x, y)| {
                    x.label == y.label && names(&x.name, &y.name) && tc(&x.type_code, &y.type_code)
                })
        }
        (
            Body::Enum {
                id: i1,
                name: n1,
                members: m1,
            },
            Body::Enum {
                id: i2,
                name: n2,
                members: m2,
            },
        ) => {
            (equiv || i1 == i2)
                && names(n1, n2)
                && m1.len() == m2.len()
                && m1.iter().zip(m2).all(|(x, y)| names(x, y))
        }
        (
            Body::Value {
                id: i1,
                name: n1,
                modifier: v1,
                base: b1,
                members: m1,
                ..
            },
            Body::Value {
                id: i2,
                name: n2,
                modifier: v2,
                base: b2,
                members: m2,
                ..
            },
        ) => {
            (equiv || i1 == i2)
                && names(n1, n2)
                && v1 == v2
                && match (b1, b2) {
                    (None, None) => true,
                    (Some(x), Some(y)) => tc(x, y),
                    _ => false,
                }
                && m1.len() == m2.len()
                && m1.iter().zip(m2).all(|(x, y)| {
                    names(&x.name, &y.name)
                        && x.visibility == y.visibility
                        && tc(&x.type_code, &y.type_code)
                })
        }
        _ => false,
    }
}

// ----- encoding ------------------------------------------------------------

struct Enclosing<'a> {
    kind: TCKind,
    id: &'a str,
    at: usize,
}

impl TypeCode {
    fn encode_in<'a>(&'a self, enc: &mut Encoder, stack: &mut Vec<Enclosing<'a>>) -> Result<()> {
        enc.align(4);
        let at = enc.len();
        if let Body::Recursive { kind, id } = &self.0.body {
            let target = stack
                .iter()
                .rev()
                .find(|e| e.id == id.as_str())
                .filter(|e| e.kind == *kind)
                .ok_or(CdrError::BadTypeCode("recursive TypeCode outside its type"))?;
            enc.write_u32(TCKind::INDIRECTION);
            let offset = target.at as i64 - enc.len() as i64;
            let offset =
                i32::try_from(offset).map_err(|_| CdrError::BadTypeCode("indirection too far"))?;
            enc.write_i32(offset);
            return Ok(());
        }
        let kind = self.kind();
        enc.write_u32(kind.to_u32());
        match &self.0.body {
            Body::Basic(_) | Body::Recursive { .. } => Ok(()),
            Body::String { bound, .. } => {
                enc.write_u32(*bound);
                Ok(())
            }
            Body::Fixed { digits, scale } => {
                enc.write_u16(*digits);
                enc.write_i16(*scale);
                Ok(())
            }
            Body::Sequence { content, bound } => enc.write_encapsulation(|e| {
                content.encode_in(e, stack)?;
                e.write_u32(*bound);
                Ok(())
            }),
            Body::Array { content, length } => enc.write_encapsulation(|e| {
                content.encode_in(e, stack)?;
                e.write_u32(*length);
                Ok(())
            }),
            Body::Named {
                id, name, content, ..
            } => {
                let bind = kind == TCKind::ValueBox;
                enc.write_encapsulation(|e| {
                    e.write_string(id)?;
                    e.write_string(name)?;
                    if bind {
                        stack.push(Enclosing { kind, id, at });
                    }
                    let r = content.encode_in(e, stack);
                    if bind {
                        stack.pop();
                    }
                    r
                })
            }
            Body::Interface { id, name, .. } => enc.write_encapsulation(|e| {
                e.write_string(id)?;
                e.write_string(name)
            }),
            Body::Struct {
                id, name, members, ..
            } => enc.write_encapsulation(|e| {
                e.write_string(id)?;
                e.write_string(name)?;
                e.write_len(members.len())?;
                stack.push(Enclosing { kind, id, at });
                let r = members.iter().try_for_each(|(n, t)| {
                    e.write_string(n)?;
                    t.encode_in(e, stack)
                });
                stack.pop();
                r
            }),
            Body::Union {
                id,
                name,
                discriminator,
                default_index,
                members,
            } => enc.write_encapsulation(|e| {
                e.write_string(id)?;
                e.write_string(name)?;
                discriminator.encode_in(e, stack)?;
                e.write_i32(*default_index);
                e.write_len(members.len())?;
                stack.push(Enclosing { kind, id, at });
                let r = members.iter().try_for_each(|m| {
                    match &m.label {
                        Some(l) => l.encode(discriminator, e)?,
                        None => e.write_u8(0),
                    }
                    e.write_string(&m.name)?;
                    m.type_code.encode_in(e, stack)
                });
                stack.pop();
                r
            }),
            Body::Enum { id, name, members } => enc.write_encapsulation(|e| {
                e.write_string(id)?;
                e.write_string(name)?;
                e.write_len(members.len())?;
                members.iter().try_for_each(|n| e.write_string(n))
            }),
            Body::Value {
                id,
                name,
                modifier,
                base,
                members,
                ..
            } => enc.write_encapsulation(|e| {
                e.write_string(id)?;
                e.write_string(name)?;
                e.write_i16(*modifier);
                stack.push(Enclosing { kind, id, at });
                let r = (|| {
                    match base {
                        Some(b) => b.encode_in(e, stack)?,
                        None => {
                            e.align(4);
                            e.write_u32(TCKind::Null.to_u32());
                        }
                    }
                    e.write_len(members.len())?;
                    members.iter().try_for_each(|m| {
                        e.write_string(&m.name)?;
                        m.type_code.encode_in(e, stack)?;
                        e.write_i16(m.visibility);
                        Ok(())
                    })
                })();
                stack.pop();
                r
            }),
        }
    }
}

/// Writes the TypeCode in the standard CDR layout; recursive placeholders
/// become indirections to their enclosing TypeCode.
impl CdrEncode for TypeCode {
    fn encode(&self, enc: &mut Encoder) -> Result<()> {
        let mut stack = Vec::new();
        self.encode_in(enc, &mut stack)
    }
}

// ----- decoding ------------------------------------------------------------

/// How many times larger than its encoding a TypeCode that uses repeated
/// indirections may become once every shared part is counted.
const MAX_EXPANSION: u64 = 16;

#[derive(Default)]
struct DecodeState {
    /// TypeCodes being decoded, outermost first: (stream offset, kind, id).
    open: Vec<(usize, TCKind, String)>,
    /// Complete TypeCodes by the stream offset of their kind.
    done: HashMap<usize, TypeCode>,
    shared: bool,
}

/// Reads a TypeCode. Indirections may point at an enclosing TypeCode
/// (recursion) or at any complete TypeCode read earlier within the same
/// outermost TypeCode; anything else is [`CdrError::BadIndirection`].
impl CdrDecode for TypeCode {
    const MIN_WIRE_SIZE: usize = 4;

    fn decode(dec: &mut Decoder) -> Result<TypeCode> {
        let start = dec.stream_offset();
        let mut state = DecodeState::default();
        let tc = decode_tc(dec, &mut state)?;
        if state.shared {
            let used = (dec.stream_offset() - start) as u64;
            if tc.0.size > used.saturating_mul(MAX_EXPANSION).saturating_add(4096) {
                return Err(CdrError::BadTypeCode(
                    "repeated indirections expand the TypeCode too much",
                ));
            }
        }
        Ok(tc)
    }
}

fn decode_tc(dec: &mut Decoder, st: &mut DecodeState) -> Result<TypeCode> {
    dec.enter()?;
    let r = decode_tc_inner(dec, st);
    dec.leave();
    r
}

fn indirection(dec: &mut Decoder, st: &mut DecodeState) -> Result<TypeCode> {
    let off_at = dec.stream_offset();
    let offset = dec.read_i32()?;
    let bad = CdrError::BadIndirection(offset as i64);
    if offset >= -4 {
        return Err(bad);
    }
    let target = usize::try_from(off_at as i64 + offset as i64).map_err(|_| bad.clone())?;
    if let Some(pos) = st.open.iter().rposition(|o| o.0 == target) {
        let (_, kind, id) = &st.open[pos];
        if !kind.can_recurse() {
            return Err(bad);
        }
        // The placeholder binds to the innermost enclosing type with its id,
        // which must be the one the indirection names.
        if st.open[pos + 1..]
            .iter()
            .any(|o| o.2 == *id && o.1.can_recurse())
        {
            return Err(CdrError::BadTypeCode("ambiguous recursive TypeCode"));
        }
        return TypeCode::recursive(*kind, id.clone());
    }
    if let Some(tc) = st.done.get(&target) {
        let bound =
            tc.0.free
                .iter()
                .all(|f| st.open.iter().any(|o| &o.2 == f && o.1.can_recurse()));
        if !bound {
            return Err(bad);
        }
        st.shared = true;
        return Ok(tc.clone());
    }
    Err(bad)
}

fn read_member_count(d: &mut Decoder, min_size: usize) -> Result<usize> {
    d.read_len(min_size)
}

fn decode_tc_inner(dec: &mut Decoder, st: &mut DecodeState) -> Result<TypeCode> {
    dec.align(4)?;
    let at = dec.stream_offset();
    let raw = dec.read_u32()?;
    if raw == TCKind::INDIRECTION {
        return indirection(dec, st);
    }
    let kind = TCKind::from_u32(raw).ok_or(CdrError::BadTypeCode("unknown TCKind"))?;
    let tc = match kind {
        k if k.is_basic() => TypeCode::basic_of(k),
        TCKind::String => TypeCode::string(dec.read_u32()?),
        TCKind::WString => TypeCode::wstring(dec.read_u32()?),
        TCKind::Fixed => {
            let digits = dec.read_u16()?;
            let scale = dec.read_i16()?;
            TypeCode::fixed(digits, scale)?
        }
        _ => {
            let mut d = dec.read_encapsulation()?;
            decode_complex(kind, at, &mut d, st)?
        }
    };
    st.done.insert(at, tc.clone());
    Ok(tc)
}

fn with_open<T>(
    st: &mut DecodeState,
    at: usize,
    kind: TCKind,
    id: &str,
    f: impl FnOnce(&mut DecodeState) -> Result<T>,
) -> Result<T> {
    st.open.push((at, kind, id.to_owned()));
    let r = f(st);
    st.open.pop();
    r
}

fn decode_complex(
    kind: TCKind,
    at: usize,
    d: &mut Decoder,
    st: &mut DecodeState,
) -> Result<TypeCode> {
    match kind {
        TCKind::Sequence | TCKind::Array => {
            let content = decode_tc(d, st)?;
            let n = d.read_u32()?;
            Ok(if kind == TCKind::Sequence {
                TypeCode::sequence(content, n)
            } else {
                TypeCode::array(content, n)
            })
        }
        TCKind::ObjRef
        | TCKind::Native
        | TCKind::AbstractInterface
        | TCKind::LocalInterface
        | TCKind::Component
        | TCKind::Home => {
            let id = d.read_string()?;
            let name = d.read_string()?;
            Ok(TypeCode::interface(kind, id, name))
        }
        TCKind::Alias | TCKind::ValueBox => {
            let id = d.read_string()?;
            let name = d.read_string()?;
            let content = with_open(st, at, kind, &id, |st| decode_tc(d, st))?;
            Ok(TypeCode::build(Body::Named {
                kind,
                id,
                name,
                content,
            }))
        }
        TCKind::Struct | TCKind::Except => {
            let id = d.read_string()?;
            let name = d.read_string()?;
            let n = read_member_count(d, 9)?;
            let members = with_open(st, at, kind, &id, |st| {
                let mut members = Vec::with_capacity(n);
                for _ in 0..n {
                    let mname = d.read_string()?;
                    members.push((mname, decode_tc(d, st)?));
                }
                Ok(members)
            })?;
            Ok(TypeCode::build(Body::Struct {
                kind,
                id,
                name,
                members,
            }))
        }
        TCKind::Enum => {
            let id = d.read_string()?;
            let name = d.read_string()?;
            let n = read_member_count(d, 5)?;
            let mut members = Vec::with_capacity(n);
            for _ in 0..n {
                members.push(d.read_string()?);
            }
            Ok(TypeCode::enum_tc(id, name, members))
        }
        TCKind::Union => {
            let id = d.read_string()?;
            let name = d.read_string()?;
            let (disc, members) = with_open(st, at, kind, &id, |st| {
                let disc = decode_tc(d, st)?;
                if !value::is_discriminator_type(&disc) {
                    return Err(CdrError::BadTypeCode("invalid union discriminator type"));
                }
                let default_index = d.read_i32()?;
                let n = read_member_count(d, 10)?;
                if default_index < -1 || (default_index >= 0 && default_index as usize >= n) {
                    return Err(CdrError::BadTypeCode("union default index out of range"));
                }
                let mut members = Vec::with_capacity(n);
                for i in 0..n {
                    let label = if i as i64 == default_index as i64 {
                        d.read_u8()?;
                        None
                    } else {
                        Some(Value::decode(&disc, d)?)
                    };
                    let mname = d.read_string()?;
                    let t = decode_tc(d, st)?;
                    members.push(UnionMember {
                        label,
                        name: mname,
                        type_code: t,
                    });
                }
                Ok((disc, members))
            })?;
            TypeCode::union_tc(id, name, disc, members)
        }
        TCKind::Value | TCKind::Event => {
            let id = d.read_string()?;
            let name = d.read_string()?;
            let modifier = d.read_i16()?;
            let (base, members) = with_open(st, at, kind, &id, |st| {
                let base = decode_tc(d, st)?;
                let base = match base.kind() {
                    TCKind::Null => None,
                    TCKind::Value | TCKind::Event => Some(base),
                    _ => return Err(CdrError::BadTypeCode("concrete base is not a valuetype")),
                };
                let n = read_member_count(d, 11)?;
                let mut members = Vec::with_capacity(n);
                for _ in 0..n {
                    let mname = d.read_string()?;
                    let t = decode_tc(d, st)?;
                    let visibility = d.read_i16()?;
                    members.push(ValueMember {
                        name: mname,
                        type_code: t,
                        visibility,
                    });
                }
                Ok((base, members))
            })?;
            Ok(TypeCode::value_like(
                kind, id, name, modifier, base, members,
            ))
        }
        _ => Err(CdrError::BadTypeCode("unknown TCKind")),
    }
}
