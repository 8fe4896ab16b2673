//! Compiles the Cubit IDL (`idl/cubit.idl` of the repository, or
//! `shared/idl/cubit.idl` beside it) and the IDL files under `idl/` with
//! `rtorb-idl` into `$OUT_DIR`; generates and compiles a large interface
//! (`big.idl`, with the default dispatch as `big.rs` and forced to a
//! `match` as `big_match.rs`, plus its servant), and the operation sets of
//! the dispatch benchmark (`dispatch_sets.rs`).

use std::path::PathBuf;

use rtorb_idl::codegen::Dispatch;

#[path = "build/big.rs"]
mod big;
#[path = "build/crossover.rs"]
mod crossover;
#[path = "build/names.rs"]
mod names;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    // The repository's own copy first, then a `shared/` directory beside
    // the repository (looked for upwards).
    let own_cubit = manifest.join("../../idl/cubit.idl");
    let cubit = if own_cubit.is_file() {
        own_cubit
    } else {
        let shared = match std::env::var_os("RTORB_SHARED_DIR") {
            Some(d) => PathBuf::from(d),
            None => manifest
                .ancestors()
                .map(|a| a.join("shared"))
                .find(|s| s.join("idl/cubit.idl").is_file())
                .unwrap_or_else(|| manifest.join("../../../shared")),
        };
        shared.join("idl/cubit.idl")
    };
    let own = manifest.join("idl");
    let files = [
        cubit,
        own.join("everything.idl"),
        own.join("relay.idl"),
        own.join("values.idl"),
        own.join("recursive.idl"),
    ];
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
    }
    println!("cargo:rerun-if-changed={}", own.display());
    println!("cargo:rerun-if-env-changed=RTORB_SHARED_DIR");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    println!("cargo:rerun-if-changed=build");
    write(&out.join("dispatch_sets.rs"), &crossover::source());
    for (name, text) in big::files() {
        write(&out.join(name), &text);
    }
    let big_idl = out.join("big.idl");
    check(
        rtorb_idl::Config::new()
            .include_dir(&own)
            .out_dir(&out)
            .compile(&files),
    );
    // The large interface with the default dispatch (a table, since it is
    // above the threshold) and forced to a `match`.
    check(rtorb_idl::Config::new().out_dir(&out).compile(&[&big_idl]));
    let forced = rtorb_idl::Config::new()
        .dispatch(Dispatch::Match)
        .generate(&big_idl);
    write(&out.join("big_match.rs"), &check(forced));
}

/// The value of a compilation, or the build stops with its diagnostics.
fn check<T>(result: Result<T, Vec<rtorb_idl::Diagnostic>>) -> T {
    match result {
        Ok(v) => v,
        Err(diagnostics) => {
            for d in &diagnostics {
                eprintln!("{d}");
            }
            std::process::exit(1);
        }
    }
}

/// Writes a generated file, or stops the build with the reason.
fn write(path: &std::path::Path, text: &str) {
    if let Err(e) = std::fs::write(path, text) {
        eprintln!("cannot write {}: {e}", path.display());
        std::process::exit(1);
    }
}
