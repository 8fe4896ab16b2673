//! The analysis pass: declarations in source order, names resolved where
//! they are used (IDL requires declaration before use), checks, and the
//! construction of the [`Model`].
//!
//! One [`Analyzer`] walks the specification; its work is split by topic:
//! [`scopes`] (declaring and resolving names), [`types`] (constructed
//! types), [`type_refs`] (type specs resolved to types), [`constants`],
//! [`interfaces`] (inheritance, forward declarations, operations and
//! attributes), [`values`] (value types) and [`ids`] (repository ids).

use std::collections::{HashMap, HashSet};

use crate::ast::{self, Definition};
use crate::diag::{Diagnostic, Location};

use super::model::*;
use super::scope::{Entry, Scope, ScopeId};

mod constants;
mod ids;
mod interfaces;
mod scopes;
mod type_refs;
mod types;
mod values;

/// What a name resolved to.
enum Res {
    Entry(Entry),
    Builtin(Type),
}

/// The state of the pass.
pub(crate) struct Analyzer {
    decls: Vec<Decl>,
    top: Vec<DeclId>,
    scopes: Vec<Scope>,
    /// The scope each declaration opens, if it opens one.
    scope_of: HashMap<DeclId, ScopeId>,
    /// Repository id without `IDL:` and version, per declaration.
    id_base: Vec<String>,
    /// `#pragma ID` or `typeid`, with where it was given.
    explicit_id: Vec<Option<(String, Location)>>,
    /// `#pragma version`.
    version: Vec<Option<(u16, u16)>>,
    /// `typeprefix`, per declaration naming a scope.
    type_prefix: HashMap<DeclId, String>,
    /// Structs and unions whose members are being read.
    defining: HashSet<DeclId>,
    diags: Vec<Diagnostic>,
}

/// The most deeply nested declarations analysed.
const MAX_DEPTH: usize = 200;

impl Analyzer {
    pub(crate) fn new() -> Analyzer {
        Analyzer {
            decls: Vec::new(),
            top: Vec::new(),
            scopes: vec![Scope::default()],
            scope_of: HashMap::new(),
            id_base: Vec::new(),
            explicit_id: Vec::new(),
            version: Vec::new(),
            type_prefix: HashMap::new(),
            defining: HashSet::new(),
            diags: Vec::new(),
        }
    }

    pub(crate) fn run(mut self, spec: &ast::Specification) -> Result<Model, Vec<Diagnostic>> {
        self.definitions(0, &spec.definitions);
        let forwards: Vec<Option<DeclId>> = self
            .decls
            .iter()
            .map(|d| match &d.kind {
                DeclKind::Forward(f) => f.definition,
                _ => None,
            })
            .collect();
        for d in &self.decls {
            if let DeclKind::Forward(ForwardDef {
                of: of @ (ForwardKind::Struct | ForwardKind::Union),
                definition: None,
            }) = &d.kind
            {
                let what = if *of == ForwardKind::Struct {
                    "struct"
                } else {
                    "union"
                };
                self.diags.push(Diagnostic::error(
                    d.location.clone(),
                    format!("{what} `{}` is forward-declared but never defined", d.name),
                ));
            }
        }
        if !self.diags.is_empty() {
            return Err(self.diags);
        }
        self.apply_type_prefixes();
        let mut decls = self.decls;
        for (i, d) in decls.iter_mut().enumerate() {
            d.repository_id = match (&d.kind, &self.explicit_id[i]) {
                (DeclKind::Enumerator(_), _) => None,
                (_, Some((id, _))) => Some(id.clone()),
                _ => {
                    let (major, minor) = self.version[i].unwrap_or((1, 0));
                    Some(format!("IDL:{}:{major}.{minor}", self.id_base[i]))
                }
            };
            for_each_type(&mut d.kind, &mut |t| fix_forward(t, &forwards));
        }
        Ok(Model {
            decls,
            top: self.top,
        })
    }

    // ----- declarations and scopes -----

    fn err(&mut self, location: &Location, message: String) {
        self.diags
            .push(Diagnostic::error(location.clone(), message));
    }

    fn entry_location(&self, e: &Entry) -> Location {
        match e {
            Entry::Decl(id) => self.decls[id.0].location.clone(),
            Entry::Member { location, .. } => location.clone(),
        }
    }

    fn definitions(&mut self, scope: ScopeId, defs: &[Definition]) {
        for d in defs {
            self.definition(scope, d);
        }
    }

