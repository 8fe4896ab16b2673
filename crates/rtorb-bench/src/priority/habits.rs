//! The memory and timer habits of a real-time program, which the priority
//! benchmark applies to every configuration alike:
//!
//! - every client and server process locks its memory
//!   (`mlockall(MCL_CURRENT | MCL_FUTURE)`), so that no call waits for a
//!   page to be brought in, its stacks and heap included;
//! - unless asked not to (`--no-pm-qos`), the benchmark holds
//!   `/dev/cpu_dma_latency` at 0 µs for the whole run, as `cyclictest`
//!   does by default, so that no idle CPU sleeps in a state from which
//!   waking takes longer than a call. At the seed's rates C0's CPU is idle
//!   for 50 ms between two calls, and the wake-up from a halted CPU is
//!   then a large share of its round trip. On a virtual machine with the
//!   `haltpoll` idle driver it keeps every idle virtual CPU polling, which
//!   takes the host's time from other guests: `--no-pm-qos` for a shared
//!   host.
//!
//! Where the system refuses either, the benchmark warns and goes on.

use std::time::Duration;

use rtorb::rt::CpuLatencyBound;
use serde::Serialize;

/// Locks the memory of this process, now and to come
/// ([`rtorb::rt::lock_memory`]). `who` names the process in the warning
/// printed where the system refuses; returns whether the memory is locked.
pub(crate) fn lock_memory(who: &str) -> bool {
    match rtorb::rt::lock_memory() {
        Ok(()) => true,
        Err(e) => {
            eprintln!("rtorb-bench {who}: WARNING: {e}: going on without");
            false
        }
    }
}

/// What a run of the benchmark applied, for its report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Habits {
    /// Whether every client and server was asked to lock its memory.
    pub(crate) mlock: bool,
    /// `/dev/cpu_dma_latency`: `held at 0`, or why not.
    pub(crate) cpu_dma_latency: String,
}

impl Habits {
    /// Applies the habits chosen for a run: returns what was applied and
    /// the bound held (to be kept until the run ends). A bound the system
    /// refuses is a warning.
    pub(crate) fn start(mlock: bool, pm_qos: bool) -> (Habits, Option<CpuLatencyBound>) {
        let (held, cpu_dma_latency) = if pm_qos {
            match CpuLatencyBound::hold(Duration::ZERO) {
                Ok(h) => (Some(h), "held at 0 µs for the run".to_owned()),
                Err(e) => {
                    eprintln!("rtorb-bench priority: WARNING: {e}: going on without");
                    (None, format!("not held: {e}"))
                }
            }
        } else {
            (None, "not held (--no-pm-qos)".to_owned())
        };
        (
            Habits {
                mlock,
                cpu_dma_latency,
            },
            held,
        )
    }

    /// One line for the report's header.
    pub(crate) fn describe(&self) -> String {
        let memory = if self.mlock {
            "locked in every client and server (mlockall; --no-mlock: not)"
        } else {
            "not locked (--no-mlock)"
        };
        format!(
            "memory: {memory}; CPU wake-up latency (/dev/cpu_dma_latency): {}.",
            self.cpu_dma_latency
        )
    }

    /// The flag that asks a child process not to lock its memory, if
    /// that is the choice.
    pub(crate) fn child_args(&self) -> &'static [&'static str] {
        if self.mlock { &[] } else { &["--no-mlock"] }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_run_applied() {
        let (habits, held) = Habits::start(false, false);
        assert!(held.is_none());
        assert_eq!(habits.child_args(), ["--no-mlock"]);
        assert_eq!(
            habits.describe(),
            "memory: not locked (--no-mlock); CPU wake-up latency \
             (/dev/cpu_dma_latency): not held (--no-pm-qos)."
        );
        let locked = Habits {
            mlock: true,
            cpu_dma_latency: "held at 0 µs for the run".to_owned(),
        };
        assert!(locked.child_args().is_empty());
        assert!(locked.describe().contains("locked in every client"));
    }
}
