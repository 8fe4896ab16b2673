//! Interfaces: forward declarations and their completion, inheritance
//! (bases, inherited names and their clashes), and the exports of an
//! interface or value type: operations, attributes, parameters and
//! `raises` lists.

use std::collections::HashMap;

use crate::ast::{self, Export, Identifier, ScopedName};
use crate::diag::{Diagnostic, Location};
use crate::sema::model::*;
use crate::sema::scope::{Entry, ScopeId, join};

use super::Analyzer;

impl Analyzer {
    /// The forward declaration that `ident` completes, if any (reporting a
    /// forward declaration of another kind).
    pub(super) fn completes(
        &mut self,
        scope: ScopeId,
        ident: &Identifier,
        of: ForwardKind,
    ) -> Option<DeclId> {
        let Some(Entry::Decl(id)) = self.scopes[scope].entries.get(&ident.name).cloned() else {
            return None;
        };
        let DeclKind::Forward(f) = &self.decls[id.0].kind else {
            return None;
        };
        if f.of != of {
            let note = self.decls[id.0].location.clone();
            self.diags.push(
                Diagnostic::error(
                    ident.location.clone(),
                    format!("`{}` does not match its forward declaration", ident.name),
                )
                .with_note(note, "forward-declared here"),
            );
        }
        Some(id)
    }

    pub(super) fn complete(&mut self, forward: Option<DeclId>, id: DeclId) {
        if let Some(f) = forward {
            if let DeclKind::Forward(fd) = &mut self.decls[f.0].kind {
                fd.definition = Some(id);
            }
            // The definition takes the forward declaration's repository id
            // settings.
            if self.explicit_id[id.0].is_none() {
                self.explicit_id[id.0] = self.explicit_id[f.0].clone();
            }
            if self.version[id.0].is_none() {
                self.version[id.0] = self.version[f.0];
            }
        }
    }

    pub(super) fn forward(
        &mut self,
        scope: ScopeId,
        ident: &Identifier,
        doc: &Option<String>,
        of: ForwardKind,
    ) {
        if let Some(Entry::Decl(id)) = self.scopes[scope].entries.get(&ident.name).cloned() {
            let same = match (&self.decls[id.0].kind, of) {
                (DeclKind::Forward(f), _) => f.of == of,
                (DeclKind::Interface(i), ForwardKind::Interface(k)) => i.kind == k,
                (DeclKind::Struct(_), ForwardKind::Struct) => true,
                (DeclKind::Union(_), ForwardKind::Union) => true,
                (DeclKind::ValueType(v), ForwardKind::Value(a)) => {
                    (v.kind == ValueKind::Abstract) == a
                }
                _ => false,
            };
            if same {
                return;
            }
        }
        self.declare(
            scope,
            ident,
            doc,
            DeclKind::Forward(ForwardDef {
                of,
                definition: None,
            }),
            None,
        );
    }

    pub(super) fn interface(&mut self, scope: ScopeId, i: &ast::Interface) {
        if self.too_deep(scope, &i.location) {
            return;
        }
        let forward = self.completes(scope, &i.name, ForwardKind::Interface(i.kind));
        let id = self.declare(
            scope,
            &i.name,
            &i.doc,
            DeclKind::Interface(InterfaceDef {
                kind: i.kind,
                bases: Vec::new(),
                all_bases: Vec::new(),
                contents: Vec::new(),
                operations: Vec::new(),
                attributes: Vec::new(),
            }),
            forward,
        );
        if forward.is_some() {
            self.insert(scope, &i.name.name, Entry::Decl(id));
        }
        self.complete(forward, id);
        let mut bases = Vec::new();
        for b in &i.inherits {
            let Some(bid) = self.resolve_decl(scope, b, true) else {
                continue;
            };
            if bid == id || Some(bid) == forward {
                self.err(
                    &b.location,
                    format!("interface `{}` inherits from itself", i.name.name),
                );
                continue;
            }
            let bkind = match &self.decls[bid.0].kind {
                DeclKind::Interface(d) => d.kind,
                DeclKind::Forward(ForwardDef {
                    of: ForwardKind::Interface(_),
                    ..
                }) => {
                    let note = self.decls[bid.0].location.clone();
                    self.diags.push(
                        Diagnostic::error(
                            b.location.clone(),
                            format!("interface `{b}` is inherited before it is defined"),
                        )
                        .with_note(note, "forward-declared here"),
                    );
                    continue;
                }
                _ => {
                    self.not_a(b, bid, "an interface");
                    continue;
                }
            };
            if bases.contains(&bid) {
                self.err(&b.location, format!("`{b}` is inherited more than once"));
                continue;
            }
            if i.kind != InterfaceKind::Local && bkind == InterfaceKind::Local {
                self.err(
                    &b.location,
                    format!(
                        "interface `{}` is not local and cannot inherit from local interface `{b}`",
                        i.name.name
                    ),
                );
            }
            if i.kind == InterfaceKind::Abstract && bkind != InterfaceKind::Abstract {
                self.err(
                    &b.location,
                    format!(
                        "abstract interface `{}` can only inherit from abstract interfaces",
                        i.name.name
                    ),
                );
            }
            bases.push(bid);
        }
        let all_bases = self.all_bases(&bases);
        let inner = self.open_scope(scope, id);
        self.scopes[inner].bases = bases
            .iter()
            .filter_map(|b| self.scope_of.get(b).copied())
            .collect();
        let inherited = self.inherited_members(&i.name, &all_bases);
        let (operations, attributes) = self.exports(inner, id, &i.body, &inherited);
        let (operations, attributes) = self.with_inherited(id, operations, attributes, &all_bases);
        if let DeclKind::Interface(d) = &mut self.decls[id.0].kind {
            d.bases = bases;
            d.all_bases = all_bases;
            d.operations = operations;
            d.attributes = attributes;
        }
    }

