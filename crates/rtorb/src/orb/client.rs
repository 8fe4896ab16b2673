//! The client side of the ORB: an [`Invoker`] over real connections.
//!
//! A call picks a profile of the target's reference that a registered
//! protocol can reach: in the order of the reference, or in the order of
//! the effective `ClientProtocolPolicy` (the reference's override, else
//! the thread's, else the ORB's; no match is `INV_POLICY` unless the
//! policy falls back to any usable profile), the next one if it cannot
//! connect. How it uses connections to that endpoint depends on the
//! [`ConnectionStrategy`]:
//!
//! - exclusive (the default): it takes an idle connection from the cache
//!   or opens one, and has it to itself until the reply has come; a second
//!   concurrent call to the same endpoint opens (or reuses) another. The
//!   connection put back last waits in a lock-free slot of the endpoint's
//!   pool, so a thread calling an endpoint again and again takes no lock;
//! - multiplexed: every call shares one connection per endpoint, each
//!   waiting for its own reply (see `multiplexed.rs`: leader/followers).
//!
//! The request is written in the GIOP version of the profile (GIOPlite
//! when the profile carries the GIOPlite component) with the connection's
//! next request id, into the connection's one request buffer (headers
//! copied from a template when the call repeats a recent one) and sent
//! from there; as GIOP 1.2 fragments when it is larger than the
//! configured maximum message size (a gathered write: the body is not
//! copied; GIOP 1.1 requests go whole, see [`ORB_FRAGMENTS`]). The reply
//! is read with a [`FrameReader`], fragments reassembled, a plain reply
//! in place ([`reply_view_framed`]). A `SYNC_NONE` oneway is encoded by
//! the caller and queued for its endpoint, written by a thread of the
//! endpoint's own or before the next request to it (so such oneways keep
//! their order among themselves and before the same thread's later
//! calls). Text is written in the code
//! sets negotiated with the profile's `TAG_CODE_SETS` component, announced
//! in a `CodeSets` service context on the first request written on each
//! connection, exclusive or shared (see [`crate::codesets`]); a `SYNC_NONE`
//! oneway always carries it, since it may be the first on the connection
//! the sending thread writes it to. Connections unused for the
//! configured idle timeout are
//! closed by a background thread. [`Invoker::validate_connection`] binds a
//! reference with a `LocateRequest` (following forwards), and
//! [`super::Orb::preconnect`] opens connections ahead of the calls.
//!
//! Failures: a connection that cannot be opened gives `TRANSIENT`; one
//! that breaks while a reply is awaited gives `COMM_FAILURE`
//! (`COMPLETED_MAYBE`) and is dropped, so the next call connects anew. A
//! `CloseConnection` from the server, or a failure to write on a cached
//! connection, means the request was not started: it is sent once more on
//! a new connection, and a second failure is `TRANSIENT`. A call that
//! exceeds its round-trip timeout (the effective
//! `RelativeRoundtripTimeout`) gives `TIMEOUT`; an exclusive connection is
//! then dropped, a shared one kept (the late reply is discarded).

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::atomic::AtomicU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use bytes::Bytes;
use crossbeam_utils::atomic::AtomicCell;
use rtorb_cdr::{Decoder, Encoding, OMG_VMCID, RTORB_VMCID, TransmissionCodeSets};
use rtorb_giop::message::{
    Content, LocateRequest, LocateStatus, Message, MessageWriter, ReplyStatus, RequestHeader,
};
use rtorb_giop::service_context::{ServiceContext, ServiceContextList};
use rtorb_giop::target::TargetAddress;
use rtorb_giop::{
    CompletionStatus, FrameProtocol, GiopError, ObjectReference, Operation, Reassembler,
    ReassemblyLimits, ReplyView, RequestTemplate, SystemException, SystemExceptionKind,
    decode_lite, encode_lite, encode_message, fragment_chunks, reply_view_framed,
};

use super::config::ConnectionStrategy;
use super::multiplexed::MuxConnection;
use crate::codesets::{self, ClientCodeSets};
use crate::runtime::loopback::MAX_FORWARDS;
use crate::runtime::policy::{INV_POLICY_CANNOT_RECONCILE, any_override, find};
use crate::runtime::{
    Arguments, ClientProtocolPolicy, Invoker, MARSHAL_UNEXPECTED_REPLY, Policy, Reply, SyncScope,
    TRANSIENT_TOO_MANY_FORWARDS, Target, object_not_exist,
};
use crate::sync::{Mutex, MutexGuard};
use crate::transport::{Endpoint, FrameReader, ProtocolRegistry, Transport, TransportError};
use crate::whitebox::{Probe, Stage};

/// `TRANSIENT` minor code for a reference with no profile a registered
/// protocol can reach (OMG minor 2, "no usable profile in IOR").
pub const TRANSIENT_NO_USABLE_PROFILE: u32 = OMG_VMCID | 2;

/// `TRANSIENT` minor code for a connection that could not be opened
/// (rtorb).
pub const TRANSIENT_CONNECT_FAILED: u32 = RTORB_VMCID | 0x301;

/// `TRANSIENT` minor code for a request the server closed the connection
/// on before starting it, twice (rtorb).
pub const TRANSIENT_CONNECTION_CLOSED: u32 = RTORB_VMCID | 0x302;

/// `COMM_FAILURE` minor code for a connection lost while sending a
/// request or waiting for its reply (rtorb).
pub const COMM_FAILURE_CONNECTION_LOST: u32 = RTORB_VMCID | 0x303;

/// `COMM_FAILURE` minor code for a server that answered with a
/// `MessageError` or sent what a client cannot accept (rtorb).
pub const COMM_FAILURE_PROTOCOL_ERROR: u32 = RTORB_VMCID | 0x304;

/// `TIMEOUT` minor code for a call whose reply did not arrive within the
/// round-trip timeout (rtorb).
pub const TIMEOUT_ROUND_TRIP: u32 = RTORB_VMCID | 0x305;

pub use crate::runtime::policy::INV_POLICY_CANNOT_RECONCILE as INV_POLICY_NO_PROFILE_MATCHES;

/// The lowest GIOP version whose messages the ORB sends as fragments
/// (requests and replies larger than the configured fragment size).
///
/// GIOP 1.2, not 1.1: a GIOP 1.1 `Fragment` is aligned from its own start
/// (its body 12 octets in, as omniORB writes and reads them), so a message
/// already encoded cannot be cut into 1.1 fragments without encoding it
/// again: a cut on an 8-octet boundary of the message leaves the next
/// 8-octet item 4 octets short of the padding the peer expects, any other
/// cut splits a primitive. GIOP 1.1 messages go whole (fragmenting is
/// never required); in GIOP 1.2 the 16-octet fragment header keeps the
/// alignment.
pub const ORB_FRAGMENTS: rtorb_cdr::Version = rtorb_cdr::Version::V1_2;

/// Capacity of the buffers of requests encoded on their own.
pub(super) const BUFFER_CAPACITY: usize = 512;

/// A request buffer grown beyond this (by a large request) is released
/// once the request is sent, rather than kept for the connection's life.
pub(super) const MAX_KEPT_REQUEST_CAPACITY: usize = 64 * 1024;

/// A socket read timeout up to 1/`READ_TIMEOUT_SLACK` shorter than the
/// time left before a call's deadline is kept rather than set again.
const READ_TIMEOUT_SLACK: u32 = 8;

