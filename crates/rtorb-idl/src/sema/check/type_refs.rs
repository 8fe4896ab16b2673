//! Type references: type specs resolved to [`Type`]s, arrays, the
//! uses of a type by value that IDL forbids before its definition, and the
//! names of types in messages.

use crate::ast::{self, BaseType, TypeKind};
use crate::diag::{Diagnostic, Location};
use crate::sema::consts::{IntType, Target};
use crate::sema::model::*;
use crate::sema::scope::{Entry, ScopeId};

use super::{Analyzer, MAX_DEPTH, Res};

impl Analyzer {
    pub(super) fn unalias(&self, ty: &Type) -> Type {
        let mut t = ty.clone();
        for _ in 0..=self.decls.len() {
            match &t {
                Type::Named(id) => match &self.decls[id.0].kind {
                    DeclKind::Alias(a) => t = a.target.clone(),
                    _ => break,
                },
                _ => break,
            }
        }
        t
    }

    pub(super) fn type_name(&self, ty: &Type) -> String {
        match ty {
            Type::Short => "short".into(),
            Type::Long => "long".into(),
            Type::LongLong => "long long".into(),
            Type::UShort => "unsigned short".into(),
            Type::ULong => "unsigned long".into(),
            Type::ULongLong => "unsigned long long".into(),
            Type::Float => "float".into(),
            Type::Double => "double".into(),
            Type::LongDouble => "long double".into(),
            Type::Char => "char".into(),
            Type::WChar => "wchar".into(),
            Type::Boolean => "boolean".into(),
            Type::Octet => "octet".into(),
            Type::Any => "any".into(),
            Type::Object => "Object".into(),
            Type::ValueBase => "ValueBase".into(),
            Type::TypeCode => "TypeCode".into(),
            Type::String(_) => "string".into(),
            Type::WString(_) => "wstring".into(),
            Type::Sequence { .. } => "sequence".into(),
            Type::Fixed { .. } => "fixed".into(),
            Type::Array { .. } => "array".into(),
            Type::Named(id) => self.decls[id.0].scoped_name.join("::"),
        }
    }

    // ----- types -----

    pub(super) fn array(&mut self, scope: ScopeId, ty: Type, d: &ast::Declarator) -> Type {
        if d.array_sizes.is_empty() {
            return ty;
        }
        let dims = d
            .array_sizes
            .iter()
            .map(|e| self.positive(scope, e, "array dimension").unwrap_or(1))
            .collect();
        Type::Array {
            element: Box::new(ty),
            dims,
        }
    }

    pub(super) fn resolve_type(&mut self, scope: ScopeId, spec: &ast::TypeSpec) -> Type {
        self.resolve_type_at(scope, spec, 0)
    }

