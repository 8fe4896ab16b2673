//! How IDL types map to Rust types, and the code that writes, reads and
//! describes (TypeCode) a value of each.
//!
//! Values are written by statements over an encoder `e` and a *reference*
//! expression to the value; they are read by an expression over a decoder
//! `d`. Types whose Rust type's own `CdrEncode`/`CdrDecode` is exactly the
//! IDL encoding ("plain" types) use those impls; the others (`wchar`,
//! `wstring`, `fixed`, bounded strings and sequences, object references,
//! and sequences or arrays of them) get code written out element by
//! element, with bound checks.

use crate::sema::{ConstValue, DeclId, DeclKind, ForwardKind, InterfaceKind, Type, ValueKind};

/// The Rust type of `ValueBase` (and of a valuetype only declared
/// forward).
const VALUE_BASE_TY: &str =
    "::core::option::Option<::std::sync::Arc<dyn ::rtorb::codegen::valuetype::ValueBase>>";

/// Reads a `ValueBase`.
const READ_VALUE_BASE: &str = "::rtorb::codegen::valuetype::read_value::<dyn ::rtorb::codegen::valuetype::ValueBase>(d, None)?";

use super::emit::Gen;

/// The Rust spelling of an IDL primitive, if `ty` is one.
fn primitive(ty: &Type) -> Option<&'static str> {
    Some(match ty {
        Type::Short => "i16",
        Type::Long => "i32",
        Type::LongLong => "i64",
        Type::UShort => "u16",
        Type::ULong => "u32",
        Type::ULongLong => "u64",
        Type::Float => "f32",
        Type::Double => "f64",
        Type::Char | Type::WChar => "char",
        Type::Boolean => "bool",
        Type::Octet => "u8",
        _ => return None,
    })
}

/// The `TypeCode` constructor of an IDL primitive.
fn primitive_tc(ty: &Type) -> Option<&'static str> {
    Some(match ty {
        Type::Short => "short",
        Type::Long => "long",
        Type::LongLong => "longlong",
        Type::UShort => "ushort",
        Type::ULong => "ulong",
        Type::ULongLong => "ulonglong",
        Type::Float => "float",
        Type::Double => "double",
        Type::LongDouble => "longdouble",
        Type::Char => "char",
        Type::WChar => "wchar",
        Type::Boolean => "boolean",
        Type::Octet => "octet",
        Type::Any => "any",
        Type::TypeCode => "tc_typecode",
        _ => return None,
    })
}