/// Below this, a read timeout is set to exactly the time left.
const MIN_SHORTENED_READ_TIMEOUT: Duration = Duration::from_millis(16);

/// A profile to try.
#[derive(Debug)]
struct Candidate {
    /// Where to connect.
    endpoint: Box<dyn Endpoint>,
    /// The object key the profile carries.
    object_key: Bytes,
    /// The connections to the endpoint.
    pool: Pool,
    /// The encoding of requests to it (the profile's GIOP version).
    encoding: Encoding,
    /// The code sets negotiated with the profile.
    codesets: ClientCodeSets,
}

/// The usable profiles of a target, in the order of its reference, as
/// one client core worked them out: kept in the target's binding.
#[derive(Debug)]
struct Resolved {
    /// [`ClientCore::id`] of the core that made it.
    core: u64,
    candidates: Vec<Candidate>,
}

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
    pub(crate) code_sets: crate::codesets::CodeSetConfig,
}

/// The ORB's invoker: connection cache and request/reply exchange.
#[derive(Debug)]
pub(crate) struct ClientCore {
    /// Tells this core's target bindings from other cores'.
    id: u64,
    registry: ProtocolRegistry,
    config: ClientConfig,
    /// The connections to each endpoint, by endpoint string.
    pools: Mutex<HashMap<String, Pool>>,
    /// This core, for the threads that send `SYNC_NONE` oneways.
    me: Weak<ClientCore>,
    /// Request ids of `SYNC_NONE` oneways (no reply ever refers to them).
    next_deferred_id: AtomicU32,
}

/// A `SYNC_NONE` oneway, encoded by the caller, queued at its endpoint.
#[derive(Debug)]
struct Deferred {
    endpoint: Box<dyn Endpoint>,
    /// The message, as one gathered write (fragments included).
    pieces: Vec<Bytes>,
    /// The code sets its `CodeSets` context announces, if it has one.
    announced: Option<TransmissionCodeSets>,
}

/// The idle exclusive connections to one endpoint (boxed: a call moves
/// its connection out and back in, a pointer rather than the whole
/// state). The one put back last waits in a slot that a call takes and
/// fills with one atomic swap each, without a lock: a thread that calls
/// an endpoint again and again finds its connection there. The others
/// are in a locked list.
#[derive(Default)]
struct IdleConnections {
    last: AtomicCell<Option<Box<Connection>>>,
    #[allow(clippy::vec_box)]
    others: Mutex<Vec<Box<Connection>>>,
}

impl std::fmt::Debug for IdleConnections {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IdleConnections").finish_non_exhaustive()
    }
}

impl IdleConnections {
    /// The connection put back last.
    #[inline]
    fn pop(&self) -> Option<Box<Connection>> {
        self.last.take().or_else(|| lock(&self.others).pop())
    }

    /// Puts a connection back.
    #[inline]
    fn push(&self, conn: Box<Connection>) {
        if let Some(before) = self.last.swap(Some(conn)) {
            lock(&self.others).push(before);
        }
    }

    /// Takes every idle connection out.
    #[allow(clippy::vec_box)]
    fn take_all(&self) -> Vec<Box<Connection>> {
        let mut all = std::mem::take(&mut *lock(&self.others));
        all.extend(self.last.take());
        all
    }

    /// How many there are (a moment's count: calls take and put back
    /// connections meanwhile).
    fn len(&self) -> usize {
        let last = self.last.take();
        let n = lock(&self.others).len() + usize::from(last.is_some());
        if let Some(c) = last {
            self.push(c);
        }
        n
    }
}

/// The connections to one endpoint: idle exclusive ones, and the shared
/// one of the multiplexed strategy.
#[derive(Debug, Default)]
struct EndpointPool {
    /// Idle exclusive connections.
    idle: IdleConnections,
    shared: Mutex<Option<Arc<MuxConnection>>>,
    /// Whether the endpoint's transport cannot be shared (see
    /// [`Transport::try_clone_box`]): its calls use connections
    /// exclusively whatever the strategy.
    unsharable: std::sync::atomic::AtomicBool,
    /// `SYNC_NONE` oneways to the endpoint not yet written, in the order
    /// they were made. Written by a thread of the endpoint's own (so an
    /// endpoint that cannot be reached delays no other), or by the next
    /// request to the endpoint before it is sent itself; the lock is held
    /// while one is written.
    deferred: Mutex<DeferredQueue>,
    /// Oneways queued or being written: a request looks at it (without
    /// locking) to know whether it must write them first.
    deferred_pending: std::sync::atomic::AtomicUsize,
    /// Wakes the endpoint's sending thread.
    deferred_added: crate::sync::Condvar,
}

/// The `SYNC_NONE` oneways of one endpoint.
#[derive(Debug, Default)]
struct DeferredQueue {
    queue: std::collections::VecDeque<Deferred>,
    /// Whether the endpoint's sending thread runs.
    sender: bool,
}

/// How long an endpoint's sending thread waits for more oneways before it
/// ends.
const DEFERRED_LINGER: Duration = Duration::from_millis(200);

type Pool = Arc<EndpointPool>;

/// Locks `m`, whether or not a thread panicked holding it (the data are
/// connections and maps of them, consistent at every step).
pub(super) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock()
}

/// One exclusive client connection, used by one call at a time.
#[derive(Debug)]
struct Connection {
    transport: Box<dyn Transport>,
    inbound: Inbound,
    next_request_id: u32,
    /// Requests are written here: one buffer, reused for every request.
    writer: MessageWriter,
    /// The headers of requests made on it.
    templates: Templates,
    /// Whether a call has already completed on it (a failure to send on a
    /// reused connection means the server closed it while idle).
    reused: bool,
    /// When it was last put back idle.
    idle_since: Instant,
    /// The code sets sent in a `CodeSets` context on it.
    codesets: Option<TransmissionCodeSets>,
}

/// The receiving side of a connection: frames, reassembly, and the read
/// timeout set on the socket.
#[derive(Debug)]
pub(super) struct Inbound {
    reader: FrameReader,
    reassembler: Reassembler,
    messaging: FrameProtocol,
    /// The read timeout currently set on the transport.
    read_timeout: Option<Duration>,
    /// Times the stages of a call (with the `whitebox` feature).
    probe: Probe,
}

