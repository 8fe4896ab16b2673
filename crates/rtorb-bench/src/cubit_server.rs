//! `rtorb-bench cubit-server`: the Cubit object on the rtorb ORB, counting
//! what each call costs the server.
//!
//! The servant notes, at every upcall, the connection thread's counts of
//! heap allocations, lock acquisitions and (`probe` builds) stage times.
//! Between two upcalls of the same operation on one thread lies exactly
//! one turn of the server for that operation (write the reply, read the
//! next request, parse it, find the servant, run the skeleton), so the
//! differences summed per operation and divided by their number are the
//! server's cost per call. They are printed as one `stats {json}` line
//! when a client calls the oneway `shutdown`.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;

use rtorb::exception::SystemException;
use rtorb::orb::Orb;
use rtorb::probe::{Stage, StageTotals};
use serde::{Deserialize, Serialize};

use crate::cubit_idl::{CubitServant, CubitSkeleton, cubit};
use crate::cubit_ops::{OPS, index_of};
use crate::stats::{ByOp, median_stages};
use rtorb_test_support::alloc::thread_allocations;

/// What the server counted for one operation, per call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct ServerOpStats {
    /// Turns counted (calls of the operation that followed a call of it).
    pub(crate) turns: u64,
    /// Heap allocations per call.
    pub(crate) allocs: f64,
    /// Lock acquisitions per call (`None`: not counted in this build).
    pub(crate) locks: Option<f64>,
    /// Microseconds per call in each server stage (`probe` builds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) stages_us: Option<BTreeMap<String, f64>>,
}

impl ServerOpStats {
    /// One operation's counts over several rounds: the turns summed, the
    /// most allocations and locks any round counted, the median time of
    /// each stage. `None` for no rounds.
    pub(crate) fn over_rounds(rounds: &[&ServerOpStats]) -> Option<ServerOpStats> {
        let first = rounds.first()?;
        Some(ServerOpStats {
            turns: rounds.iter().map(|s| s.turns).sum(),
            allocs: rounds.iter().map(|s| s.allocs).fold(first.allocs, f64::max),
            locks: rounds.iter().filter_map(|s| s.locks).reduce(f64::max),
            stages_us: median_stages(rounds.iter().map(|s| s.stages_us.as_ref())),
        })
    }
}

/// The prefix of the line that carries the server's counts.
pub(crate) const STATS_PREFIX: &str = "stats ";

const N: usize = OPS.len();
const STAGES: usize = Stage::ALL.len();

/// Counts of one thread at one upcall.
#[derive(Clone, Copy)]
struct Snapshot {
    op: usize,
    allocs: u64,
    locks: Option<u64>,
    stages: Option<StageTotals>,
}

thread_local! {
    static LAST: Cell<Option<Snapshot>> = const { Cell::new(None) };
}

/// Sums per operation, over every connection thread.
struct Counters {
    turns: [AtomicU64; N],
    allocs: [AtomicU64; N],
    locks: [AtomicU64; N],
    stages: [[AtomicU64; STAGES]; N],
}

impl Counters {
    fn new() -> Counters {
        Counters {
            turns: std::array::from_fn(|_| AtomicU64::new(0)),
            allocs: std::array::from_fn(|_| AtomicU64::new(0)),
            locks: std::array::from_fn(|_| AtomicU64::new(0)),
            stages: std::array::from_fn(|_| std::array::from_fn(|_| AtomicU64::new(0))),
        }
    }

