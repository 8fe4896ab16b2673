//! The walk over the model: Rust names and paths for every declaration,
//! and the items of modules, constants, structs, enums, unions, typedefs
//! and exceptions. Interfaces are in [`super::interface`].

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::diag::{Diagnostic, Location};
use crate::sema::{ConstValue, DeclId, DeclKind, Member, Model, Type, UnionDef};

use super::dispatch::Dispatch;
use super::names::{NameKind, Namer};

/// Names reserved in every generated module's value namespace.
const RESERVED_VALUES: &[&str] = &["REPOSITORY_IDS", "OPERATIONS", "dispatch"];

/// The state of one generation.
pub(crate) struct Gen<'m> {
    pub(super) model: &'m Model,
    /// The module path and item name of each named item.
    item: HashMap<DeclId, (Vec<String>, String)>,
    /// The module holding the contents of each module and interface.
    pub(super) scope_mod: HashMap<DeclId, Vec<String>>,
    /// The TypeCode function of each typedef.
    alias_fn: HashMap<DeclId, (Vec<String>, String)>,
    /// The Rust variant of each enumerator.
    variant: HashMap<DeclId, String>,
    /// The module path and name of the trait of each valuetype.
    pub(super) value_trait: HashMap<DeclId, (Vec<String>, String)>,
    /// The names taken in each module (types, values).
    namers: HashMap<Vec<String>, (Namer, Namer)>,
    /// The module being written.
    pub(super) cur: Vec<String>,
    /// Where the declaration being written is.
    pub(super) location: Location,
    /// Errors found.
    pub(super) diags: Vec<Diagnostic>,
    /// How skeletons find the operation a request names.
    pub(super) dispatch: Dispatch,
}

/// A doc attribute with `text` (IDL doc comments lose their indentation,
/// so that rustdoc reads no code blocks, and Markdown link and HTML
/// brackets are escaped).
pub(super) fn doc(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let line = line.trim();
        let mut escaped = String::new();
        for c in line.chars() {
            if matches!(c, '<' | '>' | '[' | ']' | '`' | '*' | '_' | '#') {
                escaped.push('\\');
            }
            escaped.push(c);
        }
        let _ = writeln!(out, "#[doc = {:?}]", format!(" {escaped}"));
    }
    if out.is_empty() {
        out.push_str("#[doc = \"\"]\n");
    }
    out
}

/// The doc attribute of a declaration: its IDL doc comment, else `what`.
pub(super) fn doc_or(idl_doc: &Option<String>, what: &str) -> String {
    match idl_doc {
        Some(d) if !d.trim().is_empty() => {
            format!(
                "{}#[doc = \"\"]\n#[doc = {:?}]\n",
                doc(d),
                format!(" {what}")
            )
        }
        _ => format!("#[doc = {:?}]\n", format!(" {what}")),
    }
}

