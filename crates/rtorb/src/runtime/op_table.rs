//! Operation demultiplexing by a perfect hash computed when the IDL is
//! compiled.
//!
//! For each interface, `rtorb-idl` computes a minimal perfect hash of its
//! operation names (its own and inherited operations and the
//! `_get_`/`_set_` attribute accessors) and emits it as a `static`
//! [`OpTable`]. The skeleton's dispatch calls [`OpTable::lookup`] on the
//! request's operation name and `match`es the index it returns, so that
//! finding an operation costs one hash, one displacement and one string
//! comparison, whatever the number of operations.
//!
//! # The hash
//!
//! The scheme is hash and displace: [`op_hash`] hashes a name with the
//! table's seed to 64 bits; the high 32 bits pick a bucket
//! ([`op_bucket`]); the bucket's displacement `d` and the whole hash pick
//! the slot ([`op_slot`]). A slot holds one name and the index of its
//! operation; the name is compared with the request's to reject a name
//! the interface does not have.
//!
//! The same three functions are written a second time in `rtorb-idl`
//! (module `phf`), which must not depend on this crate. Both crates pin
//! the same test vectors (`tests/op_table_vectors.rs` here,
//! `tests/phf_vectors.rs` there); a change to either copy must change
//! both and their vectors.

/// Multiplies two 64-bit words to 128 bits and folds the halves together
/// by exclusive or.
const fn fold_mul(a: u64, b: u64) -> u64 {
    let p = (a as u128) * (b as u128);
    (p as u64) ^ ((p >> 64) as u64)
}

const K0: u64 = 0x9e37_79b9_7f4a_7c15;
const K1: u64 = 0xc2b2_ae3d_27d4_eb4f;
const K2: u64 = 0x1656_67b1_9e37_79f9;

/// The octets `at..at + 8` of `s` as a little-endian word (0 past the
/// end, which callers never reach).
#[inline(always)]
fn word8(s: &[u8], at: usize) -> u64 {
    match s.get(at..at + 8) {
        Some(w) => {
            let mut b = [0u8; 8];
            b.copy_from_slice(w);
            u64::from_le_bytes(b)
        }
        None => 0,
    }
}

/// The octets `at..at + 4` of `s` as a little-endian word.
#[inline(always)]
fn word4(s: &[u8], at: usize) -> u64 {
    match s.get(at..at + 4) {
        Some(w) => {
            let mut b = [0u8; 4];
            b.copy_from_slice(w);
            u64::from(u32::from_le_bytes(b))
        }
        None => 0,
    }
}

/// The seeded 64-bit hash of an operation name that the tables are built
/// on. Names of up to 16 octets are read as two (overlapping) words: the
/// first and the last 8 octets (4 for names of 4 to 7 octets; the first,
/// middle and last octet for shorter ones); longer names first fold each
/// 16-octet block into the state. The words are folded together by one
/// 128-bit multiplication, and the result with the length by another.
#[inline]
pub fn op_hash(seed: u64, name: &[u8]) -> u64 {
    let len = name.len();
    let mut h = seed ^ K0;
    let (a, b) = if len <= 16 {
        if len >= 8 {
            (word8(name, 0), word8(name, len - 8))
        } else if len >= 4 {
            (word4(name, 0), word4(name, len - 4))
        } else if len > 0 {
            let at = |i: usize| u64::from(name.get(i).copied().unwrap_or(0));
            ((at(0) << 16) | (at(len / 2) << 8) | at(len - 1), 0)
        } else {
            (0, 0)
        }
    } else {
        let mut at = 0;
        while len - at > 16 {
            h = fold_mul(word8(name, at) ^ K1, word8(name, at + 8) ^ h);
            at += 16;
        }
        (word8(name, len - 16), word8(name, len - 8))
    };
    let r = fold_mul(a ^ K1, b ^ h);
    fold_mul(r ^ K2, (len as u64) ^ K1)
}

/// `a == b`, compared a word at a time (the last word overlapping the one
/// before it) rather than by a call to `memcmp`: names are short.
#[inline(always)]
fn same_name(a: &[u8], b: &[u8]) -> bool {
    let len = a.len();
    if len != b.len() {
        return false;
    }
    if len >= 8 {
        let mut at = 0;
        while at + 8 < len {
            if word8(a, at) != word8(b, at) {
                return false;
            }
            at += 8;
        }
        word8(a, len - 8) == word8(b, len - 8)
    } else if len >= 4 {
        word4(a, 0) == word4(b, 0) && word4(a, len - 4) == word4(b, len - 4)
    } else {
        a == b
    }
}

/// Maps a 32-bit hash uniformly onto `0..n` (multiply and shift, no
/// division). Always `0` for `n == 0`, otherwise less than `n`.
const fn reduce(x: u32, n: usize) -> usize {
    (((x as u128) * (n as u128)) >> 32) as usize
}

/// The bucket, out of `buckets`, of a name whose [`op_hash`] is `hash`.
pub const fn op_bucket(hash: u64, buckets: usize) -> usize {
    reduce((hash >> 32) as u32, buckets)
}

/// The slot, out of `slots`, of a name whose [`op_hash`] is `hash` and
/// whose bucket has the displacement `disp`.
pub const fn op_slot(hash: u64, disp: u32, slots: usize) -> usize {
    let x = (hash ^ (disp as u64).wrapping_mul(K1)).wrapping_mul(K2);
    reduce((x >> 32) as u32, slots)
}

/// The operation table of one interface: a minimal perfect hash of its
/// operation names, as `rtorb-idl` generates it into a `static`:
///
/// ```
/// use rtorb::runtime::OpTable;
///
/// static OPS: OpTable<'static> = OpTable {
///     seed: 0xdde61a46db7dd424,
///     disp: &[0],
///     names: &["twice"],
///     index: &[0],
/// };
///
/// assert_eq!(OPS.lookup(b"twice"), Some(0));
/// assert_eq!(OPS.lookup(b"thrice"), None);
/// ```
///
/// `names` and `index` have one entry per slot, `disp` one per bucket. A
/// table whose fields do not agree (as `rtorb-idl` never emits) finds
/// fewer names, but never panics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpTable<'a> {
    /// The seed of [`op_hash`] for this table.
    pub seed: u64,
    /// The displacement of each bucket ([`op_slot`]).
    pub disp: &'a [u32],
    /// The operation name in each slot.
    pub names: &'a [&'a str],
    /// The index of the operation in each slot: its position in the
    /// interface's list of operations, which the skeleton `match`es on.
    pub index: &'a [u32],
}

impl OpTable<'_> {
    /// The index of the operation called `name`, or `None` if the table
    /// does not hold it. One hash, one displacement, one comparison; no
    /// allocation.
    #[inline]
    pub fn lookup(&self, name: &[u8]) -> Option<usize> {
        let h = op_hash(self.seed, name);
        let d = *self.disp.get(op_bucket(h, self.disp.len()))?;
        let slot = op_slot(h, d, self.names.len());
        if same_name(self.names.get(slot)?.as_bytes(), name) {
            self.index.get(slot).map(|&i| i as usize)
        } else {
            None
        }
    }

    /// The number of operations in the table.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the table holds no operation.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}
