//! The hash of operation names that operation tables are built on.
//!
//! `rtorb-idl` computes, for every interface, a minimal perfect hash of
//! its operation names (hash and displace) and emits it as a `static`
//! table; the ORB's skeleton dispatch looks request operation names up in
//! it. Both sides must compute exactly the same functions, so they live
//! here, in the wire layer both depend on: [`op_hash`] hashes a name with
//! the table's seed to 64 bits, its high 32 bits pick a bucket
//! ([`op_bucket`]), and the bucket's displacement with the whole hash
//! picks the slot ([`op_slot`]). The values are pinned by test vectors
//! (`tests/op_hash_vectors.rs`): changing them changes every generated
//! table.

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
pub fn same_name(a: &[u8], b: &[u8]) -> bool {
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
