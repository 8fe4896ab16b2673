//! Compiles the interop IDL (`interop/idl/interop.idl`) with `rtorb-idl`
//! into `$OUT_DIR/interop.rs`, for the tests that run it against omniORB.

use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let idl = manifest.join("../idl/interop.idl");
    println!("cargo:rerun-if-changed={}", idl.display());
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    if let Err(diagnostics) = rtorb_idl::Config::new().out_dir(&out).compile(&[idl]) {
        for d in &diagnostics {
            eprintln!("{d}");
        }
        std::process::exit(1);
    }
}
