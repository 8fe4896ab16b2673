//! The Cubit benchmark (`rtorb-bench cubit`): the whole comparison in one
//! run, after "The Design and Performance of a Pluggable Protocols
//! Framework for Object Request Broker Middleware" (§4).
//!
//! Every combination ([`mod@combinations`]) runs its server and its client as
//! child processes (this program's `cubit-server`, `cubit-client`,
//! `raw-server` ([`raw`]), `raw-client`, and omniORB's `cubit_server` and
//! `cubit_bench` when omniORB is installed). Pinned runs put both on one
//! CPU, unpinned runs leave them free. With `--rounds N` the whole list
//! of combinations runs N times, one round after another, and every
//! figure is the median of its N values. The results are printed per
//! operation, each combination beside the raw-socket floor of its
//! transport ([`table`]).

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

mod combinations;
pub(crate) mod raw;
mod table;

use crate::affinity::Affinity;
use crate::cubit_client::from_json;
use crate::cubit_ops::OPS;
use crate::cubit_server::STATS_PREFIX;
use crate::omniorb::{self, OmniPeers};
use crate::process::{Proc, run_client};
use crate::stats::ByOp;
use combinations::{ClientKind, Combination, Row, ServerKind, combinations, over_rounds};

/// Which scheduling runs to make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Modes {
    /// Client and server on one CPU.
    Pinned,
    /// Client and server free.
    Unpinned,
    /// One of each.
    Both,
}

/// What runs the combinations: this program, omniORB's peers, the
/// settings of the run.
struct Runner {
    exe: PathBuf,
    /// Run every server and client under `SCHED_FIFO` at this priority.
    fifo: Option<u8>,
    omni: Option<OmniPeers>,
    calls: u64,
    /// Times every combination is run, interleaved.
    rounds: u32,
    /// The Unix socket paths handed out, removed at the end.
    sockets: Vec<PathBuf>,
}

impl Runner {
    /// A Unix socket path for a server of this run.
    fn socket_path(&mut self) -> String {
        let path = std::env::temp_dir().join(format!(
            "rtorb-bench-{}-{}.sock",
            std::process::id(),
            self.sockets.len() + 1
        ));
        self.sockets.push(path.clone());
        path.display().to_string()
    }

    /// A command for `program`, under `chrt -f` when the run is
    /// real-time.
    fn command(&self, program: &std::path::Path) -> Command {
        match self.fifo {
            None => Command::new(program),
            Some(priority) => {
                let mut c = Command::new("chrt");
                c.args(["-f", &priority.to_string()]).arg(program);
                c
            }
        }
    }

    /// How long a client may take for every operation: a generous
    /// millisecond per call, and two minutes at least.
    fn client_limit(&self) -> Duration {
        let ops = OPS.len() as u64;
        Duration::from_secs(120).max(Duration::from_millis(self.calls.saturating_mul(ops)))
    }

    /// A command for this program.
    fn this(&self) -> Command {
        self.command(&self.exe)
    }

