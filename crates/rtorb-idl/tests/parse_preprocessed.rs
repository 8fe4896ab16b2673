//! The front end end to end: every IDL file Debian's omniorb-idl package
//! ships goes through the preprocessor and the parser, with `-I` paths as
//! omniidl would use them.

use std::path::{Path, PathBuf};

use rtorb_idl::preprocess::Preprocessor;

const OMNIORB_IDL: &str = "/usr/share/idl/omniORB";

fn idl_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| {
            panic!(
                "{}: {e}; install Debian's omniorb-idl package",
                dir.display()
            )
        })
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "idl"))
        .collect();
    out.sort();
    out
}

#[test]
#[ignore = "needs omniORB (Debian omniorb, omniorb-idl): scripts/test.sh installs it and runs this"]
fn every_omniorb_idl_file_preprocesses_and_parses() {
    let root = Path::new(OMNIORB_IDL);
    let mut pp = Preprocessor::new();
    pp.include_dir(root).include_dir(root.join("COS"));
    let mut files = idl_files(root);
    files.extend(idl_files(&root.join("COS")));
    assert!(files.len() > 60, "too few IDL files under {OMNIORB_IDL}");
    let mut failures = Vec::new();
    let mut missing_include = 0;
    for f in &files {
        if let Err(errors) = rtorb_idl::parse_file(&pp, f) {
            // Three files include IOP.idl, which Debian does not install;
            // omniidl cannot read them either.
            if errors
                .iter()
                .all(|e| e.message.contains("`IOP.idl` not found"))
            {
                missing_include += 1;
                continue;
            }
            let first: Vec<String> = errors.iter().take(3).map(|e| e.to_string()).collect();
            failures.push(format!("{}:\n{}", f.display(), first.join("\n")));
        }
    }
    assert!(
        failures.is_empty(),
        "{} files failed:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(
        missing_include <= 3,
        "{missing_include} files lack an include"
    );
}

#[test]
fn errors_point_into_the_included_file() {
    let dir = std::env::temp_dir().join(format!("rtorb-idl-pp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("inc.idl"),
        "module M {\n  struct S { long a; }\n};\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("main.idl"),
        "#include \"inc.idl\"\nconst long X = 1;\n",
    )
    .unwrap();
    let errors = rtorb_idl::parse_file(&Preprocessor::new(), &dir.join("main.idl")).unwrap_err();
    std::fs::remove_dir_all(&dir).ok();
    let e = &errors[0];
    assert!(e.location.file.ends_with("inc.idl"), "{e}");
    assert_eq!(e.location.line, 3, "{e}");
}
