//! Wrappers for omniORB's IOR tools, `catior` and `genior`.

use std::process::Command;

fn run(program: &str, args: &[&str]) -> Result<String, String> {
    let output = Command::new(program).args(args).output().map_err(|e| {
        format!("cannot run {program}: {e} (install the omniorb package: scripts/install-deps.sh)")
    })?;
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    // catior exits 0 even on some errors; treat error text as failure too.
    if !output.status.success() || stdout.trim().is_empty() {
        return Err(format!(
            "{program} {args:?} failed ({}): {stdout}{stderr}",
            output.status
        ));
    }
    Ok(stdout)
}

/// omniORB's textual dump of a stringified IOR (`catior IOR`).
pub fn catior(ior: &str) -> Result<String, String> {
    run("catior", &[ior])
}

/// `catior` with extra flags: `-x` prints object keys in hex, `-o` prints
/// omniORB-specific details.
pub fn catior_with(flags: &[&str], ior: &str) -> Result<String, String> {
    let mut args: Vec<&str> = flags.to_vec();
    args.push(ior);
    run("catior", &args)
}

/// A stringified IOR made by omniORB's `genior`: one IIOP profile for
/// `host:port` with repository id `type_id` and object key `key` (as text,
/// or as hex digits when `key_is_hex`; omniORB's default key when `None`).
pub fn genior(
    type_id: &str,
    host: &str,
    port: u16,
    key: Option<&str>,
    key_is_hex: bool,
) -> Result<String, String> {
    let port = port.to_string();
    let mut args: Vec<&str> = Vec::new();
    if key_is_hex {
        args.push("-x");
    }
    args.extend([type_id, host, port.as_str()]);
    if let Some(k) = key {
        args.push(k);
    }
    let out = run("genior", &args)?;
    out.lines()
        .map(str::trim)
        .find(|l| l.starts_with("IOR:"))
        .map(str::to_owned)
        .ok_or_else(|| format!("genior printed no IOR: {out}"))
}
