//! Reading a crate's Rust sources for the tests of its structure: which
//! module a file names ([`named_modules`], for layering checks), and the
//! file-level import graph with its cycles ([`read_crate`],
//! [`CrateGraph::edges`], [`cycles`]).
//!
//! This is a reader of tokens, not a compiler: comments and literals are
//! left out, a path is followed through the `use` items of the file that
//! writes it to the module it names, and what it cannot see (method
//! calls, macro expansions, paths inside attributes) is no edge. See
//! [`graph`] for what counts as a dependency.

pub mod graph;
mod layering;
mod scan;
mod tokens;

use std::path::{Path, PathBuf};

pub use graph::{CrateGraph, Edge, cycles, read_crate};
pub use layering::named_modules;
pub use tokens::{Token, tokens};

/// Every `.rs` file under `dir`, depth first.
pub fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of the file at `relative` (under `src/`):
/// `poa/table.rs` is `poa::table`, `poa/mod.rs` is `poa`, `lib.rs` the
/// crate root.
pub fn module_path(relative: &Path) -> Vec<String> {
    let mut path: Vec<String> = relative
        .iter()
        .map(|c| c.to_string_lossy().into_owned())
        .collect();
    let file = path.pop().unwrap_or_default();
    let stem = file.strip_suffix(".rs").unwrap_or(&file);
    if stem != "mod" && stem != "lib" && stem != "main" {
        path.push(stem.to_owned());
    }
    path
}