impl<'m> Gen<'m> {
    /// A generator for `model`, with every declaration named.
    pub(crate) fn new(model: &'m Model) -> Gen<'m> {
        let mut g = Gen {
            model,
            item: HashMap::new(),
            scope_mod: HashMap::new(),
            alias_fn: HashMap::new(),
            variant: HashMap::new(),
            value_trait: HashMap::new(),
            namers: HashMap::new(),
            cur: Vec::new(),
            location: Location::new("", 0, 0),
            diags: Vec::new(),
            dispatch: Dispatch::Auto,
        };
        let top = model.top.clone();
        g.name_scope(&top, &[]);
        g
    }

    fn namers(&mut self, path: &[String]) -> &mut (Namer, Namer) {
        self.namers.entry(path.to_vec()).or_insert_with(|| {
            let mut values = Namer::new();
            for r in RESERVED_VALUES {
                values.reserve(r);
            }
            (Namer::new(), values)
        })
    }

    fn name_scope(&mut self, ids: &[DeclId], path: &[String]) {
        let model = self.model;
        for &id in ids {
            let decl = model.decl(id);
            match &decl.kind {
                DeclKind::Module(m) => {
                    let name = self.namers(path).0.name(&decl.name, NameKind::Module);
                    let mut inner = path.to_vec();
                    inner.push(name);
                    self.scope_mod.insert(id, inner.clone());
                    self.name_scope(&m.contents, &inner);
                }
                DeclKind::Interface(i) => {
                    let (types, _) = self.namers(path);
                    let stub = types.name(&decl.name, NameKind::Type);
                    types.reserve(&format!("{stub}Servant"));
                    types.reserve(&format!("{stub}Skeleton"));
                    let module = types.name(&decl.name, NameKind::Module);
                    self.item.insert(id, (path.to_vec(), stub));
                    let mut inner = path.to_vec();
                    inner.push(module);
                    self.scope_mod.insert(id, inner.clone());
                    self.name_scope(&i.contents, &inner);
                }
                DeclKind::ValueType(v) => {
                    let (types, _) = self.namers(path);
                    let name = types.name(&decl.name, NameKind::Type);
                    let value_trait = types.name(&format!("{name}Value"), NameKind::Type);
                    types.reserve(&format!("{name}Operations"));
                    types.reserve(&format!("{name}Init"));
                    let module = types.name(&decl.name, NameKind::Module);
                    self.item.insert(id, (path.to_vec(), name));
                    self.value_trait.insert(id, (path.to_vec(), value_trait));
                    let mut inner = path.to_vec();
                    inner.push(module);
                    self.scope_mod.insert(id, inner.clone());
                    self.name_scope(&v.contents, &inner);
                }
                DeclKind::ValueBox(_) | DeclKind::Native => self.name_type(id, path),
                DeclKind::Struct(s) => {
                    self.name_type(id, path);
                    self.name_scope(&s.contents, path);
                }
                DeclKind::Exception(s) => {
                    self.name_type(id, path);
                    self.name_scope(&s.contents, path);
                }
                DeclKind::Union(u) => {
                    self.name_type(id, path);
                    self.name_scope(&u.contents, path);
                }
                DeclKind::Enum(e) => {
                    self.name_type(id, path);
                    let mut variants = Namer::new();
                    for &en in &e.enumerators {
                        let v = variants.name(&model.decl(en).name, NameKind::Variant);
                        self.variant.insert(en, v);
                    }
                }
                DeclKind::Alias(_) => {
                    self.name_type(id, path);
                    let f = self
                        .namers(path)
                        .1
                        .name(&format!("{}_type_code", decl.name), NameKind::Value);
                    self.alias_fn.insert(id, (path.to_vec(), f));
                }
                DeclKind::Const(_) => {
                    let n = self.namers(path).1.name(&decl.name, NameKind::Constant);
                    self.item.insert(id, (path.to_vec(), n));
                }
                _ => {}
            }
        }
    }

    fn name_type(&mut self, id: DeclId, path: &[String]) {
        let name = &self.model.decl(id).name;
        let n = self.namers(path).0.name(name, NameKind::Type);
        self.item.insert(id, (path.to_vec(), n));
    }

    /// A path from the current module to `path`'s `item`.
    fn relative(&self, path: &[String], item: &str) -> String {
        let common = self
            .cur
            .iter()
            .zip(path)
            .take_while(|(a, b)| a == b)
            .count();
        let mut out = String::new();
        for _ in common..self.cur.len() {
            out.push_str("super::");
        }
        for seg in path.iter().skip(common) {
            out.push_str(seg);
            out.push_str("::");
        }
        out.push_str(item);
        out
    }

    /// The Rust path of the item of `id`, from the current module.
    pub(super) fn path_to(&self, id: DeclId) -> String {
        match self.item.get(&id) {
            Some((path, name)) => self.relative(path, name),
            None => "()".into(),
        }
    }

    /// The Rust name of the item of `id`.
    pub(super) fn item_name(&self, id: DeclId) -> String {
        self.item
            .get(&id)
            .map(|(_, n)| n.clone())
            .unwrap_or_default()
    }

    /// The path of something named `item` in the module of the contents
    /// of interface (or module) `scope`.
    pub(super) fn in_scope(&self, scope: DeclId, item: &str) -> String {
        match self.scope_mod.get(&scope) {
            Some(path) => self.relative(path, item),
            None => item.into(),
        }
    }

    /// The Rust path of the trait of valuetype `id`, from the current
    /// module.
    pub(super) fn value_trait_path(&self, id: DeclId) -> String {
        match self.value_trait.get(&id) {
            Some((path, name)) => self.relative(path, name),
            None => "::rtorb::codegen::valuetype::ValueBase".into(),
        }
    }

    /// The path of the TypeCode function of typedef `id`.
    pub(super) fn alias_tc_fn_path(&self, id: DeclId) -> String {
        match self.alias_fn.get(&id) {
            Some((path, name)) => self.relative(path, name),
            None => "::rtorb::codegen::TypeCode::null".into(),
        }
    }

    /// The path of enumerator `id` (`Enum::Variant`).
    pub(super) fn enumerator_path(&self, id: DeclId) -> String {
        let of = match &self.model.decl(id).kind {
            DeclKind::Enumerator(e) => e.of,
            _ => return "()".into(),
        };
        format!(
            "{}::{}",
            self.path_to(of),
            self.variant.get(&id).cloned().unwrap_or_default()
        )
    }

    /// Records that the declaration being written uses a construct the
    /// back end does not support.
    pub(super) fn unsupported(&mut self, message: &str) {
        let d = Diagnostic::error(self.location.clone(), message);
        if !self.diags.contains(&d) {
            self.diags.push(d);
        }
    }

    /// The items of the declarations `ids`, written in module `path`.
    pub(crate) fn scope(&mut self, ids: &[DeclId], path: &[String]) -> String {
        let model = self.model;
        let mut out = String::new();
        for &id in ids {
            self.cur = path.to_vec();
            let decl = model.decl(id);
            self.location = decl.location.clone();
            match &decl.kind {
                DeclKind::Module(m) => {
                    let inner = self.scope_mod.get(&id).cloned().unwrap_or_default();
                    let name = inner.last().cloned().unwrap_or_default();
                    let body = self.scope(&m.contents, &inner);
                    let inception = if path.last() == Some(&name) {
                        "#[allow(clippy::module_inception)]\n"
                    } else {
                        ""
                    };
                    let _ = write!(
                        out,
                        "{}{inception}pub mod {name} {{ {body} }}",
                        doc_or(&decl.doc, &format!("IDL module `{}`.", decl.name))
                    );
                }
                DeclKind::Interface(_) => out.push_str(&self.interface(id)),
                DeclKind::Struct(s) => {
                    out.push_str(&self.struct_item(id, &s.members, false));
                    let contents = s.contents.clone();
                    out.push_str(&self.scope(&contents, path));
                }
                DeclKind::Exception(s) => {
                    out.push_str(&self.struct_item(id, &s.members, true));
                    let contents = s.contents.clone();
                    out.push_str(&self.scope(&contents, path));
                }
                DeclKind::Union(u) => {
                    out.push_str(&self.union_item(id, u));
                    let contents = u.contents.clone();
                    out.push_str(&self.scope(&contents, path));
                }
                DeclKind::Enum(_) => out.push_str(&self.enum_item(id)),
                DeclKind::Alias(a) => out.push_str(&self.alias_item(id, &a.target)),
                DeclKind::Const(c) => out.push_str(&self.const_item(id, &c.ty, &c.value)),
                DeclKind::ValueType(_) => out.push_str(&self.value_type(id)),
                DeclKind::ValueBox(b) => out.push_str(&self.value_box(id, &b.boxed)),
                DeclKind::Native => out.push_str(&self.native(id)),
                DeclKind::Forward(_) | DeclKind::Enumerator(_) => {}
            }
        }
        self.cur = path.to_vec();
        out
    }

    fn const_item(&mut self, id: DeclId, ty: &Type, value: &ConstValue) -> String {
        let decl = self.model.decl(id);
        let name = self.item_name(id);
        let un = self.model.unalias(ty).clone();
        let (rt, note) = match &un {
            Type::String(_) | Type::WString(_) => ("&str".to_string(), ""),
            Type::Fixed { .. } => (
                "&str".to_string(),
                " A `fixed` constant is its decimal text; `rtorb_cdr::Fixed` parses it.",
            ),
            Type::LongDouble => (
                "f64".to_string(),
                " A `long double` constant is held as a `f64`.",
            ),
            _ => (self.rust_ty(&un), ""),
        };
        let lit = self.literal(value, false);
        format!(
            "{}pub const {name}: {rt} = {lit};\n",
            doc_or(
                &decl.doc,
                &format!("IDL constant `{}`.{note}", decl.scoped_name.join("::"))
            )
        )
    }

    fn alias_item(&mut self, id: DeclId, target: &Type) -> String {
        let decl = self.model.decl(id);
        let name = self.item_name(id);
        let rt = self.rust_ty(target);
        let (_, f) = self.alias_fn.get(&id).cloned().unwrap_or_default();
        let tc = self.type_code(target, None);
        let rid = decl.repository_id.clone().unwrap_or_default();
        let bounds = match self.model.unalias(target) {
            Type::String(Some(b)) | Type::WString(Some(b)) => {
                format!(" Bounded to {b} characters, checked where it is written and read.")
            }
            Type::Sequence { bound: Some(b), .. } => {
                format!(" Bounded to {b} elements, checked where it is written and read.")
            }
            _ => String::new(),
        };
        format!(
            "{}pub type {name} = {rt};\n#[doc = {:?}]\npub fn {f}() -> ::rtorb::codegen::TypeCode {{ ::rtorb::codegen::TypeCode::alias({rid:?}, {:?}, {tc}) }}\n",
            doc_or(
                &decl.doc,
                &format!("IDL typedef `{}`.{bounds}", decl.scoped_name.join("::"))
            ),
            format!(" The TypeCode of `{}` (`tk_alias`).", decl.name),
            decl.name,
        )
    }

    fn struct_item(&mut self, id: DeclId, members: &[Member], exception: bool) -> String {
        let model = self.model;
        let decl = model.decl(id);
        let name = self.item_name(id);
        let rid = decl.repository_id.clone().unwrap_or_default();
        let mut fields = Namer::new();
        let names: Vec<String> = members
            .iter()
            .map(|m| fields.name(&m.name, NameKind::Value))
            .collect();
        let eq = members.iter().all(|m| self.has_eq(&m.ty));
        let default = !exception && members.iter().all(|m| self.has_default(&m.ty, 0));
        let mut derives = vec!["Debug", "Clone"];
        if eq {
            derives.push("PartialEq");
        }
        if default {
            derives.push("Default");
        }
        let what = if exception { "exception" } else { "struct" };
        let mut out = doc_or(
            &decl.doc,
            &format!("IDL {what} `{}` (`{rid}`).", decl.scoped_name.join("::")),
        );
        let _ = write!(
            out,
            "#[derive({})]\npub struct {name} {{",
            derives.join(", ")
        );
        for (m, n) in members.iter().zip(&names) {
            let rt = self.rust_ty(&m.ty);
            let _ = write!(
                out,
                "{}pub {n}: {rt},",
                doc_or(&m.doc, &format!("`{}`", m.name))
            );
        }
        out.push_str("}\n");
        // CdrEncode
        let mut enc = String::new();
        for (m, n) in members.iter().zip(&names) {
            enc.push_str(&self.encode(&m.ty, &format!("&self.{n}")));
        }
        let e = if members.is_empty() { "_e" } else { "e" };
        let _ = write!(
            out,
            "impl ::rtorb::codegen::CdrEncode for {name} {{ fn encode(&self, {e}: &mut ::rtorb::codegen::Encoder) -> ::rtorb::codegen::Result<()> {{ {enc} Ok(()) }} }}"
        );
        // CdrDecode
        let mut dec = String::new();
        let mut min = 0usize;
        for (m, n) in members.iter().zip(&names) {
            let _ = write!(dec, "{n}: {},", self.decode(&m.ty));
            min = min.saturating_add(self.min_size(&m.ty, 0));
        }
        let d = if members.is_empty() { "_d" } else { "d" };
        let _ = write!(
            out,
            "impl ::rtorb::codegen::CdrDecode for {name} {{ const MIN_WIRE_SIZE: usize = {min}; fn decode({d}: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {{ Ok({name} {{ {dec} }}) }} }}"
        );
        // TypeCode
        let mut tcs = String::new();
        for m in members {
            let tc = self.type_code(&m.ty, Some(id));
            let _ = write!(tcs, "({:?}, {tc}),", m.name);
        }
        let ctor = if exception {
            "exception_tc"
        } else {
            "struct_tc"
        };
        let list = if members.is_empty() {
            "::std::vec::Vec::<(&str, ::rtorb::codegen::TypeCode)>::new()".to_string()
        } else {
            format!("[{tcs}]")
        };
        let _ = write!(
            out,
            "impl ::rtorb::codegen::IdlType for {name} {{ fn type_code() -> ::rtorb::codegen::TypeCode {{ ::rtorb::codegen::TypeCode::{ctor}({rid:?}, {:?}, {list}) }} }}",
            decl.name
        );
        out.push_str(&any_value(&name));
        if exception {
            let _ = write!(
                out,
                "impl ::rtorb::codegen::UserException for {name} {{ const REPOSITORY_ID: &'static str = {rid:?}; }}\n\
                 impl ::std::fmt::Display for {name} {{ fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {{ f.write_str({:?}) }} }}\n\
                 impl ::std::error::Error for {name} {{}}",
                format!("user exception {}", decl.scoped_name.join("::"))
            );
        }
        out
    }

    fn enum_item(&mut self, id: DeclId) -> String {
        let model = self.model;
        let decl = model.decl(id);
        let DeclKind::Enum(e) = &decl.kind else {
            return String::new();
        };
        let name = self.item_name(id);
        let rid = decl.repository_id.clone().unwrap_or_default();
        let mut out = doc_or(
            &decl.doc,
            &format!(
                "IDL enum `{}` (`{rid}`): an `unsigned long` on the wire.",
                decl.scoped_name.join("::")
            ),
        );
        out.push_str("#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]\n#[repr(u32)]\n#[allow(clippy::enum_variant_names)]\n");
        let _ = write!(out, "pub enum {name} {{");
        let mut arms = String::new();
        let mut idl_names = String::new();
        for (i, &en) in e.enumerators.iter().enumerate() {
            let d = model.decl(en);
            let v = self.variant.get(&en).cloned().unwrap_or_default();
            let ord = match &d.kind {
                DeclKind::Enumerator(x) => x.value,
                _ => 0,
            };
            let dflt = if i == 0 { "#[default]" } else { "" };
            let _ = write!(
                out,
                "{}{dflt} {v} = {ord},",
                doc_or(&d.doc, &format!("`{}`", d.name))
            );
            let _ = write!(arms, "{ord} => Ok({name}::{v}),");
            let _ = write!(idl_names, "{:?},", d.name);
        }
        let count = e.enumerators.len();
        let _ = write!(
            out,
            "}}\nimpl ::rtorb::codegen::CdrEncode for {name} {{ fn encode(&self, e: &mut ::rtorb::codegen::Encoder) -> ::rtorb::codegen::Result<()> {{ e.write_u32(*self as u32); Ok(()) }} }}\n\
             impl ::rtorb::codegen::CdrDecode for {name} {{ const MIN_WIRE_SIZE: usize = 4; fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {{ match d.read_u32()? {{ {arms} value => Err(::rtorb::codegen::CdrError::InvalidEnum {{ value, count: {count} }}), }} }} }}\n\
             impl ::rtorb::codegen::IdlType for {name} {{ fn type_code() -> ::rtorb::codegen::TypeCode {{ ::rtorb::codegen::TypeCode::enum_tc({rid:?}, {:?}, [{idl_names}]) }} }}",
            decl.name
        );
        out.push_str(&any_value(&name));
        out
    }

    fn union_item(&mut self, id: DeclId, u: &UnionDef) -> String {
        let model = self.model;
        let decl = model.decl(id);
        let name = self.item_name(id);
        let rid = decl.repository_id.clone().unwrap_or_default();
        let disc = model.unalias(&u.discriminator).clone();
        let disc_rt = self.rust_ty(&disc);
        let mut variants = Namer::new();
        let names: Vec<String> = u
            .cases
            .iter()
            .map(|c| variants.name(&c.name, NameKind::Variant))
            .collect();
        let no_member = if u.default_case.is_none() && !u.covers_all {
            Some(variants.name("NoMember", NameKind::Variant))
        } else {
            None
        };
        let eq = u.cases.iter().all(|c| self.has_eq(&c.ty));
        let mut out = doc_or(
            &decl.doc,
            &format!(
                "IDL union `{}` (`{rid}`): a variant per case, holding the member. The discriminator written for a case is its first label; the `default` case holds the discriminator with the member.",
                decl.scoped_name.join("::")
            ),
        );
        let derives = if eq {
            "Debug, Clone, PartialEq"
        } else {
            "Debug, Clone"
        };
        let _ = write!(
            out,
            "#[derive({derives})]\n#[allow(clippy::large_enum_variant, clippy::enum_variant_names)]\npub enum {name} {{"
        );
        let mut enc_arms = String::new();
        let mut dec_arms = String::new();
        let mut default_arm = String::new();
        let mut tc_members = String::new();
        for (c, v) in u.cases.iter().zip(&names) {
            let rt = self.rust_ty(&c.ty);
            let labels = c
                .labels
                .iter()
                .map(|l| self.literal(l, false))
                .collect::<Vec<_>>();
            let member_enc = self.encode(&c.ty, "x");
            let member_dec = self.decode(&c.ty);
            let tc = self.type_code(&c.ty, Some(id));
            for l in &c.labels {
                let lv = self.label_value(l);
                let _ = write!(
                    tc_members,
                    "::rtorb::codegen::UnionMember::new({lv}, {:?}, {tc}),",
                    c.name
                );
            }
            if c.is_default {
                let _ = write!(
                    tc_members,
                    "::rtorb::codegen::UnionMember::default_case({:?}, {tc}),",
                    c.name
                );
            }
            if c.is_default {
                let _ = write!(
                    out,
                    "{}{v}({disc_rt}, {rt}),",
                    doc_or(
                        &c.doc,
                        &format!("`default: {}` (with the discriminator)", c.name)
                    )
                );
                let disc_enc = self.encode(&disc, "disc");
                let _ = write!(
                    enc_arms,
                    "{name}::{v}(disc, x) => {{ {disc_enc} {member_enc} }}"
                );
                default_arm = format!("disc => {name}::{v}(disc, {member_dec}),");
                if !labels.is_empty() {
                    let _ = write!(
                        dec_arms,
                        "{} => {name}::{v}(disc, {member_dec}),",
                        labels.join(" | ")
                    );
                }
            } else {
                let _ = write!(
                    out,
                    "{}{v}({rt}),",
                    doc_or(&c.doc, &format!("`case {}: {}`", labels.join(", "), c.name))
                );
                let first = c
                    .labels
                    .first()
                    .map(|l| self.literal(l, true))
                    .unwrap_or_default();
                let disc_enc = self.encode(&disc, &format!("&{first}"));
                let _ = write!(enc_arms, "{name}::{v}(x) => {{ {disc_enc} {member_enc} }}");
                let _ = write!(
                    dec_arms,
                    "{} => {name}::{v}({member_dec}),",
                    labels.join(" | ")
                );
            }
        }
        if let Some(v) = &no_member {
            let _ = write!(
                out,
                "#[doc = \" No member: the discriminator matches no label.\"]\n{v}({disc_rt}),"
            );
            let disc_enc = self.encode(&disc, "disc");
            let _ = write!(enc_arms, "{name}::{v}(disc) => {{ {disc_enc} }}");
            default_arm = format!("disc => {name}::{v}(disc),");
        }
        out.push_str("}\n");
        if default_arm.is_empty() {
            let exhaustive = matches!(disc, Type::Boolean)
                || matches!(&disc, Type::Named(d) if matches!(model.decl(*d).kind, DeclKind::Enum(_)));
            if !exhaustive {
                default_arm =
                    "_ => return Err(::rtorb::codegen::CdrError::InvalidDiscriminator(0)),".into();
            }
        }
        let disc_dec = self.decode(&disc);
        let disc_tc = self.type_code(&u.discriminator, None);
        let min = self.min_size(&disc, 0);
        let _ = write!(
            out,
            "impl ::rtorb::codegen::CdrEncode for {name} {{ fn encode(&self, e: &mut ::rtorb::codegen::Encoder) -> ::rtorb::codegen::Result<()> {{ match self {{ {enc_arms} }} Ok(()) }} }}\n\
             impl ::rtorb::codegen::CdrDecode for {name} {{ const MIN_WIRE_SIZE: usize = {min}; fn decode(d: &mut ::rtorb::codegen::Decoder) -> ::rtorb::codegen::Result<Self> {{ let disc: {disc_rt} = {disc_dec}; Ok(match disc {{ {dec_arms} {default_arm} }}) }} }}\n\
             impl ::rtorb::codegen::IdlType for {name} {{ fn type_code() -> ::rtorb::codegen::TypeCode {{ ::rtorb::codegen::TypeCode::union_tc({rid:?}, {:?}, {disc_tc}, ::std::vec![{tc_members}]).unwrap_or_else(|_| ::rtorb::codegen::TypeCode::null()) }} }}",
            decl.name
        );
        out.push_str(&any_value(&name));
        out
    }
}

/// The `AnyValue` implementation of the generated type `name`, which has
/// `IdlType`, `CdrEncode` and `CdrDecode`: into and out of an `Any` as
/// every other type.
pub(super) fn any_value(name: &str) -> String {
    format!(
        "\nimpl ::rtorb::codegen::AnyValue for {name} {{ \
           fn to_any(&self) -> ::rtorb::codegen::Result<::rtorb::codegen::Any> {{ ::rtorb::codegen::Any::from_cdr(<{name} as ::rtorb::codegen::IdlType>::type_code(), self) }} \
           fn from_any(any: &::rtorb::codegen::Any) -> ::rtorb::codegen::Result<Self> {{ any.decode_cdr() }} \
         }}\n"
    )
}
