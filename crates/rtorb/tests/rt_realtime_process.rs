//! What an ORB sets up for its real-time process by configuration: its
//! memory locked (`-ORBLockMemory yes`) and the CPUs' wake-up latency
//! bounded while it runs (`-ORBCpuLatency`), and where the system refuses
//! them, one warning each and an ORB that serves all the same.
//!
//! The privileged test needs root (CI runs as root) and fails saying so
//! otherwise; the other gives its privileges up in a child process.

use std::io::Read as _;
use std::time::Duration;

use rtorb::orb::Orb;
use rtorb::rt::CPU_DMA_LATENCY;
use rtorb_test_support::cubit::{self, Cubit};
use rtorb_test_support::log::capture;
use rtorb_test_support::privilege::without_priority_privilege;
use rtorb_test_support::{client, server};
use rustix::process::{Resource, Rlimit, setrlimit};

/// The wake-up latency bound every CPU has now, µs: the device reads back
/// the smallest bound any process holds (a large default when none does).
fn cpu_latency_now() -> i32 {
    let mut value = [0u8; 4];
    std::fs::File::open(CPU_DMA_LATENCY)
        .and_then(|mut f| f.read_exact(&mut value))
        .unwrap_or_else(|e| panic!("{CPU_DMA_LATENCY}: {e}"));
    i32::from_ne_bytes(value)
}

/// How many descriptors of this process have the PM QoS device open.
fn latency_devices_open() -> usize {
    std::fs::read_dir("/proc/self/fd")
        .unwrap()
        .filter_map(|e| std::fs::read_link(e.ok()?.path()).ok())
        .filter(|target| target.as_os_str() == CPU_DMA_LATENCY)
        .count()
}

/// The process's locked memory, kB (`VmLck` of /proc/self/status).
fn locked_kb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmLck:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmLck in /proc/self/status")
}

/// A server with a Cubit and a client that calls it once.
fn serve_and_call(server: &Orb) {
    let ior = cubit::serve(server);
    let client = client::orb();
    let cubit: Cubit = client.string_to_object(&ior).unwrap().unchecked_narrow();
    assert_eq!(cubit.cube_octet(3).unwrap(), 27);
}

#[test]
fn an_orb_locks_its_memory_and_bounds_the_cpus_wake_up_latency_while_it_runs() {
    assert!(
        std::fs::File::options()
            .write(true)
            .open(CPU_DMA_LATENCY)
            .is_ok(),
        "this test needs write access to {CPU_DMA_LATENCY}: run it as root"
    );
    // Another process may hold a bound of its own: the device then reads
    // the smaller of the two.
    let before = cpu_latency_now();
    assert_eq!(latency_devices_open(), 0);
    let (orb, _) = Orb::init([
        "server",
        "-ORBListenEndpoints",
        "iiop://127.0.0.1:0",
        "-ORBLockMemory",
        "yes",
        "-ORBCpuLatency",
        "7",
    ])
    .unwrap();
    assert_eq!(orb.config().cpu_latency, Some(Duration::from_micros(7)));
    assert_eq!(latency_devices_open(), 1);
    assert_eq!(cpu_latency_now(), before.min(7));
    assert_eq!(orb.cpu_latency_bound(), Some(Duration::from_micros(7)));
    assert!(locked_kb() > 0, "no memory locked");
    serve_and_call(&orb);
    orb.shutdown();
    assert_eq!(latency_devices_open(), 0, "the bound outlived the ORB");
    assert_eq!(orb.cpu_latency_bound(), None);
}

#[test]
fn refused_settings_are_one_warning_each_and_the_orb_serves() {
    without_priority_privilege(
        "refused_settings_are_one_warning_each_and_the_orb_serves",
        || {
            // No locked memory allowed, nor (as nobody) the device.
            let none = Rlimit {
                current: Some(0),
                maximum: Some(0),
            };
            setrlimit(Resource::Memlock, none).unwrap();
            let (_, lines) = capture(|| {
                for _ in 0..2 {
                    let orb = server::builder()
                        .lock_memory(true)
                        .cpu_latency(Some(Duration::ZERO))
                        .build()
                        .unwrap();
                    serve_and_call(&orb);
                    assert_eq!(orb.cpu_latency_bound(), None);
                }
            });
            let warnings: Vec<&str> = lines
                .iter()
                .filter(|l| l.level == tracing::Level::WARN)
                .map(|l| l.message.as_str())
                .collect();
            assert_eq!(warnings.len(), 2, "{warnings:?}");
            assert!(
                warnings[0].starts_with("cannot lock the process's memory (mlockall: ")
                    && warnings[0].ends_with(": the ORB runs on without it"),
                "{warnings:?}"
            );
            assert!(
                warnings[1].starts_with(&format!(
                    "cannot bound the CPUs' wake-up latency ({CPU_DMA_LATENCY}: "
                )),
                "{warnings:?}"
            );
            assert_eq!(locked_kb(), 0);
        },
    );
}
