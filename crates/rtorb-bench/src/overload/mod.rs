//! `rtorb bench overload`: hostile peers against a fresh server of each
//! strategy, and against omniORB's `cubit_server` where it is installed,
//! while a well-behaved client calls throughout.
//!
//! Each scenario runs against each server in turn: the server starts
//! ([`target`]), the well-behaved client ([`probe`]) calls for a while
//! to measure the server at rest, the attacker ([`attack`]) runs for a
//! bounded time, then the client calls a little longer while the server
//! recovers. The server's resident memory is sampled all along. What
//! each pair gave is a row of a table, or of `--json` ([`report`]).

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use clap::Args;
use serde::Serialize;

// The attackers and their messages serve the priority benchmark's
// floods as well.
pub(super) mod attack;
mod probe;
mod report;
mod target;
pub(super) mod wire;

use report::Row;
pub(super) use target::DescriptorLimit;
pub(crate) use target::ServerKind;
use target::{Sampler, Server};

/// The phase of a scenario, which the client's and the sampler's figures
/// are filed under.
pub(super) struct Phase(AtomicUsize);

impl Phase {
    /// Before the attack.
    pub(super) const BEFORE: usize = 0;
    /// While the attacker runs.
    pub(super) const DURING: usize = 1;
    /// After the attacker closed everything.
    pub(super) const AFTER: usize = 2;

    fn new() -> Phase {
        Phase(AtomicUsize::new(Phase::BEFORE))
    }

    /// The current phase.
    pub(super) fn get(&self) -> usize {
        self.0.load(Ordering::Relaxed)
    }

    fn set(&self, phase: usize) {
        self.0.store(phase, Ordering::Relaxed);
    }
}

/// A stop flag threads wait on.
#[derive(Default)]
pub(in crate::bench) struct Stop {
    stopped: Mutex<bool>,
    changed: Condvar,
}

impl Stop {
    /// Tells every thread to stop.
    pub(in crate::bench) fn set(&self) {
        *self.stopped.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.changed.notify_all();
    }

    /// Whether the flag is set.
    pub(in crate::bench) fn is_set(&self) -> bool {
        *self.stopped.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits up to `d` for the flag; whether it is set.
    pub(in crate::bench) fn wait(&self, d: Duration) -> bool {
        let guard = self.stopped.lock().unwrap_or_else(|e| e.into_inner());
        let (guard, _) = self
            .changed
            .wait_timeout_while(guard, d, |stopped| !*stopped)
            .unwrap_or_else(|e| e.into_inner());
        *guard
    }
}

/// One kind of attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scenario {
    /// Connections that announce huge requests and send part of them.
    MemoryFlood,
    /// Connections that send large requests back to back and never read
    /// the replies.
    UnreadReplies,
    /// Connections that send random bytes, connecting again when the
    /// server closes them.
    Garbage,
    /// Connections that send a request in fragments that never end.
    FragmentFlood,
    /// This many connections that never send a byte.
    IdleFlood(usize),
    /// This many connections that send half a GIOP header.
    HalfHeaderFlood(usize),
    /// A client pipelining requests, every write ending inside one.
    Pipelining,
    /// Connections opened and closed as fast as they are accepted.
    Churn,
    /// `CancelRequest`s back to back on a few connections.
    CancelFlood,
}

/// The scenario names on the command line, in the order they run.
pub(crate) const SCENARIOS: [&str; 9] = [
    "memory-flood",
    "unread-replies",
    "garbage",
    "fragment-flood",
    "idle-flood",
    "half-header-flood",
    "pipelining",
    "churn",
    "cancel-flood",
];

