//! Turning CORBA priorities into the native priorities of threads, and the
//! priority of the calling thread (`RTCORBA::Current`).
//!
//! A [`PriorityControl`] holds a scheduling policy, a priority mapping
//! onto it, and what to do when the process may not use the policy
//! ([`WhenDenied`]). Setting a thread's CORBA priority maps it, applies
//! the native priority to the thread, and remembers the CORBA priority in
//! the thread, where the client side reads it to send with a request.
//!
//! Where the system refuses real-time scheduling (`EPERM`: no
//! `CAP_SYS_NICE` and no `RLIMIT_RTPRIO`), rtorb says so once, as a `warn`
//! log line naming the policy and the remedy, and then either fails each
//! attempt with `NO_PERMISSION` ([`WhenDenied::Fail`]) or leaves the thread
//! under SCHED_OTHER as it is ([`WhenDenied::RunAtOther`], the default) —
//! the CORBA priority is remembered either way, so it still travels with
//! requests and selects lanes and bands.

use std::cell::Cell;
use std::fmt;
use std::io;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rtorb_giop::{CompletionStatus, SystemException, SystemExceptionKind, minor};

use super::affinity::AffinityError;
use super::mapping::{MappingKind, NativeRange, PriorityMapping};
use super::native;
use super::native::SchedPolicy;
use super::priority::{NativePriority, Priority, PriorityError};
use super::watchdog::realtime_revoked;

/// What to do when the process may not use the configured policy or
/// priority (`-ORBSchedDenied`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum WhenDenied {
    /// Each attempt fails with `NO_PERMISSION` (minor
    /// `NO_PERMISSION_REALTIME_SCHEDULING`).
    Fail,
    /// The thread runs on under SCHED_OTHER as it is; the CORBA priority is
    /// still remembered and propagated.
    #[default]
    RunAtOther,
}

/// A name that is not a [`WhenDenied`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not what to do when real-time scheduling is denied (fail or other)")]
pub struct UnknownWhenDenied(pub String);

impl FromStr for WhenDenied {
    type Err = UnknownWhenDenied;

    /// `fail` or `other` (`sched_other`, `run-at-other`), in any case.
    fn from_str(s: &str) -> Result<WhenDenied, UnknownWhenDenied> {
        match s.trim().to_ascii_lowercase().as_str() {
            "fail" => Ok(WhenDenied::Fail),
            "other" | "sched_other" | "run-at-other" => Ok(WhenDenied::RunAtOther),
            _ => Err(UnknownWhenDenied(s.to_owned())),
        }
    }
}

impl WhenDenied {
    /// What follows a refusal, for the log.
    fn consequence(self) -> &'static str {
        match self {
            WhenDenied::Fail => "each attempt fails with NO_PERMISSION",
            WhenDenied::RunAtOther => "threads run on under SCHED_OTHER",
        }
    }
}

impl fmt::Display for WhenDenied {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            WhenDenied::Fail => "fail",
            WhenDenied::RunAtOther => "other",
        })
    }
}

/// Why a thread's priority could not be set.
#[derive(Debug, thiserror::Error)]
pub enum SchedulingError {
    /// The CORBA priority is out of range or has no native priority.
    #[error(transparent)]
    Priority(#[from] PriorityError),
    /// The system refused the policy or priority, and the ORB is configured
    /// to fail.
    #[error(
        "{policy} priority {native} refused ({source}); run as root, give the program \
         CAP_SYS_NICE, raise RLIMIT_RTPRIO, or configure -ORBSchedDenied other"
    )]
    Denied {
        /// The policy.
        policy: SchedPolicy,
        /// The native priority asked for.
        native: NativePriority,
        /// What the system said.
        source: io::Error,
    },
    /// A [`Watchdog`](super::Watchdog) of the process fired: real-time
    /// policies are refused from then on, and the ORB is configured to
    /// fail.
    #[error(
        "{policy} priority {native} refused: a watchdog put the process under SCHED_OTHER \
         after real-time work overran its deadline; configure -ORBSchedDenied other to run on \
         under SCHED_OTHER"
    )]
    Revoked {
        /// The policy.
        policy: SchedPolicy,
        /// The native priority asked for.
        native: NativePriority,
    },
    /// The system rejected the native priority for another reason.
    #[error("{policy} priority {native}: {source}")]
    Rejected {
        /// The policy.
        policy: SchedPolicy,
        /// The native priority asked for.
        native: NativePriority,
        /// What the system said.
        source: io::Error,
    },
    /// The thread could not be restricted to the CPUs asked for.
    #[error(transparent)]
    Affinity(#[from] AffinityError),
}

