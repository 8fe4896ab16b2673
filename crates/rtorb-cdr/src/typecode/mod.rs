//! TypeCodes: run-time descriptions of IDL types (CORBA 3.x, "TypeCodes",
//! and the CDR "Encoding of TypeCodes").
//!
//! A [`TypeCode`] is an immutable tree behind an
//! [`Arc`](std::sync::Arc), so cloning one is a reference-count increment. Constructors exist for every kind;
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
//!
//! # Layout
//!
//! The type is declared with [`Value`](crate::Value) and [`Any`](crate::Any),
//! which it contains and which contain it (`crate::dynamic`); here are its
//! kinds (`kind`), its constructors (`construct`), the accessors of the
//! CORBA interface (`access`), comparison (`compare`), the rebuilding
//! that resolves recursive placeholders (`rebuild`), and its CDR encoding
//! (`encode`, `decode`).

mod access;
mod compare;
mod construct;
mod decode;
mod encode;
pub(crate) mod kind;
mod rebuild;

pub use crate::dynamic::{TypeCode, UnionMember, ValueMember};
pub use kind::{
    PRIVATE_MEMBER, PUBLIC_MEMBER, TCKind, VM_ABSTRACT, VM_CUSTOM, VM_NONE, VM_TRUNCATABLE,
};
