//! omniORB's IDL files analyse without error, and give the repository ids
//! omniORB gives them; the shared Cubit interface analyses.

use std::path::{Path, PathBuf};

use rtorb_idl::parse_file;
use rtorb_idl::preprocess::Preprocessor;
use rtorb_idl::sema::{DeclKind, Model, analyze};

const OMNIORB_IDL: &str = "/usr/share/idl/omniORB";

/// Preprocesses (with `__OMNIIDL__` defined, as omniidl does), parses and
/// analyses one of omniORB's files.
fn analyze_file(path: &Path) -> Result<Model, Vec<String>> {
    let root = Path::new(OMNIORB_IDL);
    let mut pp = Preprocessor::new();
    pp.include_dir(root)
        .include_dir(root.join("COS"))
        .define("__OMNIIDL__", "1");
    let strings = |es: Vec<rtorb_idl::Diagnostic>| es.iter().map(|d| d.to_string()).collect();
    let spec = parse_file(&pp, path).map_err(strings)?;
    analyze(&spec).map_err(strings)
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

/// omniORB's files use names that its `orb.idl` does not declare
/// (omniidl rejects the same ten files with the same errors)
/// (`CORBA::Current`, `CORBA::Policy`, `CORBA::ServiceOption`,
/// `CORBA::Environment`, ...) or that live in the unshipped `IOP.idl`:
/// files depending on these fail with exactly such errors.
///
/// `Security.idl` (and the files including it) also declares
/// `struct Right { ... string right; }`, which omniidl rejects as well
/// ("Instance identifier 'right' clashes with name of enclosing scope
/// 'Right'").
fn undeclared_in_source(error: &str) -> bool {
    (error.starts_with("error: cannot find")
        && (error.contains("in `CORBA`") || error.contains("`IOP::")))
        || error.contains("`IOP.idl` not found")
        || error.contains("error: `right` redefines the name of its enclosing scope `Right`")
}

#[test]
#[ignore = "needs omniORB (Debian omniorb, omniorb-idl): scripts/test.sh installs it and runs this"]
fn every_omniorb_idl_file_analyses() {
    let mut files = Vec::new();
    idl_files(Path::new(OMNIORB_IDL), &mut files);
    assert!(files.len() > 50, "only {} IDL files found", files.len());
    let mut failures = Vec::new();
    let mut known_gaps = Vec::new();
    for path in &files {
        if let Err(errors) = analyze_file(path) {
            if errors.iter().all(|e| undeclared_in_source(e)) {
                known_gaps.push(
                    path.file_name()
                        .unwrap_or_default()
                        .to_string_lossy()
                        .into_owned(),
                );
                continue;
            }
            failures.push(format!(
                "{}:\n{}",
                path.display(),
                errors
                    .iter()
                    .filter(|e| !undeclared_in_source(e))
                    .take(3)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join("\n")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} files fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(
        known_gaps, KNOWN_GAPS,
        "the files that fail on names omniORB does not ship"
    );
}

/// The files of omniORB 4.2 (Debian's `omniorb-idl`) that name
/// declarations omniORB does not ship ([`undeclared_in_source`]), in the
/// order [`idl_files`] finds them.
const KNOWN_GAPS: [&str; 10] = [
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

/// omniidl, omniORB's own IDL compiler, rejects each file of
/// [`KNOWN_GAPS`] too: they are gaps of omniORB's files, not of rtorb.
#[test]
#[ignore = "needs omniORB (Debian omniorb, omniorb-idl): scripts/test.sh installs it and runs this"]
fn omniidl_rejects_the_known_gaps_too() {
    // omniidl without a back end checks a file and nothing else.
    let omniidl = |path: &Path| {
        std::process::Command::new("omniidl")
            .arg(format!("-I{OMNIORB_IDL}"))
            .arg(format!("-I{OMNIORB_IDL}/COS"))
            .arg(path)
            .output()
            .expect("omniidl (omniORB's IDL compiler) must be installed for this test")
    };
    let naming = Path::new(OMNIORB_IDL).join("COS/CosNaming.idl");
    let out = omniidl(&naming);
    assert!(
        out.status.success(),
        "omniidl rejects CosNaming.idl: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut files = Vec::new();
    idl_files(Path::new(OMNIORB_IDL), &mut files);
    for name in KNOWN_GAPS {
        let path = files
            .iter()
            .find(|p| p.file_name().is_some_and(|n| n == name))
            .unwrap_or_else(|| panic!("{name} is not among omniORB's files"));
        let out = omniidl(path);
        assert!(
            !out.status.success(),
            "omniidl accepts {name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

fn repo_id(model: &Model, name: &[&str]) -> String {
    let id = model.lookup(name).unwrap_or_else(|| panic!("no {name:?}"));
    model
        .decl(id)
        .repository_id
        .clone()
        .expect("has a repository id")
}

#[test]
#[ignore = "needs omniORB (Debian omniorb, omniorb-idl): scripts/test.sh installs it and runs this"]
fn omniorb_repository_ids() {
    let naming =
        analyze_file(Path::new("/usr/share/idl/omniORB/COS/CosNaming.idl")).expect("analyses");
    for (name, id) in [
        (&["CosNaming"][..], "IDL:omg.org/CosNaming:1.0"),
        (
            &["CosNaming", "NamingContext"],
            "IDL:omg.org/CosNaming/NamingContext:1.0",
        ),
        (
            &["CosNaming", "NamingContext", "NotFound"],
            "IDL:omg.org/CosNaming/NamingContext/NotFound:1.0",
        ),
        (
            &["CosNaming", "NamingContextExt"],
            "IDL:omg.org/CosNaming/NamingContextExt:1.0",
        ),
        (&["CosNaming", "Name"], "IDL:omg.org/CosNaming/Name:1.0"),
        (
            &["CosNaming", "BindingIterator"],
            "IDL:omg.org/CosNaming/BindingIterator:1.0",
        ),
        (
            &["CosNaming", "BindingType"],
            "IDL:omg.org/CosNaming/BindingType:1.0",
        ),
    ] {
        assert_eq!(repo_id(&naming, name), id);
    }
    let poa = analyze_file(Path::new("/usr/share/idl/omniORB/poa.idl")).expect("analyses");
    for (name, id) in [
        (&["PortableServer"][..], "IDL:omg.org/PortableServer:2.3"),
        (
            &["PortableServer", "ForwardRequest"],
            "IDL:omg.org/PortableServer/ForwardRequest:2.3",
        ),
        (
            &["PortableServer", "POA"],
            "IDL:omg.org/PortableServer/POA:1.0",
        ),
        (
            &["PortableServer", "ObjectId"],
            "IDL:omg.org/PortableServer/ObjectId:1.0",
        ),
    ] {
        assert_eq!(repo_id(&poa, name), id, "{name:?}");
    }
    let boot = analyze_file(Path::new("/usr/share/idl/omniORB/bootstrap.idl")).expect("analyses");
    assert_eq!(
        repo_id(&boot, &["CORBA_InitialReferences"]),
        "omg.org/CORBA/InitialReferences:1.0"
    );
}

#[test]
fn cubit_analyses() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../idl/cubit.idl"))
        .expect("cubit.idl");
    let spec = rtorb_idl::parser::parse(&text, &rtorb_idl::lexer::SingleFile::new("cubit.idl"))
        .expect("parses");
    let model = analyze(&spec).expect("analyses");
    assert_eq!(repo_id(&model, &["Cubit"]), "IDL:Cubit:1.0");
    assert_eq!(repo_id(&model, &["Cubit", "Many"]), "IDL:Cubit/Many:1.0");
    let cubit = model.lookup(&["Cubit"]).expect("Cubit");
    let DeclKind::Interface(i) = &model.decl(cubit).kind else {
        panic!()
    };
    assert_eq!(i.operations.len(), 8);
    assert_eq!(i.operations[4].name, "cube_struct");
    assert_eq!(i.operations[4].repository_id, "IDL:Cubit/cube_struct:1.0");
    let many = model.lookup(&["Cubit", "Many"]).expect("Many");
    assert_eq!(
        i.operations[4].result,
        Some(rtorb_idl::sema::Type::Named(many))
    );
    assert!(i.operations[7].oneway);
}

/// The `_PD_repoId` of every interface omniidl's C++ back end generates
/// for `text`, by C++ name (`M::I`).
fn omniidl_interface_ids(text: &str, tag: &str) -> Vec<(String, String)> {
    let dir = std::env::temp_dir().join(format!("rtorb-typeprefix-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let idl = dir.join("t.idl");
    std::fs::write(&idl, text).expect("IDL written");
    let out = std::process::Command::new("omniidl")
        .arg("-bcxx")
        .arg(format!("-C{}", dir.display()))
        .arg(&idl)
        .output()
        .expect("omniidl (omniORB's IDL compiler) must be installed for this test");
    assert!(
        out.status.success(),
        "omniidl failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sk = std::fs::read_to_string(dir.join("tSK.cc")).expect("omniidl wrote tSK.cc");
    let _ = std::fs::remove_dir_all(&dir);
    let mut ids: Vec<(String, String)> = sk
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("const char* ")?;
            let (name, id) = rest.split_once("::_PD_repoId = \"")?;
            Some((name.to_string(), id.strip_suffix("\";")?.to_string()))
        })
        .collect();
    ids.sort();
    ids
}

/// The ids rtorb gives the interfaces `names` in `text`.
fn rtorb_interface_ids(text: &str, names: &[&str]) -> Vec<(String, String)> {
    let spec = rtorb_idl::parser::parse(text, &rtorb_idl::lexer::SingleFile::new("t.idl"))
        .expect("parses");
    let m = analyze(&spec).unwrap_or_else(|e| panic!("{e:?}"));
    let mut ids: Vec<(String, String)> = names
        .iter()
        .map(|n| {
            let parts: Vec<&str> = n.split("::").collect();
            let d = m.lookup(&parts).unwrap_or_else(|| panic!("no {n}"));
            (n.to_string(), m.decl(d).repository_id.clone().expect("id"))
        })
        .collect();
    ids.sort();
    ids
}

/// omniidl has no `typeprefix`, so each case is checked against the
/// `#pragma prefix` spelling that means the same: a `typeprefix` placed
/// after a module's contents, or in a later opening of the module, must
/// give the ids omniidl gives when the prefix is set before them.
#[test]
#[ignore = "needs omniORB (Debian omniorb, omniorb-idl): scripts/test.sh installs it and runs this"]
fn typeprefix_ids_match_omniidl_for_the_equivalent_pragma_prefix() {
    let cases: [(&str, &str, &[&str]); 2] = [
        (
            r#"module M { interface I { void op(); }; typeprefix M "example.org"; };"#,
            "#pragma prefix \"example.org\"\nmodule M { interface I { void op(); }; };\n",
            &["M::I"],
        ),
        (
            "module N { interface A { void op_a(); }; };\n\
             module N { interface B { void op_b(); }; typeprefix N \"n.org\"; };\n\
             module N { module Deep { interface C { void op_c(); }; }; };\n",
            "#pragma prefix \"n.org\"\n\
             module N { interface A { void op_a(); }; };\n\
             module N { interface B { void op_b(); }; };\n\
             module N { module Deep { interface C { void op_c(); }; }; };\n",
            &["N::A", "N::B", "N::Deep::C"],
        ),
    ];
    for (i, (typeprefixed, pragma, names)) in cases.iter().enumerate() {
        let ours = rtorb_interface_ids(typeprefixed, names);
        let theirs = omniidl_interface_ids(pragma, &i.to_string());
        assert_eq!(ours, theirs, "case {i}");
    }
}
