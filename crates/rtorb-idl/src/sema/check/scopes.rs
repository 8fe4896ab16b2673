//! Scopes and names: declaring a name in a scope (with the checks IDL
//! makes of clashes, case and reuse), opening scopes, and resolving a
//! scoped name outward through enclosing scopes and inherited bases.

use std::collections::HashSet;

use crate::ast::{Identifier, ScopedName};
use crate::diag::Diagnostic;
use crate::sema::model::*;
use crate::sema::scope::{Entry, Scope, ScopeId, join};

use super::{Analyzer, Res};

impl Analyzer {
    /// Checks that `ident` may be declared in `scope` (`completing`: the
    /// forward declaration a definition completes). Reports and returns
    /// false when not.
    pub(super) fn check_name(
        &mut self,
        scope: ScopeId,
        ident: &Identifier,
        completing: Option<DeclId>,
    ) -> bool {
        let name = &ident.name;
        let lower = name.to_lowercase();
        let s = &self.scopes[scope];
        if let Some(e) = s.entries.get(name) {
            if completing.is_some_and(|c| *e == Entry::Decl(c)) {
                return true;
            }
            let note = self.entry_location(e);
            self.diags.push(
                Diagnostic::error(ident.location.clone(), format!("redefinition of `{name}`"))
                    .with_note(note, format!("`{name}` was first defined here")),
            );
            return false;
        }
        if let Some(other) = s.folded.get(&lower) {
            let other = other.clone();
            let note = s.entries.get(&other).map(|e| self.entry_location(e));
            let mut d = Diagnostic::error(
                ident.location.clone(),
                format!("`{name}` differs from `{other}` only in case"),
            );
            if let Some(n) = note {
                d = d.with_note(n, format!("`{other}` is defined here"));
            }
            self.diags.push(d);
            return false;
        }
        if let Some(used) = s.used.get(&lower) {
            let used = used.clone();
            self.diags.push(
                Diagnostic::error(
                    ident.location.clone(),
                    format!("`{name}` is defined in a scope where it was already used"),
                )
                .with_note(used, "the earlier meaning is used here"),
            );
            return false;
        }
        if let Some(owner) = s.owner {
            let o = &self.decls[owner.0];
            if o.name.to_lowercase() == lower {
                let note = o.location.clone();
                let oname = o.name.clone();
                self.diags.push(
                    Diagnostic::error(
                        ident.location.clone(),
                        format!("`{name}` redefines the name of its enclosing scope `{oname}`"),
                    )
                    .with_note(note, format!("`{oname}` is declared here")),
                );
                return false;
            }
        }
        true
    }

    pub(super) fn insert(&mut self, scope: ScopeId, name: &str, e: Entry) {
        let s = &mut self.scopes[scope];
        s.folded.insert(name.to_lowercase(), name.to_string());
        s.entries.insert(name.to_string(), e);
    }

    /// Declares a member-like name (member, parameter, operation).
    pub(super) fn member_name(&mut self, scope: ScopeId, ident: &Identifier, kind: &'static str) {
        if self.check_name(scope, ident, None) {
            let e = Entry::Member {
                kind,
                location: ident.location.clone(),
            };
            self.insert(scope, &ident.name, e);
        }
    }

    /// Creates a declaration in `scope` (entering its name unless
    /// `completing` says it replaces a forward declaration, or the name is
    /// taken, which is reported).
    pub(super) fn declare(
        &mut self,
        scope: ScopeId,
        ident: &Identifier,
        doc: &Option<String>,
        kind: DeclKind,
        completing: Option<DeclId>,
    ) -> DeclId {
        let ok = self.check_name(scope, ident, completing);
        let id = DeclId(self.decls.len());
        let owner = self.scopes[scope].owner;
        let mut scoped_name = owner
            .map(|o| self.decls[o.0].scoped_name.clone())
            .unwrap_or_default();
        scoped_name.push(ident.name.clone());
        let base = join(
            self.scopes[scope].path_for(&ident.location.file),
            &ident.name,
        );
        let parent = owner;
        let is_enumerator = matches!(kind, DeclKind::Enumerator(_));
        self.decls.push(Decl {
            name: ident.name.clone(),
            scoped_name,
            repository_id: None,
            doc: doc.clone(),
            location: ident.location.clone(),
            parent,
            kind,
        });
        self.id_base.push(base);
        self.explicit_id.push(None);
        self.version.push(None);
        if ok {
            self.insert(scope, &ident.name, Entry::Decl(id));
        }
        if !is_enumerator {
            self.add_content(parent, id);
        }
        id
    }

    pub(super) fn add_content(&mut self, parent: Option<DeclId>, id: DeclId) {
        let Some(p) = parent else {
            self.top.push(id);
            return;
        };
        let list = match &mut self.decls[p.0].kind {
            DeclKind::Module(m) => &mut m.contents,
            DeclKind::Interface(i) => &mut i.contents,
            DeclKind::Struct(s) => &mut s.contents,
            DeclKind::Union(u) => &mut u.contents,
            DeclKind::Exception(e) => &mut e.contents,
            DeclKind::ValueType(v) => &mut v.contents,
            _ => return,
        };
        list.push(id);
    }

