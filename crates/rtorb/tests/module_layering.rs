//! The modules of `rtorb` depend one way, as the crate docs draw them: a
//! module names only modules of the layers below its own. This test reads
//! the sources under `src/` and fails on every path that runs the other
//! way (`crate::orb` in the POA, `crate::poa` in a servant, ...), and on
//! a top-level module that has no layer yet.
//!
//! Comments and literals are left out, so documentation may still link
//! upwards (`[crate::orb::Orb]` in the POA's docs names where to look,
//! not what the POA needs).
//!
//! Below the modules, files: no file of any crate under `crates/` may
//! depend on itself through others (`a.rs` uses `b.rs`, which uses
//! `a.rs`). What counts as a dependency is in
//! `rtorb_test_support::source_graph::graph`.
//!
//! And names: no two files of `src/` share a basename, but `mod.rs` and
//! `tests.rs`, whose names say what role they play, not what they hold.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rtorb_test_support::source_graph::{
    crates_in, cycles, module_path, named_modules, read_crate, rust_files,
};

/// The top-level modules of `src/`, lowest layer first. A module may use
/// the modules of every layer below its own, and none of its own layer
/// but itself.
const LAYERS: &[&[&str]] = &[
    // The minor codes (a re-export of `rtorb_giop::minor`); CDR (the crate
    // `rtorb_cdr`, re-exported); locks (the crate `rtorb_rt`'s `sync`,
    // re-exported) and stage timing: no other module.
    &["minor", "cdr", "sync", "probe"],
    // Exceptions. Client policies. Priorities and lane descriptions, and
    // the pluggable transports: the crates `rtorb_rt` and
    // `rtorb_transport`, re-exported, which the crate graph keeps from
    // naming the ORB; here so that the modules below the ORB and they do
    // not name each other.
    &["exception", "policy", "rt", "transport"],
    // Skeletons and the requests they serve.
    &["servant"],
    // Object references and the invoker of their calls, which serves
    // collocated calls through skeletons.
    &["object"],
    // Valuetypes (their abstract interfaces hold references). The
    // in-process invoker.
    &["value", "loopback"],
    // Code-set negotiation; what generated code names, which reaches
    // everything below through it.
    &["codesets", "codegen"],
    // The object adapters: the POA and the table of plain keys. The
    // CosNaming stubs (generated code) and corbaname resolution.
    &["poa", "naming"],
    // The ORB: client and server sides, configuration.
    &["orb"],
];

/// Code generated at build time and included into a module of `src/`,
/// checked as part of it: (module, file under `$OUT_DIR`).
const GENERATED: &[(&str, &str)] = &[("naming", "CosNaming.rs")];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

fn names(module: &str, text: &str) -> Vec<String> {
    let module: Vec<String> = module
        .split("::")
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect();
    named_modules("rtorb", &module, text)
        .into_iter()
        .map(|(m, _)| m)
        .collect()
}

#[test]
fn the_scanner_finds_paths_to_modules() {
    assert_eq!(
        names("poa::table", "use crate::orb::server::Entry;"),
        ["orb"]
    );
    assert_eq!(
        names("poa", "use crate::{orb::Orb, object::{Object, Stub}};"),
        ["orb", "object"]
    );
    assert_eq!(
        names("poa::table", "let c = crate::orb::codesets::x(v);"),
        ["orb"]
    );
    assert_eq!(names("poa::table", "use super::super::orb::Orb;"), ["orb"]);
    assert_eq!(names("poa", "use super::orb::Orb;"), ["orb"]);
    assert_eq!(
        names("poa::table", "use super::key::{self, SlotRef};"),
        ["poa"]
    );
    assert_eq!(
        names("poa", "use crate::{self as rt};"),
        Vec::<String>::new()
    );
    // Generated code names the crate as `::rtorb`.
    assert_eq!(
        names("naming", "fn f(e: &mut ::rtorb::codegen::Encoder) {}"),
        ["codegen"]
    );
    assert_eq!(
        names("naming", "let o = <X as ::rtorb::object::Stub>::f();"),
        ["object"]
    );
    assert_eq!(
        names("naming", "use rtorb::{orb::Orb, poa};"),
        ["orb", "poa"]
    );
    assert_eq!(
        names("naming", "use other::rtorb::orb; let x = rtorb_giop::a::b;"),
        Vec::<String>::new()
    );
}

#[test]
fn the_scanner_skips_comments_literals_and_visibility() {
    let quiet = [
        "// crate::orb::Orb",
        "/// [`crate::orb::Orb`]",
        "//! see crate::orb",
        "/* crate::orb /* nested */ crate::orb */",
        r#"let s = "crate::orb::Orb";"#,
        r##"let s = r#"crate::orb " "#;"##,
        r#"let s = b"crate::orb";"#,
        "let c = '\"'; let d = b'x'; let e = '\\''; let f = '{';",
        "pub(crate) fn f() {}",
        "pub(super) struct S;",
        "fn f<'a>(s: &'a str) -> &'a str { s }",
    ];
    for text in quiet {
        assert!(names("poa", text).is_empty(), "{text}");
    }
    // What follows a literal or lifetime is still read.
    assert_eq!(
        names("poa", "let s = \"x\"; fn f<'a>() {} use crate::orb;"),
        ["orb"]
    );
}

