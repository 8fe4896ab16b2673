//! `rtorb-bench priority`: the priority-inversion benchmark of "Software
//! Architectures for Reducing Priority Inversion and Non-determinism in
//! Real-time Object Request Brokers" (§2) on the Cubit interface.
//!
//! One client process runs a high-priority thread C0 calling the object
//! `High` and n low-priority threads calling `Low`, twoway `cube_octet`,
//! every call at a fixed absolute time ([`schedule`]), the first placed
//! against the kernel's scheduler tick ([`tick`]); the figures of C0
//! and of the low threads ([`class_stats`]) show how much the low threads delay
//! C0 as n grows. Each configuration ([`peers::Column`]) runs every point
//! against a fresh server ([`peers`], [`programs`]):
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
//! The results ([`results`]) are a table or JSON ([`report`]), and plots
//! ([`plot`]). With `--flood`, every point runs again under each flood
//! asked for, aimed at `Low`'s own endpoint ([`flood`]), and the results
//! say whether C0's targets hold under each ([`targets`]). The options of
//! the commands are in [`args`].

use std::collections::BTreeMap;

mod args;
mod class_stats;
mod client;
mod config;
mod flood;
mod floor;
mod habits;
mod peers;
mod plot;
mod programs;
mod report;
mod results;
mod schedule;
mod server;
mod targets;
mod tick;

pub(crate) use args::{ClientArgs, PriorityArgs, ServerArgs};
use config::Configuration;
pub(crate) use floor::{EchoArgs, EchoClientArgs, run_echo, run_echo_client};
use habits::Habits;
use peers::{Column, Point};
use programs::Programs;
use results::{RateInfo, Results};
use schedule::RateSet;

/// The numbers of low-priority threads by default.
const DEFAULT_N: [u32; 7] = [1, 5, 10, 20, 30, 40, 50];
/// The numbers of low-priority threads with `--quick`.
const QUICK_N: [u32; 2] = [1, 2];
/// The length of a point with `--quick`, ms.
const QUICK_DURATION_MS: u64 = 300;

fn configuration(real_time: bool) -> Configuration {
    if real_time {
        Configuration::RealTime
    } else {
        Configuration::Conventional
    }
}

/// Runs `rtorb-bench priority-server`.
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

/// Runs `rtorb-bench priority-client`; its report as one JSON line.
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

/// Runs `rtorb-bench priority`; returns the table or JSON.
pub(crate) fn run(args: &PriorityArgs) -> Result<String, String> {
    let ns: Vec<u32> = match (&args.n[..], args.quick) {
        _ if args.floor_only => Vec::new(),
        ([], true) => QUICK_N.to_vec(),
        ([], false) => DEFAULT_N.to_vec(),
        (n, _) => n.to_vec(),
    };
    let sets = args.rates.sets();
    // Held until the run ends.
    let (habits, _pm_qos) = Habits::start(!args.no_mlock, !args.no_pm_qos);
    let mut notes = Vec::new();
    let (columns, omniorb) = columns(args, &mut notes);
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
                    duration_ms: duration_ms(args, *r),
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
    let _limit = (!floods.is_empty()).then(crate::attack::DescriptorLimit::raise);
    if !floods.is_empty() {
        results.flood = Some(flood::FloodResults {
            kinds: floods.clone(),
            ..Default::default()
        });
    }
    for rates in &sets {
        let duration = duration_ms(args, *rates);
        let before = floor::measure_noted(&programs, *rates, duration, &mut results.notes)?;
        for n in &ns {
            for column in &columns {
                let point = Point {
                    rates: *rates,
                    lows: *n,
                    duration_ms: duration,
                    flood: None,
                };
                for kind in &floods {
                    run_flooded(&programs, *column, point, *kind, &mut results);
                }
                run_unflooded(&programs, *column, point, &mut results)?;
            }
        }
        let after = floor::measure_noted(&programs, *rates, duration, &mut results.notes)?;
        results
            .floor
            .insert(rates.name(), floor::Floor { before, after });
    }
    let verdicts = targets::judge(&results);
    if let Some(f) = &mut results.flood {
        f.targets = verdicts;
    }
    output(args, &results)
}

/// The length of each point at `rates`, ms.
fn duration_ms(args: &PriorityArgs, rates: RateSet) -> u64 {
    args.duration_ms.unwrap_or(if args.quick {
        QUICK_DURATION_MS
    } else {
        rates.default_duration_ms()
    })
}

/// The configurations of the run (none with `--floor-only`), and
/// omniORB's programs where they can be built; why not is a note.
fn columns(
    args: &PriorityArgs,
    notes: &mut Vec<String>,
) -> (Vec<Column>, Option<crate::omniorb::PriorityPeers>) {
    if args.floor_only {
        return (Vec::new(), None);
    }
    let mut columns = vec![
        Column::Rtorb(Configuration::RealTime),
        Column::Rtorb(Configuration::Conventional),
    ];
    match crate::omniorb::build_priority() {
        Ok(peers) => {
            columns.push(Column::Omniorb);
            (columns, Some(peers))
        }
        Err(e) => {
            let note = format!("omniORB column left out: {e}");
            eprintln!("rtorb-bench priority: {note}");
            notes.push(note);
            (columns, None)
        }
    }
}

/// Runs `point` of `column` under the flood `kind`; a configuration that
/// cannot serve under a flood is that flood's result, not the end of the
/// run.
fn run_flooded(
    programs: &Programs,
    column: Column,
    point: Point,
    kind: flood::Flood,
    results: &mut Results,
) {
    let (rates, n) = (point.rates, point.lows);
    eprintln!(
        "rtorb-bench priority: {} rates, n = {n}: {}, flood {}",
        rates.name(),
        column.label(),
        kind.name()
    );
    let flooded = Point {
        flood: Some(kind),
        ..point
    };
    match peers::run_point(programs, column, flooded) {
        Ok((_, under)) => {
            if let (Some(f), Some(under)) = (&mut results.flood, under) {
                f.insert(column.label(), rates, n, under);
            }
        }
        Err(e) => {
            eprintln!(
                "rtorb-bench priority: {}, {} rates, n = {n}, flood {}: failed: {e}",
                column.label(),
                rates.name(),
                kind.name()
            );
            if let Some(f) = &mut results.flood {
                f.failed.push(flood::FailedPoint {
                    flood: kind,
                    configuration: column.label(),
                    rates: rates.name(),
                    n,
                    reason: e.trim().to_owned(),
                });
            }
        }
    }
}

/// Runs `point` of `column` and files its report, its scheduling note
/// among the notes.
fn run_unflooded(
    programs: &Programs,
    column: Column,
    point: Point,
    results: &mut Results,
) -> Result<(), String> {
    let (rates, n) = (point.rates, point.lows);
    eprintln!(
        "rtorb-bench priority: {} rates, n = {n}: {}",
        rates.name(),
        column.label()
    );
    let (report, _) = peers::run_point(programs, column, point)
        .map_err(|e| format!("{}, {} rates, n = {n}: {e}", column.label(), rates.name()))?;
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
        .insert(n, report);
    Ok(())
}

/// The table or JSON of `results`, the plots written if asked for.
fn output(args: &PriorityArgs, results: &Results) -> Result<String, String> {
    let mut out = if args.json {
        report::json(results)?
    } else {
        report::table(results)
    };
    if let Some(dir) = &args.plots {
        let written = plot::write(results, dir)?;
        let list: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
        let line = format!("plots: {}", list.join(" "));
        if args.json {
            eprintln!("rtorb-bench priority: {line}");
        } else {
            out.push_str(&format!("\n{line}\n"));
        }
    }
    Ok(out)
}
