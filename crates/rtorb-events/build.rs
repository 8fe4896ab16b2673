//! Compiles the Event Service IDL this crate ships (`idl/`) with
//! `rtorb-idl` into `$OUT_DIR`, as a user's crate does:
//! `CosEventChannelAdmin.idl` (the generated file holds what it includes,
//! `CosEventComm`, too) and the real-time channel's `RtorbEvent.idl`.

use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let idl = manifest.join("idl");
    for file in [
        "CosEventComm.idl",
        "CosEventChannelAdmin.idl",
        "RtorbEvent.idl",
    ] {
        println!("cargo:rerun-if-changed={}", idl.join(file).display());
    }
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    let compiled = rtorb_idl::Config::new()
        .include_dir(&idl)
        .out_dir(&out)
        .compile(&[
            idl.join("CosEventChannelAdmin.idl"),
            idl.join("RtorbEvent.idl"),
        ]);
    if let Err(diagnostics) = compiled {
        for d in &diagnostics {
            eprintln!("{d}");
        }
        std::process::exit(1);
    }
}