impl Gen<'_> {
    /// The Rust type of a value of `ty` (owned).
    pub(super) fn rust_ty(&mut self, ty: &Type) -> String {
        if let Some(p) = primitive(ty) {
            return p.into();
        }
        match ty {
            Type::LongDouble => "::rtorb::codegen::LongDouble".into(),
            Type::Any => "::rtorb::codegen::Any".into(),
            Type::TypeCode => "::rtorb::codegen::TypeCode".into(),
            Type::Object => "::core::option::Option<::rtorb::codegen::Object>".into(),
            Type::String(_) | Type::WString(_) => "::std::string::String".into(),
            Type::Fixed { .. } => "::rtorb::codegen::Fixed".into(),
            Type::Sequence { element, .. } => {
                if **element == Type::Octet {
                    "::rtorb::codegen::Bytes".into()
                } else {
                    format!("::std::vec::Vec<{}>", self.rust_ty(element))
                }
            }
            Type::Array { element, dims } => {
                let mut out = self.rust_ty(element);
                for d in dims.iter().rev() {
                    out = format!("[{out}; {d}]");
                }
                out
            }
            Type::Named(id) => self.named_ty(*id),
            _ => VALUE_BASE_TY.into(),
        }
    }

    fn named_ty(&mut self, id: DeclId) -> String {
        match &self.model.decl(id).kind {
            DeclKind::Interface(i) => match i.kind {
                InterfaceKind::Local => format!(
                    "::core::option::Option<::rtorb::codegen::Local<dyn {}>>",
                    self.path_to(id)
                ),
                InterfaceKind::Abstract => format!(
                    "::core::option::Option<::rtorb::codegen::Abstract<{}>>",
                    self.path_to(id)
                ),
                _ => format!("::core::option::Option<{}>", self.path_to(id)),
            },
            DeclKind::ValueType(_) => format!(
                "::core::option::Option<::std::sync::Arc<dyn {}>>",
                self.value_trait_path(id)
            ),
            DeclKind::ValueBox(_) => format!("::core::option::Option<{}>", self.path_to(id)),
            DeclKind::Native => self.path_to(id),
            DeclKind::Forward(f) => match f.of {
                ForwardKind::Value(_) => VALUE_BASE_TY.into(),
                ForwardKind::Interface(InterfaceKind::Abstract) => {
                    "::core::option::Option<::rtorb::codegen::Abstract<::rtorb::codegen::Object>>"
                        .into()
                }
                ForwardKind::Interface(InterfaceKind::Local) => {
                    "::core::option::Option<::rtorb::codegen::Local<dyn ::std::any::Any + Send + Sync>>"
                        .into()
                }
                _ => "::core::option::Option<::rtorb::codegen::Object>".into(),
            },
            DeclKind::Struct(_)
            | DeclKind::Union(_)
            | DeclKind::Enum(_)
            | DeclKind::Alias(_)
            | DeclKind::Exception(_) => self.path_to(id),
            _ => {
                let name = self.model.decl(id).name.clone();
                self.unsupported(&format!(
                    "`{name}`: native types, value types and value boxes are not supported by the Rust back end"
                ));
                "()".into()
            }
        }
    }

    /// The type of an `in` parameter of a stub method: primitives and
    /// enums by value, strings as `&str`, sequences as slices, the rest
    /// by reference. Returns the type and whether it is a reference.
    pub(super) fn in_param_ty(&mut self, ty: &Type) -> (String, bool) {
        let model = self.model;
        let un = model.unalias(ty);
        if primitive(un).is_some() {
            return (self.rust_ty(ty), false);
        }
        match un {
            Type::Named(id) if matches!(model.decl(*id).kind, DeclKind::Enum(_)) => {
                (self.rust_ty(ty), false)
            }
            Type::String(_) | Type::WString(_) => ("&str".into(), true),
            Type::Sequence { element, .. } => {
                let el = if **element == Type::Octet {
                    "u8".into()
                } else {
                    self.rust_ty(element)
                };
                (format!("&[{el}]"), true)
            }
            _ => (format!("&{}", self.rust_ty(ty)), true),
        }
    }

    /// Whether the Rust type's own CDR impls encode `ty` as IDL says.
    pub(super) fn plain(&self, ty: &Type) -> bool {
        match ty {
            Type::WChar
            | Type::WString(_)
            | Type::Fixed { .. }
            | Type::Object
            | Type::ValueBase => false,
            Type::String(bound) => bound.is_none(),
            Type::Sequence { element, bound } => bound.is_none() && self.plain(element),
            Type::Array { element, .. } => self.plain(element),
            Type::Named(id) => match &self.model.decl(*id).kind {
                DeclKind::Alias(a) => self.plain(&a.target),
                DeclKind::Struct(_)
                | DeclKind::Union(_)
                | DeclKind::Enum(_)
                | DeclKind::Exception(_) => true,
                _ => false,
            },
            _ => true,
        }
    }

    /// Whether a value of `ty` holds an object reference (its decoding
    /// needs the current invoker).
    pub(super) fn has_objref(&self, ty: &Type) -> bool {
        self.objref_in(ty, &mut Vec::new())
    }

    /// [`Self::has_objref`], not looking again into the named types in
    /// `seen` (recursive types refer to themselves).
    fn objref_in(&self, ty: &Type, seen: &mut Vec<DeclId>) -> bool {
        match ty {
            // A value may be of a derived type holding references.
            Type::Object | Type::ValueBase => true,
            Type::Sequence { element, .. } | Type::Array { element, .. } => {
                self.objref_in(element, seen)
            }
            Type::Named(id) => {
                if seen.contains(id) {
                    return false;
                }
                seen.push(*id);
                match &self.model.decl(*id).kind {
                    DeclKind::Interface(i) => i.kind != InterfaceKind::Local,
                    DeclKind::Forward(_) | DeclKind::ValueType(_) => true,
                    DeclKind::ValueBox(b) => self.objref_in(&b.boxed, seen),
                    DeclKind::Alias(a) => self.objref_in(&a.target, seen),
                    DeclKind::Struct(s) => s.members.iter().any(|m| self.objref_in(&m.ty, seen)),
                    DeclKind::Exception(x) => x.members.iter().any(|m| self.objref_in(&m.ty, seen)),
                    DeclKind::Union(u) => u.cases.iter().any(|c| self.objref_in(&c.ty, seen)),
                    _ => false,
                }
            }
            _ => false,
        }
    }

    /// Whether the Rust type of `ty` implements `PartialEq`.
    pub(super) fn has_eq(&self, ty: &Type) -> bool {
        !self.has_objref(ty) && !self.no_eq_in(ty, &mut Vec::new())
    }

    /// Whether `ty` holds a local interface or native value (whose Rust
    /// types have no `PartialEq`), not looking again into the named types
    /// in `seen`: a type that holds itself (through a sequence) is
    /// comparable if the rest of it is.
    fn no_eq_in(&self, ty: &Type, seen: &mut Vec<DeclId>) -> bool {
        match ty {
            Type::Sequence { element, .. } | Type::Array { element, .. } => {
                self.no_eq_in(element, seen)
            }
            Type::Named(id) => {
                if seen.contains(id) {
                    return false;
                }
                seen.push(*id);
                match &self.model.decl(*id).kind {
                    DeclKind::Interface(_) | DeclKind::Native | DeclKind::ValueType(_) => true,
                    DeclKind::Forward(_) => true,
                    DeclKind::ValueBox(b) => self.no_eq_in(&b.boxed, seen),
                    DeclKind::Alias(a) => self.no_eq_in(&a.target, seen),
                    DeclKind::Struct(s) => s.members.iter().any(|m| self.no_eq_in(&m.ty, seen)),
                    DeclKind::Exception(x) => x.members.iter().any(|m| self.no_eq_in(&m.ty, seen)),
                    DeclKind::Union(u) => u.cases.iter().any(|c| self.no_eq_in(&c.ty, seen)),
                    _ => false,
                }
            }
            _ => false,
        }
    }

    /// Whether the Rust type of `ty` implements `Default`.
    pub(super) fn has_default(&self, ty: &Type, depth: usize) -> bool {
        if depth > 64 {
            return false;
        }
        match ty {
            Type::Any | Type::TypeCode | Type::Fixed { .. } => false,
            Type::Array { element, dims } => {
                dims.iter().all(|d| *d <= 32) && self.has_default(element, depth + 1)
            }
            Type::Named(id) => match &self.model.decl(*id).kind {
                DeclKind::Alias(a) => self.has_default(&a.target, depth + 1),
                DeclKind::Struct(s) => s.members.iter().all(|m| self.has_default(&m.ty, depth + 1)),
                DeclKind::Enum(_)
                | DeclKind::Interface(_)
                | DeclKind::Forward(_)
                | DeclKind::ValueType(_)
                | DeclKind::ValueBox(_) => true,
                _ => false,
            },
            _ => true,
        }
    }

    /// The fewest octets a value of `ty` occupies on the wire.
    pub(super) fn min_size(&self, ty: &Type, depth: usize) -> usize {
        if depth > 64 {
            return 1;
        }
        match ty {
            Type::Short | Type::UShort => 2,
            Type::Long | Type::ULong | Type::Float => 4,
            Type::LongLong | Type::ULongLong | Type::Double => 8,
            Type::LongDouble => 16,
            Type::Char | Type::Boolean | Type::Octet => 1,
            Type::WChar => 1,
            Type::Any => 4,
            Type::TypeCode => 4,
            Type::Object => 9,
            Type::String(_) => 5,
            Type::WString(_) => 4,
            Type::Sequence { .. } => 4,
            Type::Fixed { digits, .. } => usize::from(*digits) / 2 + 1,
            Type::Array { element, dims } => dims
                .iter()
                .fold(self.min_size(element, depth + 1), |acc, d| {
                    acc.saturating_mul(*d as usize)
                }),
            Type::Named(id) => match &self.model.decl(*id).kind {
                DeclKind::Alias(a) => self.min_size(&a.target, depth + 1),
                DeclKind::Struct(s) => s
                    .members
                    .iter()
                    .map(|m| self.min_size(&m.ty, depth + 1))
                    .fold(0usize, usize::saturating_add),
                DeclKind::Exception(s) => s
                    .members
                    .iter()
                    .map(|m| self.min_size(&m.ty, depth + 1))
                    .fold(0usize, usize::saturating_add),
                DeclKind::Union(u) => self.min_size(&u.discriminator, depth + 1),
                DeclKind::Enum(_) => 4,
                DeclKind::Interface(i) => match i.kind {
                    InterfaceKind::Local => 1,
                    InterfaceKind::Abstract => 5,
                    _ => 9,
                },
                DeclKind::Forward(_) => 5,
                DeclKind::ValueType(_) | DeclKind::ValueBox(_) => 4,
                _ => 1,
            },
            Type::ValueBase => 4,
        }
    }

    /// Statements writing the value `expr` (a reference to a value of
    /// `ty`) to the encoder `e`.
    pub(super) fn encode(&mut self, ty: &Type, expr: &str) -> String {
        // The value itself, as the receiver of a method call.
        let recv = expr.strip_prefix('&').unwrap_or(expr);
        let value = match expr.strip_prefix('&') {
            Some(v) => v.to_string(),
            None => format!("*{expr}"),
        };
        match ty {
            Type::WChar => return format!("e.write_wchar({value})?;"),
            Type::WString(b) => {
                return format!(
                    "{}e.write_wstring({expr})?;",
                    bound_check(*b, &format!("{recv}.chars().count()"))
                );
            }
            Type::String(b @ Some(_)) => {
                return format!(
                    "{}e.write_string({expr})?;",
                    bound_check(*b, &format!("{recv}.len()"))
                );
            }
            Type::Fixed { .. } => return format!("e.write_fixed({expr});"),
            Type::Object => {
                return format!("::rtorb::codegen::write_object(e, {recv}.as_ref())?;");
            }
            Type::ValueBase => {
                return format!("::rtorb::codegen::valuetype::write_value(e, {recv}.as_ref())?;");
            }
            Type::Named(id) => match &self.model.decl(*id).kind {
                DeclKind::Alias(a) => {
                    let target = a.target.clone();
                    return self.encode(&target, expr);
                }
                DeclKind::ValueType(_) => {
                    return format!(
                        "::rtorb::codegen::valuetype::write_value(e, {recv}.as_ref())?;"
                    );
                }
                DeclKind::ValueBox(_) => {
                    return format!(
                        "::rtorb::codegen::valuetype::write_value_unshared(e, {recv}.as_ref())?;"
                    );
                }
                DeclKind::Native => {
                    let what = format!("native type {}", self.model.decl(*id).name);
                    return format!("::rtorb::codegen::not_marshalable(e, {what:?})?;");
                }
                DeclKind::Interface(i) if i.kind == InterfaceKind::Local => {
                    let what = format!("local interface {}", self.model.decl(*id).name);
                    return format!("::rtorb::codegen::not_marshalable(e, {what:?})?;");
                }
                DeclKind::Interface(i) if i.kind == InterfaceKind::Abstract => {
                    return format!("::rtorb::codegen::write_abstract(e, {recv}.as_ref())?;");
                }
                DeclKind::Forward(f) if matches!(f.of, ForwardKind::Value(_)) => {
                    return format!(
                        "::rtorb::codegen::valuetype::write_value(e, {recv}.as_ref())?;"
                    );
                }
                DeclKind::Forward(f) if f.of == ForwardKind::Interface(InterfaceKind::Abstract) => {
                    return format!("::rtorb::codegen::write_abstract(e, {recv}.as_ref())?;");
                }
                DeclKind::Forward(f) if f.of == ForwardKind::Interface(InterfaceKind::Local) => {
                    return "::rtorb::codegen::not_marshalable(e, \"local interface\")?;".into();
                }
                DeclKind::Interface(_) => {
                    return format!(
                        "::rtorb::codegen::write_object(e, {recv}.as_ref().map(::rtorb::codegen::Stub::as_object))?;"
                    );
                }
                DeclKind::Forward(_) => {
                    return format!("::rtorb::codegen::write_object(e, {recv}.as_ref())?;");
                }
                _ => {}
            },
            Type::Sequence { element, bound } => {
                let check = bound_check(*bound, &format!("{recv}.len()"));
                if self.plain(element) {
                    return format!("{check}::rtorb::codegen::CdrEncode::encode({expr}, e)?;");
                }
                let inner = self.encode(element, "x");
                return format!(
                    "{check}e.write_len({recv}.len())?; for x in {recv}.iter() {{ {inner} }}"
                );
            }
            Type::Array { element, dims } if !self.plain(element) => {
                let inner_ty = match dims.split_first() {
                    Some((_, rest)) if !rest.is_empty() => Type::Array {
                        element: element.clone(),
                        dims: rest.to_vec(),
                    },
                    _ => (**element).clone(),
                };
                let inner = self.encode(&inner_ty, "x");
                return format!("for x in {recv}.iter() {{ {inner} }}");
            }
            _ => {}
        }
        format!("::rtorb::codegen::CdrEncode::encode({expr}, e)?;")
    }

    /// An expression reading a value of `ty` from the decoder `d`.
    pub(super) fn decode(&mut self, ty: &Type) -> String {
        match ty {
            Type::WChar => return "d.read_wchar()?".into(),
            Type::WString(None) => return "d.read_wstring()?".into(),
            Type::WString(b) => {
                return format!(
                    "{{ let s = d.read_wstring()?; {}s }}",
                    bound_check(*b, "s.chars().count()")
                );
            }
            Type::String(b @ Some(_)) => {
                return format!(
                    "{{ let s = d.read_string()?; {}s }}",
                    bound_check(*b, "s.len()")
                );
            }
            Type::Fixed { digits, scale } => {
                return format!("d.read_fixed({digits}, {scale})?");
            }
            Type::Object => return "::rtorb::codegen::read_object(d)?".into(),
            Type::ValueBase => return READ_VALUE_BASE.into(),
            Type::Named(id) => match &self.model.decl(*id).kind {
                DeclKind::Alias(a) => {
                    let target = a.target.clone();
                    return self.decode(&target);
                }
                DeclKind::ValueType(v) => {
                    let own = if v.kind == ValueKind::Abstract {
                        "None".to_string()
                    } else {
                        let p = self.path_to(*id);
                        format!("Some(({p}::REPOSITORY_ID, {p}::unmarshal))")
                    };
                    return format!(
                        "::rtorb::codegen::valuetype::read_value::<dyn {}>(d, {own})?",
                        self.value_trait_path(*id)
                    );
                }
                DeclKind::ValueBox(_) => {
                    let p = self.path_to(*id);
                    return format!(
                        "::rtorb::codegen::valuetype::read_value_unshared::<{p}>(d, {p}::REPOSITORY_ID, {p}::unmarshal)?"
                    );
                }
                DeclKind::Native => {
                    let what = format!("native type {}", self.model.decl(*id).name);
                    return format!("::rtorb::codegen::not_unmarshalable(d, {what:?})?");
                }
                DeclKind::Interface(i) if i.kind == InterfaceKind::Local => {
                    let what = format!("local interface {}", self.model.decl(*id).name);
                    return format!("::rtorb::codegen::not_unmarshalable(d, {what:?})?");
                }
                DeclKind::Interface(i) if i.kind == InterfaceKind::Abstract => {
                    return format!(
                        "::rtorb::codegen::read_abstract::<{}>(d)?",
                        self.path_to(*id)
                    );
                }
                DeclKind::Forward(f) if matches!(f.of, ForwardKind::Value(_)) => {
                    return READ_VALUE_BASE.into();
                }
                DeclKind::Forward(f) if f.of == ForwardKind::Interface(InterfaceKind::Abstract) => {
                    return "::rtorb::codegen::read_abstract::<::rtorb::codegen::Object>(d)?"
                        .into();
                }
                DeclKind::Forward(f) if f.of == ForwardKind::Interface(InterfaceKind::Local) => {
                    return "::rtorb::codegen::not_unmarshalable(d, \"local interface\")?".into();
                }
                DeclKind::Interface(_) => {
                    let stub = self.path_to(*id);
                    return format!(
                        "::rtorb::codegen::read_object(d)?.map(<{stub} as ::rtorb::codegen::Stub>::from_object)"
                    );
                }
                DeclKind::Forward(_) => return "::rtorb::codegen::read_object(d)?".into(),
                _ => {}
            },
            Type::Sequence { element, bound } => {
                if self.plain(element) {
                    let rt = self.rust_ty(ty);
                    return match bound {
                        None => format!("<{rt} as ::rtorb::codegen::CdrDecode>::decode(d)?"),
                        Some(_) => format!(
                            "{{ let v = <{rt} as ::rtorb::codegen::CdrDecode>::decode(d)?; {}v }}",
                            bound_check(*bound, "v.len()")
                        ),
                    };
                }
                let min = self.min_size(element, 0).max(1);
                let inner = self.decode(element);
                return format!(
                    "{{ let n = d.read_len({min})?; {}d.enter()?; let mut v = ::std::vec::Vec::with_capacity(n); for _ in 0..n {{ v.push({inner}); }} d.leave(); v }}",
                    bound_check(*bound, "n")
                );
            }
            Type::Array { element, dims } if !self.plain(element) => {
                let inner_ty = match dims.split_first() {
                    Some((_, rest)) if !rest.is_empty() => Type::Array {
                        element: element.clone(),
                        dims: rest.to_vec(),
                    },
                    _ => (**element).clone(),
                };
                let n = dims.first().copied().unwrap_or(0);
                let inner = self.decode(&inner_ty);
                let rt = self.rust_ty(ty);
                return format!(
                    "{{ let mut v = ::std::vec::Vec::with_capacity({n}); for _ in 0..{n} {{ v.push({inner}); }} <{rt}>::try_from(v).map_err(|_| ::rtorb::codegen::CdrError::TypeMismatch(\"array length\"))? }}"
                );
            }
            _ => {}
        }
        let rt = self.rust_ty(ty);
        format!("<{rt} as ::rtorb::codegen::CdrDecode>::decode(d)?")
    }

    /// An expression giving the TypeCode of `ty`; `within` is the type
    /// being described, which a member refers to recursively.
    pub(super) fn type_code(&mut self, ty: &Type, within: Option<DeclId>) -> String {
        if let Some(c) = primitive_tc(ty) {
            return format!("::rtorb::codegen::TypeCode::{c}()");
        }
        match ty {
            Type::Object => {
                "::rtorb::codegen::TypeCode::objref(\"IDL:omg.org/CORBA/Object:1.0\", \"Object\")".into()
            }
            Type::String(b) => format!("::rtorb::codegen::TypeCode::string({})", b.unwrap_or(0)),
            Type::WString(b) => format!("::rtorb::codegen::TypeCode::wstring({})", b.unwrap_or(0)),
            Type::Fixed { digits, scale } => format!(
                "::rtorb::codegen::TypeCode::fixed({digits}, {scale}).unwrap_or_else(|_| ::rtorb::codegen::TypeCode::null())"
            ),
            Type::Sequence { element, bound } => format!(
                "::rtorb::codegen::TypeCode::sequence({}, {})",
                self.type_code(element, within),
                bound.unwrap_or(0)
            ),
            Type::Array { element, dims } => {
                let mut out = self.type_code(element, within);
                for d in dims.iter().rev() {
                    out = format!("::rtorb::codegen::TypeCode::array({out}, {d})");
                }
                out
            }
            Type::Named(id) => {
                let decl = self.model.decl(*id);
                let rid = decl.repository_id.clone().unwrap_or_default();
                if Some(*id) == within {
                    let kind = match decl.kind {
                        DeclKind::Union(_) => "Union",
                        DeclKind::ValueType(_) => "Value",
                        DeclKind::ValueBox(_) => "ValueBox",
                        _ => "Struct",
                    };
                    return format!(
                        "::rtorb::codegen::TypeCode::recursive(::rtorb::codegen::TCKind::{kind}, {rid:?}).unwrap_or_else(|_| ::rtorb::codegen::TypeCode::null())"
                    );
                }
                match &decl.kind {
                    // A typedef that leads back to the type being described
                    // (`typedef sequence<Tree> Forest;` in `Tree`) is
                    // written out here, so the recursion ends in a
                    // recursive placeholder instead of calling the typedef's
                    // function, which would call this type's again.
                    DeclKind::Alias(a) if within.is_some_and(|w| self.leads_to(&a.target, w)) => {
                        let target = a.target.clone();
                        let name = decl.name.clone();
                        let inner = self.type_code(&target, within);
                        format!("::rtorb::codegen::TypeCode::alias({rid:?}, {name:?}, {inner})")
                    }
                    DeclKind::Alias(_) => format!("{}()", self.alias_tc_fn_path(*id)),
                    DeclKind::Forward(f) => match f.of {
                        ForwardKind::Value(_) => format!(
                            "::rtorb::codegen::TypeCode::value_tc({rid:?}, {:?}, ::rtorb::codegen::typecode::VM_ABSTRACT, None, ::std::vec::Vec::new())",
                            decl.name
                        ),
                        ForwardKind::Interface(InterfaceKind::Abstract) => format!(
                            "::rtorb::codegen::TypeCode::abstract_interface({rid:?}, {:?})",
                            decl.name
                        ),
                        ForwardKind::Interface(InterfaceKind::Local) => format!(
                            "::rtorb::codegen::TypeCode::local_interface({rid:?}, {:?})",
                            decl.name
                        ),
                        _ => format!("::rtorb::codegen::TypeCode::objref({rid:?}, {:?})", decl.name),
                    },
                    DeclKind::Native => {
                        format!("::rtorb::codegen::TypeCode::native({rid:?}, {:?})", decl.name)
                    }
                    DeclKind::Interface(i) if i.kind == InterfaceKind::Local => format!(
                        "::rtorb::codegen::TypeCode::local_interface({rid:?}, {:?})",
                        decl.name
                    ),
                    DeclKind::ValueType(_) => format!(
                        "<dyn {} as ::rtorb::codegen::IdlType>::type_code()",
                        self.value_trait_path(*id)
                    ),
                    DeclKind::Interface(_) => {
                        format!(
                            "<{} as ::rtorb::codegen::IdlType>::type_code()",
                            self.path_to(*id)
                        )
                    }
                    _ => format!(
                        "<{} as ::rtorb::codegen::IdlType>::type_code()",
                        self.path_to(*id)
                    ),
                }
            }
            Type::ValueBase => "::rtorb::codegen::TypeCode::value_tc(\"IDL:omg.org/CORBA/ValueBase:1.0\", \"ValueBase\", ::rtorb::codegen::typecode::VM_NONE, None, ::std::vec::Vec::new())".into(),
            _ => "::rtorb::codegen::TypeCode::null()".into(),
        }
    }

    /// Whether `ty` names `target` through sequences, arrays and typedefs
    /// (not through other structs or unions, which describe themselves).
    fn leads_to(&self, ty: &Type, target: DeclId) -> bool {
        match ty {
            Type::Sequence { element, .. } | Type::Array { element, .. } => {
                self.leads_to(element, target)
            }
            Type::Named(id) if *id == target => true,
            Type::Named(id) => match &self.model.decl(*id).kind {
                DeclKind::Alias(a) => self.leads_to(&a.target, target),
                _ => false,
            },
            _ => false,
        }
    }

    /// A Rust literal of a constant or label value, typed as `ty`'s Rust
    /// type where an untyped literal would be ambiguous.
    pub(super) fn literal(&mut self, v: &ConstValue, suffix: bool) -> String {
        let s = |x: String, t: &str| if suffix { format!("{x}{t}") } else { x };
        match v {
            ConstValue::Short(x) => s(x.to_string(), "i16"),
            ConstValue::UShort(x) => s(x.to_string(), "u16"),
            ConstValue::Long(x) => s(x.to_string(), "i32"),
            ConstValue::ULong(x) => s(x.to_string(), "u32"),
            ConstValue::LongLong(x) => s(x.to_string(), "i64"),
            ConstValue::ULongLong(x) => s(x.to_string(), "u64"),
            ConstValue::Octet(x) => s(x.to_string(), "u8"),
            ConstValue::Float(x) => float_lit(format!("{x:?}"), "f32"),
            ConstValue::Double(x) | ConstValue::LongDouble(x) => float_lit(format!("{x:?}"), "f64"),
            ConstValue::Char(c) | ConstValue::WChar(c) => format!("{c:?}"),
            ConstValue::Boolean(b) => b.to_string(),
            ConstValue::String(x) | ConstValue::WString(x) => format!("{x:?}"),
            ConstValue::Fixed(f) => format!("{:?}", f.to_string()),
            ConstValue::Enumerator(id) => self.enumerator_path(*id),
        }
    }

    /// A `rtorb_cdr::Value` expression of a union label.
    pub(super) fn label_value(&mut self, v: &ConstValue) -> String {
        let (var, lit) = match v {
            ConstValue::Short(_) => ("Short", self.literal(v, false)),
            ConstValue::UShort(_) => ("UShort", self.literal(v, false)),
            ConstValue::Long(_) => ("Long", self.literal(v, false)),
            ConstValue::ULong(_) => ("ULong", self.literal(v, false)),
            ConstValue::LongLong(_) => ("LongLong", self.literal(v, false)),
            ConstValue::ULongLong(_) => ("ULongLong", self.literal(v, false)),
            ConstValue::Octet(_) => ("Octet", self.literal(v, false)),
            ConstValue::Char(_) => ("Char", self.literal(v, false)),
            ConstValue::WChar(_) => ("WChar", self.literal(v, false)),
            ConstValue::Boolean(_) => ("Boolean", self.literal(v, false)),
            ConstValue::Enumerator(id) => {
                let ord = match &self.model.decl(*id).kind {
                    DeclKind::Enumerator(e) => e.value,
                    _ => 0,
                };
                ("Enum", ord.to_string())
            }
            _ => ("Null", String::new()),
        };
        if lit.is_empty() {
            return "::rtorb::codegen::Value::Null".into();
        }
        format!("::rtorb::codegen::Value::{var}({lit})")
    }
}

fn float_lit(t: String, suffix: &str) -> String {
    if t.contains(['.', 'e', 'E']) {
        format!("{t}{suffix}")
    } else {
        format!("{t}.0{suffix}")
    }
}

/// A statement that fails with `BoundExceeded` when `len` exceeds `bound`.
fn bound_check(bound: Option<u32>, len: &str) -> String {
    match bound {
        None => String::new(),
        Some(b) => format!("::rtorb::codegen::check_bound({len}, {b})?;"),
    }
}