    /// Notes an upcall of operation `op` (`None`: not a benchmarked one).
    fn upcall(&self, op: Option<usize>) {
        let Some(op) = op else {
            LAST.with(|l| l.set(None));
            return;
        };
        let now = Snapshot {
            op,
            allocs: thread_allocations(),
            locks: rtorb::sync::thread_acquisitions(),
            stages: rtorb::probe::thread_totals(),
        };
        if let Some(last) = LAST.with(|l| l.replace(Some(now)))
            && last.op == op
        {
            self.turns[op].fetch_add(1, Ordering::Relaxed);
            self.allocs[op].fetch_add(now.allocs.wrapping_sub(last.allocs), Ordering::Relaxed);
            if let (Some(a), Some(b)) = (now.locks, last.locks) {
                self.locks[op].fetch_add(a.wrapping_sub(b), Ordering::Relaxed);
            }
            if let (Some(a), Some(b)) = (now.stages, last.stages) {
                let d = a.since(&b);
                for (i, s) in Stage::ALL.iter().enumerate() {
                    self.stages[op][i].fetch_add(d.nanos(*s), Ordering::Relaxed);
                }
            }
        }
    }

    fn report(&self) -> ByOp<ServerOpStats> {
        let mut out = Vec::new();
        for (i, op) in OPS.iter().enumerate() {
            let turns = self.turns[i].load(Ordering::Relaxed);
            if turns == 0 {
                continue;
            }
            let per = |v: u64| v as f64 / turns as f64;
            let stages_us = rtorb::probe::ENABLED.then(|| {
                Stage::ALL
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| s.name().starts_with("server."))
                    .map(|(k, s)| {
                        (
                            s.name().to_owned(),
                            per(self.stages[i][k].load(Ordering::Relaxed)) / 1000.0,
                        )
                    })
                    .collect()
            });
            out.push((
                op.name.to_owned(),
                ServerOpStats {
                    turns,
                    allocs: per(self.allocs[i].load(Ordering::Relaxed)),
                    locks: rtorb::sync::COUNTING
                        .then(|| per(self.locks[i].load(Ordering::Relaxed))),
                    stages_us,
                },
            ));
        }
        ByOp(out)
    }
}

/// The benchmark's Cubit servant.
struct BenchCubit {
    counters: Arc<Counters>,
    shutdown: mpsc::Sender<()>,
}

impl CubitServant for BenchCubit {
    fn cube_void(&self) -> Result<(), SystemException> {
        self.counters.upcall(index_of("cube_void", 0));
        Ok(())
    }
    fn cube_octet(&self, o: u8) -> Result<u8, SystemException> {
        self.counters.upcall(index_of("cube_octet", 0));
        Ok(o.wrapping_mul(o).wrapping_mul(o))
    }
    fn cube_short(&self, s: i16) -> Result<i16, SystemException> {
        self.counters.upcall(index_of("cube_short", 0));
        Ok(s.wrapping_mul(s).wrapping_mul(s))
    }
    fn cube_long(&self, l: i32) -> Result<i32, SystemException> {
        self.counters.upcall(index_of("cube_long", 0));
        Ok(l.wrapping_mul(l).wrapping_mul(l))
    }
    fn cube_struct(&self, m: cubit::Many) -> Result<cubit::Many, SystemException> {
        self.counters.upcall(index_of("cube_struct", 0));
        Ok(cubit::Many {
            o: m.o.wrapping_mul(m.o).wrapping_mul(m.o),
            l: m.l.wrapping_mul(m.l).wrapping_mul(m.l),
            s: m.s.wrapping_mul(m.s).wrapping_mul(m.s),
        })
    }
    fn cube_long_sequence(&self, s: cubit::LongSeq) -> Result<cubit::LongSeq, SystemException> {
        self.counters
            .upcall(index_of("cube_long_sequence", s.len()));
        let mut s = s;
        for l in &mut s {
            *l = l.wrapping_mul(*l).wrapping_mul(*l);
        }
        Ok(s)
    }
    fn cube_octet_sequence(&self, s: cubit::OctetSeq) -> Result<cubit::OctetSeq, SystemException> {
        self.counters
            .upcall(index_of("cube_octet_sequence", s.len()));
        let cubed: Vec<u8> = s
            .iter()
            .map(|o| o.wrapping_mul(*o).wrapping_mul(*o))
            .collect();
        Ok(cubed.into())
    }
    fn shutdown(&self) -> Result<(), SystemException> {
        self.counters.upcall(None);
        let _ = self.shutdown.send(());
        Ok(())
    }
}

