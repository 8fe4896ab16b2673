//! The machine's floor beside the ORBs: C0's slots ([`run_slots`]) calling
//! a 48-byte TCP echo over loopback, with no ORB on either side.
//!
//! On a small virtual machine the kernel alone (timer wake-ups, loopback
//! TCP, scheduling of two real-time processes) takes tens of µs per round
//! trip and now and then a few ms, so that even a bare socket misses some
//! of its slots at 2000 Hz. The ORBs' figures mean little without this
//! floor measured in the same run, on the same machine state: the
//! benchmark measures it once per rate set before the points and once
//! after (to see drift).
//!
//! Two processes, as a client and a server are: `rtorb-bench
//! priority-echo` answers every 48-byte message with the same bytes from
//! a thread at SCHED_FIFO 90, and `rtorb-bench priority-echo-client` calls
//! it at C0's slots and rate from a thread at SCHED_FIFO 90
//! (`TCP_NODELAY` on both sides), each under a [`Watchdog`]. Both threads
//! run on the CPUs of the real-time configuration's C0 and high lane
//! ([`Configuration::high_cpus`]), so that the floor is the machine's
//! where that path runs.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::Command;
use std::sync::mpsc;
use std::time::Duration;

use clap::Args;
use rtorb::rt::{MappingKind, Priority, PriorityControl, SchedPolicy, Watchdog, WhenDenied};
use serde::{Deserialize, Serialize};

use super::class_stats::ClassStats;
use super::client::watchdog_deadline;
use super::config::{Configuration, HIGH_FIFO, Policy};
use super::habits::lock_memory;
use super::programs::Programs;
use super::schedule::{self, RateSet, Schedule, SlotPhase, run_slots};
use super::server::DEFAULT_WATCHDOG;
use crate::process::{Proc, run_client};

/// The size of a call and of its reply, bytes: a GIOP request header of
/// `cube_octet` and a little more.
pub(crate) const MESSAGE: usize = 48;

/// Calls before the measured ones.
const WARMUP_CALLS: u64 = 5;

/// How long after the connection is ready the first slot is due, ns.
const START_DELAY_NS: u64 = 20_000_000;

/// A receive timeout, so that an echo that stops answering ends the run.
const CALL_TIMEOUT: Duration = Duration::from_secs(10);

/// The line `priority-echo` prints before its address.
const ADDRESS_PREFIX: &str = "echo ";

/// The label of the floor in the table and the plots.
pub(crate) const LABEL: &str = "machine floor (TCP echo, no ORB)";

/// What the floor's rows of the table are.
pub(crate) const LEGEND: &str = "machine floor (TCP echo, no ORB): C0's slots and rate, each call \
     a 48-byte message echoed over loopback TCP (TCP_NODELAY) between two processes at \
     SCHED_FIFO 90, on the CPU of the real-time configuration's C0; pre: measured before the \
     points, post: after them.";

/// The options of the floor's two processes' measuring thread (the
/// echo's, the caller's).
#[derive(Debug, Args)]
pub(crate) struct EchoThreadArgs {
    /// The thread's scheduling (fifo: SCHED_FIFO 90; other: SCHED_OTHER).
    #[arg(long, value_enum, default_value_t = Policy::Fifo)]
    policy: Policy,
    /// The watchdog's deadline, ms (default: an hour for the echo; twice
    /// the run, and 20 s, for the caller).
    #[arg(long = "watchdog-ms", value_name = "MS",
          value_parser = clap::value_parser!(u64).range(1..))]
    watchdog_ms: Option<u64>,
    /// Do not lock the process's memory.
    #[arg(long = "no-mlock")]
    no_mlock: bool,
    /// The thread's CPUs, comma-separated (default: any).
    #[arg(long, value_delimiter = ',', value_name = "CPU,...")]
    cpus: Vec<usize>,
}

/// The options of `rtorb-bench priority-echo`.
#[derive(Debug, Args)]
pub(crate) struct EchoArgs {
    /// Where to listen.
    #[arg(long, default_value = "127.0.0.1:0", value_name = "HOST:PORT")]
    listen: String,
    #[command(flatten)]
    thread: EchoThreadArgs,
}

