//! `rtorb bench priority`: the priority-inversion benchmark of "Software
//! Architectures for Reducing Priority Inversion and Non-determinism in
//! Real-time Object Request Brokers" (§2) on the Cubit interface.
//!
//! One client process runs a high-priority thread C0 calling the object
//! `High` and n low-priority threads calling `Low`, twoway `cube_octet`,
//! every call at a fixed absolute time ([`schedule`]), the first placed
//! against the kernel's scheduler tick ([`tick`]); the figures of C0
//! and of the low threads ([`stats`]) show how much the low threads delay
//! C0 as n grows. Each configuration ([`peers::Column`]) runs every point
//! against a fresh server:
//!
//! - `rtorb real-time`: `priority-server` and `priority-client` with
//!   the ORB's real-time core: `High` and `Low` in lanes at SCHED_FIFO 90
//!   and 10 with server-declared priorities, reached through the lanes'
//!   own endpoints (the first call to the server's corbaloc is
//!   forwarded there), each client thread on an exclusive connection;
//! - `rtorb conventional`: `priority-server` ([`server`]) and
//!   `priority-client` ([`client`]) as the ORB is without its real-time
//!   features (one server pool, one multiplexed connection);
//! - `omniORB`: `interop/omniorb`'s `priority_server` and
//!   `priority_client`, with the same thread priorities, where omniORB is
//!   installed.
//!
//! Beside them, per rate set, the machine's floor ([`floor`]): C0's slots
//! calling a bare TCP echo, before the points and after. Every process
//! locks its memory; the run holds the CPUs' wake-up latency at 0 if
//! asked to ([`habits`]).
//!
//! The results are a table or JSON
//! ([`report`]), and plots ([`plot`]). With `--flood`, every point runs
//! again under each flood asked for, aimed at `Low`'s own endpoint
//! ([`flood`]).

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::Args;

mod client;
mod config;
mod flood;
mod floor;
mod habits;
mod peers;
mod plot;
mod report;
mod schedule;
mod server;
mod stats;
mod tick;

use config::{Configuration, Policy};
pub(crate) use floor::{EchoArgs, EchoClientArgs, run_echo, run_echo_client};
use peers::{Column, Point, Programs};
use report::{RateInfo, Results};
use schedule::RateSet;

/// The numbers of low-priority threads by default.
const DEFAULT_N: [u32; 7] = [1, 5, 10, 20, 30, 40, 50];
/// The numbers of low-priority threads with `--quick`.
const QUICK_N: [u32; 2] = [1, 2];
/// The length of a point with `--quick`, ms.
const QUICK_DURATION_MS: u64 = 300;

/// Which rate sets to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Rates {
    /// The seed's: C0 at 20 Hz, each low thread at 10 Hz.
    Seed,
    /// C0 at 2000 Hz, each low thread at 1000 Hz.
    Scaled,
    /// Both.
    Both,
}

impl Rates {
    fn sets(self) -> Vec<RateSet> {
        match self {
            Rates::Seed => vec![RateSet::Seed],
            Rates::Scaled => vec![RateSet::Scaled],
            Rates::Both => RateSet::ALL.to_vec(),
        }
    }
}