impl Scenario {
    /// The scenarios `names` select (all when empty), the connection
    /// floods once per size of `connections`.
    fn select(names: &[String], connections: &[usize]) -> Result<Vec<Scenario>, String> {
        if let Some(bad) = names.iter().find(|n| !SCENARIOS.contains(&n.as_str())) {
            return Err(format!(
                "unknown scenario {bad:?}; known: {}",
                SCENARIOS.join(", ")
            ));
        }
        let mut out = Vec::new();
        for name in SCENARIOS {
            if !names.is_empty() && !names.iter().any(|n| n == name) {
                continue;
            }
            match name {
                "memory-flood" => out.push(Scenario::MemoryFlood),
                "unread-replies" => out.push(Scenario::UnreadReplies),
                "garbage" => out.push(Scenario::Garbage),
                "fragment-flood" => out.push(Scenario::FragmentFlood),
                "idle-flood" => out.extend(connections.iter().map(|n| Scenario::IdleFlood(*n))),
                "half-header-flood" => {
                    out.extend(connections.iter().map(|n| Scenario::HalfHeaderFlood(*n)));
                }
                "pipelining" => out.push(Scenario::Pipelining),
                "churn" => out.push(Scenario::Churn),
                _ => out.push(Scenario::CancelFlood),
            }
        }
        Ok(out)
    }

    /// The scenario's name in the results.
    fn label(self) -> String {
        match self {
            Scenario::MemoryFlood => "memory-flood".to_owned(),
            Scenario::UnreadReplies => "unread-replies".to_owned(),
            Scenario::Garbage => "garbage".to_owned(),
            Scenario::FragmentFlood => "fragment-flood".to_owned(),
            Scenario::IdleFlood(n) => format!("idle-flood {n}"),
            Scenario::HalfHeaderFlood(n) => format!("half-header-flood {n}"),
            Scenario::Pipelining => "pipelining".to_owned(),
            Scenario::Churn => "churn".to_owned(),
            Scenario::CancelFlood => "cancel-flood".to_owned(),
        }
    }
}

/// The sizes and times of a run.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Sizes {
    /// Connections of the memory flood.
    pub(crate) flood_connections: usize,
    /// Body octets each of them sends.
    pub(crate) flood_body: usize,
    /// The body size their GIOP headers announce.
    pub(crate) announced: u32,
    /// Connections that never read their replies.
    pub(crate) unread_connections: usize,
    /// The size of each of their requests' sequence, octets.
    pub(crate) unread_request: usize,
    /// Connections sending random bytes.
    pub(crate) garbage_connections: usize,
    /// Connections sending fragments that never end.
    pub(crate) fragment_connections: usize,
    /// The size of each of their fragments, octets.
    pub(crate) fragment_size: usize,
    /// Threads opening the connection floods' connections.
    pub(crate) flood_threads: usize,
    /// Threads opening and closing connections in the churn.
    pub(crate) churn_threads: usize,
    /// Connections of the cancel flood.
    pub(crate) cancel_connections: usize,
    /// How long the client calls before the attack, ms.
    pub(crate) before_ms: u64,
    /// How long the attack lasts, ms.
    pub(crate) attack_ms: u64,
    /// How long the client calls after it, ms.
    pub(crate) after_ms: u64,
    /// The client's timeout for a connect and for a call, ms.
    pub(crate) call_timeout_ms: u64,
    /// µs between two calls on the client's persistent connection (0:
    /// back to back).
    pub(crate) call_interval_us: u64,
}

