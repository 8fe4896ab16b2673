//! Semantic analysis: names resolved, declarations checked, constants
//! evaluated and repository ids computed, giving the [`Model`] that the
//! back end walks.
//!
//! Names are resolved as CORBA 3.x IDL §7.20 says: outward through the
//! enclosing scopes, through the bases of interfaces and value types (a
//! name inherited from two bases is ambiguous), with `A::B` looked up
//! inside `A` and `::A` from the global scope. A declaration must come
//! before its use; an interface or value type may be forward-declared and
//! used before its definition (or never defined), a struct or union only
//! inside a sequence until it is defined. `TypeCode` and `CORBA::TypeCode`
//! mean the predefined TypeCode unless the specification declares its own.
//!
//! Repository ids are `IDL:` + path + `:major.minor`, where the path is the
//! prefix in effect (`#pragma prefix`, scoped to the enclosing scope and
//! file) followed by the names from the scope where the prefix was set. A
//! `typeprefix` covers its whole name scope: the scope itself, every
//! declaration in any opening of it (before or after the `typeprefix`) and
//! nested scopes without a `typeprefix` of their own, in preference to any
//! `#pragma prefix`. `#pragma ID` and `typeid` replace an id, `#pragma
//! version` its version.

mod check;
mod consts;
pub mod model;
mod scope;

pub use model::*;

use crate::ast::Specification;
use crate::diag::Diagnostic;

/// Analyses a parsed specification: the resolved model, or every error
/// found (in source order of discovery).
pub fn analyze(spec: &Specification) -> Result<Model, Vec<Diagnostic>> {
    check::Analyzer::new().run(spec)
}
