//! Perfect hashing of operation names, for skeleton dispatch in O(1).
//!
//! For each interface, the back end lists the operation names a request
//! may carry (its own and inherited operations, and `_get_x`/`_set_x`
//! for each attribute), calls [`PerfectHash::generate`], and embeds
//! [`PerfectHash::render_static`] in the generated code: a `static`
//! `rtorb::codegen::OpTable` whose `lookup` returns the position of the
//! operation in that list. The generated dispatch `match`es that position.
//!
//! # Scheme
//!
//! Hash and displace, minimal (one slot per name). A name's [`op_hash`]
//! under the table's seed picks a bucket ([`op_bucket`], from its high
//! half; about [`BUCKET_LOAD`] names per bucket). Buckets are placed
//! largest first: each gets the smallest displacement `d` for which
//! [`op_slot`] sends every name of the bucket to a distinct free slot.
//! When a bucket finds none below a bound, or two names share a whole
//! hash, the next seed of a fixed sequence is tried, so the output is a
//! function of the input list alone.
//!
//! # One hash for both sides
//!
//! The run-time lookup in `rtorb` (`rtorb::codegen::OpTable`) computes
//! the same [`op_hash`], [`op_bucket`] and [`op_slot`]: both take them
//! from `rtorb_giop::op_hash`, where test vectors pin them.

use std::cmp::Reverse;
use std::collections::HashSet;
use std::fmt::Write as _;

pub use rtorb_giop::op_hash::{op_bucket, op_hash, op_slot};

/// The mean number of names per bucket: the table has
/// `ceil(n / BUCKET_LOAD)` displacements for `n` names.
pub const BUCKET_LOAD: usize = 4;

/// The most operation names one table holds.
pub const MAX_OPERATIONS: usize = 1 << 20;

/// How many seeds [`PerfectHash::generate`] tries before giving up.
const MAX_SEEDS: u64 = 64;

/// Why no table was built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PhfError {
    /// The same operation name appears twice in the list.
    #[error("operation `{0}` appears twice")]
    DuplicateOperation(String),
    /// More names than [`MAX_OPERATIONS`].
    #[error("{0} operations: a table holds at most {MAX_OPERATIONS}")]
    TooManyOperations(usize),
    /// No seed of the sequence gave a perfect hash (not expected for
    /// distinct names).
    #[error("no perfect hash found for {0} operations")]
    NoPerfectHash(usize),
}

/// A minimal perfect hash of a list of operation names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerfectHash {
    seed: u64,
    displacements: Vec<u32>,
    slots: Vec<usize>,
    names: Vec<String>,
}

impl PerfectHash {
    /// Builds the table for `names`, in the order the generated dispatch
    /// numbers the operations. Deterministic: the same list gives the same
    /// table.
    pub fn generate<S: AsRef<str>>(names: &[S]) -> Result<PerfectHash, PhfError> {
        let n = names.len();
        if n > MAX_OPERATIONS {
            return Err(PhfError::TooManyOperations(n));
        }
        let mut seen = HashSet::with_capacity(n);
        for name in names {
            if !seen.insert(name.as_ref()) {
                return Err(PhfError::DuplicateOperation(name.as_ref().to_owned()));
            }
        }
        let names: Vec<String> = names.iter().map(|s| s.as_ref().to_owned()).collect();
        for attempt in 0..MAX_SEEDS {
            let seed = op_hash(attempt, b"rtorb operation table");
            let hashes: Vec<u64> = names.iter().map(|s| op_hash(seed, s.as_bytes())).collect();
            if let Some((displacements, slots)) = place(&hashes) {
                return Ok(PerfectHash {
                    seed,
                    displacements,
                    slots,
                    names,
                });
            }
        }
        Err(PhfError::NoPerfectHash(n))
    }

    /// The seed of [`op_hash`].
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The displacement of each bucket.
    pub fn displacements(&self) -> &[u32] {
        &self.displacements
    }

    /// For each slot, the position in the input list of the name it holds.
    pub fn slots(&self) -> &[usize] {
        &self.slots
    }

    /// The names, in input order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The name each slot holds (the `names` field of the `OpTable`).
    pub fn slot_names(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.slots
            .iter()
            .map(|&i| self.names.get(i).map_or("", String::as_str))
    }

