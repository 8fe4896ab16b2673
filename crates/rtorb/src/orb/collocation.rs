//! The ORB's invoker: calls on objects of this ORB are served in the
//! calling thread through the object adapters (collocation); the others
//! go to the client side's connections.
//!
//! A target is collocated when one of its reference's profiles names an
//! endpoint this ORB listens on (or, for a target without a reference,
//! when its key is one this ORB serves). The first call works it out
//! and marks the target's binding; later calls read the mark.
//!
//! Forwards are remembered as over connections (see the client module):
//! a call forwarded in process goes to where it ended next time, and back
//! to the original once the object is no longer there.

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use rtorb_cdr::{Decoder, Encoder, Encoding};
use rtorb_giop::ior::PriorityModel;
use rtorb_giop::message::{Content, ReplyStatus};
use rtorb_giop::{
    CompletionStatus, ObjectReference, Operation, SystemException, SystemExceptionKind,
    decode_message,
};

use crate::object::{
    Arguments, Collocated, Forwarded, Hop, Invoker, NoInvoker, Reply, Target, follow_forwards_to,
    moved_away,
};
use crate::poa::Found;
use crate::poa::adapter_table::AdapterTable;
use crate::policy::SyncScope;
use crate::rt::PriorityControl;
use crate::servant::{ReplyBuilder, ServerRequest, Skeleton, dispatch};

use super::client::client_core::ClientCore;
use crate::minor::{MARSHAL_UNEXPECTED_REPLY, UNKNOWN_SERVANT_PANICKED};

/// What collocated calls did, counted by the ORB
/// ([`OrbStats::collocation`](super::OrbStats::collocation)).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CollocationStats {
    /// Calls that ran the servant directly through its servant trait.
    pub direct_calls: u64,
    /// Calls that were marshaled and dispatched in memory.
    pub marshaled_calls: u64,
    /// Octets of arguments and replies those marshaled.
    pub marshaled_bytes: u64,
}

/// Marks a target as served by the invoker `.0` (an [`OrbInvoker::id`]).
#[derive(Debug)]
struct Local(u64);

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// The ORB's invoker. See the [module](self).
pub(crate) struct OrbInvoker {
    id: u64,
    client: Arc<ClientCore>,
    adapters: Arc<AdapterTable>,
    /// The endpoint strings of this ORB's own profiles.
    local: OnceLock<Vec<String>>,
    /// How a collocated upcall runs at a `SERVER_DECLARED` priority.
    priorities: OnceLock<PriorityControl>,
    direct_calls: AtomicU64,
    marshaled_calls: AtomicU64,
    marshaled_bytes: AtomicU64,
}

impl std::fmt::Debug for OrbInvoker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OrbInvoker")
            .field("local", &self.local.get())
            .finish_non_exhaustive()
    }
}

impl OrbInvoker {
    pub(crate) fn new(client: Arc<ClientCore>, adapters: Arc<AdapterTable>) -> OrbInvoker {
        OrbInvoker {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            client,
            adapters,
            local: OnceLock::new(),
            priorities: OnceLock::new(),
            direct_calls: AtomicU64::new(0),
            marshaled_calls: AtomicU64::new(0),
            marshaled_bytes: AtomicU64::new(0),
        }
    }

    /// Sets the endpoints this ORB's profiles name (once the acceptors
    /// are open).
    pub(crate) fn set_local_endpoints(&self, endpoints: Vec<String>) {
        let _ = self.local.set(endpoints);
    }

    /// Sets how collocated upcalls of `SERVER_DECLARED` objects take
    /// their priority.
    pub(crate) fn set_priorities(&self, priorities: PriorityControl) {
        let _ = self.priorities.set(priorities);
    }

    pub(crate) fn stats(&self) -> CollocationStats {
        CollocationStats {
            direct_calls: self.direct_calls.load(Ordering::Relaxed),
            marshaled_calls: self.marshaled_calls.load(Ordering::Relaxed),
            marshaled_bytes: self.marshaled_bytes.load(Ordering::Relaxed),
        }
    }

    /// Whether `target` is served by this ORB.
    #[inline]
    fn is_local(&self, target: &Target) -> bool {
        match target.binding().get() {
            Some(b) => b.downcast_ref::<Local>().is_some_and(|l| l.0 == self.id),
            None => self.find_local(target),
        }
    }

