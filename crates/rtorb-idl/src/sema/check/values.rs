//! Value types, concrete and abstract: their bases and supported
//! interfaces, state members and initializers.

use crate::ast;
use crate::sema::model::*;
use crate::sema::scope::{Entry, ScopeId};

use super::Analyzer;

impl Analyzer {
    pub(super) fn value_type(&mut self, scope: ScopeId, v: &ast::ValueType) {
        if self.too_deep(scope, &v.location) {
            return;
        }
        let forward = self.completes(
            scope,
            &v.name,
            ForwardKind::Value(v.kind == ValueKind::Abstract),
        );
        let id = self.declare(
            scope,
            &v.name,
            &v.doc,
            DeclKind::ValueType(ValueDef {
                kind: v.kind,
                truncatable: v.truncatable,
                bases: Vec::new(),
                all_bases: Vec::new(),
                supports: Vec::new(),
                members: Vec::new(),
                factories: Vec::new(),
                operations: Vec::new(),
                attributes: Vec::new(),
                contents: Vec::new(),
            }),
            forward,
        );
        if forward.is_some() {
            self.insert(scope, &v.name.name, Entry::Decl(id));
        }
        self.complete(forward, id);
        let vname = &v.name.name;
        let mut bases = Vec::new();
        let mut concrete = 0;
        for b in &v.inherits {
            let Some(bid) = self.resolve_decl(scope, b, true) else {
                continue;
            };
            if bid == id || Some(bid) == forward {
                self.err(
                    &b.location,
                    format!("value type `{vname}` inherits from itself"),
                );
                continue;
            }
            let DeclKind::ValueType(bv) = &self.decls[bid.0].kind else {
                if matches!(
                    self.decls[bid.0].kind,
                    DeclKind::Forward(ForwardDef {
                        of: ForwardKind::Value(_),
                        ..
                    })
                ) {
                    self.err(
                        &b.location,
                        format!("value type `{b}` is inherited before it is defined"),
                    );
                } else {
                    self.not_a(b, bid, "a value type");
                }
                continue;
            };
            if bv.kind != ValueKind::Abstract {
                concrete += 1;
                if v.kind == ValueKind::Abstract {
                    self.err(
                        &b.location,
                        format!("abstract value type `{vname}` can only inherit from abstract value types"),
                    );
                } else if concrete > 1 {
                    self.err(
                        &b.location,
                        format!(
                            "value type `{vname}` inherits from more than one concrete value type"
                        ),
                    );
                }
            }
            if bases.contains(&bid) {
                self.err(&b.location, format!("`{b}` is inherited more than once"));
                continue;
            }
            bases.push(bid);
        }
        let mut supports = Vec::new();
        let mut plain = 0;
        for s in &v.supports {
            let Some(sid) = self.resolve_decl(scope, s, true) else {
                continue;
            };
            let DeclKind::Interface(si) = &self.decls[sid.0].kind else {
                self.not_a(s, sid, "an interface");
                continue;
            };
            if si.kind != InterfaceKind::Abstract {
                plain += 1;
                if plain > 1 {
                    self.err(
                        &s.location,
                        format!(
                            "value type `{vname}` supports more than one non-abstract interface"
                        ),
                    );
                }
            }
            supports.push(sid);
        }
        let all_bases = self.all_bases(&bases);
        let inner = self.open_scope(scope, id);
        self.scopes[inner].bases = bases
            .iter()
            .chain(&supports)
            .filter_map(|b| self.scope_of.get(b).copied())
            .collect();
        // The operations and attributes of the supported interfaces (and
        // of those the value bases support), with their bases, are
        // inherited into the value's scope as much as those of its value
        // bases: a name declared here may not take one of them.
        let mut supported = supports.clone();
        for b in &all_bases {
            if let DeclKind::ValueType(bv) = &self.decls[b.0].kind {
                supported.extend(bv.supports.iter().copied());
            }
        }
        let supported = self.all_bases(&supported);
        let from: Vec<DeclId> = all_bases.iter().chain(&supported).copied().collect();
        let inherited = self.inherited_members(&v.name, &from);
        let mut exports = Vec::new();
        let mut members = Vec::new();
        let mut factories = Vec::new();
        // Exports keep their order relative to each other; state members
        // and factories are declared in order as they come.
        let mut ops = Vec::new();
        let mut attrs = Vec::new();
        for e in &v.body {
            match e {
                ast::ValueElement::Export(x) => {
                    exports.clear();
                    exports.push(x.clone());
                    let (o, a) = self.exports(inner, id, &exports, &inherited);
                    ops.extend(o);
                    attrs.extend(a);
                }
                ast::ValueElement::State(s) => {
                    let ty = self.resolve_type(inner, &s.type_spec);
                    for d in &s.declarators {
                        let ty = self.array(inner, ty.clone(), d);
                        self.check_inherited(id, &d.name, &inherited);
                        self.member_name(inner, &d.name, "state member");
                        members.push(StateMember {
                            public: s.public,
                            name: d.name.name.clone(),
                            ty,
                            doc: s.doc.clone(),
                            location: d.name.location.clone(),
                        });
                    }
                }
                ast::ValueElement::Factory(f) => {
                    let params = self.params(inner, &f.params);
                    let raises = self.raises(inner, &f.raises);
                    self.check_inherited(id, &f.name, &inherited);
                    self.member_name(inner, &f.name, "factory");
                    factories.push(Factory {
                        name: f.name.name.clone(),
                        params,
                        raises,
                        doc: f.doc.clone(),
                        location: f.name.location.clone(),
                    });
                }
            }
        }
        let (ops, attrs) = self.with_inherited(id, ops, attrs, &all_bases);
        if let DeclKind::ValueType(d) = &mut self.decls[id.0].kind {
            d.bases = bases;
            d.all_bases = all_bases;
            d.supports = supports;
            d.members = members;
            d.factories = factories;
            d.operations = ops;
            d.attributes = attrs;
        }
    }
}
