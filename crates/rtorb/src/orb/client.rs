//! The client side of the ORB: an [`Invoker`] over real connections.
//!
//! A call picks the first profile of the target's reference that a
//! registered protocol can reach (the next one if it cannot connect),
//! takes an idle connection to that
//! endpoint from the cache or opens one, and uses it exclusively: one
//! request in flight per connection, so a second concurrent call to the
//! same endpoint opens (or reuses) another connection. The request is
//! written in the GIOP version of the profile (GIOPlite when the profile
//! carries the GIOPlite component) with the connection's next request id;
//! the reply is read with a [`FrameReader`], fragments reassembled, and the
//! connection goes back to the cache. Text is written in the code sets
//! negotiated with the profile's `TAG_CODE_SETS` component, announced in a
//! `CodeSets` service context on the first request of each connection
//! (see [`super::codesets`]).
//!
//! Failures: a connection that cannot be opened gives `TRANSIENT`; one
//! that breaks while a reply is awaited gives `COMM_FAILURE`
//! (`COMPLETED_MAYBE`) and is dropped, so the next call connects anew. A
//! `CloseConnection` from the server, or a failure to write on a cached
//! connection, means the request was not started: it is sent once more on
//! a new connection, and a second failure is `TRANSIENT`. A call that
//! exceeds the round-trip timeout gives `TIMEOUT` and drops its
//! connection (the reply may still come).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use rtorb_cdr::{Encoding, OMG_VMCID, RTORB_VMCID, TransmissionCodeSets};
use rtorb_giop::message::{Content, Message, MessageWriter, ReplyStatus, RequestHeader};
use rtorb_giop::service_context::ServiceContextList;
use rtorb_giop::target::TargetAddress;
use rtorb_giop::{
    CompletionStatus, FrameProtocol, GiopError, ObjectReference, Operation, Reassembler,
    ReassemblyLimits, SystemException, SystemExceptionKind, decode_lite,
};

use super::codesets::{self, ClientCodeSets};
use crate::runtime::loopback::MAX_FORWARDS;
use crate::runtime::{
    Arguments, BufferPool, Invoker, MARSHAL_UNEXPECTED_REPLY, Reply, SyncScope,
    TRANSIENT_TOO_MANY_FORWARDS, Target,
};
use crate::transport::{Endpoint, FrameReader, ProtocolRegistry, Transport, TransportError};

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

/// Capacity of the pooled request buffers.
const BUFFER_CAPACITY: usize = 512;

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
    /// The idle connections to the endpoint.
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
#[derive(Debug, Clone, Copy)]
pub(crate) struct ClientConfig {
    pub(crate) round_trip_timeout: Option<Duration>,
    pub(crate) connect_timeout: Duration,
}

/// The ORB's invoker: connection cache and request/reply exchange.
#[derive(Debug)]
pub(crate) struct ClientCore {
    /// Tells this core's target bindings from other cores'.
    id: u64,
    registry: ProtocolRegistry,
    config: ClientConfig,
    /// The idle connections to each endpoint, by endpoint string.
    idle: Mutex<HashMap<String, Pool>>,
}

/// The idle connections to one endpoint.
type Pool = Arc<Mutex<Vec<Connection>>>;

/// Locks `m`, whether or not a thread panicked holding it (the data are
/// connections and maps of them, consistent at every step).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    match m.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    }
}

/// One client connection, used by one call at a time.
#[derive(Debug)]
struct Connection {
    transport: Box<dyn Transport>,
    reader: FrameReader,
    reassembler: Reassembler,
    messaging: FrameProtocol,
    next_request_id: u32,
    buffers: BufferPool,
    /// Whether a call has already completed on it (a failure to send on a
    /// reused connection means the server closed it while idle).
    reused: bool,
    /// The read timeout currently set on the transport.
    read_timeout: Option<Duration>,
    /// The code sets sent in a `CodeSets` context on this connection.
    codesets: Option<TransmissionCodeSets>,
}

/// Why an exchange on a connection failed.
enum Failure {
    /// The server did not start the request (it closed the connection
    /// first): sending it again is safe.
    NotStarted,
    /// The call failed for good.
    Failed(SystemException),
}

/// What an exchange brought back.
enum Outcome {
    /// No reply is expected.
    Sent,
    /// The reply to hand to the stub.
    Reply(Reply),
    /// A system exception reply.
    System(SystemException),
    /// Send the request again to this target.
    Forward(Target),
}

fn system(kind: SystemExceptionKind, minor: u32, completed: CompletionStatus) -> SystemException {
    SystemException::new(kind, minor, completed)
}

