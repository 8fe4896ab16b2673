//! What a real-time process sets up for itself: its memory locked in RAM,
//! and a bound on how long an idle CPU takes to wake.
//!
//! A call that waits for a page to be read back in, or for a CPU to leave
//! a deep idle state, is late by far more than an ORB's own latency. So a
//! real-time process locks its memory ([`lock_memory`]: every page it has
//! and every page it will map, its stacks and heap included), and holds a
//! bound on the CPUs' wake-up latency ([`CpuLatencyBound`], through the
//! kernel's PM QoS device `/dev/cpu_dma_latency`, as `cyclictest` does) for
//! as long as its real-time work runs. The ORB applies both at start when
//! configured to (`-ORBLockMemory yes`, `-ORBCpuLatency MICROSECONDS`).
//!
//! Both are process- or machine-wide and need privilege (root, or
//! `CAP_IPC_LOCK` or a large `RLIMIT_MEMLOCK` for the memory; write access
//! to the device for the bound); a refusal is an error the caller decides
//! about.
//!
//! ```no_run
//! use std::time::Duration;
//! use rtorb_rt::{CpuLatencyBound, lock_memory};
//!
//! lock_memory()?;
//! let bound = CpuLatencyBound::hold(Duration::ZERO)?;
//! // ... the real-time work ...
//! drop(bound); // the CPUs may sleep deeply again
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fs::File;
use std::io::Write as _;
use std::time::Duration;

use rustix::mm::{MlockAllFlags, mlockall};

/// The PM QoS device through which a process asks every CPU for a wake-up
/// latency bound, held for as long as the device stays open.
pub const CPU_DMA_LATENCY: &str = "/dev/cpu_dma_latency";

/// Why a process-wide real-time setting could not be applied.
#[derive(Debug, thiserror::Error)]
pub enum RealtimeProcessError {
    /// `mlockall` failed (no privilege, or more memory than
    /// `RLIMIT_MEMLOCK`).
    #[error(
        "cannot lock the process's memory (mlockall: {0}; run as root, with CAP_IPC_LOCK \
         or a larger RLIMIT_MEMLOCK)"
    )]
    LockMemory(std::io::Error),
    /// The PM QoS device could not be opened or written.
    #[error("cannot bound the CPUs' wake-up latency ({CPU_DMA_LATENCY}: {0})")]
    CpuLatency(std::io::Error),
}

/// Locks every page of the process in memory, now and to come
/// (`mlockall(MCL_CURRENT | MCL_FUTURE)`). It lasts as long as the
/// process.
pub fn lock_memory() -> Result<(), RealtimeProcessError> {
    mlockall(MlockAllFlags::CURRENT | MlockAllFlags::FUTURE)
        .map_err(|e| RealtimeProcessError::LockMemory(e.into()))
}

/// A bound on every CPU's wake-up latency, held until dropped.
#[derive(Debug)]
pub struct CpuLatencyBound {
    _device: File,
    latency: Duration,
}

impl CpuLatencyBound {
    /// Asks every CPU to wake from idle within `latency` (whole
    /// microseconds, at most `i32::MAX`) for as long as the result lives.
    /// `Duration::ZERO` keeps idle CPUs from sleeping at all: on a virtual
    /// machine with the `haltpoll` idle driver they poll instead of
    /// halting, which takes the host's time from other guests.
    pub fn hold(latency: Duration) -> Result<CpuLatencyBound, RealtimeProcessError> {
        let micros = i32::try_from(latency.as_micros()).unwrap_or(i32::MAX);
        let mut device = File::options()
            .write(true)
            .open(CPU_DMA_LATENCY)
            .map_err(RealtimeProcessError::CpuLatency)?;
        // The device takes a binary 32-bit value in the machine's order.
        device
            .write_all(&micros.to_ne_bytes())
            .map_err(RealtimeProcessError::CpuLatency)?;
        Ok(CpuLatencyBound {
            _device: device,
            latency: Duration::from_micros(micros as u64),
        })
    }

    /// The bound held.
    pub fn latency(&self) -> Duration {
        self.latency
    }
}
