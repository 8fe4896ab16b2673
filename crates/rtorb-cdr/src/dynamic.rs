//! The types of IDL data whose type is known only at run time: a
//! [`TypeCode`] describes a type, a [`Value`] is a value of one, an
//! [`Any`] holds a value with its TypeCode.
//!
//! The three contain each other (a union TypeCode's labels are values; a
//! value may be a TypeCode or an Any; an Any holds a TypeCode and,
//! decoded, a value), so they are declared together here. What they do
//! is in [`crate::typecode`], [`crate::value`] and [`crate::any`].

use std::sync::Arc;

use bytes::Bytes;

use crate::order::Encoding;
use crate::typecode::kind::TCKind;
use crate::types::{Fixed, Ior, LongDouble};

/// A sequence or array of a numeric primitive type, held unboxed.
#[derive(Debug, Clone, PartialEq)]
pub enum PrimSeq {
    /// `short` elements.
    Short(Vec<i16>),
    /// `unsigned short` elements.
    UShort(Vec<u16>),
    /// `long` elements.
    Long(Vec<i32>),
    /// `unsigned long` elements.
    ULong(Vec<u32>),
    /// `long long` elements.
    LongLong(Vec<i64>),
    /// `unsigned long long` elements.
    ULongLong(Vec<u64>),
    /// `float` elements.
    Float(Vec<f32>),
    /// `double` elements.
    Double(Vec<f64>),
}

impl PrimSeq {
    /// The number of elements.
    pub fn len(&self) -> usize {
        match self {
            PrimSeq::Short(v) => v.len(),
            PrimSeq::UShort(v) => v.len(),
            PrimSeq::Long(v) => v.len(),
            PrimSeq::ULong(v) => v.len(),
            PrimSeq::LongLong(v) => v.len(),
            PrimSeq::ULongLong(v) => v.len(),
            PrimSeq::Float(v) => v.len(),
            PrimSeq::Double(v) => v.len(),
        }
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The element kind.
    pub fn kind(&self) -> TCKind {
        match self {
            PrimSeq::Short(_) => TCKind::Short,
            PrimSeq::UShort(_) => TCKind::UShort,
            PrimSeq::Long(_) => TCKind::Long,
            PrimSeq::ULong(_) => TCKind::ULong,
            PrimSeq::LongLong(_) => TCKind::LongLong,
            PrimSeq::ULongLong(_) => TCKind::ULongLong,
            PrimSeq::Float(_) => TCKind::Float,
            PrimSeq::Double(_) => TCKind::Double,
        }
    }
}

/// A dynamically typed IDL value, interpreted by a [`TypeCode`].
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A value of `tk_null`; also a null valuetype, value box or abstract
    /// interface.
    Null,
    /// A value of `tk_void`.
    Void,
    /// `boolean`.
    Boolean(bool),
    /// `char`.
    Char(char),
    /// `wchar`.
    WChar(char),
    /// `octet`.
    Octet(u8),
    /// `short`.
    Short(i16),
    /// `unsigned short`.
    UShort(u16),
    /// `long`.
    Long(i32),
    /// `unsigned long`.
    ULong(u32),
    /// `long long`.
    LongLong(i64),
    /// `unsigned long long`.
    ULongLong(u64),
    /// `float`.
    Float(f32),
    /// `double`.
    Double(f64),
    /// `long double`.
    LongDouble(LongDouble),
    /// `fixed`; on encoding it is rescaled to the TypeCode's digits and
    /// scale if that loses nothing.
    Fixed(Fixed),
    /// `string`.
    String(String),
    /// `wstring`.
    WString(String),
    /// An enum value: the ordinal of the enumerator.
    Enum(u32),
    /// A sequence, element by element.
    Sequence(Vec<Value>),
    /// An array, element by element (a multidimensional array nests).
    Array(Vec<Value>),
    /// A sequence or array of `octet` (also `tk_Principal`), as a slice of
    /// the message it came in.
    Octets(Bytes),
    /// A sequence or array of a numeric primitive type.
    Primitives(PrimSeq),
    /// The members of a struct or exception, in order.
    Struct(Vec<Value>),
    /// A union.
    Union {
        /// The discriminator, a value of the discriminator type.
        discriminator: Box<Value>,
        /// The index of the member the discriminator selects (the default
        /// member if no label matches); `None` if it selects none.
        member: Option<usize>,
        /// The selected member's value.
        value: Option<Box<Value>>,
    },
    /// An object reference (objref, component, home, or an abstract
    /// interface that carries a reference).
    ObjRef(Ior),
    /// A `TypeCode`.
    TypeCode(TypeCode),
    /// An `any`.
    Any(Box<Any>),
    /// A non-null valuetype or eventtype: its state members, those of its
    /// concrete bases first. (A value box holds its boxed value directly.)
    ValueType(Vec<Value>),
}

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

/// A state member of a valuetype TypeCode.
#[derive(Debug, Clone, PartialEq)]
pub struct ValueMember {
    /// The member name (may be empty).
    pub name: String,
    /// The member type.
    pub type_code: TypeCode,
    /// [`PUBLIC_MEMBER`](crate::typecode::PUBLIC_MEMBER) or [`PRIVATE_MEMBER`](crate::typecode::PRIVATE_MEMBER).
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

fn str_size(s: &str) -> u64 {
    s.len() as u64 + 8
}

impl TypeCode {
    /// The TypeCode of `body`, with what is derived from it: the
    /// placeholders it leaves free and its expanded size.
    pub(crate) fn build(body: Body) -> TypeCode {
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

    /// What the TypeCode says, by kind.
    pub(crate) fn body(&self) -> &Body {
        &self.0.body
    }

    /// The ids of recursive placeholders in this tree that it does not
    /// bind.
    pub(crate) fn free(&self) -> &[String] {
        &self.0.free
    }

    /// An estimate of the encoded size with every shared subtree written
    /// out (see [`crate::typecode`]'s decoder).
    pub(crate) fn size(&self) -> u64 {
        self.0.size
    }

    /// Whether both are the same node (a clone of one another).
    pub(crate) fn same(&self, other: &TypeCode) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// What an [`Any`] holds: its value still encoded, or decoded.
#[derive(Debug, Clone)]
pub(crate) enum AnyContent {
    /// The value's octets, preceded by `pad` octets so that `data[pad]`
    /// has the same alignment modulo 8 as in the stream it came from.
    Encoded {
        data: Bytes,
        pad: usize,
        encoding: Encoding,
    },
    Decoded(Value),
}

/// A value of any IDL type together with its TypeCode.
///
/// Two Anys are equal when their TypeCodes are equal and their values
/// decode to equal [`Value`]s.
#[derive(Debug, Clone)]
pub struct Any {
    pub(crate) tc: TypeCode,
    pub(crate) content: AnyContent,
}