/// The options of `rtorb bench overload`.
#[derive(Debug, Args)]
pub(crate) struct OverloadArgs {
    /// Run only this scenario (one of memory-flood, unread-replies,
    /// garbage, fragment-flood, idle-flood, half-header-flood, pipelining, churn,
    /// cancel-flood); may be given several times. Every scenario when
    /// absent.
    #[arg(long = "scenario", value_name = "NAME")]
    scenarios: Vec<String>,
    /// Attack only this server (reactive, thread-per-connection,
    /// leader-followers, omniorb); may be given several times. Every
    /// server when absent (omniORB's where it is installed).
    #[arg(long = "server", value_name = "NAME")]
    servers: Vec<String>,
    /// Connections of the idle and half-header floods; may be given
    /// several times (default 2000 and 10000; 50 with --quick).
    #[arg(long = "connections", value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    connections: Vec<u64>,
    /// How long each attack lasts, in milliseconds (default 15000; 800
    /// with --quick).
    #[arg(long = "attack-ms", value_name = "MS",
          value_parser = clap::value_parser!(u64).range(100..=600_000))]
    attack_ms: Option<u64>,
    /// Connections of the memory flood (default 16; 4 with --quick).
    #[arg(long = "flood-connections", value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=10_000))]
    flood_connections: Option<u64>,
    /// MiB of body each memory-flood connection sends (default 48; 1 with
    /// --quick); their headers announce 64 MiB - 1.
    #[arg(long = "flood-mib", value_name = "MIB",
          value_parser = clap::value_parser!(u64).range(1..=63))]
    flood_mib: Option<u64>,
    /// Microseconds between two calls of the well-behaved client's
    /// persistent connection; 0 calls back to back (which on a machine
    /// of few cores takes one from the server and the attacker).
    #[arg(long = "call-interval-us", value_name = "US", default_value_t = 1000)]
    call_interval_us: u64,
    /// Small sizes and short times, to check that the benchmark works.
    #[arg(long)]
    quick: bool,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

impl OverloadArgs {
    fn sizes(&self) -> Sizes {
        let q = self.quick;
        let pick =
            |v: Option<u64>, full: u64, quick: u64| v.unwrap_or(if q { quick } else { full });
        Sizes {
            flood_connections: pick(self.flood_connections, 16, 4) as usize,
            flood_body: (pick(self.flood_mib, 48, 1) as usize) << 20,
            announced: (64 << 20) - 1,
            unread_connections: 4,
            unread_request: if q { 1 << 20 } else { 32 << 20 },
            garbage_connections: if q { 1 } else { 4 },
            fragment_connections: if q { 2 } else { 8 },
            fragment_size: 64 * 1024,
            flood_threads: if q { 1 } else { 16 },
            churn_threads: if q { 1 } else { 4 },
            cancel_connections: 4,
            before_ms: if q { 300 } else { 3000 },
            attack_ms: pick(self.attack_ms, 15_000, 800),
            after_ms: if q { 300 } else { 2000 },
            call_timeout_ms: 2000,
            call_interval_us: self.call_interval_us,
        }
    }

    fn connections(&self) -> Vec<usize> {
        if !self.connections.is_empty() {
            self.connections.iter().map(|n| *n as usize).collect()
        } else if self.quick {
            vec![50]
        } else {
            vec![2000, 10_000]
        }
    }
}

/// Everything a run measured.
#[derive(Debug, Serialize)]
struct Results {
    sizes: Sizes,
    /// The attacker's descriptor limit (`None`: unlimited).
    attacker_descriptor_limit: Option<u64>,
    rows: Vec<Row>,
    /// Servers left out, and why.
    notes: Vec<String>,
}

/// Runs `rtorb bench overload`; returns the table or JSON.
pub(crate) fn run(args: &OverloadArgs) -> Result<String, String> {
    let scenarios = Scenario::select(&args.scenarios, &args.connections())?;
    let mut servers = args
        .servers
        .iter()
        .map(|s| ServerKind::parse(s))
        .collect::<Result<Vec<_>, _>>()?;
    let asked_omniorb = servers.contains(&ServerKind::Omniorb);
    if servers.is_empty() {
        servers = ServerKind::ALL.to_vec();
    }
    let mut notes = Vec::new();
    let omni_server = if servers.contains(&ServerKind::Omniorb) {
        match super::omni::build() {
            Ok(peers) => Some(peers.server),
            Err(e) if asked_omniorb => return Err(format!("omniORB: {e}")),
            Err(e) => {
                servers.retain(|k| *k != ServerKind::Omniorb);
                notes.push(format!("omniORB rows left out: {e}"));
                None
            }
        }
    } else {
        None
    };
    let exe = std::env::current_exe().map_err(|e| format!("this program's path: {e}"))?;
    let limit = DescriptorLimit::raise();
    let sizes = args.sizes();
    let mut rows = Vec::new();
    for scenario in &scenarios {
        for kind in &servers {
            let row = match Server::start(*kind, &exe, omni_server.as_ref(), &limit) {
                Ok(server) => run_one(*scenario, *kind, server, &sizes),
                Err(e) => Row::failed(scenario.label(), *kind, e),
            };
            rows.push(row);
        }
    }
    let results = Results {
        sizes,
        attacker_descriptor_limit: limit.attacker(),
        rows,
        notes,
    };
    if args.json {
        serde_json::to_string(&results)
            .map(|s| s + "\n")
            .map_err(|e| e.to_string())
    } else {
        Ok(report::table(&results.rows, &results.notes))
    }
}

