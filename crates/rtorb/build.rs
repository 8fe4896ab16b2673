//! Compiles the CosNaming IDL this crate ships (`idl/CosNaming.idl`, kept
//! inside the crate so that it builds on its own, as a packaged crate
//! does) with `rtorb-idl` into `$OUT_DIR/CosNaming.rs`, which
//! `src/naming/mod.rs` includes as the module `rtorb::naming`.

use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let idl = manifest.join("idl/CosNaming.idl");
    println!("cargo:rerun-if-changed={}", idl.display());
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    if let Err(diagnostics) = rtorb_idl::Config::new().out_dir(&out).compile(&[idl]) {
        for d in &diagnostics {
            eprintln!("{d}");
        }
        std::process::exit(1);
    }
}
