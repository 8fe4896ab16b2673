//! The operation sets of `benches/dispatch_crossover.rs`: for each size,
//! the names, names the set lacks, and the three lookups the benchmark
//! compares, written as generated code would hold them.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::names::{operation_names, unknown_names};

/// The interface sizes measured.
pub(crate) const SIZES: &[usize] = &[10, 25, 50, 100, 200, 300, 500, 1000, 2000];

/// How many unknown names each set has.
const UNKNOWN: usize = 16;

/// The Rust source of every set: `pub mod ops_N` for each size, and
/// `SETS`, the list of them.
pub(crate) fn source() -> String {
    let mut out = String::new();
    for &n in SIZES {
        let names = operation_names(n, 0x5eed_0000 + n as u64);
        let unknown = unknown_names(&names, UNKNOWN, 0xbad_0000 + n as u64);
        let _ = writeln!(out, "/// The set of {n} operations.\npub mod ops_{n} {{");
        let _ = writeln!(
            out,
            "/// The names, in declaration order.\npub const NAMES: &[&str] = &{names:?};"
        );
        let _ = writeln!(
            out,
            "/// Names the interface does not have.\npub const UNKNOWN: &[&str] = &{unknown:?};"
        );
        let table = rtorb_idl::phf::PerfectHash::generate(&names).expect("distinct names");
        let _ = writeln!(
            out,
            "/// The generated table.\npub {}",
            table.render_static("TABLE")
        );
        out.push_str(&by_match(&names));
        out.push_str(&by_length_byte(&names));
        out.push_str("}\n");
    }
    out.push_str(
        "/// Checks and times every set, calling the lookups directly (no function pointers).\npub fn run(c: &mut ::criterion::Criterion) {\n",
    );
    for n in SIZES {
        let _ = writeln!(
            out,
            "super::run_set(c, {n}, ops_{n}::NAMES, ops_{n}::UNKNOWN, &ops_{n}::TABLE, ops_{n}::by_match, ops_{n}::by_length_byte);"
        );
    }
    out.push_str("}\n");
    out
}

/// `match name { "a" => Some(0), ... }`, as the skeleton's dispatch is.
fn by_match(names: &[String]) -> String {
    let mut out = String::from(
        "/// The operation's index by a `match` on the name.\npub fn by_match(name: &str) -> Option<usize> { match name {\n",
    );
    for (i, n) in names.iter().enumerate() {
        let _ = writeln!(out, "{n:?} => Some({i}),");
    }
    out.push_str("_ => None, } }\n");
    out
}

/// A `match` on the length, then on the octet at the position that best
/// splits the names of that length, then on the whole name.
fn by_length_byte(names: &[String]) -> String {
    let mut by_len: BTreeMap<usize, Vec<(usize, &str)>> = BTreeMap::new();
    for (i, n) in names.iter().enumerate() {
        by_len.entry(n.len()).or_default().push((i, n));
    }
    let mut out = String::from(
        "/// The operation's index by a `match` on the length, one octet, then the name.\npub fn by_length_byte(name: &[u8]) -> Option<usize> { match name.len() {\n",
    );
    for (len, group) in &by_len {
        // The position with the most distinct octets among the group.
        let pos = (0..*len)
            .max_by_key(|&p| {
                let mut seen: Vec<u8> = group.iter().map(|(_, n)| n.as_bytes()[p]).collect();
                seen.sort_unstable();
                seen.dedup();
                (seen.len(), std::cmp::Reverse(p))
            })
            .unwrap_or(0);
        let mut by_byte: BTreeMap<u8, Vec<(usize, &str)>> = BTreeMap::new();
        for &(i, n) in group {
            by_byte.entry(n.as_bytes()[pos]).or_default().push((i, n));
        }
        let _ = write!(out, "{len} => match name[{pos}] {{");
        for (b, sub) in by_byte {
            let _ = write!(out, "{b} => match name {{");
            for (i, n) in sub {
                let _ = write!(out, "b{n:?} => Some({i}),");
            }
            out.push_str("_ => None },");
        }
        out.push_str("_ => None },\n");
    }
    out.push_str("_ => None, } }\n");
    out
}
