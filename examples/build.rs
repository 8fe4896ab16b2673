//! Compiles the IDL the examples use with `rtorb-idl` into `$OUT_DIR`, as
//! a user's `build.rs` does: the Cubit IDL (`idl/cubit.idl` at the
//! workspace root) and this crate's `idl/account.idl`.

use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let files = [
        manifest.join("../idl/cubit.idl"),
        manifest.join("idl/account.idl"),
    ];
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
    }
    if let Err(diagnostics) = rtorb_idl::Config::new().compile(&files) {
        for d in &diagnostics {
            eprintln!("{d}");
        }
        std::process::exit(1);
    }
}
