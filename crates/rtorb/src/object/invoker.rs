//! The interface between a reference and what carries its calls: the
//! [`Invoker`], the [`Arguments`] it writes into a request, and the
//! [`Reply`] it hands back.

use rtorb_cdr::{CdrError, Decoder, Encoder};
use rtorb_giop::{CompletionStatus, Operation, SystemException, SystemExceptionKind};

use super::target::Target;
use crate::exception::{OperationError, marshal_completed, read_repository_id};
use crate::minor::{TRANSIENT_NOT_READY, UNKNOWN_UNLISTED_USER_EXCEPTION};
use crate::policy::SyncScope;
use crate::servant::Skeleton;

/// Writes the arguments of a request (its `in` and `inout` parameters, in
/// order) into the request body.
///
/// An invoker may call it more than once for one call, when it must send
/// the request again (a `LOCATION_FORWARD` reply), so it only reads what it
/// captured.
pub type Arguments<'a> = &'a dyn Fn(&mut Encoder) -> Result<(), CdrError>;

/// Carries requests to objects: the ORB core over its connections, or the
/// in-process [`Loopback`](crate::loopback::Loopback).
///
/// A stub holds one as `Arc<dyn Invoker>` inside its [`Object`](super::Object). The
/// invoker frames the request (GIOP version, byte order, request id,
/// service contexts), calls `arguments` to write the body, sends it,
/// waits for the reply, follows `LOCATION_FORWARD` replies itself, turns a
/// `SYSTEM_EXCEPTION` reply into `Err`, and hands back the body of a
/// `NO_EXCEPTION` or `USER_EXCEPTION` reply.
///
/// An implementation should not allocate per call in steady state when
/// the arguments are primitives: reuse message buffers (the writers of
/// `rtorb_giop::message::MessageWriter` take a buffer to write into) and
/// keep the reply body a slice of the received message.
pub trait Invoker: Send + Sync {
    /// A twoway call of `operation` on `target`.
    fn invoke(
        &self,
        target: &Target,
        operation: Operation,
        arguments: Arguments<'_>,
    ) -> Result<Reply, SystemException>;

    /// A oneway call: returns once `sync` is satisfied, with no results.
    /// With [`SyncScope::WithServer`] or [`SyncScope::WithTarget`] a
    /// system exception from the server is returned; otherwise only local
    /// failures are.
    fn invoke_oneway(
        &self,
        target: &Target,
        operation: Operation,
        sync: SyncScope,
        arguments: Arguments<'_>,
    ) -> Result<(), SystemException>;

    /// The sync scope of oneway calls whose reference and thread set none
    /// (the ORB's): [`SyncScope::WithTransport`] unless the invoker is
    /// configured otherwise.
    fn default_sync_scope(&self) -> SyncScope {
        SyncScope::default()
    }

    /// `Object::_validate_connection`: binds `target` (opens a connection
    /// to it, following forwards) without making a call. `Ok(true)` when
    /// calls can be made under the effective policies, `Ok(false)` when
    /// the policies rule out every profile of the reference, and the
    /// system exception a call would raise when binding fails. An
    /// invoker without connections has nothing to bind: `Ok(true)`.
    fn validate_connection(&self, target: &Target) -> Result<bool, SystemException> {
        let _ = target;
        Ok(true)
    }

    /// A call on an object this invoker serves in the calling process
    /// (collocation), without a connection: `None` if `target` is not
    /// one. Otherwise the servant is found as for a request from the
    /// network (object adapter state, servant managers), and `direct` is
    /// called with its skeleton; if `direct` returns `false` (it cannot
    /// call the servant itself), the request is marshaled with
    /// `arguments` and dispatched to the skeleton in memory, giving
    /// [`Collocated::Reply`] (`None` for a oneway). The default: `None`.
    fn invoke_collocated(
        &self,
        target: &Target,
        operation: &Operation,
        response_expected: bool,
        direct: &mut dyn FnMut(&dyn Skeleton) -> bool,
        arguments: Arguments<'_>,
    ) -> Option<Result<Collocated, SystemException>> {
        let _ = (target, operation, response_expected, direct, arguments);
        None
    }
}

