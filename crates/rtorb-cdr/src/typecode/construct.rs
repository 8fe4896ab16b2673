//! Making TypeCodes: one constructor per kind, the members of unions and
//! valuetypes, and recursive placeholders.

use std::sync::LazyLock;

use super::kind::TCKind;
use crate::dynamic::{Body, TypeCode, UnionMember, Value, ValueMember};
use crate::error::{CdrError, Result};
use crate::types::FIXED_MAX_DIGITS;
use crate::value::labels::{is_discriminator_type, label_key};

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

/// The TypeCodes of the basic kinds, shared, by kind number (`tk_null`
/// where the kind is not basic).
static BASIC: LazyLock<Vec<TypeCode>> = LazyLock::new(|| {
    TCKind::ALL
        .iter()
        .map(|k| {
            let kind = if k.is_basic() { *k } else { TCKind::Null };
            TypeCode::build(Body::Basic(kind))
        })
        .collect()
});

impl TypeCode {
    /// The TypeCode of a kind without parameters (`tk_long`, `tk_any`,
    /// ...); `None` for kinds that need parameters.
    pub fn basic(kind: TCKind) -> Option<TypeCode> {
        if kind.is_basic() {
            BASIC.get(kind as usize).cloned()
        } else {
            None
        }
    }

    /// [`TypeCode::basic`] for a kind known to be basic (`tk_null` for any
    /// other).
    pub(super) fn basic_of(kind: TCKind) -> TypeCode {
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

    /// An interface-like TypeCode (objref, native, ...) of `kind`.
    pub(super) fn interface(kind: TCKind, id: String, name: String) -> TypeCode {
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
        if !is_discriminator_type(&discriminator) {
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
                    let key = label_key(&discriminator, label)?;
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

    /// A valuetype or eventtype TypeCode of `kind`.
    pub(super) fn value_like(
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

    /// A valuetype: its modifier ([`VM_NONE`](crate::typecode::VM_NONE), ...), its concrete base
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
}
