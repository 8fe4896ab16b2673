//! The results of a run: per configuration, rate set and number of low
//! threads, the figures of C0 and of the low threads; as a table or as
//! one JSON object.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use super::client::ClientReport;
use super::floor::{self, Floor};
use super::habits::Habits;
use super::schedule::RateSet;
use super::stats::ClassStats;
use super::tick::TickPlan;

/// One rate set of a run.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct RateInfo {
    /// C0's calls per second.
    pub(crate) high_hz: u32,
    /// Each low thread's calls per second.
    pub(crate) low_hz: u32,
    /// The length of each point, ms.
    pub(crate) duration_ms: u64,
}

/// Everything a run measured.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Results {
    /// The configurations, in the order of the table.
    pub(crate) configurations: Vec<String>,
    /// The rate sets run, by name.
    pub(crate) rate_sets: BTreeMap<&'static str, RateInfo>,
    /// The numbers of low threads.
    pub(crate) n: Vec<u32>,
    /// What the client threads asked for (`fifo`, `other`).
    pub(crate) policy: &'static str,
    /// Configuration → rate set → n → the client's report.
    pub(crate) results: BTreeMap<String, BTreeMap<&'static str, BTreeMap<u32, ClientReport>>>,
    /// Configurations left out, and why; scheduling notes.
    pub(crate) notes: Vec<String>,
    /// The points again under floods, with `--flood` (see [`super::flood`]).
    pub(crate) flood: Option<super::flood::FloodResults>,
    /// Rate set → the machine's floor, before the points and after.
    pub(crate) floor: BTreeMap<&'static str, Floor>,
    /// The memory and timer habits of the run.
    pub(crate) habits: Habits,
    /// Where C0's slots fell against the kernel's ticks.
    pub(crate) tick: TickPlan,
}

impl Results {
    /// The report of one point, if it ran.
    pub(crate) fn get(&self, configuration: &str, rates: RateSet, n: u32) -> Option<&ClientReport> {
        self.results.get(configuration)?.get(rates.name())?.get(&n)
    }

    /// The rate sets run, in the order of the table.
    pub(crate) fn rate_sets(&self) -> Vec<RateSet> {
        RateSet::ALL
            .into_iter()
            .filter(|r| self.rate_sets.contains_key(r.name()))
            .collect()
    }
}

fn opt(v: Option<f64>) -> String {
    v.map_or_else(|| "-".to_owned(), |v| format!("{v:.1}"))
}

/// One row of the table: the figures of one class of threads.
pub(super) fn row(out: &mut String, n: &str, configuration: &str, class: &str, s: &ClassStats) {
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
            floor::rows(&mut out, f);
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
                super::flood::rows(&mut out, results, configuration, rates, *n);
            }
        }
    }
    super::flood::summary(&mut out, results);
    for note in &results.notes {
        let _ = writeln!(out, "\n{note}");
    }
    out
}

/// The results as one JSON object.
pub(crate) fn json(results: &Results) -> Result<String, String> {
    serde_json::to_string(results)
        .map(|s| s + "\n")
        .map_err(|e| e.to_string())
}
