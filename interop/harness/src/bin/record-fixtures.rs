//! Records the omniORB fixtures: GIOP captures of the Cubit client and
//! server for every GIOP version (with and without fragments), and IORs made
//! by omniORB with their `catior` dumps.
//!
//! Usage: `cargo run -p rtorb-interop --bin record-fixtures [-- OUT_DIR]`
//! (default `interop/fixtures/omniorb-4.2.5`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use rtorb_interop::fixtures::{capture_sets, omniorb_fixtures_dir, write_capture};
use rtorb_interop::omni_tools::catior_with;
use rtorb_interop::{capture_cubit, catior, ensure_peers, genior, start_cubit_server};

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

fn record_ior(dir: &Path, name: &str, ior: &str, note: &str) -> Result<(), String> {
    write(&dir.join(format!("{name}.ior")), &format!("{ior}\n"))?;
    let dump = catior(ior)?;
    let dump_hex = catior_with(&["-x"], ior)?;
    write(
        &dir.join(format!("{name}.catior.txt")),
        &format!("# {note}\n# catior {name}.ior\n{dump}# catior -x {name}.ior\n{dump_hex}"),
    )
}

fn record_iors(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let peers = ensure_peers()?;
    let timeout = Duration::from_secs(20);

    let servers: [(&str, Vec<String>, &str); 3] = [
        (
            "cubit_server",
            vec![],
            "cubit_server -ORBendPoint giop:tcp:127.0.0.1:PORT",
        ),
        (
            "cubit_server-giop10",
            vec!["-ORBmaxGIOPVersion".into(), "1.0".into()],
            "cubit_server -ORBendPoint giop:tcp:127.0.0.1:PORT -ORBmaxGIOPVersion 1.0",
        ),
        (
            "cubit_server-two-endpoints",
            vec!["-ORBendPoint".into(), "giop:tcp:localhost:0".into()],
            "cubit_server -ORBendPoint giop:tcp:127.0.0.1:PORT -ORBendPoint giop:tcp:localhost:0",
        ),
    ];
    for (name, args, note) in servers {
        let server = start_cubit_server(&peers, &args, timeout)?;
        let ior = server.ior.clone();
        drop(server);
        record_ior(dir, name, &ior, &format!("printed by {note}"))?;
    }

    let genior_cases: [(&str, &str, &str, u16, &str, bool); 3] = [
        (
            "genior-cubit",
            "IDL:Cubit:1.0",
            "127.0.0.1",
            2809,
            "Cubit",
            false,
        ),
        (
            "genior-naming-hexkey",
            "IDL:omg.org/CosNaming/NamingContext:1.0",
            "naming.example.org",
            12345,
            "0x00010203fffe",
            true,
        ),
        ("genior-ipv6", "IDL:Cubit:1.0", "::1", 65535, "Cubit", false),
    ];
    for (name, type_id, host, port, key, is_hex) in genior_cases {
        let ior = genior(type_id, host, port, Some(key), is_hex)?;
        let flag = if is_hex { "-x " } else { "" };
        record_ior(
            dir,
            name,
            &ior,
            &format!("genior {flag}{type_id} {host} {port} {key}"),
        )?;
    }
    Ok(())
}

fn run(out: &Path) -> Result<(), String> {
    for set in capture_sets() {
        let capture = capture_cubit(set.version, &set.options)?;
        let dir = out.join(set.dir_name);
        write_capture(&dir, &capture)?;
        println!(
            "{}: {} messages ({})",
            dir.display(),
            capture.exchange.len(),
            capture.client_command
        );
    }
    record_iors(&out.join("iors"))?;
    println!("{}: IORs", out.join("iors").display());
    Ok(())
}

fn main() -> ExitCode {
    let out = std::env::args_os()
        .nth(1)
        .map_or_else(omniorb_fixtures_dir, PathBuf::from);
    match run(&out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("record-fixtures: {e}");
            ExitCode::FAILURE
        }
    }
}
