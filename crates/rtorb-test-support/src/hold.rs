//! Keeping an upcall in its servant until the test lets it go: a [`Hold`]
//! that the upcall enters and the test releases, and [`HeldServant`], the
//! servant of the tests that need a server's thread busy, whose `block`
//! and `hold` stop at its hold and whose other operations note what ran
//! and say where they run.
//!
//! A test that wants a thread of the server busy sends `block`, waits with
//! [`Hold::wait_entered`] until the upcall has begun (the thread is then
//! surely taken), checks what it wants meanwhile, and ends the upcall with
//! [`Hold::release`]. No step waits for a guessed time.

use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use rtorb::cdr::{CdrDecode, CdrEncode};
use rtorb::exception::{SystemException, bad_operation};
use rtorb::object::Object;
use rtorb::servant::{ServerRequest, Skeleton};

use crate::sched::thread_nice;

/// Where upcalls stop until the test releases them. Every upcall that
/// enters is announced once to [`Hold::wait_entered`]; each
/// [`Hold::release`] lets one upcall go on (one held now, or the next to
/// enter), and [`Hold::open`] lets every upcall through from then on.
#[derive(Debug, Default)]
pub struct Hold {
    state: Mutex<HoldState>,
    changed: Condvar,
}

#[derive(Debug, Default)]
struct HoldState {
    /// Upcalls that have entered and that no `wait_entered` has taken.
    entered: usize,
    /// Releases that no upcall has used yet.
    releases: usize,
    /// Open for good: nothing stops.
    open: bool,
}

impl Hold {
    /// A closed hold that no upcall has entered.
    pub fn new() -> Hold {
        Hold::default()
    }

    fn state(&self) -> MutexGuard<'_, HoldState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// For the upcall: says that it has entered, then waits until it is
    /// released or `timeout` passes; whether it was released.
    pub fn enter(&self, timeout: Duration) -> bool {
        let mut state = self.state();
        state.entered += 1;
        self.changed.notify_all();
        let (mut state, _) = self
            .changed
            .wait_timeout_while(state, timeout, |s| !s.open && s.releases == 0)
            .unwrap_or_else(PoisonError::into_inner);
        if state.open {
            true
        } else if state.releases > 0 {
            state.releases -= 1;
            true
        } else {
            false
        }
    }

    /// For the test: waits until an upcall not yet waited for has entered,
    /// or `timeout` passes; whether one did.
    pub fn wait_entered(&self, timeout: Duration) -> bool {
        let state = self.state();
        let (mut state, _) = self
            .changed
            .wait_timeout_while(state, timeout, |s| s.entered == 0)
            .unwrap_or_else(PoisonError::into_inner);
        if state.entered == 0 {
            return false;
        }
        state.entered -= 1;
        true
    }

    /// Lets one upcall go on: the first of those held, or else the next
    /// to enter.
    pub fn release(&self) {
        self.state().releases += 1;
        self.changed.notify_all();
    }

    /// Lets every upcall go on, those held and those to come.
    pub fn open(&self) {
        self.state().open = true;
        self.changed.notify_all();
    }

    /// A guard that opens the hold when dropped: should the test fail
    /// while upcalls are held, they end at once and the server shuts down
    /// without waiting out their timeout.
    pub fn open_when_dropped(&self) -> OpenWhenDropped<'_> {
        OpenWhenDropped(self)
    }
}

/// Opens its [`Hold`] when dropped (see [`Hold::open_when_dropped`]).
#[derive(Debug)]
#[must_use = "the hold opens when the guard is dropped"]
pub struct OpenWhenDropped<'a>(&'a Hold);

impl Drop for OpenWhenDropped<'_> {
    fn drop(&mut self) {
        self.0.open();
    }
}

/// The repository id of [`HeldServant`].
pub const HELD_ID: &str = "IDL:rtorb/Held:1.0";

/// The servant of the tests that need a server's thread busy. `block`
/// stops at its [`Hold`] (for at most the timeout it was made with);
/// `hold(unsigned long n)` stops there too, then notes `n` if it was
/// released; `record(unsigned long n)` notes `n`; `whoami` answers the
/// name and nice value of the thread that runs it (see [`whoami`]);
/// `cpus` the CPUs that thread may run on (see [`cpus`]). Any further
/// arguments are ignored. Each operation answers with no results.
#[derive(Debug)]
pub struct HeldServant {
    hold: Hold,
    timeout: Duration,
    recorded: Mutex<Vec<u32>>,
}

