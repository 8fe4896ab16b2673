//! Interfaces: the client stub, the error enum of each operation with a
//! `raises` clause, the servant trait, the dispatch function and the
//! skeleton.

use std::fmt::Write as _;

use crate::sema::{
    Attribute, DeclId, DeclKind, Direction, InterfaceDef, InterfaceKind, Operation, Type,
};

use super::emit::{Gen, doc_or};
use super::names::{NameKind, Namer, upper_camel_case};

/// An operation or attribute accessor as the wire and Rust see it.
pub(super) struct Sig {
    /// The operation name on the wire (`op`, `_get_x`, `_set_x`).
    pub(super) wire: String,
    /// The Rust method name.
    pub(super) method: String,
    /// Parameters: Rust name, direction, type.
    pub(super) params: Vec<(String, Direction, Type)>,
    /// The result type, `None` for void.
    pub(super) result: Option<Type>,
    /// The exceptions it raises.
    pub(super) raises: Vec<DeclId>,
    /// Whether it is oneway.
    pub(super) oneway: bool,
    /// Whether it has a `context` clause: the request then carries a
    /// context (a `sequence<string>` of name and value pairs) after the
    /// arguments.
    pub(super) context: bool,
    /// Its doc attribute.
    pub(super) doc: String,
    /// The interface that declares it.
    pub(super) defined_in: DeclId,
    /// The name of its error enum (in the declaring interface's module).
    pub(super) error: String,
}

/// Lints that IDL names of operations (`clone`, `from_string`), the size
/// of their user exceptions and the spelled-out types of their results can
/// trip, allowed where methods named after IDL operations are generated.
pub(super) const IDL_NAMED_METHODS: &str = "#[allow(clippy::should_implement_trait, clippy::wrong_self_convention, clippy::result_large_err, clippy::type_complexity)]\n";

/// Names a parameter must not take, used by generated code.
const RESERVED_PARAMS: &[&str] = &["e", "d", "x", "req", "servant"];

