//! [`ClientCore`]: the client side's invoker, which puts the other
//! pieces of the client together.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use rtorb_giop::{CompletionStatus, Operation, SystemException, SystemExceptionKind};

use super::oneway::Deferred;
use super::pool::{Connections, EndpointPool, PoolConfig};
use super::reply::Outcome;
use super::request::{Request, encode_oneway};
use super::select::{Candidate, Effective, ordered, select};
use super::system_exceptions::{is_not_started, no_profile_matches, protocol_error};
use crate::codesets::CodeSetConfig;
use crate::minor::{MARSHAL_UNEXPECTED_REPLY, TRANSIENT_CONNECT_FAILED};
use crate::object::{Arguments, Forwarded, Hop, Invoker, Reply, Target, follow_forwards};
use crate::orb::config::orb_config::ConnectionStrategy;
use crate::policy::{ClientProtocolPolicy, SyncScope};
use crate::transport::ProtocolRegistry;

/// Source of [`ClientCore::id`]s.
static NEXT_CORE_ID: AtomicU64 = AtomicU64::new(0);

/// How the client side is configured.
#[derive(Debug, Clone)]
pub(crate) struct ClientConfig {
    pub(crate) round_trip_timeout: Option<Duration>,
    pub(crate) connect_timeout: Duration,
    pub(crate) strategy: ConnectionStrategy,
    pub(crate) idle_timeout: Option<Duration>,
    pub(crate) fragment_size: Option<usize>,
    pub(crate) sync_scope: SyncScope,
    pub(crate) client_protocol: Option<ClientProtocolPolicy>,
    pub(crate) code_sets: CodeSetConfig,
}

/// The ORB's invoker: connection cache and request/reply exchange.
///
/// # Forwards
///
/// A call answered with `LOCATION_FORWARD` (or a locate reply
/// `OBJECT_FORWARD`) is sent to the new target, at most
/// [`MAX_FORWARDS`](crate::object::MAX_FORWARDS) times, and the reference
/// (its [`Target`], shared by the clones of its `Object`) remembers the
/// target that answered: later calls, `SYNC_NONE` oneways and
/// `validate_connection` go there directly, reading the remembered target
/// without a lock. When a call there fails because the object is no longer
/// there (`COMM_FAILURE`, `OBJECT_NOT_EXIST`, or a `TRANSIENT` raised here
/// because it cannot be reached), the reference forgets it and, where the
/// failure is `COMPLETED_NO`, the call is sent to the original reference
/// once more, which may forward it afresh; a `COMPLETED_MAYBE` failure is
/// the caller's, and the next call starts from the original. A target
/// reached only through `LOCATION_FORWARD_PERM` replies replaces the
/// original for good: a failure there is the caller's.
///
/// # Failures
///
/// A connection that cannot be opened gives `TRANSIENT`. A
/// request is sent once more, on a new connection, wherever the server
/// cannot have processed it (GIOP's connection management): when not all
/// of it could be written, and when the server answers it with
/// `CloseConnection` (which says that the requests it has not answered
/// were not processed); a second such failure is `TRANSIENT`
/// (`COMPLETED_NO`). A connection that breaks once the request is written
/// (the server closes it or resets it before the reply has come, or in
/// the middle of the reply) gives `COMM_FAILURE` (`COMPLETED_MAYBE`), on
/// a new connection or a reused one alike: the server may have processed
/// the request before it went away. The connection is dropped, so the
/// next call connects anew. So that a request is not written into a
/// connection the server closed while it was idle (a server process that
/// exited, with or without sending `CloseConnection`, and was restarted
/// since), a call that takes an idle connection looks, without waiting,
/// whether the server closed it or sent `CloseConnection` meanwhile (a
/// `MSG_PEEK` receive), and takes another, or opens one, if it did; it
/// looks only when the connection has been idle for `IDLE_CHECK_AFTER`
/// (1 ms; on the coarse clock for exclusive connections, a few
/// nanoseconds to read), so calls that follow each other closely make no
/// system call for it. The first call after a server restart thus goes
/// on a new connection; a server that closes a connection within that
/// time of its last reply may still see the next request fail with
/// `COMPLETED_MAYBE`. Oneways with `SYNC_WITH_SERVER` or
/// `SYNC_WITH_TARGET` are calls in this respect, and
/// `SYNC_WITH_TRANSPORT` ones are sent once more where their write fails.
/// A `SYNC_NONE` oneway is written to an idle connection taken the same
/// way; one whose write fails is written once more on a new connection,
/// then dropped, and one written into a connection the server closes
/// before reading it is lost without a word, as `SYNC_NONE` allows. A
/// call that exceeds its round-trip timeout (the effective
/// `RelativeRoundtripTimeout`) gives `TIMEOUT`; an exclusive connection is
/// then dropped, a shared one kept (the late reply is discarded).
#[derive(Debug)]
pub(crate) struct ClientCore {
    /// Tells this core's target bindings from other cores'.
    id: u64,
    config: ClientConfig,
    connections: Connections,
    /// This core, for the threads that send `SYNC_NONE` oneways.
    me: Weak<ClientCore>,
    /// Request ids of `SYNC_NONE` oneways (no reply ever refers to them).
    next_deferred_id: AtomicU32,
}

