//! The choice of skeleton dispatch: a `match` on the operation name up to
//! `TABLE_THRESHOLD` operations, a perfect-hash table above, or either
//! forced by `Config::dispatch` and `--dispatch`.

use std::path::{Path, PathBuf};
use std::process::Command;

use rtorb_idl::codegen::{Dispatch, TABLE_THRESHOLD};

fn small_idl() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/codegen/corpus/small.idl")
}

/// An interface of `n` operations.
fn interface_of(n: usize) -> String {
    let mut idl = String::from("interface Many {\n");
    for i in 0..n {
        idl.push_str(&format!("  long op_{i}(in long x);\n"));
    }
    idl.push_str("};\n");
    idl
}

fn generate(idl: &str, dispatch: Dispatch) -> String {
    let dir = std::env::temp_dir().join(format!("rtorb-idl-dispatch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("many{}.idl", idl.len()));
    std::fs::write(&file, idl).unwrap();
    let text = rtorb_idl::Config::new()
        .dispatch(dispatch)
        .generate(&file)
        .unwrap();
    std::fs::remove_file(&file).unwrap();
    text
}

fn uses_table(text: &str) -> bool {
    let table = text.contains("pub static OPERATIONS: ::rtorb::codegen::OpTable<'static>")
        && text.contains("match OPERATIONS.lookup(req.operation_bytes())");
    let by_name = text.contains("match req.operation_bytes() {");
    assert_ne!(table, by_name, "exactly one dispatch:\n{text}");
    table
}

#[test]
fn auto_uses_a_match_up_to_the_threshold_and_a_table_above() {
    assert!(!uses_table(&generate(
        &interface_of(TABLE_THRESHOLD),
        Dispatch::Auto
    )));
    assert!(uses_table(&generate(
        &interface_of(TABLE_THRESHOLD + 1),
        Dispatch::Auto
    )));
    assert!(!Dispatch::Auto.uses_table(TABLE_THRESHOLD));
    assert!(Dispatch::Auto.uses_table(TABLE_THRESHOLD + 1));
}

#[test]
fn either_dispatch_can_be_forced() {
    assert!(uses_table(&generate(&interface_of(3), Dispatch::Table)));
    assert!(!uses_table(&generate(
        &interface_of(TABLE_THRESHOLD * 2),
        Dispatch::Match
    )));
    // An interface without operations has no table to look up.
    let empty = generate("interface None {};", Dispatch::Table);
    assert!(!empty.contains("OPERATIONS"));
    assert!(empty.contains("Err(::rtorb::codegen::bad_operation())"));
}

#[test]
fn the_table_numbers_operations_as_the_dispatch_matches_them() {
    let text = generate(&interface_of(TABLE_THRESHOLD + 20), Dispatch::Auto);
    let names: Vec<String> = (0..TABLE_THRESHOLD + 20)
        .map(|i| format!("op_{i}"))
        .collect();
    let table = rtorb_idl::phf::PerfectHash::generate(&names).unwrap();
    assert!(
        text.contains(&format!("seed: {:#018x}", table.seed())),
        "{text}"
    );
    for (i, name) in names.iter().enumerate() {
        // Arm `Some(i)` calls the operation at position `i`.
        let arm = format!("Some({i}) => {{");
        let at = text.find(&arm).unwrap_or_else(|| panic!("no arm {i}"));
        let body = &text[at..];
        let call = body.find("servant.").unwrap();
        assert!(
            body[call..].starts_with(&format!("servant.{name}(")),
            "arm {i}"
        );
    }
}

#[test]
fn the_cli_takes_the_dispatch_flag() {
    let out = std::env::temp_dir().join(format!("rtorb-idl-flag-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    for (flag, table) in [("table", true), ("match", false), ("auto", false)] {
        let run = Command::new(env!("CARGO_BIN_EXE_rtorb-idl"))
            .args(["--dispatch", flag, "-o"])
            .arg(&out)
            .arg(small_idl())
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        let text = std::fs::read_to_string(out.join("small.rs")).unwrap();
        assert_eq!(uses_table(&text), table, "--dispatch {flag}");
    }
    let run = Command::new(env!("CARGO_BIN_EXE_rtorb-idl"))
        .args(["--dispatch", "hash", "-o"])
        .arg(&out)
        .arg(small_idl())
        .output()
        .unwrap();
    assert!(!run.status.success());
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("expected `auto`, `match` or `table`"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&out).unwrap();
}
