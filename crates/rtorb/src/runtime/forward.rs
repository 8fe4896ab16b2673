//! Following `LOCATION_FORWARD`: the one loop every invoker uses.
//!
//! A call whose first attempt was forwarded hands the new target to
//! [`follow_forwards`] with the attempt to make at each target; the loop
//! follows at most [`MAX_FORWARDS`] more forwards and then fails with
//! `TRANSIENT` ([`TRANSIENT_TOO_MANY_FORWARDS`](crate::minor::TRANSIENT_TOO_MANY_FORWARDS)). The first attempt stays
//! with the caller, so that a call that is not forwarded (the common
//! case) runs none of this.

use crate::minor::TRANSIENT_TOO_MANY_FORWARDS;
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
    mut to: T,
    mut attempt: impl FnMut(&T) -> Result<Hop<T, R>, E>,
) -> Result<R, E>
where
    E: From<SystemException>,
{
    for _ in 0..MAX_FORWARDS {
        match attempt(&to)? {
            Hop::Done(r) => return Ok(r),
            Hop::Forward(next) => to = next,
        }
    }
    Err(E::from(too_many_forwards()))
}

/// The failure of a call forwarded more than [`MAX_FORWARDS`] times.
pub(crate) fn too_many_forwards() -> SystemException {
    SystemException::new(
        SystemExceptionKind::Transient,
        TRANSIENT_TOO_MANY_FORWARDS,
        CompletionStatus::No,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

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
