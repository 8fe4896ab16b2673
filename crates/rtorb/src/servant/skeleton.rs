//! [`Skeleton`], what generated code implements for each interface, and
//! [`dispatch`], which answers the operations every object has before
//! handing the rest to the skeleton.

use rtorb_giop::{CompletionStatus, SystemException, SystemExceptionKind};

use super::server_request::ServerRequest;
use crate::exception::read_repository_id;
use crate::minor::NO_IMPLEMENT_OBJECT_OPERATION;

/// The repository id of `CORBA::Object`, which every object is: what
/// `_is_a` answers `true` for on every object ([`dispatch`]), and what
/// every reference narrows to.
pub const OBJECT_REPOSITORY_ID: &str = "IDL:omg.org/CORBA/Object:1.0";

/// The servant side of an interface, as generated code implements it: a
/// wrapper of a servant (a value implementing the generated servant
/// trait) that reads each request's arguments, calls the servant, and
/// writes its results or exception.
pub trait Skeleton: Send + Sync {
    /// The repository ids of the interface, most derived first, then
    /// every base: what `_is_a` answers `true` for (with
    /// `IDL:omg.org/CORBA/Object:1.0`, which [`dispatch`] adds).
    fn repository_ids(&self) -> &'static [&'static str];

    /// Runs one request. An operation the interface does not have is
    /// [`bad_operation`](crate::exception::bad_operation); arguments that do not decode are
    /// `MARSHAL` (`?` on a `CdrError` converts); an `Err` becomes a
    /// `SYSTEM_EXCEPTION` reply, replacing anything written.
    fn dispatch(&self, request: &mut ServerRequest<'_>) -> Result<(), SystemException>;

    /// The servant the skeleton wraps, for collocated calls that skip
    /// marshaling (see [`ServantCast`](super::ServantCast)). Generated skeletons give
    /// their servant; the default, `None`, makes collocated calls go
    /// through [`Skeleton::dispatch`].
    fn servant(&self) -> Option<&dyn std::any::Any> {
        None
    }

    /// Answers a [`ServantCast`](super::ServantCast) `query` for the servant trait of
    /// an interface the skeleton implements (its own and every base), so
    /// that a collocated stub can call [`Skeleton::servant`] through that
    /// trait. The default answers nothing.
    fn servant_cast(&self, query: &mut dyn std::any::Any) {
        let _ = query;
    }
}

/// Runs `request` on `skeleton`, answering the operations of
/// `CORBA::Object` first: `_is_a` (from [`Skeleton::repository_ids`]),
/// `_non_existent` (and its GIOP 1.0 spelling `_not_existent`: `false`,
/// since the servant is there), and `_interface` (`NO_IMPLEMENT` for
/// now). Everything else goes to [`Skeleton::dispatch`].
pub fn dispatch(
    skeleton: &dyn Skeleton,
    request: &mut ServerRequest<'_>,
) -> Result<(), SystemException> {
    match request.operation_bytes() {
        b"_is_a" => {
            let id = read_repository_id(request.arguments())?;
            let is_a = id.is_some_and(|id| {
                id == OBJECT_REPOSITORY_ID.as_bytes()
                    || skeleton.repository_ids().iter().any(|r| id == r.as_bytes())
            });
            request.write_results(|e| {
                e.write_bool(is_a);
                Ok(())
            })
        }
        b"_non_existent" | b"_not_existent" => request.write_results(|e| {
            e.write_bool(false);
            Ok(())
        }),
        b"_interface" => Err(SystemException::new(
            SystemExceptionKind::NoImplement,
            NO_IMPLEMENT_OBJECT_OPERATION,
            CompletionStatus::No,
        )),
        _ => skeleton.dispatch(request),
    }
}