    pub(super) fn all_bases(&self, bases: &[DeclId]) -> Vec<DeclId> {
        fn walk(a: &Analyzer, id: DeclId, out: &mut Vec<DeclId>) {
            if out.contains(&id) {
                return;
            }
            out.push(id);
            let direct: &[DeclId] = match &a.decls[id.0].kind {
                DeclKind::Interface(i) => &i.bases,
                DeclKind::ValueType(v) => &v.bases,
                _ => &[],
            };
            for b in direct {
                walk(a, *b, out);
            }
        }
        let mut out = Vec::new();
        for b in bases {
            walk(self, *b, &mut out);
        }
        out
    }

    /// The operation and attribute names of `bases` (lower case → name,
    /// declaring interface, location); two interfaces giving the same name
    /// is reported.
    pub(super) fn inherited_members(
        &mut self,
        owner: &Identifier,
        bases: &[DeclId],
    ) -> HashMap<String, (String, DeclId, Location)> {
        let mut map: HashMap<String, (String, DeclId, Location)> = HashMap::new();
        let mut clashes = Vec::new();
        for b in bases {
            let (ops, attrs) = match &self.decls[b.0].kind {
                DeclKind::Interface(i) => (&i.operations, &i.attributes),
                DeclKind::ValueType(v) => (&v.operations, &v.attributes),
                _ => continue,
            };
            let names = ops
                .iter()
                .filter(|o| !o.inherited)
                .map(|o| (&o.name, &o.location))
                .chain(
                    attrs
                        .iter()
                        .filter(|a| !a.inherited)
                        .map(|a| (&a.name, &a.location)),
                );
            for (name, loc) in names {
                match map.get(&name.to_lowercase()) {
                    Some((_, other, _)) if other != b => {
                        clashes.push((name.clone(), *other, *b, loc.clone()))
                    }
                    Some(_) => {}
                    None => {
                        map.insert(name.to_lowercase(), (name.clone(), *b, loc.clone()));
                    }
                }
            }
        }
        for (name, a, b, loc) in clashes {
            let (an, bn) = (self.decls[a.0].name.clone(), self.decls[b.0].name.clone());
            self.diags.push(
                Diagnostic::error(
                    owner.location.clone(),
                    format!(
                        "`{}` inherits `{name}` from both `{an}` and `{bn}`",
                        owner.name
                    ),
                )
                .with_note(loc, format!("`{bn}::{name}` is declared here")),
            );
        }
        map
    }

    pub(super) fn with_inherited(
        &self,
        _owner: DeclId,
        mut ops: Vec<Operation>,
        mut attrs: Vec<Attribute>,
        all_bases: &[DeclId],
    ) -> (Vec<Operation>, Vec<Attribute>) {
        for b in all_bases {
            let (bo, ba) = match &self.decls[b.0].kind {
                DeclKind::Interface(i) => (&i.operations, &i.attributes),
                DeclKind::ValueType(v) => (&v.operations, &v.attributes),
                _ => continue,
            };
            ops.extend(bo.iter().filter(|o| !o.inherited).map(|o| Operation {
                inherited: true,
                ..o.clone()
            }));
            attrs.extend(ba.iter().filter(|a| !a.inherited).map(|a| Attribute {
                inherited: true,
                ..a.clone()
            }));
        }
        (ops, attrs)
    }

    /// Reports `ident`, declared in `owner`, when it collides (whatever
    /// the case) with an operation or attribute `owner` inherits: from a
    /// base, or, for a value type, from an interface it supports.
    pub(super) fn check_inherited(
        &mut self,
        owner: DeclId,
        ident: &Identifier,
        inherited: &HashMap<String, (String, DeclId, Location)>,
    ) {
        if let Some((name, from, loc)) = inherited.get(&ident.name.to_lowercase()) {
            let base = self.decls[from.0].name.clone();
            let what = match (&self.decls[owner.0].kind, &self.decls[from.0].kind) {
                (DeclKind::ValueType(_), DeclKind::Interface(_)) => "supported interface",
                _ => "base",
            };
            self.diags.push(
                Diagnostic::error(
                    ident.location.clone(),
                    format!("`{}` is already defined in {what} `{base}`", ident.name),
                )
                .with_note(loc.clone(), format!("`{base}::{name}` is declared here")),
            );
        }
    }

