//! The file-level import graph of a crate and its cycles.
//!
//! File A depends on file B when a path that A writes names B's module:
//! `super::manager::Running` names `manager.rs`, `crate::Result` names
//! `lib.rs`, whether `lib.rs` defines `Result` or re-exports it (the path
//! leads there). A's own `use` items are followed: after `use
//! super::manager::Running;`, `Running` names `manager.rs` too. Paths are
//! those in `use` items and in code that start with `crate`, `super`,
//! `self`, the crate's other name, a module A declares or a name A brings
//! in. Declaring a module (`mod x;`) and re-exporting its items (`pub use
//! x::Y;`) are not edges by themselves; using what was re-exported in the
//! same file is. Method calls name no path and are not seen, nor are paths
//! inside attributes; items under `#[cfg(test)]` are left out.
//!
//! A path that goes through a facade (a `mod.rs` or `lib.rs` that
//! re-exports its children) names the facade, so a circle can be hidden by
//! naming an item through one: name items where they are defined.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use super::scan::{Binding, FileScan, scan};

/// How deep re-exports and globs are followed before giving up (a guard
/// against `use` loops, which rustc rejects anyway).
const MAX_HOPS: usize = 32;

/// One module of a crate's tree.
#[derive(Debug)]
struct Module {
    /// Its file (index into the graph's files).
    file: usize,
    /// Its scope inside that file (inline modules), empty for the file's
    /// own module.
    scope: Vec<String>,
    parent: Option<usize>,
    children: HashMap<String, usize>,
    /// Items defined in it.
    defs: BTreeSet<String>,
    /// Names brought in by `use`: name → (file, index of the use leaf).
    bindings: HashMap<String, (usize, usize)>,
    /// Glob `use`s: (file, index of the use leaf).
    globs: Vec<(usize, usize)>,
}

/// Where a path leads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    /// A module of the crate.
    Module(usize),
    /// An item defined in (or not found in, but named through) a module.
    Item(usize),
}

/// A dependency of one file on another.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Edge {
    /// The file that names the item.
    pub from: String,
    /// The line of the name.
    pub line: usize,
    /// The file that defines it.
    pub to: String,
    /// The path as written.
    pub path: String,
}

/// A crate's source files and the module tree they form from its roots
/// (`lib.rs`, `main.rs`, `bin/*.rs`).
#[derive(Debug)]
pub struct CrateGraph {
    /// Files, as shown (relative to `src/`).
    files: Vec<String>,
    scans: Vec<FileScan>,
    modules: Vec<Module>,
    /// The root module of each crate root, with the root's crate alias.
    roots: Vec<(usize, Option<String>)>,
    /// `mod` declarations whose file is missing: (file, name).
    missing: Vec<(String, String)>,
    /// Files of modules declared under `#[cfg(test)]`, not read.
    test_files: Vec<String>,
}

/// Reads the crate whose `src/` is `src`.
pub fn read_crate(src: &Path) -> std::io::Result<CrateGraph> {
    let mut files = BTreeMap::new();
    read_dir(src, src, &mut files)?;
    Ok(CrateGraph::new(files))
}

fn read_dir(src: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, String>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            read_dir(src, &path, out)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path)?;
            let relative = path.strip_prefix(src).unwrap_or(&path).to_path_buf();
            out.insert(relative, text);
        }
    }
    Ok(())
}

/// Whether a file's `mod x;` children live beside it (`lib.rs`,
/// `main.rs`, `mod.rs`, a binary root) or in a folder of its name.
fn children_dir(file: &Path, root: bool) -> PathBuf {
    let parent = file.parent().unwrap_or(Path::new("")).to_path_buf();
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    if root || stem == "mod" {
        parent
    } else {
        parent.join(stem)
    }
}

