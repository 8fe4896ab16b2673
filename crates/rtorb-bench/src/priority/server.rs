//! `rtorb-bench priority-server`: two Cubit objects under the plain keys
//! `High` and `Low`, reachable as `corbaloc::1.2@HOST:PORT/High` by any
//! ORB, counting what each request costs the server per class.
//!
//! It prints one `High URL` and one `Low URL` line per endpoint, then
//! `ready`, and serves until its standard input closes (or a client calls
//! the oneway `shutdown`, or it is killed); then it prints its counts as
//! one `stats {json}` line. The servant notes the thread's lock
//! acquisitions and heap allocations at every upcall: between two
//! upcalls on one thread lies one turn of the server (write the reply,
//! read the next request, find the servant), which is charged to the
//! class of the second request.

use std::cell::Cell;
use std::io::{Read as _, Write as _};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;

use rtorb::exception::SystemException;
use rtorb::orb::Orb;
use rtorb::rt::{PriorityModelPolicy, Watchdog};
use serde::{Deserialize, Serialize};

use super::config::Configuration;
use crate::cubit_idl::{CubitServant, CubitSkeleton, cubit};
use crate::cubit_server::{STATS_PREFIX, corbaloc_with_key};
use rtorb_test_support::alloc::thread_allocations;

/// How long a real-time server may run by default before its watchdog
/// puts its threads under SCHED_OTHER.
pub(crate) const DEFAULT_WATCHDOG: std::time::Duration = std::time::Duration::from_secs(3600);

/// The object keys of the two objects.
pub(crate) const KEYS: [&str; 2] = ["High", "Low"];

/// What the server counted for one object, per request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct ServerClassStats {
    /// Requests counted (those that followed another on their thread).
    pub(crate) turns: u64,
    /// Lock acquisitions per request (`None`: not counted in this build).
    pub(crate) locks: Option<f64>,
    /// Heap allocations per request.
    pub(crate) allocs: f64,
}

/// The server's counts, per object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct ServerReport {
    /// The `High` object's.
    pub(crate) high: ServerClassStats,
    /// The `Low` object's.
    pub(crate) low: ServerClassStats,
}

thread_local! {
    /// The thread's counts at its last upcall.
    static LAST: Cell<Option<(u64, Option<u64>)>> = const { Cell::new(None) };
}

/// Sums per object over every server thread.
#[derive(Default)]
struct Counters {
    turns: [AtomicU64; 2],
    locks: [AtomicU64; 2],
    allocs: [AtomicU64; 2],
}

impl Counters {
    /// Notes an upcall on object `class` (0: High, 1: Low).
    fn upcall(&self, class: usize) {
        let now = (thread_allocations(), rtorb::sync::thread_acquisitions());
        if let Some((allocs, locks)) = LAST.with(|l| l.replace(Some(now))) {
            self.turns[class].fetch_add(1, Ordering::Relaxed);
            self.allocs[class].fetch_add(now.0.wrapping_sub(allocs), Ordering::Relaxed);
            if let (Some(a), Some(b)) = (now.1, locks) {
                self.locks[class].fetch_add(a.wrapping_sub(b), Ordering::Relaxed);
            }
        }
    }

    fn class(&self, i: usize) -> ServerClassStats {
        let turns = self.turns[i].load(Ordering::Relaxed);
        let per = |v: &AtomicU64| v.load(Ordering::Relaxed) as f64 / turns.max(1) as f64;
        ServerClassStats {
            turns,
            locks: rtorb::sync::COUNTING.then(|| per(&self.locks[i])),
            allocs: per(&self.allocs[i]),
        }
    }

    fn report(&self) -> ServerReport {
        ServerReport {
            high: self.class(0),
            low: self.class(1),
        }
    }
}

/// The Cubit servant of one of the two objects.
struct PriorityCubit {
    class: usize,
    counters: Arc<Counters>,
    stop: mpsc::Sender<()>,
}

impl CubitServant for PriorityCubit {
    fn cube_void(&self) -> Result<(), SystemException> {
        Ok(())
    }
    fn cube_octet(&self, o: u8) -> Result<u8, SystemException> {
        self.counters.upcall(self.class);
        Ok(o.wrapping_mul(o).wrapping_mul(o))
    }
    fn cube_short(&self, s: i16) -> Result<i16, SystemException> {
        Ok(s.wrapping_mul(s).wrapping_mul(s))
    }
    fn cube_long(&self, l: i32) -> Result<i32, SystemException> {
        Ok(l.wrapping_mul(l).wrapping_mul(l))
    }
    fn cube_struct(&self, m: cubit::Many) -> Result<cubit::Many, SystemException> {
        Ok(cubit::Many {
            o: m.o.wrapping_mul(m.o).wrapping_mul(m.o),
            l: m.l.wrapping_mul(m.l).wrapping_mul(m.l),
            s: m.s.wrapping_mul(m.s).wrapping_mul(m.s),
        })
    }
    fn cube_long_sequence(&self, s: cubit::LongSeq) -> Result<cubit::LongSeq, SystemException> {
        Ok(s.iter()
            .map(|l| l.wrapping_mul(*l).wrapping_mul(*l))
            .collect())
    }
    fn cube_octet_sequence(&self, s: cubit::OctetSeq) -> Result<cubit::OctetSeq, SystemException> {
        let cubed: Vec<u8> = s
            .iter()
            .map(|o| o.wrapping_mul(*o).wrapping_mul(*o))
            .collect();
        Ok(cubed.into())
    }
    fn shutdown(&self) -> Result<(), SystemException> {
        let _ = self.stop.send(());
        Ok(())
    }
}

