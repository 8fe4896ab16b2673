//! Any: a value of any IDL type with its TypeCode.

/// A value of any IDL type together with its TypeCode.
#[derive(Debug, Clone)]
pub struct Any;
