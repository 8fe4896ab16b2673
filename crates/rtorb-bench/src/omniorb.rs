//! The omniORB peers of the comparison: `interop/omniorb`'s Cubit server
//! and its benchmark client (`cubit_bench.cc`), built with the project's
//! Makefile (omniidl, g++, pkg-config) into a cache directory.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The built omniORB programs.
#[derive(Debug, Clone)]
pub(crate) struct OmniPeers {
    /// The Cubit server.
    pub(crate) server: PathBuf,
    /// The benchmark client.
    pub(crate) bench: PathBuf,
}

/// The repository root this binary was built from.
fn repository_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .parent()
        .and_then(Path::parent)
        .unwrap_or(manifest)
        .to_path_buf()
}

fn present(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Builds the omniORB peers (a no-op when `make` finds them up to date)
/// into `RTORB_BENCH_CACHE` (default `target/bench-omniorb` in the
/// repository), or says why they cannot be.
pub(crate) fn build() -> Result<OmniPeers, String> {
    let out = make("bench")?;
    let peers = OmniPeers {
        server: out.join("cubit_server"),
        bench: out.join("cubit_bench"),
    };
    for p in [&peers.server, &peers.bench] {
        if !p.is_file() {
            return Err(format!("make succeeded but {} is missing", p.display()));
        }
    }
    Ok(peers)
}

/// The built omniORB programs of the priority benchmark.
#[derive(Debug, Clone)]
pub(crate) struct PriorityPeers {
    /// The server of the `High` and `Low` objects.
    pub(crate) server: PathBuf,
    /// The client of one high-priority and n low-priority threads.
    pub(crate) client: PathBuf,
}

/// Builds the priority benchmark's omniORB peers as [`build`] does.
pub(crate) fn build_priority() -> Result<PriorityPeers, String> {
    let out = make("priority")?;
    let peers = PriorityPeers {
        server: out.join("priority_server"),
        client: out.join("priority_client"),
    };
    for p in [&peers.server, &peers.client] {
        if !p.is_file() {
            return Err(format!("make succeeded but {} is missing", p.display()));
        }
    }
    Ok(peers)
}

/// Runs the Makefile's `target` into the cache directory; returns it.
fn make(target: &str) -> Result<PathBuf, String> {
    const HINT: &str = "install the Debian packages libomniorb4-dev, omniidl, g++, make and \
                        pkg-config (scripts/install-deps.sh does)";
    let root = repository_root();
    let src = root.join("interop/omniorb");
    if !src.join("Makefile").is_file() {
        return Err(format!(
            "the omniORB peers' sources are not at {} (run rtorb-bench from its repository)",
            src.display()
        ));
    }
    for (tool, args) in [
        ("make", &["--version"][..]),
        ("g++", &["--version"][..]),
        ("omniidl", &["-V"][..]),
    ] {
        if !present(tool, args) {
            return Err(format!("{tool} is not installed: {HINT}"));
        }
    }
    if !present("pkg-config", &["--exists", "omniORB4"]) {
        return Err(format!(
            "omniORB 4's development files are not installed (pkg-config omniORB4): {HINT}"
        ));
    }
    let out = std::env::var_os("RTORB_BENCH_CACHE")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/bench-omniorb"));
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut cmd = if present("flock", &["--version"]) {
        let mut c = Command::new("flock");
        c.arg(out.join(".build.lock")).arg("make");
        c
    } else {
        Command::new("make")
    };
    cmd.arg("-C")
        .arg(&src)
        .arg(format!("OUT={}", out.display()))
        .arg(target);
    let output = cmd
        .output()
        .map_err(|e| format!("cannot run make for the omniORB peers: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "building the omniORB peers failed ({}): {}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(out)
}
