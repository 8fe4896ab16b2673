//! How the server runs an upcall: at the priority the servant's
//! Real-time CORBA priority model gives the request (the thread put back
//! after), with the ORB's invoker for the references in it, and a servant
//! that panics answered with `UNKNOWN`.

use std::panic::AssertUnwindSafe;

use rtorb_giop::ior::PriorityModel;
use rtorb_giop::{CompletionStatus, SystemException, SystemExceptionKind};

use super::server_core::ServerCore;
use crate::minor::{MARSHAL_PRIORITY_CONTEXT, UNKNOWN_SERVANT_PANICKED};
use crate::object::with_invoker;
use crate::rt::{Priority, PriorityModelPolicy};
use crate::servant::{ServerRequest, Skeleton, dispatch};

/// The priority a request runs at under its POA's Real-time CORBA
/// priority model: the declared one (`SERVER_DECLARED`), or the one the
/// client sent (`CLIENT_PROPAGATED`; the POA's default where it sent
/// none). `None` where the POA has no model: the thread's own.
#[inline]
pub(super) fn request_priority(
    model: Option<PriorityModelPolicy>,
    propagated: Result<Option<i16>, ()>,
) -> Result<Option<Priority>, SystemException> {
    let Some(model) = model else {
        return Ok(None);
    };
    match (model.model, propagated) {
        (PriorityModel::ServerDeclared, _) => Ok(Some(model.server_priority)),
        (PriorityModel::ClientPropagated, Ok(None)) => Ok(Some(model.server_priority)),
        (PriorityModel::ClientPropagated, Ok(Some(p))) => Priority::new(p)
            .map(Some)
            .map_err(|e| e.to_system_exception()),
        (PriorityModel::ClientPropagated, Err(())) => Err(SystemException::new(
            SystemExceptionKind::Marshal,
            MARSHAL_PRIORITY_CONTEXT,
            CompletionStatus::No,
        )),
    }
}

/// The priority a reply sends back in an `RTCorbaPriority` context: the
/// one the request propagated, to a POA of the `CLIENT_PROPAGATED` model
/// (TAO's servers copy the request's context into the reply, in
/// `TAO_RT_Servant_Dispatcher::pre_invoke_remote_request`).
#[inline]
pub(super) fn sent_back_priority(
    model: Option<PriorityModelPolicy>,
    propagated: Result<Option<i16>, ()>,
) -> Option<i16> {
    match (model?.model, propagated) {
        (PriorityModel::ClientPropagated, Ok(Some(p))) => Some(p),
        _ => None,
    }
}

/// [`upcall`] with the thread at `priority` (if given) meanwhile; a
/// priority the mapping cannot map, or the system refuses under
/// [`WhenDenied::Fail`](crate::rt::WhenDenied::Fail), is the request's
/// exception and the upcall does not run.
#[inline]
pub(super) fn upcall_at(
    core: &ServerCore,
    priority: Option<Priority>,
    skeleton: &dyn Skeleton,
    req: &mut ServerRequest<'_>,
) -> Result<(), SystemException> {
    at_priority(core, priority, || upcall(core, skeleton, req)).unwrap_or_else(Err)
}

/// Runs `f` with the thread at `priority` (if given, and the ORB has
/// priorities), then puts the thread back; a priority it cannot run at
/// is the exception, and `f` does not run.
#[inline]
pub(super) fn at_priority<T>(
    core: &ServerCore,
    priority: Option<Priority>,
    f: impl FnOnce() -> T,
) -> Result<T, SystemException> {
    match (priority, &core.priorities) {
        (Some(p), Some(control)) => control.run_at(p, f).map_err(|e| e.to_system_exception()),
        _ => Ok(f()),
    }
}

/// Runs `req` on `skeleton` with the ORB's invoker for references in it;
/// a servant that panics gives `UNKNOWN`.
pub(super) fn upcall(
    core: &ServerCore,
    skeleton: &dyn Skeleton,
    req: &mut ServerRequest<'_>,
) -> Result<(), SystemException> {
    let run = std::panic::catch_unwind(AssertUnwindSafe(|| {
        with_invoker(&core.invoker, || dispatch(skeleton, req))
    }));
    run.unwrap_or_else(|_| {
        Err(SystemException::new(
            SystemExceptionKind::Unknown,
            UNKNOWN_SERVANT_PANICKED,
            CompletionStatus::Maybe,
        ))
    })
}