impl Gen<'_> {
    /// The operations and accessors of `i`, inherited ones included.
    /// Method and error enum names are unique among those of the
    /// declaring interface (`getValue` and `get_value` give `get_value`
    /// and `get_value_`), so that every interface names its methods the
    /// same way wherever they are listed.
    fn sigs(&self, i: &InterfaceDef) -> Vec<Sig> {
        self.sigs_of(&i.operations, &i.attributes)
    }

    /// The operations and attribute accessors of an interface or value.
    pub(super) fn sigs_of(&self, operations: &[Operation], attributes: &[Attribute]) -> Vec<Sig> {
        let mut namers: std::collections::HashMap<DeclId, (Namer, Namer)> =
            std::collections::HashMap::new();
        let mut out = Vec::new();
        for op in operations {
            let mut namer = Namer::new();
            for r in RESERVED_PARAMS {
                namer.reserve(r);
            }
            let params = op
                .params
                .iter()
                .map(|p| {
                    (
                        namer.name(&p.name, NameKind::Value),
                        p.direction,
                        p.ty.clone(),
                    )
                })
                .collect();
            let (methods, errors) = namers.entry(op.defined_in).or_default();
            let method = methods.name(&op.name, NameKind::Value);
            out.push(Sig {
                wire: op.name.clone(),
                error: errors.name(
                    &format!("{}Error", upper_camel_case(&op.name)),
                    NameKind::Type,
                ),
                method,
                params,
                result: op.result.clone(),
                raises: op.raises.clone(),
                oneway: op.oneway,
                context: !op.context.is_empty(),
                doc: doc_or(&op.doc, &format!("IDL operation `{}`.", op.name)),
                defined_in: op.defined_in,
            });
        }
        for a in attributes {
            let (methods, errors) = namers.entry(a.defined_in).or_default();
            let getter = methods.name(&a.name, NameKind::Value);
            let get_error = errors.name(
                &format!("Get{}Error", upper_camel_case(&a.name)),
                NameKind::Type,
            );
            out.push(Sig {
                wire: format!("_get_{}", a.name),
                error: get_error,
                method: getter,
                params: Vec::new(),
                result: Some(a.ty.clone()),
                raises: a.get_raises.clone(),
                oneway: false,
                context: false,
                doc: doc_or(&a.doc, &format!("Reads IDL attribute `{}`.", a.name)),
                defined_in: a.defined_in,
            });
            if !a.readonly {
                let (methods, errors) = namers.entry(a.defined_in).or_default();
                let setter = methods.name(&format!("set_{}", a.name), NameKind::Value);
                let set_error = errors.name(
                    &format!("Set{}Error", upper_camel_case(&a.name)),
                    NameKind::Type,
                );
                out.push(Sig {
                    wire: format!("_set_{}", a.name),
                    error: set_error,
                    method: setter,
                    params: vec![("value".into(), Direction::In, a.ty.clone())],
                    result: None,
                    raises: a.set_raises.clone(),
                    oneway: false,
                    context: false,
                    doc: doc_or(&a.doc, &format!("Writes IDL attribute `{}`.", a.name)),
                    defined_in: a.defined_in,
                });
            }
        }
        out
    }

    /// The error type of `sig`, from the current module.
    fn error_ty(&self, sig: &Sig) -> String {
        if sig.raises.is_empty() || sig.oneway {
            "::rtorb::codegen::SystemException".into()
        } else {
            self.in_scope(sig.defined_in, &sig.error)
        }
    }

    /// The Rust types of the results: return value, then `inout` and
    /// `out` parameters.
    fn results(&mut self, sig: &Sig) -> Vec<(String, Type)> {
        let mut out = Vec::new();
        if let Some(r) = &sig.result {
            out.push(("r".to_string(), r.clone()));
        }
        for (n, dir, ty) in &sig.params {
            if *dir != Direction::In {
                out.push((n.clone(), ty.clone()));
            }
        }
        out
    }

    fn results_ty(&mut self, results: &[(String, Type)]) -> String {
        match results {
            [] => "()".into(),
            [(_, t)] => self.rust_ty(t),
            many => {
                let tys: Vec<String> = many.iter().map(|(_, t)| self.rust_ty(t)).collect();
                format!("({})", tys.join(", "))
            }
        }
    }

    fn uses_objref(&self, sig: &Sig) -> bool {
        sig.params.iter().any(|(_, _, t)| self.has_objref(t))
            || sig.result.as_ref().is_some_and(|t| self.has_objref(t))
            || sig.raises.iter().any(|x| self.has_objref(&Type::Named(*x)))
    }

    /// The items of interface `id`.
    pub(super) fn interface(&mut self, id: DeclId) -> String {
        let model = self.model;
        let decl = model.decl(id);
        let DeclKind::Interface(i) = &decl.kind else {
            return String::new();
        };
        if i.kind == InterfaceKind::Local {
            return self.local_interface(id, i);
        }
        let outer = self.cur.clone();
        let inner = self.scope_mod.get(&id).cloned().unwrap_or_default();
        let module = inner.last().cloned().unwrap_or_default();
        let stub = self.item_name(id);
        let rid = decl.repository_id.clone().unwrap_or_default();
        let sigs = self.sigs(i);
        let idl_name = decl.scoped_name.join("::");
        self.check_marshalable(&sigs);

        // The module of the interface: its types, error enums, ids, dispatch.
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
        body.push_str(&self.dispatch_fn(id, &stub, &sigs, &idl_name));
        self.cur = outer.clone();
        let inception = if outer.last() == Some(&module) {
            "#[allow(clippy::module_inception)]\n"
        } else {
            ""
        };
        let mut out = format!(
            "#[doc = \" Types and operation support of IDL interface `{idl_name}`.\"]\n{inception}pub mod {module} {{ {body} }}\n"
        );

        // The stub.
        let single = i.bases.len() == 1;
        let base = i.bases.first().map(|b| self.path_to(*b));
        let _ = write!(
            out,
            "{}#[derive(Debug, Clone)]\npub struct {stub}({});",
            doc_or(
                &decl.doc,
                &format!("Client stub of IDL interface `{idl_name}` (`{rid}`).")
            ),
            match (&base, single) {
                (Some(b), true) => b.clone(),
                _ => "::rtorb::codegen::Object".into(),
            }
        );
        let tc_ctor = if i.kind == InterfaceKind::Abstract {
            "abstract_interface"
        } else {
            "objref"
        };
        let (from, as_obj, into, deref) = match (&base, single) {
            (Some(b), true) => (
                format!("{stub}(<{b} as ::rtorb::codegen::Stub>::from_object(object))"),
                "::rtorb::codegen::Stub::as_object(&self.0)".to_string(),
                "::rtorb::codegen::Stub::into_object(self.0)".to_string(),
                b.clone(),
            ),
            _ => (
                format!("{stub}(object)"),
                "&self.0".into(),
                "self.0".into(),
                "::rtorb::codegen::Object".into(),
            ),
        };
        let _ = write!(
            out,
            "impl ::rtorb::codegen::Stub for {stub} {{ const REPOSITORY_ID: &'static str = {rid:?};\
             fn from_object(object: ::rtorb::codegen::Object) -> Self {{ {from} }}\
             fn as_object(&self) -> &::rtorb::codegen::Object {{ {as_obj} }}\
             fn into_object(self) -> ::rtorb::codegen::Object {{ {into} }} }}\n\
             #[doc = \" The operations of the base (or of `CORBA::Object`).\"]\n\
             impl ::core::ops::Deref for {stub} {{ type Target = {deref}; fn deref(&self) -> &{deref} {{ &self.0 }} }}\n\
             impl ::rtorb::codegen::IdlType for {stub} {{ fn type_code() -> ::rtorb::codegen::TypeCode {{ ::rtorb::codegen::TypeCode::{tc_ctor}({rid:?}, {:?}) }} }}",
            decl.name
        );
        let mut methods = String::new();
        for sig in &sigs {
            if single && sig.defined_in != id {
                continue;
            }
            methods.push_str(&self.stub_method(sig));
        }
        let _ = write!(out, "{IDL_NAMED_METHODS}impl {stub} {{ {methods} }}");

        // The servant trait.
        let supertraits = if i.bases.is_empty() {
            "Send + Sync".to_string()
        } else {
            i.bases
                .iter()
                .map(|b| {
                    let p = self.path_to(*b);
                    format!("{p}Servant")
                })
                .collect::<Vec<_>>()
                .join(" + ")
        };
        let mut trait_methods = String::new();
        for sig in sigs.iter().filter(|s| s.defined_in == id) {
            trait_methods.push_str(&self.servant_method(sig));
        }
        let _ = write!(
            out,
            "#[doc = \" Servant trait of IDL interface `{idl_name}`: implement it and register `{stub}Skeleton(servant)`.\"]\n{IDL_NAMED_METHODS}pub trait {stub}Servant: {supertraits} {{ {trait_methods} }}"
        );

        // The skeleton.
        let _ = write!(
            out,
            "#[doc = \" Skeleton of IDL interface `{idl_name}`, wrapping a servant.\"]\npub struct {stub}Skeleton<S>(pub S);\n\
             impl<S: {stub}Servant + 'static> ::rtorb::codegen::Skeleton for {stub}Skeleton<S> {{\
             fn repository_ids(&self) -> &'static [&'static str] {{ {module}::REPOSITORY_IDS }}\
             fn dispatch(&self, req: &mut ::rtorb::codegen::ServerRequest<'_>) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {{ {module}::dispatch(&self.0, req) }}\
             {} }}",
            self.servant_access(&stub, i)
        );
        out
    }

    pub(super) fn error_enum(&mut self, sig: &Sig, idl_name: &str) -> String {
        let name = &sig.error;
        let mut variants = Namer::new();
        variants.reserve("System");
        let mut vs = String::new();
        let mut arms = String::new();
        let mut display = String::new();
        let mut eq = true;
        for x in &sig.raises {
            let xd = self.model.decl(*x);
            let v = variants.name(&xd.name, NameKind::Variant);
            let p = self.path_to(*x);
            eq &= self.has_eq(&Type::Named(*x));
            let _ = write!(
                vs,
                "#[doc = {:?}]\n{v}({p}),",
                format!(" `{}`", xd.scoped_name.join("::"))
            );
            let _ = write!(
                arms,
                "if repository_id == <{p} as ::rtorb::codegen::UserException>::REPOSITORY_ID {{ return Some(<{p} as ::rtorb::codegen::CdrDecode>::decode(members).map({name}::{v})); }}"
            );
            let _ = write!(display, "{name}::{v}(x) => ::std::fmt::Display::fmt(x, f),");
        }
        let derives = if eq {
            "Debug, Clone, PartialEq"
        } else {
            "Debug, Clone"
        };
        format!(
            "#[doc = \" The errors of `{idl_name}::{}`.\"]\n#[derive({derives})]\n#[allow(clippy::large_enum_variant, clippy::enum_variant_names)]\npub enum {name} {{ {vs} #[doc = \" A system exception.\"]\nSystem(::rtorb::codegen::SystemException), }}\n\
             impl ::core::convert::From<::rtorb::codegen::SystemException> for {name} {{ fn from(e: ::rtorb::codegen::SystemException) -> Self {{ {name}::System(e) }} }}\n\
             impl ::rtorb::codegen::OperationError for {name} {{ fn from_user_exception(repository_id: &str, members: &mut ::rtorb::codegen::Decoder) -> ::core::option::Option<::rtorb::codegen::Result<Self>> {{ {arms} None }} }}\n\
             impl ::std::fmt::Display for {name} {{ fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {{ match self {{ {display} {name}::System(s) => ::std::fmt::Display::fmt(s, f), }} }} }}\n\
             impl ::std::error::Error for {name} {{}}\n",
            sig.wire
        )
    }

    fn stub_method(&mut self, sig: &Sig) -> String {
        let mut params = String::new();
        let mut enc = String::new();
        for (n, dir, ty) in &sig.params {
            match dir {
                Direction::In => {
                    let (t, by_ref) = self.in_param_ty(ty);
                    let _ = write!(params, ", {n}: {t}");
                    let expr = if by_ref { n.clone() } else { format!("&{n}") };
                    enc.push_str(&self.encode(ty, &expr));
                }
                Direction::InOut => {
                    let t = self.rust_ty(ty);
                    let _ = write!(params, ", {n}: &{t}");
                    enc.push_str(&self.encode(ty, n));
                }
                Direction::Out => {}
            }
        }
        let err = self.error_ty(sig);
        let results = self.results(sig);
        let rt = self.results_ty(&results);
        let wire = &sig.wire;
        let method = &sig.method;
        if sig.context {
            // No context properties are sent: an empty list.
            enc.push_str("e.write_u32(0);");
        }
        let e = if enc.is_empty() { "_e" } else { "e" };
        let many = if sig.params.len() > 6 {
            "#[allow(clippy::too_many_arguments)]\n"
        } else {
            ""
        };
        let direct = self.direct_call(sig);
        let call = if sig.oneway {
            match &direct {
                Some(d) => format!(
                    "::rtorb::codegen::Stub::as_object(self).call_oneway({wire:?}, {d}, |{e}: &mut ::rtorb::codegen::Encoder| {{ {enc} Ok(()) }})"
                ),
                None => format!(
                    "::rtorb::codegen::Stub::as_object(self).invoke_oneway({wire:?}, |{e}: &mut ::rtorb::codegen::Encoder| {{ {enc} Ok(()) }})"
                ),
            }
        } else {
            let decs: Vec<String> = results.iter().map(|(_, t)| self.decode(t)).collect();
            let reader = match &results[..] {
                [] => "|_d: &mut ::rtorb::codegen::Decoder| Ok(())".to_string(),
                [(_, t)] if self.plain(t) => {
                    format!(
                        "<{} as ::rtorb::codegen::CdrDecode>::decode",
                        self.rust_ty(t)
                    )
                }
                [_] => format!(
                    "|d: &mut ::rtorb::codegen::Decoder| {{ let r = {}; Ok(r) }}",
                    decs.concat()
                ),
                _ => format!(
                    "|d: &mut ::rtorb::codegen::Decoder| {{ let r = ({}); Ok(r) }}",
                    decs.join(", ")
                ),
            };
            match &direct {
                Some(d) => format!(
                    "::rtorb::codegen::Stub::as_object(self).call({wire:?}, {d}, |{e}: &mut ::rtorb::codegen::Encoder| {{ {enc} Ok(()) }}, |reply: ::rtorb::codegen::Reply| reply.decode({reader}))"
                ),
                None => format!(
                    "::rtorb::codegen::Stub::as_object(self).invoke({wire:?}, |{e}: &mut ::rtorb::codegen::Encoder| {{ {enc} Ok(()) }})?.decode({reader})"
                ),
            }
        };
        let call = if self.uses_objref(sig) {
            format!(
                "::rtorb::codegen::with_invoker(::rtorb::codegen::Stub::as_object(self).invoker(), || {{ {call} }})"
            )
        } else {
            call
        };
        format!(
            "{}{many}pub fn {method}(&self{params}) -> ::core::result::Result<{rt}, {err}> {{ {call} }}\n",
            sig.doc
        )
    }

    /// The closure a stub method passes to `Object::call` to run a
    /// collocated servant through its servant trait, or `None` when a
    /// parameter or result type does not allow it (see
    /// [`Gen::direct_ok`]): the call is then marshaled, in memory.
    fn direct_call(&mut self, sig: &Sig) -> Option<String> {
        if sig.result.as_ref().is_some_and(|t| !self.direct_ok(t, 0))
            || sig
                .raises
                .iter()
                .any(|x| !self.direct_ok(&Type::Named(*x), 0))
        {
            return None;
        }
        let mut args = Vec::new();
        for (n, dir, ty) in &sig.params {
            match dir {
                _ if !self.direct_ok(ty, 0) => return None,
                Direction::Out => {}
                Direction::In => {
                    let (_, by_ref) = self.in_param_ty(ty);
                    args.push(if by_ref {
                        format!("::rtorb::codegen::ParamFrom::param_from({n})")
                    } else {
                        n.clone()
                    });
                }
                Direction::InOut => args.push(format!("::core::clone::Clone::clone({n})")),
            }
        }
        let servant = format!("{}Servant", self.path_to(sig.defined_in));
        Some(format!(
            "|servant: &(dyn {servant} + 'static)| servant.{}({})",
            sig.method,
            args.join(", ")
        ))
    }

    /// Whether a value of `ty` may go to a collocated servant (or come
    /// back from it) without marshaling: its Rust type is known to be
    /// `Clone`, and marshaling would check nothing about it (no bound of
    /// a string or sequence, no `char` or `wchar` that the code set may
    /// not hold).
    fn direct_ok(&self, ty: &Type, depth: usize) -> bool {
        if depth > 64 {
            return false;
        }
        match ty {
            Type::Any
            | Type::TypeCode
            | Type::Fixed { .. }
            | Type::LongDouble
            | Type::Char
            | Type::WChar
            | Type::ValueBase => false,
            Type::String(bound) | Type::WString(bound) => bound.is_none(),
            Type::Sequence { element, bound } => {
                bound.is_none() && self.direct_ok(element, depth + 1)
            }
            Type::Array { element, .. } => self.direct_ok(element, depth + 1),
            Type::Named(id) => match &self.model.decl(*id).kind {
                DeclKind::Interface(_) | DeclKind::Forward(_) | DeclKind::Enum(_) => true,
                DeclKind::Alias(a) => self.direct_ok(&a.target, depth + 1),
                DeclKind::Struct(st) => st.members.iter().all(|m| self.direct_ok(&m.ty, depth + 1)),
                DeclKind::Exception(x) => {
                    x.members.iter().all(|m| self.direct_ok(&m.ty, depth + 1))
                }
                DeclKind::Union(u) => {
                    self.direct_ok(&u.discriminator, depth + 1)
                        && u.cases.iter().all(|c| self.direct_ok(&c.ty, depth + 1))
                }
                _ => false,
            },
            _ => true,
        }
    }

    /// The `Skeleton` methods that give collocated stubs the servant:
    /// as `Any`, and as the servant trait of the interface and of each
    /// base.
    fn servant_access(&mut self, stub: &str, i: &InterfaceDef) -> String {
        let mut traits = vec![format!("{stub}Servant")];
        for b in &i.all_bases {
            traits.push(format!("{}Servant", self.path_to(*b)));
        }
        let offers: String = traits
            .iter()
            .map(|t| {
                format!(
                    "::rtorb::codegen::ServantCast::<dyn {t}>::offer(query, |s| s.downcast_ref::<S>().map(|s| s as &dyn {t}));"
                )
            })
            .collect();
        format!(
            "fn servant(&self) -> ::core::option::Option<&dyn ::core::any::Any> {{ ::core::option::Option::Some(&self.0) }}\
             fn servant_cast(&self, query: &mut dyn ::core::any::Any) {{ {offers} }}"
        )
    }

    pub(super) fn servant_method(&mut self, sig: &Sig) -> String {
        let mut params = String::new();
        for (n, dir, ty) in &sig.params {
            if *dir != Direction::Out {
                let t = self.rust_ty(ty);
                let _ = write!(params, ", {n}: {t}");
            }
        }
        let err = self.error_ty(sig);
        let results = self.results(sig);
        let rt = self.results_ty(&results);
        let many = if sig.params.len() > 6 {
            "#[allow(clippy::too_many_arguments)]\n"
        } else {
            ""
        };
        let mut what = if sig.oneway {
            "#[doc = \"\"]\n#[doc = \" Oneway: the client does not wait, and an error is not sent back.\"]\n"
        } else {
            ""
        }
        .to_string();
        if sig.context {
            what.push_str("#[doc = \"\"]\n#[doc = \" The request's context (IDL `context` clause) is read and not passed on.\"]\n");
        }
        format!(
            "{}{what}{many}fn {}(&self{params}) -> ::core::result::Result<{rt}, {err}>;\n",
            sig.doc, sig.method
        )
    }

    /// The dispatch function of interface `id`, over every operation,
    /// inherited ones included: a `match` on the operation name, or,
    /// when [`super::Dispatch`] says so, a `match` on the index the
    /// perfect-hash table `OPERATIONS` finds for it.
    fn dispatch_fn(&mut self, _id: DeclId, stub: &str, sigs: &[Sig], idl_name: &str) -> String {
        let servant = format!("super::{stub}Servant");
        let wires: Vec<&str> = sigs.iter().map(|s| s.wire.as_str()).collect();
        let table = if self.dispatch.uses_table(sigs.len()) {
            crate::phf::PerfectHash::generate(&wires).ok()
        } else {
            None
        };
        let mut arms = String::new();
        for (i, sig) in sigs.iter().enumerate() {
            let arm = self.dispatch_arm(sig);
            if table.is_some() {
                let _ = write!(arms, "Some({i}) => {{ {arm} }}");
            } else {
                let _ = write!(arms, "{} => {{ {arm} }}", byte_string(&sig.wire));
            }
        }
        let req = if sigs.is_empty() { "_req" } else { "req" };
        let servant_param = if sigs.is_empty() {
            "_servant"
        } else {
            "servant"
        };
        let mut out = String::new();
        let body = if sigs.is_empty() {
            "Err(::rtorb::codegen::bad_operation())".to_string()
        } else if let Some(table) = &table {
            let _ = write!(
                out,
                "#[doc = \" The operations of `{idl_name}` (attribute accessors and inherited operations included), by perfect hash: `dispatch` runs the one at the index `lookup` finds.\"]\npub {}",
                table.render_static("OPERATIONS")
            );
            format!(
                "match OPERATIONS.lookup(req.operation_bytes()) {{ {arms} _ => Err(::rtorb::codegen::bad_operation()), }}"
            )
        } else {
            format!(
                "match req.operation_bytes() {{ {arms} _ => Err(::rtorb::codegen::bad_operation()), }}"
            )
        };
        let _ = write!(
            out,
            "#[doc = \" Runs a request on a servant of `{idl_name}`: decodes the arguments, calls the servant, writes the results or exception.\"]\n\
             pub fn dispatch<S: {servant} + ?Sized>({servant_param}: &S, {req}: &mut ::rtorb::codegen::ServerRequest<'_>) -> ::core::result::Result<(), ::rtorb::codegen::SystemException> {{ {body} }}\n"
        );
        out
    }

    fn dispatch_arm(&mut self, sig: &Sig) -> String {
        let mut out = String::new();
        let mut args = Vec::new();
        let ins: Vec<&(String, Direction, Type)> = sig
            .params
            .iter()
            .filter(|(_, d, _)| *d != Direction::Out)
            .collect();
        if !ins.is_empty() || sig.context {
            out.push_str("let d = req.arguments();");
        }
        for (n, _, ty) in ins {
            let dec = self.decode(ty);
            let _ = write!(out, "let {n} = {dec};");
            args.push(n.clone());
        }
        if sig.context {
            // The context after the arguments: read, not passed on.
            out.push_str("let _context = <::std::vec::Vec<::std::string::String> as ::rtorb::codegen::CdrDecode>::decode(d)?;");
        }
        let call = format!("servant.{}({})", sig.method, args.join(", "));
        let results = self.results(sig);
        let mut enc = String::new();
        let pattern = match results.len() {
            0 => String::new(),
            1 => {
                enc.push_str(&self.encode(&results[0].1, "&r"));
                "r".to_string()
            }
            _ => {
                let names: Vec<String> = (0..results.len()).map(|i| format!("r{i}")).collect();
                for (i, (_, t)) in results.iter().enumerate() {
                    enc.push_str(&self.encode(t, &format!("&r{i}")));
                }
                format!("({})", names.join(", "))
            }
        };
        let write = if results.is_empty() {
            "Ok(())".to_string()
        } else {
            format!("req.write_results(|e: &mut ::rtorb::codegen::Encoder| {{ {enc} Ok(()) }})")
        };
        if sig.raises.is_empty() || sig.oneway {
            if results.is_empty() {
                let _ = write!(out, "{call}");
            } else {
                let _ = write!(out, "let {pattern} = {call}?; {write}");
            }
        } else {
            let err = self.error_ty(sig);
            let ok = if results.is_empty() {
                "()".into()
            } else {
                pattern
            };
            let mut arms = format!("Ok({ok}) => {write},");
            let mut variants = Namer::new();
            variants.reserve("System");
            for x in &sig.raises {
                let v = variants.name(&self.model.decl(*x).name, NameKind::Variant);
                let _ = write!(arms, "Err({err}::{v}(x)) => req.write_user_exception(&x),");
            }
            let _ = write!(arms, "Err({err}::System(s)) => Err(s),");
            let _ = write!(out, "match {call} {{ {arms} }}");
        }
        out
    }
}

/// `name` as a Rust byte string literal (`b"cube_long"`): what a dispatch
/// `match` compares the octets of a request's operation name with.
fn byte_string(name: &str) -> String {
    let mut out = String::from("b\"");
    for b in name.bytes() {
        match b {
            b'"' | b'\\' => {
                out.push('\\');
                out.push(char::from(b));
            }
            0x20..=0x7e => out.push(char::from(b)),
            _ => {
                let _ = write!(out, "\\x{b:02x}");
            }
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::byte_string;

    #[test]
    fn operation_names_become_byte_string_literals() {
        assert_eq!(byte_string("cube_long"), r#"b"cube_long""#);
        assert_eq!(byte_string("_get_x"), r#"b"_get_x""#);
        assert_eq!(byte_string("a\"b\\c"), r#"b"a\"b\\c""#);
        assert_eq!(byte_string("café"), r#"b"caf\xc3\xa9""#);
    }
}
