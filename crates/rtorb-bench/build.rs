//! Compiles the Cubit IDL (`idl/cubit.idl` at the workspace root) with
//! `rtorb-idl` into `$OUT_DIR` for the benchmarks.

use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    // The project's benchmark interface, kept at the workspace root.
    let cubit = manifest.join("../../idl/cubit.idl");
    println!("cargo:rerun-if-changed={}", cubit.display());
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    if let Err(diagnostics) = rtorb_idl::Config::new().out_dir(&out).compile(&[cubit]) {
        for d in &diagnostics {
            eprintln!("{d}");
        }
        std::process::exit(1);
    }
}
