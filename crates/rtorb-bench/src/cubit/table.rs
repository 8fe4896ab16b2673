//! The Cubit comparison as tables: a summary of every combination's
//! median round trip beside its floor, the figures of each operation, and
//! the time of each stage in builds with the `probe` feature.

use std::fmt::Write as _;

use super::combinations::Row;
use crate::cubit_ops::{OPS, Op, giop_messages};

fn opt(v: Option<f64>) -> String {
    v.map_or_else(|| "-".to_owned(), |v| format!("{v:.2}"))
}

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

/// The comparison of one mode as a table: the summary, then the figures
/// of each operation, then the probed stages if there are any.
pub(super) fn table(title: &str, rows: &[Row]) -> Result<String, String> {
    let mut out = format!("== {title}\n");
    out.push_str(&summary(rows));
    for op in &OPS {
        operation(&mut out, op, rows)?;
    }
    for row in rows.iter().filter(|r| {
        r.client.values().any(|s| s.stages_us.is_some())
            || r.server.values().any(|s| s.stages_us.is_some())
    }) {
        stages(&mut out, row);
    }
    Ok(out)
}

/// The figures of `op` in every row, beside the floor of its transport.
fn operation(out: &mut String, op: &Op, rows: &[Row]) -> Result<(), String> {
    let (request, reply) = giop_messages(op)?;
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
    Ok(())
}

/// The time of each stage of every operation of `row` (`probe` builds).
fn stages(out: &mut String, row: &Row) {
    let _ = writeln!(out, "\n-- stages: {}, µs per call in each stage", row.label);
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
    stages.sort_by_key(|k| rtorb::probe::Stage::ALL.iter().position(|s| s.name() == k));
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