impl SchedulingError {
    /// The system exception for it: `BAD_PARAM` or `DATA_CONVERSION` (OMG
    /// minor 2) for the priority, `NO_PERMISSION` when denied,
    /// `DATA_CONVERSION` (OMG minor 2) when the system rejects the native
    /// priority.
    pub fn to_system_exception(&self) -> SystemException {
        let (kind, code) = match self {
            SchedulingError::Priority(p) => return p.to_system_exception(),
            SchedulingError::Denied { .. } => (
                SystemExceptionKind::NoPermission,
                minor::NO_PERMISSION_REALTIME_SCHEDULING,
            ),
            SchedulingError::Revoked { .. } => (
                SystemExceptionKind::NoPermission,
                minor::NO_PERMISSION_REALTIME_REVOKED,
            ),
            SchedulingError::Rejected { .. } => (
                SystemExceptionKind::DataConversion,
                minor::DATA_CONVERSION_PRIORITY_MAPPING,
            ),
            SchedulingError::Affinity(_) => {
                (SystemExceptionKind::BadParam, minor::BAD_PARAM_LANE_CPUS)
            }
        };
        SystemException::new(kind, code, CompletionStatus::No).with_detail(self)
    }
}

impl From<SchedulingError> for SystemException {
    fn from(e: SchedulingError) -> SystemException {
        e.to_system_exception()
    }
}

thread_local! {
    /// The CORBA priority the calling thread was last set to.
    static CURRENT: Cell<Option<Priority>> = const { Cell::new(None) };
}

/// The CORBA priority the calling thread was set to through a
/// [`PriorityControl`] (its `RTCORBA::Current` priority), if any.
#[inline]
pub fn thread_priority() -> Option<Priority> {
    CURRENT.with(Cell::get)
}

/// Whether the warning that real-time scheduling is denied was logged.
static DENIAL_LOGGED: AtomicBool = AtomicBool::new(false);

/// A scheduling policy, a priority mapping onto it, and what to do when
/// the process may not use them.
///
/// ```
/// use rtorb_rt::{MappingKind, Priority, PriorityControl, SchedPolicy, WhenDenied};
///
/// // Nice values, which any process may lower its urgency to.
/// let control = PriorityControl::new(SchedPolicy::Other, MappingKind::Linear, WhenDenied::Fail);
/// std::thread::spawn(move || {
///     control.set_thread_priority(Priority::MIN)?; // nice 19
///     assert_eq!(rtorb_rt::thread_priority(), Some(Priority::MIN));
///     assert_eq!(control.native_thread_priority()?, Priority::MIN);
///     Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
/// })
/// .join()
/// .unwrap()?;
/// # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
/// ```
#[derive(Debug, Clone)]
pub struct PriorityControl {
    policy: SchedPolicy,
    mapping: Arc<dyn PriorityMapping>,
    when_denied: WhenDenied,
}

impl PriorityControl {
    /// `kind` of mapping onto `policy`'s range on this host.
    pub fn new(policy: SchedPolicy, kind: MappingKind, when_denied: WhenDenied) -> PriorityControl {
        PriorityControl::with_mapping(policy, kind.onto(NativeRange::of(policy)), when_denied)
    }

    /// A mapping of the application's own onto `policy`.
    pub fn with_mapping(
        policy: SchedPolicy,
        mapping: Arc<dyn PriorityMapping>,
        when_denied: WhenDenied,
    ) -> PriorityControl {
        PriorityControl {
            policy,
            mapping,
            when_denied,
        }
    }

    /// The policy.
    pub fn policy(&self) -> SchedPolicy {
        self.policy
    }

    /// The mapping.
    pub fn mapping(&self) -> &Arc<dyn PriorityMapping> {
        &self.mapping
    }

    /// What happens when the system refuses the policy.
    pub fn when_denied(&self) -> WhenDenied {
        self.when_denied
    }

    /// The native priority of `priority`.
    pub fn to_native(&self, priority: Priority) -> Result<NativePriority, PriorityError> {
        self.mapping
            .to_native(priority)
            .ok_or_else(|| PriorityError::NotMappable {
                priority,
                mapping: self.mapping.name().to_owned(),
            })
    }

    /// The CORBA priority of `native`.
    pub fn to_corba(&self, native: NativePriority) -> Result<Priority, PriorityError> {
        self.mapping
            .to_corba(native)
            .ok_or_else(|| PriorityError::NativeNotMappable {
                native,
                mapping: self.mapping.name().to_owned(),
            })
    }

