//! `rtorb-bench priority-client`: one high-priority thread C0 calling the
//! `High` object and n low-priority threads calling `Low`, each with its
//! own object reference, every call at its slot (see [`super::schedule`]);
//! prints one JSON object with the figures of C0 and of the low threads.
//!
//! The threads take their priorities through
//! [`rtorb::rt::PriorityControl`] (SCHED_FIFO, direct mapping: C0 at 90,
//! the low threads at 10); a [`Watchdog`] guards the whole run.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Barrier};
use std::time::Duration;

use rtorb::orb::Orb;
use rtorb::rt::{MappingKind, Priority, PriorityControl, SchedPolicy, Watchdog, WhenDenied};
use serde::{Deserialize, Serialize};

use super::class_stats::ClassStats;
use super::config::{Configuration, HIGH_FIFO, LOW_FIFO, Policy};
use super::schedule::{self, Schedule, SlotLog, SlotPhase};
use crate::cubit_idl::Cubit;

/// Calls each thread makes before the measured run (connecting, warming
/// caches).
const WARMUP_CALLS: u64 = 5;

/// How long after every thread is ready the first slot is due, ns.
const START_DELAY_NS: u64 = 20_000_000;

/// A round-trip timeout for every call, so that a server that stops
/// answering ends the run instead of holding it.
const CALL_TIMEOUT: Duration = Duration::from_secs(10);

/// What `priority-client` is asked to do.
#[derive(Debug, Clone)]
pub(crate) struct ClientPlan {
    /// The `High` object.
    pub(crate) high: String,
    /// The `Low` object.
    pub(crate) low: String,
    /// Low-priority threads.
    pub(crate) lows: u32,
    /// C0's rate, Hz.
    pub(crate) high_hz: u32,
    /// Each low thread's rate, Hz.
    pub(crate) low_hz: u32,
    /// The run's length, ms.
    pub(crate) duration_ms: u64,
    /// The threads' scheduling.
    pub(crate) policy: Policy,
    /// The ORB's configuration.
    pub(crate) configuration: Configuration,
    /// `-ORB` options for the client's ORB.
    pub(crate) orb_options: Vec<String>,
    /// The watchdog's deadline (`None`: [`watchdog_deadline`]).
    pub(crate) watchdog: Option<Duration>,
    /// Where the common start of the slots may fall.
    pub(crate) slots: SlotPhase,
}

/// What one client run measured: the JSON line `priority-client` (and
/// omniORB's `priority_client`) prints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct ClientReport {
    /// The client's ORB.
    pub(crate) orb: String,
    /// The policy the threads ran under (`SCHED_FIFO`, or `SCHED_OTHER`
    /// where asked for or where the system refused SCHED_FIFO).
    pub(crate) policy: String,
    /// Why the threads did not run under SCHED_FIFO, if they did not.
    #[serde(default)]
    pub(crate) note: Option<String>,
    /// The common start of the slots, ns on `CLOCK_MONOTONIC`.
    pub(crate) start_ns: u64,
    /// C0.
    pub(crate) high: ClassStats,
    /// The low threads together.
    pub(crate) low: ClassStats,
}

/// What one thread brought back.
struct ThreadResult {
    log: SlotLog,
    slots: u64,
    locks: Option<u64>,
}

/// The watchdog's deadline for a run of `duration_ms`: the run, the
/// longest a last call may take, and as long again as the run.
pub(crate) fn watchdog_deadline(duration_ms: u64) -> Duration {
    Duration::from_millis(duration_ms.saturating_mul(2)) + CALL_TIMEOUT + Duration::from_secs(10)
}

