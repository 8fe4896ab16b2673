//! The processes of one point: a fresh server (`rtorb-bench
//! priority-server`, or omniORB's `priority_server`) and a client
//! (`rtorb-bench priority-client`, or omniORB's `priority_client`), and
//! what they report.

use std::process::Command;
use std::time::Duration;

use serde::Serialize;

use super::client::{ClientReport, watchdog_deadline};
use super::config::Configuration;
use super::flood::{self, Flood, FloodPoint};
use super::programs::Programs;
use super::schedule::RateSet;
use super::server::{ServerReport, parse_url};
use crate::cubit_server::STATS_PREFIX;
use crate::process::{Proc, run_client};

/// A configuration of client and server, a column of the results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub(crate) enum Column {
    /// The rtorb client and server in `configuration`.
    Rtorb(Configuration),
    /// omniORB's client and server.
    Omniorb,
}

impl Column {
    /// The label in the results.
    pub(crate) fn label(self) -> String {
        match self {
            Column::Rtorb(c) => format!("rtorb {}", c.name()),
            Column::Omniorb => "omniORB".to_owned(),
        }
    }
}

/// The omniORB client's connection settings: one multiplexed connection
/// to the server, the seed's conventional ORB, as rtorb's conventional
/// client has.
pub(crate) const OMNIORB_CLIENT_OPTIONS: [&str; 4] = [
    "-ORBmaxGIOPConnectionPerServer",
    "1",
    "-ORBoneCallPerConnection",
    "0",
];

/// One point: a rate set, a number of low threads, a length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Point {
    /// The rates.
    pub(crate) rates: RateSet,
    /// Low-priority threads.
    pub(crate) lows: u32,
    /// Length of the run, ms.
    pub(crate) duration_ms: u64,
    /// The flood aimed at `Low`'s endpoint during the run, if any.
    pub(crate) flood: Option<Flood>,
}

/// The `High` and `Low` URLs a priority server prints, once it says
/// `ready`.
fn urls(server: &mut Proc, timeout: Duration) -> Result<(String, String), String> {
    let (mut high, mut low) = (None, None);
    server.ready(timeout, |line| {
        high = high.take().or_else(|| parse_url(line, "High"));
        low = low.take().or_else(|| parse_url(line, "Low"));
    })?;
    match (high, low) {
        (Some(h), Some(l)) => Ok((h, l)),
        _ => Err("the server printed no High and Low URLs".to_owned()),
    }
}

/// Runs one point of `column` against a fresh server: the client's
/// report, with the server's lock counts where it gives them; under a
/// flood, the report goes with what the flood did.
pub(crate) fn run_point(
    programs: &Programs,
    column: Column,
    point: Point,
) -> Result<(ClientReport, Option<(Flood, FloodPoint)>), String> {
    let omniorb = || {
        programs
            .omniorb
            .as_ref()
            .ok_or("omniORB's peers are not built")
    };
    let start = Duration::from_secs(30);
    let limit = watchdog_deadline(point.duration_ms) + Duration::from_secs(30);
    let (server, server_name, (high, low)) = match column {
        Column::Rtorb(configuration) => {
            let mut c = Command::new(&programs.exe);
            c.args(["priority-server", "--endpoint", "iiop://127.0.0.1:0"])
                .arg(configuration_flag(configuration))
                // The server outlives the client's run by at most the time
                // the client is given, and as long again to shut down.
                .args(["--watchdog-ms", &(2 * limit.as_millis()).to_string()])
                .args(programs.habits.child_args());
            let mut server = Proc::spawn_held(c, "rtorb-bench priority-server")?;
            let urls = urls(&mut server, start)?;
            (server, "rtorb", urls)
        }
        Column::Omniorb => {
            // The port is chosen before the server binds it: another
            // process may take it in between, and then a new one is tried.
            let mut tries = 0;
            loop {
                let mut c = Command::new(&omniorb()?.server);
                c.args([
                    "-ORBendPoint",
                    &format!("giop:tcp:127.0.0.1:{}", free_port()?),
                ])
                .args(programs.habits.child_args());
                let mut server = Proc::spawn_held(c, "omniORB priority_server")?;
                match urls(&mut server, start) {
                    Ok(urls) => break (server, "omniORB", urls),
                    Err(e) if tries == 2 => return Err(e),
                    Err(_) => tries += 1,
                }
            }
        }
    };
    // Started before the client, stopped once it has reported.
    let attacker_cpus = match column {
        Column::Rtorb(configuration) => configuration.other_cpus(),
        Column::Omniorb => Vec::new(),
    };
    let flood = point
        .flood
        .map(|f| flood::start(f, &low, &attacker_cpus))
        .transpose()?;
    let lows = point.lows.to_string();
    let high_hz = point.rates.high_hz().to_string();
    let low_hz = point.rates.low_hz().to_string();
    let duration = point.duration_ms.to_string();
    let policy = programs.policy.name();
    let slots = programs.tick.slots(point.rates);
    let output = match column {
        Column::Rtorb(configuration) => {
            let mut c = Command::new(&programs.exe);
            c.args(["priority-client", "--lows", &lows])
                .args(["--high-hz", &high_hz, "--low-hz", &low_hz])
                .args(["--duration-ms", &duration, "--policy", policy])
                .arg(configuration_flag(configuration))
                .args(programs.habits.child_args())
                .args(slots.args())
                .args([&high, &low]);
            run_client(c, "rtorb-bench priority-client", limit)?
        }
        Column::Omniorb => {
            let mut c = Command::new(&omniorb()?.client);
            c.args(["-n", &lows, "--high-hz", &high_hz, "--low-hz", &low_hz])
                .args(["--duration-ms", &duration, "--policy", policy])
                .args(programs.habits.child_args())
                .args(slots.args())
                .args([&high, &low])
                .args(OMNIORB_CLIENT_OPTIONS);
            run_client(c, "omniORB priority_client", limit)?
        }
    };
    let line = output.lines().last().unwrap_or_default();
    let mut report: ClientReport =
        serde_json::from_str(line).map_err(|e| format!("the client's report: {e}: {line:?}"))?;
    slots.check("the client", report.start_ns)?;
    let flood = flood.map(|f| f.finish(report.clone()));
    let rest = server.finish(Duration::from_secs(20))?;
    if server_name == "rtorb" {
        let line = rest
            .iter()
            .find_map(|l| l.strip_prefix(STATS_PREFIX))
            .ok_or("the rtorb server printed no stats")?;
        let stats: ServerReport =
            serde_json::from_str(line).map_err(|e| format!("server stats {line}: {e}"))?;
        report.high.server_locks = stats.high.locks;
        report.low.server_locks = stats.low.locks;
    }
    Ok(match flood {
        Some((kind, mut point)) => {
            point.client = report;
            (point.client.clone(), Some((kind, point)))
        }
        None => (report, None),
    })
}

/// The command-line flag of a configuration.
fn configuration_flag(configuration: Configuration) -> &'static str {
    match configuration {
        Configuration::Conventional => "--conventional",
        Configuration::RealTime => "--real-time",
    }
}

/// A loopback port free now, for omniORB's server, which needs a fixed
/// one to make its corbaloc URLs from.
fn free_port() -> Result<u16, String> {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| format!("no free loopback port: {e}"))
}