impl CrateGraph {
    /// The graph of a crate from its files (paths relative to `src/`)
    /// and their text.
    pub fn new(files: BTreeMap<PathBuf, String>) -> CrateGraph {
        let mut g = CrateGraph {
            files: Vec::new(),
            scans: Vec::new(),
            modules: Vec::new(),
            roots: Vec::new(),
            missing: Vec::new(),
            test_files: Vec::new(),
        };
        let roots: Vec<PathBuf> = files
            .keys()
            .filter(|p| {
                let s = p.to_string_lossy();
                s == "lib.rs"
                    || s == "main.rs"
                    || (p.starts_with("bin")
                        && (p.components().count() == 2 || p.ends_with("main.rs")))
            })
            .cloned()
            .collect();
        for root in roots {
            let alias = files
                .get(&root)
                .and_then(|text| scan(text, None).crate_alias);
            if let Some(m) = g.add_file(&files, &root, None, alias.as_deref()) {
                g.roots.push((m, alias));
            }
        }
        g.bind();
        g
    }

    /// Adds the file at `path` as a module under `parent`, with its inline
    /// modules and the files it declares; returns its module.
    fn add_file(
        &mut self,
        files: &BTreeMap<PathBuf, String>,
        path: &Path,
        parent: Option<(usize, String)>,
        alias: Option<&str>,
    ) -> Option<usize> {
        let text = files.get(path)?;
        let root = parent.is_none();
        let scan = scan(text, alias);
        if scan.test_only {
            return None;
        }
        let file = self.files.len();
        self.files.push(path.display().to_string());
        let declared = scan.mods.clone();
        let tests = scan.test_mods.clone();
        let inline = scan.inline_mods.clone();
        self.scans.push(scan);
        let top = self.new_module(file, Vec::new(), parent);
        for scope in inline {
            self.scope_module(top, &scope);
        }
        let dir = children_dir(path, root);
        let child_file = |scope: &[String], name: &str| {
            let mut base = dir.clone();
            base.extend(scope);
            let flat = base.join(format!("{name}.rs"));
            let nested = base.join(name).join("mod.rs");
            if files.contains_key(&flat) {
                flat
            } else {
                nested
            }
        };
        for (scope, name) in tests {
            self.test_files
                .push(child_file(&scope, &name).display().to_string());
        }
        for (scope, name) in declared {
            let owner = self.scope_module(top, &scope);
            let child = child_file(&scope, &name);
            if self
                .add_file(files, &child, Some((owner, name.clone())), alias)
                .is_none()
                && !files.contains_key(&child)
            {
                self.missing.push((path.display().to_string(), name));
            }
        }
        Some(top)
    }

    fn new_module(
        &mut self,
        file: usize,
        scope: Vec<String>,
        parent: Option<(usize, String)>,
    ) -> usize {
        let id = self.modules.len();
        self.modules.push(Module {
            file,
            scope,
            parent: parent.as_ref().map(|(p, _)| *p),
            children: HashMap::new(),
            defs: BTreeSet::new(),
            bindings: HashMap::new(),
            globs: Vec::new(),
        });
        if let Some((p, name)) = parent {
            self.modules[p].children.insert(name, id);
        }
        id
    }

    /// The module of the inline `scope` inside the file of module `top`,
    /// made if it is not yet.
    fn scope_module(&mut self, top: usize, scope: &[String]) -> usize {
        let mut m = top;
        for (k, name) in scope.iter().enumerate() {
            m = match self.modules[m].children.get(name) {
                Some(c) => *c,
                None => {
                    let file = self.modules[top].file;
                    self.new_module(file, scope[..=k].to_vec(), Some((m, name.clone())))
                }
            };
        }
        m
    }

    /// The module of `scope` inside `file`.
    fn module_of(&self, file: usize, scope: &[String]) -> Option<usize> {
        let top = self
            .modules
            .iter()
            .position(|m| m.file == file && m.scope.is_empty())?;
        scope
            .iter()
            .try_fold(top, |m, name| self.modules[m].children.get(name).copied())
    }

    /// Records what each module defines and brings in.
    fn bind(&mut self) {
        for file in 0..self.files.len() {
            for k in 0..self.scans[file].defs.len() {
                let (scope, name) = self.scans[file].defs[k].clone();
                if let Some(m) = self.module_of(file, &scope) {
                    self.modules[m].defs.insert(name);
                }
            }
            for k in 0..self.scans[file].uses.len() {
                let leaf = &self.scans[file].uses[k];
                let Some(m) = self.module_of(file, &leaf.scope) else {
                    continue;
                };
                match leaf.binding.clone() {
                    Binding::Name(n) => {
                        self.modules[m].bindings.insert(n, (file, k));
                    }
                    Binding::Glob => self.modules[m].globs.push((file, k)),
                    Binding::Nothing => {}
                }
            }
        }
    }

