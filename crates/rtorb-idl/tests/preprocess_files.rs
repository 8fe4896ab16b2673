//! The preprocessor over the small IDL files in `tests/pp`: includes,
//! conditionals with every `#if` operator, and errors with their exact
//! messages and lines.

use std::path::{Path, PathBuf};

use rtorb_idl::Severity;
use rtorb_idl::preprocess::{Preprocessed, Preprocessor};

fn pp_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pp")
}

/// The output line (from 1) on which `word` occurs, checking it occurs on
/// exactly one line.
fn line_of(out: &Preprocessed, word: &str) -> u32 {
    let lines: Vec<usize> = out
        .text
        .lines()
        .enumerate()
        .filter(|(_, l)| {
            l.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .any(|w| w == word)
                || (word.contains(' ') && l.contains(word))
        })
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(
        lines.len(),
        1,
        "`{word}` on output lines {lines:?}:\n{}",
        out.text
    );
    lines[0] as u32
}

/// Asserts that `word` comes from line `line` of a file whose path ends
/// with `file`.
fn assert_origin(out: &Preprocessed, word: &str, file: &str, line: u32) {
    let origin = out.origin(line_of(out, word)).expect("mapped");
    assert!(
        origin.file.ends_with(file),
        "`{word}` from {} (expected {file})",
        origin.file
    );
    assert_eq!(origin.line, line, "line of `{word}`");
}

fn main_with(dirs: &[&str]) -> Preprocessed {
    let mut pp = Preprocessor::new();
    for d in dirs {
        pp.include_dir(pp_dir().join(d));
    }
    pp.run_file(&pp_dir().join("main.idl")).unwrap_or_else(|d| {
        panic!(
            "{}",
            d.iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        )
    })
}

#[test]
fn includes_guards_and_pragma_once() {
    let out = main_with(&["inc1", "inc2"]);
    assert_eq!(out.text.lines().count(), out.line_map.len());
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    // Each included declaration appears once, from the right file and line.
    assert_origin(&out, "guarded_marker", "sub/guarded.idl", 5);
    assert_origin(&out, "deep_marker", "sub/nested/deep.idl", 2);
    assert_origin(&out, "Found through", "sub/nested/deep.idl", 1);
    assert_origin(&out, "once_marker", "sub/once.idl", 2);
    assert_origin(&out, "main_count", "main.idl", 11);
    assert_origin(&out, "module M", "main.idl", 12);
    // -I order: inc1 first; a file only in inc2 is still found.
    assert_origin(&out, "lib_from_inc1", "inc1/lib.idl", 1);
    assert!(!out.text.contains("lib_from_inc2"));
    assert_origin(&out, "only2_marker", "inc2/only2.idl", 1);
    // "" looks next to the includer first; <> only on the include path.
    assert_origin(&out, "shadow_local", "pp/shadow.idl", 1);
    assert_origin(&out, "shadow_inc1", "inc1/shadow.idl", 1);
    // `#pragma once` is consumed, not passed on.
    assert!(!out.text.contains("#pragma once"));
    // Every file read is listed once, the main file first.
    let names: Vec<String> = out
        .files
        .iter()
        .map(|f| {
            f.strip_prefix(pp_dir().to_str().unwrap())
                .unwrap_or(f)
                .to_string()
        })
        .collect();
    assert_eq!(
        names,
        [
            "/main.idl",
            "/sub/guarded.idl",
            "/sub/nested/deep.idl",
            "/inc1/lib.idl",
            "/inc2/only2.idl",
            "/sub/once.idl",
            "/shadow.idl",
            "/inc1/shadow.idl"
        ]
    );
}

#[test]
fn include_path_order_decides() {
    let out = main_with(&["inc2", "inc1"]);
    assert_origin(&out, "lib_from_inc2", "inc2/lib.idl", 1);
    assert!(!out.text.contains("lib_from_inc1"));
}