    pub(super) fn exports(
        &mut self,
        scope: ScopeId,
        owner: DeclId,
        body: &[Export],
        inherited: &HashMap<String, (String, DeclId, Location)>,
    ) -> (Vec<Operation>, Vec<Attribute>) {
        let mut ops = Vec::new();
        let mut attrs = Vec::new();
        for e in body {
            match e {
                Export::Type(t) => self.type_dcl(scope, t),
                Export::Const(c) => self.constant(scope, c),
                Export::Except(x) => self.exception(scope, x),
                Export::TypeId(t) => self.set_id(scope, &t.name, &t.id, &t.location),
                Export::TypePrefix(t) => self.type_prefix(scope, t),
                Export::Pragma(p) => self.pragma(scope, p),
                Export::Attribute(a) => {
                    let ty = self.resolve_type(scope, &a.type_spec);
                    let get_raises = self.raises(scope, &a.get_raises);
                    let set_raises = self.raises(scope, &a.set_raises);
                    for n in &a.names {
                        self.check_inherited(owner, n, inherited);
                        self.member_name(scope, n, "attribute");
                        attrs.push(Attribute {
                            name: n.name.clone(),
                            repository_id: self.member_id(scope, n),
                            readonly: a.readonly,
                            ty: ty.clone(),
                            get_raises: get_raises.clone(),
                            set_raises: set_raises.clone(),
                            defined_in: owner,
                            inherited: false,
                            doc: a.doc.clone(),
                            location: n.location.clone(),
                        });
                    }
                }
                Export::Operation(o) => {
                    let result = o.return_type.as_ref().map(|t| self.resolve_type(scope, t));
                    let params = self.params(scope, &o.params);
                    let raises = self.raises(scope, &o.raises);
                    if o.oneway {
                        let n = &o.name.name;
                        if let Some(t) = &o.return_type {
                            self.err(
                                &t.location,
                                format!("oneway operation `{n}` must return void"),
                            );
                        }
                        for p in &o.params {
                            let dir = match p.direction {
                                ast::Direction::In => continue,
                                ast::Direction::Out => "out",
                                ast::Direction::InOut => "inout",
                            };
                            self.err(
                                &p.location,
                                format!(
                                    "oneway operation `{n}` cannot have `{dir}` parameter `{}`",
                                    p.name.name
                                ),
                            );
                        }
                        if let Some(r) = o.raises.first() {
                            self.err(
                                &r.location,
                                format!("oneway operation `{n}` cannot raise exceptions"),
                            );
                        }
                    }
                    self.check_inherited(owner, &o.name, inherited);
                    self.member_name(scope, &o.name, "operation");
                    ops.push(Operation {
                        name: o.name.name.clone(),
                        repository_id: self.member_id(scope, &o.name),
                        oneway: o.oneway,
                        result,
                        params,
                        raises,
                        context: o.context.clone(),
                        defined_in: owner,
                        inherited: false,
                        doc: o.doc.clone(),
                        location: o.name.location.clone(),
                    });
                }
            }
        }
        (ops, attrs)
    }

    pub(super) fn member_id(&self, scope: ScopeId, n: &Identifier) -> String {
        format!(
            "IDL:{}:1.0",
            join(self.scopes[scope].path_for(&n.location.file), &n.name)
        )
    }

    pub(super) fn params(&mut self, scope: ScopeId, params: &[ast::Param]) -> Vec<Param> {
        let mut seen: HashMap<String, Location> = HashMap::new();
        let mut out = Vec::new();
        for p in params {
            let ty = self.resolve_type(scope, &p.type_spec);
            let lower = p.name.name.to_lowercase();
            if let Some(first) = seen.get(&lower) {
                self.diags.push(
                    Diagnostic::error(
                        p.name.location.clone(),
                        format!("redefinition of `{}`", p.name.name),
                    )
                    .with_note(
                        first.clone(),
                        format!("`{}` was first defined here", p.name.name),
                    ),
                );
            } else {
                seen.insert(lower, p.name.location.clone());
            }
            out.push(Param {
                name: p.name.name.clone(),
                direction: p.direction,
                ty,
                location: p.name.location.clone(),
            });
        }
        out
    }

    pub(super) fn raises(&mut self, scope: ScopeId, names: &[ScopedName]) -> Vec<DeclId> {
        let mut out = Vec::new();
        for n in names {
            if let Some(id) = self.resolve_decl(scope, n, true) {
                if matches!(self.decls[id.0].kind, DeclKind::Exception(_)) {
                    out.push(id);
                } else {
                    self.not_a(n, id, "an exception");
                }
            }
        }
        out
    }
}
