//! TypeCodes: run-time descriptions of IDL types.

/// The kind of a TypeCode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TCKind {
    /// `null`.
    Null,
}

/// A run-time description of an IDL type.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeCode {
    kind: TCKind,
}

impl TypeCode {
    /// The kind.
    pub fn kind(&self) -> TCKind {
        self.kind
    }
}
