//! Where the perfect-hash [`OpTable`] overtakes the `match` on operation
//! names in skeleton dispatch: lookups among interfaces of 10 to 2000
//! operations.
//!
//! ```text
//! cargo bench -p rtorb-idl-tests --bench dispatch_crossover
//! ```
//!
//! The build script generates, for each size, IDL-like names
//! (`get_`/`set_` pairs, `_get_`/`_set_` attribute accessors, verb-noun
//! operations, 3 to about 40 octets), 16 names the set lacks, and three
//! lookups returning the operation's index:
//!
//! - `match`: `match name { "get_mode" => Some(0), ... }`, the dispatch
//!   `rtorb-idl` generates for small interfaces;
//! - `op_table`: [`OpTable::lookup`] on the table
//!   `rtorb_idl::phf::PerfectHash` renders, the dispatch for large ones;
//! - `length_byte`: a `match` on the length, then on the octet that best
//!   splits the names of that length, then on the name.
//!
//! `hits/N` looks up every one of the N names once per iteration
//! (criterion's throughput gives the mean per lookup); `unknown/N` looks
//! up the 16 unknown names. Names are copied to the heap and pass
//! through `black_box`, as a request's operation name arrives in a
//! message buffer. Every lookup is checked before anything is timed.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput};
use rtorb::codegen::OpTable;

#[allow(clippy::all, dead_code, unreachable_pub)]
mod sets {
    include!(concat!(env!("OUT_DIR"), "/dispatch_sets.rs"));
}

/// Checks, then times, the three lookups of one set: every name, then the
/// unknown names.
fn run_set<M, L>(
    c: &mut Criterion,
    size: usize,
    names: &[&str],
    unknown: &[&str],
    table: &OpTable<'_>,
    by_match: M,
    by_length_byte: L,
) where
    M: Fn(&str) -> Option<usize>,
    L: Fn(&[u8]) -> Option<usize>,
{
    assert_eq!(names.len(), size);
    for (i, name) in names.iter().enumerate() {
        assert_eq!(table.lookup(name.as_bytes()), Some(i), "{name}");
        assert_eq!(by_match(name), Some(i), "{name}");
        assert_eq!(by_length_byte(name.as_bytes()), Some(i), "{name}");
    }
    for name in unknown {
        assert!(!names.contains(name));
        assert_eq!(table.lookup(name.as_bytes()), None, "{name}");
        assert_eq!(by_match(name), None, "{name}");
        assert_eq!(by_length_byte(name.as_bytes()), None, "{name}");
    }
    for (group, list) in [("crossover/hits", names), ("crossover/unknown", unknown)] {
        let requests: Vec<String> = list.iter().map(|s| (*s).to_owned()).collect();
        let mut g = c.benchmark_group(group);
        g.throughput(Throughput::Elements(requests.len() as u64));
        g.bench_function(BenchmarkId::new("match", size), |b| {
            b.iter(|| {
                let mut sum = 0usize;
                for name in &requests {
                    sum = sum.wrapping_add(by_match(black_box(name.as_str())).unwrap_or(1));
                }
                sum
            })
        });
        g.bench_function(BenchmarkId::new("op_table", size), |b| {
            b.iter(|| {
                let mut sum = 0usize;
                for name in &requests {
                    sum = sum.wrapping_add(table.lookup(black_box(name.as_bytes())).unwrap_or(1));
                }
                sum
            })
        });
        g.bench_function(BenchmarkId::new("length_byte", size), |b| {
            b.iter(|| {
                let mut sum = 0usize;
                for name in &requests {
                    sum = sum.wrapping_add(by_length_byte(black_box(name.as_bytes())).unwrap_or(1));
                }
                sum
            })
        });
        g.finish();
    }
}

fn main() {
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(30)
        .configure_from_args();
    sets::run(&mut c);
    c.final_summary();
}
