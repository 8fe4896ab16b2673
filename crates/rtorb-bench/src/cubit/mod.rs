//! `rtorb bench cubit`: the whole Cubit comparison in one run.
//!
//! Every combination runs its server and its client as child processes
//! (this binary's `bench cubit-server`, `bench cubit-client`, `bench
//! raw-server`, `bench raw-client`, and omniORB's `cubit_server` and
//! `cubit_bench` when omniORB is installed). Pinned runs put both on one
//! CPU, unpinned runs leave them free. With `--rounds N` the whole list
//! of combinations runs N times, one round after another, and every
//! figure is the median of its N values. The results are printed per
//! operation, each combination beside the raw-socket floor of its
//! transport.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::affinity::Affinity;
use super::client::from_json;
use super::omni::{self, OmniPeers};
use super::ops::{OPS, giop_messages};
use super::server::{STATS_PREFIX, ServerOpStats};
use super::stats::{ByOp, OpStats};

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

/// The transport a combination runs over, for its floor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
enum Transport {
    Tcp,
    Unix,
}

/// A server to start.
#[derive(Debug, Clone)]
enum ServerKind {
    /// `rtorb bench cubit-server --endpoint E`.
    Rtorb(String),
    /// `rtorb bench raw-server --endpoint E`.
    Raw(String),
    /// omniORB's `cubit_server` with `-ORBendPoint E` (`giop:tcp:...`,
    /// `giop:unix:...`).
    Omni(String),
}

/// A client to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ClientKind {
    Rtorb,
    Raw,
    Omni,
}

/// One row of the comparison.
#[derive(Debug, Clone)]
struct Combination {
    label: &'static str,
    transport: Transport,
    server: ServerKind,
    client: ClientKind,
}

/// What one combination measured, with the server's counts.
#[derive(Debug, Clone, Serialize)]
struct Row {
    label: &'static str,
    transport: Transport,
    client: ByOp<OpStats>,
    server: ByOp<ServerOpStats>,
}

/// A child process killed when dropped, its standard output read line by
/// line on a thread.
pub(super) struct Proc {
    pub(super) child: Child,
    lines: Receiver<String>,
    name: String,
}

impl Proc {
    pub(super) fn spawn(mut cmd: Command, name: &str) -> Result<Proc, String> {
        let mut child = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .stdin(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {name}: {e}"))?;
        let out = child.stdout.take().ok_or("no stdout")?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Proc {
            child,
            lines,
            name: name.to_owned(),
        })
    }