    /// Runs one combination: a fresh server, a client against it.
    fn run(&mut self, combo: &Combination) -> Result<Row, String> {
        let start = Duration::from_secs(30);
        let (server, address) = match &combo.server {
            ServerKind::Rtorb(endpoint) => {
                let mut c = self.this();
                c.args(["cubit-server", "--endpoint", endpoint]);
                let mut p = Proc::spawn(c, "rtorb-bench cubit-server")?;
                let ior = p.wait_line(start, |l| l.starts_with("IOR:").then(|| l.to_owned()))?;
                (p, ior)
            }
            ServerKind::Raw(endpoint) => {
                let mut c = self.this();
                c.args(["raw-server", "--endpoint", endpoint]);
                let mut p = Proc::spawn(c, "rtorb-bench raw-server")?;
                let e = p.wait_line(start, |l| raw::parse_listening(l).map(str::to_owned))?;
                (p, e)
            }
            ServerKind::Omni(endpoint) => {
                let peers = self.omni.as_ref().ok_or("omniORB is not built")?;
                let mut c = self.command(&peers.server);
                c.args(["-ORBendPoint", endpoint]);
                let mut p = Proc::spawn(c, "omniORB cubit_server")?;
                let ior = p.wait_line(start, |l| l.starts_with("IOR:").then(|| l.to_owned()))?;
                (p, ior)
            }
        };
        let n = self.calls.to_string();
        let output = match combo.client {
            ClientKind::Rtorb => {
                let mut c = self.this();
                c.args(["cubit-client", "--json", "--shutdown", "-n", &n, &address]);
                run_client(c, "rtorb-bench cubit-client", self.client_limit())?
            }
            ClientKind::Raw => {
                let mut c = self.this();
                c.args(["raw-client", "-n", &n, &address]);
                run_client(c, "rtorb-bench raw-client", self.client_limit())?
            }
            ClientKind::Omni => {
                let peers = self.omni.as_ref().ok_or("omniORB is not built")?;
                let mut c = self.command(&peers.bench);
                c.args(["-n", &n, "--shutdown", &address]);
                run_client(c, "omniORB cubit_bench", self.client_limit())?
            }
        };
        let client = from_json(output.lines().last().unwrap_or(""))?;
        let server_stats = match combo.server {
            ServerKind::Raw(_) => {
                drop(server);
                ByOp::default()
            }
            ServerKind::Rtorb(_) => {
                let rest = server.finish(Duration::from_secs(20))?;
                let line = rest
                    .iter()
                    .find_map(|l| l.strip_prefix(STATS_PREFIX))
                    .ok_or("the rtorb server printed no stats")?;
                serde_json::from_str(line).map_err(|e| format!("server stats {line}: {e}"))?
            }
            ServerKind::Omni(_) => {
                server.finish(Duration::from_secs(20))?;
                ByOp::default()
            }
        };
        Ok(Row {
            label: combo.label,
            transport: combo.transport,
            client,
            server: server_stats,
        })
    }
}

/// Runs the comparison and returns what to print.
pub(crate) fn run(
    calls: u64,
    rounds: u32,
    json: bool,
    modes: Modes,
    fifo: Option<u8>,
) -> Result<String, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let (omni, omni_note) = match omniorb::build() {
        Ok(p) => (Some(p), None),
        Err(why) => (None, Some(format!("omniORB rows left out: {why}"))),
    };
    if let Some(note) = &omni_note {
        eprintln!("rtorb-bench cubit: {note}");
    }
    let affinity = Affinity::current()?;
    let cpus = affinity.cpus();
    let cpu = *cpus.first().ok_or("no CPU to run on")?;
    if let Some(priority) = fifo {
        let probe = Command::new("chrt")
            .args(["-f", &priority.to_string(), "true"])
            .output()
            .map_err(|e| format!("--fifo needs chrt (util-linux): {e}"))?;
        if !probe.status.success() {
            return Err(format!(
                "--fifo {priority}: real-time scheduling is not permitted here: {}",
                String::from_utf8_lossy(&probe.stderr).trim()
            ));
        }
    }
    let mut runner = Runner {
        exe,
        fifo,
        omni,
        calls,
        rounds,
        sockets: Vec::new(),
    };
    let results = measure_modes(&mut runner, &affinity, cpu, &cpus, calls, modes);
    for path in &runner.sockets {
        let _ = std::fs::remove_file(path);
    }
    let (results, pin_note) = results?;
    if json {
        let mut map = serde_json::Map::new();
        for (_, key, rows) in &results {
            let mut m = serde_json::Map::new();
            for r in rows {
                m.insert(
                    r.label.to_owned(),
                    serde_json::to_value(r).map_err(|e| e.to_string())?,
                );
            }
            map.insert((*key).to_owned(), serde_json::Value::Object(m));
        }
        // How many runs each figure is the median of (`calls` counts them
        // all).
        map.insert("rounds".to_owned(), serde_json::Value::from(rounds));
        if let Some(note) = omni_note {
            map.insert("note".to_owned(), serde_json::Value::String(note));
        }
        if let Some(note) = pin_note {
            map.insert("pin_note".to_owned(), serde_json::Value::String(note));
        }
        return Ok(format!("{}\n", serde_json::Value::Object(map)));
    }
    let mut out = String::from(
        "Cubit round trips: rtorb over IIOP and UIOP with GIOP 1.2 and GIOPlite, omniORB 4 \
         over TCP and Unix sockets, and a raw-socket floor exchanging the same GIOP 1.2 message sizes.\n\
         p50×, mean× and p99×: ratio to the floor of the same transport (TCP or Unix). \
         c./s. allc and lock: heap allocations and lock acquisitions per call on the \
         client and the server (- : not counted).\n",
    );
    if !rtorb::sync::COUNTING {
        out.push_str("(locks are counted only when built with the lock-count feature)\n");
    }
    for (title, _, rows) in &results {
        out.push('\n');
        out.push_str(&table::table(title, rows)?);
    }
    for note in [pin_note, omni_note].into_iter().flatten() {
        out.push_str(&format!("\n{note}\n"));
    }
    Ok(out)
}