    pub(super) fn resolve_type_at(
        &mut self,
        scope: ScopeId,
        spec: &ast::TypeSpec,
        depth: usize,
    ) -> Type {
        if depth > MAX_DEPTH {
            self.err(&spec.location, "type nested too deeply".into());
            return Type::Long;
        }
        match &spec.kind {
            TypeKind::Base(b) => base_type(*b),
            TypeKind::String(bound) => Type::String(
                bound
                    .as_ref()
                    .and_then(|b| self.positive(scope, b, "string bound")),
            ),
            TypeKind::WString(bound) => Type::WString(
                bound
                    .as_ref()
                    .and_then(|b| self.positive(scope, b, "string bound")),
            ),
            TypeKind::Sequence { element, bound } => {
                let element = Box::new(self.resolve_type_at(scope, element, depth + 1));
                let bound = bound
                    .as_ref()
                    .and_then(|b| self.positive(scope, b, "sequence bound"));
                Type::Sequence { element, bound }
            }
            TypeKind::Fixed { digits, scale } => {
                let d = self.eval(scope, digits, &Target::Int(IntType::UShort));
                let s = self.eval(scope, scale, &Target::Int(IntType::UShort));
                let (Some(ConstValue::UShort(d)), Some(ConstValue::UShort(s))) = (d, s) else {
                    return Type::Fixed {
                        digits: 1,
                        scale: 0,
                    };
                };
                if !(1..=31).contains(&d) {
                    self.err(
                        &digits.location,
                        format!("fixed-point digits must be from 1 to 31, found {d}"),
                    );
                } else if s > d {
                    self.err(
                        &scale.location,
                        format!("fixed-point scale {s} is greater than its digits {d}"),
                    );
                }
                Type::Fixed {
                    digits: u8::try_from(d.min(31)).unwrap_or(31),
                    scale: u8::try_from(s.min(d).min(31)).unwrap_or(0),
                }
            }
            TypeKind::FixedAny => Type::Fixed {
                digits: 0,
                scale: 0,
            },
            TypeKind::Struct(s) => Type::Named(self.structure(scope, s)),
            TypeKind::Union(u) => Type::Named(self.union(scope, u)),
            TypeKind::Enum(e) => Type::Named(self.enumeration(scope, e)),
            TypeKind::Scoped(name) => match self.resolve(scope, name, true) {
                None => Type::Long,
                Some(Res::Builtin(t)) => t,
                Some(Res::Entry(Entry::Member { kind, location })) => {
                    self.diags.push(
                        Diagnostic::error(
                            name.location.clone(),
                            format!("`{name}` is a {kind}, not a type"),
                        )
                        .with_note(location, format!("`{name}` is declared here")),
                    );
                    Type::Long
                }
                Some(Res::Entry(Entry::Decl(id))) => match &self.decls[id.0].kind {
                    DeclKind::Struct(_)
                    | DeclKind::Union(_)
                    | DeclKind::Enum(_)
                    | DeclKind::Alias(_)
                    | DeclKind::Interface(_)
                    | DeclKind::Forward(_)
                    | DeclKind::ValueType(_)
                    | DeclKind::ValueBox(_)
                    | DeclKind::Native => Type::Named(id),
                    _ => {
                        self.not_a(name, id, "a type");
                        Type::Long
                    }
                },
            },
        }
    }

    /// Reports a type that cannot be held by value here: a struct or union
    /// still being defined, or only forward-declared.
    pub(super) fn by_value(&mut self, ty: &Type, location: &Location) {
        let mut t = ty.clone();
        for _ in 0..=self.decls.len() {
            match t {
                Type::Array { element, .. } => t = *element,
                Type::Named(id) => match &self.decls[id.0].kind {
                    DeclKind::Alias(a) => t = a.target.clone(),
                    DeclKind::Forward(ForwardDef {
                        of: ForwardKind::Struct | ForwardKind::Union,
                        definition: None,
                    }) => {
                        let d = &self.decls[id.0];
                        let (name, note) = (d.name.clone(), d.location.clone());
                        self.diags.push(
                            Diagnostic::error(
                                location.clone(),
                                format!("`{name}` is used as a member before it is defined"),
                            )
                            .with_note(note, "forward-declared here"),
                        );
                        return;
                    }
                    DeclKind::Struct(_) | DeclKind::Union(_) if self.defining.contains(&id) => {
                        let name = self.decls[id.0].name.clone();
                        self.err(
                            location,
                            format!("illegal recursion: `{name}` contains itself other than through a sequence"),
                        );
                        return;
                    }
                    _ => return,
                },
                _ => return,
            }
        }
    }

    // ----- repository ids -----
}

pub(super) fn base_type(b: BaseType) -> Type {
    match b {
        BaseType::Short => Type::Short,
        BaseType::Long => Type::Long,
        BaseType::LongLong => Type::LongLong,
        BaseType::UShort => Type::UShort,
        BaseType::ULong => Type::ULong,
        BaseType::ULongLong => Type::ULongLong,
        BaseType::Float => Type::Float,
        BaseType::Double => Type::Double,
        BaseType::LongDouble => Type::LongDouble,
        BaseType::Char => Type::Char,
        BaseType::WChar => Type::WChar,
        BaseType::Boolean => Type::Boolean,
        BaseType::Octet => Type::Octet,
        BaseType::Any => Type::Any,
        BaseType::Object => Type::Object,
        BaseType::ValueBase => Type::ValueBase,
    }
}
