//! The results of the overload benchmark: a row per scenario and server,
//! printed as a table or JSON.

use std::fmt::Write as _;

use serde::Serialize;
use serde_json::{Map, Value};

use super::probe::ProbeReport;
use super::target::{Resident, ServerKind};

/// What one scenario did to one server.
#[derive(Debug, Serialize)]
pub(crate) struct Row {
    /// The scenario (`idle-flood 2000`).
    pub(crate) scenario: String,
    /// The server attacked.
    pub(crate) server: ServerKind,
    /// The server process was alive at the end and served a new client.
    pub(crate) survived: bool,
    /// The server's resident memory.
    pub(crate) resident: Resident,
    /// The well-behaved client's figures.
    pub(crate) client: ProbeReport,
    /// Connections the server took per second (churn only).
    pub(crate) accepts_per_s: Option<f64>,
    /// What the attacker did and saw, by name.
    pub(crate) attacker: Map<String, Value>,
    /// Why the scenario could not run as planned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) error: Option<String>,
}

impl Row {
    /// A row for a scenario that could not start, saying why.
    pub(crate) fn failed(scenario: String, server: ServerKind, error: String) -> Row {
        Row {
            scenario,
            server,
            survived: false,
            resident: Resident::default(),
            client: ProbeReport::default(),
            accepts_per_s: None,
            attacker: Map::new(),
            error: Some(error),
        }
    }
}

fn mib(kib: Option<u64>) -> String {
    kib.map_or_else(|| "-".to_owned(), |k| format!("{:.1}", k as f64 / 1024.0))
}

fn ratio(r: Option<f64>) -> String {
    r.map_or_else(|| "-".to_owned(), |r| format!("{r:.1}x"))
}

/// The rows as a table, the attacker's figures under each, then the
/// notes.
pub(crate) fn table(rows: &[Row], notes: &[String]) -> String {
    let mut out = format!(
        "{:<24} {:<22} {:>8} {:>28} {:>26} {:>26} {:>7} {:>9} {:>10}\n",
        "scenario",
        "server",
        "survived",
        "RSS MiB before/peak/after",
        "p50 µs before/during",
        "p99 µs before/during",
        "failed",
        "new fail",
        "accepts/s"
    );
    for r in rows {
        let c = &r.client;
        let rss = format!(
            "{}/{}/{}",
            mib(r.resident.before_kib),
            mib(r.resident.peak_kib),
            mib(r.resident.after_kib)
        );
        let p50 = format!(
            "{:.0}/{:.0} ({})",
            c.before.p50_us,
            c.during.p50_us,
            ratio(c.p50_ratio)
        );
        let p99 = format!(
            "{:.0}/{:.0} ({})",
            c.before.p99_us,
            c.during.p99_us,
            ratio(c.p99_ratio)
        );
        let accepts = r
            .accepts_per_s
            .map_or_else(|| "-".to_owned(), |a| format!("{a:.0}"));
        let _ = writeln!(
            out,
            "{:<24} {:<22} {:>8} {rss:>28} {p50:>26} {p99:>26} {:>7} {:>9} {accepts:>10}",
            r.scenario,
            r.server.name(),
            if r.survived { "yes" } else { "NO" },
            c.failed_calls,
            format!("{}/{}", c.failed_new_connections, c.new_connections),
        );
        if let Some(e) = &r.error {
            let _ = writeln!(out, "    error: {e}");
        }
        if !r.attacker.is_empty() {
            let fields: Vec<String> = r
                .attacker
                .iter()
                .map(|(k, v)| match v.as_f64() {
                    Some(f) if !v.is_u64() => format!("{k}={f:.1}"),
                    _ => format!("{k}={v}"),
                })
                .collect();
            let _ = writeln!(out, "    attacker: {}", fields.join(", "));
        }
    }
    for n in notes {
        let _ = writeln!(out, "{n}");
    }
    out
}