/// The options of `rtorb bench priority`.
#[derive(Debug, Args)]
pub(crate) struct PriorityArgs {
    /// The numbers of low-priority threads, comma-separated
    /// (default 1,5,10,20,30,40,50; 1,2 with --quick).
    #[arg(short = 'n', value_name = "N,...", value_delimiter = ',',
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    n: Vec<u32>,
    /// The rate sets: the seed's (20 Hz / 10 Hz), the scaled one
    /// (2000 Hz / 1000 Hz), or both.
    #[arg(long, value_enum, default_value_t = Rates::Both)]
    rates: Rates,
    /// The length of each point, ms (default 20000 at the seed's rates,
    /// 5000 at the scaled ones: a full run of both configurations takes
    /// about 6 minutes; 300 with --quick).
    #[arg(long = "duration-ms", value_name = "MS",
          value_parser = clap::value_parser!(u64).range(50..=3_600_000))]
    duration_ms: Option<u64>,
    /// The client threads' scheduling: C0 at SCHED_FIFO 90 and the low
    /// threads at SCHED_FIFO 10 (fifo), or all under SCHED_OTHER (other).
    #[arg(long, value_enum, default_value_t = Policy::Fifo)]
    policy: Policy,
    /// Few points and short ones, to check that the benchmark works.
    #[arg(long)]
    quick: bool,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// Write the plots (SVG and PNG) of mean latency and jitter against n
    /// into this directory.
    #[arg(long, value_name = "DIR")]
    plots: Option<PathBuf>,
    /// Run every point again under each of these floods aimed at the Low
    /// object's own endpoint (the low lane's, in the real-time
    /// configuration): connections, garbage, half-messages,
    /// unread-replies, or all.
    #[arg(long, value_enum, value_name = "KIND,...", value_delimiter = ',')]
    flood: Vec<flood::FloodArg>,
    /// Measure only the machine's floor (C0's slots calling a bare TCP
    /// echo between two processes), no ORB.
    #[arg(long = "floor-only")]
    floor_only: bool,
    /// Do not lock the memory of the clients and servers (mlockall).
    #[arg(long = "no-mlock")]
    no_mlock: bool,
    /// Do not hold the CPUs' wake-up latency at 0 through
    /// /dev/cpu_dma_latency for the run (held by default, as cyclictest
    /// does: see README).
    #[arg(long = "no-pm-qos")]
    no_pm_qos: bool,
    /// Where C0's slots fall against the kernel's scheduler tick: as far
    /// from every tick as C0's period allows (between), a tick this many
    /// µs after one of them (a few µs: inside its call, the worst case),
    /// or wherever each point's start falls (any). Every client of the
    /// run, the floor's included, starts at the same phase.
    #[arg(
        long = "tick-phase",
        value_name = "between|any|MICROS",
        default_value = "between"
    )]
    tick_phase: tick::TickPhase,
}

/// The options of `rtorb bench priority-server`.
#[derive(Debug, Args)]
pub(crate) struct ServerArgs {
    /// Where to listen (`iiop://127.0.0.1:PORT`); may be given several
    /// times (default `iiop://127.0.0.1:0`).
    #[arg(long = "endpoint", value_name = "URL")]
    endpoints: Vec<String>,
    /// The conventional configuration: one pool of server threads, no
    /// lanes, no priorities (today's default).
    #[arg(long, conflicts_with = "real_time")]
    conventional: bool,
    /// The real-time configuration: High in a high lane, Low in a low
    /// lane, server-declared priorities.
    #[arg(long)]
    real_time: bool,
    /// The real-time server's watchdog, ms: past it every thread is put
    /// under SCHED_OTHER (default: an hour).
    #[arg(long = "watchdog-ms", value_name = "MS",
          value_parser = clap::value_parser!(u64).range(1..))]
    watchdog_ms: Option<u64>,
    /// Do not lock the process's memory (mlockall).
    #[arg(long = "no-mlock")]
    no_mlock: bool,
    /// `-ORB` options for the server's ORB, after `--`.
    #[arg(last = true, value_name = "-ORB OPTIONS")]
    orb_options: Vec<String>,
}

