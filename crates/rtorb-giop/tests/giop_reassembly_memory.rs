//! What a `Reassembler` holds is what it says it holds: the memory
//! allocated for fragments never exceeds `held_bytes` (what a server
//! charges to its memory budget), and what a push allocates on the way
//! never exceeds what `held_during` announced, with fragments that never
//! end, tiny fragments, and messages that complete, with and without a
//! pool of blocks. Measured with an allocator that tracks the bytes live
//! (one test in this binary, since every thread is counted).

use std::sync::Arc;

use bytes::Bytes;
use rtorb_giop::fragment::{BlockPool, POOL_BLOCK};
use rtorb_giop::{GiopError, Reassembler, ReassemblyLimits};
use rtorb_test_support::live::{LiveAllocator, live_bytes, peak_bytes, reset_peak};
use rtorb_test_support::wire::giop_header;

#[global_allocator]
static GLOBAL: LiveAllocator = LiveAllocator;

const LIMIT: usize = 4 * 1024 * 1024;

/// Octets of bookkeeping allowed besides what is held: the lists of
/// blocks and of messages.
fn slack(held: usize) -> usize {
    4096 + held / 32
}

/// A GIOP 1.2 little-endian `Request` with request id `id`, more
/// fragments to follow, and a body of `body` octets.
fn first(id: u32, body: usize) -> Bytes {
    let mut m = giop_header(2, 0x03, 0, (4 + body) as u32);
    m.extend_from_slice(&id.to_le_bytes());
    m.resize(16 + body, 0x11);
    Bytes::from(m)
}

/// A GIOP 1.2 little-endian `Fragment` of request `id`, with `body` octets
/// after the request id.
fn fragment(id: u32, body: usize, more: bool) -> Bytes {
    let flags = if more { 0x03 } else { 0x01 };
    let mut m = giop_header(2, flags, 7, (4 + body) as u32);
    m.extend_from_slice(&id.to_le_bytes());
    m.resize(16 + body, 0x22);
    Bytes::from(m)
}

/// The messages a hostile peer and a well-behaved one send on one
/// connection, interleaved: request 1 in 64 KiB fragments that never end,
/// request 2 in tiny ones, and requests 3, 4, ... of growing sizes that
/// complete.
fn stream() -> Vec<Bytes> {
    let mut out = vec![first(1, 8184), first(2, 8)];
    let mut next = 3;
    for i in 0..200 {
        out.push(fragment(1, 65_528, true));
        for _ in 0..40 {
            out.push(fragment(2, 16, true));
        }
        if i % 20 == 0 {
            let size = 1000 * (i + 1);
            out.push(first(next, size));
            out.push(fragment(next, size * 3, true));
            out.push(fragment(next, 24, false));
            next += 1;
        }
    }
    // Make every buffer shared now, so that cloning one allocates nothing.
    for b in &out {
        drop(b.clone());
    }
    out
}

fn flood(pool: Option<Arc<BlockPool>>) {
    let what = if pool.is_some() { "pooled" } else { "own" };
    let frames = stream();
    let limits = ReassemblyLimits {
        max_total_bytes: LIMIT,
        ..ReassemblyLimits::default()
    };
    let base = live_bytes();
    let mut r = match &pool {
        Some(p) => Reassembler::with_pool(limits, Arc::clone(p)),
        None => Reassembler::new(limits),
    };
    let (mut limited, mut cut_off) = (false, false);
    for (i, frame) in frames.iter().enumerate() {
        let before = live_bytes();
        let held_before = r.held_bytes();
        let during = r.held_during(frame);
        reset_peak();
        let out = r.push(frame.clone());
        let grew = (peak_bytes() - before).max(0) as usize;
        assert!(
            grew <= during - held_before + slack(during),
            "{what} {i}: {grew} allocated, {} announced",
            during - held_before
        );
        let completed = match &out {
            Ok(Some(m)) => m.len(),
            Ok(None) => 0,
            // A message cut off (or refused at its start): its fragments
            // are unexpected after.
            Err(GiopError::UnexpectedFragment(Some(_))) if limited => 0,
            Err(e) => {
                assert_eq!(*e, GiopError::ReassemblyLimit(LIMIT), "{what} {i}");
                limited = true;
                cut_off |= frame[12..16] == 1u32.to_le_bytes();
                0
            }
        };
        let kept = pool.as_ref().map_or(0, |p| p.kept() * POOL_BLOCK);
        let live = (live_bytes() - base).max(0) as usize;
        let held = r.held_bytes();
        assert!(held <= LIMIT, "{what} {i}: {held}");
        assert!(
            live <= held + completed + kept + slack(held),
            "{what} {i}: {live} allocated, {held} held"
        );
        drop(out);
    }
    assert!(cut_off, "{what}: the endless request was cut off");
    r.clear();
    assert_eq!(r.held_bytes(), 0);
    drop(r);
    assert!(
        live_bytes() - base <= 0,
        "{what}: {} left",
        live_bytes() - base
    );
}

#[test]
fn what_reassembly_allocates_is_what_it_holds() {
    flood(None);
    let pool = Arc::new(BlockPool::default());
    flood(Some(Arc::clone(&pool)));
    assert_eq!((pool.in_use(), pool.kept()), (0, 0));
}