impl ClientCore {
    /// A core; build it with `Arc::new_cyclic` so that it knows itself
    /// (`me`).
    pub(crate) fn new(
        registry: ProtocolRegistry,
        config: ClientConfig,
        me: Weak<ClientCore>,
    ) -> ClientCore {
        let pool_config = PoolConfig {
            connect_timeout: config.connect_timeout,
            fragment_size: config.fragment_size,
            idle_timeout: config.idle_timeout,
        };
        ClientCore {
            id: NEXT_CORE_ID.fetch_add(1, Ordering::Relaxed),
            config,
            connections: Connections::new(registry, pool_config),
            me,
            next_deferred_id: AtomicU32::new(0x8000_0000),
        }
    }

    /// Closes every idle connection (shared ones with no call in flight).
    pub(crate) fn close_idle(&self) {
        self.connections.close_idle();
    }

    /// The number of idle connections: exclusive ones in the cache, and
    /// shared ones with no call in flight.
    pub(crate) fn idle_connections(&self) -> usize {
        self.connections.idle_connections()
    }

    /// The deadline and protocol preference of a call to `target`
    /// starting now.
    #[inline]
    fn effective(&self, target: &Target) -> Effective<'_> {
        Effective::of(
            target,
            self.config.round_trip_timeout,
            self.config.client_protocol.as_ref(),
        )
    }

    /// Whether calls share a connection per endpoint.
    fn multiplexed(&self) -> bool {
        self.config.strategy == ConnectionStrategy::Multiplexed
    }

    /// One request to one endpoint, resent once on a new connection if the
    /// server did not start it.
    fn exchange(
        &self,
        candidate: &Candidate,
        request: Request<'_>,
        deadline: Option<Instant>,
    ) -> Result<Outcome, SystemException> {
        let mut resent = false;
        // A LocateRequest (explicit binding) goes on any band's connection.
        let pool = match request {
            Request::Locate => candidate.pools().next().ok_or_else(no_profile_matches)?,
            Request::Call { .. } => candidate.pool()?,
        };
        pool.oneways.flush(|d| self.deliver(pool, d));
        let to = candidate.destination();
        loop {
            let shared = if self.multiplexed() {
                self.connections
                    .shared(pool, &*candidate.endpoint, deadline)?
            } else {
                None
            };
            let failure = if let Some(conn) = shared {
                match conn.exchange(&to, request, deadline) {
                    Ok(outcome) => return Ok(outcome),
                    Err(e) => e,
                }
            } else {
                let mut conn = self
                    .connections
                    .checkout(pool, &*candidate.endpoint, deadline)?;
                match conn.exchange(&to, request, deadline) {
                    Ok(outcome) => {
                        self.connections.checkin(pool, conn);
                        return Ok(outcome);
                    }
                    Err(e) => e,
                }
            };
            // Not started twice: the second time is the caller's answer.
            if !is_not_started(&failure) || resent {
                return Err(failure);
            }
            resent = true;
        }
    }

    /// A request to `target`, following forwards, trying its profiles in
    /// the order of the effective protocol preference; where a forward of
    /// an earlier call is remembered, to its target.
    #[inline]
    fn call(&self, target: &Target, request: Request<'_>) -> Result<Outcome, SystemException> {
        let effective = self.effective(target);
        if target.is_forwarded() {
            return self.call_forwarded(target, request, &effective);
        }
        self.call_original(target, request, &effective)
    }

    /// [`ClientCore::call`] to `target` itself.
    #[inline]
    fn call_original(
        &self,
        target: &Target,
        request: Request<'_>,
        effective: &Effective<'_>,
    ) -> Result<Outcome, SystemException> {
        match self.try_profiles(target, request, effective) {
            Ok(Outcome::Forward(to)) => self.follow(target, to, true, request, effective),
            answer => answer,
        }
    }

    /// [`ClientCore::call`] to the target `origin`'s calls were forwarded
    /// to. If the object is no longer there (see [`location_failed`]),
    /// `origin` forgets the forward, unless it was permanent, and the
    /// request goes to `origin` itself where the failure says that it was
    /// not processed.
    #[cold]
    #[inline(never)]
    fn call_forwarded(
        &self,
        origin: &Target,
        request: Request<'_>,
        effective: &Effective<'_>,
    ) -> Result<Outcome, SystemException> {
        let Some(to) = origin.forwarded() else {
            return self.call_original(origin, request, effective);
        };
        let answer = match self.try_profiles(&to.target, request, effective) {
            Ok(Outcome::Forward(next)) => {
                return self.follow(origin, next, to.permanent, request, effective);
            }
            answer => answer,
        };
        let Some(failure) = location_failed(&answer) else {
            return answer;
        };
        if to.permanent {
            return answer;
        }
        origin.forget_forward(&to);
        if failure != CompletionStatus::No {
            return answer;
        }
        self.call_original(origin, request, effective)
    }

    /// The request sent to the first profile of `target` that can be
    /// reached, in the order of the effective preference.
    #[inline]
    fn try_profiles(
        &self,
        target: &Target,
        request: Request<'_>,
        effective: &Effective<'_>,
    ) -> Result<Outcome, SystemException> {
        let selected = select(self.id, target, &self.connections, &self.config.code_sets)?;
        let mut unreachable = None;
        for candidate in ordered(selected.candidates(), effective.protocol.as_deref()) {
            match self.exchange(candidate, request, effective.deadline) {
                // Unreachable: try the next profile.
                Err(e) if e.minor == TRANSIENT_CONNECT_FAILED => unreachable = Some(e),
                answer => return answer,
            }
        }
        // Else the preference ruled out every profile.
        Err(unreachable.unwrap_or_else(no_profile_matches))
    }

    /// [`ClientCore::call`] once the target `origin` forwarded it: the
    /// request follows forwards ([`follow_forwards`]), and `origin`
    /// remembers the target that answered, unless the object was not
    /// there either; as a permanent forward if `permanent` (the forwards
    /// that led to `to` were) and every forward followed here is.
    #[cold]
    #[inline(never)]
    fn follow(
        &self,
        origin: &Target,
        to: Arc<Forwarded>,
        mut permanent: bool,
        request: Request<'_>,
        effective: &Effective<'_>,
    ) -> Result<Outcome, SystemException> {
        let mut last = None;
        let answer = follow_forwards(to, |t: &Arc<Forwarded>| {
            permanent &= t.permanent;
            last = Some(Arc::clone(t));
            Ok(match self.try_profiles(&t.target, request, effective)? {
                Outcome::Forward(next) => Hop::Forward(next),
                answer => Hop::Done(answer),
            })
        });
        let answered = answer.as_ref().is_ok_and(|a| {
            !matches!(a, Outcome::System(e) if e.kind() == Some(SystemExceptionKind::ObjectNotExist))
        });
        if let Some(last) = last.filter(|_| answered) {
            let remembered = if last.permanent == permanent {
                last
            } else {
                Arc::new(Forwarded {
                    target: last.target.clone(),
                    permanent,
                })
            };
            origin.remember_forward(remembered);
        }
        answer
    }

    /// A `SYNC_NONE` oneway: encoded now, for the first profile the
    /// effective preference allows, and handed to the sending thread; the
    /// call returns before any transport has the request. Only a request
    /// that cannot be encoded, or a preference that allows no profile,
    /// fails the call; failures to send are not reported (the request is
    /// sent once more on a new connection, then dropped).
    fn send_deferred(
        &self,
        target: &Target,
        operation: &Operation,
        arguments: Arguments<'_>,
    ) -> Result<(), SystemException> {
        let effective = self.effective(target);
        let forwarded = target.forwarded();
        let to = forwarded.as_ref().map_or(target, |f| &f.target);
        let selected = select(self.id, to, &self.connections, &self.config.code_sets)?;
        let Some(candidate) = ordered(selected.candidates(), effective.protocol.as_deref()).next()
        else {
            return Err(no_profile_matches());
        };
        let (pieces, announced) = encode_oneway(
            candidate.endpoint.messaging(),
            &candidate.destination(),
            self.next_deferred_id.fetch_add(1, Ordering::Relaxed),
            operation,
            arguments,
            self.config.fragment_size,
        )?;
        let deferred = Deferred {
            endpoint: candidate.endpoint.clone_box(),
            pieces,
            announced,
        };
        let pool = candidate.pool()?;
        if !pool.oneways.push(deferred) {
            return Ok(());
        }
        let me = self.me.clone();
        let p = Arc::clone(pool);
        let started = std::thread::Builder::new()
            .name("rtorb-oneway-sender".into())
            .spawn(move || {
                if let Some(core) = me.upgrade() {
                    p.oneways.send_queued(|d| core.deliver(&p, d));
                }
            });
        if started.is_err() {
            // No thread: written here, as the next request would.
            pool.oneways.no_sender();
            pool.oneways.flush(|d| self.deliver(pool, d));
        }
        Ok(())
    }

    /// Writes a deferred oneway, once more on a new connection if the
    /// first write fails; failures are not reported (a `SYNC_NONE` caller
    /// asked for no news).
    fn deliver(&self, pool: &EndpointPool, d: Deferred) {
        for _ in 0..2 {
            let shared = if self.multiplexed() {
                match self.connections.shared(pool, &*d.endpoint, None) {
                    Ok(s) => s,
                    Err(_) => return,
                }
            } else {
                None
            };
            let written = match shared {
                Some(conn) => conn.write_pieces(&d.pieces, d.announced),
                None => match self.connections.checkout(pool, &*d.endpoint, None) {
                    Ok(mut conn) => {
                        let written = conn.write_pieces(&d.pieces, d.announced);
                        if written {
                            self.connections.checkin(pool, conn);
                        }
                        written
                    }
                    Err(_) => return,
                },
            };
            if written {
                return;
            }
        }
    }

    /// Opens `count` connections to the endpoint `target`'s calls would
    /// use first (one shared connection under the multiplexed strategy)
    /// and keeps them idle for the calls to come; returns how many are
    /// idle there now.
    pub(crate) fn preconnect(
        &self,
        target: &Target,
        count: usize,
    ) -> Result<usize, SystemException> {
        let effective = self.effective(target);
        let forwarded = target.forwarded();
        let to = forwarded.as_ref().map_or(target, |f| &f.target);
        let selected = select(self.id, to, &self.connections, &self.config.code_sets)?;
        let mut last = None;
        for candidate in ordered(selected.candidates(), effective.protocol.as_deref()) {
            let endpoint = &*candidate.endpoint;
            let deadline = effective.deadline;
            // Every band's connections, where they are banded.
            let mut opened = Ok(0);
            for pool in candidate.pools() {
                let here = if self.multiplexed() {
                    match self.connections.shared(pool, endpoint, deadline) {
                        Ok(Some(_)) => Ok(1),
                        Ok(None) => self.connections.open_idle(pool, endpoint, count, deadline),
                        Err(e) => Err(e),
                    }
                } else {
                    self.connections.open_idle(pool, endpoint, count, deadline)
                };
                opened = match (opened, here) {
                    (Ok(a), Ok(b)) => Ok(a + b),
                    (Err(e), _) | (_, Err(e)) => Err(e),
                };
                if opened.is_err() {
                    break;
                }
            }
            match opened {
                Err(e) if e.minor == TRANSIENT_CONNECT_FAILED => last = Some(e),
                other => return other,
            }
        }
        Err(last.unwrap_or_else(no_profile_matches))
    }
}

