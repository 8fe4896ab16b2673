//! Runs the preprocessor over the IDL that omniORB installs, with the
//! include path omniidl uses for it.

use std::path::{Path, PathBuf};

use rtorb_idl::Severity;
use rtorb_idl::preprocess::Preprocessor;

const OMNIORB_IDL: &str = "/usr/share/idl/omniORB";

fn idl_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            idl_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "idl") {
            out.push(path);
        }
    }
}

/// Whether some file of that name exists anywhere under `root`.
fn exists_under(root: &Path, name: &str) -> bool {
    let mut all = Vec::new();
    idl_files(root, &mut all);
    all.iter().any(|p| p.file_name().is_some_and(|f| f == name))
}

#[test]
#[ignore = "needs omniORB (Debian omniorb, omniorb-idl): scripts/test.sh installs it and runs this"]
fn every_omniorb_idl_file_preprocesses() {
    let root = Path::new(OMNIORB_IDL);
    assert!(
        root.is_dir(),
        "{OMNIORB_IDL} is missing: install Debian's omniorb-idl package to run this test"
    );
    let mut files = Vec::new();
    idl_files(root, &mut files);
    files.sort();
    assert!(
        files.len() >= 50,
        "only {} IDL files under {OMNIORB_IDL}",
        files.len()
    );

    let mut pp = Preprocessor::new();
    pp.include_dir(root).include_dir(root.join("COS"));
    let mut passed = 0;
    let mut failures = Vec::new();
    for file in &files {
        match pp.run_file(file) {
            Ok(out) => {
                passed += 1;
                assert_eq!(
                    out.text.lines().count(),
                    out.line_map.len(),
                    "{}",
                    file.display()
                );
                assert_eq!(out.files[0].as_ref(), file.display().to_string());
                // Every line of the main file appears in the map, in order.
                let main: Vec<u32> = out
                    .line_map
                    .iter()
                    .filter(|o| o.file == out.files[0])
                    .map(|o| o.line)
                    .collect();
                let lines = std::fs::read_to_string(file)
                    .map(|t| t.lines().count())
                    .unwrap_or(0);
                assert_eq!(
                    main,
                    (1..=lines as u32).collect::<Vec<_>>(),
                    "{}",
                    file.display()
                );
            }
            Err(diagnostics) => {
                // Debian's package leaves out IOP.idl, which three security
                // files include; such a missing file is the only failure
                // allowed, and only when it really is not installed.
                for d in diagnostics.iter().filter(|d| d.severity == Severity::Error) {
                    let missing = d
                        .message
                        .strip_prefix("#include file `")
                        .and_then(|m| m.split_once('`'))
                        .map(|(name, _)| name);
                    match missing {
                        Some(name) if !exists_under(root, name) => {}
                        _ => failures.push(format!("{}: {d}", file.display())),
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "preprocessing failed:\n{}",
        failures.join("\n")
    );
    assert!(
        passed + 3 >= files.len(),
        "only {passed} of {} files preprocessed",
        files.len()
    );
}

#[test]
#[ignore = "needs omniORB (Debian omniorb, omniorb-idl): scripts/test.sh installs it and runs this"]
fn omniorb_include_guards_and_conditionals() {
    let root = Path::new(OMNIORB_IDL);
    assert!(
        root.is_dir(),
        "{OMNIORB_IDL} is missing: install Debian's omniorb-idl package"
    );
    let mut pp = Preprocessor::new();
    pp.include_dir(root).include_dir(root.join("COS"));
    // CosEventChannelAdmin.idl includes CosEventComm.idl; reading it twice
    // through an include guard must give its declarations once.
    let main = "#include <CosEventChannelAdmin.idl>\n#include <CosEventComm.idl>\n";
    let out = pp.run_source("main.idl", main).expect("preprocesses");
    assert_eq!(
        out.text.matches("interface PushConsumer").count(),
        1,
        "{}",
        out.text
    );
    assert!(out.files.iter().any(|f| f.ends_with("CosEventComm.idl")));
    assert!(
        out.files
            .iter()
            .any(|f| f.ends_with("CosEventChannelAdmin.idl"))
    );
    // Pragmas pass through unchanged.
    assert!(out.text.contains("#pragma prefix \"omg.org\""));
}
