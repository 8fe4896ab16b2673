//! The overload benchmark (`rtorb-bench overload`): hostile peers
//! ([`crate::attack`]) against a fresh server of each strategy, and
//! against omniORB's `cubit_server` where it is installed, while a
//! well-behaved client calls throughout.
//!
//! Each scenario runs against each server in turn: the server starts
//! ([`target`]), the well-behaved client ([`probe`]) calls for a while
//! to measure the server at rest, the attacker runs for a bounded time,
//! then the client calls a little longer while the server recovers
//! ([`phase`]). The server's resident memory is sampled all along. What
//! each pair gave is a row of a table, or of `--json` ([`rows`]).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use serde::Serialize;

mod phase;
mod probe;
mod rows;
mod target;

use crate::attack::{self, Attack, DescriptorLimit, Scenario};
use crate::giop_client::call_on_new;
use phase::Phase;
use rows::Row;
use target::{Sampler, Server, ServerKind};

/// The scenario names on the command line, in the order they run.
const SCENARIOS: [&str; 9] = [
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

/// The scenarios `names` select (all when empty), in the order they run,
/// the connection floods once per size of `connections`.
fn select_scenarios(names: &[String], connections: &[usize]) -> Result<Vec<Scenario>, String> {
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

/// The sizes and times of a run.
#[derive(Debug, Clone, Serialize)]
struct RunSizes {
    /// The sizes of the attacks.
    #[serde(flatten)]
    attack: attack::Sizes,
    /// How long the client calls before the attack, ms.
    before_ms: u64,
    /// How long the attack lasts, ms.
    attack_ms: u64,
    /// How long the client calls after it, ms.
    after_ms: u64,
    /// The client's timeout for a connect and for a call, ms.
    call_timeout_ms: u64,
    /// µs between two calls on the client's persistent connection (0:
    /// back to back).
    call_interval_us: u64,
}

/// The options of `rtorb-bench overload`.
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
    fn sizes(&self) -> RunSizes {
        let q = self.quick;
        let pick =
            |v: Option<u64>, full: u64, quick: u64| v.unwrap_or(if q { quick } else { full });
        RunSizes {
            attack: attack::Sizes {
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
            },
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
    sizes: RunSizes,
    /// The attacker's descriptor limit (`None`: unlimited).
    attacker_descriptor_limit: Option<u64>,
    rows: Vec<Row>,
    /// Servers left out, and why.
    notes: Vec<String>,
}

/// Runs `rtorb-bench overload`; returns the table or JSON.
pub(crate) fn run(args: &OverloadArgs) -> Result<String, String> {
    let scenarios = select_scenarios(&args.scenarios, &args.connections())?;
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
        match crate::omniorb::build() {
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
        Ok(rows::table(&results.rows, &results.notes))
    }
}

/// Runs one scenario against one fresh server, which is stopped at the
/// end.
fn run_one(scenario: Scenario, kind: ServerKind, mut server: Server, sizes: &RunSizes) -> Row {
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
    let attack = Attack::start(scenario, address, &server.key, &sizes.attack);
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
        && (0..3).any(|_| call_on_new(address, &server.key, timeout))
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
        let all = select_scenarios(&[], &[20, 30]).unwrap();
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
        let some = select_scenarios(&["churn".to_owned(), "idle-flood".to_owned()], &[5]).unwrap();
        assert_eq!(some, [Scenario::IdleFlood(5), Scenario::Churn]);
        assert!(
            select_scenarios(&["teardrop".to_owned()], &[5])
                .unwrap_err()
                .contains("memory-flood")
        );
    }
}
