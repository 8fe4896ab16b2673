//! Compiles the shared Cubit IDL and the IDL files under `idl/` with
//! `rtorb-idl` into `$OUT_DIR`.

use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let shared = match std::env::var_os("RTORB_SHARED_DIR") {
        Some(d) => PathBuf::from(d),
        // The repository is cloned with `shared/` beside it; look upwards.
        None => manifest
            .ancestors()
            .map(|a| a.join("shared"))
            .find(|s| s.join("idl/cubit.idl").is_file())
            .unwrap_or_else(|| manifest.join("../../../shared")),
    };
    let cubit = shared.join("idl/cubit.idl");
    let own = manifest.join("idl");
    let files = [
        cubit,
        own.join("everything.idl"),
        own.join("relay.idl"),
        own.join("recursive.idl"),
    ];
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
    }
    println!("cargo:rerun-if-changed={}", own.display());
    println!("cargo:rerun-if-env-changed=RTORB_SHARED_DIR");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    if let Err(diagnostics) = rtorb_idl::Config::new()
        .include_dir(&own)
        .out_dir(&out)
        .compile(&files)
    {
        for d in &diagnostics {
            eprintln!("{d}");
        }
        std::process::exit(1);
    }
}