    /// The root module of the crate root that module `m` is in.
    fn root_of(&self, mut m: usize) -> usize {
        while let Some(p) = self.modules[m].parent {
            m = p;
        }
        m
    }

    /// Where a path written in module `m` starts: the module it is
    /// relative to and its remaining segments; `None` for another crate.
    fn absolutize<'p>(
        &self,
        m: usize,
        path: &'p [String],
        hops: usize,
        origin: usize,
    ) -> Option<(usize, &'p [String])> {
        let first = path.first()?.as_str();
        let root = self.root_of(m);
        let alias = self
            .roots
            .iter()
            .find(|r| r.0 == root)
            .and_then(|r| r.1.as_deref());
        match first {
            "::" => None,
            "crate" => Some((root, &path[1..])),
            _ if alias == Some(first) => Some((root, &path[1..])),
            "self" | "super" => {
                let mut here = m;
                let mut k = 0;
                while let Some(s) = path.get(k) {
                    match s.as_str() {
                        "self" => {}
                        "super" => here = self.modules[here].parent?,
                        _ => break,
                    }
                    k += 1;
                }
                Some((here, &path[k..]))
            }
            _ => self.lookup(m, first, hops, origin).map(|_| (m, path)),
        }
    }

    /// What `name` is in module `m`: a child module, an item defined
    /// there, or what a `use` of `m` brings in; names read in the file
    /// `origin`.
    fn lookup(&self, m: usize, name: &str, hops: usize, origin: usize) -> Option<Lookup> {
        let module = &self.modules[m];
        if let Some(c) = module.children.get(name) {
            return Some(Lookup::Found(Target::Module(*c)));
        }
        if module.defs.contains(name) {
            return Some(Lookup::Found(Target::Item(m)));
        }
        if let Some((file, k)) = module.bindings.get(name) {
            return Some(Lookup::Use(m, *file, *k));
        }
        if hops < MAX_HOPS {
            for (file, k) in &module.globs {
                let leaf = &self.scans[*file].uses[*k];
                if let Some(Target::Module(g)) = self.resolve_from(m, &leaf.path, hops + 1, origin)
                    && g != m
                    && self.lookup(g, name, hops + 1, origin).is_some()
                {
                    return Some(Lookup::Glob(m, *file, *k));
                }
            }
        }
        None
    }

    /// Where `path`, written in module `m`, leads (read in the file
    /// `origin`).
    fn resolve_from(
        &self,
        m: usize,
        path: &[String],
        hops: usize,
        origin: usize,
    ) -> Option<Target> {
        let (start, rest) = self.absolutize(m, path, hops, origin)?;
        self.resolve(start, rest, hops, origin)
    }

    /// Where the segments `path` lead from module `start`, read in the
    /// file `origin`: through its own `use` items, and up to a re-export
    /// of another file.
    fn resolve(&self, start: usize, path: &[String], hops: usize, origin: usize) -> Option<Target> {
        if hops > MAX_HOPS {
            return None;
        }
        let mut here = start;
        for (k, seg) in path.iter().enumerate() {
            match self.lookup(here, seg, hops, origin) {
                Some(Lookup::Found(Target::Module(c))) => here = c,
                Some(Lookup::Found(item)) => return Some(item),
                // A re-export of another file: the path names that file.
                Some(Lookup::Use(_, file, _) | Lookup::Glob(_, file, _)) if file != origin => {
                    return Some(Target::Item(here));
                }
                Some(Lookup::Glob(m, file, leaf)) => {
                    let mut through = self.scans[file].uses[leaf].path.clone();
                    through.extend_from_slice(&path[k..]);
                    return self.resolve_from(m, &through, hops + 1, origin);
                }
                Some(Lookup::Use(m, file, leaf)) => {
                    let mut through = self.scans[file].uses[leaf].path.clone();
                    through.extend_from_slice(&path[k + 1..]);
                    return self.resolve_from(m, &through, hops + 1, origin);
                }
                // Not found: an item rustc sees (from a macro, say) that
                // this reading does not; unless a glob from another crate
                // could have brought it in, it is the module's.
                None => {
                    let foreign_glob = self.modules[here].globs.iter().any(|(file, k)| {
                        self.resolve_from(here, &self.scans[*file].uses[*k].path, hops + 1, origin)
                            .is_none()
                    });
                    return (!foreign_glob).then_some(Target::Item(here));
                }
            }
        }
        Some(Target::Module(here))
    }

    fn file_of(&self, t: Target) -> usize {
        match t {
            Target::Module(m) | Target::Item(m) => self.modules[m].file,
        }
    }

    /// Every dependency of a file on another, one per name.
    pub fn edges(&self) -> Vec<Edge> {
        let mut out = BTreeSet::new();
        for (file, scan) in self.scans.iter().enumerate() {
            let leaves = scan
                .uses
                .iter()
                .filter(|u| !u.reexport)
                .map(|u| (&u.scope, &u.path, u.line));
            let refs = scan.refs.iter().map(|r| (&r.scope, &r.path, r.line));
            for (scope, path, line) in leaves.chain(refs) {
                let Some(m) = self.module_of(file, scope) else {
                    continue;
                };
                let Some(target) = self.resolve_from(m, path, 0, file) else {
                    continue;
                };
                let to = self.file_of(target);
                if to != file {
                    out.insert(Edge {
                        from: self.files[file].clone(),
                        line,
                        to: self.files[to].clone(),
                        path: path.join("::"),
                    });
                }
            }
        }
        out.into_iter().collect()
    }

    /// `mod` declarations whose file was not found (file, module name):
    /// the graph is incomplete where there are any.
    pub fn missing_modules(&self) -> &[(String, String)] {
        &self.missing
    }

    /// The files read, as shown.
    pub fn files(&self) -> &[String] {
        &self.files
    }

    /// The files of modules declared under `#[cfg(test)]`, which are not
    /// read.
    pub fn test_files(&self) -> &[String] {
        &self.test_files
    }
}