impl Invoker for ClientCore {
    fn invoke(
        &self,
        target: &Target,
        operation: Operation,
        arguments: Arguments<'_>,
    ) -> Result<Reply, SystemException> {
        let request = Request::Call {
            operation: &operation,
            response_flags: rtorb_giop::message::RESPONSE_WITH_TARGET,
            arguments,
        };
        match self.call(target, request)? {
            Outcome::Reply(r) => Ok(r.into_reply()),
            Outcome::Decoded(r) => Ok(*r),
            Outcome::System(e) => Err(e),
            _ => Err(SystemException::new(
                SystemExceptionKind::Marshal,
                MARSHAL_UNEXPECTED_REPLY,
                rtorb_giop::CompletionStatus::Maybe,
            )),
        }
    }

    fn invoke_oneway(
        &self,
        target: &Target,
        operation: Operation,
        sync: SyncScope,
        arguments: Arguments<'_>,
    ) -> Result<(), SystemException> {
        if sync == SyncScope::None {
            return self.send_deferred(target, &operation, arguments);
        }
        let request = Request::Call {
            operation: &operation,
            response_flags: sync.response_flags(),
            arguments,
        };
        match self.call(target, request)? {
            Outcome::System(e) => Err(e),
            _ => Ok(()),
        }
    }