fn lost(completed: CompletionStatus) -> SystemException {
    system(
        SystemExceptionKind::CommFailure,
        COMM_FAILURE_CONNECTION_LOST,
        completed,
    )
}

fn protocol_error() -> SystemException {
    system(
        SystemExceptionKind::CommFailure,
        COMM_FAILURE_PROTOCOL_ERROR,
        CompletionStatus::Maybe,
    )
}

fn timed_out() -> SystemException {
    system(
        SystemExceptionKind::Timeout,
        TIMEOUT_ROUND_TRIP,
        CompletionStatus::Maybe,
    )
}

fn maybe(e: &GiopError) -> SystemException {
    let mut ex = e.to_system_exception();
    ex.completed = CompletionStatus::Maybe;
    ex
}

impl ClientCore {
    pub(crate) fn new(registry: ProtocolRegistry, config: ClientConfig) -> ClientCore {
        ClientCore {
            id: NEXT_CORE_ID.fetch_add(1, Ordering::Relaxed),
            registry,
            config,
            idle: Mutex::new(HashMap::new()),
        }
    }

    /// Closes every idle connection.
    pub(crate) fn close_idle(&self) {
        let pools: Vec<Pool> = lock(&self.idle).values().cloned().collect();
        for pool in pools {
            let drained = std::mem::take(&mut *lock(&pool));
            drop(drained);
        }
    }

    /// The number of idle cached connections.
    pub(crate) fn idle_connections(&self) -> usize {
        let pools: Vec<Pool> = lock(&self.idle).values().cloned().collect();
        pools.iter().map(|p| lock(p).len()).sum()
    }

    /// The pool of idle connections to the endpoint `key` names.
    fn pool(&self, key: String) -> Pool {
        Arc::clone(lock(&self.idle).entry(key).or_default())
    }

    /// The usable profiles of `target`: from its binding when this core
    /// has bound it, else worked out (and bound, if nobody has).
    fn select<'t>(&self, target: &'t Target) -> Result<Selected<'t>, SystemException> {
        let bound = |b: &'t crate::runtime::Binding| {
            b.downcast_ref::<Resolved>().filter(|r| r.core == self.id)
        };
        if let Some(r) = target.binding().get().and_then(bound) {
            return Ok(Selected::Bound(r));
        }
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
                    FrameProtocol::Giop => ClientCodeSets::for_profile(profile),
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

    fn checkout(
        &self,
        pool: &Pool,
        endpoint: &dyn Endpoint,
        deadline: Option<Instant>,
    ) -> Result<Connection, SystemException> {
        let cached = lock(pool).pop();
        if let Some(c) = cached {
            return Ok(c);
        }
        let mut timeout = self.config.connect_timeout;
        if let Some(d) = deadline {
            timeout = timeout.min(d.saturating_duration_since(Instant::now()));
            if timeout.is_zero() {
                return Err(timed_out());
            }
        }
        let transport = self
            .registry
            .connect(endpoint, Some(timeout))
            .map_err(|_| {
                system(
                    SystemExceptionKind::Transient,
                    TRANSIENT_CONNECT_FAILED,
                    CompletionStatus::No,
                )
            })?;
        Ok(Connection::new(transport))
    }

    fn checkin(&self, pool: &Pool, conn: Connection) {
        lock(pool).push(conn);
    }

    /// One request to one endpoint, resent once on a new connection if the
    /// server did not start it.
    fn exchange(
        &self,
        candidate: &Candidate,
        operation: &Operation,
        response_flags: u8,
        arguments: Arguments<'_>,
        deadline: Option<Instant>,
    ) -> Result<Outcome, SystemException> {
        let mut resent = false;
        loop {
            let mut conn = self.checkout(&candidate.pool, &*candidate.endpoint, deadline)?;
            match conn.round_trip(
                candidate.encoding,
                &candidate.codesets,
                &candidate.object_key,
                operation,
                response_flags,
                arguments,
                deadline,
            ) {
                Ok(outcome) => {
                    conn.reused = true;
                    self.checkin(&candidate.pool, conn);
                    return Ok(outcome);
                }
                Err(Failure::NotStarted) if !resent => resent = true,
                Err(Failure::NotStarted) => {
                    return Err(system(
                        SystemExceptionKind::Transient,
                        TRANSIENT_CONNECTION_CLOSED,
                        CompletionStatus::No,
                    ));
                }
                Err(Failure::Failed(e)) => return Err(e),
            }
        }
    }

    /// A call, following forwards.
    fn call(
        &self,
        target: &Target,
        operation: &Operation,
        response_flags: u8,
        arguments: Arguments<'_>,
    ) -> Result<Option<Reply>, SystemException> {
        let deadline = self.config.round_trip_timeout.map(|d| Instant::now() + d);
        let mut forwarded: Option<Target> = None;
        for _ in 0..=MAX_FORWARDS {
            let selected = self.select(forwarded.as_ref().unwrap_or(target))?;
            let mut outcome = None;
            for candidate in selected.candidates() {
                let result =
                    self.exchange(candidate, operation, response_flags, arguments, deadline);
                match result {
                    // Unreachable: try the next profile.
                    Err(e) if e.minor == TRANSIENT_CONNECT_FAILED => outcome = Some(Err(e)),
                    other => {
                        outcome = Some(other);
                        break;
                    }
                }
            }
            let Some(outcome) = outcome else {
                return Err(system(
                    SystemExceptionKind::Transient,
                    TRANSIENT_NO_USABLE_PROFILE,
                    CompletionStatus::No,
                ));
            };
            match outcome? {
                Outcome::Sent => return Ok(None),
                Outcome::Reply(r) => return Ok(Some(r)),
                Outcome::System(e) => return Err(e),
                Outcome::Forward(t) => forwarded = Some(t),
            }
        }
        Err(system(
            SystemExceptionKind::Transient,
            TRANSIENT_TOO_MANY_FORWARDS,
            CompletionStatus::No,
        ))
    }
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
        self.call(
            target,
            &operation,
            rtorb_giop::message::RESPONSE_WITH_TARGET,
            arguments,
        )?
        .ok_or_else(|| {
            system(
                SystemExceptionKind::Marshal,
                MARSHAL_UNEXPECTED_REPLY,
                CompletionStatus::Maybe,
            )
        })
    }

    fn invoke_oneway(
        &self,
        target: &Target,
        operation: Operation,
        sync: SyncScope,
        arguments: Arguments<'_>,
    ) -> Result<(), SystemException> {
        self.call(target, &operation, sync.response_flags(), arguments)
            .map(|_| ())
    }
}

