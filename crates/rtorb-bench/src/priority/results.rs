//! What a run of the priority benchmark measured: per configuration, rate
//! set and number of low threads, the client's report; the machine's
//! floor; the points again under floods.

use std::collections::BTreeMap;

use serde::Serialize;

use super::client::ClientReport;
use super::flood::FloodResults;
use super::floor::Floor;
use super::habits::Habits;
use super::schedule::RateSet;
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
    pub(crate) flood: Option<FloodResults>,
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
