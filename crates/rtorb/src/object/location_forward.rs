//! Following `LOCATION_FORWARD`: the one loop every invoker uses.
//!
//! A call whose first attempt was forwarded hands the new target to
//! [`follow_forwards`] with the attempt to make at each target; the loop
//! follows at most [`MAX_FORWARDS`] more forwards and then fails with
//! `TRANSIENT` ([`TRANSIENT_TOO_MANY_FORWARDS`](crate::minor::TRANSIENT_TOO_MANY_FORWARDS)). The first attempt stays
//! with the caller, so that a call that is not forwarded (the common
//! case) runs none of this.
//!
//! A reference remembers where its calls were forwarded to in a
//! [`ForwardSlot`], so that later calls go there directly (see
//! [`Target`](super::Target)).

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use arc_swap::ArcSwapOption;

use crate::minor::{
    TRANSIENT_CONNECT_FAILED, TRANSIENT_CONNECTION_CLOSED, TRANSIENT_NO_USABLE_PROFILE,
    TRANSIENT_TOO_MANY_FORWARDS,
};
use rtorb_giop::{CompletionStatus, SystemException, SystemExceptionKind};

/// How many `LOCATION_FORWARD` replies one call follows before it fails
/// with `TRANSIENT`.
pub const MAX_FORWARDS: usize = 8;

/// What one attempt of a call at one target gave.
#[derive(Debug)]
pub(crate) enum Hop<T, R> {
    /// The call ended here, with this.
    Done(R),
    /// The target forwarded the call to another.
    Forward(T),
}

/// Follows the forward of a call to `to`: makes `attempt` at it, and at
/// each target it forwards to, at most [`MAX_FORWARDS`] times in all.
/// The attempt that forwards once more fails the call with `TRANSIENT`
/// ([`TRANSIENT_TOO_MANY_FORWARDS`](crate::minor::TRANSIENT_TOO_MANY_FORWARDS), `COMPLETED_NO`).
#[cold]
#[inline(never)]
pub(crate) fn follow_forwards<T, R, E>(
    to: T,
    attempt: impl FnMut(&T) -> Result<Hop<T, R>, E>,
) -> Result<R, E>
where
    E: From<SystemException>,
{
    follow_forwards_to(to, attempt).map(|(r, _)| r)
}

/// [`follow_forwards`], giving back the target where the call ended too.
#[cold]
#[inline(never)]
pub(crate) fn follow_forwards_to<T, R, E>(
    mut to: T,
    mut attempt: impl FnMut(&T) -> Result<Hop<T, R>, E>,
) -> Result<(R, T), E>
where
    E: From<SystemException>,
{
    for _ in 0..MAX_FORWARDS {
        match attempt(&to)? {
            Hop::Done(r) => return Ok((r, to)),
            Hop::Forward(next) => to = next,
        }
    }
    Err(E::from(too_many_forwards()))
}

/// Whether `e`, the failure of a call at the target of a remembered
/// forward, says that the object is no longer there: a `COMM_FAILURE`, an
/// `OBJECT_NOT_EXIST`, or a `TRANSIENT` of a connection that cannot be
/// opened or was closed. A `TRANSIENT` for another reason (a POA manager
/// holding requests, say) does not: the object is there.
pub(crate) fn moved_away(e: &SystemException) -> bool {
    match e.kind() {
        Some(SystemExceptionKind::CommFailure | SystemExceptionKind::ObjectNotExist) => true,
        Some(SystemExceptionKind::Transient) => [
            TRANSIENT_CONNECT_FAILED,
            TRANSIENT_CONNECTION_CLOSED,
            TRANSIENT_NO_USABLE_PROFILE,
        ]
        .contains(&e.minor),
        _ => false,
    }
}

/// The failure of a call forwarded more than [`MAX_FORWARDS`] times.
pub(crate) fn too_many_forwards() -> SystemException {
    SystemException::new(
        SystemExceptionKind::Transient,
        TRANSIENT_TOO_MANY_FORWARDS,
        CompletionStatus::No,
    )
}

