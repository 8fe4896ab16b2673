//! Latency statistics of one operation, as the benchmark prints them.

use std::collections::BTreeMap;
use std::time::Duration;

use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};

/// What one client measured for one operation, and what the server
/// counted for it when it said.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct OpStats {
    /// Calls measured.
    pub(crate) calls: u64,
    /// Calls per second over the measured calls, back to back.
    pub(crate) calls_per_s: f64,
    /// Mean round trip, microseconds.
    pub(crate) mean_us: f64,
    /// Median.
    pub(crate) p50_us: f64,
    /// 99th percentile.
    pub(crate) p99_us: f64,
    /// 99.9th percentile.
    pub(crate) p999_us: f64,
    /// Longest call.
    pub(crate) max_us: f64,
    /// Heap allocations per call on the client (`None`: not counted).
    pub(crate) allocs: Option<f64>,
    /// Lock acquisitions per call on the client (`None`: not counted).
    pub(crate) locks: Option<f64>,
    /// Microseconds per call in each stage on the client (`probe` builds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) stages_us: Option<BTreeMap<String, f64>>,
}

/// Per-call round-trip times of one operation.
pub(crate) struct Recorder {
    histogram: Histogram<u64>,
}

impl Recorder {
    /// A recorder of times from 1 ns to 100 s at 3 significant digits
    /// (it allocates here, never while recording).
    pub(crate) fn new() -> Recorder {
        Recorder {
            histogram: Histogram::new_with_bounds(1, 100_000_000_000, 3)
                .expect("valid histogram bounds"),
        }
    }

    /// Records one call.
    #[inline]
    pub(crate) fn record(&mut self, d: Duration) {
        let ns = (d.as_nanos() as u64).clamp(1, 100_000_000_000);
        // In bounds by the clamp.
        let _ = self.histogram.record(ns);
    }

    /// The statistics of the calls recorded, which took `total`.
    pub(crate) fn stats(&self, total: Duration) -> OpStats {
        let h = &self.histogram;
        let us = |ns: u64| ns as f64 / 1000.0;
        let calls = h.len();
        OpStats {
            calls,
            calls_per_s: if total.is_zero() {
                0.0
            } else {
                calls as f64 / total.as_secs_f64()
            },
            mean_us: h.mean() / 1000.0,
            p50_us: us(h.value_at_quantile(0.5)),
            p99_us: us(h.value_at_quantile(0.99)),
            p999_us: us(h.value_at_quantile(0.999)),
            max_us: us(h.max()),
            allocs: None,
            locks: None,
            stages_us: None,
        }
    }
}

/// The median of `values` (the mean of the middle two for an even
/// count); `None` for none.
pub(crate) fn median(values: impl IntoIterator<Item = f64>) -> Option<f64> {
    let mut v: Vec<f64> = values.into_iter().collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let mid = v.len() / 2;
    Some(if v.len() % 2 == 1 {
        v[mid]
    } else {
        (v[mid - 1] + v[mid]) / 2.0
    })
}

/// The median of each stage's time over `maps` (stages some maps lack
/// take the median of those that have them); `None` if no map is given.
pub(crate) fn median_stages<'a>(
    maps: impl IntoIterator<Item = Option<&'a BTreeMap<String, f64>>>,
) -> Option<BTreeMap<String, f64>> {
    let maps: Vec<&BTreeMap<String, f64>> = maps.into_iter().flatten().collect();
    if maps.is_empty() {
        return None;
    }
    let mut out = BTreeMap::new();
    for key in maps.iter().flat_map(|m| m.keys()) {
        if out.contains_key(key) {
            continue;
        }
        if let Some(v) = median(maps.iter().filter_map(|m| m.get(key).copied())) {
            out.insert(key.clone(), v);
        }
    }
    Some(out)
}

