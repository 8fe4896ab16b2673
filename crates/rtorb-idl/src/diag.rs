//! Diagnostics: what went wrong, and where.

use std::fmt;
use std::sync::Arc;

/// A place in an IDL source file (lines and columns count from 1).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Location {
    /// The file, as it was named on the command line or found on the
    /// include path.
    pub file: Arc<str>,
    /// Line, from 1.
    pub line: u32,
    /// Column, from 1 (in characters).
    pub column: u32,
}

impl Location {
    /// A location.
    pub fn new(file: impl Into<Arc<str>>, line: u32, column: u32) -> Location {
        Location {
            file: file.into(),
            line,
            column,
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Severity {
    /// The input is wrong; no output is produced.
    Error,
    /// The input is accepted, but something is probably not what was meant.
    Warning,
}

/// A message about the input, with where it applies and, optionally,
/// related places (such as the earlier declaration a redefinition clashes
/// with).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong, in one line, starting in lower case.
    pub message: String,
    /// Where.
    pub location: Location,
    /// Related places, each with a note.
    pub notes: Vec<(Location, String)>,
}

impl Diagnostic {
    /// An error at `location`.
    pub fn error(location: Location, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            location,
            notes: Vec::new(),
        }
    }

    /// A warning at `location`.
    pub fn warning(location: Location, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            message: message.into(),
            location,
            notes: Vec::new(),
        }
    }

    /// The same diagnostic with a note about another place.
    pub fn with_note(mut self, location: Location, note: impl Into<String>) -> Diagnostic {
        self.notes.push((location, note.into()));
        self
    }
}

/// Prints like `rustc`:
///
/// ```text
/// error: redefinition of `Many`
///   --> cubit.idl:12:10
///   note: `Many` was first defined here
///   --> cubit.idl:5:10
/// ```
impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{kind}: {}\n  --> {}", self.message, self.location)?;
        for (loc, note) in &self.notes {
            write!(f, "\n  note: {note}\n  --> {loc}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostic {}