    fn default_sync_scope(&self) -> SyncScope {
        self.config.sync_scope
    }

    fn validate_connection(&self, target: &Target) -> Result<bool, SystemException> {
        match self.call(target, Request::Locate) {
            // Explicit binding: every band's connection is opened too.
            Ok(Outcome::Here) => self.preconnect(target, 1).map(|_| true),
            Ok(Outcome::System(e)) => Err(e),
            Ok(_) => Err(protocol_error()),
            Err(e) if e.kind() == Some(SystemExceptionKind::InvPolicy) => Ok(false),
            Err(e) => Err(e),
        }
    }
}

/// How the answer of a call at a forward's target says that the object
/// is no longer there: the completion status of the failure, or `None`
/// if it does not. A `COMM_FAILURE`, an `OBJECT_NOT_EXIST` (raised or
/// replied), or a `TRANSIENT` raised here (the target cannot be reached)
/// do; a `TRANSIENT` the server replies (its POA manager holding
/// requests, say) does not: the object is there.
fn location_failed(answer: &Result<Outcome, SystemException>) -> Option<CompletionStatus> {
    use SystemExceptionKind::{CommFailure, ObjectNotExist, Transient};
    let (e, raised) = match answer {
        Err(e) => (e, true),
        Ok(Outcome::System(e)) => (e, false),
        Ok(_) => return None,
    };
    match e.kind()? {
        CommFailure | ObjectNotExist => Some(e.completed),
        Transient if raised => Some(e.completed),
        _ => None,
    }
}

/// Starts the thread that closes connections unused for the configured
/// idle timeout, if one is configured. It ends when the core is dropped.
pub(crate) fn spawn_idle_reaper(core: &Arc<ClientCore>) -> std::io::Result<()> {
    super::pool::spawn_idle_reaper(core, |core| &core.connections)
}
