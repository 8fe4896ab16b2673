//! ast.
