//! Compiles the Cubit IDL (`idl/cubit.idl` at the workspace root) and this
//! crate's `idl/guarded.idl`, which includes it, with `rtorb-idl` into
//! `$OUT_DIR`.

use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    // The project's benchmark interface, kept at the workspace root.
    let shared = manifest.join("../../idl");
    let guarded = manifest.join("idl/guarded.idl");
    println!(
        "cargo:rerun-if-changed={}",
        shared.join("cubit.idl").display()
    );
    println!("cargo:rerun-if-changed={}", guarded.display());
    if let Err(diagnostics) = rtorb_idl::Config::new()
        .include_dir(&shared)
        .compile(&[guarded])
    {
        for d in &diagnostics {
            eprintln!("{d}");
        }
        std::process::exit(1);
    }
}
