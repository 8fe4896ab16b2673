//! Scopes: the names each scope declares, the names used in it, and the
//! repository id prefix in effect there.

use std::collections::HashMap;
use std::sync::Arc;

use crate::diag::Location;

use super::model::DeclId;

/// The index of a scope; the global scope is 0.
pub(crate) type ScopeId = usize;

/// What a name in a scope stands for.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Entry {
    /// A declaration.
    Decl(DeclId),
    /// A member, parameter, operation or attribute: a name that is no
    /// declaration of its own.
    Member {
        /// What it is, for messages ("member", "operation").
        kind: &'static str,
        /// Where it is declared.
        location: Location,
    },
}

/// One scope.
#[derive(Debug, Default)]
pub(crate) struct Scope {
    /// The module, interface, struct, ... that opens it (`None`: global).
    pub(crate) owner: Option<DeclId>,
    /// The enclosing scope.
    pub(crate) parent: Option<ScopeId>,
    /// Names declared here, spelled as declared.
    pub(crate) entries: HashMap<String, Entry>,
    /// Names declared here in lower case, with their spelling.
    pub(crate) folded: HashMap<String, String>,
    /// Names (lower case) used here unqualified but found elsewhere, with
    /// where they were first used.
    pub(crate) used: HashMap<String, Location>,
    /// Scopes of the direct bases (interfaces, value types, supported
    /// interfaces), searched after `entries`.
    pub(crate) bases: Vec<ScopeId>,
    /// The repository id path of declarations here (prefix and enclosing
    /// names, `/`-separated), for this opening.
    pub(crate) path: String,
    /// `#pragma prefix` set in this scope, per file.
    pub(crate) file_paths: HashMap<Arc<str>, String>,
}

impl Scope {
    /// The repository id path for a declaration in `file`.
    pub(crate) fn path_for(&self, file: &Arc<str>) -> &str {
        self.file_paths.get(file).unwrap_or(&self.path)
    }
}

/// `path/name`, or `name` when the path is empty.
pub(crate) fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}/{name}")
    }
}