    /// The first line `pick` accepts, within `timeout`.
    pub(super) fn wait_line(
        &mut self,
        timeout: Duration,
        pick: impl Fn(&str) -> Option<String>,
    ) -> Result<String, String> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    if let Some(v) = pick(&l) {
                        return Ok(v);
                    }
                }
                Err(_) => {
                    let status = self.child.try_wait().ok().flatten();
                    return Err(format!(
                        "{} gave no expected line within {timeout:?} (exit: {status:?})",
                        self.name
                    ));
                }
            }
        }
    }

    /// Waits for the process to exit and returns the rest of its output.
    fn finish(mut self, timeout: Duration) -> Result<Vec<String>, String> {
        let deadline = Instant::now() + timeout;
        let mut rest = Vec::new();
        loop {
            match self.lines.recv_timeout(Duration::from_millis(20)) {
                Ok(l) => rest.push(l),
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
            if Instant::now() > deadline {
                return Err(format!("{} did not exit within {timeout:?}", self.name));
            }
        }
        let status = self.child.wait().map_err(|e| e.to_string())?;
        if !status.success() {
            return Err(format!("{} failed: {status}", self.name));
        }
        Ok(rest)
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// Runs a client to completion and returns its standard output; one
/// that has not finished within `limit` (a server that stopped
/// answering: the clients run without a round-trip timeout, as omniORB's
/// does) is killed and reported.
pub(super) fn run_client(mut cmd: Command, name: &str, limit: Duration) -> Result<String, String> {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .stdin(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {name}: {e}"))?;
    let drain = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut text);
            }
            String::from_utf8_lossy(&text).into_owned()
        })
    };
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as _));
    let deadline = Instant::now() + limit;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(20));
            }
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("{name} did not finish within {limit:?}"));
            }
            Err(e) => return Err(format!("{name}: {e}")),
        }
    };
    let out = stdout.join().unwrap_or_default();
    let err = stderr.join().unwrap_or_default();
    if !status.success() {
        return Err(format!("{name} failed ({status}): {err}"));
    }
    Ok(out)
}

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
        let ops = super::ops::OPS.len() as u64;
        Duration::from_secs(120).max(Duration::from_millis(self.calls.saturating_mul(ops)))
    }

    fn this(&self) -> Command {
        let mut c = self.command(&self.exe);
        c.arg("bench");
        c
    }

    fn run(&mut self, combo: &Combination) -> Result<Row, String> {
        let start = Duration::from_secs(30);
        let (server, address) = match &combo.server {
            ServerKind::Rtorb(endpoint) => {
                let mut c = self.this();
                c.args(["cubit-server", "--endpoint", endpoint]);
                let mut p = Proc::spawn(c, "rtorb bench cubit-server")?;
                let ior = p.wait_line(start, |l| l.starts_with("IOR:").then(|| l.to_owned()))?;
                (p, ior)
            }
            ServerKind::Raw(endpoint) => {
                let mut c = self.this();
                c.args(["raw-server", "--endpoint", endpoint]);
                let mut p = Proc::spawn(c, "rtorb bench raw-server")?;
                let e =
                    p.wait_line(start, |l| super::raw::parse_listening(l).map(str::to_owned))?;
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
                run_client(c, "rtorb bench cubit-client", self.client_limit())?
            }
            ClientKind::Raw => {
                let mut c = self.this();
                c.args(["raw-client", "-n", &n, &address]);
                run_client(c, "rtorb bench raw-client", self.client_limit())?
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

/// The rows of several rounds (each in the same order of combinations)
/// as one row per combination ([`OpStats::over_rounds`],
/// [`ServerOpStats::over_rounds`]).
fn over_rounds(rounds: &[Vec<Row>]) -> Vec<Row> {
    let Some(first) = rounds.first() else {
        return Vec::new();
    };
    first
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let same: Vec<&Row> = rounds.iter().filter_map(|r| r.get(i)).collect();
            Row {
                label: row.label,
                transport: row.transport,
                client: per_op(&same, |r| &r.client, OpStats::over_rounds),
                server: per_op(&same, |r| &r.server, ServerOpStats::over_rounds),
            }
        })
        .collect()
}

/// For each operation of the first of `rows`, `combine` of its values in
/// every row (as `side` picks them) that has it.
fn per_op<T>(
    rows: &[&Row],
    side: impl Fn(&Row) -> &ByOp<T>,
    combine: impl Fn(&[&T]) -> Option<T>,
) -> ByOp<T> {
    let Some(first) = rows.first() else {
        return ByOp::default();
    };
    ByOp(
        side(first)
            .0
            .iter()
            .filter_map(|(op, _)| {
                let each: Vec<&T> = rows.iter().filter_map(|r| side(r).get(op)).collect();
                combine(&each).map(|v| (op.clone(), v))
            })
            .collect(),
    )
}

/// omniORB's TCP endpoint: the loopback address, any port.
const OMNI_TCP: &str = "giop:tcp:127.0.0.1:";

fn combinations(runner: &mut Runner) -> Vec<Combination> {
    let tcp = "iiop://127.0.0.1:0".to_owned();
    let tcp_lite = "iiop://127.0.0.1:0?giop=lite".to_owned();
    let unix = format!("uiop://{}", runner.socket_path());
    let unix_lite = format!("uiop://{}?giop=lite", runner.socket_path());
    let raw_unix = format!("unix://{}", runner.socket_path());
    let omni_unix = format!("giop:unix:{}", runner.socket_path());
    let mut v = vec![
        Combination {
            label: "raw TCP (floor)",
            transport: Transport::Tcp,
            server: ServerKind::Raw("tcp://127.0.0.1:0".to_owned()),
            client: ClientKind::Raw,
        },
        Combination {
            label: "rtorb IIOP",
            transport: Transport::Tcp,
            server: ServerKind::Rtorb(tcp.clone()),
            client: ClientKind::Rtorb,
        },
        Combination {
            label: "rtorb IIOP GIOPlite",
            transport: Transport::Tcp,
            server: ServerKind::Rtorb(tcp_lite),
            client: ClientKind::Rtorb,
        },
    ];
    if runner.omni.is_some() {
        v.extend([
            Combination {
                label: "omniORB IIOP",
                transport: Transport::Tcp,
                server: ServerKind::Omni(OMNI_TCP.to_owned()),
                client: ClientKind::Omni,
            },
            Combination {
                label: "rtorb -> omniORB",
                transport: Transport::Tcp,
                server: ServerKind::Omni(OMNI_TCP.to_owned()),
                client: ClientKind::Rtorb,
            },
            Combination {
                label: "omniORB -> rtorb",
                transport: Transport::Tcp,
                server: ServerKind::Rtorb(tcp),
                client: ClientKind::Omni,
            },
        ]);
    }
    v.extend([
        Combination {
            label: "raw Unix (floor)",
            transport: Transport::Unix,
            server: ServerKind::Raw(raw_unix),
            client: ClientKind::Raw,
        },
        Combination {
            label: "rtorb UIOP",
            transport: Transport::Unix,
            server: ServerKind::Rtorb(unix),
            client: ClientKind::Rtorb,
        },
        Combination {
            label: "rtorb UIOP GIOPlite",
            transport: Transport::Unix,
            server: ServerKind::Rtorb(unix_lite),
            client: ClientKind::Rtorb,
        },
    ]);
    if runner.omni.is_some() {
        v.push(Combination {
            label: "omniORB Unix",
            transport: Transport::Unix,
            server: ServerKind::Omni(omni_unix),
            client: ClientKind::Omni,
        });
    }
    v
}

fn opt(v: Option<f64>) -> String {
    v.map_or_else(|| "-".to_owned(), |v| format!("{v:.2}"))
}

/// The comparison of one mode as a table, per operation.
/// A short name of a row, for the summary's columns.
fn short(label: &str) -> &'static str {
    match label {
        "raw TCP (floor)" => "raw TCP",
        "rtorb IIOP" => "IIOP",
        "rtorb IIOP GIOPlite" => "IIOP lite",
        "omniORB IIOP" => "omni TCP",
        "rtorb -> omniORB" => "rtorb>omni",
        "omniORB -> rtorb" => "omni>rtorb",
        "raw Unix (floor)" => "raw Unix",
        "rtorb UIOP" => "UIOP",
        "rtorb UIOP GIOPlite" => "UIOP lite",
        "omniORB Unix" => "omni Unix",
        _ => "?",
    }
}

