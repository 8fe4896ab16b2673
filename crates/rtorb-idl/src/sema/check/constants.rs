//! Constants: declarations, evaluation of constant expressions against
//! their target type, union case labels and positive bounds.

use crate::ast::{self, ScopedName};
use crate::diag::Location;
use crate::sema::consts::{Evaluator, IntType, NamedValue, Target};
use crate::sema::model::*;
use crate::sema::scope::ScopeId;

use super::Analyzer;

impl Analyzer {
    pub(super) fn has_errors_at(&self, location: &Location) -> bool {
        self.diags.iter().any(|d| d.location == *location)
    }

    pub(super) fn eval_label(
        &mut self,
        scope: ScopeId,
        expr: &ast::ConstExpr,
        target: &Target,
    ) -> Option<ConstValue> {
        let mut diags = Vec::new();
        let v = {
            let mut resolve = |n: &ScopedName| self.named_value(scope, n);
            Evaluator {
                resolve: &mut resolve,
                diags: &mut diags,
            }
            .eval(expr, target)
        };
        for mut d in diags {
            if let Some(rest) = d.message.strip_prefix("constant overflow: ") {
                d.message = format!("case label out of range: {rest}");
            }
            self.diags.push(d);
        }
        v
    }

    pub(super) fn constant(&mut self, scope: ScopeId, c: &ast::Const) {
        let ty = self.resolve_type(scope, &c.type_spec);
        let value = match self.target(&ty) {
            Some(target) => self.eval(scope, &c.value, &target),
            None => {
                if !self.has_errors_at(&c.type_spec.location) {
                    let name = self.type_name(&ty);
                    self.err(
                        &c.type_spec.location,
                        format!("`{name}` is not a valid constant type"),
                    );
                }
                None
            }
        };
        let value = value.unwrap_or(ConstValue::Long(0));
        self.declare(
            scope,
            &c.name,
            &c.doc,
            DeclKind::Const(ConstDef { ty, value }),
            None,
        );
    }

    pub(super) fn eval(
        &mut self,
        scope: ScopeId,
        expr: &ast::ConstExpr,
        target: &Target,
    ) -> Option<ConstValue> {
        let mut diags = Vec::new();
        let v = {
            let mut resolve = |n: &ScopedName| self.named_value(scope, n);
            Evaluator {
                resolve: &mut resolve,
                diags: &mut diags,
            }
            .eval(expr, target)
        };
        self.diags.extend(diags);
        v
    }

    pub(super) fn named_value(&mut self, scope: ScopeId, n: &ScopedName) -> Option<NamedValue> {
        let id = self.resolve_decl(scope, n, true)?;
        match &self.decls[id.0].kind {
            DeclKind::Const(c) => Some(match &c.value {
                ConstValue::Enumerator(e) => match &self.decls[e.0].kind {
                    DeclKind::Enumerator(en) => NamedValue::Enumerator(*e, en.of),
                    _ => return None,
                },
                v => NamedValue::Const(v.clone()),
            }),
            DeclKind::Enumerator(e) => Some(NamedValue::Enumerator(id, e.of)),
            _ => {
                self.not_a(n, id, "a constant");
                None
            }
        }
    }

    pub(super) fn target(&self, ty: &Type) -> Option<Target> {
        Some(match self.unalias(ty) {
            Type::Short => Target::Int(IntType::Short),
            Type::UShort => Target::Int(IntType::UShort),
            Type::Long => Target::Int(IntType::Long),
            Type::ULong => Target::Int(IntType::ULong),
            Type::LongLong => Target::Int(IntType::LongLong),
            Type::ULongLong => Target::Int(IntType::ULongLong),
            Type::Octet => Target::Int(IntType::Octet),
            Type::Float => Target::Float,
            Type::Double => Target::Double,
            Type::LongDouble => Target::LongDouble,
            Type::Char => Target::Char,
            Type::WChar => Target::WChar,
            Type::Boolean => Target::Boolean,
            Type::String(b) => Target::String(b),
            Type::WString(b) => Target::WString(b),
            Type::Fixed { digits, scale } => Target::Fixed(digits, scale),
            Type::Named(id) if matches!(self.decls[id.0].kind, DeclKind::Enum(_)) => {
                Target::Enum(id, self.decls[id.0].name.clone())
            }
            _ => return None,
        })
    }

    /// A positive bound or dimension.
    pub(super) fn positive(
        &mut self,
        scope: ScopeId,
        expr: &ast::ConstExpr,
        what: &str,
    ) -> Option<u32> {
        match self.eval(scope, expr, &Target::Int(IntType::ULong))? {
            ConstValue::ULong(0) => {
                self.err(&expr.location, format!("{what} must be positive, found 0"));
                None
            }
            ConstValue::ULong(n) => Some(n),
            _ => None,
        }
    }
}