/// The crates of a workspace folder (`crates/`): each folder with a
/// `Cargo.toml` and a `src/`, by name, sorted.
pub fn crates_in(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("Cargo.toml").is_file() && p.join("src").is_dir())
        .map(|p| {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            (name, p.join("src"))
        })
        .collect();
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::path::PathBuf;

    use super::{CrateGraph, cycles};

    /// The graph of a crate made of `files` (path under `src/`, text).
    fn graph(files: &[(&str, &str)]) -> CrateGraph {
        let files: BTreeMap<PathBuf, String> = files
            .iter()
            .map(|(p, t)| (PathBuf::from(p), (*t).to_owned()))
            .collect();
        let graph = CrateGraph::new(files);
        assert!(
            graph.missing_modules().is_empty(),
            "{:?}",
            graph.missing_modules()
        );
        graph
    }

    /// Its edges, as `from:line -> to (path)`.
    fn edges(files: &[(&str, &str)]) -> Vec<String> {
        graph(files)
            .edges()
            .into_iter()
            .map(|e| format!("{}:{} -> {} ({})", e.from, e.line, e.to, e.path))
            .collect()
    }

    #[test]
    fn sibling_uses_are_edges_and_make_a_cycle() {
        let files = [
            ("lib.rs", "mod poa;"),
            (
                "poa/mod.rs",
                "mod adapter;\nmod manager;\npub use adapter::Poa;",
            ),
            (
                "poa/adapter.rs",
                "use super::manager::Running;\npub struct Poa(Running);",
            ),
            (
                "poa/manager.rs",
                "use super::adapter::Poa;\npub struct Running;\nfn f(_: &Poa) {}",
            ),
        ];
        assert_eq!(
            edges(&files),
            [
                "poa/adapter.rs:1 -> poa/manager.rs (super::manager::Running)",
                "poa/adapter.rs:2 -> poa/manager.rs (Running)",
                "poa/manager.rs:1 -> poa/adapter.rs (super::adapter::Poa)",
                "poa/manager.rs:3 -> poa/adapter.rs (Poa)",
            ]
        );
        let found = cycles(&graph(&files).edges());
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].len(), 4);
    }

    #[test]
    fn a_path_names_the_file_of_the_module_it_leads_to() {
        // `super::Poa` names poa/mod.rs, which re-exports it: the table
        // depends on the POA's module, not on adapter.rs, and no circle
        // runs through mod.rs, which uses neither.
        let files = [
            ("lib.rs", "mod error;\nmod poa;\npub use error::Result;"),
            ("error.rs", "pub type Result = u8;"),
            (
                "poa/mod.rs",
                "mod adapter;\nmod table;\npub use self::adapter::{Poa};",
            ),
            (
                "poa/adapter.rs",
                "pub struct Poa;\nfn f() -> crate::error::Result { super::table::g() }",
            ),
            (
                "poa/table.rs",
                "use super::Poa;\npub fn g() -> u8 { 0 }\nfn h() -> crate::Result { 0 }",
            ),
        ];
        assert_eq!(
            edges(&files),
            [
                "poa/adapter.rs:2 -> error.rs (crate::error::Result)",
                "poa/adapter.rs:2 -> poa/table.rs (super::table::g)",
                "poa/table.rs:1 -> poa/mod.rs (super::Poa)",
                "poa/table.rs:3 -> lib.rs (crate::Result)",
            ]
        );
        assert!(cycles(&graph(&files).edges()).is_empty());
    }

    #[test]
    fn declaring_and_reexporting_children_is_no_edge_but_using_them_is() {
        let quiet = [
            (
                "lib.rs",
                "mod a;\npub mod b;\npub use a::{A, *};\npub use b::B as C;",
            ),
            ("a.rs", "pub struct A;"),
            ("b.rs", "pub struct B;"),
        ];
        assert!(edges(&quiet).is_empty());
        let using = [
            (
                "lib.rs",
                "mod a;\npub use a::A;\npub fn f() -> A { a::make() }",
            ),
            ("a.rs", "pub struct A;\npub fn make() -> A { A }"),
        ];
        assert_eq!(
            edges(&using),
            ["lib.rs:3 -> a.rs (A)", "lib.rs:3 -> a.rs (a::make)"]
        );
    }

    #[test]
    fn tests_comments_literals_and_other_crates_are_no_edges() {
        let files = [
            ("lib.rs", "mod a;\nmod b;"),
            (
                "a.rs",
                "//! see crate::b::B\nuse std::fmt;\nuse ::b::X;\nconst S: &str = \"crate::b::B\";\n\
                 #[cfg(test)]\nmod tests {\n    use crate::b::B;\n}\n#[cfg(test)]\nuse crate::b::B;\n\
                 pub(in crate::b) fn f() {}\nfn g(x: X) -> fmt::Result { x.b::<u8>() }",
            ),
            ("b.rs", "pub struct B;"),
        ];
        assert!(edges(&files).is_empty(), "{:?}", edges(&files));
    }

    #[test]
    fn test_module_files_are_known_but_not_read() {
        let files = [
            ("lib.rs", "mod a;\nmod b;"),
            (
                "a.rs",
                "#[cfg(test)]\n#[path = \"x\"]\npub(crate) mod tests;\npub fn f() {}",
            ),
            ("a/tests.rs", "use crate::b::B;"),
            ("b.rs", "pub struct B;"),
        ];
        let graph = graph(&files);
        assert!(graph.edges().is_empty(), "{:?}", graph.edges());
        assert_eq!(graph.files(), ["lib.rs", "a.rs", "b.rs"]);
        assert_eq!(graph.test_files(), ["a/tests.rs"]);
    }

    #[test]
    fn globs_inline_modules_and_the_crate_alias_resolve() {
        let files = [
            (
                "lib.rs",
                "extern crate self as me;\nmod a;\nmod b;\npub mod inner { pub use crate::b::*; }",
            ),
            (
                "a.rs",
                "use crate::b::*;\nfn f() -> C { let _ = ::me::inner::B; let _ = me::b::B; C }",
            ),
            ("b.rs", "pub struct B;\npub struct C;"),
        ];
        assert_eq!(
            edges(&files),
            [
                // The glob is the edge; what it brings in is not read.
                "a.rs:1 -> b.rs (crate::b)",
                "a.rs:2 -> b.rs (me::b::B)",
                "a.rs:2 -> lib.rs (me::inner::B)",
            ]
        );
    }

    #[test]
    fn children_of_a_non_mod_file_live_in_its_folder() {
        let files = [
            ("lib.rs", "mod fragment;"),
            ("fragment.rs", "mod pool;\nuse pool::Pool;"),
            ("fragment/pool.rs", "pub struct Pool;"),
        ];
        assert_eq!(
            edges(&files),
            ["fragment.rs:2 -> fragment/pool.rs (pool::Pool)"]
        );
    }
}