/// Every combination side by side: the median round trip of each
/// operation, and in brackets its ratio to the floor of its transport.
fn summary(rows: &[Row]) -> String {
    use std::fmt::Write as _;
    let mut out = String::from("\n-- summary: p50 µs (ratio to the floor of the same transport)\n");
    let _ = write!(out, "{:<15}", "operation");
    for row in rows {
        let _ = write!(out, " {:>13}", short(row.label));
    }
    out.push('\n');
    for op in &OPS {
        let _ = write!(out, "{:<15}", op.name);
        for row in rows {
            let floor = rows
                .iter()
                .find(|r| r.transport == row.transport && r.label.contains("floor"))
                .and_then(|r| r.client.get(op.name));
            let cell = match (row.client.get(op.name), floor) {
                (Some(s), Some(f)) if f.p50_us > 0.0 => {
                    format!("{:.2} ({:.2})", s.p50_us, s.p50_us / f.p50_us)
                }
                (Some(s), _) => format!("{:.2}", s.p50_us),
                (None, _) => "-".to_owned(),
            };
            let _ = write!(out, " {cell:>13}");
        }
        out.push('\n');
    }
    out
}

fn table(title: &str, rows: &[Row]) -> String {
    use std::fmt::Write as _;
    let mut out = format!("== {title}\n");
    out.push_str(&summary(rows));
    for op in &OPS {
        let (request, reply) = giop_messages(op);
        let _ = writeln!(
            out,
            "\n-- {} ({}; GIOP 1.2 request {} octets, reply {})",
            op.name,
            op.idl,
            request.len(),
            reply.len()
        );
        let _ = writeln!(
            out,
            "{:<20} {:>9} {:>8} {:>8} {:>8} {:>9} {:>8} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6}",
            "combination",
            "calls/s",
            "mean µs",
            "p50 µs",
            "p99 µs",
            "p99.9 µs",
            "max µs",
            "p50×",
            "mean×",
            "p99×",
            "c.allc",
            "s.allc",
            "c.lock",
            "s.lock"
        );
        for row in rows {
            let Some(s) = row.client.get(op.name) else {
                continue;
            };
            let floor = rows
                .iter()
                .find(|r| r.transport == row.transport && r.label.contains("floor"))
                .and_then(|r| r.client.get(op.name));
            let ratio = |a: f64, b: Option<f64>| match b {
                Some(b) if b > 0.0 => format!("{:.2}", a / b),
                _ => "-".to_owned(),
            };
            let server = row.server.get(op.name);
            let _ = writeln!(
                out,
                "{:<20} {:>9.0} {:>8.2} {:>8.2} {:>8.2} {:>9.2} {:>8.1} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6}",
                row.label,
                s.calls_per_s,
                s.mean_us,
                s.p50_us,
                s.p99_us,
                s.p999_us,
                s.max_us,
                ratio(s.p50_us, floor.map(|f| f.p50_us)),
                ratio(s.mean_us, floor.map(|f| f.mean_us)),
                ratio(s.p99_us, floor.map(|f| f.p99_us)),
                opt(s.allocs),
                opt(server.map(|v| v.allocs)),
                opt(s.locks),
                opt(server.and_then(|v| v.locks)),
            );
        }
    }
    let whitebox: Vec<&Row> = rows
        .iter()
        .filter(|r| {
            r.client.values().any(|s| s.stages_us.is_some())
                || r.server.values().any(|s| s.stages_us.is_some())
        })
        .collect();
    for row in whitebox {
        let _ = writeln!(
            out,
            "\n-- whitebox: {}, µs per call in each stage",
            row.label
        );
        let mut stages: Vec<String> = Vec::new();
        for op in &OPS {
            for m in [
                row.client.get(op.name).and_then(|s| s.stages_us.as_ref()),
                row.server.get(op.name).and_then(|s| s.stages_us.as_ref()),
            ]
            .into_iter()
            .flatten()
            {
                for k in m.keys() {
                    if !stages.contains(k) {
                        stages.push(k.clone());
                    }
                }
            }
        }
        stages.sort_by_key(|k| {
            rtorb::whitebox::Stage::ALL
                .iter()
                .position(|s| s.name() == k)
        });
        let _ = write!(out, "{:<16}", "operation");
        for s in &stages {
            let _ = write!(out, " {:>16}", s);
        }
        out.push('\n');
        for op in &OPS {
            let _ = write!(out, "{:<16}", op.name);
            for st in &stages {
                let v = row
                    .client
                    .get(op.name)
                    .and_then(|s| s.stages_us.as_ref())
                    .and_then(|m| m.get(st))
                    .or_else(|| {
                        row.server
                            .get(op.name)
                            .and_then(|s| s.stages_us.as_ref())
                            .and_then(|m| m.get(st))
                    });
                let _ = write!(out, " {:>16}", opt(v.copied()));
            }
            out.push('\n');
        }
    }
    out
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
    let (omni, omni_note) = match omni::build() {
        Ok(p) => (Some(p), None),
        Err(why) => (None, Some(format!("omniORB rows left out: {why}"))),
    };
    if let Some(note) = &omni_note {
        eprintln!("rtorb bench cubit: {note}");
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
        out.push_str(&table(title, rows));
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
                eprintln!("rtorb bench cubit: {note}");
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
            for combo in combinations(runner) {
                eprintln!(
                    "rtorb bench cubit: {key}: round {round}/{}: {}",
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

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(mean: f64) -> OpStats {
        OpStats {
            calls: 10,
            calls_per_s: 1e6 / mean,
            mean_us: mean,
            p50_us: mean,
            p99_us: mean,
            p999_us: mean,
            max_us: mean,
            allocs: Some(0.0),
            locks: Some(1.0),
            stages_us: None,
        }
    }

    fn row(label: &'static str, void: f64, long: f64, server_allocs: f64) -> Row {
        Row {
            label,
            transport: Transport::Unix,
            client: ByOp(vec![
                ("void".to_owned(), stats(void)),
                ("long".to_owned(), stats(long)),
            ]),
            server: ByOp(vec![(
                "void".to_owned(),
                ServerOpStats {
                    turns: 9,
                    allocs: server_allocs,
                    locks: None,
                    stages_us: None,
                },
            )]),
        }
    }

    #[test]
    fn rounds_merge_per_combination_and_operation() {
        let rounds = vec![
            vec![
                row("raw Unix (floor)", 4.0, 4.1, 0.0),
                row("rtorb UIOP", 5.0, 5.2, 0.0),
            ],
            vec![
                row("raw Unix (floor)", 6.0, 4.3, 0.0),
                row("rtorb UIOP", 4.8, 5.0, 2.0),
            ],
            vec![
                row("raw Unix (floor)", 4.4, 4.2, 0.0),
                row("rtorb UIOP", 9.0, 5.1, 0.0),
            ],
        ];
        let rows = over_rounds(&rounds);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].label, "raw Unix (floor)");
        assert_eq!(rows[0].client.get("void").unwrap().mean_us, 4.4);
        assert_eq!(rows[0].client.get("long").unwrap().mean_us, 4.2);
        assert_eq!(rows[1].client.get("void").unwrap().mean_us, 5.0);
        assert_eq!(rows[1].client.get("void").unwrap().calls, 30);
        let server = rows[1].server.get("void").unwrap();
        assert_eq!((server.turns, server.allocs), (27, 2.0));
        assert!(over_rounds(&[]).is_empty());
    }
}
