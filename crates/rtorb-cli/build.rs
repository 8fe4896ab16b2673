//! Compiles the shared Cubit IDL with `rtorb-idl` into `$OUT_DIR` for
//! `rtorb bench`.

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
    println!("cargo:rerun-if-changed={}", cubit.display());
    println!("cargo:rerun-if-env-changed=RTORB_SHARED_DIR");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    if let Err(diagnostics) = rtorb_idl::Config::new().out_dir(&out).compile(&[cubit]) {
        for d in &diagnostics {
            eprintln!("{d}");
        }
        std::process::exit(1);
    }
}