/// The options of `rtorb-bench priority-echo-client`.
#[derive(Debug, Args)]
pub(crate) struct EchoClientArgs {
    /// Calls per second.
    #[arg(long, default_value_t = 20,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    hz: u32,
    /// The length of the run, ms.
    #[arg(long = "duration-ms", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    duration_ms: u64,
    #[command(flatten)]
    thread: EchoThreadArgs,
    #[command(flatten)]
    slots: SlotPhase,
    /// The echo's address (`HOST:PORT`).
    address: String,
}

/// What one run of the echo client measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct EchoReport {
    /// The policy the calling thread ran under.
    pub(crate) policy: String,
    /// Why it did not run under SCHED_FIFO, if it did not.
    pub(crate) note: Option<String>,
    /// The start of its slots, ns on `CLOCK_MONOTONIC`.
    pub(crate) start_ns: u64,
    /// Its figures.
    #[serde(flatten)]
    pub(crate) stats: ClassStats,
}

/// The floor of one rate set: measured before the points and after.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Floor {
    /// Before the points.
    pub(crate) before: EchoReport,
    /// After them.
    pub(crate) after: EchoReport,
}

impl Floor {
    /// The mean of the two runs' values of `metric`.
    pub(crate) fn average(&self, metric: impl Fn(&ClassStats) -> f64) -> f64 {
        (metric(&self.before.stats) + metric(&self.after.stats)) / 2.0
    }
}

/// Keeps the calling thread on `cpus` (unless empty), then puts it at
/// SCHED_FIFO 90 when `policy` asks for it; `Some(why)` when it runs
/// under SCHED_OTHER.
fn take_priority(policy: Policy, cpus: &[usize], who: &str) -> Result<Option<String>, String> {
    if !cpus.is_empty() {
        rtorb::rt::set_thread_affinity(cpus).map_err(|e| format!("{who}: {e}"))?;
    }
    if policy == Policy::Other {
        return Ok(Some("asked for (--policy other)".to_owned()));
    }
    let control = PriorityControl::new(
        SchedPolicy::Fifo,
        MappingKind::Direct,
        WhenDenied::RunAtOther,
    );
    let priority = Priority::new(HIGH_FIFO).map_err(|e| e.to_string())?;
    match control.set_thread_priority(priority) {
        Ok(Some(_)) => Ok(None),
        Ok(None) => {
            eprintln!(
                "rtorb-bench {who}: WARNING: this process may not use SCHED_FIFO: \
                 it runs under SCHED_OTHER"
            );
            Ok(Some(
                "SCHED_FIFO is not permitted for this process".to_owned(),
            ))
        }
        Err(e) => Err(e.to_string()),
    }
}

/// Answers each [`MESSAGE`] on `stream` with the same bytes until the
/// peer closes.
fn echo(mut stream: TcpStream) {
    let _ = stream.set_nodelay(true);
    let mut buf = [0u8; MESSAGE];
    while stream.read_exact(&mut buf).is_ok() {
        if stream.write_all(&buf).is_err() {
            break;
        }
    }
}

/// Runs `rtorb-bench priority-echo`: prints `echo ADDRESS` and `ready`,
/// serves one connection after another from a thread at SCHED_FIFO 90
/// until its standard input closes.
pub(crate) fn run_echo(args: &EchoArgs) -> Result<String, String> {
    if !args.thread.no_mlock {
        lock_memory("priority-echo");
    }
    let listener = TcpListener::bind(&args.listen).map_err(|e| format!("{}: {e}", args.listen))?;
    let address = listener.local_addr().map_err(|e| e.to_string())?;
    let watchdog = Watchdog::arm(
        "the priority benchmark's echo",
        args.thread
            .watchdog_ms
            .map_or(DEFAULT_WATCHDOG, Duration::from_millis),
    );
    let (ready, started) = mpsc::channel();
    let (policy, cpus) = (args.thread.policy, args.thread.cpus.clone());
    std::thread::Builder::new()
        .name("echo".into())
        .spawn(move || {
            let _ = ready.send(take_priority(policy, &cpus, "priority-echo"));
            // A failed accept ends the thread rather than spin at
            // SCHED_FIFO 90; the client then finds no echo.
            for stream in listener.incoming().map_while(Result::ok) {
                echo(stream);
            }
        })
        .map_err(|e| format!("cannot start the echo thread: {e}"))?;
    started
        .recv()
        .map_err(|_| "the echo thread ended".to_owned())??;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{ADDRESS_PREFIX}{address}\nready")
        .and_then(|()| out.flush())
        .map_err(|e| e.to_string())?;
    drop(out);
    let mut sink = [0u8; 256];
    let mut stdin = std::io::stdin().lock();
    while matches!(stdin.read(&mut sink), Ok(n) if n > 0) {}
    watchdog.disarm().map_err(|e| e.to_string())?;
    // The echo thread is left waiting for a connection: the process ends.
    Ok("shut down\n".to_owned())
}