/// Runs one scenario against one fresh server, which is stopped at the
/// end.
fn run_one(scenario: Scenario, kind: ServerKind, mut server: Server, sizes: &Sizes) -> Row {
    let phase = Arc::new(Phase::new());
    let timeout = Duration::from_millis(sizes.call_timeout_ms);
    let address: SocketAddr = server.address;
    let sampler = Sampler::start(server.pid(), Arc::clone(&phase));
    let interval = Duration::from_micros(sizes.call_interval_us);
    let probe = probe::Probe::start(
        address,
        server.key.clone(),
        Arc::clone(&phase),
        timeout,
        interval,
    );
    std::thread::sleep(Duration::from_millis(sizes.before_ms));
    phase.set(Phase::DURING);
    let attack = attack::Attack::start(scenario, address, &server.key, sizes);
    std::thread::sleep(Duration::from_millis(sizes.attack_ms));
    let (attacker, error) = match attack {
        Ok(a) => (a.finish(), None),
        Err(e) => (serde_json::Map::new(), Some(format!("attack: {e}"))),
    };
    phase.set(Phase::AFTER);
    std::thread::sleep(Duration::from_millis(sizes.after_ms));
    let client = probe.finish();
    let resident = sampler.resident();
    drop(sampler);
    // Alive, and a new client served (a few tries, as a client would).
    let survived = server.alive()
        && (0..3).any(|_| probe::call_on_new(address, &server.key, timeout))
        && server.alive();
    Row {
        scenario: scenario.label(),
        server: kind,
        survived,
        resident,
        accepts_per_s: attacker.get("accepts_per_s").and_then(|v| v.as_f64()),
        client,
        attacker,
        error,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenarios_in_order_the_floods_once_per_size() {
        let all = Scenario::select(&[], &[20, 30]).unwrap();
        let labels: Vec<String> = all.iter().map(|s| s.label()).collect();
        assert_eq!(
            labels,
            [
                "memory-flood",
                "unread-replies",
                "garbage",
                "fragment-flood",
                "idle-flood 20",
                "idle-flood 30",
                "half-header-flood 20",
                "half-header-flood 30",
                "pipelining",
                "churn",
                "cancel-flood"
            ]
        );
        let some = Scenario::select(&["churn".to_owned(), "idle-flood".to_owned()], &[5]).unwrap();
        assert_eq!(some, [Scenario::IdleFlood(5), Scenario::Churn]);
        assert!(
            Scenario::select(&["teardrop".to_owned()], &[5])
                .unwrap_err()
                .contains("memory-flood")
        );
    }

    #[test]
    fn a_stop_flag_ends_waits() {
        let stop = Arc::new(Stop::default());
        assert!(!stop.wait(Duration::from_millis(1)));
        let s = Arc::clone(&stop);
        let t = std::thread::spawn(move || s.wait(Duration::from_secs(600)));
        stop.set();
        assert!(t.join().unwrap());
        assert!(stop.is_set());
    }
}
