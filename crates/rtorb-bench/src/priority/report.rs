//! The results of a run as a table, one section per rate set (the
//! machine's floor, then C0 and the low threads of every configuration at
//! each n, each flood's rows under them), or as one JSON object.

use std::fmt::Write as _;

use super::class_stats::ClassStats;
use super::flood::CONNECTIONS;
use super::floor::{self, Floor};
use super::results::Results;
use super::schedule::RateSet;

fn opt(v: Option<f64>) -> String {
    v.map_or_else(|| "-".to_owned(), |v| format!("{v:.1}"))
}

/// One row of the table: the figures of one class of threads.
fn row(out: &mut String, n: &str, configuration: &str, class: &str, s: &ClassStats) {
    let _ = writeln!(
        out,
        "{n:>4}  {configuration:<20} {class:<4} {:>7} {:>9} {:>9.1} {:>9.1} {:>9.1} {:>9.1} {:>9.1} {:>6} {:>6}",
        s.calls,
        s.missed_cell(),
        s.mean_us,
        s.p50_us,
        s.p99_us,
        s.max_us,
        s.stddev_us,
        opt(s.client_locks),
        opt(s.server_locks),
    );
}

/// The results as a table, one section per rate set.
pub(crate) fn table(results: &Results) -> String {
    let mut out = String::from(
        "The priority-inversion benchmark: one high-priority client thread C0 calling the \
         object High and n low-priority threads calling Low (twoway cube_octet), every call \
         at its slot, the phases aligned.\n\
         calls: answered; missed: slots whose reply came after the next slot, or never \
         issued (a/b: b of the a were the timer's: the thread woke late for the slot or an \
         earlier one and no call since took longer than the period); jitter: standard deviation; c./s.lock: lock acquisitions per request on \
         the client and the server (- : not counted).\n",
    );
    let _ = writeln!(
        out,
        "{}\n{}\n{}",
        floor::LEGEND,
        results.habits.describe(),
        results.tick.describe(&results.rate_sets())
    );
    for rates in results.rate_sets() {
        let info = &results.rate_sets[rates.name()];
        let _ = writeln!(
            out,
            "\n== {} rates: C0 at {} Hz, each low thread at {} Hz, {} ms per point",
            rates.name(),
            info.high_hz,
            info.low_hz,
            info.duration_ms
        );
        let _ = writeln!(
            out,
            "{:>4}  {:<20} {:<4} {:>7} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>6} {:>6}",
            "n",
            "configuration",
            "",
            "calls",
            "missed",
            "mean µs",
            "p50 µs",
            "p99 µs",
            "max µs",
            "jitter",
            "c.lock",
            "s.lock"
        );
        if let Some(f) = results.floor.get(rates.name()) {
            floor_rows(&mut out, f);
        }
        for n in &results.n {
            let mut first = true;
            for configuration in &results.configurations {
                let Some(r) = results.get(configuration, rates, *n) else {
                    continue;
                };
                let label = if first { n.to_string() } else { String::new() };
                first = false;
                row(&mut out, &label, configuration, "C0", &r.high);
                row(&mut out, "", "", "low", &r.low);
                flood_rows(&mut out, results, configuration, rates, *n);
            }
        }
    }
    flood_summary(&mut out, results);
    for note in &results.notes {
        let _ = writeln!(out, "\n{note}");
    }
    out
}

/// The floor's rows of a rate set's table: the label over two lines,
/// the runs before (`pre`) and after (`post`) the points.
fn floor_rows(out: &mut String, floor: &Floor) {
    row(out, "", "machine floor", "pre", &floor.before.stats);
    row(out, "", "(TCP echo, no ORB)", "post", &floor.after.stats);
}

/// The rows of the floods of one configuration, rate set and n, under
/// its unflooded rows.
fn flood_rows(out: &mut String, results: &Results, configuration: &str, rates: RateSet, n: u32) {
    let Some(floods) = &results.flood else {
        return;
    };
    for flood in &floods.kinds {
        let label = format!("  + {}", flood.name());
        if let Some(p) = floods.get(*flood, configuration, rates, n) {
            row(out, "", &label, "C0", &p.client.high);
            row(out, "", "", "low", &p.client.low);
        } else if let Some(f) = floods.failure(*flood, configuration, rates, n) {
            let _ = writeln!(out, "      {label:<20} failed: {}", f.reason);
        }
    }
}

/// Whether C0's targets hold under each flood, as lines of the table.
fn flood_summary(out: &mut String, results: &Results) {
    let Some(floods) = &results.flood else {
        return;
    };
    let _ = writeln!(
        out,
        "\nFloods (+ KIND rows) aimed at the Low object's own endpoint (the low lane's in the \
         real-time configuration, the server's port otherwise) by threads under SCHED_OTHER: \
         connections: {CONNECTIONS} idle connections; garbage: random bytes; half-messages: \
         {CONNECTIONS} stalled half GIOP headers; unread-replies: 1 MiB requests whose replies \
         are never read.\nC0's targets under a flood: mean within +10% of its unflooded mean at \
         the smallest n, no missed call, p99 at most 2 × mean, at every n."
    );
    for v in &floods.targets {
        let verdict = if v.holds {
            "hold".to_owned()
        } else {
            format!("missed: {}", v.misses.join("; "))
        };
        let _ = writeln!(
            out,
            "  {:<20} {:<8} {:<15} (n = {} unflooded mean {:.1} µs): {verdict}",
            v.configuration,
            v.rates,
            v.flood.name(),
            v.baseline_n,
            v.baseline_mean_us
        );
    }
}

/// The results as one JSON object.
pub(crate) fn json(results: &Results) -> Result<String, String> {
    serde_json::to_string(results)
        .map(|s| s + "\n")
        .map_err(|e| e.to_string())
}
