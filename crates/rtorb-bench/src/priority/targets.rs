//! Whether C0's targets hold under each flood: its mean within +10% of
//! its unflooded mean at the smallest n (n = 1 by default), no missed
//! call, and its p99 within twice its mean, at every n.

use super::class_stats::ClassStats;
use super::flood::Verdict;
use super::results::Results;

/// C0's mean under a flood may exceed its unflooded mean by this factor.
const MEAN_FACTOR: f64 = 1.10;
/// C0's p99 may be at most this many times its mean.
const P99_FACTOR: f64 = 2.0;

/// Judges every flood of `results` against C0's targets.
pub(crate) fn judge(results: &Results) -> Vec<Verdict> {
    let Some(floods) = &results.flood else {
        return Vec::new();
    };
    let Some(first) = results.n.iter().min().copied() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for flood in &floods.kinds {
        for configuration in &results.configurations {
            for rates in results.rate_sets() {
                let Some(base) = results.get(configuration, rates, first) else {
                    continue;
                };
                let baseline = base.high.mean_us;
                let mut misses = Vec::new();
                for n in &results.n {
                    if let Some(f) = floods.failure(*flood, configuration, rates, *n) {
                        misses.push(format!("n = {n}: failed ({})", f.reason));
                        continue;
                    }
                    let Some(p) = floods.get(*flood, configuration, rates, *n) else {
                        continue;
                    };
                    let c0 = &p.client.high;
                    // The unflooded point at this n, for comparison.
                    let calm = results.get(configuration, rates, *n).map(|r| &r.high);
                    let was = |f: &dyn Fn(&ClassStats) -> String| {
                        calm.map_or_else(String::new, |c| format!(" (unflooded {})", f(c)))
                    };
                    if c0.mean_us > baseline * MEAN_FACTOR {
                        misses.push(format!(
                            "n = {n}: mean {:.1} µs > {:.1} µs",
                            c0.mean_us,
                            baseline * MEAN_FACTOR
                        ));
                    }
                    if c0.missed > 0 {
                        let was = was(&|c| c.missed_cell());
                        misses.push(format!(
                            "n = {n}: {} missed, {} of them the timer's{was}",
                            c0.missed, c0.missed_late_wakeup
                        ));
                    }
                    if c0.p99_us > P99_FACTOR * c0.mean_us {
                        let was = was(&|c| format!("{:.1} µs", c.p99_us));
                        misses.push(format!(
                            "n = {n}: p99 {:.1} µs > 2 × mean {:.1} µs{was}",
                            c0.p99_us, c0.mean_us
                        ));
                    }
                }
                out.push(Verdict {
                    flood: *flood,
                    configuration: configuration.clone(),
                    rates: rates.name(),
                    baseline_mean_us: baseline,
                    baseline_n: first,
                    holds: misses.is_empty(),
                    misses,
                });
            }
        }
    }
    out
}
