//! The first use as a new user meets it: a crate whose only rtorb
//! dependency is `rtorb`, with `rtorb-idl` (no features) as its build
//! dependency, compiles the Cubit IDL, `idl/everything.idl` and every file
//! of the back end's corpus in its `build.rs`, includes the generated code
//! in nested modules, and implements and calls a generated interface.
//!
//! The crate is written to a temporary directory and checked with
//! `cargo check --offline`, its target directory inside this workspace's
//! (`target/scratch-crate`), so later runs only check the crate again. The
//! workspace's `Cargo.lock` is copied beside it: the same versions, all of
//! them already in the local registry cache.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository this crate is in.
fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crates/<name> is two levels down")
        .to_path_buf()
}

/// The Cubit IDL, the repository's own (`idl/cubit.idl`).
fn cubit_idl(repository: &Path) -> PathBuf {
    repository.join("idl/cubit.idl")
}

/// The directory the workspace builds into: the test binary is in its
/// `debug/deps/` (or `<profile>/deps/`).
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    exe.ancestors()
        .nth(3)
        .map(Path::to_path_buf)
        .unwrap_or_else(|| repository().join("target"))
}

/// A path as a Rust string literal.
fn literal(path: &Path) -> String {
    format!("{:?}", path.display().to_string())
}

fn manifest(repository: &Path) -> String {
    format!(
        r#"[package]
name = "rtorb-first-use"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
rtorb = {{ path = {rtorb} }}

[build-dependencies]
rtorb-idl = {{ path = {idl} }}

[workspace]
"#,
        rtorb = literal(&repository.join("crates/rtorb")),
        idl = literal(&repository.join("crates/rtorb-idl")),
    )
}

fn build_script(repository: &Path) -> String {
    let tests_idl = repository.join("crates/rtorb-idl-tests/idl");
    let corpus = repository.join("crates/rtorb-idl/tests/codegen/corpus");
    format!(
        r#"use std::path::PathBuf;

fn main() {{
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap());
    let tests_idl = PathBuf::from({tests_idl});
    let corpus = PathBuf::from({corpus});
    let compile = |include: &PathBuf, files: &[PathBuf]| {{
        rtorb_idl::Config::new()
            .include_dir(include)
            .out_dir(&out)
            .compile(files)
            .unwrap_or_else(|errors| {{
                errors.iter().for_each(|e| eprintln!("{{e}}"));
                std::process::exit(1)
            }});
    }};
    compile(&tests_idl, &[PathBuf::from({cubit}), tests_idl.join("everything.idl")]);
    let names = ["constants", "interfaces", "names", "small", "types", "values"];
    let files: Vec<PathBuf> = names.iter().map(|n| corpus.join(format!("{{n}}.idl"))).collect();
    compile(&corpus, &files);
}}
"#,
        tests_idl = literal(&tests_idl),
        corpus = literal(&corpus),
        cubit = literal(&cubit_idl(repository)),
    )
}

const LIB: &str = r#"//! Generated code in nested modules, a servant and a call.

pub mod a {
    pub mod b {
        include!(concat!(env!("OUT_DIR"), "/cubit.rs"));
    }
}

pub mod c {
    pub mod d {
        pub mod e {
            include!(concat!(env!("OUT_DIR"), "/everything.rs"));
        }
    }
}

pub mod corpus {
    pub mod constants {
        include!(concat!(env!("OUT_DIR"), "/constants.rs"));
    }
    pub mod deeper {
        pub mod interfaces {
            include!(concat!(env!("OUT_DIR"), "/interfaces.rs"));
        }
    }
    pub mod names {
        include!(concat!(env!("OUT_DIR"), "/names.rs"));
    }
    pub mod small {
        include!(concat!(env!("OUT_DIR"), "/small.rs"));
    }
    pub mod types {
        include!(concat!(env!("OUT_DIR"), "/types.rs"));
    }
    pub mod values {
        include!(concat!(env!("OUT_DIR"), "/values.rs"));
    }
}

use std::sync::Arc;

use a::b::{Cubit, CubitServant, CubitSkeleton, cubit};
use rtorb::exception::SystemException;
use rtorb::loopback::Loopback;

/// A servant of the generated servant trait.
pub struct Cuber;

impl CubitServant for Cuber {
    fn cube_void(&self) -> Result<(), SystemException> {
        Ok(())
    }
    fn cube_octet(&self, o: u8) -> Result<u8, SystemException> {
        Ok(o.wrapping_mul(o).wrapping_mul(o))
    }
    fn cube_short(&self, s: i16) -> Result<i16, SystemException> {
        Ok(s.wrapping_mul(s).wrapping_mul(s))
    }
    fn cube_long(&self, l: i32) -> Result<i32, SystemException> {
        Ok(l.wrapping_mul(l).wrapping_mul(l))
    }
    fn cube_struct(&self, m: cubit::Many) -> Result<cubit::Many, SystemException> {
        Ok(m)
    }
    fn cube_long_sequence(&self, s: cubit::LongSeq) -> Result<cubit::LongSeq, SystemException> {
        Ok(s)
    }
    fn cube_octet_sequence(&self, s: cubit::OctetSeq) -> Result<cubit::OctetSeq, SystemException> {
        Ok(s)
    }
    fn shutdown(&self) -> Result<(), SystemException> {
        Ok(())
    }
}

/// Calls the servant through the generated stub.
pub fn cube(orb: &Arc<Loopback>, l: i32) -> Result<i32, SystemException> {
    let object = orb.activate(&b"Cubit"[..], Arc::new(CubitSkeleton(Cuber)));
    let stub: Cubit = rtorb::object::Stub::from_object(object);
    stub.cube_long(l)
}
"#;

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

#[test]
fn a_crate_depending_on_rtorb_alone_compiles_generated_code() {
    let repository = repository();
    let dir = std::env::temp_dir().join(format!("rtorb-first-use-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    write(&dir.join("Cargo.toml"), &manifest(&repository));
    write(&dir.join("build.rs"), &build_script(&repository));
    write(&dir.join("src/lib.rs"), LIB);
    std::fs::copy(repository.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();

    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args(["check", "--offline", "--quiet", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", target_dir().join("scratch-crate"))
        .output()
        .expect("cargo runs");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "cargo check of the scratch crate failed ({}):\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}
