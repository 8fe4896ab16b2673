//! Rebuilding TypeCodes with parts replaced: placeholders resolved into
//! the type that binds them, and names stripped for the compact form.

use std::borrow::Cow;

use super::kind::TCKind;
use crate::dynamic::{Body, TypeCode, UnionMember, ValueMember};

impl TypeCode {
    /// `child` (a direct part of `self`) with placeholders that `self`
    /// binds replaced by `self`.
    pub(crate) fn resolve_child<'a>(&'a self, child: &'a TypeCode) -> Cow<'a, TypeCode> {
        let binds = match self.body() {
            Body::Struct { id, .. } | Body::Union { id, .. } | Body::Value { id, .. } => Some(id),
            Body::Named {
                kind: TCKind::ValueBox,
                id,
                ..
            } => Some(id),
            _ => None,
        };
        match binds {
            Some(id) if child.free().contains(id) => Cow::Owned(embed(child, id, self)),
            _ => Cow::Borrowed(child),
        }
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
    let body = match tc.body() {
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
    if !tc.free().iter().any(|f| f == id) {
        return tc.clone();
    }
    if let Body::Recursive { id: pid, .. } = tc.body()
        && pid == id
    {
        return target.clone();
    }
    map_children(tc, &mut |t| Some(embed(t, id, target)), false)
}