/// How a collocated call ([`Invoker::invoke_collocated`]) went.
#[derive(Debug)]
pub enum Collocated {
    /// The `direct` call ran.
    Direct,
    /// The request was marshaled and dispatched: its reply, if any.
    Reply(Option<Reply>),
    /// The object is elsewhere: call this target instead.
    Forward(Target),
}

/// What a twoway call brought back: the body of a `NO_EXCEPTION` reply
/// (the return value, then the `inout` and `out` parameters) or of a
/// `USER_EXCEPTION` reply (the repository id, then the members).
///
/// Its decoder reads the reply message in place; dropping the reply
/// releases the message buffer for the invoker to reuse.
#[derive(Debug)]
pub struct Reply {
    body: Decoder,
    user_exception: bool,
}

impl Reply {
    /// The body of a `NO_EXCEPTION` reply, aligned as in its message.
    pub fn results(body: Decoder) -> Reply {
        Reply {
            body,
            user_exception: false,
        }
    }

    /// The body of a `USER_EXCEPTION` reply, aligned as in its message.
    pub fn user_exception(body: Decoder) -> Reply {
        Reply {
            body,
            user_exception: true,
        }
    }

    /// Whether the reply holds a user exception.
    pub fn is_user_exception(&self) -> bool {
        self.user_exception
    }

    /// The undecoded body.
    pub fn body(&mut self) -> &mut Decoder {
        &mut self.body
    }

    /// Reads the results with `results`, or the user exception the reply
    /// holds as one of `E`'s: what every generated stub method ends with.
    ///
    /// Results or members that fail to decode give `MARSHAL`
    /// (`COMPLETED_YES`); a user exception `E` does not know gives
    /// `UNKNOWN` with [`UNKNOWN_UNLISTED_USER_EXCEPTION`](crate::minor::UNKNOWN_UNLISTED_USER_EXCEPTION).
    pub fn decode<T, E: OperationError>(
        self,
        results: impl FnOnce(&mut Decoder) -> Result<T, CdrError>,
    ) -> Result<T, E> {
        let mut probe = crate::probe::Probe::start();
        let out = self.decode_inner(results);
        probe.lap(crate::probe::Stage::ClientDemarshal);
        out
    }

    fn decode_inner<T, E: OperationError>(
        mut self,
        results: impl FnOnce(&mut Decoder) -> Result<T, CdrError>,
    ) -> Result<T, E> {
        if !self.user_exception {
            return results(&mut self.body).map_err(|e| E::from(marshal_completed(&e)));
        }
        let id = read_repository_id(&mut self.body).map_err(|e| E::from(marshal_completed(&e)))?;
        let decoded = id
            .as_deref()
            .and_then(|id| std::str::from_utf8(id).ok())
            .and_then(|id| E::from_user_exception(id, &mut self.body));
        match decoded {
            Some(Ok(e)) => Err(e),
            Some(Err(e)) => Err(E::from(marshal_completed(&e))),
            None => Err(E::from(SystemException::new(
                SystemExceptionKind::Unknown,
                UNKNOWN_UNLISTED_USER_EXCEPTION,
                CompletionStatus::Yes,
            ))),
        }
    }
}

/// Stands in for the ORB's invoker before it exists or once it is gone:
/// every call fails with `TRANSIENT` ([`TRANSIENT_NOT_READY`](crate::minor::TRANSIENT_NOT_READY)).
pub(crate) struct NoInvoker;

impl Invoker for NoInvoker {
    fn invoke(
        &self,
        _target: &Target,
        _operation: Operation,
        _arguments: Arguments<'_>,
    ) -> Result<Reply, SystemException> {
        Err(SystemException::new(
            SystemExceptionKind::Transient,
            TRANSIENT_NOT_READY,
            CompletionStatus::No,
        ))
    }

    fn invoke_oneway(
        &self,
        _target: &Target,
        _operation: Operation,
        _sync: SyncScope,
        _arguments: Arguments<'_>,
    ) -> Result<(), SystemException> {
        Err(SystemException::new(
            SystemExceptionKind::Transient,
            TRANSIENT_NOT_READY,
            CompletionStatus::No,
        ))
    }
}