/// One call: `MESSAGE` bytes marked with `k`, and their echo checked.
fn call(stream: &mut TcpStream, k: u64) -> Result<(), String> {
    let mut msg = [0u8; MESSAGE];
    msg[..8].copy_from_slice(&k.to_le_bytes());
    stream.write_all(&msg).map_err(|e| format!("send: {e}"))?;
    let mut reply = [0u8; MESSAGE];
    stream
        .read_exact(&mut reply)
        .map_err(|e| format!("receive: {e}"))?;
    if reply == msg {
        Ok(())
    } else {
        Err(format!("call {k}: the echo differs"))
    }
}

/// Runs `rtorb-bench priority-echo-client`; its report as one JSON line.
pub(crate) fn run_echo_client(args: &EchoClientArgs) -> Result<String, String> {
    if !args.thread.no_mlock {
        lock_memory("priority-echo-client");
    }
    let mut stream =
        TcpStream::connect(&args.address).map_err(|e| format!("{}: {e}", args.address))?;
    stream
        .set_nodelay(true)
        .and_then(|()| stream.set_read_timeout(Some(CALL_TIMEOUT)))
        .map_err(|e| e.to_string())?;
    let watchdog = Watchdog::arm(
        format!("the echo client ({} Hz, {} ms)", args.hz, args.duration_ms),
        args.thread.watchdog_ms.map_or_else(
            || watchdog_deadline(args.duration_ms),
            Duration::from_millis,
        ),
    );
    let (policy, cpus) = (args.thread.policy, args.thread.cpus.clone());
    let (hz, duration_ms, slots) = (args.hz, args.duration_ms, args.slots);
    // A thread of its own, as C0 has, so that the main thread keeps its
    // priority.
    let measured = std::thread::Builder::new()
        .name("C0".into())
        .spawn(move || {
            let note = take_priority(policy, &cpus, "priority-echo-client")?;
            for k in 0..WARMUP_CALLS {
                call(&mut stream, k).map_err(|e| format!("warm-up: {e}"))?;
            }
            let schedule = Schedule {
                start_ns: slots.start_after(schedule::now_ns() + START_DELAY_NS),
                period_ns: schedule::period_ns(hz),
                count: schedule::slots(hz, duration_ms),
            };
            let log = run_slots(&schedule, schedule::now_ns, schedule::sleep_until, |k| {
                call(&mut stream, k).map_err(|e| format!("slot {k}: {e}"))
            })?;
            Ok::<_, String>((note, schedule, log))
        })
        .map_err(|e| format!("cannot start the calling thread: {e}"))?
        .join()
        .unwrap_or_else(|_| Err("the calling thread panicked".to_owned()));
    watchdog.disarm().map_err(|e| e.to_string())?;
    let (note, schedule, log) = measured?;
    let report = EchoReport {
        policy: if note.is_some() {
            "SCHED_OTHER"
        } else {
            "SCHED_FIFO"
        }
        .to_owned(),
        note,
        start_ns: schedule.start_ns,
        stats: ClassStats::of(1, schedule.count, log.missed, log.latencies_ns, None)
            .with_late_wakeups(log.missed_late_wakeup),
    };
    serde_json::to_string(&report)
        .map(|s| s + "\n")
        .map_err(|e| e.to_string())
}

