//! omniORB's IDL files analyse without error, and give the repository ids
//! omniORB gives them; the shared Cubit interface analyses.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rtorb_idl::parser::parse;
use rtorb_idl::sema::{DeclKind, Model, analyze};

const OMNIORB_IDL: &str = "/usr/share/idl/omniORB";

/// A stand-in for the preprocessor: `#include` inlines the named file
/// (each file once), conditionals are taken as for an IDL compiler named
/// `__OMNIIDL__`, `#pragma` lines are kept. Every output line remembers its
/// file and line.
struct Expanded {
    text: String,
    origins: Vec<(Arc<str>, u32)>,
    seen: Vec<PathBuf>,
}

fn find_include(name: &str) -> Option<PathBuf> {
    [OMNIORB_IDL.to_string(), format!("{OMNIORB_IDL}/COS")]
        .iter()
        .map(|d| Path::new(d).join(name))
        .find(|p| p.is_file())
}

fn expand(path: &Path, out: &mut Expanded) {
    if out.seen.contains(&path.to_path_buf()) {
        return;
    }
    out.seen.push(path.to_path_buf());
    let text = std::fs::read_to_string(path).expect("IDL file is UTF-8");
    let file: Arc<str> = path.display().to_string().into();
    let mut defined: Vec<String> = vec!["__OMNIIDL__".into()];
    let mut active: Vec<bool> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line_no = u32::try_from(n + 1).expect("line number");
        let live = active.iter().all(|&a| a);
        let trimmed = line.trim_start();
        let emit = |text: &str, out: &mut Expanded| {
            out.text.push_str(text);
            out.text.push('\n');
            out.origins.push((file.clone(), line_no));
        };
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
                "include" if live => {
                    let name = arg.trim_matches(|c| c == '"' || c == '<' || c == '>');
                    if let Some(p) = find_include(name) {
                        expand(&p, out);
                    }
                }
                "pragma" if live => {
                    emit(line, out);
                    continue;
                }
                _ => {}
            }
            emit("", out);
            continue;
        }
        emit(if live { line } else { "" }, out);
    }
}

fn analyze_file(path: &Path) -> Result<Model, Vec<String>> {
    let mut e = Expanded {
        text: String::new(),
        origins: Vec::new(),
        seen: Vec::new(),
    };
    expand(path, &mut e);
    let origins = e.origins;
    let map = move |line: u32| {
        origins
            .get(line as usize - 1)
            .cloned()
            .unwrap_or_else(|| ("?".into(), line))
    };
    let spec =
        parse(&e.text, &map).map_err(|es| es.iter().map(|d| d.to_string()).collect::<Vec<_>>())?;
    analyze(&spec).map_err(|es| es.iter().map(|d| d.to_string()).collect())
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
/// (`CORBA::Current`, `CORBA::Policy`, `CORBA::ServiceOption`,
/// `CORBA::Environment`, ...) or that live in the unshipped `IOP.idl`:
/// files depending on these fail with exactly such errors.
fn undeclared_in_source(error: &str) -> bool {
    error.starts_with("error: cannot find")
        && (error.contains("in `CORBA`") || error.contains("`IOP::"))
}

#[test]
fn every_omniorb_idl_file_analyses() {
    let mut files = Vec::new();
    idl_files(Path::new(OMNIORB_IDL), &mut files);
    assert!(files.len() > 50, "only {} IDL files found", files.len());
    let mut failures = Vec::new();
    for path in &files {
        if let Err(errors) = analyze_file(path) {
            if errors.iter().all(|e| undeclared_in_source(e)) {
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
    let text = std::fs::read_to_string("/work/shared/idl/cubit.idl").expect("cubit.idl");
    let spec = parse(&text, &rtorb_idl::lexer::SingleFile::new("cubit.idl")).expect("parses");
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
