//! CPU affinity: the CPUs a thread may run on.
//!
//! Real-time systems partition their CPUs: a high-priority client thread
//! and the lane that serves it on one CPU, the rest of the work on the
//! others. A request then wakes the lane's thread on the CPU it was sent
//! from, and the reply the caller, with no wake-up across CPUs (which
//! costs an interrupt, and on a virtual machine a host's scheduling
//! decision). A lane's threads are pinned when they start
//! ([`crate::LaneConfig::cpus`]); an application pins its own threads
//! with [`set_thread_affinity`].
//!
//! ```
//! use rtorb_rt::{available_cpus, set_thread_affinity, thread_affinity};
//!
//! let cpus = available_cpus()?;
//! std::thread::spawn(move || {
//!     set_thread_affinity(&cpus[..1])?;
//!     assert_eq!(thread_affinity()?, cpus[..1]);
//!     Ok::<(), rtorb_rt::AffinityError>(())
//! })
//! .join()
//! .unwrap()?;
//! # Ok::<(), rtorb_rt::AffinityError>(())
//! ```

use rustix::thread::{CpuSet, sched_getaffinity, sched_setaffinity};

/// Why the CPUs of a thread could not be set or read.
#[derive(Debug, thiserror::Error)]
pub enum AffinityError {
    /// No CPU was given.
    #[error("no CPU given for the thread's affinity")]
    Empty,
    /// A CPU number past what the system can name.
    #[error("CPU {cpu} is past the last CPU this system can name ({max})")]
    OutOfRange {
        /// The CPU asked for.
        cpu: usize,
        /// The last CPU number the system can name.
        max: usize,
    },
    /// The system refused (a CPU not online, or not in the process's
    /// cpuset).
    #[error("cannot run the thread on CPUs {cpus:?}: {source}")]
    Refused {
        /// The CPUs asked for.
        cpus: Vec<usize>,
        /// What the system said.
        source: std::io::Error,
    },
}

/// Restricts the calling thread to `cpus`.
pub fn set_thread_affinity(cpus: &[usize]) -> Result<(), AffinityError> {
    if cpus.is_empty() {
        return Err(AffinityError::Empty);
    }
    let mut set = CpuSet::new();
    for &cpu in cpus {
        if cpu >= CpuSet::MAX_CPU {
            return Err(AffinityError::OutOfRange {
                cpu,
                max: CpuSet::MAX_CPU - 1,
            });
        }
        set.set(cpu);
    }
    sched_setaffinity(None, &set).map_err(|e| AffinityError::Refused {
        cpus: cpus.to_vec(),
        source: e.into(),
    })
}

/// The CPUs the calling thread may run on, in increasing order.
pub fn thread_affinity() -> Result<Vec<usize>, AffinityError> {
    let set = sched_getaffinity(None).map_err(|e| AffinityError::Refused {
        cpus: Vec::new(),
        source: e.into(),
    })?;
    Ok((0..CpuSet::MAX_CPU).filter(|c| set.is_set(*c)).collect())
}

/// The CPUs this process may run on (those of the calling thread).
pub fn available_cpus() -> Result<Vec<usize>, AffinityError> {
    thread_affinity()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_is_pinned_and_freed() {
        let all = available_cpus().unwrap();
        assert!(!all.is_empty());
        let last = *all.last().unwrap();
        std::thread::spawn(move || {
            set_thread_affinity(&[last]).unwrap();
            assert_eq!(thread_affinity().unwrap(), [last]);
            set_thread_affinity(&all).unwrap();
            assert_eq!(thread_affinity().unwrap(), all);
        })
        .join()
        .unwrap();
    }

    #[test]
    fn bad_cpus_are_refused_with_a_reason() {
        assert!(matches!(
            set_thread_affinity(&[]),
            Err(AffinityError::Empty)
        ));
        assert!(matches!(
            set_thread_affinity(&[CpuSet::MAX_CPU]),
            Err(AffinityError::OutOfRange { .. })
        ));
        // A CPU the system can name but does not have.
        let e = set_thread_affinity(&[CpuSet::MAX_CPU - 1]).unwrap_err();
        assert!(e.to_string().contains("cannot run"), "{e}");
    }
}