/// The `corbaloc:` URL of the Cubit object at `endpoint` (as
/// [`Orb::endpoints`] prints it), or `None` for a GIOPlite endpoint,
/// which only an IOR can describe.
pub(crate) fn corbaloc_for(endpoint: &str) -> Option<String> {
    corbaloc_with_key(endpoint, "Cubit")
}

/// The `corbaloc:` URL of the object with the plain key `key` at
/// `endpoint`, as [`corbaloc_for`].
pub(crate) fn corbaloc_with_key(endpoint: &str, key: &str) -> Option<String> {
    let (protocol, rest) = endpoint.split_once("://")?;
    let (address, options) = match rest.split_once('?') {
        Some((a, o)) => (a.trim_end_matches('/'), o),
        None => (rest, ""),
    };
    if options
        .split('&')
        .any(|o| o.eq_ignore_ascii_case("giop=lite"))
    {
        return None;
    }
    // A GIOP version (`1.1@`), not an `@` inside a socket path.
    let (version, address) = match address.split_once('@') {
        Some((v, a)) if v.len() == 3 && v.as_bytes()[1] == b'.' => (v, a),
        _ => ("1.2", address),
    };
    match protocol.to_ascii_lowercase().as_str() {
        "iiop" => Some(format!("corbaloc::{version}@{address}/{key}")),
        "uiop" => Some(format!("corbaloc:uiop:{version}@{address}|{key}")),
        _ => None,
    }
}

/// Runs the server, its ORB configured by `orb_options` (`-ORB` options
/// only), until a client calls `shutdown`.
pub(crate) fn run(endpoints: &[String], orb_options: &[String]) -> Result<String, String> {
    let mut config = rtorb::orb::OrbConfig::default();
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
    let orb = builder.build().map_err(|e| e.to_string())?;
    let counters = Arc::new(Counters::new());
    let (tx, rx) = mpsc::channel();
    let servant = BenchCubit {
        counters: Arc::clone(&counters),
        shutdown: tx,
    };
    let obj = orb
        .activate_with_key(&b"Cubit"[..], Arc::new(CubitSkeleton(servant)))
        .map_err(|e| e.to_string())?;
    let ior = orb
        .object_to_string(&obj)
        .ok_or("the ORB made no reference")?;
    println!("{ior}");
    for e in orb.endpoints() {
        match corbaloc_for(&e) {
            Some(url) => println!("{e} {url}"),
            None => println!("{e} (GIOPlite: use the IOR)"),
        }
    }
    println!("ready");
    // Lines go to a pipe in benchmarks: make sure the parent sees them.
    use std::io::Write as _;
    let _ = std::io::stdout().flush();
    let _ = rx.recv();
    orb.shutdown();
    let stats = serde_json::to_string(&counters.report()).map_err(|e| e.to_string())?;
    Ok(format!("{STATS_PREFIX}{stats}\nshut down\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corbaloc_urls_for_each_kind_of_endpoint() {
        assert_eq!(
            corbaloc_for("iiop://1.2@127.0.0.1:4000").as_deref(),
            Some("corbaloc::1.2@127.0.0.1:4000/Cubit")
        );
        assert_eq!(
            corbaloc_for("iiop://127.0.0.1:4000").as_deref(),
            Some("corbaloc::1.2@127.0.0.1:4000/Cubit")
        );
        assert_eq!(
            corbaloc_for("uiop://1.2@/tmp/c.sock").as_deref(),
            Some("corbaloc:uiop:1.2@/tmp/c.sock|Cubit")
        );
        assert_eq!(
            corbaloc_for("uiop:///run/user@host/c.sock").as_deref(),
            Some("corbaloc:uiop:1.2@/run/user@host/c.sock|Cubit")
        );
        assert_eq!(corbaloc_for("iiop://1.2@127.0.0.1:4000/?giop=lite"), None);
        assert_eq!(corbaloc_for("nonsense"), None);
    }
}
