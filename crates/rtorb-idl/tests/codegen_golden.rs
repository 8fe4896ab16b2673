//! The golden output of the back end: every `*.idl` of
//! `tests/codegen/corpus/` (files under its `include/` directory are only
//! included) is compiled and compared with `tests/codegen/golden/<name>.rs`.
//!
//! After an intended change of the generated code, regenerate the goldens
//! with
//!
//! ```text
//! RTORB_BLESS=1 cargo test -p rtorb-idl --test codegen_golden
//! ```
//!
//! and review the difference. The goldens are also compiled and run:
//! `crates/rtorb-idl-tests/tests/corpus.rs` includes each one in a module
//! of its own.

use std::path::{Path, PathBuf};
use std::process::Command;

fn codegen() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/codegen")
}

/// The corpus files, sorted.
fn corpus() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(codegen().join("corpus"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "idl"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "{files:?}");
    files
}

fn golden(idl: &Path) -> PathBuf {
    let stem = idl.file_stem().unwrap().to_str().unwrap();
    codegen().join("golden").join(format!("{stem}.rs"))
}

fn bless() -> bool {
    std::env::var_os("RTORB_BLESS").is_some_and(|v| v == "1")
}

#[test]
fn every_corpus_file_generates_its_golden() {
    let mut differ = Vec::new();
    for idl in corpus() {
        let text = rtorb_idl::Config::new()
            .include_dir(codegen().join("corpus"))
            .generate(&idl)
            .unwrap_or_else(|d| panic!("{}: {d:?}", idl.display()));
        let golden = golden(&idl);
        if bless() {
            std::fs::write(&golden, &text).unwrap();
        }
        let expected = std::fs::read_to_string(&golden).unwrap_or_default();
        if text != expected {
            differ.push(golden.display().to_string());
        }
    }
    assert!(
        differ.is_empty(),
        "generated code differs from {differ:?}: run with RTORB_BLESS=1 to regenerate"
    );
}

#[test]
fn every_golden_has_its_corpus_file() {
    let corpus: Vec<PathBuf> = corpus().iter().map(|p| golden(p)).collect();
    for entry in std::fs::read_dir(codegen().join("golden")).unwrap() {
        let path = entry.unwrap().path();
        assert!(corpus.contains(&path), "{} has no IDL", path.display());
    }
}

/// The command line writes `OUTDIR/<name>.rs` for each input, the same
/// text as the build API (which the goldens hold, and which is compiled).
#[test]
fn the_cli_writes_the_goldens_for_the_whole_corpus() {
    let out = std::env::temp_dir().join(format!("rtorb-idl-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let files = corpus();
    let run = Command::new(env!("CARGO_BIN_EXE_rtorb-idl"))
        .arg("-I")
        .arg(codegen().join("corpus"))
        .arg("-o")
        .arg(&out)
        .args(&files)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    for idl in &files {
        let name = golden(idl);
        let written = out.join(name.file_name().unwrap());
        let text = std::fs::read_to_string(&written).unwrap();
        let expected = rtorb_idl::Config::new()
            .include_dir(codegen().join("corpus"))
            .generate(idl)
            .unwrap();
        assert!(
            text == expected,
            "{} differs from {}",
            written.display(),
            name.display()
        );
    }
    std::fs::remove_dir_all(&out).unwrap();
}

/// Doc comments of the IDL are the doc comments of the generated items.
#[test]
fn idl_doc_comments_are_on_the_generated_items() {
    let cases = [
        (
            "types.rs",
            "/// A tree: recursive through a sequence.",
            "pub struct Tree",
        ),
        (
            "types.rs",
            "/// An exception without members.",
            "pub struct Empty",
        ),
        ("types.rs", "/// Types of every kind.", "pub mod types"),
        (
            "interfaces.rs",
            "/// Several attributes on one line.",
            "fn first",
        ),
        (
            "interfaces.rs",
            "/// The root of a diamond.",
            "pub struct Top",
        ),
        (
            "names.rs",
            "/// An interface named after a keyword.",
            "pub struct Mod",
        ),
        (
            "names.rs",
            "/// A struct named after a keyword, with keyword members.",
            "pub struct Type",
        ),
        (
            "constants.rs",
            "/// Constants scoped in an interface.",
            "pub struct Limits",
        ),
        (
            "small.rs",
            "/// A small module for the golden output.",
            "pub mod small",
        ),
    ];
    for (file, doc, item) in cases {
        let text = std::fs::read_to_string(codegen().join("golden").join(file)).unwrap();
        let at = text
            .find(doc)
            .unwrap_or_else(|| panic!("{file}: no `{doc}`"));
        // The item follows its doc comment (after further doc and
        // attribute lines only).
        let rest = &text[at + doc.len()..];
        let next = rest
            .lines()
            .skip(1)
            .map(str::trim)
            .find(|l| !l.starts_with("///") && !l.starts_with("#["))
            .unwrap_or("");
        assert!(
            next.contains(item),
            "{file}: `{doc}` is on `{next}`, not `{item}`"
        );
    }
    // Markdown and HTML in doc comments are escaped, not interpreted.
    let names = std::fs::read_to_string(codegen().join("golden/names.rs")).unwrap();
    assert!(names.contains(r"\<angle brackets\>"), "{names}");
}