/// The failure of an exchange whose request the server did not start (it
/// closed the connection first): sending it again, once, is safe; the
/// same failure again is the caller's answer.
pub(super) fn not_started() -> SystemException {
    system(
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

/// A `NO_EXCEPTION` or `USER_EXCEPTION` reply read in place: its
/// message and where its body is, made into a [`Reply`] (its decoder)
/// only when handed to the stub.
pub(super) struct ReplyFrame {
    message: Bytes,
    body_offset: usize,
    encoding: Encoding,
    user_exception: bool,
}

impl ReplyFrame {
    fn into_reply(self) -> Reply {
        let body = Decoder::with_position(self.message, 0, self.body_offset, self.encoding);
        if self.user_exception {
            Reply::user_exception(body)
        } else {
            Reply::results(body)
        }
    }
}

/// What an exchange brought back.
pub(super) enum Outcome {
    /// No reply is expected.
    Sent,
    /// The reply to hand to the stub, read in place.
    Reply(ReplyFrame),
    /// The reply to hand to the stub, decoded in full (boxed, as the
    /// forward: the outcomes moved on every call stay small).
    Decoded(Box<Reply>),
    /// A system exception reply.
    System(SystemException),
    /// Send the request again to this target (boxed: a reply, the
    /// common outcome, is moved through every layer of a call).
    Forward(Box<Target>),
    /// The answer to a `LocateRequest`: the object is here.
    Here,
}

fn system(kind: SystemExceptionKind, minor: u32, completed: CompletionStatus) -> SystemException {
    SystemException::new(kind, minor, completed)
}

pub(super) fn lost(completed: CompletionStatus) -> SystemException {
    system(
        SystemExceptionKind::CommFailure,
        COMM_FAILURE_CONNECTION_LOST,
        completed,
    )
}

pub(super) fn protocol_error() -> SystemException {
    system(
        SystemExceptionKind::CommFailure,
        COMM_FAILURE_PROTOCOL_ERROR,
        CompletionStatus::Maybe,
    )
}

pub(super) fn timed_out() -> SystemException {
    system(
        SystemExceptionKind::Timeout,
        TIMEOUT_ROUND_TRIP,
        CompletionStatus::Maybe,
    )
}

fn connect_failed() -> SystemException {
    system(
        SystemExceptionKind::Transient,
        TRANSIENT_CONNECT_FAILED,
        CompletionStatus::No,
    )
}

fn maybe(e: &GiopError) -> SystemException {
    let mut ex = e.to_system_exception();
    ex.completed = CompletionStatus::Maybe;
    ex
}

/// The policies in force for one call.
struct Effective<'a> {
    deadline: Option<Instant>,
    protocol: Option<Cow<'a, ClientProtocolPolicy>>,
}

/// What a request is: a call, or a `LocateRequest`.
#[derive(Clone, Copy)]
pub(super) enum Request<'a> {
    /// A `Request` of `operation`.
    Call {
        operation: &'a Operation,
        response_flags: u8,
        arguments: Arguments<'a>,
    },
    /// A `LocateRequest`.
    Locate,
}

impl Request<'_> {
    pub(super) fn expects_reply(&self) -> bool {
        match self {
            Request::Call { response_flags, .. } => response_flags & 0x01 != 0,
            Request::Locate => true,
        }
    }
}

impl ClientCore {
    /// A core; build it with `Arc::new_cyclic` so that it knows itself
    /// (`me`).
    pub(crate) fn new(
        registry: ProtocolRegistry,
        config: ClientConfig,
        me: Weak<ClientCore>,
    ) -> ClientCore {
        ClientCore {
            id: NEXT_CORE_ID.fetch_add(1, Ordering::Relaxed),
            registry,
            config,
            pools: Mutex::new(HashMap::new()),
            me,
            next_deferred_id: AtomicU32::new(0x8000_0000),
        }
    }

    fn all_pools(&self) -> Vec<Pool> {
        lock(&self.pools).values().cloned().collect()
    }

    /// Closes every idle connection (shared ones with no call in flight).
    pub(crate) fn close_idle(&self) {
        for pool in self.all_pools() {
            drop(pool.idle.take_all());
            let mut shared = lock(&pool.shared);
            if shared.as_ref().is_some_and(|c| c.in_flight() == 0) {
                if let Some(c) = shared.take() {
                    c.close();
                }
            }
        }
    }

    /// Closes the connections unused for `timeout` or longer.
    fn close_unused(&self, timeout: Duration) {
        let now = Instant::now();
        for pool in self.all_pools() {
            let (expired, keep): (Vec<Box<Connection>>, Vec<Box<Connection>>) = pool
                .idle
                .take_all()
                .into_iter()
                .partition(|c| now.saturating_duration_since(c.idle_since) >= timeout);
            for c in keep {
                pool.idle.push(c);
            }
            for mut c in expired {
                let _ = c.transport.shutdown(std::net::Shutdown::Both);
            }
            let mut shared = lock(&pool.shared);
            if shared
                .as_ref()
                .is_some_and(|c| c.unused_for(now).is_some_and(|d| d >= timeout))
            {
                if let Some(c) = shared.take() {
                    c.close();
                }
            }
        }
    }

    /// The number of idle connections: exclusive ones in the cache, and
    /// shared ones with no call in flight.
    pub(crate) fn idle_connections(&self) -> usize {
        self.all_pools()
            .iter()
            .map(|p| {
                let shared = lock(&p.shared)
                    .as_ref()
                    .is_some_and(|c| c.is_usable() && c.in_flight() == 0);
                p.idle.len() + usize::from(shared)
            })
            .sum()
    }

    /// The pool of connections to the endpoint `key` names.
    fn pool(&self, key: String) -> Pool {
        Arc::clone(lock(&self.pools).entry(key).or_default())
    }

