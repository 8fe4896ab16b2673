//! The analysis pass: declarations in source order, names resolved where
//! they are used (IDL requires declaration before use), checks, and the
//! construction of the [`Model`].

use std::collections::{HashMap, HashSet};

use crate::ast::{self, BaseType, Definition, Export, Identifier, ScopedName, TypeDcl, TypeKind};
use crate::{Diagnostic, Location};

use super::consts::{Evaluator, IntType, NamedValue, Target, show};
use super::model::*;
use super::scope::{Entry, Scope, ScopeId, join};

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

    /// Checks that `ident` may be declared in `scope` (`completing`: the
    /// forward declaration a definition completes). Reports and returns
    /// false when not.
    fn check_name(
        &mut self,
        scope: ScopeId,
        ident: &Identifier,
        completing: Option<DeclId>,
    ) -> bool {
        let name = &ident.name;
        let lower = name.to_lowercase();
        let s = &self.scopes[scope];
        if let Some(e) = s.entries.get(name) {
            if completing.is_some_and(|c| *e == Entry::Decl(c)) {
                return true;
            }
            let note = self.entry_location(e);
            self.diags.push(
                Diagnostic::error(ident.location.clone(), format!("redefinition of `{name}`"))
                    .with_note(note, format!("`{name}` was first defined here")),
            );
            return false;
        }
        if let Some(other) = s.folded.get(&lower) {
            let other = other.clone();
            let note = s.entries.get(&other).map(|e| self.entry_location(e));
            let mut d = Diagnostic::error(
                ident.location.clone(),
                format!("`{name}` differs from `{other}` only in case"),
            );
            if let Some(n) = note {
                d = d.with_note(n, format!("`{other}` is defined here"));
            }
            self.diags.push(d);
            return false;
        }
        if let Some(used) = s.used.get(&lower) {
            let used = used.clone();
            self.diags.push(
                Diagnostic::error(
                    ident.location.clone(),
                    format!("`{name}` is defined in a scope where it was already used"),
                )
                .with_note(used, "the earlier meaning is used here"),
            );
            return false;
        }
        if let Some(owner) = s.owner {
            let o = &self.decls[owner.0];
            if o.name.to_lowercase() == lower {
                let note = o.location.clone();
                let oname = o.name.clone();
                self.diags.push(
                    Diagnostic::error(
                        ident.location.clone(),
                        format!("`{name}` redefines the name of its enclosing scope `{oname}`"),
                    )
                    .with_note(note, format!("`{oname}` is declared here")),
                );
                return false;
            }
        }
        true
    }

    fn insert(&mut self, scope: ScopeId, name: &str, e: Entry) {
        let s = &mut self.scopes[scope];
        s.folded.insert(name.to_lowercase(), name.to_string());
        s.entries.insert(name.to_string(), e);
    }

    /// Declares a member-like name (member, parameter, operation).
    fn member_name(&mut self, scope: ScopeId, ident: &Identifier, kind: &'static str) {
        if self.check_name(scope, ident, None) {
            let e = Entry::Member {
                kind,
                location: ident.location.clone(),
            };
            self.insert(scope, &ident.name, e);
        }
    }

    /// Creates a declaration in `scope` (entering its name unless
    /// `completing` says it replaces a forward declaration, or the name is
    /// taken, which is reported).
    fn declare(
        &mut self,
        scope: ScopeId,
        ident: &Identifier,
        doc: &Option<String>,
        kind: DeclKind,
        completing: Option<DeclId>,
    ) -> DeclId {
        let ok = self.check_name(scope, ident, completing);
        let id = DeclId(self.decls.len());
        let owner = self.scopes[scope].owner;
        let mut scoped_name = owner
            .map(|o| self.decls[o.0].scoped_name.clone())
            .unwrap_or_default();
        scoped_name.push(ident.name.clone());
        let base = join(
            self.scopes[scope].path_for(&ident.location.file),
            &ident.name,
        );
        let parent = owner;
        let is_enumerator = matches!(kind, DeclKind::Enumerator(_));
        self.decls.push(Decl {
            name: ident.name.clone(),
            scoped_name,
            repository_id: None,
            doc: doc.clone(),
            location: ident.location.clone(),
            parent,
            kind,
        });
        self.id_base.push(base);
        self.explicit_id.push(None);
        self.version.push(None);
        if ok {
            self.insert(scope, &ident.name, Entry::Decl(id));
        }
        if !is_enumerator {
            self.add_content(parent, id);
        }
        id
    }

    fn add_content(&mut self, parent: Option<DeclId>, id: DeclId) {
        let Some(p) = parent else {
            self.top.push(id);
            return;
        };
        let list = match &mut self.decls[p.0].kind {
            DeclKind::Module(m) => &mut m.contents,
            DeclKind::Interface(i) => &mut i.contents,
            DeclKind::Struct(s) => &mut s.contents,
            DeclKind::Union(u) => &mut u.contents,
            DeclKind::Exception(e) => &mut e.contents,
            DeclKind::ValueType(v) => &mut v.contents,
            _ => return,
        };
        list.push(id);
    }

    /// The scope `id` opens, made on first use; its repository id path is
    /// set for this opening.
    fn open_scope(&mut self, parent: ScopeId, id: DeclId) -> ScopeId {
        let d = &self.decls[id.0];
        let name = d.name.clone();
        let file = d.location.file.clone();
        let s = match self.scope_of.get(&id) {
            Some(&s) => s,
            None => {
                self.scopes.push(Scope {
                    owner: Some(id),
                    parent: Some(parent),
                    ..Scope::default()
                });
                let s = self.scopes.len() - 1;
                self.scope_of.insert(id, s);
                s
            }
        };
        let path = join(self.scopes[parent].path_for(&file), &name);
        let scope = &mut self.scopes[s];
        scope.path = path;
        scope.file_paths.clear();
        s
    }

    /// The entries for `name` in `scope` or, failing that, inherited into
    /// it (distinct declarations: more than one is an ambiguity).
    fn find_in(&self, scope: ScopeId, name: &str, visited: &mut HashSet<ScopeId>) -> Vec<Entry> {
        if !visited.insert(scope) {
            return Vec::new();
        }
        let s = &self.scopes[scope];
        if let Some(e) = s.entries.get(name) {
            return vec![e.clone()];
        }
        let mut found: Vec<Entry> = Vec::new();
        for &b in &s.bases {
            for e in self.find_in(b, name, visited) {
                if !found.contains(&e) {
                    found.push(e);
                }
            }
        }
        found
    }

    fn ambiguous(&mut self, name: &ScopedName, found: &[Entry]) {
        let mut d = Diagnostic::error(name.location.clone(), format!("ambiguous name `{name}`"));
        for e in found {
            d = d.with_note(self.entry_location(e), format!("`{name}` could mean this"));
        }
        self.diags.push(d);
    }

    /// Resolves `name` as used in `scope`; reports and returns `None` when
    /// it names nothing or more than one thing.
    fn resolve(&mut self, scope: ScopeId, name: &ScopedName, record: bool) -> Option<Res> {
        let first = name.parts.first()?;
        let mut found = Vec::new();
        if name.absolute {
            found = self.find_in(0, first, &mut HashSet::new());
        } else {
            let mut s = Some(scope);
            while let Some(cur) = s {
                found = self.find_in(cur, first, &mut HashSet::new());
                if !found.is_empty() {
                    let own = self.scopes[cur].entries.contains_key(first.as_str());
                    if record && (cur != scope || !own) {
                        self.scopes[scope]
                            .used
                            .entry(first.to_lowercase())
                            .or_insert_with(|| name.location.clone());
                    }
                    break;
                }
                s = self.scopes[cur].parent;
            }
        }
        if found.is_empty() {
            if let Some(t) = predefined(name) {
                return Some(Res::Builtin(t));
            }
            self.err(
                &name.location,
                format!("cannot find `{name}` in this scope"),
            );
            return None;
        }
        if found.len() > 1 {
            self.ambiguous(name, &found);
            return None;
        }
        let mut entry = found.remove(0);
        for (i, part) in name.parts.iter().enumerate().skip(1) {
            let inner = match &entry {
                Entry::Decl(id) => self.scope_of.get(id).copied(),
                Entry::Member { .. } => None,
            };
            let prefix = name.parts[..i].join("::");
            let found = match inner {
                Some(s) => self.find_in(s, part, &mut HashSet::new()),
                None => Vec::new(),
            };
            match found.len() {
                0 => {
                    if let Some(t) = predefined(name) {
                        return Some(Res::Builtin(t));
                    }
                    self.err(
                        &name.location,
                        format!("cannot find `{part}` in `{prefix}`"),
                    );
                    return None;
                }
                1 => entry = found.into_iter().next()?,
                _ => {
                    self.ambiguous(name, &found);
                    return None;
                }
            }
        }
        Some(Res::Entry(entry))
    }

    /// Resolves `name` to a declaration, reporting names of other things.
    fn resolve_decl(&mut self, scope: ScopeId, name: &ScopedName, record: bool) -> Option<DeclId> {
        match self.resolve(scope, name, record)? {
            Res::Entry(Entry::Decl(id)) => Some(id),
            Res::Entry(Entry::Member { kind, location }) => {
                self.diags.push(
                    Diagnostic::error(
                        name.location.clone(),
                        format!("`{name}` is a {kind}, not a declaration"),
                    )
                    .with_note(location, format!("`{name}` is declared here")),
                );
                None
            }
            Res::Builtin(_) => {
                self.err(
                    &name.location,
                    format!("`{name}` is predefined and cannot be named here"),
                );
                None
            }
        }
    }

    fn not_a(&mut self, name: &ScopedName, id: DeclId, what: &str) {
        let note = self.decls[id.0].location.clone();
        self.diags.push(
            Diagnostic::error(name.location.clone(), format!("`{name}` is not {what}"))
                .with_note(note, format!("`{name}` is declared here")),
        );
    }

    // ----- definitions -----

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

    /// The forward declaration that `ident` completes, if any (reporting a
    /// forward declaration of another kind).
    fn completes(&mut self, scope: ScopeId, ident: &Identifier, of: ForwardKind) -> Option<DeclId> {
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

    fn complete(&mut self, forward: Option<DeclId>, id: DeclId) {
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

    fn forward(
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

    fn interface(&mut self, scope: ScopeId, i: &ast::Interface) {
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

    fn all_bases(&self, bases: &[DeclId]) -> Vec<DeclId> {
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
    fn inherited_members(
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

    fn with_inherited(
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
    fn check_inherited(
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

    fn exports(
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

    fn member_id(&self, scope: ScopeId, n: &Identifier) -> String {
        format!(
            "IDL:{}:1.0",
            join(self.scopes[scope].path_for(&n.location.file), &n.name)
        )
    }

    fn params(&mut self, scope: ScopeId, params: &[ast::Param]) -> Vec<Param> {
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

    fn raises(&mut self, scope: ScopeId, names: &[ScopedName]) -> Vec<DeclId> {
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

    fn value_type(&mut self, scope: ScopeId, v: &ast::ValueType) {
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

    fn type_dcl(&mut self, scope: ScopeId, t: &TypeDcl) {
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
    fn members(&mut self, scope: ScopeId, members: &[ast::Member]) -> Vec<Member> {
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

    fn structure(&mut self, scope: ScopeId, s: &ast::StructType) -> DeclId {
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

    fn exception(&mut self, scope: ScopeId, e: &ast::Except) {
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

    fn enumeration(&mut self, scope: ScopeId, e: &ast::EnumType) -> DeclId {
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

    fn union(&mut self, scope: ScopeId, u: &ast::UnionType) -> DeclId {
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

    fn has_errors_at(&self, location: &Location) -> bool {
        self.diags.iter().any(|d| d.location == *location)
    }

    fn eval_label(
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

    fn constant(&mut self, scope: ScopeId, c: &ast::Const) {
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

    fn eval(
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

    fn named_value(&mut self, scope: ScopeId, n: &ScopedName) -> Option<NamedValue> {
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

    fn unalias(&self, ty: &Type) -> Type {
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

    fn target(&self, ty: &Type) -> Option<Target> {
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

    fn type_name(&self, ty: &Type) -> String {
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

    /// A positive bound or dimension.
    fn positive(&mut self, scope: ScopeId, expr: &ast::ConstExpr, what: &str) -> Option<u32> {
        match self.eval(scope, expr, &Target::Int(IntType::ULong))? {
            ConstValue::ULong(0) => {
                self.err(&expr.location, format!("{what} must be positive, found 0"));
                None
            }
            ConstValue::ULong(n) => Some(n),
            _ => None,
        }
    }

    fn array(&mut self, scope: ScopeId, ty: Type, d: &ast::Declarator) -> Type {
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

    fn resolve_type(&mut self, scope: ScopeId, spec: &ast::TypeSpec) -> Type {
        self.resolve_type_at(scope, spec, 0)
    }

    fn resolve_type_at(&mut self, scope: ScopeId, spec: &ast::TypeSpec, depth: usize) -> Type {
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
    fn by_value(&mut self, ty: &Type, location: &Location) {
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

    fn pragma(&mut self, scope: ScopeId, p: &ast::Pragma) {
        match &p.kind {
            ast::PragmaKind::Prefix(prefix) => {
                self.scopes[scope]
                    .file_paths
                    .insert(p.location.file.clone(), prefix.clone());
            }
            ast::PragmaKind::Id { name, id } => self.set_id(scope, name, id, &p.location),
            ast::PragmaKind::Version { name, major, minor } => {
                if let Some(id) = self.resolve_decl(scope, name, false) {
                    self.version[id.0] = Some((*major, *minor));
                    if let Some((explicit, at)) = &self.explicit_id[id.0] {
                        if !explicit.starts_with("IDL:") {
                            let note = at.clone();
                            self.diags.push(
                                Diagnostic::error(
                                    p.location.clone(),
                                    format!("`{name}` has a repository id that is not in IDL format, so it has no version"),
                                )
                                .with_note(note, "the repository id is set here"),
                            );
                        }
                    }
                }
            }
        }
    }

    fn set_id(&mut self, scope: ScopeId, name: &ScopedName, repo_id: &str, at: &Location) {
        let Some(id) = self.resolve_decl(scope, name, false) else {
            return;
        };
        // A forward declaration and its definition share one id.
        let id = match &self.decls[id.0].kind {
            DeclKind::Forward(ForwardDef {
                definition: Some(d),
                ..
            }) => *d,
            _ => id,
        };
        if let Some((old, first)) = &self.explicit_id[id.0] {
            if old != repo_id {
                let note = first.clone();
                self.diags.push(
                    Diagnostic::error(
                        at.clone(),
                        format!("repository id of `{name}` is already set to \"{old}\""),
                    )
                    .with_note(note, "first set here"),
                );
            }
            return;
        }
        self.explicit_id[id.0] = Some((repo_id.to_string(), at.clone()));
    }

    /// Records a `typeprefix`; it is applied once the whole specification
    /// is read, by [`Analyzer::apply_type_prefixes`], since it covers the
    /// whole name scope wherever in it the declaration stands.
    fn type_prefix(&mut self, scope: ScopeId, t: &ast::TypePrefix) {
        let Some(id) = self.resolve_decl(scope, &t.name, false) else {
            return;
        };
        // A forward declaration and its definition are one name scope.
        let id = match &self.decls[id.0].kind {
            DeclKind::Forward(ForwardDef {
                definition: Some(d),
                ..
            }) => *d,
            _ => id,
        };
        self.type_prefix.insert(id, t.prefix.clone());
    }

    /// The repository id body (`prefix/names`) a `typeprefix` gives `id`:
    /// the prefix of the innermost enclosing name scope that has one
    /// (the declaration itself included), followed by the names from that
    /// scope down. `None` when no enclosing scope has a `typeprefix`.
    fn type_prefixed_base(&self, id: DeclId) -> Option<String> {
        let mut at = Some(id);
        while let Some(a) = at {
            let named = match &self.decls[a.0].kind {
                DeclKind::Forward(ForwardDef {
                    definition: Some(d),
                    ..
                }) => *d,
                _ => a,
            };
            if let Some(prefix) = self.type_prefix.get(&named) {
                let from = self.decls[a.0].scoped_name.len() - 1;
                let names = self.decls[id.0].scoped_name[from..].join("/");
                return Some(join(prefix, &names));
            }
            at = self.decls[a.0].parent;
        }
        None
    }

    /// Applies every `typeprefix` (CORBA 3.0 IDL §3.15.2, "Repository
    /// Identifier Prefix Declaration"): its prefix goes before the default
    /// repository id of every declaration in the named scope, the scope
    /// itself and nested scopes included, whether declared before or after
    /// the `typeprefix` and in any opening of a module. It takes precedence
    /// over `#pragma prefix`; an inner scope's own `typeprefix` takes
    /// precedence over an outer one's; ids set with `typeid` or `#pragma
    /// ID` are left alone.
    fn apply_type_prefixes(&mut self) {
        if self.type_prefix.is_empty() {
            return;
        }
        for i in 0..self.decls.len() {
            if let Some(base) = self.type_prefixed_base(DeclId(i)) {
                self.id_base[i] = base;
            }
        }
        // Operations and attributes have ids of their own, under the
        // interface or value type that defines them.
        let mut kinds: Vec<DeclKind> = self
            .decls
            .iter_mut()
            .map(|d| std::mem::replace(&mut d.kind, DeclKind::Module(ModuleDef::default())))
            .collect();
        for kind in &mut kinds {
            let (ops, attrs) = match kind {
                DeclKind::Interface(i) => (&mut i.operations, &mut i.attributes),
                DeclKind::ValueType(v) => (&mut v.operations, &mut v.attributes),
                _ => continue,
            };
            for o in ops.iter_mut() {
                if let Some(base) = self.type_prefixed_base(o.defined_in) {
                    o.repository_id = format!("IDL:{}:1.0", join(&base, &o.name));
                }
            }
            for a in attrs.iter_mut() {
                if let Some(base) = self.type_prefixed_base(a.defined_in) {
                    a.repository_id = format!("IDL:{}:1.0", join(&base, &a.name));
                }
            }
        }
        for (d, kind) in self.decls.iter_mut().zip(kinds) {
            d.kind = kind;
        }
    }
}

/// `TypeCode`, `CORBA::TypeCode` and the other names IDL predefines, when
/// the specification declares nothing of that name.
fn predefined(name: &ScopedName) -> Option<Type> {
    let parts: Vec<&str> = name.parts.iter().map(String::as_str).collect();
    match parts.as_slice() {
        ["TypeCode"] | ["CORBA", "TypeCode"] => Some(Type::TypeCode),
        ["CORBA", "Object"] => Some(Type::Object),
        ["CORBA", "ValueBase"] => Some(Type::ValueBase),
        _ => None,
    }
}

fn base_type(b: BaseType) -> Type {
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
