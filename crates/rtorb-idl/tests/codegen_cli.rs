//! The `rtorb-idl` command line and the golden output of the back end.

use std::path::{Path, PathBuf};
use std::process::Command;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/codegen")
}

fn out_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rtorb-idl-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn a_wrong_file_exits_non_zero_with_its_diagnostic() {
    let out = out_dir("wrong");
    let run = Command::new(env!("CARGO_BIN_EXE_rtorb-idl"))
        .arg("-o")
        .arg(&out)
        .arg(dir().join("wrong.idl"))
        .output()
        .unwrap();
    assert!(!run.status.success());
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("error"), "{stderr}");
    assert!(stderr.contains("Undeclared"), "{stderr}");
    assert!(stderr.contains("wrong.idl:2"), "{stderr}");
    assert!(!out.join("wrong.rs").exists());
}

#[test]
fn a_missing_file_exits_non_zero() {
    let run = Command::new(env!("CARGO_BIN_EXE_rtorb-idl"))
        .arg("-o")
        .arg(out_dir("missing"))
        .arg(dir().join("no-such-file.idl"))
        .output()
        .unwrap();
    assert!(!run.status.success());
    assert!(!run.stderr.is_empty());
}

#[test]
fn the_cli_writes_one_file_per_input_as_the_golden_output() {
    let out = out_dir("golden");
    let run = Command::new(env!("CARGO_BIN_EXE_rtorb-idl"))
        .arg("-I")
        .arg(dir())
        .arg("-D")
        .arg("UNUSED=1")
        .arg("-o")
        .arg(&out)
        .arg(dir().join("corpus/small.idl"))
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let text = std::fs::read_to_string(out.join("small.rs")).unwrap();
    let golden = dir().join("golden/small.rs");
    if std::env::var_os("RTORB_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&golden, &text).unwrap();
    }
    let expected = std::fs::read_to_string(&golden).unwrap();
    assert_eq!(text, expected, "run with RTORB_BLESS=1 to regenerate");
}

#[test]
fn unsupported_constructs_are_errors() {
    let out = out_dir("value");
    let idl = out.join("value.idl");
    std::fs::write(&idl, "custom valuetype V { public long x; };\n").unwrap();
    let err = rtorb_idl::Config::new()
        .out_dir(&out)
        .compile(&[&idl])
        .unwrap_err();
    assert!(
        err[0]
            .message
            .contains("custom valuetype `V` is not supported"),
        "{:?}",
        err
    );
}

#[test]
fn native_types_and_local_interfaces_only_in_local_operations() {
    let out = out_dir("local_only");
    for (name, text, what) in [
        (
            "native",
            "native N; interface I { void f(in N n); };",
            "native type `N`",
        ),
        (
            "local",
            "local interface L {}; struct S { L peer; }; interface I { S f(); };",
            "local interface `L`",
        ),
        (
            "seq",
            "native N; typedef sequence<N> Ns; interface I { void f(out Ns n); };",
            "native type `N`",
        ),
    ] {
        let idl = out.join(format!("{name}.idl"));
        std::fs::write(&idl, text).unwrap();
        let err = rtorb_idl::Config::new()
            .out_dir(&out)
            .compile(&[&idl])
            .unwrap_err();
        assert_eq!(err.len(), 1, "{err:?}");
        assert!(
            err[0].message.contains(what) && err[0].message.contains("cannot be marshalled"),
            "{name}: {err:?}"
        );
    }
    // The same types in a local interface are fine.
    let idl = out.join("ok.idl");
    std::fs::write(
        &idl,
        "native N; local interface L { N f(in N n); }; local interface M { L g(in L other); };",
    )
    .unwrap();
    rtorb_idl::Config::new()
        .out_dir(&out)
        .compile(&[&idl])
        .unwrap();
}