/// The CPUs of the floor's echo and calling threads, comma-separated: those
/// of the real-time configuration's C0 and high lane, so that the floor is
/// measured where its high-priority path runs (empty: any CPU).
fn floor_cpus() -> String {
    let cpus = Configuration::RealTime.high_cpus();
    cpus.iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// Measures the floor once at `rates`' C0 rate for `duration_ms`: a fresh
/// echo process and a fresh client process.
pub(crate) fn measure(
    programs: &Programs,
    rates: RateSet,
    duration_ms: u64,
) -> Result<EchoReport, String> {
    let limit = watchdog_deadline(duration_ms) + Duration::from_secs(30);
    let cpus = floor_cpus();
    let placed: &[&str] = if cpus.is_empty() {
        &[]
    } else {
        &["--cpus", &cpus]
    };
    let mut cmd = Command::new(&programs.exe);
    cmd.args(["priority-echo", "--policy", programs.policy.name()])
        .args(placed)
        .args(["--watchdog-ms", &(2 * limit).as_millis().to_string()])
        .args(programs.habits.child_args());
    let mut echo = Proc::spawn_held(cmd, "rtorb-bench priority-echo")?;
    let mut address = None;
    echo.ready(Duration::from_secs(30), |line| {
        if let Some(a) = line.strip_prefix(ADDRESS_PREFIX) {
            address = Some(a.to_owned());
        }
    })?;
    let address = address.ok_or("the echo printed no address")?;
    let slots = programs.tick.slots(rates);
    let mut c = Command::new(&programs.exe);
    c.args(["priority-echo-client"])
        .args(["--hz", &rates.high_hz().to_string()])
        .args(["--duration-ms", &duration_ms.to_string()])
        .args(["--policy", programs.policy.name()])
        .args(placed)
        .args(programs.habits.child_args())
        .args(slots.args())
        .arg(&address);
    let output = run_client(c, "rtorb-bench priority-echo-client", limit)?;
    let line = output.lines().last().unwrap_or_default();
    let report: EchoReport = serde_json::from_str(line)
        .map_err(|e| format!("the echo client's report: {e}: {line:?}"))?;
    slots.check("the echo client", report.start_ns)?;
    echo.finish(Duration::from_secs(20))?;
    Ok(report)
}

/// [`measure`], saying so on standard error, its scheduling note added
/// to `notes` (once).
pub(crate) fn measure_noted(
    programs: &Programs,
    rates: RateSet,
    duration_ms: u64,
    notes: &mut Vec<String>,
) -> Result<EchoReport, String> {
    eprintln!("rtorb-bench priority: {} rates: {LABEL}", rates.name());
    let report = measure(programs, rates, duration_ms)
        .map_err(|e| format!("{LABEL}, {} rates: {e}", rates.name()))?;
    if let Some(note) = &report.note {
        let note = format!("{LABEL}: the calling thread ran {}: {note}", report.policy);
        if !notes.contains(&note) {
            notes.push(note);
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_echo_answers_with_the_same_bytes() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap();
        let server = std::thread::spawn(move || echo(listener.accept().unwrap().0));
        let mut stream = TcpStream::connect(address).unwrap();
        for k in 0..3 {
            call(&mut stream, k).unwrap();
        }
        drop(stream);
        server.join().unwrap();
    }

    #[test]
    fn a_report_reads_back_flat() {
        let report = EchoReport {
            policy: "SCHED_FIFO".to_owned(),
            note: None,
            start_ns: 20_000_000,
            stats: ClassStats::of(1, 3, 0, vec![1000, 2000, 3000], None),
        };
        let text = serde_json::to_string(&report).unwrap();
        assert!(text.contains("\"mean_us\":2.0"), "{text}");
        assert_eq!(serde_json::from_str::<EchoReport>(&text).unwrap(), report);
        let floor = Floor {
            before: report.clone(),
            after: EchoReport {
                stats: ClassStats::of(1, 3, 0, vec![3000, 4000, 5000], None),
                ..report
            },
        };
        assert_eq!(floor.average(|s| s.mean_us), 3.0);
    }
}