/// What a name is in a module.
#[derive(Debug, Clone, Copy)]
enum Lookup {
    /// A module or item.
    Found(Target),
    /// A `use` leaf of module `.0` (file `.1`, leaf `.2`) that brings it in.
    Use(usize, usize, usize),
    /// A glob `use` leaf of module `.0` (file `.1`, leaf `.2`) that
    /// brings it in.
    Glob(usize, usize, usize),
}

/// The cycles of a graph: each strongly connected group of two or more
/// files, with the edges between its files.
pub fn cycles(edges: &[Edge]) -> Vec<Vec<Edge>> {
    let mut nodes: Vec<&str> = edges
        .iter()
        .flat_map(|e| [e.from.as_str(), e.to.as_str()])
        .collect();
    nodes.sort_unstable();
    nodes.dedup();
    let index = |n: &str| nodes.binary_search(&n).unwrap_or(0);
    let mut next: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for e in edges {
        next[index(&e.from)].push(index(&e.to));
    }
    let groups = strongly_connected(&next);
    groups
        .into_iter()
        .filter(|g| g.len() > 1)
        .map(|g| {
            edges
                .iter()
                .filter(|e| g.contains(&index(&e.from)) && g.contains(&index(&e.to)))
                .cloned()
                .collect()
        })
        .collect()
}

/// Tarjan's strongly connected components, without recursion.
fn strongly_connected(next: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = next.len();
    let mut order = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut groups = Vec::new();
    let mut counter = 0;
    for start in 0..n {
        if order[start] != usize::MAX {
            continue;
        }
        // (node, index of the next successor to visit)
        let mut work = vec![(start, 0usize)];
        while let Some(top) = work.len().checked_sub(1) {
            let (v, k) = work[top];
            if k == 0 && order[v] == usize::MAX {
                order[v] = counter;
                low[v] = counter;
                counter += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = next[v].get(k) {
                work[top].1 += 1;
                if order[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(order[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == order[v] {
                let mut group = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    group.push(w);
                    if w == v {
                        break;
                    }
                }
                groups.push(group);
            }
        }
    }
    groups
}
