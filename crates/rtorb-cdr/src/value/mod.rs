//! Dynamic values: IDL values as a tree, for Anys whose type is not known
//! at compile time.
//!
//! A [`Value`] has no type of its own: it is read and written against a
//! [`TypeCode`](crate::TypeCode), which says how to lay it out and which shapes of value are
//! acceptable. Aliases are transparent (a value of a typedef is a value of
//! the aliased type). Sequences and arrays of `octet` decode to
//! [`Value::Octets`] (a slice of the message, no copy) and of the numeric
//! primitives to [`Value::Primitives`] (one bulk read); everything else to
//! [`Value::Sequence`] or [`Value::Array`]. Encoding accepts either form.
//!
//! # Layout
//!
//! The type is declared with the TypeCode and the Any, which it contains
//! (`crate::dynamic`); here are reading (`decode`), writing (`encode`) and
//! stepping over (`skip`) a value, union labels (`labels`), and what a
//! TypeCode says of its values' layout (`layout`).

mod decode;
mod encode;
pub(crate) mod labels;
mod layout;
pub(crate) mod skip;

pub use crate::dynamic::{PrimSeq, Value};
