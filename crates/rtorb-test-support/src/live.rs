//! A global allocator that tracks the bytes the process has allocated and
//! not freed, and their peak, so that a test can say how much memory a
//! piece of code really holds without measuring resident memory (which
//! the allocator's own caching blurs).
//!
//! It forwards everything to the system allocator. Install it in the
//! binary that measures, and keep that binary to one test, since every
//! thread of the process is counted:
//!
//! ```
//! use rtorb_test_support::live::{LiveAllocator, live_bytes, peak_bytes, reset_peak};
//!
//! #[global_allocator]
//! static GLOBAL: LiveAllocator = LiveAllocator;
//!
//! # fn main() {
//! reset_peak();
//! let before = live_bytes();
//! let v = vec![1u8; 1 << 20];
//! drop(v);
//! assert_eq!(live_bytes(), before);
//! assert!(peak_bytes() - before >= 1 << 20);
//! # }
//! ```
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

/// Bytes allocated and not freed.
static LIVE: AtomicIsize = AtomicIsize::new(0);
/// The most [`LIVE`] has been since the last [`reset_peak`].
static PEAK: AtomicIsize = AtomicIsize::new(0);

/// The system allocator, tracking the bytes live.
#[derive(Debug, Clone, Copy, Default)]
pub struct LiveAllocator;

/// Bytes allocated and not freed (those allocated before this allocator
/// was installed aside).
pub fn live_bytes() -> isize {
    LIVE.load(Ordering::SeqCst)
}

/// The most [`live_bytes`] has been since the last [`reset_peak`].
pub fn peak_bytes() -> isize {
    PEAK.load(Ordering::SeqCst)
}

/// Starts the peak again from the bytes live now.
pub fn reset_peak() {
    PEAK.store(LIVE.load(Ordering::SeqCst), Ordering::SeqCst);
}

#[inline]
fn grown(by: usize) {
    let by = isize::try_from(by).unwrap_or(isize::MAX);
    let now = LIVE.fetch_add(by, Ordering::SeqCst).saturating_add(by);
    PEAK.fetch_max(now, Ordering::SeqCst);
}

#[inline]
fn shrunk(by: usize) {
    LIVE.fetch_sub(isize::try_from(by).unwrap_or(isize::MAX), Ordering::SeqCst);
}

// SAFETY: every method forwards to `System` with the arguments it was
// given, so `GlobalAlloc`'s contract holds as it does for `System`; the
// counters are atomics, which never allocate.
unsafe impl GlobalAlloc for LiveAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller meets `GlobalAlloc::alloc`'s requirements,
        // which are `System::alloc`'s.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grown(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grown(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator, hence from `System`, for
        // `layout`, as the caller guarantees.
        unsafe { System.dealloc(ptr, layout) };
        shrunk(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` came from `System` for `layout`, and the caller
        // meets the requirements on `new_size`.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            // The old and the new block are both live while the octets
            // are copied.
            grown(new_size);
            shrunk(layout.size());
        }
        p
    }
}
