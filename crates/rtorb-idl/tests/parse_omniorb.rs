//! Every IDL file shipped with omniORB parses.

use std::path::{Path, PathBuf};

use rtorb_idl::lexer::SingleFile;
use rtorb_idl::parser::parse;

const OMNIORB_IDL: &str = "/usr/share/idl/omniORB";

/// A minimal stand-in for the preprocessor: drops `#include`, keeps
/// `#ifdef`/`#ifndef`/`#if`/`#else`/`#endif` sections as an IDL compiler
/// named `__OMNIIDL__` would see them, and blanks the directive lines so
/// that line numbers stay right. `#pragma` lines are kept.
fn strip_directives(text: &str) -> String {
    let mut defined: Vec<String> = vec!["__OMNIIDL__".into()];
    // One entry per open conditional: whether its section is active.
    let mut active: Vec<bool> = Vec::new();
    let mut out = String::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        let live = active.iter().all(|&a| a);
        if let Some(directive) = trimmed.strip_prefix('#') {
            let mut words = directive.split_whitespace();
            let word = words.next().unwrap_or("");
            let arg = words.next().unwrap_or("").to_string();
            match word {
                "ifdef" => active.push(defined.contains(&arg)),
                "ifndef" => active.push(!defined.contains(&arg)),
                "if" => active.push(directive.contains("__OMNIIDL__")),
                "else" => {
                    if let Some(a) = active.last_mut() {
                        *a = !*a;
                    }
                }
                "endif" => {
                    active.pop();
                }
                "define" if live => defined.push(arg),
                "pragma" if live => {
                    out.push_str(line);
                    out.push('\n');
                    continue;
                }
                _ => {}
            }
            out.push('\n');
            continue;
        }
        if live {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

fn idl_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("readable directory")
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            idl_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "idl") {
            out.push(path);
        }
    }
}

#[test]
#[ignore = "needs omniORB (Debian omniorb, omniorb-idl): scripts/test.sh installs it and runs this"]
fn every_omniorb_idl_file_parses() {
    let dir = Path::new(OMNIORB_IDL);
    assert!(
        dir.is_dir(),
        "{OMNIORB_IDL} is missing: install omniORB's IDL files (omniidl) to run this test"
    );
    let mut files = Vec::new();
    idl_files(dir, &mut files);
    assert!(files.len() > 50, "only {} IDL files found", files.len());
    let mut failures = Vec::new();
    let mut definitions = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).expect("IDL file is UTF-8");
        let name = path.display().to_string();
        match parse(&strip_directives(&text), &SingleFile::new(name.as_str())) {
            Ok(spec) => definitions += spec.definitions.len(),
            Err(errors) => {
                for e in errors.iter().take(3) {
                    failures.push(e.to_string());
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} errors in omniORB IDL files:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(definitions > 100);
}
