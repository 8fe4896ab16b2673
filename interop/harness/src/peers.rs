//! Building the omniORB peers and locating the project's files.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Paths of the built omniORB peer programs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PeerPaths {
    /// The omniORB Cubit server (`interop/omniorb/cubit_server.cc`).
    pub cubit_server: PathBuf,
    /// The omniORB Cubit client (`interop/omniorb/cubit_client.cc`).
    pub cubit_client: PathBuf,
    /// The omniORB server of the interop IDL
    /// (`interop/omniorb/interop_server.cc`).
    pub interop_server: PathBuf,
    /// The omniORB client of the interop IDL
    /// (`interop/omniorb/interop_client.cc`).
    pub interop_client: PathBuf,
    /// The omniORB server of the priority benchmark's `High` and `Low`
    /// objects (`interop/omniorb/priority_server.cc`).
    pub priority_server: PathBuf,
    /// The omniORB client of the priority benchmark
    /// (`interop/omniorb/priority_client.cc`).
    pub priority_client: PathBuf,
    /// The directory the peers were built into (`target/interop`).
    pub out_dir: PathBuf,
}

/// The root of the Cargo workspace (the repository root).
pub fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = manifest
        .parent()
        .and_then(Path::parent)
        .unwrap_or(manifest)
        .to_path_buf();
    root.canonicalize().unwrap_or(root)
}

/// The project's Cubit IDL, `idl/cubit.idl` under the workspace root.
pub fn cubit_idl() -> PathBuf {
    workspace_root().join("idl").join("cubit.idl")
}

/// Builds the omniORB peers into `target/interop` under the workspace root
/// and returns their paths.
///
/// The build runs at most once per process; between processes it is
/// serialised with `flock` on a lock file, and `make` makes repeated builds
/// cheap. The error message says what is missing and how to install it, so
/// tests can `expect` on it: a missing omniORB fails a test, it never skips
/// one.
pub fn ensure_peers() -> Result<PeerPaths, String> {
    static PEERS: OnceLock<Result<PeerPaths, String>> = OnceLock::new();
    PEERS.get_or_init(build_peers).clone()
}

fn tool_present(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

fn build_peers() -> Result<PeerPaths, String> {
    const HINT: &str = "run scripts/install-deps.sh (Debian packages libomniorb4-dev omniidl \
                        omniorb omniorb-idl tshark g++ make pkg-config)";
    if !tool_present("make", &["--version"]) {
        return Err(format!("`make` is not installed: {HINT}"));
    }
    if !tool_present("pkg-config", &["--exists", "omniORB4"]) {
        return Err(format!(
            "omniORB 4 development files are not installed (pkg-config omniORB4 failed): {HINT}"
        ));
    }
    if !tool_present("omniidl", &["-V"]) {
        return Err(format!("omniidl is not installed: {HINT}"));
    }
    let root = workspace_root();
    let out_dir = root.join("target").join("interop");
    std::fs::create_dir_all(&out_dir)
        .map_err(|e| format!("cannot create {}: {e}", out_dir.display()))?;
    let src = root.join("interop").join("omniorb");

    let make_args: Vec<String> = vec![
        "-C".into(),
        src.display().to_string(),
        format!("OUT={}", out_dir.display()),
    ];
    let mut cmd = if tool_present("flock", &["--version"]) {
        let mut c = Command::new("flock");
        c.arg(out_dir.join(".build.lock")).arg("make");
        c
    } else {
        Command::new("make")
    };
    cmd.args(&make_args);
    let output = cmd
        .output()
        .map_err(|e| format!("cannot run make for the omniORB peers: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "building the omniORB peers failed ({}):\n{}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let peers = PeerPaths {
        cubit_server: out_dir.join("cubit_server"),
        cubit_client: out_dir.join("cubit_client"),
        interop_server: out_dir.join("interop_server"),
        interop_client: out_dir.join("interop_client"),
        priority_server: out_dir.join("priority_server"),
        priority_client: out_dir.join("priority_client"),
        out_dir,
    };
    for p in [
        &peers.cubit_server,
        &peers.cubit_client,
        &peers.interop_server,
        &peers.interop_client,
        &peers.priority_server,
        &peers.priority_client,
    ] {
        if !p.is_file() {
            return Err(format!("make succeeded but {} is missing", p.display()));
        }
    }
    Ok(peers)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workspace_root_holds_the_workspace_manifest() {
        let root = workspace_root();
        let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("root Cargo.toml");
        assert!(manifest.contains("[workspace]"));
        assert!(root.join("interop/omniorb/Makefile").is_file());
    }
}