    /// The usable profiles of `target`: from its binding when this core
    /// has bound it, else worked out (and bound, if nobody has).
    #[inline]
    fn select<'t>(&self, target: &'t Target) -> Result<Selected<'t>, SystemException> {
        let bound = target
            .binding()
            .get()
            .and_then(|b| b.downcast_ref::<Resolved>())
            .filter(|r| r.core == self.id);
        match bound {
            Some(r) => Ok(Selected::Bound(r)),
            None => self.bind(target),
        }
    }

    /// [`ClientCore::select`] for a target this core has not bound: works
    /// out its profiles, and binds it if nobody has.
    #[cold]
    #[inline(never)]
    fn bind<'t>(&self, target: &'t Target) -> Result<Selected<'t>, SystemException> {
        let bound = |b: &'t crate::runtime::Binding| {
            b.downcast_ref::<Resolved>().filter(|r| r.core == self.id)
        };
        let resolved = Resolved {
            core: self.id,
            candidates: self.resolve(target)?,
        };
        if target.binding().get().is_none() {
            let _ = target.binding().set(Arc::new(resolved));
            if let Some(r) = target.binding().get().and_then(bound) {
                return Ok(Selected::Bound(r));
            }
            // Another thread bound it first, for another core.
            return Ok(Selected::Fresh(Resolved {
                core: self.id,
                candidates: self.resolve(target)?,
            }));
        }
        Ok(Selected::Fresh(resolved))
    }

    /// The endpoint and object key of every usable profile, in the
    /// order of the reference.
    fn resolve(&self, target: &Target) -> Result<Vec<Candidate>, SystemException> {
        let no_profile = || {
            system(
                SystemExceptionKind::Transient,
                TRANSIENT_NO_USABLE_PROFILE,
                CompletionStatus::No,
            )
        };
        let reference = target.reference().ok_or_else(no_profile)?;
        let usable: Vec<Candidate> = reference
            .profiles
            .iter()
            .filter_map(|profile| {
                let endpoint = self.registry.endpoint_from_profile(profile).ok()?;
                let object_key = profile
                    .object_key()
                    .cloned()
                    .unwrap_or_else(|| target.object_key().clone());
                let pool = self.pool(endpoint.to_string());
                let encoding = Encoding::native().with_version(endpoint.version());
                let codesets = match endpoint.messaging() {
                    FrameProtocol::Giop => {
                        ClientCodeSets::for_profile(profile, &self.config.code_sets)
                    }
                    FrameProtocol::Lite => ClientCodeSets::lite(),
                };
                Some(Candidate {
                    endpoint,
                    object_key,
                    pool,
                    encoding,
                    codesets,
                })
            })
            .collect();
        if usable.is_empty() {
            return Err(no_profile());
        }
        Ok(usable)
    }

    /// The deadline and protocol preference of a call to `target`
    /// starting now: the target's overrides, else the thread's, else the
    /// ORB's.
    #[inline]
    fn effective<'a>(&'a self, target: &Target) -> Effective<'a> {
        if !any_override(target.policy_overrides()) {
            return Effective {
                deadline: self.config.round_trip_timeout.map(|d| Instant::now() + d),
                protocol: self.config.client_protocol.as_ref().map(Cow::Borrowed),
            };
        }
        self.overridden(target)
    }

    /// [`ClientCore::effective`] for a target with policy overrides.
    #[cold]
    #[inline(never)]
    fn overridden<'a>(&'a self, target: &Target) -> Effective<'a> {
        let now = || Instant::now();
        let overrides = target.policy_overrides();
        let timeout = find(overrides, |p| match p {
            Policy::RelativeRoundtripTimeout(d) => Some(*d),
            _ => None,
        })
        .or(self.config.round_trip_timeout);
        let protocol = find(overrides, |p| match p {
            Policy::ClientProtocol(c) => Some(c.clone()),
            _ => None,
        })
        .map(Cow::Owned)
        .or_else(|| self.config.client_protocol.as_ref().map(Cow::Borrowed));
        Effective {
            deadline: timeout.map(|d| now() + d),
            protocol,
        }
    }

    /// Opens a connection to `endpoint`, within the connect timeout and
    /// the call's deadline.
    fn connect(
        &self,
        endpoint: &dyn Endpoint,
        deadline: Option<Instant>,
    ) -> Result<Box<dyn Transport>, SystemException> {
        let mut timeout = self.config.connect_timeout;
        if let Some(d) = deadline {
            timeout = timeout.min(d.saturating_duration_since(Instant::now()));
            if timeout.is_zero() {
                return Err(timed_out());
            }
        }
        self.registry
            .connect(endpoint, Some(timeout))
            .map_err(|_| connect_failed())
    }

    fn checkout(
        &self,
        pool: &EndpointPool,
        endpoint: &dyn Endpoint,
        deadline: Option<Instant>,
    ) -> Result<Box<Connection>, SystemException> {
        if let Some(c) = pool.idle.pop() {
            return Ok(c);
        }
        Ok(Connection::new(self.connect(endpoint, deadline)?))
    }

    fn checkin(&self, pool: &EndpointPool, mut conn: Box<Connection>) {
        // Only the idle reaper reads it: no clock read per call without one.
        if self.config.idle_timeout.is_some() {
            conn.idle_since = Instant::now();
        }
        pool.idle.push(conn);
    }

    /// The shared connection to the candidate's endpoint, opened if there
    /// is none (or the one there broke); `None` if its transport cannot be
    /// shared (the connection opened goes to the idle exclusive ones).
    fn shared(
        &self,
        candidate: &Candidate,
        deadline: Option<Instant>,
    ) -> Result<Option<Arc<MuxConnection>>, SystemException> {
        self.shared_to(&candidate.pool, &*candidate.endpoint, deadline)
    }

    fn shared_to(
        &self,
        pool: &EndpointPool,
        endpoint: &dyn Endpoint,
        deadline: Option<Instant>,
    ) -> Result<Option<Arc<MuxConnection>>, SystemException> {
        if pool.unsharable.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let mut slot = lock(&pool.shared);
        if let Some(c) = slot.as_ref().filter(|c| c.is_usable()) {
            return Ok(Some(Arc::clone(c)));
        }
        let transport = self.connect(endpoint, deadline)?;
        match MuxConnection::new(transport, self.config.fragment_size) {
            Ok(conn) => {
                let conn = Arc::new(conn);
                *slot = Some(Arc::clone(&conn));
                Ok(Some(conn))
            }
            Err(transport) => {
                pool.unsharable.store(true, Ordering::Relaxed);
                self.checkin(pool, Connection::new(transport));
                Ok(None)
            }
        }
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
        self.flush_deferred(&candidate.pool);
        loop {
            let shared = if self.multiplexed() {
                self.shared(candidate, deadline)?
            } else {
                None
            };
            let failure = if let Some(conn) = shared {
                match conn.exchange(
                    candidate.encoding,
                    &candidate.codesets,
                    &candidate.object_key,
                    request,
                    deadline,
                ) {
                    Ok(outcome) => return Ok(outcome),
                    Err(e) => e,
                }
            } else {
                let mut conn = self.checkout(&candidate.pool, &*candidate.endpoint, deadline)?;
                match conn.exchange(
                    candidate.encoding,
                    &candidate.codesets,
                    &candidate.object_key,
                    request,
                    deadline,
                    self.config.fragment_size,
                ) {
                    Ok(outcome) => {
                        conn.reused = true;
                        self.checkin(&candidate.pool, conn);
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
    /// the order of the effective protocol preference.
    fn call(&self, target: &Target, request: Request<'_>) -> Result<Outcome, SystemException> {
        let effective = self.effective(target);
        match self.try_profiles(target, request, &effective) {
            Ok(Outcome::Forward(to)) => self.follow(to, request, &effective),
            answer => answer,
        }
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
        let selected = self.select(target)?;
        let mut unreachable = None;
        for candidate in ordered(selected.candidates(), effective.protocol.as_deref()) {
            match self.exchange(candidate, request, effective.deadline) {
                // Unreachable: try the next profile.
                Err(e) if e.minor == TRANSIENT_CONNECT_FAILED => unreachable = Some(e),
                answer => return answer,
            }
        }
        Err(unreachable.unwrap_or_else(|| {
            // The preference ruled out every profile.
            system(
                SystemExceptionKind::InvPolicy,
                INV_POLICY_CANNOT_RECONCILE,
                CompletionStatus::No,
            )
        }))
    }

    /// [`ClientCore::call`] once the target forwarded it: the request
    /// follows forwards, at most [`MAX_FORWARDS`] of them.
    #[cold]
    #[inline(never)]
    fn follow(
        &self,
        mut to: Box<Target>,
        request: Request<'_>,
        effective: &Effective<'_>,
    ) -> Result<Outcome, SystemException> {
        for _ in 0..MAX_FORWARDS {
            match self.try_profiles(&to, request, effective) {
                Ok(Outcome::Forward(next)) => to = next,
                answer => return answer,
            }
        }
        Err(system(
            SystemExceptionKind::Transient,
            TRANSIENT_TOO_MANY_FORWARDS,
            CompletionStatus::No,
        ))
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
        let selected = self.select(target)?;
        let Some(candidate) = ordered(selected.candidates(), effective.protocol.as_deref()).next()
        else {
            return Err(system(
                SystemExceptionKind::InvPolicy,
                INV_POLICY_CANNOT_RECONCILE,
                CompletionStatus::No,
            ));
        };
        let (pieces, announced) = encode_request(
            candidate.endpoint.messaging(),
            candidate.encoding,
            &candidate.codesets,
            &candidate.object_key,
            self.next_deferred_id.fetch_add(1, Ordering::Relaxed),
            operation,
            rtorb_giop::message::RESPONSE_NONE,
            arguments,
            self.config.fragment_size,
        )?;
        let deferred = Deferred {
            endpoint: candidate.endpoint.clone_box(),
            pieces,
            announced,
        };
        let pool = &candidate.pool;
        let mut q = lock(&pool.deferred);
        q.queue.push_back(deferred);
        pool.deferred_pending.fetch_add(1, Ordering::AcqRel);
        if q.sender {
            pool.deferred_added.notify_one();
            return Ok(());
        }
        q.sender = true;
        drop(q);
        let me = self.me.clone();
        let p = Arc::clone(pool);
        let started = std::thread::Builder::new()
            .name("rtorb-oneway-sender".into())
            .spawn(move || {
                if let Some(core) = me.upgrade() {
                    core.send_queued(&p);
                }
            });
        if started.is_err() {
            // No thread: written here, as the next request would.
            lock(&pool.deferred).sender = false;
            self.flush_deferred(pool);
        }
        Ok(())
    }

    /// The sending thread of `pool`: writes its queued oneways, in order,
    /// and ends once none has come for a while.
    fn send_queued(&self, pool: &EndpointPool) {
        let mut q = lock(&pool.deferred);
        loop {
            if let Some(d) = q.queue.pop_front() {
                // Written under the lock: a request to the endpoint waits
                // until the oneways made before it are out.
                self.deliver(pool, d);
                pool.deferred_pending.fetch_sub(1, Ordering::AcqRel);
                continue;
            }
            let (guard, timeout) = pool.deferred_added.wait_timeout(q, DEFERRED_LINGER);
            q = guard;
            if timeout.timed_out() && q.queue.is_empty() {
                q.sender = false;
                return;
            }
        }
    }

    /// Writes the oneways queued at `pool` before a request to it goes
    /// out: a thread's requests to an endpoint leave in the order it made
    /// them. Costs an atomic load when none is queued.
    #[inline]
    fn flush_deferred(&self, pool: &EndpointPool) {
        if pool.deferred_pending.load(Ordering::Acquire) != 0 {
            self.write_deferred(pool);
        }
    }

    /// [`ClientCore::flush_deferred`] when oneways are queued.
    #[cold]
    #[inline(never)]
    fn write_deferred(&self, pool: &EndpointPool) {
        let mut q = lock(&pool.deferred);
        while let Some(d) = q.queue.pop_front() {
            self.deliver(pool, d);
            pool.deferred_pending.fetch_sub(1, Ordering::AcqRel);
        }
    }

    /// Writes a deferred oneway, once more on a new connection if the
    /// first write fails; failures are not reported (a `SYNC_NONE` caller
    /// asked for no news).
    fn deliver(&self, pool: &EndpointPool, d: Deferred) {
        for _ in 0..2 {
            let shared = if self.multiplexed() {
                match self.shared_to(pool, &*d.endpoint, None) {
                    Ok(s) => s,
                    Err(_) => return,
                }
            } else {
                None
            };
            let written = match shared {
                Some(conn) => conn.write_pieces(&d.pieces, d.announced),
                None => match self.checkout(pool, &*d.endpoint, None) {
                    Ok(mut conn) => {
                        let r = conn.transport.write_all_vectored(&d.pieces);
                        if r.is_ok() {
                            if conn.codesets.is_none() {
                                conn.codesets = d.announced;
                            }
                            self.checkin(pool, conn);
                        }
                        r.is_ok()
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
        let selected = self.select(target)?;
        let mut last = None;
        for candidate in ordered(selected.candidates(), effective.protocol.as_deref()) {
            let opened = if self.multiplexed() {
                match self.shared(candidate, effective.deadline) {
                    Ok(Some(_)) => Ok(1),
                    Ok(None) => self.open_idle(candidate, count, effective.deadline),
                    Err(e) => Err(e),
                }
            } else {
                self.open_idle(candidate, count, effective.deadline)
            };
            match opened {
                Err(e) if e.minor == TRANSIENT_CONNECT_FAILED => last = Some(e),
                other => return other,
            }
        }
        Err(last.unwrap_or_else(|| {
            system(
                SystemExceptionKind::InvPolicy,
                INV_POLICY_CANNOT_RECONCILE,
                CompletionStatus::No,
            )
        }))
    }

    fn open_idle(
        &self,
        candidate: &Candidate,
        count: usize,
        deadline: Option<Instant>,
    ) -> Result<usize, SystemException> {
        let have = candidate.pool.idle.len();
        for _ in have..count {
            let conn = Connection::new(self.connect(&*candidate.endpoint, deadline)?);
            self.checkin(&candidate.pool, conn);
        }
        Ok(candidate.pool.idle.len())
    }
}

/// The candidates in the order of `preference`: those of its first
/// protocol (in the order of the reference), then of the second, ..., then
/// the others if its fallback allows; all of them, in order, without one.
fn ordered<'c>(
    candidates: &'c [Candidate],
    preference: Option<&'c ClientProtocolPolicy>,
) -> impl Iterator<Item = &'c Candidate> + 'c {
    // Without a preference, the reference's order as it is.
    let (plain, ranked) = match preference {
        None => (candidates, None),
        Some(p) => (&candidates[..0], Some(p)),
    };
    let ranks = ranked.map_or(0, |p| p.protocols.len() + 1);
    let ranked = (0..ranks).flat_map(move |rank| {
        candidates.iter().filter(move |c| {
            ranked.and_then(|p| p.rank(c.endpoint.protocol(), c.endpoint.messaging())) == Some(rank)
        })
    });
    plain.iter().chain(ranked)
}

/// The usable profiles of a target.
enum Selected<'t> {
    /// From the target's binding.
    Bound(&'t Resolved),
    /// Worked out for this call only.
    Fresh(Resolved),
}

impl Selected<'_> {
    fn candidates(&self) -> &[Candidate] {
        match self {
            Selected::Bound(r) => &r.candidates,
            Selected::Fresh(r) => &r.candidates,
        }
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
            _ => Err(system(
                SystemExceptionKind::Marshal,
                MARSHAL_UNEXPECTED_REPLY,
                CompletionStatus::Maybe,
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
            Ok(Outcome::Here) => Ok(true),
            Ok(Outcome::System(e)) => Err(e),
            Ok(_) => Err(protocol_error()),
            Err(e) if e.kind() == Some(SystemExceptionKind::InvPolicy) => Ok(false),
            Err(e) => Err(e),
        }
    }
}

/// Starts the thread that closes connections unused for the configured
/// idle timeout, if one is configured. It ends when the core is dropped.
pub(crate) fn spawn_idle_reaper(core: &Arc<ClientCore>) -> std::io::Result<()> {
    let Some(timeout) = core.config.idle_timeout else {
        return Ok(());
    };
    let weak: Weak<ClientCore> = Arc::downgrade(core);
    let period = (timeout / 4).clamp(Duration::from_millis(5), Duration::from_secs(1));
    std::thread::Builder::new()
        .name("rtorb-idle-reaper".into())
        .spawn(move || {
            loop {
                std::thread::sleep(period);
                let Some(core) = weak.upgrade() else {
                    return;
                };
                core.close_unused(timeout);
            }
        })?;
    Ok(())
}

/// The request header of a call, with the `CodeSets` context if given.
fn request_header(
    request_id: u32,
    object_key: &Bytes,
    operation: &Operation,
    response_flags: u8,
    codesets_context: Option<ServiceContext>,
) -> RequestHeader {
    RequestHeader {
        request_id,
        response_flags,
        target: TargetAddress::Key(object_key.clone()),
        operation: operation.clone(),
        // Empty (no allocation) on every request but a connection's first.
        service_context: ServiceContextList(codesets_context.into_iter().collect()),
        requesting_principal: Bytes::new(),
        reserved: [0; 3],
    }
}

/// The encoding of messages on a connection speaking `messaging`.
pub(super) fn wire_encoding(messaging: FrameProtocol, encoding: Encoding) -> Encoding {
    match messaging {
        FrameProtocol::Giop => encoding,
        FrameProtocol::Lite => encoding.with_version(rtorb_cdr::Version::V1_2),
    }
}

/// Why writing a request failed.
pub(super) enum WriteError {
    /// It could not be encoded: nothing was sent.
    Encode(SystemException),
    /// The transport failed.
    Io,
}

/// Encodes `request` with id `request_id` and writes it to `transport`,
/// as fragments of at most `fragment_size` when it is larger and the
/// version allows.
///
/// `sent` holds the code sets already announced on the connection: if
/// none were, a request carries the `CodeSets` context of `codesets`, and
/// `sent` records them once it is written. Returns the code sets the
/// request was written in (those to read its reply with).
#[allow(clippy::too_many_arguments)]
pub(super) fn write_request(
    transport: &mut dyn Transport,
    writer: &mut MessageWriter,
    templates: &mut Templates,
    probe: &mut Probe,
    messaging: FrameProtocol,
    encoding: Encoding,
    codesets: &ClientCodeSets,
    sent: &mut Option<TransmissionCodeSets>,
    object_key: &Bytes,
    request_id: u32,
    request: Request<'_>,
    fragment_size: Option<usize>,
) -> Result<TransmissionCodeSets, WriteError> {
    let encoding = wire_encoding(messaging, encoding);
    let (operation, response_flags, arguments) = match request {
        Request::Call {
            operation,
            response_flags,
            arguments,
        } => (operation, response_flags, arguments),
        Request::Locate => {
            let msg = Message::new(
                encoding.version,
                encoding.order,
                Content::LocateRequest(LocateRequest {
                    request_id,
                    target: TargetAddress::Key(object_key.clone()),
                }),
            );
            let encoded = match messaging {
                FrameProtocol::Giop => encode_message(&msg),
                FrameProtocol::Lite => encode_lite(&msg),
            }
            .map_err(|e| WriteError::Encode(e.to_system_exception()))?;
            // A LocateRequest has no service contexts: the code sets are
            // announced by the first Request.
            return transport
                .write_all_vectored(std::slice::from_ref(&encoded))
                .map(|()| sent.unwrap_or(codesets.transmission()))
                .map_err(|_| WriteError::Io);
        }
    };
    let (tcs, context) = codesets::for_request(*sent, codesets);
    let announces = context.is_some();
    let encoding = encoding.with_codesets(tcs);
    let encode_failed = |e: GiopError| WriteError::Encode(e.to_system_exception());
    // The headers of a request made before, copied; else encoded (and
    // kept for the next such request). A request announcing code sets is
    // the connection's first: not worth keeping.
    let cached = (!announces)
        .then(|| templates.find(messaging, encoding, object_key, operation, response_flags))
        .flatten();
    match cached {
        Some(template) => template.restart(writer, request_id),
        None => {
            let header = request_header(request_id, object_key, operation, response_flags, context);
            let buf = writer.take_buffer();
            *writer = match messaging {
                FrameProtocol::Giop => MessageWriter::request_with_buffer(buf, encoding, &header),
                FrameProtocol::Lite => {
                    rtorb_giop::lite::lite_request_with_buffer(buf, encoding, &header)
                }
            }
            .map_err(encode_failed)?;
            if !announces {
                templates.keep(messaging, object_key, operation, response_flags, writer);
            }
        }
    }
    arguments(writer.body()).map_err(|e| WriteError::Encode(codesets.request_error(e)))?;
    let fragment = fragment_size.filter(|max| {
        writer.len() > *max && messaging == FrameProtocol::Giop && encoding.version >= ORB_FRAGMENTS
    });
    let written = if let Some(max) = fragment {
        let chunks = writer.take_chunks().map_err(encode_failed)?;
        let pieces = fragment_chunks(&chunks, max).map_err(encode_failed)?;
        probe.lap(Stage::ClientMarshal);
        transport.write_all_vectored(&pieces)
    } else if let Some(message) = writer.seal().map_err(encode_failed)? {
        // One buffer, written from where it was encoded.
        probe.lap(Stage::ClientMarshal);
        transport.send_all(message)
    } else {
        let chunks = writer.take_chunks().map_err(encode_failed)?;
        probe.lap(Stage::ClientMarshal);
        transport.write_all_vectored(&chunks)
    };
    probe.lap(Stage::ClientWrite);
    if writer.capacity() > MAX_KEPT_REQUEST_CAPACITY {
        // Grown by a large request: not kept for the connection's life.
        drop(writer.take_buffer());
    }
    written.map_err(|_| WriteError::Io)?;
    if announces {
        *sent = Some(tcs);
    }
    Ok(tcs)
}

/// The headers of the requests last made on a connection, by object key,
/// operation, response flags, protocol and encoding: a call repeating one
/// copies them rather than encoding each field.
#[derive(Debug, Default)]
pub(super) struct Templates {
    slots: [Option<KeptRequest>; TEMPLATES],
    /// The slot the next new request replaces.
    next: usize,
}

/// Whether two byte strings are equal, looking at their addresses first
/// (a stub's operation names and a reference's object key are the same
/// buffers call after call).
fn same(a: &[u8], b: &[u8]) -> bool {
    (a.as_ptr() == b.as_ptr() && a.len() == b.len()) || a == b
}

/// Requests whose headers a connection keeps.
const TEMPLATES: usize = 4;

#[derive(Debug)]
struct KeptRequest {
    messaging: FrameProtocol,
    object_key: Bytes,
    operation: Operation,
    response_flags: u8,
    template: RequestTemplate,
}

impl Templates {
    fn find(
        &self,
        messaging: FrameProtocol,
        encoding: Encoding,
        object_key: &Bytes,
        operation: &Operation,
        response_flags: u8,
    ) -> Option<&RequestTemplate> {
        self.slots
            .iter()
            .flatten()
            .find(|k| {
                k.response_flags == response_flags
                    && k.messaging == messaging
                    && same(k.operation.as_bytes(), operation.as_bytes())
                    && same(&k.object_key, object_key)
                    && k.template.encoding() == encoding
            })
            .map(|k| &k.template)
    }

    /// Keeps the headers `writer` has written, in place of the oldest
    /// kept (reusing its buffer).
    fn keep(
        &mut self,
        messaging: FrameProtocol,
        object_key: &Bytes,
        operation: &Operation,
        response_flags: u8,
        writer: &MessageWriter,
    ) {
        let Some(slot) = self.slots.get_mut(self.next) else {
            return;
        };
        let template = match slot.take() {
            Some(mut k) => k.template.recapture(writer).then_some(k.template),
            None => RequestTemplate::capture(writer),
        };
        if let Some(template) = template {
            *slot = Some(KeptRequest {
                messaging,
                object_key: object_key.clone(),
                operation: operation.clone(),
                response_flags,
                template,
            });
            self.next = (self.next + 1) % TEMPLATES;
        }
    }
}

/// A request encoded into buffers of its own, as fragments of at most
/// `fragment_size` when it is larger and the version allows, with the code
/// sets announced in its `CodeSets` context (it carries one whenever
/// `codesets` has one: whichever connection it goes out on, it may be the
/// first request there).
#[allow(clippy::too_many_arguments)]
fn encode_request(
    messaging: FrameProtocol,
    encoding: Encoding,
    codesets: &ClientCodeSets,
    object_key: &Bytes,
    request_id: u32,
    operation: &Operation,
    response_flags: u8,
    arguments: Arguments<'_>,
    fragment_size: Option<usize>,
) -> Result<(Vec<Bytes>, Option<TransmissionCodeSets>), SystemException> {
    let (tcs, context) = codesets::for_request(None, codesets);
    let announced = context.is_some().then_some(tcs);
    let encoding = wire_encoding(messaging, encoding).with_codesets(tcs);
    let header = request_header(request_id, object_key, operation, response_flags, context);
    let buf = bytes::BytesMut::with_capacity(BUFFER_CAPACITY);
    let encode_failed = |e: GiopError| e.to_system_exception();
    let mut w = match messaging {
        FrameProtocol::Giop => MessageWriter::request_with_buffer(buf, encoding, &header),
        FrameProtocol::Lite => rtorb_giop::lite::lite_request_with_buffer(buf, encoding, &header),
    }
    .map_err(encode_failed)?;
    arguments(w.body()).map_err(|e| codesets.request_error(e))?;
    let chunks = w.finish_chunks().map_err(encode_failed)?;
    let pieces = match fragment_size {
        Some(max) if messaging == FrameProtocol::Giop && encoding.version >= ORB_FRAGMENTS => {
            fragment_chunks(&chunks, max).map_err(encode_failed)?
        }
        _ => chunks,
    };
    Ok((pieces, announced))
}

/// A whole message from the server, with the buffer it was read from: a
/// reply read in place ([`reply_view_framed`], the common case), or any message
/// decoded in full.
#[derive(Debug)]
#[allow(clippy::large_enum_variant)]
pub(super) enum Received {
    /// A `NO_EXCEPTION` or `USER_EXCEPTION` reply without service contexts.
    Reply(ReplyView, Bytes),
    /// Anything else.
    Message(Message, Bytes),
}

impl Received {
    /// The request id a reply or locate reply answers.
    pub(super) fn answers(&self) -> Option<u32> {
        match self {
            Received::Reply(v, _) => Some(v.request_id),
            Received::Message(msg, _) => match &msg.content {
                Content::Reply(r) => Some(r.header.request_id),
                Content::LocateReply(l) => Some(l.request_id),
                _ => None,
            },
        }
    }

    /// Whether it is a `CloseConnection`.
    pub(super) fn is_close(&self) -> bool {
        matches!(self, Received::Message(msg, _) if matches!(msg.content, Content::CloseConnection))
    }
}

impl Connection {
    fn new(transport: Box<dyn Transport>) -> Box<Connection> {
        let messaging = transport.messaging();
        Box::new(Connection {
            transport,
            inbound: Inbound::new(messaging),
            next_request_id: 0,
            writer: MessageWriter::empty_with_buffer(
                bytes::BytesMut::with_capacity(BUFFER_CAPACITY),
                Encoding::native(),
            ),
            templates: Templates::default(),
            reused: false,
            idle_since: Instant::now(),
            codesets: None,
        })
    }

    fn exchange(
        &mut self,
        encoding: Encoding,
        codesets: &ClientCodeSets,
        object_key: &Bytes,
        request: Request<'_>,
        deadline: Option<Instant>,
        fragment_size: Option<usize>,
    ) -> Result<Outcome, SystemException> {
        self.inbound.probe.restart();
        let request_id = self.next_request_id;
        self.next_request_id = self.next_request_id.wrapping_add(1);
        let written = write_request(
            &mut *self.transport,
            &mut self.writer,
            &mut self.templates,
            &mut self.inbound.probe,
            self.inbound.messaging,
            encoding,
            codesets,
            &mut self.codesets,
            object_key,
            request_id,
            request,
            fragment_size,
        );
        let tcs = match written {
            Ok(tcs) => tcs,
            Err(WriteError::Encode(e)) => return Err(e),
            Err(WriteError::Io) if self.reused => return Err(not_started()),
            Err(WriteError::Io) => return Err(lost(CompletionStatus::Maybe)),
        };
        if !request.expects_reply() {
            return Ok(Outcome::Sent);
        }
        loop {
            let received = self.inbound.read_message(&mut *self.transport, deadline)?;
            match received.answers() {
                Some(id) if id == request_id => {
                    let answer = read_answer(received, tcs);
                    self.inbound.probe.lap(Stage::ClientDemarshal);
                    return answer;
                }
                // A reply to a request abandoned earlier: not ours.
                Some(_) => {}
                None if received.is_close() => return Err(not_started()),
                None => return Err(protocol_error()),
            }
        }
    }
}

impl Inbound {
    pub(super) fn new(messaging: FrameProtocol) -> Inbound {
        Inbound {
            reader: FrameReader::new(messaging),
            reassembler: Reassembler::new(ReassemblyLimits::default()),
            messaging,
            read_timeout: None,
            probe: Probe::start(),
        }
    }

    /// Makes a read wait no later than `deadline`.
    ///
    /// The socket's timeout is changed only when it must be: one that
    /// ends no later than the deadline, and not much earlier, is kept (a
    /// read that times out before the deadline is retried with what is
    /// left). A new timeout is set a little short of the deadline, so that
    /// the next calls, with the same round-trip timeout, can keep it.
    fn set_read_timeout(
        &mut self,
        transport: &mut dyn Transport,
        deadline: Option<Instant>,
    ) -> Result<(), SystemException> {
        let timeout = match deadline {
            None => None,
            Some(d) => {
                let left = d.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Err(timed_out());
                }
                match read_timeout_for(self.read_timeout, left) {
                    None => return Ok(()),
                    new => new,
                }
            }
        };
        if timeout != self.read_timeout {
            transport
                .set_read_timeout(timeout)
                .map_err(|_| lost(CompletionStatus::Maybe))?;
            self.read_timeout = timeout;
        }
        Ok(())
    }

    /// The next whole (reassembled) message from the server. A deadline
    /// that passes gives `TIMEOUT` ([`TIMEOUT_ROUND_TRIP`]) and leaves the
    /// connection usable.
    pub(super) fn read_message(
        &mut self,
        transport: &mut dyn Transport,
        deadline: Option<Instant>,
    ) -> Result<Received, SystemException> {
        loop {
            self.set_read_timeout(transport, deadline)?;
            let frame = match self.reader.read_frame(transport) {
                Ok(Some(f)) => {
                    self.probe.lap(Stage::ClientWait);
                    f
                }
                Ok(None) => return Err(lost(CompletionStatus::Maybe)),
                Err(e) if e.is_timeout() || e.is_would_block() => {
                    if deadline.is_some_and(|d| Instant::now() < d) {
                        // The socket's timeout ended short of the deadline.
                        continue;
                    }
                    return Err(timed_out());
                }
                Err(TransportError::Giop(_)) => return Err(protocol_error()),
                Err(_) => return Err(lost(CompletionStatus::Maybe)),
            };
            let view = self
                .reader
                .last_header()
                .and_then(|h| reply_view_framed(&frame, h));
            if let Some(view) = view {
                self.probe.lap(Stage::ClientDemarshal);
                return Ok(Received::Reply(view, frame));
            }
            if let Some(received) = self.decode(frame) {
                self.probe.lap(Stage::ClientDemarshal);
                return received;
            }
        }
    }

    /// A message [`reply_view_framed`] does not cover, decoded in full; `None`
    /// for a fragment of a message not yet complete.
    #[cold]
    #[inline(never)]
    fn decode(&mut self, frame: Bytes) -> Option<Result<Received, SystemException>> {
        let decoded = match self.messaging {
            // `push_message` records where a GIOP 1.1 message
            // reassembled from fragments changes its alignment.
            FrameProtocol::Giop => match self.reassembler.push_message(frame) {
                Ok(None) => return None,
                Ok(Some(pair)) => Ok(pair),
                Err(e) => Err(e),
            },
            FrameProtocol::Lite => decode_lite(frame.clone()).map(|m| (m, frame)),
        };
        Some(match decoded {
            Ok((m, _)) if m.more_fragments => Err(protocol_error()),
            Ok((m, b)) => Ok(Received::Message(m, b)),
            Err(e) => Err(maybe(&e)),
        })
    }
}

/// The read timeout to set when `left` remains before a deadline and
/// `current` is set, or `None` to keep `current`: see
/// [`Inbound::set_read_timeout`]. A timeout it gives or keeps never
/// ends after the deadline.
fn read_timeout_for(current: Option<Duration>, left: Duration) -> Option<Duration> {
    if let Some(set) = current
        && set <= left
        && left - set <= left / READ_TIMEOUT_SLACK
    {
        return None;
    }
    if left >= MIN_SHORTENED_READ_TIMEOUT {
        Some(left - left / (2 * READ_TIMEOUT_SLACK))
    } else {
        Some(left)
    }
}

/// Reads the answer to our request: a reply (its body in `codesets`, those
/// the request was written in) or a locate reply.
pub(super) fn read_answer(
    received: Received,
    codesets: TransmissionCodeSets,
) -> Result<Outcome, SystemException> {
    match received {
        Received::Reply(view, message) => {
            let encoding = Encoding::native()
                .with_order(view.order)
                .with_version(view.version)
                .with_codesets(codesets);
            Ok(Outcome::Reply(ReplyFrame {
                message,
                body_offset: view.body_offset,
                encoding,
                user_exception: view.reply_status == ReplyStatus::UserException,
            }))
        }
        Received::Message(msg, message) => read_decoded_answer(&msg, &message, codesets),
    }
}

/// [`read_answer`] for a message decoded in full.
#[cold]
#[inline(never)]
fn read_decoded_answer(
    msg: &Message,
    message: &Bytes,
    codesets: TransmissionCodeSets,
) -> Result<Outcome, SystemException> {
    match &msg.content {
        Content::Reply(r) => read_reply(msg, message, r, codesets),
        Content::LocateReply(l) => match &l.status {
            LocateStatus::ObjectHere => Ok(Outcome::Here),
            LocateStatus::UnknownObject => Ok(Outcome::System(object_not_exist())),
            LocateStatus::ObjectForward(ior) | LocateStatus::ObjectForwardPerm(ior) => {
                let reference =
                    ObjectReference::from_ior(ior).map_err(|e| maybe(&GiopError::Cdr(e)))?;
                Ok(Outcome::Forward(Box::new(Target::from_reference(
                    reference,
                )?)))
            }
            LocateStatus::LocSystemException(e) => Ok(Outcome::System(e.clone())),
            LocateStatus::LocNeedsAddressingMode(_) => Err(protocol_error()),
        },
        _ => Err(protocol_error()),
    }
}

/// Reads a reply to our request.
fn read_reply(
    msg: &Message,
    message: &Bytes,
    reply: &rtorb_giop::Reply,
    codesets: TransmissionCodeSets,
) -> Result<Outcome, SystemException> {
    let body = || {
        msg.body_decoder(message, codesets)
            .ok_or_else(protocol_error)
    };
    match reply.header.reply_status {
        ReplyStatus::NoException => Ok(Outcome::Decoded(Box::new(Reply::results(body()?)))),
        ReplyStatus::UserException => {
            Ok(Outcome::Decoded(Box::new(Reply::user_exception(body()?))))
        }
        ReplyStatus::SystemException => Ok(Outcome::System(
            reply.system_exception(msg.order).map_err(|e| maybe(&e))?,
        )),
        ReplyStatus::LocationForward | ReplyStatus::LocationForwardPerm => {
            let ior = reply.forward_ior(msg.order).map_err(|e| maybe(&e))?;
            let reference =
                ObjectReference::from_ior(&ior).map_err(|e| maybe(&GiopError::Cdr(e)))?;
            Ok(Outcome::Forward(Box::new(Target::from_reference(
                reference,
            )?)))
        }
        ReplyStatus::NeedsAddressingMode => Err(protocol_error()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_idle_connection_slot_takes_no_lock() {
        // A cell that is not lock-free would fall back to a hidden global
        // lock on every call.
        assert!(AtomicCell::<Option<Box<Connection>>>::is_lock_free());
    }

    #[test]
    fn a_read_timeout_is_kept_across_calls_with_the_same_round_trip_timeout() {
        let timeout = Duration::from_secs(10);
        // The first call sets one a little short of its deadline.
        let set = read_timeout_for(None, timeout).expect("a timeout");
        assert!(set < timeout && set >= timeout - timeout / 8, "{set:?}");
        // Later calls start a little later on their own deadline: kept.
        for spent in [0, 1, 50, 1000, 100_000] {
            let left = timeout - Duration::from_micros(spent);
            assert_eq!(read_timeout_for(Some(set), left), None, "{left:?}");
        }
        // A retry with much less time left sets a shorter one.
        let left = Duration::from_secs(1);
        let shorter = read_timeout_for(Some(set), left).expect("a timeout");
        assert!(shorter <= left && shorter > left / 2, "{shorter:?}");
        // A longer round-trip timeout, where one is set: set anew.
        assert!(read_timeout_for(Some(set), Duration::from_secs(60)).is_some());
    }

    #[test]
    fn a_read_timeout_never_ends_after_the_deadline() {
        let times = [
            Duration::from_nanos(1),
            Duration::from_micros(300),
            Duration::from_millis(15),
            Duration::from_millis(16),
            Duration::from_millis(250),
            Duration::from_secs(3),
        ];
        for current in std::iter::once(None).chain(times.iter().copied().map(Some)) {
            for left in times {
                let kept_or_set = read_timeout_for(current, left).or(current);
                let t = kept_or_set.expect("a timeout");
                assert!(!t.is_zero() && t <= left, "{current:?}, {left:?}: {t:?}");
            }
        }
        // Short ones are exact.
        let left = Duration::from_millis(5);
        assert_eq!(read_timeout_for(None, left), Some(left));
    }
}