    /// [`OrbInvoker::is_local`] for a target not bound yet: works it out,
    /// and binds the target if it is local.
    #[cold]
    #[inline(never)]
    fn find_local(&self, target: &Target) -> bool {
        let local = match target.reference() {
            None => self.adapters.serves(target.object_key()),
            Some(r) => self.names_local_endpoint(r),
        };
        if local {
            let _ = target.binding().set(Arc::new(Local(self.id)));
        }
        local
    }

    fn names_local_endpoint(&self, reference: &ObjectReference) -> bool {
        let Some(local) = self.local.get() else {
            return false;
        };
        let Some(refs) = self.adapters.references() else {
            return false;
        };
        reference.profiles.iter().any(|p| {
            refs.registry
                .endpoint_from_profile(p)
                .is_ok_and(|e| local.iter().any(|l| *l == e.to_string()))
        })
    }

    /// A collocated call on `target`, following forwards.
    fn collocated(
        &self,
        target: &Target,
        operation: &Operation,
        response_expected: bool,
        direct: &mut dyn FnMut(&dyn Skeleton) -> bool,
        arguments: Arguments<'_>,
    ) -> Result<Collocated, SystemException> {
        let found = self
            .adapters
            .lookup(target.object_key(), operation.as_str())?;
        let upcall = match found {
            Found::Servant(u) => u,
            Found::Forward(to) => return Ok(Collocated::Forward(Target::from_reference(to)?)),
        };
        let skeleton = &**upcall.skeleton();
        // The caller's thread runs the upcall: at its own priority, which
        // is what CLIENT_PROPAGATED asks; at the declared one for
        // SERVER_DECLARED, as a server thread would.
        let declared = upcall
            .priority_model()
            .filter(|m| m.model == PriorityModel::ServerDeclared)
            .map(|m| m.server_priority);
        let mut run = || {
            std::panic::catch_unwind(AssertUnwindSafe(|| {
                if direct(skeleton) {
                    self.direct_calls.fetch_add(1, Ordering::Relaxed);
                    return Ok(Collocated::Direct);
                }
                self.marshaled(&*skeleton, target, operation, response_expected, arguments)
                    .map(Collocated::Reply)
            }))
        };
        let ran = match (declared, self.priorities.get()) {
            (Some(p), Some(control)) => control
                .run_at(p, run)
                .unwrap_or_else(|e| Ok(Err(e.to_system_exception()))),
            _ => run(),
        };
        drop(upcall);
        ran.unwrap_or_else(|_| {
            Err(SystemException::new(
                SystemExceptionKind::Unknown,
                UNKNOWN_SERVANT_PANICKED,
                CompletionStatus::Maybe,
            ))
        })
    }

    /// The request marshaled and dispatched in memory: its reply.
    fn marshaled(
        &self,
        skeleton: &dyn Skeleton,
        target: &Target,
        operation: &Operation,
        response_expected: bool,
        arguments: Arguments<'_>,
    ) -> Result<Option<Reply>, SystemException> {
        self.marshaled_calls.fetch_add(1, Ordering::Relaxed);
        let encoding = Encoding::native();
        let mut e = Encoder::new(encoding);
        arguments(&mut e)?;
        let body = e.into_bytes();
        let mut octets = body.len() as u64;
        let mut reply = ReplyBuilder::new(encoding, 0);
        let mut req = ServerRequest::new(
            operation.as_bytes(),
            target.object_key(),
            response_expected,
            Decoder::new(body, encoding),
            &mut reply,
        );
        let invoker: Arc<dyn Invoker> = self
            .adapters
            .references()
            .map_or_else(|| Arc::new(NoInvoker) as Arc<dyn Invoker>, |r| r.invoker());
        let outcome = crate::object::with_invoker(&invoker, || dispatch(skeleton, &mut req));
        if !response_expected {
            self.marshaled_bytes.fetch_add(octets, Ordering::Relaxed);
            return Ok(None);
        }
        let message = reply.finish(outcome).map_err(|e| e.to_system_exception())?;
        octets += message.len() as u64;
        self.marshaled_bytes.fetch_add(octets, Ordering::Relaxed);
        let unexpected = || {
            SystemException::new(
                SystemExceptionKind::Marshal,
                MARSHAL_UNEXPECTED_REPLY,
                CompletionStatus::Maybe,
            )
        };
        let msg = decode_message(message.clone()).map_err(|e| e.to_system_exception())?;
        let Content::Reply(r) = &msg.content else {
            return Err(unexpected());
        };
        let body = || {
            msg.body_decoder(&message, encoding.codesets)
                .ok_or_else(unexpected)
        };
        match r.header.reply_status {
            ReplyStatus::NoException => Ok(Some(Reply::results(body()?))),
            ReplyStatus::UserException => Ok(Some(Reply::user_exception(body()?))),
            ReplyStatus::SystemException => Err(r
                .system_exception(msg.order)
                .map_err(|e| e.to_system_exception())?),
            _ => Err(unexpected()),
        }
    }