/// The options of `rtorb bench priority-client`.
#[derive(Debug, Args)]
pub(crate) struct ClientArgs {
    /// Low-priority threads.
    #[arg(long, default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    lows: u32,
    /// C0's calls per second.
    #[arg(long = "high-hz", default_value_t = 20,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    high_hz: u32,
    /// Each low thread's calls per second.
    #[arg(long = "low-hz", default_value_t = 10,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    low_hz: u32,
    /// The length of the run, ms.
    #[arg(long = "duration-ms", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    duration_ms: u64,
    /// The threads' scheduling (fifo: C0 at SCHED_FIFO 90, the others at
    /// 10; other: SCHED_OTHER).
    #[arg(long, value_enum, default_value_t = Policy::Fifo)]
    policy: Policy,
    /// The conventional configuration: one multiplexed connection for
    /// every thread's calls (today's default).
    #[arg(long, conflicts_with = "real_time")]
    conventional: bool,
    /// The real-time configuration: a connection of its own for each
    /// thread's calls.
    #[arg(long)]
    real_time: bool,
    /// The watchdog's deadline, ms: past it every thread is put under
    /// SCHED_OTHER and the run fails (default: twice the run, and 20 s).
    #[arg(long = "watchdog-ms", value_name = "MS",
          value_parser = clap::value_parser!(u64).range(1..))]
    watchdog_ms: Option<u64>,
    /// Do not lock the process's memory (mlockall).
    #[arg(long = "no-mlock")]
    no_mlock: bool,
    #[command(flatten)]
    slots: schedule::SlotPhase,
    /// The `High` object (`corbaloc::1.2@HOST:PORT/High`, or an IOR).
    high: String,
    /// The `Low` object.
    low: String,
    /// `-ORB` options for the client's ORB, after `--`.
    #[arg(last = true, value_name = "-ORB OPTIONS")]
    orb_options: Vec<String>,
}

fn configuration(real_time: bool) -> Configuration {
    if real_time {
        Configuration::RealTime
    } else {
        Configuration::Conventional
    }
}

/// Runs `rtorb bench priority-server`.
pub(crate) fn run_server(args: &ServerArgs) -> Result<String, String> {
    if !args.no_mlock {
        habits::lock_memory("priority-server");
    }
    server::run(
        configuration(args.real_time),
        &args.endpoints,
        &args.orb_options,
        args.watchdog_ms.map(std::time::Duration::from_millis),
    )
}

/// Runs `rtorb bench priority-client`; its report as one JSON line.
pub(crate) fn run_client(args: &ClientArgs) -> Result<String, String> {
    if !args.no_mlock {
        habits::lock_memory("priority-client");
    }
    let plan = client::ClientPlan {
        high: args.high.clone(),
        low: args.low.clone(),
        lows: args.lows,
        high_hz: args.high_hz,
        low_hz: args.low_hz,
        duration_ms: args.duration_ms,
        policy: args.policy,
        configuration: configuration(args.real_time),
        orb_options: args.orb_options.clone(),
        watchdog: args.watchdog_ms.map(std::time::Duration::from_millis),
        slots: args.slots,
    };
    let report = client::run(&plan)?;
    serde_json::to_string(&report)
        .map(|s| s + "\n")
        .map_err(|e| e.to_string())
}

