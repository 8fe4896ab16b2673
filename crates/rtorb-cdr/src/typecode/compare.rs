//! Comparing TypeCodes: CORBA's `equal` and `equivalent`.

use crate::dynamic::{Body, TypeCode};

impl PartialEq for TypeCode {
    fn eq(&self, other: &TypeCode) -> bool {
        self.equal(other)
    }
}

impl TypeCode {
    /// Whether two TypeCodes are equal in the sense of CORBA's
    /// `TypeCode::equal`: same kind and every parameter the same, names
    /// and aliases included. A recursive placeholder equals a TypeCode of
    /// the same kind and repository id.
    pub fn equal(&self, other: &TypeCode) -> bool {
        if self.same(other) {
            return true;
        }
        compare(self, other, false)
    }

    /// Whether two TypeCodes are equivalent in the sense of CORBA's
    /// `TypeCode::equivalent`: aliases are stripped at every level, names
    /// are ignored, and two types that both have a non-empty repository id
    /// are equivalent exactly when the ids are.
    pub fn equivalent(&self, other: &TypeCode) -> bool {
        if self.same(other) {
            return true;
        }
        compare(self, other, true)
    }
}

fn compare(a: &TypeCode, b: &TypeCode, equiv: bool) -> bool {
    let (a, b) = if equiv {
        (a.unalias(), b.unalias())
    } else {
        (a, b)
    };
    if a.same(b) {
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
    compare_bodies(a.body(), b.body(), equiv)
}

/// Whether the parameters of two TypeCode bodies of the same kind are the
/// same (with `equiv`, as `equivalent` has it).
fn compare_bodies(a: &Body, b: &Body, equiv: bool) -> bool {
    let names = |x: &str, y: &str| equiv || x == y;
    let tc = |x: &TypeCode, y: &TypeCode| compare(x, y, equiv);
    match (a, b) {
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
        (Body::Union { .. }, Body::Union { .. }) => same_union(a, b, equiv),
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
        (Body::Value { .. }, Body::Value { .. }) => same_value(a, b, equiv),
        _ => false,
    }
}

/// Whether two union bodies are the same: names, discriminator, default
/// and every member.
fn same_union(a: &Body, b: &Body, equiv: bool) -> bool {
    let names = |x: &str, y: &str| equiv || x == y;
    let tc = |x: &TypeCode, y: &TypeCode| compare(x, y, equiv);
    let (
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
    ) = (a, b)
    else {
        return false;
    };
    (equiv || i1 == i2)
        && names(n1, n2)
        && x1 == x2
        && tc(d1, d2)
        && m1.len() == m2.len()
        && m1.iter().zip(m2).all(|(x, y)| {
            x.label == y.label && names(&x.name, &y.name) && tc(&x.type_code, &y.type_code)
        })
}

/// Whether two valuetype bodies are the same: names, modifier, base and
/// every state member.
fn same_value(a: &Body, b: &Body, equiv: bool) -> bool {
    let names = |x: &str, y: &str| equiv || x == y;
    let tc = |x: &TypeCode, y: &TypeCode| compare(x, y, equiv);
    let (
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
    ) = (a, b)
    else {
        return false;
    };
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
