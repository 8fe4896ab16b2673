//! The real-time habits an ORB takes up when it starts, by configuration:
//! its process's memory locked (`-ORBLockMemory yes`), and the CPUs'
//! wake-up latency bounded while it runs (`-ORBCpuLatency MICROSECONDS`).
//!
//! Where the system refuses either, the ORB says so with one `warn` log
//! line per process and habit, and runs on without it: like a real-time
//! priority refused under `-ORBSchedDenied other`, a missing habit makes
//! the ORB slower to answer now and then, never wrong.

use std::sync::Once;

use super::OrbConfig;
use crate::rt::{CpuLatencyBound, HabitError};

/// Takes up the habits `config` asks for; the latency bound, if one is
/// held, lives as long as the result.
pub(super) fn take_up(config: &OrbConfig) -> Option<CpuLatencyBound> {
    if config.lock_memory {
        if let Err(e) = crate::rt::lock_memory() {
            warn_once(&e);
        }
    }
    let latency = config.cpu_latency?;
    CpuLatencyBound::hold(latency).inspect_err(warn_once).ok()
}

/// One `warn` line per process for each habit refused.
fn warn_once(e: &HabitError) {
    static MEMORY: Once = Once::new();
    static LATENCY: Once = Once::new();
    let once = match e {
        HabitError::LockMemory(_) => &MEMORY,
        HabitError::CpuLatency(_) => &LATENCY,
    };
    once.call_once(|| tracing::warn!("{e}: the ORB runs on without it"));
}