/// Runs the server in `configuration` on `endpoints` (its ORB further
/// configured by `orb_options`, `-ORB` options only) until its standard
/// input closes or a client calls `shutdown`.
///
/// In the real-time configuration a [`Watchdog`] guards the server's
/// SCHED_FIFO lanes for `watchdog` (by default [`DEFAULT_WATCHDOG`]).
pub(crate) fn run(
    configuration: Configuration,
    endpoints: &[String],
    orb_options: &[String],
    watchdog: Option<std::time::Duration>,
) -> Result<String, String> {
    let mut config = configuration.server()?;
    let rest = config
        .apply_args(orb_options.iter().cloned())
        .map_err(|e| e.to_string())?;
    if let Some(other) = rest.first() {
        return Err(format!("{other}: only -ORB options may follow --"));
    }
    let listening = !config.listen.is_empty();
    let mut builder = Orb::builder_with(config);
    if endpoints.is_empty() && !listening {
        builder = builder.listen("iiop://127.0.0.1:0");
    }
    for e in endpoints {
        builder = builder.listen(e.clone());
    }
    // Lanes at SCHED_FIFO are guarded for as long as the server runs.
    let watchdog = (configuration == Configuration::RealTime).then(|| {
        Watchdog::arm(
            "the real-time priority server",
            watchdog.unwrap_or(DEFAULT_WATCHDOG),
        )
    });
    let orb = builder.build().map_err(|e| e.to_string())?;
    let counters = Arc::new(Counters::default());
    let (stop, stopped) = mpsc::channel();
    for (class, key) in KEYS.iter().enumerate() {
        let servant = PriorityCubit {
            class,
            counters: Arc::clone(&counters),
            stop: stop.clone(),
        };
        let skeleton = Arc::new(CubitSkeleton(servant));
        match configuration.declared(class)? {
            None => {
                orb.activate_with_key(key.as_bytes(), skeleton)
                    .map_err(|e| format!("{key}: {e}"))?;
            }
            Some(p) => {
                let model = PriorityModelPolicy::server_declared(p);
                orb.activate_with_key_at(key.as_bytes(), skeleton, model)
                    .map_err(|e| format!("{key}: {e}"))?;
            }
        }
    }
    let mut out = std::io::stdout().lock();
    for e in orb.endpoints() {
        for key in KEYS {
            match corbaloc_with_key(&e, key) {
                Some(url) => writeln!(out, "{key} {url}"),
                None => writeln!(out, "{e}: no corbaloc URL for this endpoint (GIOPlite)"),
            }
            .map_err(|e| e.to_string())?;
        }
    }
    writeln!(out, "ready").map_err(|e| e.to_string())?;
    // Lines go to a pipe in benchmarks: make sure the parent sees them.
    out.flush().map_err(|e| e.to_string())?;
    drop(out);
    std::thread::spawn(move || {
        let mut sink = [0u8; 256];
        let mut stdin = std::io::stdin().lock();
        while matches!(stdin.read(&mut sink), Ok(n) if n > 0) {}
        let _ = stop.send(());
    });
    let _ = stopped.recv();
    orb.shutdown();
    if let Some(w) = watchdog {
        w.disarm().map_err(|e| e.to_string())?;
    }
    let stats = serde_json::to_string(&counters.report()).map_err(|e| e.to_string())?;
    Ok(format!("{STATS_PREFIX}{stats}\nshut down\n"))
}

/// The `High` and `Low` URLs in the lines a priority server printed
/// (`High URL`, `Low URL`; the first of each).
pub(crate) fn parse_url(line: &str, key: &str) -> Option<String> {
    let (k, url) = line.split_once(' ')?;
    (k == key && url.starts_with("corbaloc:")).then(|| url.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_lines() {
        assert_eq!(
            parse_url("High corbaloc::1.2@127.0.0.1:4000/High", "High").as_deref(),
            Some("corbaloc::1.2@127.0.0.1:4000/High")
        );
        assert_eq!(parse_url("High corbaloc::1.2@h:1/High", "Low"), None);
        assert_eq!(parse_url("ready", "High"), None);
    }

    #[test]
    fn turns_are_charged_to_the_second_request() {
        let c = Counters::default();
        std::thread::scope(|s| {
            s.spawn(|| {
                c.upcall(0);
                c.upcall(1);
                c.upcall(1);
                c.upcall(0);
            });
        });
        let r = c.report();
        assert_eq!((r.high.turns, r.low.turns), (1, 2));
        assert_eq!(r.high.locks.is_some(), rtorb::sync::COUNTING);
    }
}
