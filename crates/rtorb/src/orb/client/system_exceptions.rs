//! The system exceptions the client side raises, and their minor codes.

use crate::minor::{
    COMM_FAILURE_CONNECTION_LOST, COMM_FAILURE_PROTOCOL_ERROR, INV_POLICY_CANNOT_RECONCILE,
    TIMEOUT_ROUND_TRIP, TRANSIENT_CONNECT_FAILED, TRANSIENT_CONNECTION_CLOSED,
    TRANSIENT_NO_USABLE_PROFILE,
};
use rtorb_giop::{CompletionStatus, GiopError, SystemException, SystemExceptionKind};

/// The connection broke while a request was sent or its reply awaited.
pub(super) fn lost(completed: CompletionStatus) -> SystemException {
    SystemException::new(
        SystemExceptionKind::CommFailure,
        COMM_FAILURE_CONNECTION_LOST,
        completed,
    )
}

/// The server sent what a client cannot accept.
pub(super) fn protocol_error() -> SystemException {
    SystemException::new(
        SystemExceptionKind::CommFailure,
        COMM_FAILURE_PROTOCOL_ERROR,
        CompletionStatus::Maybe,
    )
}

/// The call's deadline passed.
pub(super) fn timed_out() -> SystemException {
    SystemException::new(
        SystemExceptionKind::Timeout,
        TIMEOUT_ROUND_TRIP,
        CompletionStatus::Maybe,
    )
}

/// No connection could be opened.
pub(super) fn connect_failed() -> SystemException {
    SystemException::new(
        SystemExceptionKind::Transient,
        TRANSIENT_CONNECT_FAILED,
        CompletionStatus::No,
    )
}

/// The reference has no profile a registered protocol can reach.
pub(super) fn no_usable_profile() -> SystemException {
    SystemException::new(
        SystemExceptionKind::Transient,
        TRANSIENT_NO_USABLE_PROFILE,
        CompletionStatus::No,
    )
}

/// The effective `ClientProtocolPolicy` rules out every profile.
pub(super) fn no_profile_matches() -> SystemException {
    SystemException::new(
        SystemExceptionKind::InvPolicy,
        INV_POLICY_CANNOT_RECONCILE,
        CompletionStatus::No,
    )
}

/// A reply that cannot be read: whether the operation ran is not known.
pub(super) fn maybe(e: &GiopError) -> SystemException {
    let mut ex = e.to_system_exception();
    ex.completed = CompletionStatus::Maybe;
    ex
}

/// The failure of an exchange whose request the server did not start (it
/// closed the connection first): sending it again, once, is safe; the
/// same failure again is the caller's answer.
pub(super) fn not_started() -> SystemException {
    SystemException::new(
        SystemExceptionKind::Transient,
        TRANSIENT_CONNECTION_CLOSED,
        CompletionStatus::No,
    )
}

/// Whether `e` is [`not_started`].
pub(super) fn is_not_started(e: &SystemException) -> bool {
    e.minor == TRANSIENT_CONNECTION_CLOSED
        && e.completed == CompletionStatus::No
        && e.kind() == Some(SystemExceptionKind::Transient)
}