    /// Sets the calling thread's CORBA priority: maps it, applies the
    /// native priority (or, denied, follows [`WhenDenied`]) and remembers
    /// it in the thread. Gives the native priority the thread runs at
    /// (`None`: denied, running on as it was).
    ///
    /// After a [`Watchdog`](super::Watchdog) of the process has fired, a
    /// real-time policy is denied as the system would deny it (but with
    /// [`SchedulingError::Revoked`]), and the thread stays under
    /// SCHED_OTHER.
    pub fn set_thread_priority(
        &self,
        priority: Priority,
    ) -> Result<Option<NativePriority>, SchedulingError> {
        let native = self.to_native(priority)?;
        let realtime = self.policy.is_realtime();
        if realtime && realtime_revoked() {
            return self.revoked(priority, native);
        }
        match native::set_current(self.policy, native) {
            Ok(()) if realtime && realtime_revoked() => {
                // The watchdog fired meanwhile, and may have looked at this
                // thread before it was set.
                let _ = native::demote(native::current_tid());
                self.revoked(priority, native)
            }
            Ok(()) => {
                CURRENT.with(|c| c.set(Some(priority)));
                Ok(Some(native))
            }
            Err(e) if is_denial(&e) => {
                log_denial(self.policy, native, &e, self.when_denied);
                match self.when_denied {
                    WhenDenied::Fail => Err(SchedulingError::Denied {
                        policy: self.policy,
                        native,
                        source: e,
                    }),
                    WhenDenied::RunAtOther => {
                        CURRENT.with(|c| c.set(Some(priority)));
                        Ok(None)
                    }
                }
            }
            Err(source) => Err(SchedulingError::Rejected {
                policy: self.policy,
                native,
                source,
            }),
        }
    }

    /// A real-time priority asked for after a watchdog fired: refused, or
    /// the thread left under SCHED_OTHER, as [`WhenDenied`] says.
    #[cold]
    fn revoked(
        &self,
        priority: Priority,
        native: NativePriority,
    ) -> Result<Option<NativePriority>, SchedulingError> {
        log_revoked(self.policy, native, self.when_denied);
        match self.when_denied {
            WhenDenied::Fail => Err(SchedulingError::Revoked {
                policy: self.policy,
                native,
            }),
            WhenDenied::RunAtOther => {
                CURRENT.with(|c| c.set(Some(priority)));
                Ok(None)
            }
        }
    }

    /// Runs `f` with the calling thread at `priority`, then puts the
    /// thread back as it was (its CORBA priority and its native policy
    /// and priority): how a server runs an upcall at its request's
    /// priority. A thread already at `priority` runs `f` as it is. A
    /// thread that was under a real-time policy when a watchdog fired is
    /// put back under SCHED_OTHER.
    pub fn run_at<T>(
        &self,
        priority: Priority,
        f: impl FnOnce() -> T,
    ) -> Result<T, SchedulingError> {
        let before = thread_priority();
        if before == Some(priority) {
            return Ok(f());
        }
        let native_before = native::current().ok();
        self.set_thread_priority(priority)?;
        let out = f();
        match native_before {
            Some((policy, _)) if policy.is_realtime() && realtime_revoked() => {
                let _ = native::demote(native::current_tid());
            }
            Some((policy, native)) => {
                let _ = native::set_current(policy, native);
            }
            None => {}
        }
        CURRENT.with(|c| c.set(before));
        Ok(out)
    }

    /// The calling thread's CORBA priority as its native priority maps
    /// back (where it was never set, or was changed behind the ORB's back).
    pub fn native_thread_priority(&self) -> Result<Priority, SchedulingError> {
        let (policy, native) = native::current().map_err(|source| SchedulingError::Rejected {
            policy: self.policy,
            native: NativePriority::new(0),
            source,
        })?;
        if policy != self.policy {
            return Err(PriorityError::NativeNotMappable {
                native,
                mapping: format!("{} (the thread is under {policy})", self.mapping.name()),
            }
            .into());
        }
        Ok(self.to_corba(native)?)
    }
}

/// Whether the system refused for lack of privilege.
fn is_denial(e: &io::Error) -> bool {
    matches!(e.raw_os_error(), Some(libc::EPERM) | Some(libc::EACCES))
}

/// Logs, once per process, that the system refuses the policy.
#[cold]
fn log_denial(policy: SchedPolicy, native: NativePriority, e: &io::Error, then: WhenDenied) {
    if DENIAL_LOGGED.swap(true, Ordering::AcqRel) {
        return;
    }
    let what = then.consequence();
    tracing::warn!(
        policy = policy.name(),
        native = native.get(),
        "this process may not use {policy} priority {native} ({e}): {what}; run as root, \
         give the program CAP_SYS_NICE or raise RLIMIT_RTPRIO for real-time priorities"
    );
}

/// Whether the warning that real-time priorities are refused after a
/// watchdog fired was logged.
static REVOKED_LOGGED: AtomicBool = AtomicBool::new(false);

