//! What a real-time server sets up for its process: the ORB locks its
//! process's memory when it starts and bounds the CPUs' wake-up latency
//! while it runs, so that no request waits for a page to be read back in
//! or for an idle CPU to leave a deep sleep.
//!
//! ```text
//! cargo run -p rtorb-examples --example rt_realtime_process
//! cargo run -p rtorb-examples --example rt_realtime_process -- -ORBCpuLatency 10
//! ```
//!
//! Both need privilege (root, or CAP_IPC_LOCK and write access to
//! /dev/cpu_dma_latency); without it the ORB says so once per setting and
//! serves all the same.

use std::time::Duration;

use rtorb::orb::{Orb, OrbConfig};

/// The process's locked memory, kB, as the kernel counts it.
fn locked_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmLck:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

fn main() -> std::process::ExitCode {
    rtorb_examples::report("rt_realtime_process", run)
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    // The process's real-time settings, which the command line's -ORB options (or a
    // configuration file's LockMemory / CpuLatency lines) may change.
    let mut config = OrbConfig::from_env()?.0;
    config.lock_memory = true;
    if !std::env::args().any(|a| a.eq_ignore_ascii_case("-ORBCpuLatency")) {
        config.cpu_latency = Some(Duration::ZERO);
    }
    let orb = Orb::builder_with(config)
        .listen("iiop://127.0.0.1:0")
        .build()?;
    // Nothing locked: the system refused (the ORB's `warn` line says why,
    // where the program logs).
    println!(
        "memory locked: {}",
        match locked_kb() {
            Some(0) => "none (not permitted here)".to_owned(),
            Some(k) => format!("{k} kB"),
            None => "? (no /proc/self/status)".to_owned(),
        }
    );
    println!(
        "wake-up latency bound held: {}",
        orb.cpu_latency_bound().map_or_else(
            || "none (not permitted here)".to_owned(),
            |d| format!("{} µs", d.as_micros())
        )
    );
    println!("serving at {}", orb.endpoints()[0]);
    orb.shutdown();
    println!("shut down: the bound is released");
    Ok(())
}
