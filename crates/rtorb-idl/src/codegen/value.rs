//! Valuetypes, value boxes, native types and local interfaces.
//!
//! | IDL | Rust |
//! | --- | --- |
//! | `valuetype V { ... }` | struct `V` with every state member (those of its concrete bases first, `private` ones too), trait `VValue` with a method reading each state member `V` declares (what a member of type `V` holds: `Option<Arc<dyn VValue>>`), `pub mod v` with the types declared inside; `VOperations` (operations and attributes, which the program implements for `V`; its supertraits are the servant traits, or local interface traits, of the interfaces `V` and its value bases support, so their operations are methods to implement too, as in the C++ and Java mappings) when there are any, and `VInit` (factories) when declared |
//! | `abstract valuetype A` | trait `AValue` only |
//! | `valuetype B T;` | `pub struct B(pub T)`, held as `Option<B>` |
//! | `native N;` | `pub struct N(pub rtorb::value::Opaque)`, never marshalled |
//! | `local interface L` | trait `L`, held as `Option<rtorb::object::Local<dyn L>>`, never marshalled |

use std::fmt::Write as _;

use crate::sema::{
    DeclId, DeclKind, InterfaceDef, InterfaceKind, StateMember, Type, ValueDef, ValueKind,
};

use super::emit::{Gen, doc_or};
use super::interface::{IDL_NAMED_METHODS, Sig};
use super::names::{NameKind, Namer, upper_camel_case};

