//! The IDL preprocessor: the part of the C preprocessor that OMG IDL uses.
//!
//! [`Preprocessor`] handles `#include` (with `-I` search paths, include
//! guards and `#pragma once`), object-like and function-like macros,
//! conditionals with `#if` integer constant expressions, `#line`, `#error`
//! and `#warning`. `#pragma` lines other than `#pragma once` pass through
//! unchanged, in their place, for the parser.
//!
//! The macro `__RTORB_IDL__` is predefined as `1`. `__FILE__` and
//! `__LINE__` are not provided, and the arguments of a function-like macro
//! must be on the line of its name (after joining backslash-newlines).
//!
//! Comments are kept: the compiler turns documentation comments into Rust
//! documentation. Each input line gives exactly one output line (directive
//! lines and lines in skipped groups become empty, included files are
//! spliced in), so [`Preprocessed::line_map`] can say where every output
//! line came from.
//!
//! ```
//! use rtorb_idl::preprocess::Preprocessor;
//!
//! let mut pp = Preprocessor::new();
//! pp.define("SIZE", "16");
//! let out = pp
//!     .run_source("a.idl", "#ifdef SIZE\ntypedef long Arr[SIZE];\n#endif\n")
//!     .unwrap();
//! assert_eq!(out.text, "\ntypedef long Arr[16];\n\n");
//! assert_eq!(out.origin(2).map(|o| o.line), Some(2));
//! ```

mod engine;
mod expr;
mod lex;
mod macros;

use std::path::PathBuf;
use std::sync::Arc;

use crate::diag::{Diagnostic, Location};

/// How deep `#include` may nest before it is taken for a recursion.
pub const MAX_INCLUDE_DEPTH: usize = 64;

/// Preprocessor settings: the include search path and the macros defined
/// on the command line. One `Preprocessor` can run over many files; each
/// run starts from these settings.
#[derive(Debug, Clone, Default)]
pub struct Preprocessor {
    include_dirs: Vec<PathBuf>,
    /// `-D` and `-U` in order: name (with parameters, for a function-like
    /// macro) and value, or `None` to undefine.
    command_line: Vec<(String, Option<String>)>,
}

impl Preprocessor {
    /// A preprocessor with no include paths and no macros.
    pub fn new() -> Preprocessor {
        Preprocessor::default()
    }

    /// Adds a directory to the end of the include search path (like `-I`).
    pub fn include_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Preprocessor {
        self.include_dirs.push(dir.into());
        self
    }

    /// Defines a macro (like `-Dname=value`). `name` may carry a parameter
    /// list, `"MAX(a,b)"`. An empty value defines the name as nothing.
    pub fn define(
        &mut self,
        name: impl Into<String>,
        value: impl Into<String>,
    ) -> &mut Preprocessor {
        self.command_line.push((name.into(), Some(value.into())));
        self
    }

    /// Removes a macro defined earlier (like `-U`).
    pub fn undefine(&mut self, name: impl Into<String>) -> &mut Preprocessor {
        self.command_line.push((name.into(), None));
        self
    }

    /// The include search path, in search order.
    pub fn include_dirs(&self) -> &[PathBuf] {
        &self.include_dirs
    }
}

/// Where an output line came from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LineOrigin {
    /// The file, as found on the include path.
    pub file: Arc<str>,
    /// The line in that file, from 1 (as changed by `#line`, if any).
    pub line: u32,
}

/// The result of preprocessing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preprocessed {
    /// The text for the lexer: one `\n`-terminated line for each entry of
    /// `line_map`.
    pub text: String,
    /// `line_map[n - 1]` is where output line `n` came from.
    pub line_map: Vec<LineOrigin>,
    /// Every file read, the main file first, each once.
    pub files: Vec<Arc<str>>,
    /// Warnings (`#warning`, macro redefinitions, extra tokens after a
    /// directive).
    pub warnings: Vec<Diagnostic>,
}

impl Preprocessed {
    /// Where output line `line` (counted from 1) came from.
    pub fn origin(&self, line: u32) -> Option<&LineOrigin> {
        let index = usize::try_from(line).ok()?.checked_sub(1)?;
        self.line_map.get(index)
    }

    /// The source location of output line `line` (from 1), column `column`.
    /// A line past the end maps to the last line there is (the lexer
    /// reports the end of input there).
    pub fn location(&self, line: u32, column: u32) -> Location {
        match self.origin(line).or(self.line_map.last()) {
            Some(origin) => Location::new(origin.file.clone(), origin.line, column),
            None => Location::new(
                self.files
                    .first()
                    .cloned()
                    .unwrap_or_else(|| Arc::from("<input>")),
                1,
                column,
            ),
        }
    }
}
