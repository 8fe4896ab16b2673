//! Pinning the benchmark's processes to one CPU, or leaving them free.
//!
//! The affinity mask is a property of a thread, and a child process
//! starts with the mask of the thread that spawned it: the comparison
//! sets the mask of its own thread before it starts a server and a
//! client, so both run on the CPU it chose (pinned) or on every CPU it was
//! given (unpinned).

use rustix::thread::{CpuSet, sched_getaffinity, sched_setaffinity};

/// The CPUs the calling thread may run on when the benchmark started.
#[derive(Debug, Clone)]
pub(crate) struct Affinity {
    original: CpuSet,
}

impl Affinity {
    /// The calling thread's current mask.
    pub(crate) fn current() -> Result<Affinity, String> {
        sched_getaffinity(None)
            .map(|original| Affinity { original })
            .map_err(|e| format!("sched_getaffinity: {e}"))
    }

    /// The CPUs of the original mask.
    pub(crate) fn cpus(&self) -> Vec<usize> {
        (0..CpuSet::MAX_CPU)
            .filter(|c| self.original.is_set(*c))
            .collect()
    }

    /// Pins the calling thread (and the processes it starts from now on)
    /// to `cpu`.
    pub(crate) fn pin(&self, cpu: usize) -> Result<(), String> {
        let mut one = CpuSet::new();
        one.set(cpu);
        sched_setaffinity(None, &one).map_err(|e| format!("sched_setaffinity(cpu {cpu}): {e}"))
    }

    /// Gives the calling thread its original mask back.
    pub(crate) fn unpin(&self) -> Result<(), String> {
        sched_setaffinity(None, &self.original).map_err(|e| format!("sched_setaffinity: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pin_and_unpin_the_calling_thread() {
        let a = Affinity::current().unwrap();
        let cpus = a.cpus();
        assert!(!cpus.is_empty());
        std::thread::spawn(move || {
            a.pin(cpus[0]).unwrap();
            assert_eq!(Affinity::current().unwrap().cpus(), [cpus[0]]);
            a.unpin().unwrap();
            assert_eq!(Affinity::current().unwrap().cpus(), cpus);
        })
        .join()
        .unwrap();
    }
}
