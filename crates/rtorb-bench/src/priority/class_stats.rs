//! The figures of one class of threads (C0, or the low-priority threads
//! together): calls, missed calls, and the mean, median, 99th percentile,
//! maximum and standard deviation (jitter) of their round trips.
//!
//! The omniORB client (`interop/omniorb/priority_client.cc`) computes the
//! same figures the same way: exact percentiles by nearest rank over
//! every call, the population standard deviation.

use serde::{Deserialize, Serialize};

/// What one class of threads measured in one point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct ClassStats {
    /// Threads of the class.
    pub(crate) threads: u64,
    /// Slots of all of them (the calls planned).
    pub(crate) slots: u64,
    /// Calls issued and answered.
    pub(crate) calls: u64,
    /// Slots missed: replies after the slot's deadline (its next slot),
    /// and slots not issued by the end of the run.
    pub(crate) missed: u64,
    /// Of the slots missed, those a late wake-up caused (see
    /// `schedule.rs`): the timer's misses, not the calls'.
    #[serde(default)]
    pub(crate) missed_late_wakeup: u64,
    /// Mean round trip, µs.
    pub(crate) mean_us: f64,
    /// Median, µs.
    pub(crate) p50_us: f64,
    /// 99th percentile, µs.
    pub(crate) p99_us: f64,
    /// Longest, µs.
    pub(crate) max_us: f64,
    /// Standard deviation (jitter), µs.
    pub(crate) stddev_us: f64,
    /// Lock acquisitions per call on the client (`None`: not counted).
    pub(crate) client_locks: Option<f64>,
    /// Lock acquisitions per request on the server (`None`: not counted;
    /// filled in by the benchmark from the server's report).
    #[serde(default)]
    pub(crate) server_locks: Option<f64>,
}

/// The `q` quantile of sorted `v` by nearest rank: the smallest value
/// that at least that fraction of the values do not exceed.
fn quantile(sorted: &[u64], q: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

impl ClassStats {
    /// The figures of `threads` threads that had `slots` slots in all,
    /// missed `missed`, and took `latencies_ns` (every call of every
    /// thread; sorted here).
    pub(crate) fn of(
        threads: u64,
        slots: u64,
        missed: u64,
        mut latencies_ns: Vec<u64>,
        client_locks: Option<f64>,
    ) -> ClassStats {
        latencies_ns.sort_unstable();
        let n = latencies_ns.len();
        let us = |ns: f64| ns / 1000.0;
        let (mean, stddev) = if n == 0 {
            (0.0, 0.0)
        } else {
            let mean = latencies_ns.iter().map(|v| *v as f64).sum::<f64>() / n as f64;
            let var = latencies_ns
                .iter()
                .map(|v| (*v as f64 - mean).powi(2))
                .sum::<f64>()
                / n as f64;
            (mean, var.sqrt())
        };
        ClassStats {
            threads,
            slots,
            calls: n as u64,
            missed,
            missed_late_wakeup: 0,
            mean_us: us(mean),
            p50_us: us(quantile(&latencies_ns, 0.5) as f64),
            p99_us: us(quantile(&latencies_ns, 0.99) as f64),
            max_us: us(latencies_ns.last().copied().unwrap_or(0) as f64),
            stddev_us: us(stddev),
            client_locks,
            server_locks: None,
        }
    }

    /// The same figures, `late` of whose missed slots were woken for too
    /// late.
    pub(crate) fn with_late_wakeups(mut self, late: u64) -> ClassStats {
        self.missed_late_wakeup = late.min(self.missed);
        self
    }

    /// The missed slots as the table shows them: `missed`, or
    /// `missed/late` when some were the timer's.
    pub(crate) fn missed_cell(&self) -> String {
        if self.missed_late_wakeup == 0 {
            self.missed.to_string()
        } else {
            format!("{}/{}", self.missed, self.missed_late_wakeup)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_of_a_class() {
        let s = ClassStats::of(2, 6, 1, vec![4000, 2000, 2000, 6000, 1000], Some(2.0));
        assert_eq!((s.threads, s.slots, s.calls, s.missed), (2, 6, 5, 1));
        assert_eq!(s.mean_us, 3.0);
        assert_eq!(s.p50_us, 2.0);
        assert_eq!(s.p99_us, 6.0);
        assert_eq!(s.max_us, 6.0);
        assert!((s.stddev_us - 1.788_854).abs() < 1e-5, "{}", s.stddev_us);
        assert_eq!(s.client_locks, Some(2.0));
        assert_eq!(s.missed_cell(), "1");
        assert_eq!(s.clone().with_late_wakeups(1).missed_cell(), "1/1");
        assert_eq!(s.with_late_wakeups(5).missed_late_wakeup, 1);
        let none = ClassStats::of(1, 3, 3, Vec::new(), None);
        assert_eq!((none.calls, none.mean_us, none.p99_us), (0, 0.0, 0.0));
    }

    #[test]
    fn nearest_rank_quantiles() {
        let v: Vec<u64> = (1..=100).collect();
        assert_eq!(quantile(&v, 0.5), 50);
        assert_eq!(quantile(&v, 0.99), 99);
        assert_eq!(quantile(&v, 1.0), 100);
        assert_eq!(quantile(&[7], 0.01), 7);
    }
}
