//! Dynamic values: IDL values as a tree, for Anys whose type is not known
//! at compile time.

/// A dynamically typed IDL value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// No value.
    Null,
}
