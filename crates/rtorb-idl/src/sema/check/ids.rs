//! Repository ids: `#pragma prefix`, `ID` and `version`, `typeid` and
//! `typeprefix`.

use crate::ast::{self, ScopedName};
use crate::diag::{Diagnostic, Location};
use crate::sema::model::*;
use crate::sema::scope::{ScopeId, join};

use super::Analyzer;

impl Analyzer {
    pub(super) fn pragma(&mut self, scope: ScopeId, p: &ast::Pragma) {
        match &p.kind {
            ast::PragmaKind::Prefix(prefix) => {
                self.scopes[scope]
                    .file_paths
                    .insert(p.location.file.clone(), prefix.clone());
            }
            ast::PragmaKind::Id { name, id } => self.set_id(scope, name, id, &p.location),
            ast::PragmaKind::Version { name, major, minor } => {
                if let Some(id) = self.resolve_decl(scope, name, false) {
                    self.version[id.0] = Some((*major, *minor));
                    if let Some((explicit, at)) = &self.explicit_id[id.0] {
                        if !explicit.starts_with("IDL:") {
                            let note = at.clone();
                            self.diags.push(
                                Diagnostic::error(
                                    p.location.clone(),
                                    format!("`{name}` has a repository id that is not in IDL format, so it has no version"),
                                )
                                .with_note(note, "the repository id is set here"),
                            );
                        }
                    }
                }
            }
        }
    }

    pub(super) fn set_id(
        &mut self,
        scope: ScopeId,
        name: &ScopedName,
        repo_id: &str,
        at: &Location,
    ) {
        let Some(id) = self.resolve_decl(scope, name, false) else {
            return;
        };
        // A forward declaration and its definition share one id.
        let id = match &self.decls[id.0].kind {
            DeclKind::Forward(ForwardDef {
                definition: Some(d),
                ..
            }) => *d,
            _ => id,
        };
        if let Some((old, first)) = &self.explicit_id[id.0] {
            if old != repo_id {
                let note = first.clone();
                self.diags.push(
                    Diagnostic::error(
                        at.clone(),
                        format!("repository id of `{name}` is already set to \"{old}\""),
                    )
                    .with_note(note, "first set here"),
                );
            }
            return;
        }
        self.explicit_id[id.0] = Some((repo_id.to_string(), at.clone()));
    }

    /// Records a `typeprefix`; it is applied once the whole specification
    /// is read, by [`Analyzer::apply_type_prefixes`], since it covers the
    /// whole name scope wherever in it the declaration stands.
    pub(super) fn type_prefix(&mut self, scope: ScopeId, t: &ast::TypePrefix) {
        let Some(id) = self.resolve_decl(scope, &t.name, false) else {
            return;
        };
        // A forward declaration and its definition are one name scope.
        let id = match &self.decls[id.0].kind {
            DeclKind::Forward(ForwardDef {
                definition: Some(d),
                ..
            }) => *d,
            _ => id,
        };
        self.type_prefix.insert(id, t.prefix.clone());
    }

    /// The repository id body (`prefix/names`) a `typeprefix` gives `id`:
    /// the prefix of the innermost enclosing name scope that has one
    /// (the declaration itself included), followed by the names from that
    /// scope down. `None` when no enclosing scope has a `typeprefix`.
    pub(super) fn type_prefixed_base(&self, id: DeclId) -> Option<String> {
        let mut at = Some(id);
        while let Some(a) = at {
            let named = match &self.decls[a.0].kind {
                DeclKind::Forward(ForwardDef {
                    definition: Some(d),
                    ..
                }) => *d,
                _ => a,
            };
            if let Some(prefix) = self.type_prefix.get(&named) {
                let from = self.decls[a.0].scoped_name.len() - 1;
                let names = self.decls[id.0].scoped_name[from..].join("/");
                return Some(join(prefix, &names));
            }
            at = self.decls[a.0].parent;
        }
        None
    }

    /// Applies every `typeprefix` (CORBA 3.0 IDL §3.15.2, "Repository
    /// Identifier Prefix Declaration"): its prefix goes before the default
    /// repository id of every declaration in the named scope, the scope
    /// itself and nested scopes included, whether declared before or after
    /// the `typeprefix` and in any opening of a module. It takes precedence
    /// over `#pragma prefix`; an inner scope's own `typeprefix` takes
    /// precedence over an outer one's; ids set with `typeid` or `#pragma
    /// ID` are left alone.
    pub(super) fn apply_type_prefixes(&mut self) {
        if self.type_prefix.is_empty() {
            return;
        }
        for i in 0..self.decls.len() {
            if let Some(base) = self.type_prefixed_base(DeclId(i)) {
                self.id_base[i] = base;
            }
        }
        // Operations and attributes have ids of their own, under the
        // interface or value type that defines them.
        let mut kinds: Vec<DeclKind> = self
            .decls
            .iter_mut()
            .map(|d| std::mem::replace(&mut d.kind, DeclKind::Module(ModuleDef::default())))
            .collect();
        for kind in &mut kinds {
            let (ops, attrs) = match kind {
                DeclKind::Interface(i) => (&mut i.operations, &mut i.attributes),
                DeclKind::ValueType(v) => (&mut v.operations, &mut v.attributes),
                _ => continue,
            };
            for o in ops.iter_mut() {
                if let Some(base) = self.type_prefixed_base(o.defined_in) {
                    o.repository_id = format!("IDL:{}:1.0", join(&base, &o.name));
                }
            }
            for a in attrs.iter_mut() {
                if let Some(base) = self.type_prefixed_base(a.defined_in) {
                    a.repository_id = format!("IDL:{}:1.0", join(&base, &a.name));
                }
            }
        }
        for (d, kind) in self.decls.iter_mut().zip(kinds) {
            d.kind = kind;
        }
    }
}