    /// [`Invoker::invoke_collocated`] on a local target (out of line: a
    /// call on a remote one only checks the target's binding).
    #[inline(never)]
    fn invoke_here(
        &self,
        target: &Target,
        operation: &Operation,
        response_expected: bool,
        direct: &mut dyn FnMut(&dyn Skeleton) -> bool,
        arguments: Arguments<'_>,
    ) -> Option<Result<Collocated, SystemException>> {
        Some(self.collocated(target, operation, response_expected, direct, arguments))
    }

    /// A call through the in-memory path, following forwards, or `None`
    /// if `target` is not local.
    #[inline(never)]
    fn call_local(
        &self,
        target: &Target,
        operation: &Operation,
        response_expected: bool,
        arguments: Arguments<'_>,
    ) -> Option<Result<Option<Reply>, SystemException>> {
        if !self.is_local(target) {
            return None;
        }
        if target.is_forwarded() {
            return Some(self.call_forwarded(target, operation, response_expected, arguments));
        }
        Some(self.call_original(target, operation, response_expected, arguments))
    }

    /// [`OrbInvoker::call_local`] at `target` itself; the target that
    /// answers a forwarded call is remembered.
    fn call_original(
        &self,
        target: &Target,
        operation: &Operation,
        response_expected: bool,
        arguments: Arguments<'_>,
    ) -> Result<Option<Reply>, SystemException> {
        let attempt = |t: &Target| self.attempt(t, operation, response_expected, arguments);
        match attempt(target)? {
            Hop::Forward(to) => {
                let (reply, last) = follow_forwards_to(to, attempt)?;
                remember(target, last);
                Ok(reply)
            }
            Hop::Done(reply) => Ok(reply),
        }
    }

    /// [`OrbInvoker::call_local`] at the target `origin`'s calls were
    /// forwarded to: back to `origin` if the object is no longer there
    /// ([`moved_away`]), and once more there where it was not processed.
    #[cold]
    #[inline(never)]
    fn call_forwarded(
        &self,
        origin: &Target,
        operation: &Operation,
        response_expected: bool,
        arguments: Arguments<'_>,
    ) -> Result<Option<Reply>, SystemException> {
        let Some(to) = origin.forwarded() else {
            return self.call_original(origin, operation, response_expected, arguments);
        };
        let attempt = |t: &Target| self.attempt(t, operation, response_expected, arguments);
        let failure = match attempt(&to.target) {
            Ok(Hop::Forward(next)) => {
                let (reply, last) = follow_forwards_to(next, attempt)?;
                remember(origin, last);
                return Ok(reply);
            }
            Ok(Hop::Done(reply)) => return Ok(reply),
            Err(e) => e,
        };
        if to.permanent || !moved_away(&failure) {
            return Err(failure);
        }
        origin.forget_forward(&to);
        if failure.completed != CompletionStatus::No {
            return Err(failure);
        }
        self.call_original(origin, operation, response_expected, arguments)
    }

    /// [`Invoker::invoke_collocated`] on a target whose calls were
    /// forwarded: at the target of the forward if it is local (`None`
    /// otherwise: the call goes through [`Invoker::invoke`]); back to
    /// `origin` as [`OrbInvoker::call_forwarded`] does.
    #[cold]
    #[inline(never)]
    fn collocated_forwarded(
        &self,
        origin: &Target,
        operation: &Operation,
        response_expected: bool,
        direct: &mut dyn FnMut(&dyn Skeleton) -> bool,
        arguments: Arguments<'_>,
    ) -> Option<Result<Collocated, SystemException>> {
        let Some(to) = origin.forwarded() else {
            return self.collocated_original(
                origin,
                operation,
                response_expected,
                direct,
                arguments,
            );
        };
        if !self.is_local(&to.target) {
            return None;
        }
        let failure =
            match self.invoke_here(&to.target, operation, response_expected, direct, arguments)? {
                Err(e) => e,
                answer => return Some(answer),
            };
        if to.permanent || !moved_away(&failure) {
            return Some(Err(failure));
        }
        origin.forget_forward(&to);
        if failure.completed != CompletionStatus::No {
            return Some(Err(failure));
        }
        self.collocated_original(origin, operation, response_expected, direct, arguments)
    }