impl Connection {
    fn new(transport: Box<dyn Transport>) -> Connection {
        let messaging = transport.messaging();
        Connection {
            transport,
            reader: FrameReader::new(messaging),
            reassembler: Reassembler::new(ReassemblyLimits::default()),
            messaging,
            next_request_id: 0,
            buffers: BufferPool::new(BUFFER_CAPACITY),
            reused: false,
            read_timeout: None,
            codesets: None,
        }
    }

    fn write_request(
        &mut self,
        encoding: Encoding,
        codesets: &ClientCodeSets,
        header: &RequestHeader,
        arguments: Arguments<'_>,
    ) -> Result<(), Failure> {
        let buf = self.buffers.take();
        let writer = match self.messaging {
            FrameProtocol::Giop => MessageWriter::request_with_buffer(buf, encoding, header),
            FrameProtocol::Lite => {
                rtorb_giop::lite::lite_request_with_buffer(buf, encoding, header)
            }
        };
        let mut w = writer.map_err(|e| Failure::Failed(e.to_system_exception()))?;
        arguments(w.body()).map_err(|e| Failure::Failed(codesets.request_error(e)))?;
        let finish_failed = |e: GiopError| Failure::Failed(e.to_system_exception());
        let written = if w.body().as_contiguous().is_some() {
            // One buffer: no chain to build.
            let message = w.finish().map_err(finish_failed)?;
            self.transport
                .write_all_vectored(std::slice::from_ref(&message))
        } else {
            let chunks = w.finish_chunks().map_err(finish_failed)?;
            self.transport.write_all_vectored(&chunks)
        };
        match written {
            Ok(()) => Ok(()),
            Err(_) if self.reused => Err(Failure::NotStarted),
            Err(_) => Err(Failure::Failed(lost(CompletionStatus::Maybe))),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn round_trip(
        &mut self,
        encoding: Encoding,
        codesets: &ClientCodeSets,
        object_key: &Bytes,
        operation: &Operation,
        response_flags: u8,
        arguments: Arguments<'_>,
        deadline: Option<Instant>,
    ) -> Result<Outcome, Failure> {
        let request_id = self.next_request_id;
        self.next_request_id = self.next_request_id.wrapping_add(1);
        let (tcs, context) = codesets::for_request(self.codesets, codesets);
        let header = RequestHeader {
            request_id,
            response_flags,
            target: TargetAddress::Key(object_key.clone()),
            operation: operation.clone(),
            service_context: ServiceContextList(context.into_iter().collect()),
            requesting_principal: Bytes::new(),
            reserved: [0; 3],
        };
        let encoding = match self.messaging {
            FrameProtocol::Giop => encoding,
            FrameProtocol::Lite => encoding.with_version(rtorb_cdr::Version::V1_2),
        };
        let encoding = encoding.with_codesets(tcs);
        self.write_request(encoding, codesets, &header, arguments)?;
        if !header.service_context.is_empty() {
            self.codesets = Some(tcs);
        }
        if response_flags & 0x01 == 0 {
            return Ok(Outcome::Sent);
        }
        loop {
            let (msg, message) = self.read_message(deadline)?;
            match &msg.content {
                Content::Reply(r) if r.header.request_id == request_id => {
                    return read_reply(&msg, &message, r, tcs).map_err(Failure::Failed);
                }
                // A reply to a request abandoned earlier: not ours.
                Content::Reply(_) | Content::LocateReply(_) => {}
                Content::CloseConnection => return Err(Failure::NotStarted),
                _ => return Err(Failure::Failed(protocol_error())),
            }
        }
    }

    /// Makes a read wait no later than `deadline`.
    ///
    /// The socket's timeout is changed only when it must be: one that
    /// ends no later than the deadline, and not much earlier, is kept (a
    /// read that times out before the deadline is retried with what is
    /// left). A new timeout is set a little short of the deadline, so that
    /// the next calls, with the same round-trip timeout, can keep it.
    fn set_read_timeout(&mut self, deadline: Option<Instant>) -> Result<(), Failure> {
        let timeout = match deadline {
            None => None,
            Some(d) => {
                let left = d.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Err(Failure::Failed(timed_out()));
                }
                match read_timeout_for(self.read_timeout, left) {
                    None => return Ok(()),
                    new => new,
                }
            }
        };
        if timeout != self.read_timeout {
            self.transport
                .set_read_timeout(timeout)
                .map_err(|_| Failure::Failed(lost(CompletionStatus::Maybe)))?;
            self.read_timeout = timeout;
        }
        Ok(())
    }

    /// The next whole (reassembled) message from the server.
    fn read_message(&mut self, deadline: Option<Instant>) -> Result<(Message, Bytes), Failure> {
        loop {
            self.set_read_timeout(deadline)?;
            let frame = match self.reader.read_frame(&mut *self.transport) {
                Ok(Some(f)) => f,
                Ok(None) => return Err(Failure::Failed(lost(CompletionStatus::Maybe))),
                Err(e) if e.is_timeout() || e.is_would_block() => {
                    if deadline.is_some_and(|d| Instant::now() < d) {
                        // The socket's timeout ended short of the deadline.
                        continue;
                    }
                    return Err(Failure::Failed(timed_out()));
                }
                Err(TransportError::Giop(_)) => return Err(Failure::Failed(protocol_error())),
                Err(_) => return Err(Failure::Failed(lost(CompletionStatus::Maybe))),
            };
            let decoded = match self.messaging {
                FrameProtocol::Giop => match self.reassembler.push_message(frame) {
                    Ok(None) => continue,
                    Ok(Some(pair)) => Ok(pair),
                    Err(e) => Err(e),
                },
                FrameProtocol::Lite => decode_lite(frame.clone()).map(|m| (m, frame)),
            };
            return match decoded {
                Ok((m, _)) if m.more_fragments => Err(Failure::Failed(protocol_error())),
                Ok(pair) => Ok(pair),
                Err(e) => Err(Failure::Failed(maybe(&e))),
            };
        }
    }
}

/// The read timeout to set when `left` remains before a deadline and
/// `current` is set, or `None` to keep `current`: see
/// [`Connection::set_read_timeout`]. A timeout it gives or keeps never
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
        ReplyStatus::NoException => Ok(Outcome::Reply(Reply::results(body()?))),
        ReplyStatus::UserException => Ok(Outcome::Reply(Reply::user_exception(body()?))),
        ReplyStatus::SystemException => Ok(Outcome::System(
            reply.system_exception(msg.order).map_err(|e| maybe(&e))?,
        )),
        ReplyStatus::LocationForward | ReplyStatus::LocationForwardPerm => {
            let ior = reply.forward_ior(msg.order).map_err(|e| maybe(&e))?;
            let reference =
                ObjectReference::from_ior(&ior).map_err(|e| maybe(&GiopError::Cdr(e)))?;
            Ok(Outcome::Forward(Target::from_reference(reference)?))
        }
        ReplyStatus::NeedsAddressingMode => Err(protocol_error()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
