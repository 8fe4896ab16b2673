//! The contract of the `rtorb-idl` command line on wrong input: every
//! file of `tests/codegen/wrong/` (each names, on its first line, the
//! `line:column: message` it must give) and files of random bytes make it
//! exit with status 1, print `file:line:column` diagnostics, write no
//! output, and never panic.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn codegen() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/codegen")
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rtorb-idl-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(out: &Path, files: &[PathBuf]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rtorb-idl"))
        .arg("-o")
        .arg(out)
        .args(files)
        .output()
        .unwrap()
}

/// Failed with status 1 (not a panic's 101, not a signal), no panic
/// message, no file written.
fn assert_clean_failure(run: &Output, out: &Path, what: &str) {
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{what}: {stderr}");
    assert!(!stderr.contains("panicked"), "{what}: {stderr}");
    assert!(stderr.contains("error"), "{what}: {stderr}");
    let written: Vec<_> = std::fs::read_dir(out).unwrap().collect();
    assert!(written.is_empty(), "{what}: wrote {written:?}");
}

#[test]
fn every_wrong_file_fails_with_its_diagnostic() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(codegen().join("wrong"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "idl"))
        .collect();
    files.sort();
    assert!(files.len() >= 20, "{files:?}");
    let mut ccm = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let expect = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("// expect: "))
            .unwrap_or_else(|| panic!("{}: no `// expect:` line", file.display()));
        let (line, rest) = expect.split_once(':').unwrap();
        let (column, message) = rest.split_once(": ").unwrap();
        let out = scratch(&format!(
            "wrong-{}",
            file.file_stem().unwrap().to_string_lossy()
        ));
        let run = run(&out, std::slice::from_ref(file));
        assert_clean_failure(&run, &out, &file.display().to_string());
        let stderr = String::from_utf8_lossy(&run.stderr);
        // `error: MESSAGE` then `  --> FILE:LINE:COLUMN`.
        let at = format!("{}:{line}:{column}", file.display());
        let found = stderr.lines().zip(stderr.lines().skip(1)).any(|(m, l)| {
            m.starts_with("error: ") && m.contains(message) && l.trim() == format!("--> {at}")
        });
        assert!(found, "expected `{message}` at {at}, got:\n{stderr}");
        if message.starts_with("CORBA Component Model constructs are not supported: `") {
            ccm += 1;
            assert!(
                stderr.contains("note: rtorb-idl compiles IDL without the component model"),
                "{stderr}"
            );
        }
        std::fs::remove_dir_all(&out).unwrap();
    }
    // component, home, eventtype (plain, abstract, custom), porttype,
    // connector, provides, uses, emits, publishes, consumes.
    assert_eq!(ccm, 12);
}

#[test]
fn all_wrong_files_at_once_report_each_file() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(codegen().join("wrong"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let out = scratch("wrong-all");
    let run = run(&out, &files);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    for f in &files {
        assert!(
            stderr.contains(&format!("{}:", f.display())),
            "{}: {stderr}",
            f.display()
        );
    }
    std::fs::remove_dir_all(&out).unwrap();
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// Random bytes, and random sequences of IDL tokens and preprocessor
/// directives, fail cleanly: no panic, status 0 or 1 only (a token soup
/// may happen to be valid IDL), `file:line:column` diagnostics on failure.
#[test]
fn random_input_never_panics() {
    const TOKENS: &[&str] = &[
        "module",
        "interface",
        "struct",
        "union",
        "switch",
        "case",
        "default",
        "enum",
        "const",
        "typedef",
        "sequence",
        "<",
        ">",
        "{",
        "}",
        "(",
        ")",
        "[",
        "]",
        ";",
        ":",
        "::",
        ",",
        "=",
        "long",
        "string",
        "wstring",
        "fixed",
        "octet",
        "in",
        "out",
        "inout",
        "oneway",
        "raises",
        "context",
        "attribute",
        "readonly",
        "exception",
        "component",
        "home",
        "eventtype",
        "provides",
        "valuetype",
        "typeid",
        "typeprefix",
        "#pragma prefix \"x\"\n",
        "#define A\n",
        "#if A\n",
        "#endif\n",
        "#include \"",
        "A",
        "B",
        "x",
        "1",
        "0x",
        "1.5e",
        "'a'",
        "L\"w\"",
        "\"s\"",
        "<<",
        ">>",
        "~",
        "-",
        "*",
        "/",
        "%",
        "TRUE",
        "/*",
        "*/",
        "//",
        "\n",
        "\\\n",
    ];
    let dir = scratch("random");
    let out = scratch("random-out");
    let mut rng = Rng(0x1d1_5eed);
    let mut files = Vec::new();
    for i in 0..40 {
        let len = (rng.next() % 400) as usize;
        let bytes: Vec<u8> = if i % 2 == 0 {
            (0..len).map(|_| rng.next() as u8).collect()
        } else {
            let mut s = String::new();
            for _ in 0..len / 3 {
                s.push_str(TOKENS[(rng.next() % TOKENS.len() as u64) as usize]);
                s.push(' ');
            }
            s.into_bytes()
        };
        let f = dir.join(format!("r{i}.idl"));
        std::fs::write(&f, bytes).unwrap();
        files.push(f);
    }
    for f in &files {
        let run = run(&out, std::slice::from_ref(f));
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(!stderr.contains("panicked"), "{}: {stderr}", f.display());
        match run.status.code() {
            Some(0) => {}
            Some(1) => {
                let name = f.display().to_string();
                assert!(
                    stderr
                        .lines()
                        .any(|l| l.trim().starts_with(&format!("--> {name}:"))),
                    "{name}: {stderr}"
                );
            }
            other => panic!("{}: status {other:?}: {stderr}", f.display()),
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&out).unwrap();
}

/// An include cycle and a file that is a directory fail cleanly too.
#[test]
fn include_cycles_and_unreadable_inputs_fail_cleanly() {
    let dir = scratch("cycle");
    let a = dir.join("a.idl");
    std::fs::write(&a, "#include \"b.idl\"\nmodule A {};\n").unwrap();
    std::fs::write(dir.join("b.idl"), "#include \"a.idl\"\nmodule B {};\n").unwrap();
    let out = scratch("cycle-out");
    let r = run(&out, &[a]);
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        r.status.code() == Some(0) || r.status.code() == Some(1),
        "{stderr}"
    );
    let out2 = scratch("dir-out");
    let r = run(&out2, std::slice::from_ref(&dir));
    assert_clean_failure(&r, &out2, "a directory");
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&out).unwrap();
    std::fs::remove_dir_all(&out2).unwrap();
}