impl OpStats {
    /// One operation measured in several rounds, as one: the median of
    /// each time and rate over the rounds, the calls summed, and the
    /// most allocations and locks any round counted (they do not vary in
    /// steady state; where they do, the worst is shown). `None` for no
    /// rounds.
    pub(crate) fn over_rounds(rounds: &[&OpStats]) -> Option<OpStats> {
        let m = |f: fn(&OpStats) -> f64| median(rounds.iter().map(|s| f(s)));
        let worst =
            |f: fn(&OpStats) -> Option<f64>| rounds.iter().filter_map(|s| f(s)).reduce(f64::max);
        Some(OpStats {
            calls: rounds.iter().map(|s| s.calls).sum(),
            calls_per_s: m(|s| s.calls_per_s)?,
            mean_us: m(|s| s.mean_us)?,
            p50_us: m(|s| s.p50_us)?,
            p99_us: m(|s| s.p99_us)?,
            p999_us: m(|s| s.p999_us)?,
            max_us: m(|s| s.max_us)?,
            allocs: worst(|s| s.allocs),
            locks: worst(|s| s.locks),
            stages_us: median_stages(rounds.iter().map(|s| s.stages_us.as_ref())),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_ordered_and_in_microseconds() {
        let mut r = Recorder::new();
        for i in 1..=1000u64 {
            r.record(Duration::from_micros(i));
        }
        let s = r.stats(Duration::from_millis(500));
        assert_eq!(s.calls, 1000);
        assert!((s.calls_per_s - 2000.0).abs() < 1e-6);
        assert!((s.mean_us - 500.5).abs() < 1.0, "{s:?}");
        assert!((s.p50_us - 500.0).abs() < 1.0, "{s:?}");
        assert!((s.p99_us - 990.0).abs() < 1.0, "{s:?}");
        assert!(s.p50_us <= s.p99_us && s.p99_us <= s.p999_us && s.p999_us <= s.max_us);
        assert!((s.max_us - 1000.0).abs() < 1.0, "{s:?}");
    }

    #[test]
    fn medians_of_odd_and_even_counts() {
        assert_eq!(median([]), None);
        assert_eq!(median([3.0]), Some(3.0));
        assert_eq!(median([5.0, 1.0, 3.0]), Some(3.0));
        assert_eq!(median([4.0, 1.0, 3.0, 2.0]), Some(2.5));
    }

    fn round(mean: f64, max: f64, allocs: f64) -> OpStats {
        OpStats {
            calls: 100,
            calls_per_s: 1e6 / mean,
            mean_us: mean,
            p50_us: mean - 0.5,
            p99_us: mean * 2.0,
            p999_us: mean * 3.0,
            max_us: max,
            allocs: Some(allocs),
            locks: None,
            stages_us: Some(BTreeMap::from([("read".to_owned(), mean / 10.0)])),
        }
    }

    #[test]
    fn rounds_combine_as_medians_with_the_worst_counts() {
        let (a, b, c) = (
            round(5.0, 90.0, 0.0),
            round(9.0, 30.0, 0.0),
            round(6.0, 40.0, 1.0),
        );
        let s = OpStats::over_rounds(&[&a, &b, &c]).unwrap();
        assert_eq!(s.calls, 300);
        assert_eq!(s.mean_us, 6.0);
        assert_eq!(s.p50_us, 5.5);
        assert_eq!(s.p99_us, 12.0);
        assert_eq!(s.max_us, 40.0);
        assert_eq!(s.calls_per_s, 1e6 / 6.0);
        assert_eq!(s.allocs, Some(1.0));
        assert_eq!(s.locks, None);
        assert_eq!(s.stages_us.unwrap()["read"], 0.6);
        assert!(OpStats::over_rounds(&[]).is_none());
    }
}

/// Values by operation, in the order of the benchmark: a JSON object
/// whose keys keep their order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ByOp<T>(pub(crate) Vec<(String, T)>);

impl<T> Default for ByOp<T> {
    fn default() -> Self {
        ByOp(Vec::new())
    }
}

impl<T> ByOp<T> {
    /// The value of operation `name`.
    pub(crate) fn get(&self, name: &str) -> Option<&T> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// The values, in order.
    pub(crate) fn values(&self) -> impl Iterator<Item = &T> {
        self.0.iter().map(|(_, v)| v)
    }
}

impl<T: Serialize> Serialize for ByOp<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

impl<'de, T: serde::de::DeserializeOwned> Deserialize<'de> for ByOp<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // serde_json keeps the order of an object's keys (preserve_order).
        let map = serde_json::Map::<String, serde_json::Value>::deserialize(d)?;
        map.into_iter()
            .map(|(k, v)| {
                serde_json::from_value(v)
                    .map(|v| (k, v))
                    .map_err(serde::de::Error::custom)
            })
            .collect::<Result<Vec<_>, _>>()
            .map(ByOp)
    }
}

#[cfg(test)]
mod by_op_tests {
    use super::*;

    #[test]
    fn by_op_keeps_its_order_through_json() {
        let v = ByOp(vec![("void".to_owned(), 1.5), ("long".to_owned(), 2.0)]);
        let text = serde_json::to_string(&v).unwrap();
        assert_eq!(text, r#"{"void":1.5,"long":2.0}"#);
        let back: ByOp<f64> = serde_json::from_str(&text).unwrap();
        assert_eq!(back, v);
        assert_eq!(back.get("long"), Some(&2.0));
        assert_eq!(back.get("short"), None);
    }
}
