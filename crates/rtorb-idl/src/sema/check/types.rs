//! Constructed types: typedefs, structs, exceptions, enums and unions
//! (with their discriminators and case labels).

use crate::ast::{self, TypeDcl};
use crate::diag::{Diagnostic, Location};
use crate::sema::consts::{IntType, Target, show};
use crate::sema::model::*;
use crate::sema::scope::{Entry, ScopeId};

use super::Analyzer;

impl Analyzer {
    pub(super) fn type_dcl(&mut self, scope: ScopeId, t: &TypeDcl) {
        match t {
            TypeDcl::Typedef(td) => {
                let ty = self.resolve_type(scope, &td.type_spec);
                for d in &td.declarators {
                    let target = self.array(scope, ty.clone(), d);
                    self.declare(
                        scope,
                        &d.name,
                        &td.doc,
                        DeclKind::Alias(AliasDef { target }),
                        None,
                    );
                }
            }
            TypeDcl::Struct(s) => {
                self.structure(scope, s);
            }
            TypeDcl::Union(u) => {
                self.union(scope, u);
            }
            TypeDcl::Enum(e) => {
                self.enumeration(scope, e);
            }
            TypeDcl::Native(n) => {
                self.declare(scope, &n.name, &n.doc, DeclKind::Native, None);
            }
            TypeDcl::StructForward(f) => self.forward(scope, &f.name, &f.doc, ForwardKind::Struct),
            TypeDcl::UnionForward(f) => self.forward(scope, &f.name, &f.doc, ForwardKind::Union),
        }
    }

    /// Members of a struct or exception.
    pub(super) fn members(&mut self, scope: ScopeId, members: &[ast::Member]) -> Vec<Member> {
        let mut out = Vec::new();
        for m in members {
            let ty = self.resolve_type(scope, &m.type_spec);
            self.by_value(&ty, &m.type_spec.location);
            for d in &m.declarators {
                let ty = self.array(scope, ty.clone(), d);
                self.member_name(scope, &d.name, "member");
                out.push(Member {
                    name: d.name.name.clone(),
                    ty,
                    doc: m.doc.clone(),
                    location: d.name.location.clone(),
                });
            }
        }
        out
    }

    pub(super) fn structure(&mut self, scope: ScopeId, s: &ast::StructType) -> DeclId {
        let forward = self.completes(scope, &s.name, ForwardKind::Struct);
        let kind = DeclKind::Struct(StructDef {
            members: Vec::new(),
            contents: Vec::new(),
        });
        let id = self.declare(scope, &s.name, &s.doc, kind, forward);
        if forward.is_some() {
            self.insert(scope, &s.name.name, Entry::Decl(id));
        }
        self.complete(forward, id);
        if self.too_deep(scope, &s.location) {
            return id;
        }
        let inner = self.open_scope(scope, id);
        self.defining.insert(id);
        let members = self.members(inner, &s.members);
        self.defining.remove(&id);
        if let DeclKind::Struct(d) = &mut self.decls[id.0].kind {
            d.members = members;
        }
        id
    }

    pub(super) fn exception(&mut self, scope: ScopeId, e: &ast::Except) {
        let kind = DeclKind::Exception(ExceptionDef {
            members: Vec::new(),
            contents: Vec::new(),
        });
        let id = self.declare(scope, &e.name, &e.doc, kind, None);
        if self.too_deep(scope, &e.location) {
            return;
        }
        let inner = self.open_scope(scope, id);
        let members = self.members(inner, &e.members);
        if let DeclKind::Exception(d) = &mut self.decls[id.0].kind {
            d.members = members;
        }
    }

    pub(super) fn enumeration(&mut self, scope: ScopeId, e: &ast::EnumType) -> DeclId {
        let id = self.declare(
            scope,
            &e.name,
            &e.doc,
            DeclKind::Enum(EnumDef {
                enumerators: Vec::new(),
            }),
            None,
        );
        let mut list = Vec::new();
        for (i, en) in e.enumerators.iter().enumerate() {
            let value = u32::try_from(i).unwrap_or(u32::MAX);
            let eid = self.declare(
                scope,
                &en.name,
                &en.doc,
                DeclKind::Enumerator(EnumeratorDef { of: id, value }),
                None,
            );
            self.decls[eid.0].parent = Some(id);
            list.push(eid);
        }
        if let DeclKind::Enum(d) = &mut self.decls[id.0].kind {
            d.enumerators = list;
        }
        id
    }