impl Gen<'_> {
    fn value_def(&self, id: DeclId) -> Option<&'_ ValueDef> {
        match &self.model.decl(id).kind {
            DeclKind::ValueType(v) => Some(v),
            _ => None,
        }
    }

    /// The concrete (first, non-abstract) value base of `id`.
    fn concrete_base(&self, id: DeclId) -> Option<DeclId> {
        let v = self.value_def(id)?;
        v.bases.first().copied().filter(|b| {
            self.value_def(*b)
                .is_some_and(|d| d.kind != ValueKind::Abstract)
        })
    }

    /// The state members of `id`, those of its concrete bases first.
    fn value_state(&self, id: DeclId, depth: usize) -> Vec<StateMember> {
        let mut out = Vec::new();
        if depth > 64 {
            return out;
        }
        if let Some(b) = self.concrete_base(id) {
            out = self.value_state(b, depth + 1);
        }
        if let Some(v) = self.value_def(id) {
            out.extend(v.members.iter().cloned());
        }
        out
    }

    /// The accessor methods of the own state members of `id` in its trait:
    /// IDL member name, method name, type.
    fn accessors(&self, id: DeclId) -> Vec<(String, String, Type)> {
        let mut namer = Namer::new();
        for r in [
            "repository_id",
            "truncatable_ids",
            "write_state",
            "as_any",
            "upcast",
            "type_id",
        ] {
            namer.reserve(r);
        }
        self.value_def(id)
            .map(|v| {
                v.members
                    .iter()
                    .map(|m| {
                        (
                            m.name.clone(),
                            namer.name(&m.name, NameKind::Value),
                            m.ty.clone(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The trait items reading the state members of `id`.
    fn accessor_decls(&mut self, id: DeclId) -> String {
        let mut out = String::new();
        for (idl, method, ty) in self.accessors(id) {
            let rt = self.rust_ty(&ty);
            let _ = write!(
                out,
                "#[doc = {:?}]\nfn {method}(&self) -> &{rt};",
                format!(" The state member `{idl}`.")
            );
        }
        out
    }

    /// The accessors of the trait of `of` for a state struct whose fields
    /// are `fields` (IDL name, Rust field).
    fn accessor_impl(&mut self, of: DeclId, fields: &[(String, String)]) -> String {
        let mut out = String::new();
        for (idl, method, ty) in self.accessors(of) {
            let rt = self.rust_ty(&ty);
            let field = fields
                .iter()
                .find(|(n, _)| *n == idl)
                .map(|(_, f)| f.clone())
                .unwrap_or_default();
            let _ = write!(out, "fn {method}(&self) -> &{rt} {{ &self.{field} }}");
        }
        out
    }

    /// The interfaces valuetype `id` supports, and those its value bases
    /// support, each once, in order.
    fn supported_interfaces(&self, id: DeclId) -> Vec<DeclId> {
        let mut out: Vec<DeclId> = Vec::new();
        let Some(v) = self.value_def(id) else {
            return out;
        };
        for b in std::iter::once(&id).chain(&v.all_bases) {
            for s in self.value_def(*b).map(|d| &d.supports[..]).unwrap_or(&[]) {
                if !out.contains(s) {
                    out.push(*s);
                }
            }
        }
        out
    }

    /// The repository ids of the bases `id` may be truncated to.
    fn truncatable_ids(&self, id: DeclId) -> Vec<String> {
        let mut out = Vec::new();
        let mut cur = id;
        while self.value_def(cur).is_some_and(|v| v.truncatable) && out.len() < 64 {
            let Some(b) = self.concrete_base(cur) else {
                break;
            };
            out.push(self.model.decl(b).repository_id.clone().unwrap_or_default());
            cur = b;
        }
        out
    }

    /// The items of valuetype `id`: the module of what it declares, its
    /// trait and TypeCode, the traits of its operations and factories,
    /// and, unless it is abstract, its state struct.
    pub(super) fn value_type(&mut self, id: DeclId) -> String {
        let model = self.model;
        let decl = model.decl(id);
        let DeclKind::ValueType(v) = &decl.kind else {
            return String::new();
        };
        if v.kind == ValueKind::Custom {
            self.unsupported(&format!(
                "custom valuetype `{}` is not supported by the Rust back end",
                decl.name
            ));
            return String::new();
        }
        let sigs = self.sigs_of(&v.operations, &v.attributes);
        let factory_sigs = self.factory_sigs(id, v);
        let mut out = self.value_module(id, v, &sigs, &factory_sigs);
        out.push_str(&self.value_trait(id, v));
        out.push_str(&self.value_operations(id, &sigs));
        out.push_str(&self.value_factories(id, &factory_sigs));
        if v.kind != ValueKind::Abstract {
            out.push_str(&self.value_struct(id, v));
        }
        out
    }

    /// The signatures of the factories (initialisers) of valuetype `id`.
    fn factory_sigs(&self, id: DeclId, v: &ValueDef) -> Vec<Sig> {
        v.factories
            .iter()
            .map(|f| {
                let mut namer = Namer::new();
                for r in ["e", "d", "x"] {
                    namer.reserve(r);
                }
                Sig {
                    wire: f.name.clone(),
                    method: super::names::rust_name(&f.name, NameKind::Value),
                    params: f
                        .params
                        .iter()
                        .map(|p| {
                            (
                                namer.name(&p.name, NameKind::Value),
                                p.direction,
                                p.ty.clone(),
                            )
                        })
                        .collect(),
                    result: None,
                    raises: f.raises.clone(),
                    oneway: false,
                    context: false,
                    doc: doc_or(&f.doc, &format!("IDL factory `{}`.", f.name)),
                    defined_in: id,
                    error: format!("{}Error", upper_camel_case(&f.name)),
                }
            })
            .collect()
    }

    /// The module of valuetype `id`: the types declared inside it and the
    /// error enums of its operations and factories; empty when there are
    /// none.
    fn value_module(
        &mut self,
        id: DeclId,
        v: &ValueDef,
        sigs: &[Sig],
        factory_sigs: &[Sig],
    ) -> String {
        let idl_name = self.model.decl(id).scoped_name.join("::");
        let outer = self.cur.clone();
        let inner = self.scope_mod.get(&id).cloned().unwrap_or_default();
        let module = inner.last().cloned().unwrap_or_default();
        let mut body = self.scope(&v.contents, &inner);
        self.cur = inner.clone();
        for sig in sigs.iter().filter(|s| s.defined_in == id) {
            if !sig.raises.is_empty() && !sig.oneway {
                body.push_str(&self.error_enum(sig, &idl_name));
            }
        }
        for sig in factory_sigs.iter().filter(|s| !s.raises.is_empty()) {
            body.push_str(&self.error_enum(sig, &idl_name));
        }
        let inception = if outer.last() == Some(&module) {
            "#[allow(clippy::module_inception)]\n"
        } else {
            ""
        };
        self.cur = outer;
        if body.trim().is_empty() {
            String::new()
        } else {
            format!(
                "#[doc = \" Types declared in IDL valuetype `{idl_name}`.\"]\n{inception}pub mod {module} {{ {body} }}\n"
            )
        }
    }

    /// The trait of valuetype `id` and its TypeCode.
    fn value_trait(&mut self, id: DeclId, v: &ValueDef) -> String {
        let decl = self.model.decl(id);
        let trait_name = self.value_trait_path(id);
        let rid = decl.repository_id.clone().unwrap_or_default();
        let idl_name = decl.scoped_name.join("::");
        let mut out = String::new();
        let supers: Vec<String> = v
            .bases
            .iter()
            .filter(|b| self.value_def(**b).is_some())
            .map(|b| self.value_trait_path(*b))
            .collect();
        let supers = if supers.is_empty() {
            "::rtorb::codegen::valuetype::ValueBase".to_string()
        } else {
            supers.join(" + ")
        };
        let what = if v.kind == ValueKind::Abstract {
            "abstract valuetype"
        } else {
            "valuetype"
        };
        let _ = write!(
            out,
            "{}pub trait {trait_name}: {supers} {{ {} }}",
            doc_or(
                &decl.doc,
                &format!(
                    "IDL {what} `{idl_name}` (`{rid}`): implemented by the Rust type of every value of this type or a type derived from it, reading the state this type declares. A member of this type is an `Option<Arc<dyn {trait_name}>>`."
                )
            ),
            self.accessor_decls(id)
        );
        // Its TypeCode.
        let modifier = match (v.kind, v.truncatable) {
            (ValueKind::Abstract, _) => "VM_ABSTRACT",
            (_, true) => "VM_TRUNCATABLE",
            _ => "VM_NONE",
        };
        let base_tc = match self.concrete_base(id) {
            Some(b) => format!(
                "Some(<dyn {} as ::rtorb::codegen::IdlType>::type_code())",
                self.value_trait_path(b)
            ),
            None => "None".into(),
        };
        let mut members_tc = String::new();
        for m in &v.members {
            let tc = self.type_code(&m.ty, Some(id));
            let vis = if m.public {
                "PUBLIC_MEMBER"
            } else {
                "PRIVATE_MEMBER"
            };
            let _ = write!(
                members_tc,
                "::rtorb::codegen::ValueMember {{ name: {:?}.into(), type_code: {tc}, visibility: ::rtorb::codegen::typecode::{vis} }},",
                m.name
            );
        }
        let _ = write!(
            out,
            "impl ::rtorb::codegen::IdlType for dyn {trait_name} {{ fn type_code() -> ::rtorb::codegen::TypeCode {{ ::rtorb::codegen::guarded_type_code(::rtorb::codegen::TCKind::Value, {rid:?}, || ::rtorb::codegen::TypeCode::value_tc({rid:?}, {:?}, ::rtorb::codegen::typecode::{modifier}, {base_tc}, ::std::vec![{members_tc}])) }} }}",
            decl.name
        );
        out
    }

    /// The trait of the operations and attributes of valuetype `id`,
    /// those of the interfaces it supports through their servant traits;
    /// empty when there are none.
    fn value_operations(&mut self, id: DeclId, sigs: &[Sig]) -> String {
        let model = self.model;
        let name = self.item_name(id);
        let idl_name = model.decl(id).scoped_name.join("::");
        let mut out = String::new();
        let supported: Vec<String> = self
            .supported_interfaces(id)
            .into_iter()
            .map(|s| {
                let p = self.path_to(s);
                match &model.decl(s).kind {
                    DeclKind::Interface(si) if si.kind == InterfaceKind::Local => p,
                    _ => format!("{p}Servant"),
                }
            })
            .collect();
        if !sigs.is_empty() || !supported.is_empty() {
            let mut methods = String::new();
            for sig in sigs {
                methods.push_str(&self.servant_method(sig));
            }
            let (supers, also) = if supported.is_empty() {
                (String::new(), String::new())
            } else {
                (
                    format!(": {}", supported.join(" + ")),
                    format!(
                        " It requires the operations of the interfaces the valuetype supports (itself or through a value base), through their traits ({}): implement those for the same type too, which can then also serve as the servant of such an interface (one that is not local).",
                        supported
                            .iter()
                            .map(|s| format!("`{s}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
            };
            let _ = write!(
                out,
                "#[doc = \" The operations and attributes of IDL valuetype `{idl_name}`, which run locally: implement them for the Rust type of the value.{also}\"]\n{IDL_NAMED_METHODS}pub trait {name}Operations{supers} {{ {methods} }}\n"
            );
        }
        out
    }

    /// The trait of the factories of valuetype `id`; empty when it
    /// declares none.
    fn value_factories(&mut self, id: DeclId, factory_sigs: &[Sig]) -> String {
        let name = self.item_name(id);
        let trait_name = self.value_trait_path(id);
        let idl_name = self.model.decl(id).scoped_name.join("::");
        let mut out = String::new();
        if !factory_sigs.is_empty() {
            let mut methods = String::new();
            for sig in factory_sigs {
                let mut params = String::new();
                for (n, _, ty) in &sig.params {
                    let t = self.rust_ty(ty);
                    let _ = write!(params, ", {n}: {t}");
                }
                let err = if sig.raises.is_empty() {
                    "::rtorb::codegen::SystemException".to_string()
                } else {
                    self.in_scope(id, &sig.error)
                };
                let many = if sig.params.len() > 6 {
                    "#[allow(clippy::too_many_arguments)]\n"
                } else {
                    ""
                };
                let _ = write!(
                    methods,
                    "{}{many}fn {}(&self{params}) -> ::core::result::Result<::std::sync::Arc<dyn {trait_name}>, {err}>;",
                    sig.doc, sig.method
                );
            }
            let _ = write!(
                out,
                "#[doc = \" The factories (initialisers) of IDL valuetype `{idl_name}`: implement them to build values.\"]\n{IDL_NAMED_METHODS}pub trait {name}Init: Send + Sync {{ {methods} }}\n"
            );
        }
        out
    }

    /// The state struct of concrete valuetype `id`, with its reading,
    /// writing, upcasts, trait implementations and TypeCode.
    fn value_struct(&mut self, id: DeclId, v: &ValueDef) -> String {
        let decl = self.model.decl(id);
        let name = self.item_name(id);
        let trait_name = self.value_trait_path(id);
        let rid = decl.repository_id.clone().unwrap_or_default();
        let idl_name = decl.scoped_name.join("::");
        let mut out = String::new();
        let state = self.value_state(id, 0);
        let mut fields = Namer::new();
        let names: Vec<String> = state
            .iter()
            .map(|m| fields.name(&m.name, NameKind::Value))
            .collect();
        let eq = state.iter().all(|m| self.has_eq(&m.ty));
        let default = state.iter().all(|m| self.has_default(&m.ty, 0));
        let mut derives = vec!["Debug", "Clone"];
        if eq {
            derives.push("PartialEq");
        }
        if default {
            derives.push("Default");
        }
        let _ = write!(
            out,
            "#[doc = \" The state of IDL valuetype `{idl_name}` (`{rid}`), those of its concrete bases first. Share a value as `Arc<{name}>`; register it with `{name}::register_factory()` where it may arrive as a value of a base type.\"]\n#[derive({})]\npub struct {name} {{",
            derives.join(", ")
        );
        for (m, n) in state.iter().zip(&names) {
            let rt = self.rust_ty(&m.ty);
            let vis = if m.public { "public" } else { "private" };
            let _ = write!(
                out,
                "{}pub {n}: {rt},",
                doc_or(&m.doc, &format!("`{}` ({vis} state)", m.name))
            );
        }
        out.push_str("}\n");
        let mut enc = String::new();
        let mut dec = String::new();
        for (m, n) in state.iter().zip(&names) {
            enc.push_str(&self.encode(&m.ty, &format!("&self.{n}")));
            let _ = write!(dec, "{n}: {},", self.decode(&m.ty));
        }
        let e = if state.is_empty() { "_e" } else { "e" };
        let d = if state.is_empty() { "_d" } else { "d" };
        let trunc: Vec<String> = self
            .truncatable_ids(id)
            .iter()
            .map(|s| format!("{s:?}"))
            .collect();
        let mut upcasts = format!(
            "if to == ::std::any::TypeId::of::<{name}>() {{ return Some(::std::boxed::Box::new(self)); }}\
             if to == ::std::any::TypeId::of::<dyn {trait_name}>() {{ return Some(::std::boxed::Box::new(self as ::std::sync::Arc<dyn {trait_name}>)); }}"
        );
        let field_map: Vec<(String, String)> = state
            .iter()
            .zip(&names)
            .map(|(m, n)| (m.name.clone(), n.clone()))
            .collect();
        let own = self.accessor_impl(id, &field_map);
        let mut impls = format!("impl {trait_name} for {name} {{ {own} }}\n");
        for a in &v.all_bases {
            if self.value_def(*a).is_none() {
                continue;
            }
            let at = self.value_trait_path(*a);
            let _ = write!(
                upcasts,
                "if to == ::std::any::TypeId::of::<dyn {at}>() {{ return Some(::std::boxed::Box::new(self as ::std::sync::Arc<dyn {at}>)); }}"
            );
            let body = self.accessor_impl(*a, &field_map);
            let _ = writeln!(impls, "impl {at} for {name} {{ {body} }}");
        }
        let _ = write!(
            out,
            "impl {name} {{\
               #[doc = \" The repository id of `{idl_name}`.\"]\n pub const REPOSITORY_ID: &'static str = {rid:?};\
               #[doc = \" Reads the state of a value (after its header).\"]\n pub fn read_state({d}: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {{ Ok({name} {{ {dec} }}) }}\
               #[doc = \" Reads the state of a value into a new shared value: the reader to register.\"]\n pub fn unmarshal(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<::std::sync::Arc<dyn ::rtorb::codegen::valuetype::ValueBase>> {{ Ok(::std::sync::Arc::new(Self::read_state(d)?)) }}\
               #[doc = \" Registers [`Self::unmarshal`] as the factory of `{rid}`, so that a value of this type arriving where a base type is declared is read as this type.\"]\n pub fn register_factory() {{ ::rtorb::codegen::register_value_factory(Self::REPOSITORY_ID, Self::unmarshal); }}\
             }}\n\
             impl ::rtorb::codegen::valuetype::ValueBase for {name} {{\
               fn repository_id(&self) -> &'static str {{ {rid:?} }}\
               fn truncatable_ids(&self) -> &'static [&'static str] {{ &[{}] }}\
               fn write_state(&self, {e}: &mut ::rtorb::codegen::Encoder) -> ::rtorb::codegen::Result<()> {{ {enc} Ok(()) }}\
               fn as_any(&self) -> &dyn ::std::any::Any {{ self }}\
               fn upcast(self: ::std::sync::Arc<Self>, to: ::std::any::TypeId) -> ::core::option::Option<::std::boxed::Box<dyn ::std::any::Any>> {{ {upcasts} None }}\
             }}\n\
             {impls}\
             impl ::rtorb::codegen::IdlType for {name} {{ fn type_code() -> ::rtorb::codegen::TypeCode {{ <dyn {trait_name} as ::rtorb::codegen::IdlType>::type_code() }} }}\n\
             #[doc = \" Writes the value, unshared.\"]\n\
             impl ::rtorb::codegen::CdrEncode for {name} {{ fn encode(&self, e: &mut ::rtorb::codegen::Encoder) -> ::rtorb::codegen::Result<()> {{ ::rtorb::codegen::valuetype::write_value_unshared(e, Some(self)) }} }}\n\
             #[doc = \" Reads a value of this type (not null).\"]\n\
             impl ::rtorb::codegen::CdrDecode for {name} {{ const MIN_WIRE_SIZE: usize = 4; fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {{ ::rtorb::codegen::valuetype::read_value_unshared::<{name}>(d, Self::REPOSITORY_ID, Self::unmarshal)?.ok_or(::rtorb::codegen::CdrError::TypeMismatch(\"null value\")) }} }}\n",
            trunc.join(", ")
        );
        out.push_str(&super::emit::any_value(&name));
        out
    }

    /// The items of value box `id`.
    pub(super) fn value_box(&mut self, id: DeclId, boxed: &Type) -> String {
        let model = self.model;
        let decl = model.decl(id);
        let name = self.item_name(id);
        let rid = decl.repository_id.clone().unwrap_or_default();
        let idl_name = decl.scoped_name.join("::");
        let rt = self.rust_ty(boxed);
        let mut derives = vec!["Debug", "Clone"];
        if self.has_eq(boxed) {
            derives.push("PartialEq");
        }
        if self.has_default(boxed, 0) {
            derives.push("Default");
        }
        let enc = self.encode(boxed, "&self.0");
        let dec = self.decode(boxed);
        let tc = self.type_code(boxed, Some(id));
        let any_value = super::emit::any_value(&name);
        format!(
            "{}#[derive({})]\npub struct {name}(pub {rt});\n\
             impl {name} {{\
               #[doc = \" The repository id of `{idl_name}`.\"]\n pub const REPOSITORY_ID: &'static str = {rid:?};\
               #[doc = \" Reads the boxed value into a new shared value.\"]\n pub fn unmarshal(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<::std::sync::Arc<dyn ::rtorb::codegen::valuetype::ValueBase>> {{ Ok(::std::sync::Arc::new({name}({dec}))) }}\
             }}\n\
             impl ::rtorb::codegen::valuetype::ValueBase for {name} {{\
               fn repository_id(&self) -> &'static str {{ {rid:?} }}\
               fn write_state(&self, e: &mut ::rtorb::codegen::Encoder) -> ::rtorb::codegen::Result<()> {{ {enc} Ok(()) }}\
               fn as_any(&self) -> &dyn ::std::any::Any {{ self }}\
               fn upcast(self: ::std::sync::Arc<Self>, to: ::std::any::TypeId) -> ::core::option::Option<::std::boxed::Box<dyn ::std::any::Any>> {{ if to == ::std::any::TypeId::of::<{name}>() {{ return Some(::std::boxed::Box::new(self)); }} None }}\
             }}\n\
             impl ::rtorb::codegen::IdlType for {name} {{ fn type_code() -> ::rtorb::codegen::TypeCode {{ ::rtorb::codegen::guarded_type_code(::rtorb::codegen::TCKind::ValueBox, {rid:?}, || ::rtorb::codegen::TypeCode::value_box({rid:?}, {:?}, {tc})) }} }}\n\
             #[doc = \" Writes the box as a value.\"]\n\
             impl ::rtorb::codegen::CdrEncode for {name} {{ fn encode(&self, e: &mut ::rtorb::codegen::Encoder) -> ::rtorb::codegen::Result<()> {{ ::rtorb::codegen::valuetype::write_value_unshared(e, Some(self)) }} }}\n\
             #[doc = \" Reads a box (not null).\"]\n\
             impl ::rtorb::codegen::CdrDecode for {name} {{ const MIN_WIRE_SIZE: usize = 4; fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {{ ::rtorb::codegen::valuetype::read_value_unshared::<{name}>(d, Self::REPOSITORY_ID, Self::unmarshal)?.ok_or(::rtorb::codegen::CdrError::TypeMismatch(\"null value\")) }} }}\n{any_value}",
            doc_or(
                &decl.doc,
                &format!(
                    "IDL value box `{idl_name}` (`{rid}`). A member of this type is an `Option<{name}>` (`None`: the null value); boxes are not shared when written."
                )
            ),
            derives.join(", "),
            decl.name
        )
    }

    /// The item of native type `id`.
    pub(super) fn native(&mut self, id: DeclId) -> String {
        let decl = self.model.decl(id);
        let name = self.item_name(id);
        format!(
            "{}#[derive(Debug, Clone)]\npub struct {name}(pub ::rtorb::codegen::Opaque);\n",
            doc_or(
                &decl.doc,
                &format!(
                    "IDL native type `{}`: an opaque handle to whatever the program puts there. It cannot be marshalled, so only operations of local interfaces (and of valuetypes) use it.",
                    decl.scoped_name.join("::")
                )
            )
        )
    }

    /// The items of local interface `id`: a module with its types and
    /// error enums, and a trait.
    pub(super) fn local_interface(&mut self, id: DeclId, i: &InterfaceDef) -> String {
        let model = self.model;
        let decl = model.decl(id);
        let outer = self.cur.clone();
        let inner = self.scope_mod.get(&id).cloned().unwrap_or_default();
        let module = inner.last().cloned().unwrap_or_default();
        let name = self.item_name(id);
        let rid = decl.repository_id.clone().unwrap_or_default();
        let idl_name = decl.scoped_name.join("::");
        let sigs = self.sigs_of(&i.operations, &i.attributes);
        let mut body = self.scope(&i.contents, &inner);
        self.cur = inner.clone();
        for sig in sigs.iter().filter(|s| s.defined_in == id) {
            if !sig.raises.is_empty() && !sig.oneway {
                body.push_str(&self.error_enum(sig, &idl_name));
            }
        }
        let mut ids = vec![format!("{rid:?}")];
        for b in &i.all_bases {
            ids.push(format!(
                "{:?}",
                model.decl(*b).repository_id.clone().unwrap_or_default()
            ));
        }
        let _ = write!(
            body,
            "#[doc = \" Repository ids of `{idl_name}`, most derived first, then every base.\"]\npub const REPOSITORY_IDS: &[&str] = &[{}];",
            ids.join(", ")
        );
        self.cur = outer.clone();
        let inception = if outer.last() == Some(&module) {
            "#[allow(clippy::module_inception)]\n"
        } else {
            ""
        };
        let mut out = format!(
            "#[doc = \" Types declared in IDL local interface `{idl_name}`.\"]\n{inception}pub mod {module} {{ {body} }}\n"
        );
        let supers: Vec<String> = i
            .bases
            .iter()
            .map(|b| {
                let p = self.path_to(*b);
                match &model.decl(*b).kind {
                    DeclKind::Interface(bi) if bi.kind == InterfaceKind::Local => p,
                    _ => format!("{p}Servant"),
                }
            })
            .collect();
        let supers = if supers.is_empty() {
            "Send + Sync".to_string()
        } else {
            supers.join(" + ")
        };
        let mut methods = String::new();
        for sig in sigs.iter().filter(|s| s.defined_in == id) {
            methods.push_str(&self.servant_method(sig));
        }
        let _ = write!(
            out,
            "{}{IDL_NAMED_METHODS}pub trait {name}: {supers} {{ {methods} }}\n\
             impl ::rtorb::codegen::IdlType for dyn {name} {{ fn type_code() -> ::rtorb::codegen::TypeCode {{ ::rtorb::codegen::TypeCode::local_interface({rid:?}, {:?}) }} }}\n",
            doc_or(
                &decl.doc,
                &format!(
                    "IDL local interface `{idl_name}` (`{rid}`): implemented in the program, called directly, never marshalled. A reference is an `rtorb::object::Local<dyn {name}>`."
                )
            ),
            decl.name
        );
        out
    }

    /// Whether a value of `ty` cannot be marshalled (it holds a native
    /// type or a local interface).
    pub(super) fn local_only(&self, ty: &Type, depth: usize) -> Option<String> {
        if depth > 64 {
            return None;
        }
        match ty {
            Type::Sequence { element, .. } | Type::Array { element, .. } => {
                self.local_only(element, depth + 1)
            }
            Type::Named(id) => {
                let d = self.model.decl(*id);
                match &d.kind {
                    DeclKind::Native => Some(format!("native type `{}`", d.name)),
                    DeclKind::Interface(i) if i.kind == InterfaceKind::Local => {
                        Some(format!("local interface `{}`", d.name))
                    }
                    DeclKind::Alias(a) => self.local_only(&a.target, depth + 1),
                    DeclKind::Struct(s) => s
                        .members
                        .iter()
                        .find_map(|m| self.local_only(&m.ty, depth + 1)),
                    DeclKind::Exception(s) => s
                        .members
                        .iter()
                        .find_map(|m| self.local_only(&m.ty, depth + 1)),
                    DeclKind::Union(u) => u
                        .cases
                        .iter()
                        .find_map(|c| self.local_only(&c.ty, depth + 1)),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Reports operations of an interface that is not local whose
    /// parameters or results cannot be marshalled.
    pub(super) fn check_marshalable(&mut self, sigs: &[Sig]) {
        for sig in sigs {
            let tys = sig
                .params
                .iter()
                .map(|(_, _, t)| t)
                .chain(sig.result.iter());
            let mut found = None;
            for t in tys {
                if let Some(what) = self.local_only(t, 0) {
                    found = Some(what);
                    break;
                }
            }
            if let Some(what) = found {
                self.unsupported(&format!(
                    "operation `{}` of an interface that is not local uses {what}, which cannot be marshalled",
                    sig.wire
                ));
            }
        }
    }
}