#[test]
fn macros_expand_outside_comments_and_literals() {
    let out = main_with(&["inc1", "inc2"]);
    assert!(out.text.contains("const long main_count = 3;"));
    assert!(
        out.text
            .contains("module M { /* COUNT stays as it is in comments */")
    );
    assert!(
        out.text
            .contains("const string s = \"COUNT\";   // and in strings: COUNT")
    );
    assert!(out.text.contains("const char c = 'C';"));
}

#[test]
fn conditionals_and_every_operator() {
    let path = pp_dir().join("conditionals.idl");
    let source = std::fs::read_to_string(&path).expect("readable");
    let out = Preprocessor::new()
        .run_file(&path)
        .unwrap_or_else(|d| panic!("{d:?}"));
    let words = |prefix: &str| -> Vec<String> {
        source
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| w.starts_with(prefix) && w.len() > prefix.len())
            .map(str::to_string)
            .collect()
    };
    let yes = words("yes_");
    let no = words("no_");
    assert!(yes.len() >= 25 && no.len() >= 10);
    for word in &yes {
        let line = line_of(&out, word);
        // Output line n is input line n: the file includes nothing.
        assert_eq!(
            out.text.lines().nth(line as usize - 1),
            source.lines().nth(line as usize - 1)
        );
    }
    for word in &no {
        assert!(!out.text.contains(word.as_str()), "`{word}` survived");
    }
}

/// One expected diagnostic: file suffix (or `None` for the file itself),
/// line, message.
type Expected = (Option<String>, u32, String);

fn expectations(source: &str, dir: &Path, inc1: &Path) -> Vec<Expected> {
    source
        .lines()
        .filter_map(|l| l.strip_prefix("// error: "))
        .map(|rest| {
            let (place, message) = rest.split_once(": ").expect("`place: message`");
            let (file, line) = match place.split_once(':') {
                Some((file, line)) => (Some(file.to_string()), line),
                None => (None, place),
            };
            let message = message
                .replace("$DIR", &dir.display().to_string())
                .replace("$INC1", &inc1.display().to_string());
            (file, line.parse().expect("line number"), message)
        })
        .collect()
}

#[test]
fn errors_have_exact_messages_and_lines() {
    let dir = pp_dir().join("errors");
    let inc1 = pp_dir().join("inc1");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/pp/errors")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "idl"))
        .collect();
    files.sort();
    assert!(files.len() >= 14);
    let mut pp = Preprocessor::new();
    pp.include_dir(&inc1);
    for file in &files {
        let source = std::fs::read_to_string(file).expect("readable");
        let mut expected = expectations(&source, &dir, &inc1);
        assert!(!expected.is_empty(), "{} expects nothing", file.display());
        let diagnostics = match pp.run_file(file) {
            Ok(_) => panic!("{} preprocessed without errors", file.display()),
            Err(d) => d,
        };
        let main = file.display().to_string();
        let mut got: Vec<Expected> = diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| {
                let file = d.location.file.as_ref();
                let suffix = (file != main).then(|| {
                    expected
                        .iter()
                        .filter_map(|e| e.0.clone())
                        .find(|s| file.ends_with(s.as_str()))
                        .unwrap_or_else(|| file.to_string())
                });
                (suffix, d.location.line, d.message.clone())
            })
            .collect();
        expected.sort();
        got.sort();
        assert_eq!(got, expected, "{}", file.display());
    }
}

#[test]
fn computed_include_and_names_taken_as_written() {
    let mut pp = Preprocessor::new();
    pp.include_dir(pp_dir());
    let src = concat!(
        "#define HEADER \"computed/target.idl\"\n",
        "#include HEADER\n",
        "#define computed nothing\n",
        "#define target nothing\n",
        "#include <computed/target.idl>\n",
    );
    let out = pp
        .run_source("t.idl", src)
        .unwrap_or_else(|d| panic!("{d:?}"));
    assert_eq!(
        out.text.matches("computed_marker").count(),
        2,
        "{}",
        out.text
    );
    assert_eq!(out.origin(2).map(|o| o.line), Some(1));
    assert!(
        out.origin(2)
            .is_some_and(|o| o.file.ends_with("computed/target.idl"))
    );
    assert_eq!(out.line_map.len(), 7);
}