    pub(super) fn union(&mut self, scope: ScopeId, u: &ast::UnionType) -> DeclId {
        let forward = self.completes(scope, &u.name, ForwardKind::Union);
        let kind = DeclKind::Union(UnionDef {
            discriminator: Type::Long,
            cases: Vec::new(),
            default_case: None,
            covers_all: false,
            contents: Vec::new(),
        });
        let id = self.declare(scope, &u.name, &u.doc, kind, forward);
        if forward.is_some() {
            self.insert(scope, &u.name.name, Entry::Decl(id));
        }
        self.complete(forward, id);
        if self.too_deep(scope, &u.location) {
            return id;
        }
        let inner = self.open_scope(scope, id);
        let discriminator = self.resolve_type(inner, &u.switch_type);
        let target = match self.unalias(&discriminator) {
            Type::Short => Some((Target::Int(IntType::Short), None)),
            Type::UShort => Some((Target::Int(IntType::UShort), None)),
            Type::Long => Some((Target::Int(IntType::Long), None)),
            Type::ULong => Some((Target::Int(IntType::ULong), None)),
            Type::LongLong => Some((Target::Int(IntType::LongLong), None)),
            Type::ULongLong => Some((Target::Int(IntType::ULongLong), None)),
            Type::Char => Some((Target::Char, Some(256))),
            Type::WChar => Some((Target::WChar, None)),
            Type::Boolean => Some((Target::Boolean, Some(2))),
            Type::Named(e) => match &self.decls[e.0].kind {
                DeclKind::Enum(d) => Some((
                    Target::Enum(e, self.decls[e.0].name.clone()),
                    Some(d.enumerators.len()),
                )),
                _ => None,
            },
            _ => None,
        };
        if target.is_none() && !self.has_errors_at(&u.switch_type.location) {
            self.err(
                &u.switch_type.location,
                format!(
                    "`{}` cannot discriminate a union (expected an integer, char, wchar, boolean or enum type)",
                    self.type_name(&discriminator)
                ),
            );
        }
        self.defining.insert(id);
        let mut cases = Vec::new();
        let mut seen: Vec<(ConstValue, Location)> = Vec::new();
        let mut default: Option<(usize, Location)> = None;
        for c in &u.cases {
            let mut labels = Vec::new();
            let mut is_default = false;
            for l in &c.labels {
                match l {
                    ast::CaseLabel::Default(loc) => {
                        if let Some((_, first)) = &default {
                            self.diags.push(
                                Diagnostic::error(loc.clone(), "more than one default case")
                                    .with_note(first.clone(), "the first default case is here"),
                            );
                        } else {
                            default = Some((cases.len(), loc.clone()));
                        }
                        is_default = true;
                    }
                    ast::CaseLabel::Value(expr) => {
                        let Some((target, _)) = &target else { continue };
                        let Some(v) = self.eval_label(inner, expr, target) else {
                            continue;
                        };
                        if let Some((_, first)) = seen.iter().find(|(s, _)| *s == v) {
                            let shown = show(&v, |e| self.decls[e.0].name.clone());
                            self.diags.push(
                                Diagnostic::error(
                                    expr.location.clone(),
                                    format!("duplicate case label `{shown}`"),
                                )
                                .with_note(first.clone(), "first used here"),
                            );
                            continue;
                        }
                        seen.push((v.clone(), expr.location.clone()));
                        labels.push(v);
                    }
                }
            }
            let ty = self.resolve_type(inner, &c.type_spec);
            self.by_value(&ty, &c.type_spec.location);
            let ty = self.array(inner, ty, &c.declarator);
            self.member_name(inner, &c.declarator.name, "member");
            cases.push(UnionCase {
                labels,
                is_default,
                name: c.declarator.name.name.clone(),
                ty,
                doc: c.doc.clone(),
                location: c.declarator.name.location.clone(),
            });
        }
        self.defining.remove(&id);
        let covers_all = matches!(&target, Some((_, Some(n))) if seen.len() >= *n);
        if covers_all {
            if let Some((_, loc)) = &default {
                let name = self.type_name(&discriminator);
                self.err(
                    loc,
                    format!(
                        "default case is unreachable: the labels cover every value of `{name}`"
                    ),
                );
            }
        }
        if let DeclKind::Union(d) = &mut self.decls[id.0].kind {
            d.discriminator = discriminator;
            d.cases = cases;
            d.default_case = default.map(|(i, _)| i);
            d.covers_all = covers_all;
        }
        id
    }
}