    /// [`Invoker::invoke_collocated`] at `target` itself.
    #[inline]
    fn collocated_original(
        &self,
        target: &Target,
        operation: &Operation,
        response_expected: bool,
        direct: &mut dyn FnMut(&dyn Skeleton) -> bool,
        arguments: Arguments<'_>,
    ) -> Option<Result<Collocated, SystemException>> {
        if !self.is_local(target) {
            return None;
        }
        self.invoke_here(target, operation, response_expected, direct, arguments)
    }

    /// One attempt of [`OrbInvoker::call_local`] at `target`: in memory if
    /// it is local, else over a connection (which follows forwards itself).
    fn attempt(
        &self,
        target: &Target,
        operation: &Operation,
        response_expected: bool,
        arguments: Arguments<'_>,
    ) -> Result<Hop<Target, Option<Reply>>, SystemException> {
        if !self.is_local(target) {
            let reply = if response_expected {
                self.client
                    .invoke(target, operation.clone(), arguments)
                    .map(Some)
            } else {
                self.client
                    .invoke_oneway(target, operation.clone(), SyncScope::default(), arguments)
                    .map(|()| None)
            };
            return reply.map(Hop::Done);
        }
        Ok(
            match self.collocated(
                target,
                operation,
                response_expected,
                &mut |_| false,
                arguments,
            )? {
                Collocated::Reply(reply) => Hop::Done(reply),
                Collocated::Forward(to) => Hop::Forward(to),
                Collocated::Direct => Hop::Done(None),
            },
        )
    }
}

/// Sends the later calls to `origin` to `last`, where a forwarded call
/// ended.
fn remember(origin: &Target, last: Target) {
    origin.remember_forward(Arc::new(Forwarded {
        target: last,
        permanent: false,
    }));
}

impl Invoker for OrbInvoker {
    fn invoke(
        &self,
        target: &Target,
        operation: Operation,
        arguments: Arguments<'_>,
    ) -> Result<Reply, SystemException> {
        if !self.is_local(target) {
            return self.client.invoke(target, operation, arguments);
        }
        match self.call_local(target, &operation, true, arguments) {
            None => self.client.invoke(target, operation, arguments),
            Some(r) => r?.ok_or_else(|| {
                SystemException::new(
                    SystemExceptionKind::Marshal,
                    MARSHAL_UNEXPECTED_REPLY,
                    CompletionStatus::Maybe,
                )
            }),
        }
    }

    fn invoke_oneway(
        &self,
        target: &Target,
        operation: Operation,
        sync: SyncScope,
        arguments: Arguments<'_>,
    ) -> Result<(), SystemException> {
        if !self.is_local(target) {
            return self
                .client
                .invoke_oneway(target, operation, sync, arguments);
        }
        match self.call_local(target, &operation, sync.waits_for_reply(), arguments) {
            None => self
                .client
                .invoke_oneway(target, operation, sync, arguments),
            // The servant has run: every sync scope is satisfied; only
            // the scopes that wait for a reply report its failure.
            Some(Err(e)) if sync.waits_for_reply() => Err(e),
            Some(_) => Ok(()),
        }
    }

    fn invoke_collocated(
        &self,
        target: &Target,
        operation: &Operation,
        response_expected: bool,
        direct: &mut dyn FnMut(&dyn Skeleton) -> bool,
        arguments: Arguments<'_>,
    ) -> Option<Result<Collocated, SystemException>> {
        if target.is_forwarded() {
            return self.collocated_forwarded(
                target,
                operation,
                response_expected,
                direct,
                arguments,
            );
        }
        self.collocated_original(target, operation, response_expected, direct, arguments)
    }

    fn default_sync_scope(&self) -> SyncScope {
        self.client.default_sync_scope()
    }

    /// A collocated object needs no connection: bound as it is.
    fn validate_connection(&self, target: &Target) -> Result<bool, SystemException> {
        if self.is_local(target) {
            return Ok(true);
        }
        self.client.validate_connection(target)
    }
}