#[test]
fn the_scanner_resolves_super_in_inline_modules() {
    let text =
        "mod tests {\n    use super::*;\n    use super::super::orb::Orb;\n}\nuse crate::object;";
    assert_eq!(
        named_modules("rtorb", &["poa".to_owned(), "table".to_owned()], text),
        [
            ("poa".to_owned(), 2),
            ("poa".to_owned(), 3),
            ("object".to_owned(), 5)
        ]
    );
}

#[test]
fn every_module_uses_only_lower_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    assert!(files.len() > 10, "{files:?}");
    let mut unplaced = Vec::new();
    let mut offenders = Vec::new();
    // Each file with the module it is part of and the name it is shown by.
    let mut sources: Vec<(Vec<String>, PathBuf, String)> = files
        .iter()
        .map(|f| {
            let relative = f.strip_prefix(&src).unwrap();
            let shown = format!("src/{}", relative.display());
            (module_path(relative), f.clone(), shown)
        })
        .collect();
    let out_dir = Path::new(env!("OUT_DIR"));
    for (module, file) in GENERATED {
        sources.push((
            vec![(*module).to_owned()],
            out_dir.join(file),
            format!("$OUT_DIR/{file}"),
        ));
    }
    for (module, f, shown) in &sources {
        let Some(top) = module.first() else {
            // The crate root declares the modules.
            continue;
        };
        let Some(layer) = layer_of(top) else {
            if !unplaced.contains(top) {
                unplaced.push(top.clone());
            }
            continue;
        };
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{shown}: {e}"));
        for (named, line) in named_modules("rtorb", module, &text) {
            if named == *top {
                continue;
            }
            let ok = layer_of(&named).is_some_and(|l| l < layer);
            if !ok {
                offenders.push(format!("{shown}:{line}: `{top}` names `{named}`"));
            }
        }
    }
    assert!(
        unplaced.is_empty(),
        "top-level modules without a layer (add them to LAYERS here and to the \
         diagram in the crate docs of src/lib.rs): {unplaced:?}"
    );
    assert!(
        offenders.is_empty(),
        "imports against the module layering (a module uses only the layers \
         below it: {LAYERS:?}):\n{}",
        offenders.join("\n")
    );
}

#[test]
fn no_crate_has_an_import_cycle_between_its_files() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("crates/");
    let found = crates_in(crates);
    let names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
    assert!(
        ["rtorb", "rtorb-cdr", "rtorb-giop"]
            .iter()
            .all(|c| names.contains(c)),
        "{names:?}"
    );
    let mut report = Vec::new();
    for (name, src) in &found {
        let graph = read_crate(src).unwrap_or_else(|e| panic!("crates/{name}/src: {e}"));
        assert!(
            graph.missing_modules().is_empty(),
            "crates/{name}/src: modules declared but not found (file, module): {:?}",
            graph.missing_modules()
        );
        let mut all = Vec::new();
        rust_files(src, &mut all);
        let unread: Vec<_> = all
            .iter()
            .filter_map(|f| f.strip_prefix(src).ok())
            .map(|f| f.display().to_string())
            .filter(|f| !graph.files().contains(f) && !graph.test_files().contains(f))
            .collect();
        assert!(
            unread.is_empty(),
            "crates/{name}/src: files outside the module tree, which this test \
             cannot place: {unread:?}"
        );
        for cycle in cycles(&graph.edges()) {
            let mut files: Vec<&str> = cycle.iter().map(|e| e.from.as_str()).collect();
            files.sort_unstable();
            files.dedup();
            let edges: Vec<String> = cycle
                .iter()
                .map(|e| format!("    {}:{} uses {} ({})", e.from, e.line, e.to, e.path))
                .collect();
            report.push(format!(
                "crates/{name}/src: {}\n{}",
                files.join(" - "),
                edges.join("\n")
            ));
        }
    }
    assert!(
        report.is_empty(),
        "import cycles between files (move what both sides need into the \
         lower one):\n{}",
        report.join("\n")
    );
}

/// The basenames that say what role a file plays rather than what it
/// holds, and so may repeat.
const ROLE_NAMES: &[&str] = &["mod.rs", "tests.rs"];

/// The basenames that more than one of `files` (under `src`) has, each
/// with the files that have it.
fn repeated_basenames(src: &Path, files: &[PathBuf]) -> Vec<String> {
    let mut by_name: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for f in files {
        let name = f
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if ROLE_NAMES.contains(&name.as_str()) {
            continue;
        }
        let shown = f.strip_prefix(src).unwrap_or(f).display().to_string();
        by_name.entry(name).or_default().push(shown);
    }
    by_name
        .into_iter()
        .filter(|(_, files)| files.len() > 1)
        .map(|(name, files)| format!("{name}: {}", files.join(", ")))
        .collect()
}

#[test]
fn repeated_basenames_are_found() {
    let src = Path::new("src");
    let files: Vec<PathBuf> = [
        "orb/client/pool.rs",
        "loopback/pool.rs",
        "orb/mod.rs",
        "poa/mod.rs",
        "orb/tests.rs",
        "poa/tests.rs",
        "poa/key.rs",
    ]
    .iter()
    .map(|f| src.join(f))
    .collect();
    assert_eq!(
        repeated_basenames(src, &files),
        ["pool.rs: orb/client/pool.rs, loopback/pool.rs"]
    );
}

#[test]
fn no_two_files_share_a_basename() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    assert!(files.len() > 10, "{files:?}");
    let repeated = repeated_basenames(&src, &files);
    assert!(
        repeated.is_empty(),
        "files of src/ that share a basename (name each by what it holds, \
         so that the name alone says which file it is):\n{}",
        repeated.join("\n")
    );
}
