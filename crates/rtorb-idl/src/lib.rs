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
pub mod codegen;
mod diag;
pub mod lexer;
pub mod parser;
pub mod phf;
pub mod preprocess;
pub mod sema;

pub use diag::{Diagnostic, Location, Severity};

use std::path::Path;
use std::sync::Arc;

/// Output lines of the preprocessor map to their source through the
/// preprocessor's line map (both count lines from 1).
impl lexer::SourceMap for preprocess::Preprocessed {
    fn origin(&self, line: u32) -> (Arc<str>, u32) {
        let loc = self.location(line, 1);
        (loc.file, loc.line)
    }
}

/// Preprocesses and parses one IDL file.
///
/// ```no_run
/// let mut pp = rtorb_idl::preprocess::Preprocessor::new();
/// pp.include_dir("/usr/share/idl/omniORB");
/// let spec = rtorb_idl::parse_file(&pp, "cubit.idl".as_ref())?;
/// # Ok::<(), Vec<rtorb_idl::Diagnostic>>(())
/// ```
pub fn parse_file(
    pp: &preprocess::Preprocessor,
    path: &Path,
) -> Result<ast::Specification, Vec<Diagnostic>> {
    let out = pp.run_file(path)?;
    parser::parse(&out.text, &out)
}