    fn depth(&self, scope: ScopeId) -> usize {
        let mut n = 0;
        let mut s = Some(scope);
        while let Some(cur) = s {
            n += 1;
            s = self.scopes[cur].parent;
        }
        n
    }

    fn definition(&mut self, scope: ScopeId, def: &Definition) {
        match def {
            Definition::Module(m) => self.module(scope, m),
            Definition::Interface(i) => self.interface(scope, i),
            Definition::InterfaceForward(f) => {
                self.forward(scope, &f.name, &f.doc, ForwardKind::Interface(f.kind))
            }
            Definition::ValueType(v) => self.value_type(scope, v),
            Definition::ValueBox(b) => {
                let boxed = self.resolve_type(scope, &b.type_spec);
                self.declare(
                    scope,
                    &b.name,
                    &b.doc,
                    DeclKind::ValueBox(ValueBoxDef { boxed }),
                    None,
                );
            }
            Definition::ValueForward(f) => {
                self.forward(scope, &f.name, &f.doc, ForwardKind::Value(f.is_abstract))
            }
            Definition::Type(t) => self.type_dcl(scope, t),
            Definition::Const(c) => self.constant(scope, c),
            Definition::Except(e) => self.exception(scope, e),
            Definition::TypeId(t) => self.set_id(scope, &t.name, &t.id, &t.location),
            Definition::TypePrefix(t) => self.type_prefix(scope, t),
            Definition::Pragma(p) => self.pragma(scope, p),
        }
    }

    fn too_deep(&mut self, scope: ScopeId, location: &Location) -> bool {
        if self.depth(scope) > MAX_DEPTH {
            self.err(location, "declarations nested too deeply".into());
            return true;
        }
        false
    }

    fn module(&mut self, scope: ScopeId, m: &ast::Module) {
        if self.too_deep(scope, &m.location) {
            return;
        }
        let existing = match self.scopes[scope].entries.get(&m.name.name) {
            Some(Entry::Decl(id)) if matches!(self.decls[id.0].kind, DeclKind::Module(_)) => {
                Some(*id)
            }
            _ => None,
        };
        let id = match existing {
            Some(id) => id,
            None => self.declare(
                scope,
                &m.name,
                &m.doc,
                DeclKind::Module(ModuleDef::default()),
                None,
            ),
        };
        let inner = self.open_scope(scope, id);
        self.definitions(inner, &m.definitions);
    }
}

fn fix_forward(t: &mut Type, forwards: &[Option<DeclId>]) {
    match t {
        Type::Named(id) => {
            if let Some(Some(d)) = forwards.get(id.0) {
                *id = *d;
            }
        }
        Type::Sequence { element, .. } | Type::Array { element, .. } => {
            fix_forward(element, forwards)
        }
        _ => {}
    }
}

/// Calls `f` on every type a declaration holds.
fn for_each_type(kind: &mut DeclKind, f: &mut dyn FnMut(&mut Type)) {
    let ops_attrs =
        |ops: &mut Vec<Operation>, attrs: &mut Vec<Attribute>, f: &mut dyn FnMut(&mut Type)| {
            for o in ops {
                if let Some(r) = &mut o.result {
                    f(r);
                }
                for p in &mut o.params {
                    f(&mut p.ty);
                }
            }
            for a in attrs {
                f(&mut a.ty);
            }
        };
    match kind {
        DeclKind::Interface(i) => ops_attrs(&mut i.operations, &mut i.attributes, f),
        DeclKind::Struct(s) => s.members.iter_mut().for_each(|m| f(&mut m.ty)),
        DeclKind::Exception(e) => e.members.iter_mut().for_each(|m| f(&mut m.ty)),
        DeclKind::Union(u) => {
            f(&mut u.discriminator);
            u.cases.iter_mut().for_each(|c| f(&mut c.ty));
        }
        DeclKind::Alias(a) => f(&mut a.target),
        DeclKind::Const(c) => f(&mut c.ty),
        DeclKind::ValueBox(b) => f(&mut b.boxed),
        DeclKind::ValueType(v) => {
            ops_attrs(&mut v.operations, &mut v.attributes, f);
            v.members.iter_mut().for_each(|m| f(&mut m.ty));
            for fa in &mut v.factories {
                fa.params.iter_mut().for_each(|p| f(&mut p.ty));
            }
        }
        DeclKind::Module(_)
        | DeclKind::Forward(_)
        | DeclKind::Enum(_)
        | DeclKind::Enumerator(_)
        | DeclKind::Native => {}
    }
}