/// Runs `rtorb bench priority`; returns the table or JSON.
pub(crate) fn run(args: &PriorityArgs) -> Result<String, String> {
    let ns: Vec<u32> = match (&args.n[..], args.quick) {
        _ if args.floor_only => Vec::new(),
        ([], true) => QUICK_N.to_vec(),
        ([], false) => DEFAULT_N.to_vec(),
        (n, _) => n.to_vec(),
    };
    let sets = args.rates.sets();
    let duration = |rates: RateSet| {
        args.duration_ms.unwrap_or(if args.quick {
            QUICK_DURATION_MS
        } else {
            rates.default_duration_ms()
        })
    };
    // Held until the run ends.
    let (habits, _pm_qos) = habits::Habits::start(!args.no_mlock, !args.no_pm_qos);
    let mut notes = Vec::new();
    let mut columns = vec![
        Column::Rtorb(Configuration::RealTime),
        Column::Rtorb(Configuration::Conventional),
    ];
    columns.retain(|_| !args.floor_only);
    let omniorb = match (!args.floor_only).then(super::omni::build_priority) {
        None => None,
        Some(Ok(peers)) => {
            columns.push(Column::Omniorb);
            Some(peers)
        }
        Some(Err(e)) => {
            let note = format!("omniORB column left out: {e}");
            eprintln!("rtorb bench priority: {note}");
            notes.push(note);
            None
        }
    };
    // The ticks of C0's CPU (in the real-time configuration; any CPU's
    // elsewhere, which on most kernels tick together).
    let tick = tick::TickPlan {
        phase: args.tick_phase,
        grid: tick::TickGrid::of_cpu(Configuration::RealTime.high_cpus().last().copied()),
    };
    let programs = Programs {
        exe: std::env::current_exe().map_err(|e| format!("this program's path: {e}"))?,
        omniorb,
        policy: args.policy,
        habits: habits.clone(),
        tick,
    };
    let mut results = Results {
        configurations: columns.iter().map(|c| c.label()).collect(),
        rate_sets: sets
            .iter()
            .map(|r| {
                let info = RateInfo {
                    high_hz: r.high_hz(),
                    low_hz: r.low_hz(),
                    duration_ms: duration(*r),
                };
                (r.name(), info)
            })
            .collect(),
        n: ns.clone(),
        policy: args.policy.name(),
        results: BTreeMap::new(),
        notes,
        flood: None,
        floor: BTreeMap::new(),
        habits,
        tick,
    };
    let floods = flood::Flood::select(&args.flood);
    // The attacker's thousands of connections need descriptors.
    let _limit = (!floods.is_empty()).then(super::overload::DescriptorLimit::raise);
    if !floods.is_empty() {
        results.flood = Some(flood::FloodResults {
            kinds: floods.clone(),
            ..Default::default()
        });
    }
    for rates in &sets {
        let before = floor::measure_noted(&programs, *rates, duration(*rates), &mut results)?;
        for n in &ns {
            for column in &columns {
                let point = Point {
                    rates: *rates,
                    lows: *n,
                    duration_ms: duration(*rates),
                    flood: None,
                };
                for kind in &floods {
                    eprintln!(
                        "rtorb bench priority: {} rates, n = {n}: {}, flood {}",
                        rates.name(),
                        column.label(),
                        kind.name()
                    );
                    let flooded = Point {
                        flood: Some(*kind),
                        ..point
                    };
                    // A configuration that cannot serve under a flood is
                    // that flood's result, not the end of the run.
                    match peers::run_point(&programs, *column, flooded) {
                        Ok((_, under)) => {
                            if let (Some(f), Some(under)) = (&mut results.flood, under) {
                                f.insert(column.label(), *rates, *n, under);
                            }
                        }
                        Err(e) => {
                            eprintln!(
                                "rtorb bench priority: {}, {} rates, n = {n}, flood {}: failed: {e}",
                                column.label(),
                                rates.name(),
                                kind.name()
                            );
                            if let Some(f) = &mut results.flood {
                                f.failed.push(flood::FailedPoint {
                                    flood: *kind,
                                    configuration: column.label(),
                                    rates: rates.name(),
                                    n: *n,
                                    reason: e.trim().to_owned(),
                                });
                            }
                        }
                    }
                }
                eprintln!(
                    "rtorb bench priority: {} rates, n = {n}: {}",
                    rates.name(),
                    column.label()
                );
                let (report, _) = peers::run_point(&programs, *column, point).map_err(|e| {
                    format!("{}, {} rates, n = {n}: {e}", column.label(), rates.name())
                })?;
                if let Some(note) = &report.note {
                    let note = format!(
                        "{}: the client threads ran {}: {note}",
                        column.label(),
                        report.policy
                    );
                    if !results.notes.contains(&note) {
                        results.notes.push(note);
                    }
                }
                results
                    .results
                    .entry(column.label())
                    .or_default()
                    .entry(rates.name())
                    .or_default()
                    .insert(*n, report);
            }
        }
        let after = floor::measure_noted(&programs, *rates, duration(*rates), &mut results)?;
        results
            .floor
            .insert(rates.name(), floor::Floor { before, after });
    }
    let verdicts = flood::judge(&results);
    if let Some(f) = &mut results.flood {
        f.targets = verdicts;
    }
    let mut out = if args.json {
        report::json(&results)?
    } else {
        report::table(&results)
    };
    if let Some(dir) = &args.plots {
        let written = plot::write(&results, dir)?;
        let list: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
        let line = format!("plots: {}", list.join(" "));
        if args.json {
            eprintln!("rtorb bench priority: {line}");
        } else {
            out.push_str(&format!("\n{line}\n"));
        }
    }
    Ok(out)
}
