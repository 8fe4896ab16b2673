//! A watchdog for programs that run threads under real-time policies.
//!
//! A SCHED_FIFO thread that never blocks keeps every thread of lower
//! priority, and every ordinary process, off its core; on a machine of few
//! cores that is the whole machine. A [`Watchdog`] armed around real-time
//! work waits, itself at the most urgent SCHED_FIFO priority (where the
//! process may use it), for the deadline; if the work has not disarmed it
//! by then, it puts every thread of the process under SCHED_OTHER and says
//! so on standard error, and [`Watchdog::disarm`] reports the expiry so
//! that the benchmark or test fails clearly instead of freezing the
//! machine.
//!
//! Once a watchdog has fired, the process stays under SCHED_OTHER: a
//! thread that asks for a real-time priority again (through a
//! [`PriorityControl`](super::PriorityControl), [`Current`](super::Current),
//! an upcall's priority or a lane's) is refused it as the system would
//! refuse it, following [`WhenDenied`](super::WhenDenied): it fails with
//! `NO_PERMISSION` (minor
//! [`NO_PERMISSION_REALTIME_REVOKED`](rtorb_giop::minor::NO_PERMISSION_REALTIME_REVOKED)),
//! or runs on under SCHED_OTHER with its CORBA priority remembered. Work
//! that overran once is not given the means to freeze the machine again.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::native;
use super::native::SchedPolicy;
use super::priority::NativePriority;
use crate::sync::{Condvar, Mutex};

/// The work did not disarm its watchdog in time.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
#[error(
    "watchdog: {what} did not finish within {deadline:?}; every thread of the process \
     was put under SCHED_OTHER"
)]
pub struct WatchdogExpired {
    /// What the watchdog guarded.
    pub what: String,
    /// Its deadline.
    pub deadline: Duration,
}

/// Whether a watchdog of this process has fired.
static REVOKED: AtomicBool = AtomicBool::new(false);

/// Whether a watchdog of this process has fired, and real-time priorities
/// are refused from then on.
pub fn realtime_revoked() -> bool {
    REVOKED.load(Ordering::SeqCst)
}

#[derive(Debug, Default)]
struct Shared {
    disarmed: Mutex<bool>,
    wake: Condvar,
    fired: AtomicBool,
}

/// Drops every thread of the process to SCHED_OTHER if real-time work
/// overruns its deadline.
///
/// ```
/// use std::time::Duration;
/// use rtorb_rt::Watchdog;
///
/// let watchdog = Watchdog::arm("the priority benchmark", Duration::from_secs(60));
/// // ... real-time work ...
/// watchdog.disarm()?;
/// # Ok::<(), rtorb_rt::WatchdogExpired>(())
/// ```
#[derive(Debug)]
pub struct Watchdog {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
    what: String,
    deadline: Duration,
}

impl Watchdog {
    /// Arms a watchdog for `what`, which must disarm it within `deadline`.
    pub fn arm(what: impl Into<String>, deadline: Duration) -> Watchdog {
        let what = what.into();
        let shared = Arc::new(Shared::default());
        let thread = {
            let shared = Arc::clone(&shared);
            let what = what.clone();
            std::thread::Builder::new()
                .name("rtorb-watchdog".into())
                .spawn(move || watch(&shared, &what, deadline))
                .ok()
        };
        Watchdog {
            shared,
            thread,
            what,
            deadline,
        }
    }

    /// Whether it has fired.
    pub fn fired(&self) -> bool {
        self.shared.fired.load(Ordering::Acquire)
    }

    /// Disarms it: `Err` if it fired first.
    pub fn disarm(mut self) -> Result<(), WatchdogExpired> {
        self.stop();
        if self.fired() {
            Err(WatchdogExpired {
                what: std::mem::take(&mut self.what),
                deadline: self.deadline,
            })
        } else {
            Ok(())
        }
    }

    fn stop(&mut self) {
        *self.shared.disarmed.lock() = true;
        self.shared.wake.notify_all();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The watchdog thread: at the most urgent priority it may have, waits for
/// the deadline or disarming; at the deadline, demotes every thread.
fn watch(shared: &Shared, what: &str, deadline: Duration) {
    let (_, max) = native::priority_range(SchedPolicy::Fifo);
    // Where the process may not use SCHED_FIFO (or no longer does, another
    // watchdog having fired), no thread of it runs under it either, and an
    // ordinary watchdog thread suffices.
    if !realtime_revoked() {
        let _ = native::set_current(SchedPolicy::Fifo, NativePriority::new(max));
    }
    let end = Instant::now() + deadline;
    let mut disarmed = shared.disarmed.lock();
    while !*disarmed {
        let left = end.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        disarmed = shared.wake.wait_timeout(disarmed, left).0;
    }
    if *disarmed {
        return;
    }
    drop(disarmed);
    shared.fired.store(true, Ordering::Release);
    // Before the threads are demoted: a thread that sets a real-time
    // policy after it looks again and demotes itself (see
    // `PriorityControl::set_thread_priority`).
    REVOKED.store(true, Ordering::SeqCst);
    let mut demoted = 0;
    for tid in native::process_threads() {
        if native::demote(tid).is_ok() {
            demoted += 1;
        }
    }
    eprintln!(
        "rtorb watchdog: {what} did not finish within {deadline:?}; \
         {demoted} threads of the process now run under SCHED_OTHER"
    );
    tracing::error!(what, ?deadline, demoted, "watchdog expired");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disarmed_in_time_it_reports_nothing() {
        let w = Watchdog::arm("quick work", Duration::from_secs(60));
        assert!(!w.fired());
        assert_eq!(w.disarm(), Ok(()));
    }

    #[test]
    fn overrun_it_fires_and_says_so() {
        let w = Watchdog::arm("slow work", Duration::from_millis(1));
        let deadline = Instant::now() + Duration::from_secs(30);
        while !w.fired() && Instant::now() < deadline {
            std::thread::yield_now();
        }
        let e = w.disarm().unwrap_err();
        assert_eq!(e.what, "slow work");
        assert!(e.to_string().contains("SCHED_OTHER"), "{e}");
    }
}