impl HeldServant {
    /// A servant whose `block` waits for at most `timeout`.
    pub fn new(timeout: Duration) -> Arc<HeldServant> {
        Arc::new(HeldServant {
            hold: Hold::new(),
            timeout,
            recorded: Mutex::new(Vec::new()),
        })
    }

    /// Where `block` stops.
    pub fn hold(&self) -> &Hold {
        &self.hold
    }

    /// The numbers `record` and `hold` have noted, in the order their
    /// upcalls noted them.
    pub fn recorded(&self) -> Vec<u32> {
        self.recorded
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn note(&self, n: u32) {
        self.recorded
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(n);
    }
}

impl Skeleton for HeldServant {
    fn repository_ids(&self) -> &'static [&'static str] {
        &[HELD_ID]
    }

    fn dispatch(&self, req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
        match req.operation() {
            "block" => {
                self.hold.enter(self.timeout);
                req.write_results(|_| Ok(()))
            }
            "hold" => {
                let n = u32::decode(req.arguments())?;
                if self.hold.enter(self.timeout) {
                    self.note(n);
                }
                req.write_results(|_| Ok(()))
            }
            "record" => {
                let n = u32::decode(req.arguments())?;
                self.note(n);
                req.write_results(|_| Ok(()))
            }
            "whoami" => {
                let name = std::thread::current().name().unwrap_or("").to_owned();
                let nice = thread_nice();
                req.write_results(|e| {
                    name.encode(e)?;
                    nice.encode(e)
                })
            }
            "cpus" => {
                let cpus: Vec<u32> = rtorb::rt::thread_affinity()
                    .expect("the thread's CPUs")
                    .into_iter()
                    .map(|c| u32::try_from(c).expect("a CPU number"))
                    .collect();
                req.write_results(|e| cpus.encode(e))
            }
            _ => Err(bad_operation()),
        }
    }
}

/// Calls `whoami` on `obj`: the name and nice value of the server's thread
/// that ran it.
pub fn whoami(obj: &Object) -> Result<(String, i32), SystemException> {
    obj.invoke("whoami", |_| Ok(()))?
        .decode::<(String, i32), SystemException>(|d| Ok((String::decode(d)?, i32::decode(d)?)))
}

/// Calls `cpus` on `obj`: the CPUs the server's thread that ran it may run
/// on.
pub fn cpus(obj: &Object) -> Result<Vec<u32>, SystemException> {
    obj.invoke("cpus", |_| Ok(()))?
        .decode::<Vec<u32>, SystemException>(Vec::<u32>::decode)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::wait::TIMEOUT;

    /// Long enough for a look, for the waits that must not succeed.
    const SHORT: Duration = Duration::from_millis(1);

    #[test]
    fn a_release_lets_one_upcall_go_on_and_open_lets_all() {
        let hold = Arc::new(Hold::new());
        assert!(!hold.wait_entered(SHORT));
        assert!(!hold.enter(SHORT), "not released");
        assert!(hold.wait_entered(SHORT));
        // A release given before the upcall enters is kept for it.
        hold.release();
        assert!(hold.enter(SHORT));
        assert!(hold.wait_entered(SHORT));
        assert!(!hold.wait_entered(SHORT), "each entry is seen once");
        // One held upcall in another thread, released by the test.
        let upcall = {
            let hold = Arc::clone(&hold);
            std::thread::spawn(move || hold.enter(TIMEOUT))
        };
        assert!(hold.wait_entered(TIMEOUT));
        hold.release();
        assert!(upcall.join().unwrap());
        assert!(!hold.enter(SHORT), "the release was used");
        hold.open();
        assert!(hold.enter(SHORT) && hold.enter(SHORT));
    }

    #[test]
    fn the_guard_opens_the_hold_when_dropped() {
        let hold = Hold::new();
        {
            let _open = hold.open_when_dropped();
            assert!(!hold.enter(SHORT), "closed while the guard lives");
        }
        assert!(hold.enter(SHORT) && hold.enter(SHORT));
    }
}