    /// The position in the input list of `name`, found as
    /// `rtorb::codegen::OpTable::lookup` finds it: one hash, one
    /// displacement, one comparison.
    pub fn lookup(&self, name: &[u8]) -> Option<usize> {
        let h = op_hash(self.seed, name);
        let d = *self
            .displacements
            .get(op_bucket(h, self.displacements.len()))?;
        let i = *self.slots.get(op_slot(h, d, self.slots.len()))?;
        (self.names.get(i)?.as_bytes() == name).then_some(i)
    }

    /// Rust source of a `static` named `ident` holding this table as an
    /// `rtorb::codegen::OpTable<'static>`, ending with a newline:
    ///
    /// ```text
    /// static CUBIT_OPS: ::rtorb::codegen::OpTable<'static> = ::rtorb::codegen::OpTable {
    ///     seed: 0x0123456789abcdef,
    ///     disp: &[3, 0],
    ///     names: &[
    ///         "cube_long",
    ///         ...
    ///     ],
    ///     index: &[3, ...],
    /// };
    /// ```
    ///
    /// Names are written as Rust string literals (escaped where needed);
    /// lists of numbers run 16 to a line.
    pub fn render_static(&self, ident: &str) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "static {ident}: ::rtorb::codegen::OpTable<'static> = ::rtorb::codegen::OpTable {{"
        );
        let _ = writeln!(out, "    seed: {:#018x},", self.seed);
        render_numbers(
            &mut out,
            "disp",
            self.displacements.iter().map(|&d| d as usize),
        );
        if self.slots.is_empty() {
            out.push_str("    names: &[],\n");
        } else {
            out.push_str("    names: &[\n");
            for name in self.slot_names() {
                let _ = writeln!(out, "        {name:?},");
            }
            out.push_str("    ],\n");
        }
        render_numbers(&mut out, "index", self.slots.iter().copied());
        out.push_str("};\n");
        out
    }
}

/// Writes `    field: &[a, b, ...],` with at most 16 numbers to a line.
fn render_numbers(out: &mut String, field: &str, values: impl ExactSizeIterator<Item = usize>) {
    const PER_LINE: usize = 16;
    let values: Vec<String> = values.map(|v| v.to_string()).collect();
    if values.len() <= PER_LINE {
        let _ = writeln!(out, "    {field}: &[{}],", values.join(", "));
    } else {
        let _ = writeln!(out, "    {field}: &[");
        for line in values.chunks(PER_LINE) {
            let _ = writeln!(out, "        {},", line.join(", "));
        }
        out.push_str("    ],\n");
    }
}

/// Finds a displacement for every bucket, given the hashes of the names
/// under one seed: the displacements and, per slot, the name's position.
/// `None` if some bucket finds no displacement below the bound, or two
/// names of one bucket share a hash.
fn place(hashes: &[u64]) -> Option<(Vec<u32>, Vec<usize>)> {
    let n = hashes.len();
    let nb = n.div_ceil(BUCKET_LOAD);
    let mut buckets: Vec<Vec<usize>> = vec![Vec::new(); nb];
    for (i, &h) in hashes.iter().enumerate() {
        buckets.get_mut(op_bucket(h, nb))?.push(i);
    }
    let mut order: Vec<usize> = (0..nb).collect();
    order.sort_by_key(|&b| (Reverse(buckets[b].len()), b));

    let bound = u32::try_from(64 * n + 4096).unwrap_or(u32::MAX);
    let mut slots: Vec<Option<usize>> = vec![None; n];
    let mut disp = vec![0u32; nb];
    let mut taken: Vec<usize> = Vec::new();
    for b in order {
        let keys = &buckets[b];
        if keys.is_empty() {
            break;
        }
        for (j, &k) in keys.iter().enumerate() {
            if keys[..j].iter().any(|&o| hashes[o] == hashes[k]) {
                return None;
            }
        }
        let d = (0..bound).find(|&d| {
            taken.clear();
            for &k in keys {
                let s = op_slot(hashes[k], d, n);
                if slots[s].is_some() || taken.contains(&s) {
                    return false;
                }
                taken.push(s);
            }
            true
        })?;
        for (&k, &s) in keys.iter().zip(&taken) {
            slots[s] = Some(k);
        }
        disp[b] = d;
    }
    let slots = slots.into_iter().collect::<Option<Vec<usize>>>()?;
    Some((disp, slots))
}