/// What each scheduling mode measured: its title, its key, its rows.
type ModeResults = Vec<(String, &'static str, Vec<Row>)>;

/// Runs every combination in each mode; a pinned run that cannot pin
/// runs unpinned and says so.
fn measure_modes(
    runner: &mut Runner,
    affinity: &Affinity,
    cpu: usize,
    cpus: &[usize],
    calls: u64,
    modes: Modes,
) -> Result<(ModeResults, Option<String>), String> {
    let mut results = Vec::new();
    let mut pin_note = None;
    let modes: &[bool] = match modes {
        Modes::Pinned => &[true],
        Modes::Unpinned => &[false],
        Modes::Both => &[true, false],
    };
    let per_round = match runner.rounds {
        1 => String::new(),
        n => format!(
            " in each of {n} rounds; each figure is the median of the rounds' \
             (allocations and locks: the most of any round)"
        ),
    };
    for &pinned in modes {
        let policy = match runner.fifo {
            Some(p) => format!(", SCHED_FIFO priority {p}"),
            None => String::new(),
        };
        let (title, key) = match pinned.then(|| affinity.pin(cpu)) {
            Some(Ok(())) => (
                format!(
                    "pinned: client and server on CPU {cpu}{policy}, {calls} calls per operation{per_round}"
                ),
                "pinned",
            ),
            Some(Err(e)) => {
                let note = format!("could not pin to one CPU ({e}): the pinned run ran unpinned");
                eprintln!("rtorb-bench cubit: {note}");
                pin_note = Some(note);
                (
                    format!("pinned run, NOT pinned: {calls} calls per operation{per_round}"),
                    "pinned",
                )
            }
            None => {
                affinity.unpin()?;
                (
                    format!(
                        "unpinned: client and server free on CPUs {cpus:?}{policy}, {calls} calls per operation{per_round}"
                    ),
                    "unpinned",
                )
            }
        };
        // Rounds interleave the combinations, so that what disturbs the
        // machine for a while (other load, the kernel's per-CPU caches of
        // socket-buffer charges, which settle differently at each start)
        // falls on every combination alike.
        let mut rounds: Vec<Vec<Row>> = Vec::new();
        for round in 1..=runner.rounds {
            let mut rows = Vec::new();
            let omniorb = runner.omni.is_some();
            for combo in combinations(|| runner.socket_path(), omniorb) {
                eprintln!(
                    "rtorb-bench cubit: {key}: round {round}/{}: {}",
                    runner.rounds, combo.label
                );
                match runner.run(&combo) {
                    Ok(row) => rows.push(row),
                    Err(e) => {
                        let _ = affinity.unpin();
                        return Err(format!("{}: {e}", combo.label));
                    }
                }
            }
            rounds.push(rows);
        }
        results.push((title, key, over_rounds(&rounds)));
    }
    affinity.unpin()?;
    Ok((results, pin_note))
}