    /// The scope `id` opens, made on first use; its repository id path is
    /// set for this opening.
    pub(super) fn open_scope(&mut self, parent: ScopeId, id: DeclId) -> ScopeId {
        let d = &self.decls[id.0];
        let name = d.name.clone();
        let file = d.location.file.clone();
        let s = match self.scope_of.get(&id) {
            Some(&s) => s,
            None => {
                self.scopes.push(Scope {
                    owner: Some(id),
                    parent: Some(parent),
                    ..Scope::default()
                });
                let s = self.scopes.len() - 1;
                self.scope_of.insert(id, s);
                s
            }
        };
        let path = join(self.scopes[parent].path_for(&file), &name);
        let scope = &mut self.scopes[s];
        scope.path = path;
        scope.file_paths.clear();
        s
    }

    /// The entries for `name` in `scope` or, failing that, inherited into
    /// it (distinct declarations: more than one is an ambiguity).
    pub(super) fn find_in(
        &self,
        scope: ScopeId,
        name: &str,
        visited: &mut HashSet<ScopeId>,
    ) -> Vec<Entry> {
        if !visited.insert(scope) {
            return Vec::new();
        }
        let s = &self.scopes[scope];
        if let Some(e) = s.entries.get(name) {
            return vec![e.clone()];
        }
        let mut found: Vec<Entry> = Vec::new();
        for &b in &s.bases {
            for e in self.find_in(b, name, visited) {
                if !found.contains(&e) {
                    found.push(e);
                }
            }
        }
        found
    }

    pub(super) fn ambiguous(&mut self, name: &ScopedName, found: &[Entry]) {
        let mut d = Diagnostic::error(name.location.clone(), format!("ambiguous name `{name}`"));
        for e in found {
            d = d.with_note(self.entry_location(e), format!("`{name}` could mean this"));
        }
        self.diags.push(d);
    }

    /// Resolves `name` as used in `scope`; reports and returns `None` when
    /// it names nothing or more than one thing.
    pub(super) fn resolve(
        &mut self,
        scope: ScopeId,
        name: &ScopedName,
        record: bool,
    ) -> Option<Res> {
        let first = name.parts.first()?;
        let mut found = Vec::new();
        if name.absolute {
            found = self.find_in(0, first, &mut HashSet::new());
        } else {
            let mut s = Some(scope);
            while let Some(cur) = s {
                found = self.find_in(cur, first, &mut HashSet::new());
                if !found.is_empty() {
                    let own = self.scopes[cur].entries.contains_key(first.as_str());
                    if record && (cur != scope || !own) {
                        self.scopes[scope]
                            .used
                            .entry(first.to_lowercase())
                            .or_insert_with(|| name.location.clone());
                    }
                    break;
                }
                s = self.scopes[cur].parent;
            }
        }
        if found.is_empty() {
            if let Some(t) = predefined(name) {
                return Some(Res::Builtin(t));
            }
            self.err(
                &name.location,
                format!("cannot find `{name}` in this scope"),
            );
            return None;
        }
        if found.len() > 1 {
            self.ambiguous(name, &found);
            return None;
        }
        let mut entry = found.remove(0);
        for (i, part) in name.parts.iter().enumerate().skip(1) {
            let inner = match &entry {
                Entry::Decl(id) => self.scope_of.get(id).copied(),
                Entry::Member { .. } => None,
            };
            let prefix = name.parts[..i].join("::");
            let found = match inner {
                Some(s) => self.find_in(s, part, &mut HashSet::new()),
                None => Vec::new(),
            };
            match found.len() {
                0 => {
                    if let Some(t) = predefined(name) {
                        return Some(Res::Builtin(t));
                    }
                    self.err(
                        &name.location,
                        format!("cannot find `{part}` in `{prefix}`"),
                    );
                    return None;
                }
                1 => entry = found.into_iter().next()?,
                _ => {
                    self.ambiguous(name, &found);
                    return None;
                }
            }
        }
        Some(Res::Entry(entry))
    }

    /// Resolves `name` to a declaration, reporting names of other things.
    pub(super) fn resolve_decl(
        &mut self,
        scope: ScopeId,
        name: &ScopedName,
        record: bool,
    ) -> Option<DeclId> {
        match self.resolve(scope, name, record)? {
            Res::Entry(Entry::Decl(id)) => Some(id),
            Res::Entry(Entry::Member { kind, location }) => {
                self.diags.push(
                    Diagnostic::error(
                        name.location.clone(),
                        format!("`{name}` is a {kind}, not a declaration"),
                    )
                    .with_note(location, format!("`{name}` is declared here")),
                );
                None
            }
            Res::Builtin(_) => {
                self.err(
                    &name.location,
                    format!("`{name}` is predefined and cannot be named here"),
                );
                None
            }
        }
    }

    pub(super) fn not_a(&mut self, name: &ScopedName, id: DeclId, what: &str) {
        let note = self.decls[id.0].location.clone();
        self.diags.push(
            Diagnostic::error(name.location.clone(), format!("`{name}` is not {what}"))
                .with_note(note, format!("`{name}` is declared here")),
        );
    }

    // ----- definitions -----
}

/// `TypeCode`, `CORBA::TypeCode` and the other names IDL predefines, when
/// the specification declares nothing of that name.
pub(super) fn predefined(name: &ScopedName) -> Option<Type> {
    let parts: Vec<&str> = name.parts.iter().map(String::as_str).collect();
    match parts.as_slice() {
        ["TypeCode"] | ["CORBA", "TypeCode"] => Some(Type::TypeCode),
        ["CORBA", "Object"] => Some(Type::Object),
        ["CORBA", "ValueBase"] => Some(Type::ValueBase),
        _ => None,
    }
}