/// Runs the client and returns its report.
pub(crate) fn run(plan: &ClientPlan) -> Result<ClientReport, String> {
    let mut config = plan.configuration.client()?;
    config.round_trip_timeout = Some(CALL_TIMEOUT);
    let rest = config
        .apply_args(plan.orb_options.iter().cloned())
        .map_err(|e| e.to_string())?;
    if let Some(other) = rest.first() {
        return Err(format!("{other}: only -ORB options may follow --"));
    }
    let orb = Orb::builder_with(config)
        .build()
        .map_err(|e| e.to_string())?;
    let control = PriorityControl::new(
        SchedPolicy::Fifo,
        MappingKind::Direct,
        WhenDenied::RunAtOther,
    );
    let denied = Arc::new(AtomicBool::new(false));
    let threads = plan.lows as usize + 1;
    let barrier = Arc::new(Barrier::new(threads + 1));
    let start = Arc::new(AtomicU64::new(0));
    let watchdog = Watchdog::arm(
        format!(
            "the priority client (1 high thread at {} Hz, {} low threads at {} Hz, {} ms)",
            plan.high_hz, plan.lows, plan.low_hz, plan.duration_ms
        ),
        plan.watchdog
            .unwrap_or_else(|| watchdog_deadline(plan.duration_ms)),
    );
    let mut handles = Vec::with_capacity(threads);
    for i in 0..threads {
        let high = i == 0;
        let (url, hz, fifo) = if high {
            (plan.high.clone(), plan.high_hz, HIGH_FIFO)
        } else {
            (plan.low.clone(), plan.low_hz, LOW_FIFO)
        };
        // Each thread its own reference, made here: the ORB stays with
        // this thread.
        let cubit: Result<Cubit, String> = orb
            .string_to_object(&url)
            .map(|o| o.unchecked_narrow())
            .map_err(|e| format!("{url}: {e}"));
        let control = control.clone();
        let (denied, barrier, start) = (denied.clone(), barrier.clone(), start.clone());
        let policy = plan.policy;
        let duration_ms = plan.duration_ms;
        let cpus = if high {
            plan.configuration.high_cpus()
        } else {
            plan.configuration.other_cpus()
        };
        let name = if high {
            "C0".to_owned()
        } else {
            format!("low {i}")
        };
        let spawned = std::thread::Builder::new()
            .name(name.clone())
            .spawn(move || {
                let ready = cubit.and_then(|c| {
                    if !cpus.is_empty() {
                        rtorb::rt::set_thread_affinity(&cpus).map_err(|e| e.to_string())?;
                    }
                    prepare(c, policy, fifo, &control, &denied)
                });
                barrier.wait();
                barrier.wait();
                let cubit = ready.map_err(|e| format!("{name}: {e}"))?;
                let schedule = Schedule {
                    start_ns: start.load(Ordering::Acquire),
                    period_ns: schedule::period_ns(hz),
                    count: schedule::slots(hz, duration_ms),
                };
                measure(&cubit, &schedule).map_err(|e| format!("{name}: {e}"))
            });
        match spawned {
            Ok(h) => handles.push(h),
            // The threads started wait at the barrier; the process ends
            // with this error.
            Err(e) => return Err(format!("cannot start a client thread: {e}")),
        }
    }
    barrier.wait();
    let start_ns = plan.slots.start_after(schedule::now_ns() + START_DELAY_NS);
    start.store(start_ns, Ordering::Release);
    barrier.wait();
    let results: Vec<Result<ThreadResult, String>> = handles
        .into_iter()
        .map(|h| {
            h.join()
                .unwrap_or_else(|_| Err("a client thread panicked".to_owned()))
        })
        .collect();
    watchdog.disarm().map_err(|e| e.to_string())?;
    orb.shutdown();
    let mut results = results.into_iter().collect::<Result<Vec<_>, _>>()?;
    let low: Vec<ThreadResult> = results.split_off(1);
    let high = results.pop().ok_or("no high-priority thread")?;
    let (policy, note) = match plan.policy {
        Policy::Other => ("SCHED_OTHER", Some("asked for (--policy other)".to_owned())),
        Policy::Fifo if denied.load(Ordering::Relaxed) => (
            "SCHED_OTHER",
            Some("SCHED_FIFO is not permitted for this process".to_owned()),
        ),
        Policy::Fifo => ("SCHED_FIFO", None),
    };
    Ok(ClientReport {
        orb: "rtorb".to_owned(),
        policy: policy.to_owned(),
        note,
        start_ns,
        high: class(vec![high]),
        low: class(low),
    })
}

/// The figures of a class of threads.
fn class(threads: Vec<ThreadResult>) -> ClassStats {
    let count = threads.len() as u64;
    let slots = threads.iter().map(|t| t.slots).sum();
    let missed = threads.iter().map(|t| t.log.missed).sum();
    let late = threads.iter().map(|t| t.log.missed_late_wakeup).sum();
    let locks: Option<u64> = threads.iter().map(|t| t.locks).sum();
    let latencies: Vec<u64> = threads
        .into_iter()
        .flat_map(|t| t.log.latencies_ns)
        .collect();
    let calls = latencies.len().max(1) as f64;
    ClassStats::of(
        count,
        slots,
        missed,
        latencies,
        locks.map(|l| l as f64 / calls),
    )
    .with_late_wakeups(late)
}

/// A thread's priority and warm-up.
fn prepare(
    cubit: Cubit,
    policy: Policy,
    fifo: i16,
    control: &PriorityControl,
    denied: &AtomicBool,
) -> Result<Cubit, String> {
    if policy == Policy::Fifo {
        let priority = Priority::new(fifo).map_err(|e| e.to_string())?;
        match control.set_thread_priority(priority) {
            Ok(Some(_)) => {}
            Ok(None) => {
                if !denied.swap(true, Ordering::AcqRel) {
                    eprintln!(
                        "rtorb-bench priority-client: WARNING: this process may not use \
                         SCHED_FIFO (run as root, with CAP_SYS_NICE or a raised \
                         RLIMIT_RTPRIO): every thread runs under SCHED_OTHER"
                    );
                }
            }
            Err(e) => return Err(e.to_string()),
        }
    }
    for i in 0..WARMUP_CALLS {
        call(&cubit, i).map_err(|e| format!("warm-up call: {e}"))?;
    }
    Ok(cubit)
}

fn cube(o: u8) -> u8 {
    o.wrapping_mul(o).wrapping_mul(o)
}

/// One `cube_octet`, its result checked.
fn call(cubit: &Cubit, k: u64) -> Result<(), String> {
    let o = k as u8;
    let r = cubit.cube_octet(o).map_err(|e| e.to_string())?;
    if r == cube(o) {
        Ok(())
    } else {
        Err(format!("cube_octet({o}) gave {r}, not {}", cube(o)))
    }
}

/// The measured run of one thread.
fn measure(cubit: &Cubit, schedule: &Schedule) -> Result<ThreadResult, String> {
    let locks = rtorb::sync::thread_acquisitions();
    let log = schedule::run_slots(schedule, schedule::now_ns, schedule::sleep_until, |k| {
        call(cubit, k).map_err(|e| format!("slot {k}: {e}"))
    })?;
    let locks = rtorb::sync::thread_acquisitions()
        .zip(locks)
        .map(|(a, b)| a - b);
    Ok(ThreadResult {
        log,
        slots: schedule.count,
        locks,
    })
}