/// Logs, once per process, that a real-time priority was asked for after
/// a watchdog fired.
#[cold]
fn log_revoked(policy: SchedPolicy, native: NativePriority, then: WhenDenied) {
    if REVOKED_LOGGED.swap(true, Ordering::AcqRel) {
        return;
    }
    let what = then.consequence();
    tracing::warn!(
        policy = policy.name(),
        native = native.get(),
        "{policy} priority {native} asked for after a watchdog put the process under \
         SCHED_OTHER: {what}"
    );
}

/// `RTCORBA::Current`: the calling thread's CORBA priority, read and set
/// through a [`PriorityControl`].
#[derive(Debug, Clone)]
pub struct Current {
    control: PriorityControl,
}

impl Current {
    /// The current of threads whose priorities `control` sets.
    pub fn new(control: PriorityControl) -> Current {
        Current { control }
    }

    /// The calling thread's CORBA priority: the one it was set to, else
    /// its native priority mapped back.
    pub fn priority(&self) -> Result<Priority, SystemException> {
        match thread_priority() {
            Some(p) => Ok(p),
            None => self.control.native_thread_priority().map_err(Into::into),
        }
    }

    /// Sets the calling thread's CORBA priority (`the_priority`):
    /// `DATA_CONVERSION` (OMG minor 2) where the mapping has no native
    /// priority, `NO_PERMISSION` where the system refuses and the ORB is
    /// configured to fail. (A value outside `0..=32767` is not a
    /// [`Priority`]: [`Priority::new`] refuses it with an error that
    /// converts to `BAD_PARAM`.)
    pub fn set_priority(&self, priority: Priority) -> Result<(), SystemException> {
        self.control.set_thread_priority(priority)?;
        Ok(())
    }

    /// The control it sets priorities through.
    pub fn control(&self) -> &PriorityControl {
        &self.control
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn in_thread<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        std::thread::spawn(f).join().unwrap()
    }

    #[test]
    fn a_thread_remembers_its_corba_priority() {
        let control =
            PriorityControl::new(SchedPolicy::Other, MappingKind::Linear, WhenDenied::Fail);
        in_thread(move || {
            assert_eq!(thread_priority(), None);
            let low = Priority::new(100).unwrap();
            let native = control.set_thread_priority(low).unwrap();
            assert_eq!(native, Some(NativePriority::new(-19)));
            assert_eq!(thread_priority(), Some(low));
            let current = Current::new(control);
            assert_eq!(current.priority().unwrap(), low);
        });
        assert_eq!(thread_priority(), None);
    }

    #[test]
    fn run_at_puts_the_thread_back_as_it_was() {
        let control =
            PriorityControl::new(SchedPolicy::Other, MappingKind::Linear, WhenDenied::Fail);
        in_thread(move || {
            let (policy, native) = native::current().unwrap();
            let low = Priority::new(10).unwrap();
            let seen = control
                .run_at(low, || (thread_priority(), native::current().unwrap().1))
                .unwrap();
            assert_eq!(seen, (Some(low), NativePriority::new(-19)));
            assert_eq!(thread_priority(), None);
            assert_eq!(native::current().unwrap(), (policy, native));
        });
    }

    #[test]
    fn out_of_range_and_unmappable_priorities_are_the_named_exceptions() {
        let control =
            PriorityControl::new(SchedPolicy::Fifo, MappingKind::Direct, WhenDenied::Fail);
        let current = Current::new(control);
        let e = SystemException::from(Priority::new(-1).unwrap_err());
        assert_eq!(e.kind(), Some(SystemExceptionKind::BadParam));
        let e = current
            .set_priority(Priority::new(5000).unwrap())
            .unwrap_err();
        assert_eq!(e.kind(), Some(SystemExceptionKind::DataConversion));
        assert_eq!(e.minor, minor::DATA_CONVERSION_PRIORITY_MAPPING);
    }

    #[test]
    fn denial_answers_follow_the_configured_policy() {
        let denied = io::Error::from_raw_os_error(libc::EPERM);
        assert!(is_denial(&denied));
        let e = SchedulingError::Denied {
            policy: SchedPolicy::Fifo,
            native: NativePriority::new(90),
            source: denied,
        }
        .to_system_exception();
        assert_eq!(e.kind(), Some(SystemExceptionKind::NoPermission));
        assert!(
            e.detail().unwrap().contains("SCHED_FIFO priority 90"),
            "{e}"
        );
        assert_eq!("fail".parse(), Ok(WhenDenied::Fail));
        assert_eq!("SCHED_OTHER".parse(), Ok(WhenDenied::RunAtOther));
    }
}
