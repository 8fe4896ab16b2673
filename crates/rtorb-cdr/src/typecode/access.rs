//! The accessors of CORBA's `TypeCode` interface; `None` where CORBA
//! raises `BadKind` or `Bounds`.

use super::kind::TCKind;
use crate::dynamic::{Body, TypeCode, Value};

impl TypeCode {
    /// The kind. A recursive placeholder reports the kind of the type it
    /// stands for.
    pub fn kind(&self) -> TCKind {
        match self.body() {
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
        matches!(self.body(), Body::Recursive { .. })
    }

    /// The repository id (objref, struct, union, enum, alias, except,
    /// value, value box, native, abstract and local interface, component,
    /// home, event; and recursive placeholders).
    pub fn id(&self) -> Option<&str> {
        match self.body() {
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
        match self.body() {
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
        match self.body() {
            Body::Struct { members, .. } => Some(members.len()),
            Body::Union { members, .. } => Some(members.len()),
            Body::Enum { members, .. } => Some(members.len()),
            Body::Value { members, .. } => Some(members.len()),
            _ => None,
        }
    }

    /// The name of member `index`.
    pub fn member_name(&self, index: usize) -> Option<&str> {
        match self.body() {
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
        match self.body() {
            Body::Struct { members, .. } => members.get(index).map(|m| &m.1),
            Body::Union { members, .. } => members.get(index).map(|m| &m.type_code),
            Body::Value { members, .. } => members.get(index).map(|m| &m.type_code),
            _ => None,
        }
    }

    /// The label of union member `index`, a value of the discriminator
    /// type; the default member's label is the octet 0, as CORBA has it.
    pub fn member_label(&self, index: usize) -> Option<Value> {
        match self.body() {
            Body::Union { members, .. } => members
                .get(index)
                .map(|m| m.label.clone().unwrap_or(Value::Octet(0))),
            _ => None,
        }
    }

    /// The visibility of valuetype member `index` ([`PUBLIC_MEMBER`](crate::typecode::PUBLIC_MEMBER) or
    /// [`PRIVATE_MEMBER`](crate::typecode::PRIVATE_MEMBER)).
    pub fn member_visibility(&self, index: usize) -> Option<i16> {
        match self.body() {
            Body::Value { members, .. } => members.get(index).map(|m| m.visibility),
            _ => None,
        }
    }

    /// The discriminator type of a union.
    pub fn discriminator_type(&self) -> Option<TypeCode> {
        match self.body() {
            Body::Union { discriminator, .. } => Some(discriminator.clone()),
            _ => None,
        }
    }

    /// The index of a union's default member, or -1 if it has none.
    pub fn default_index(&self) -> Option<i32> {
        match self.body() {
            Body::Union { default_index, .. } => Some(*default_index),
            _ => None,
        }
    }

    /// The bound of a string, wstring or sequence (0 for unbounded), or
    /// the length of an array.
    pub fn length(&self) -> Option<u32> {
        match self.body() {
            Body::String { bound, .. } | Body::Sequence { bound, .. } => Some(*bound),
            Body::Array { length, .. } => Some(*length),
            _ => None,
        }
    }

    /// The element type of a sequence or array, the aliased type of an
    /// alias, or the boxed type of a value box.
    pub fn content_type(&self) -> Option<TypeCode> {
        match self.body() {
            Body::Sequence { content, .. } | Body::Array { content, .. } => Some(content.clone()),
            Body::Named { content, .. } => Some(self.resolve_child(content).into_owned()),
            _ => None,
        }
    }

    /// The digits of a fixed type.
    pub fn fixed_digits(&self) -> Option<u16> {
        match self.body() {
            Body::Fixed { digits, .. } => Some(*digits),
            _ => None,
        }
    }

    /// The scale of a fixed type.
    pub fn fixed_scale(&self) -> Option<i16> {
        match self.body() {
            Body::Fixed { scale, .. } => Some(*scale),
            _ => None,
        }
    }

    /// The `ValueModifier` of a valuetype or eventtype.
    pub fn type_modifier(&self) -> Option<i16> {
        match self.body() {
            Body::Value { modifier, .. } => Some(*modifier),
            _ => None,
        }
    }

    /// The concrete base of a valuetype or eventtype; `Some(None)` when
    /// it has none (CORBA returns a nil TypeCode there).
    pub fn concrete_base_type(&self) -> Option<Option<TypeCode>> {
        match self.body() {
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
        } = tc.body()
        {
            tc = content;
        }
        tc
    }
}