/// Where the calls of a reference go once its object has moved: empty,
/// or the target of the forward its calls last followed.
///
/// A call reads it without a lock: a flag, then (only when the flag is
/// set) an atomically swapped pointer. It is written when a call is
/// forwarded and when the remembered target fails.
pub(crate) struct ForwardSlot<T> {
    /// Whether `to` holds a target: the one load a call to a reference
    /// that was never forwarded makes.
    set: AtomicBool,
    to: ArcSwapOption<T>,
}

impl<T> Default for ForwardSlot<T> {
    fn default() -> Self {
        ForwardSlot {
            set: AtomicBool::new(false),
            to: ArcSwapOption::empty(),
        }
    }
}

impl<T> fmt::Debug for ForwardSlot<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ForwardSlot")
            .field("set", &self.is_set())
            .finish_non_exhaustive()
    }
}

impl<T> ForwardSlot<T> {
    /// A slot holding what `self` holds now.
    pub(crate) fn snapshot(&self) -> ForwardSlot<T> {
        let slot = ForwardSlot::default();
        if let Some(to) = self.get() {
            slot.remember(to);
        }
        slot
    }

    /// Whether a target is remembered (a moment's answer).
    #[inline]
    pub(crate) fn is_set(&self) -> bool {
        self.set.load(Ordering::Acquire)
    }

    /// The remembered target.
    pub(crate) fn get(&self) -> Option<Arc<T>> {
        if !self.is_set() {
            return None;
        }
        self.to.load_full()
    }

    /// Remembers `to`, in place of what was remembered.
    pub(crate) fn remember(&self, to: Arc<T>) {
        self.to.store(Some(to));
        self.set.store(true, Ordering::Release);
    }

    /// Forgets `seen` if it is still the remembered target (a call that
    /// remembered another meanwhile wins).
    pub(crate) fn forget(&self, seen: &Arc<T>) {
        let before = self.to.compare_and_swap(seen, None);
        if before.as_ref().is_some_and(|b| Arc::ptr_eq(b, seen)) {
            self.set.store(false, Ordering::Release);
            // A target remembered between the swap and the flag keeps
            // the flag set.
            if self.to.load().is_some() {
                self.set.store(true, Ordering::Release);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slot_remembers_and_forgets_only_what_it_holds() {
        let slot = ForwardSlot::default();
        assert!(slot.get().is_none());
        let a = Arc::new(1);
        slot.remember(Arc::clone(&a));
        assert_eq!(slot.get().as_deref(), Some(&1));
        let b = Arc::new(2);
        slot.remember(Arc::clone(&b));
        // A failure seen at `a` does not forget `b`.
        slot.forget(&a);
        assert_eq!(slot.get().as_deref(), Some(&2));
        let copy = slot.snapshot();
        slot.forget(&b);
        assert!(slot.get().is_none() && !slot.is_set());
        assert_eq!(copy.get().as_deref(), Some(&2));
    }

    #[test]
    fn a_call_follows_max_forwards_forwards() {
        let mut attempts = 0;
        let r: Result<usize, SystemException> = follow_forwards(1, |&at| {
            attempts += 1;
            Ok(if at == MAX_FORWARDS {
                Hop::Done(at)
            } else {
                Hop::Forward(at + 1)
            })
        });
        assert_eq!(r.unwrap(), MAX_FORWARDS);
        assert_eq!(attempts, MAX_FORWARDS);
    }

    #[test]
    fn one_forward_more_is_transient() {
        let mut attempts = 0;
        let r: Result<(), SystemException> = follow_forwards(1, |&at: &usize| {
            attempts += 1;
            Ok(Hop::Forward(at + 1))
        });
        let e = r.unwrap_err();
        assert_eq!(e.kind(), Some(SystemExceptionKind::Transient));
        assert_eq!(e.minor, TRANSIENT_TOO_MANY_FORWARDS);
        assert_eq!(e.completed, CompletionStatus::No);
        assert_eq!(attempts, MAX_FORWARDS);
    }

    #[test]
    fn a_failed_attempt_ends_the_call() {
        let r: Result<(), SystemException> = follow_forwards(1, |_: &usize| {
            Err(SystemException::new(
                SystemExceptionKind::CommFailure,
                1,
                CompletionStatus::Maybe,
            ))
        });
        assert_eq!(r.unwrap_err().minor, 1);
    }
}
