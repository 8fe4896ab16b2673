//! What the ORB sets up for its real-time process when it starts, by
//! configuration: the process's memory locked (`-ORBLockMemory yes`), and
//! the CPUs' wake-up latency bounded while it runs (`-ORBCpuLatency
//! MICROSECONDS`); see [`crate::rt::lock_memory`] and
//! [`crate::rt::CpuLatencyBound`].
//!
//! Where the system refuses either, the ORB says so with one `warn` log
//! line per process and setting, and runs on without it: like a real-time
//! priority refused under `-ORBSchedDenied other`, a missing setting makes
//! the ORB slower to answer now and then, never wrong.

use std::sync::Once;

use super::config::orb_config::OrbConfig;
use crate::rt::{CpuLatencyBound, RealtimeProcessError};

/// Applies what `config` asks of the process; the latency bound, if one
/// is held, lives as long as the result.
pub(super) fn set_up(config: &OrbConfig) -> Option<CpuLatencyBound> {
    if config.lock_memory {
        if let Err(e) = crate::rt::lock_memory() {
            warn_once(&e);
        }
    }
    let latency = config.cpu_latency?;
    CpuLatencyBound::hold(latency).inspect_err(warn_once).ok()
}

/// One `warn` line per process for each setting refused.
fn warn_once(e: &RealtimeProcessError) {
    static MEMORY: Once = Once::new();
    static LATENCY: Once = Once::new();
    let once = match e {
        RealtimeProcessError::LockMemory(_) => &MEMORY,
        RealtimeProcessError::CpuLatency(_) => &LATENCY,
    };
    once.call_once(|| tracing::warn!("{e}: the ORB runs on without it"));
}
