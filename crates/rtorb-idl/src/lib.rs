//! # rtorb-idl: the OMG IDL compiler of rtorb
//!
//! IDL goes through three stages:
//!
//! 1. [`preprocess`]: `#include`, `#define`, conditionals, with every output
//!    line mapped back to the file and line it came from. `#pragma` lines
//!    pass through for the parser, which gives them meaning (`prefix`,
//!    `ID`, `version` are scoped like declarations).
//! 2. [`lexer`] and [`parser`]: the IDL 3 grammar into the syntax tree of
//!    [`ast`].
//! 3. [`sema`]: names resolved, checks, constants evaluated, repository ids;
//!    the result is a [`sema::Model`] for the back end (to come).
//!
//! Every error is a [`Diagnostic`] naming the file, line and column, printed
//! in the style of `rustc`.

pub mod ast;
mod diag;
pub mod lexer;
pub mod parser;
pub mod preprocess;
pub mod sema;

pub use diag::{Diagnostic, Location, Severity};
