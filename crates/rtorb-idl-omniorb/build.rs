//! Compiles every IDL file of Debian's `omniorb-idl` package with
//! `rtorb-idl` into `$OUT_DIR`, and writes `$OUT_DIR/all.rs`, a module per
//! file that `src/lib.rs` includes.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Where `omniorb-idl` installs its files.
const OMNIORB_IDL: &str = "/usr/share/idl/omniORB";

/// Set to `1` (the project's test command does) to make a missing corpus
/// an error instead of a warning.
const REQUIRE: &str = "RTORB_REQUIRE_OMNIORB_IDL";

/// The files omniidl itself rejects: they name declarations that omniORB's
/// `orb.idl` does not declare (`CORBA::Current`, `CORBA::Policy`,
/// `CORBA::ServiceOption`, `CORBA::Environment`, ...) or that live in the
/// unshipped `IOP.idl`. They are the ten files that
/// `crates/rtorb-idl/tests/sema_omniorb.rs` accepts failing on undeclared
/// names; every other file must compile.
const REJECTED_BY_OMNIIDL: &[&str] = &[
    "CosTSPortability.idl",
    "DCE_CIOPSecurity.idl",
    "NRService.idl",
    "SECIOP.idl",
    "SSLIOP.idl",
    "Security.idl",
    "SecurityAdmin.idl",
    "SecurityLevel1.idl",
    "SecurityLevel2.idl",
    "SecurityReplaceable.idl",
];

fn idl_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            idl_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "idl") {
            out.push(path);
        }
    }
}

/// A Rust module name for an IDL file name (`CosNaming.idl` →
/// `cos_naming`).
fn module_name(stem: &str) -> String {
    let mut out = String::new();
    let mut prev_lower = false;
    for c in stem.chars() {
        if c.is_ascii_uppercase() {
            if prev_lower {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
            prev_lower = false;
        } else if c.is_ascii_alphanumeric() {
            out.push(c);
            prev_lower = true;
        } else {
            out.push('_');
            prev_lower = false;
        }
    }
    format!("{out}_idl")
}

fn main() {
    let root = Path::new(OMNIORB_IDL);
    println!("cargo:rerun-if-changed={OMNIORB_IDL}");
    let mut files = Vec::new();
    idl_files(root, &mut files);
    println!("cargo:rerun-if-env-changed={REQUIRE}");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    if files.is_empty() {
        let why = format!(
            "no IDL files under {OMNIORB_IDL}: Debian's `omniorb-idl` package is not installed \
             (`scripts/install-deps.sh` installs it)"
        );
        if std::env::var_os(REQUIRE).is_some_and(|v| v == "1") {
            eprintln!("error: {why}; {REQUIRE}=1 asks for the corpus");
            std::process::exit(1);
        }
        // A plain `cargo build` needs only a Rust toolchain: say why the
        // corpus is left out and build an empty crate.
        println!("cargo:warning=rtorb-idl-omniorb: the omniORB IDL corpus is skipped: {why}");
        if let Err(e) = std::fs::write(out.join("all.rs"), "") {
            eprintln!("error: cannot write all.rs: {e}");
            std::process::exit(1);
        }
        return;
    }
    let mut config = rtorb_idl::Config::new();
    config
        .include_dir(root)
        .include_dir(root.join("COS"))
        .define("__OMNIIDL__", "1")
        .out_dir(&out);
    let mut all = String::new();
    let mut failures = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for file in &files {
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        if REJECTED_BY_OMNIIDL.contains(&name.as_ref()) {
            continue;
        }
        let stem = file.file_stem().unwrap_or_default().to_string_lossy();
        if !seen.insert(stem.to_string()) {
            failures.push(format!("{}: a second file named {name}", file.display()));
            continue;
        }
        if let Err(diagnostics) = config.compile(&[file]) {
            let text: Vec<String> = diagnostics.iter().map(|d| d.to_string()).collect();
            failures.push(format!("{}:\n{}", file.display(), text.join("\n")));
            continue;
        }
        let module = module_name(&stem);
        let _ = writeln!(
            all,
            "#[doc = {:?}]\npub mod {module} {{ include!(concat!(env!(\"OUT_DIR\"), {:?})); }}",
            format!(" Generated from `{}`.", file.display()),
            format!("/{stem}.rs")
        );
    }
    if !failures.is_empty() {
        eprintln!(
            "error: rtorb-idl fails on {} omniORB IDL files:\n{}",
            failures.len(),
            failures.join("\n")
        );
        std::process::exit(1);
    }
    if let Err(e) = std::fs::write(out.join("all.rs"), all) {
        eprintln!("error: cannot write all.rs: {e}");
        std::process::exit(1);
    }
}
