//! A global allocator that counts heap allocations, so that a test or a
//! benchmark can say how many allocations a call makes.
//!
//! It forwards everything to the system allocator. Install it in the
//! binary that measures:
//!
//! ```
//! use rtorb_test_support::alloc::CountingAllocator;
//!
//! #[global_allocator]
//! static GLOBAL: CountingAllocator = CountingAllocator;
//! # fn main() {}
//! ```
//!
//! Two sets of counters:
//!
//! - the calling thread's allocations, always counted (a `const`
//!   thread-local cell, which neither allocates nor is seen by another
//!   thread): [`thread_allocations`];
//! - the whole process's allocations, reallocations and requested bytes,
//!   counted only between [`start_counting`] and [`stop_counting`] (shared
//!   atomics, left alone while counting is off): [`process_counts`].
//!
//! An allocation, a zeroed allocation and a reallocation each count as one
//! allocation; deallocations are not counted.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

thread_local! {
    /// Allocations made by this thread.
    static THREAD: Cell<u64> = const { Cell::new(0) };
}

/// Whether the process-wide counters are on.
static COUNTING: AtomicBool = AtomicBool::new(false);
/// Allocations and zeroed allocations in the process while counting.
static ALLOCS: AtomicU64 = AtomicU64::new(0);
/// Reallocations in the process while counting.
static REALLOCS: AtomicU64 = AtomicU64::new(0);
/// Bytes asked for by allocations and reallocations while counting.
static BYTES: AtomicU64 = AtomicU64::new(0);

/// The system allocator, counting allocations.
#[derive(Debug, Clone, Copy, Default)]
pub struct CountingAllocator;

/// What the process allocated while counting was on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ProcessCounts {
    /// Allocations and zeroed allocations.
    pub allocs: u64,
    /// Reallocations.
    pub reallocs: u64,
    /// Bytes asked for by allocations and reallocations.
    pub bytes: u64,
}

impl ProcessCounts {
    /// Allocations and reallocations together.
    pub fn total(&self) -> u64 {
        self.allocs + self.reallocs
    }
}

#[inline]
fn count(realloc: bool, size: usize) {
    let _ = THREAD.try_with(|c| c.set(c.get().wrapping_add(1)));
    if COUNTING.load(Ordering::Relaxed) {
        let counter = if realloc { &REALLOCS } else { &ALLOCS };
        counter.fetch_add(1, Ordering::Relaxed);
        BYTES.fetch_add(size as u64, Ordering::Relaxed);
    }
}

/// Allocations the calling thread has made since it started.
pub fn thread_allocations() -> u64 {
    THREAD.try_with(Cell::get).unwrap_or(0)
}

/// Sets the process-wide counters to zero and starts counting.
pub fn start_counting() {
    ALLOCS.store(0, Ordering::SeqCst);
    REALLOCS.store(0, Ordering::SeqCst);
    BYTES.store(0, Ordering::SeqCst);
    COUNTING.store(true, Ordering::SeqCst);
}

/// Stops the process-wide counting and returns what it counted.
pub fn stop_counting() -> ProcessCounts {
    COUNTING.store(false, Ordering::SeqCst);
    process_counts()
}

/// What the process-wide counters hold now.
pub fn process_counts() -> ProcessCounts {
    ProcessCounts {
        allocs: ALLOCS.load(Ordering::SeqCst),
        reallocs: REALLOCS.load(Ordering::SeqCst),
        bytes: BYTES.load(Ordering::SeqCst),
    }
}

/// Allocations per call of `f`, after `warm_up` calls, over `calls` calls:
/// (on the calling thread, on every other thread of the process).
pub fn allocations_per_call(warm_up: u64, calls: u64, mut f: impl FnMut()) -> (f64, f64) {
    for _ in 0..warm_up {
        f();
    }
    let before = thread_allocations();
    start_counting();
    for _ in 0..calls {
        f();
    }
    let all = stop_counting().total();
    let mine = thread_allocations() - before;
    let per_call = |n: u64| n as f64 / calls.max(1) as f64;
    (per_call(mine), per_call(all.saturating_sub(mine)))
}

// SAFETY: every method forwards to `System` with the arguments it was
// given, so `GlobalAlloc`'s contract holds as it does for `System`; the
// counters are atomics and a `const` thread-local cell, which never
// allocate.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(false, layout.size());
        // SAFETY: the caller meets `GlobalAlloc::alloc`'s requirements,
        // which are `System::alloc`'s.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(false, layout.size());
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator, hence from `System`, for
        // `layout`, as the caller guarantees.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(true, new_size);
        // SAFETY: `ptr` came from `System` for `layout`, and the caller
        // meets the requirements on `new_size`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocations_are_counted_on_the_allocating_thread() {
        let before = thread_allocations();
        let v: Vec<u64> = Vec::with_capacity(16);
        let b = Box::new(7u32);
        let after = thread_allocations();
        assert_eq!(after - before, 2, "{v:?} {b}");
        let other = std::thread::spawn(|| {
            let before = thread_allocations();
            let _s = String::from("x");
            thread_allocations() - before
        })
        .join()
        .unwrap();
        // The string was counted on its own thread.
        assert_eq!(other, 1);
    }

    #[test]
    fn the_process_counts_only_while_counting() {
        let v: Vec<u8> = Vec::with_capacity(8);
        start_counting();
        let mut w: Vec<u8> = Vec::with_capacity(8);
        w.reserve(64);
        let counts = stop_counting();
        let _after: Vec<u8> = Vec::with_capacity(8);
        // Other test threads may allocate meanwhile: at least ours.
        assert!(counts.allocs >= 1, "{counts:?}");
        assert!(counts.reallocs >= 1, "{counts:?}");
        assert!(counts.bytes >= 8 + 64, "{counts:?}");
        assert_eq!(counts.total(), counts.allocs + counts.reallocs);
        assert_eq!(process_counts(), counts, "{v:?} {w:?}");
    }
}
