//! The server side of the ORB: the object map, the handling of each
//! complete message (shared by every concurrency strategy), and the
//! thread-per-connection strategy.
//!
//! Whatever the [`ServerStrategy`](super::ServerStrategy), a connection is
//! a `Connection`: its transport, its incremental framing state, its
//! fragment reassembly and its queue of replies not yet written. A strategy
//! calls `Connection::receive` when the connection may have input; it
//! reads what there is, hands each whole message to
//! `Connection::handle` (which dispatches requests with
//! [`crate::runtime::dispatch`] on the skeleton registered under the object
//! key, `OBJECT_NOT_EXIST` if none, and writes the reply), and says whether
//! to go on, wait, or close. Messages of one connection are handled one at
//! a time, in order: a connection is never read by two threads at once. It
//! answers `LocateRequest`s, ignores `CancelRequest`s (requests run to
//! completion before the next message is read), and answers malformed
//! input with a `MessageError` and closes that connection only. Replies are
//! written in the GIOP version and byte order of the request, or in
//! GIOPlite on a GIOPlite connection. Arguments are read and replies
//! written in the code sets of the first `CodeSets` service context the
//! connection received (see [`crate::codesets`]).
//!
//! Hostile or broken peers are bounded: a header announcing more than the
//! maximum message size is a `MessageError` before anything is buffered for
//! it; part of a message held longer than the incomplete-message timeout
//! closes the connection; connections beyond the limit are closed as soon
//! as they are accepted; and replies a client does not read are queued up
//! to a bound, past which its requests are not read, and a queue that does
//! not drain within the write timeout closes the connection.
//!
//! With a thread per connection, each acceptor runs on its own thread and
//! starts a thread for every connection it accepts, which reads blocking
//! (waking at the poll interval) and writes each reply before reading on.
//! The event-driven strategies are in [`super::reactor`].
//!
//! A GIOP 1.2 reply larger than the configured fragment size goes out as
//! fragments (GIOP 1.0 and 1.1 replies go whole: see
//! [`super::client::ORB_FRAGMENTS`]). A GIOP 1.2 oneway with `SYNC_WITH_SERVER` response
//! flags is acknowledged with an empty reply before the upcall runs (with
//! `SYNC_WITH_TARGET`, after it).
//!
//! On shutdown the acceptors stop, every connection finishes the request
//! it is running, sends `CloseConnection` (a request that arrives after
//! that point is not started, so the client may send it again), and
//! closes.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use bytes::{Bytes, BytesMut};
use mio::unix::SourceFd;
use mio::{Events, Interest, Poll, Token, Waker};
use rtorb_cdr::{ByteOrder, Decoder, Encoding, RTORB_VMCID, Version};
use rtorb_giop::message::{
    Content, LocateReply, LocateStatus, Message, RESPONSE_WITH_SERVER, ReplyStatus,
};
use rtorb_giop::{
    CompletionStatus, FrameDecoder, FrameHeader, FrameProtocol, GiopError, ObjectReference,
    Reassembler, ReassemblyLimits, ServiceContextList, SystemException, SystemExceptionKind,
    decode_lite, encode_lite, encode_message, fragment_chunks, request_view_framed,
};

use super::client::ORB_FRAGMENTS;
use crate::codesets::ServerCodeSets;
use crate::poa::Found;
use crate::poa::table::{AdapterTable, Location, PlainKeyCache};
use crate::runtime::{
    Invoker, MARSHAL_TARGET_NOT_A_KEY, ReplyBuilder, ServerRequest, Skeleton, dispatch,
    with_invoker,
};
use crate::sync::Mutex;
use crate::transport::io::MIN_READ;
use crate::transport::{Acceptor, FrameReader, OutChain, Transport};
use crate::whitebox::{Probe, Stage};

use super::OrbConfig;

/// `UNKNOWN` minor code for a servant that panicked (rtorb).
pub const UNKNOWN_SERVANT_PANICKED: u32 = RTORB_VMCID | 0x310;

/// The initial capacity of a connection's reply buffer.
const REPLY_CAPACITY: usize = 512;

/// A reply buffer grown beyond this (by a large reply) is released once
/// the reply is sent, rather than kept for the connection's life.
const MAX_KEPT_REPLY_CAPACITY: usize = 64 * 1024;

/// How long an acceptor waits after a failed accept (or, without an event
/// loop, between polls).
const ACCEPT_POLL: Duration = Duration::from_millis(5);

/// The bounds and timeouts of the server, from the [`OrbConfig`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct ServerLimits {
    /// How often an idle connection (or the event loop) wakes to look at
    /// shutdown and timeouts.
    pub(crate) poll_interval: Duration,
    /// How long a reply may wait to be written.
    pub(crate) write_timeout: Duration,
    /// The largest message body accepted.
    pub(crate) max_message_size: u32,
    /// How long part of a message may be held.
    pub(crate) incomplete_message_timeout: Duration,
    /// The most open connections.
    pub(crate) max_connections: usize,
    /// The most reply octets queued for one connection before its input
    /// is no longer read.
    pub(crate) max_output_buffer: usize,
    /// The code sets of a connection on which no `CodeSets` context came.
    pub(crate) assumed_code_sets: rtorb_cdr::TransmissionCodeSets,
}

impl ServerLimits {
    pub(crate) fn from_config(config: &OrbConfig) -> ServerLimits {
        ServerLimits {
            poll_interval: config.server_poll_interval,
            write_timeout: config.server_write_timeout,
            max_message_size: config.max_message_size,
            incomplete_message_timeout: config.incomplete_message_timeout,
            max_connections: config.max_connections,
            max_output_buffer: config.max_output_buffer,
            assumed_code_sets: config.code_sets.assumed(),
        }
    }
}

/// The object adapters and thread bookkeeping shared by the server
/// threads.
pub(crate) struct ServerCore {
    /// Plain keys and POAs: what demultiplexes requests.
    adapters: Arc<AdapterTable>,
    stopping: AtomicBool,
    connections: Mutex<Vec<JoinHandle<()>>>,
    pub(crate) limits: ServerLimits,
    /// Connections open (accepted and not yet closed).
    open: AtomicUsize,
    /// Wakes the event loops on shutdown.
    wakers: Mutex<Vec<Arc<mio::Waker>>>,
    /// Handles on the connections whose threads block in reads with no
    /// timeout: shutdown ends their reads.
    readers: Mutex<Readers>,
    /// Binds object references that arrive in requests, so a servant can
    /// call them (the ORB's own client side).
    invoker: Arc<dyn Invoker>,
    /// Replies larger than this go out as fragments.
    fragment_size: Option<usize>,
}

/// What a plain object key is registered for.
#[derive(Clone)]
pub(crate) enum Entry {
    /// A servant, through its skeleton.
    Servant(Arc<dyn Skeleton>),
    /// Requests are answered with `LOCATION_FORWARD` to this reference.
    Forward(ObjectReference),
}

impl std::fmt::Debug for ServerCore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerCore")
            .field("stopping", &self.stopping())
            .finish_non_exhaustive()
    }
}

impl ServerCore {
    pub(crate) fn new(
        limits: ServerLimits,
        invoker: Arc<dyn Invoker>,
        adapters: Arc<AdapterTable>,
    ) -> ServerCore {
        ServerCore {
            adapters,
            stopping: AtomicBool::new(false),
            connections: Mutex::new(Vec::new()),
            limits,
            open: AtomicUsize::new(0),
            wakers: Mutex::new(Vec::new()),
            readers: Mutex::new(Readers::default()),
            invoker,
            fragment_size: None,
        }
    }

    /// The invoker object references arriving in requests are bound to.
    pub(crate) fn invoker(&self) -> &Arc<dyn Invoker> {
        &self.invoker
    }

    /// Sends GIOP 1.2 replies larger than `max` as fragments.
    pub(crate) fn with_fragment_size(mut self, max: Option<usize>) -> ServerCore {
        self.fragment_size = max;
        self
    }

    pub(crate) fn insert(&self, key: Bytes, entry: Entry) {
        self.adapters.insert(key, entry);
    }

    /// Stops serving `key` (a plain key, or a POA's object).
    pub(crate) fn remove(&self, key: &[u8]) -> bool {
        self.adapters.deactivate(key)
    }

    /// The demultiplexing step: the servant (or forward) of a request
    /// for `operation` on `key`. Plain keys first, then the POA's direct
    /// index; see [`crate::poa`].
    ///
    /// Servant managers run here (`incarnate`, `preinvoke`): one that
    /// panics fails the request with `UNKNOWN`, as a panicking servant
    /// does, and the thread goes on serving.
    ///
    /// The connection's `cache` remembers the servant of the plain key it
    /// called last ([`AdapterTable::lookup_cached`]).
    fn lookup(
        &self,
        key: &[u8],
        operation: &[u8],
        cache: &mut PlainKeyCache,
    ) -> Result<Found, SystemException> {
        std::panic::catch_unwind(AssertUnwindSafe(|| {
            self.adapters.lookup_cached(key, operation, cache)
        }))
        .unwrap_or_else(|_| Err(servant_panicked()))
    }

    /// Where a `LocateRequest` for `key` finds its object; a servant
    /// manager that panics gives `UNKNOWN`, as in [`ServerCore::lookup`].
    pub(crate) fn locate(&self, key: &[u8]) -> Location {
        std::panic::catch_unwind(AssertUnwindSafe(|| self.adapters.locate(key)))
            .unwrap_or_else(|_| Location::System(servant_panicked()))
    }

    pub(crate) fn stopping(&self) -> bool {
        self.stopping.load(Ordering::Acquire)
    }

    pub(crate) fn stop(&self) {
        self.stopping.store(true, Ordering::Release);
        let wakers = self.wakers.lock();
        for w in wakers.iter() {
            // A loop that cannot be woken still sees the flag within the
            // poll interval.
            let _ = w.wake();
        }
        drop(wakers);
        // A read blocked on a connection returns (end of stream); what the
        // client sent is still readable, and written replies still go out.
        let mut readers = self.readers.lock();
        for (_, handle) in readers.handles.iter_mut() {
            let _ = handle.shutdown(std::net::Shutdown::Read);
        }
    }

    /// Keeps a handle on `transport` so that [`ServerCore::stop`] can end
    /// a read blocked on it; `None` if the transport cannot give one (its
    /// thread then polls for shutdown).
    fn watch(&self, transport: &dyn Transport) -> Option<u64> {
        let handle = transport.try_clone_box().ok()?;
        let mut readers = self.readers.lock();
        let id = readers.next;
        readers.next += 1;
        readers.handles.push((id, handle));
        Some(id)
    }

    /// Drops the handle [`ServerCore::watch`] kept.
    fn unwatch(&self, id: u64) {
        let mut readers = self.readers.lock();
        if let Some(i) = readers.handles.iter().position(|(r, _)| *r == id) {
            readers.handles.swap_remove(i);
        }
    }

    /// Registers an event loop's waker, woken by [`ServerCore::stop`].
    pub(crate) fn add_waker(&self, waker: Arc<mio::Waker>) {
        self.wakers.lock().push(waker);
    }

    /// Counts a newly accepted connection in, unless the limit is reached
    /// (then the caller closes it). The returned guard counts it out.
    pub(crate) fn admit(self: &Arc<Self>) -> Option<OpenConnection> {
        let max = self.limits.max_connections;
        self.open
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < max).then_some(n + 1)
            })
            .ok()
            .map(|_| OpenConnection(Arc::clone(self)))
    }

    /// Connections open now.
    pub(crate) fn open_connections(&self) -> usize {
        self.open.load(Ordering::Acquire)
    }

    /// Joins every connection thread (after the acceptors have stopped).
    pub(crate) fn join_connections(&self) {
        loop {
            let handles: Vec<JoinHandle<()>> = self.connections.lock().drain(..).collect();
            if handles.is_empty() {
                return;
            }
            for h in handles {
                let _ = h.join();
            }
        }
    }

    fn add_connection(&self, handle: JoinHandle<()>) {
        let mut v = self.connections.lock();
        // Reap the threads of connections that have ended.
        let mut i = 0;
        while i < v.len() {
            if v[i].is_finished() {
                let _ = v.swap_remove(i).join();
            } else {
                i += 1;
            }
        }
        v.push(handle);
    }
}

/// Starts the thread of `acceptor`.
pub(crate) fn spawn_acceptor(
    core: Arc<ServerCore>,
    acceptor: Box<dyn Acceptor>,
) -> std::io::Result<JoinHandle<()>> {
    acceptor.set_nonblocking(true)?;
    std::thread::Builder::new()
        .name("rtorb-acceptor".into())
        .spawn(move || accept_loop(&core, &*acceptor))
}

/// The connections [`ServerCore::stop`] wakes.
#[derive(Default)]
struct Readers {
    next: u64,
    handles: Vec<(u64, Box<dyn Transport>)>,
}

/// Counts one open connection; dropping it counts the connection out.
pub(crate) struct OpenConnection(Arc<ServerCore>);

impl Drop for OpenConnection {
    fn drop(&mut self) {
        self.0.open.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Accepts connections until the ORB stops, each served by a thread of
/// its own. The thread sleeps in `epoll` on the listening socket and on a
/// waker that [`ServerCore::stop`] wakes: an idle server makes no
/// periodic wake-ups (which, on a CPU shared with real-time work, would
/// each preempt it).
fn accept_loop(core: &Arc<ServerCore>, acceptor: &dyn Acceptor) {
    const LISTENER: Token = Token(0);
    const WAKER: Token = Token(1);
    let fd = acceptor.as_raw_fd();
    let poll = Poll::new().and_then(|poll| {
        poll.registry()
            .register(&mut SourceFd(&fd), LISTENER, Interest::READABLE)?;
        let waker = Arc::new(Waker::new(poll.registry(), WAKER)?);
        core.add_waker(waker);
        Ok(poll)
    });
    // Without an event loop (no descriptors left for one), the thread
    // polls the nonblocking listener every `ACCEPT_POLL` instead.
    let mut poll = poll.ok();
    let mut events = Events::with_capacity(4);
    while !core.stopping() {
        // Take every pending connection: readiness is edge-triggered.
        let pending = accept_pending(core, acceptor);
        if core.stopping() {
            break;
        }
        match (&mut poll, pending) {
            (Some(p), Pending::Drained) => {
                if let Err(e) = p.poll(&mut events, None)
                    && e.kind() != std::io::ErrorKind::Interrupted
                {
                    std::thread::sleep(ACCEPT_POLL);
                }
            }
            // A failed accept (a peer that reset before we took it, or a
            // lack of descriptors), or no event loop: wait a little.
            _ => std::thread::sleep(ACCEPT_POLL),
        }
    }
}

/// How a round of accepts ended.
enum Pending {
    /// No connection is waiting.
    Drained,
    /// An accept failed otherwise.
    Failed,
}

/// Accepts every waiting connection.
fn accept_pending(core: &Arc<ServerCore>, acceptor: &dyn Acceptor) -> Pending {
    loop {
        match acceptor.accept() {
            Ok(transport) => {
                // Beyond the limit the connection is closed at once.
                let Some(open) = core.admit() else {
                    continue;
                };
                let c = Arc::clone(core);
                let spawned = std::thread::Builder::new()
                    .name("rtorb-connection".into())
                    .spawn(move || serve_connection(&c, transport, open));
                if let Ok(h) = spawned {
                    core.add_connection(h);
                }
            }
            Err(e) if e.is_would_block() => return Pending::Drained,
            Err(_) => return Pending::Failed,
        }
    }
}

/// What to do after a message.
pub(crate) enum Next {
    Continue,
    /// Send this message, if any, and close.
    Close(Option<Bytes>),
}

/// What a call of [`Connection::receive`] came to.
#[derive(Debug)]
pub(crate) enum Progress {
    /// Everything that had arrived is handled; wait for more input.
    Idle,
    /// The message budget is spent and more input may be waiting: call
    /// again (after serving others).
    More,
    /// Replies are queued beyond the bound: wait until the connection is
    /// writable before reading on.
    Paused,
    /// Close the connection, after sending this message if any.
    Close(Option<Bytes>),
}

/// One server connection, in any strategy.
pub(crate) struct Connection {
    transport: Box<dyn Transport>,
    messaging: FrameProtocol,
    reassembler: Reassembler,
    /// The reply being written: one buffer, reused for every reply.
    reply: ReplyBuilder,
    /// The servant of the plain key last called on this connection.
    plain_key: PlainKeyCache,
    /// The code sets of the first `CodeSets` context received on it.
    codesets: ServerCodeSets,
    /// Times the stages of a request (with the `whitebox` feature).
    probe: Probe,
    /// The incremental framing state.
    reader: FrameReader,
    /// Replies not yet written (nonblocking connections only).
    output: OutChain,
    /// Whether the transport blocks (thread per connection) or not.
    blocking: bool,
    /// Since when part of a message has been held.
    partial_since: Option<Instant>,
    /// Since when queued output has made no progress.
    stalled_since: Option<Instant>,
    /// Whether the poller reported the peer's end of stream (or an
    /// error): reads go on until they return it.
    read_closed: bool,
    /// The peer ended its stream while replies were still queued: they
    /// are written before the connection closes.
    input_ended: bool,
    /// Replies larger than this go out as fragments.
    fragment_size: Option<usize>,
    /// Blocking: the read timeout while no message is partly received
    /// (`None`: reads wait until input comes or shutdown ends them).
    idle_read_timeout: Option<Duration>,
    /// Blocking: the read timeout set on the transport now.
    read_timeout: Option<Duration>,
}

/// Serves one connection on its own thread: blocking reads, with no
/// timeout while no message is partly received (shutdown ends them
/// through [`ServerCore::watch`]), so an idle connection costs no
/// wake-ups; with the time left of the incomplete-message timeout while
/// one is.
fn serve_connection(core: &ServerCore, transport: Box<dyn Transport>, _open: OpenConnection) {
    crate::runtime::set_thread_invoker(&core.invoker);
    let watched = core.watch(&*transport);
    if let Ok(mut conn) = Connection::new(core, transport, true) {
        if watched.is_some() {
            conn.idle_read_timeout = None;
        }
        let last = loop {
            if let Progress::Close(last) = conn.receive(core, usize::MAX) {
                break last;
            }
        };
        conn.close(core, last);
    }
    if let Some(id) = watched {
        core.unwatch(id);
    }
}

impl Connection {
    /// Sets `transport` up for a strategy: blocking with the poll interval
    /// as read timeout and the write timeout, or nonblocking.
    pub(crate) fn new(
        core: &ServerCore,
        mut transport: Box<dyn Transport>,
        blocking: bool,
    ) -> std::io::Result<Connection> {
        let read_timeout = blocking.then_some(core.limits.poll_interval);
        if blocking {
            transport.set_nonblocking(false)?;
            transport.set_read_timeout(read_timeout)?;
            transport.set_write_timeout(Some(core.limits.write_timeout))?;
        } else {
            transport.set_nonblocking(true)?;
        }
        let messaging = transport.messaging();
        let max = core.limits.max_message_size;
        Ok(Connection {
            transport,
            messaging,
            reassembler: Reassembler::new(ReassemblyLimits {
                // A reassembled message: a header and at most `max`.
                max_total_bytes: usize::try_from(max)
                    .unwrap_or(usize::MAX)
                    .saturating_add(rtorb_giop::header::HEADER_LEN),
                ..ReassemblyLimits::default()
            }),
            reply: ReplyBuilder::with_buffer(
                Encoding::native(),
                0,
                BytesMut::with_capacity(REPLY_CAPACITY),
                messaging == FrameProtocol::Lite,
            ),
            plain_key: PlainKeyCache::default(),
            codesets: ServerCodeSets::new(messaging, core.limits.assumed_code_sets),
            probe: Probe::start(),
            fragment_size: core.fragment_size,
            reader: FrameReader::with_decoder(FrameDecoder::with_max_message_size(messaging, max)),
            output: OutChain::new(),
            blocking,
            partial_since: None,
            stalled_since: None,
            read_closed: false,
            input_ended: false,
            idle_read_timeout: read_timeout,
            read_timeout,
        })
    }

    /// Blocking: sets the read timeout for the next read, if it changes:
    /// while part of a message is held, what is left of the
    /// incomplete-message timeout (at most the idle one); otherwise the
    /// idle one.
    fn arm_read_timeout(&mut self, core: &ServerCore) -> std::io::Result<()> {
        let want = match self.partial_since {
            Some(since) => {
                let left = core
                    .limits
                    .incomplete_message_timeout
                    .saturating_sub(since.elapsed())
                    .max(Duration::from_millis(1));
                Some(self.idle_read_timeout.map_or(left, |idle| idle.min(left)))
            }
            None => self.idle_read_timeout,
        };
        if want != self.read_timeout {
            self.transport.set_read_timeout(want)?;
            self.read_timeout = want;
        }
        Ok(())
    }

    /// The transport, for registering its descriptor with a poller.
    pub(crate) fn transport(&self) -> &dyn Transport {
        &*self.transport
    }

    /// Reads what has arrived and handles every whole message, at most
    /// `budget` of them, until the input would block (or, blocking, until
    /// the poll interval passes without input), the queued replies exceed
    /// their bound, or the connection must close: at end of stream, on a
    /// read error, on malformed input (with `MessageError`), on shutdown
    /// (with `CloseConnection`, the message not started), or when part of
    /// a message has been held beyond the incomplete-message timeout.
    pub(crate) fn receive(&mut self, core: &ServerCore, budget: usize) -> Progress {
        let mut handled = 0usize;
        // A nonblocking read that returned less than it asked for emptied
        // the socket: no need for another read to see `WouldBlock` (unless
        // the end of stream is pending, which is seen only by reading).
        let mut drained = false;
        loop {
            if core.stopping() {
                // Not started: the client may send it again elsewhere.
                return Progress::Close(Some(self.control(Content::CloseConnection)));
            }
            if self.input_ended {
                return if self.output.is_empty() {
                    Progress::Close(None)
                } else {
                    Progress::Paused
                };
            }
            if self.output.len() > core.limits.max_output_buffer {
                return Progress::Paused;
            }
            // Nothing buffered (the usual case between messages): no
            // frame to look for.
            let next = if self.reader.decoder().buffered() > 0 {
                self.reader.next_frame()
            } else {
                Ok(None)
            };
            let frame = match next {
                Ok(Some(f)) => {
                    self.probe.lap(Stage::ServerRead);
                    f
                }
                Ok(None) => {
                    if self.partial_expired(core) {
                        return Progress::Close(None);
                    }
                    if drained {
                        return Progress::Idle;
                    }
                    if handled >= budget {
                        return Progress::More;
                    }
                    if self.blocking && self.arm_read_timeout(core).is_err() {
                        return Progress::Close(None);
                    }
                    match self.reader.fill(&mut *self.transport) {
                        // Shutdown ended the read: the request not started.
                        Ok(0) if core.stopping() => {
                            return Progress::Close(Some(self.control(Content::CloseConnection)));
                        }
                        Ok(0) if !self.output.is_empty() => {
                            // A client that half-closed still gets its
                            // replies (within the write timeout).
                            self.input_ended = true;
                            return Progress::Paused;
                        }
                        Ok(0) => return Progress::Close(None),
                        Ok(n) => {
                            drained = !self.blocking && !self.read_closed && n < MIN_READ;
                            continue;
                        }
                        Err(e) => match e.kind() {
                            std::io::ErrorKind::Interrupted => continue,
                            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => {
                                return Progress::Idle;
                            }
                            _ => return Progress::Close(None),
                        },
                    }
                }
                Err(_) => return Progress::Close(Some(self.control(Content::MessageError))),
            };
            handled += 1;
            let header = self.reader.last_header().copied();
            if let Next::Close(last) = self.handle(core, frame, header) {
                return Progress::Close(last);
            }
        }
    }

    /// Notes that the poller saw the peer close its side (or an error):
    /// a short read no longer means that nothing more is to be read,
    /// since the end of stream itself brings no further event.
    pub(crate) fn set_read_closed(&mut self) {
        self.read_closed = true;
    }

    /// Whether part of a message has been held beyond the
    /// incomplete-message timeout; starts the clock when part of one is
    /// first seen. Called when no whole message is buffered.
    fn partial_expired(&mut self, core: &ServerCore) -> bool {
        let partial = self.reader.decoder().buffered() > 0 || self.reassembler.pending() > 0;
        if !partial {
            self.partial_since = None;
            return false;
        }
        let now = Instant::now();
        let since = *self.partial_since.get_or_insert(now);
        now.duration_since(since) >= core.limits.incomplete_message_timeout
    }

    /// Writes queued replies until done or the transport would block.
    pub(crate) fn flush(&mut self) -> std::io::Result<()> {
        let mut progressed = false;
        while !self.output.is_empty() {
            match self.output.write_to(&mut *self.transport) {
                Ok(_) => progressed = true,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(e) => return Err(e),
            }
        }
        if self.output.is_empty() {
            self.stalled_since = None;
        } else if progressed || self.stalled_since.is_none() {
            self.stalled_since = Some(Instant::now());
        }
        Ok(())
    }

    /// When a timeout of this connection falls due, if one runs: the
    /// incomplete-message timeout, or the write timeout of queued replies
    /// that make no progress.
    pub(crate) fn deadline(&self, core: &ServerCore) -> Option<Instant> {
        let partial = self
            .partial_since
            .map(|t| t + core.limits.incomplete_message_timeout);
        let stalled = self.stalled_since.map(|t| t + core.limits.write_timeout);
        match (partial, stalled) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Whether queued replies have made no progress for the write
    /// timeout.
    pub(crate) fn write_expired(&self, core: &ServerCore) -> bool {
        self.stalled_since
            .is_some_and(|t| t.elapsed() >= core.limits.write_timeout)
    }

    /// Sends `last` after the queued replies, if it can, and closes. While
    /// the ORB shuts down, the queued replies and `last` are written
    /// blocking, within the write timeout; otherwise a nonblocking
    /// connection makes one attempt and never waits.
    pub(crate) fn close(mut self, core: &ServerCore, last: Option<Bytes>) {
        if let Some(last) = last {
            self.output.push(last);
        }
        if !self.output.is_empty() {
            if self.blocking || core.stopping() {
                let linger = self.transport.set_nonblocking(false).and_then(|()| {
                    self.transport
                        .set_write_timeout(Some(core.limits.write_timeout))
                });
                if linger.is_ok() {
                    let _ = self.output.write_all_to(&mut *self.transport);
                }
            } else {
                let _ = self.flush();
            }
        }
        let _ = self.transport.shutdown(std::net::Shutdown::Both);
    }

    /// A message without a body (`CloseConnection`, `MessageError`) in
    /// the connection's protocol.
    pub(crate) fn control(&self, content: Content) -> Bytes {
        let msg = Message::new(Version::V1_0, ByteOrder::NATIVE, content);
        let encoded = match self.messaging {
            FrameProtocol::Giop => encode_message(&msg),
            FrameProtocol::Lite => encode_lite(&msg),
        };
        encoded.unwrap_or_default()
    }

    fn message_error(&self) -> Next {
        Next::Close(Some(self.control(Content::MessageError)))
    }

    /// Handles one whole message (a GIOP message or fragment, or a
    /// GIOPlite message): reassembles, decodes, demultiplexes, dispatches
    /// and replies. Every strategy calls it.
    pub(crate) fn handle(
        &mut self,
        core: &ServerCore,
        frame: Bytes,
        header: Option<FrameHeader>,
    ) -> Next {
        // The common request, read in place; anything else in full.
        if let Some(view) = header.and_then(|h| request_view_framed(&frame, &h)) {
            self.probe.lap(Stage::ServerParse);
            let incoming = Incoming {
                request_id: view.request_id,
                response_flags: view.response_flags,
                object_key: Some(view.object_key),
                operation: view.operation,
                service_context: None,
                encoding: Encoding::native()
                    .with_order(view.order)
                    .with_version(view.version),
                body: Body::At(view.body_offset),
            };
            return self.request(core, &incoming, &frame);
        }
        self.handle_decoded(core, frame)
    }

    /// [`Connection::handle`] for a message [`request_view_framed`] does not
    /// cover: decoded in full.
    #[cold]
    #[inline(never)]
    fn handle_decoded(&mut self, core: &ServerCore, frame: Bytes) -> Next {
        let decoded = match self.messaging {
            FrameProtocol::Giop => match self.reassembler.push_message(frame) {
                Ok(None) => return Next::Continue,
                Ok(Some(pair)) => Ok(pair),
                Err(e) => Err(e),
            },
            FrameProtocol::Lite => decode_lite(frame.clone()).map(|m| (m, frame)),
        };
        let (msg, message) = match decoded {
            Ok((m, _)) if m.more_fragments => return self.message_error(),
            Ok(pair) => pair,
            Err(_) => return self.message_error(),
        };
        self.probe.lap(Stage::ServerParse);
        match &msg.content {
            Content::Request(r) => {
                let header = &r.header;
                let incoming = Incoming {
                    request_id: header.request_id,
                    response_flags: header.response_flags,
                    object_key: header.target.object_key().map(|k| &k[..]),
                    operation: header.operation.as_bytes(),
                    service_context: Some(&header.service_context),
                    encoding: msg.encoding(),
                    body: Body::Of(&msg),
                };
                self.request(core, &incoming, &message)
            }
            Content::LocateRequest(l) => {
                let located = l.target.object_key().map(|k| core.locate(k));
                let status = match located {
                    Some(Location::Here) => LocateStatus::ObjectHere,
                    Some(Location::Forward(to)) => match to.to_ior() {
                        Ok(ior) => LocateStatus::ObjectForward(ior),
                        Err(_) => LocateStatus::UnknownObject,
                    },
                    // GIOP 1.2 carries the exception; before, the object
                    // is as good as unknown.
                    Some(Location::System(e)) if msg.version >= Version::V1_2 => {
                        LocateStatus::LocSystemException(e)
                    }
                    Some(Location::System(_)) | Some(Location::Unknown) | None => {
                        LocateStatus::UnknownObject
                    }
                };
                let reply = Message::new(
                    msg.version,
                    msg.order,
                    Content::LocateReply(LocateReply {
                        request_id: l.request_id,
                        status,
                    }),
                );
                let encoded = match self.messaging {
                    FrameProtocol::Giop => encode_message(&reply),
                    FrameProtocol::Lite => encode_lite(&reply),
                };
                match encoded {
                    Ok(b) => self.send(b),
                    Err(_) => self.message_error(),
                }
            }
            Content::CancelRequest(_) => Next::Continue,
            Content::CloseConnection | Content::MessageError => Next::Close(None),
            Content::Reply(_) | Content::LocateReply(_) | Content::Fragment(_) => {
                self.message_error()
            }
        }
    }

    /// Sends a message, as fragments when it is larger than the fragment
    /// size and of GIOP 1.2 or later (else whole). Every write of the
    /// message handling goes through here or [`Connection::send_reply`]:
    /// a blocking connection writes it at once, a nonblocking one queues
    /// it behind the replies not yet written and writes what the socket
    /// takes.
    fn send(&mut self, message: Bytes) -> Next {
        self.send_chunks(std::slice::from_ref(&message))
    }

    /// As [`Connection::send`], for a message in a chain of buffers.
    fn send_chunks(&mut self, chunks: &[Bytes]) -> Next {
        let len: usize = chunks.iter().map(Bytes::len).sum();
        let version = chunks.first().and_then(|c| giop_version(c));
        if let Some(max) = self.fragment_size.filter(|_| self.fragments(len, version)) {
            if let Ok(pieces) = fragment_chunks(chunks, max) {
                return self.write_pieces(&pieces);
            }
        }
        // Not a fragmentable message type, or small enough: sent whole.
        self.write_pieces(chunks)
    }

    /// Whether a message of `len` octets in GIOP `version` goes out as
    /// fragments.
    fn fragments(&self, len: usize, version: Option<Version>) -> bool {
        self.fragment_size.is_some_and(|max| len > max)
            && self.messaging == FrameProtocol::Giop
            && version.is_some_and(|v| v >= ORB_FRAGMENTS)
    }

    /// Sends the reply completed in `self.reply`: straight from its
    /// buffer when it is one piece that goes whole and nothing is queued
    /// before it (the common case: no copy, no reference counting), else
    /// through [`Connection::send_chunks`].
    fn send_reply(&mut self) -> Next {
        let (len, version) = {
            let w = self.reply.writer();
            (w.len(), w.version())
        };
        if !self.fragments(len, Some(version)) && self.output.is_empty() {
            match self.reply.writer().seal() {
                Ok(Some(message)) => {
                    let written = if self.blocking {
                        self.transport.send_all(message)
                    } else {
                        write_or_queue(&mut *self.transport, &mut self.output, message)
                    };
                    if self.reply.writer().capacity() > MAX_KEPT_REPLY_CAPACITY {
                        drop(self.reply.writer().take_buffer());
                    }
                    return match written {
                        Ok(()) if self.output.is_empty() => Next::Continue,
                        Ok(()) => match self.flush() {
                            Ok(()) => Next::Continue,
                            Err(_) => Next::Close(None),
                        },
                        Err(_) => Next::Close(None),
                    };
                }
                Ok(None) => {}
                Err(_) => return self.message_error(),
            }
        }
        match self.reply.writer().take_chunks() {
            Ok(chunks) => self.send_chunks(&chunks),
            Err(_) => self.message_error(),
        }
    }

    fn write_pieces(&mut self, pieces: &[Bytes]) -> Next {
        let sent = if self.blocking {
            self.transport.write_all_vectored(pieces)
        } else {
            for piece in pieces {
                self.output.push(piece.clone());
            }
            self.flush()
        };
        match sent {
            Ok(()) => Next::Continue,
            Err(_) => Next::Close(None),
        }
    }

    fn request(&mut self, core: &ServerCore, header: &Incoming<'_>, message: &Bytes) -> Next {
        let response_expected = header.response_flags & 0x01 != 0;
        let codesets = match header.service_context {
            Some(contexts) => self.codesets.on_request(contexts),
            None => self.codesets.transmission(),
        };
        let encoding = header.encoding.with_codesets(codesets);
        self.reply.reset(encoding, header.request_id);
        let outcome = match header.object_key {
            None => Err(SystemException::new(
                SystemExceptionKind::Marshal,
                MARSHAL_TARGET_NOT_A_KEY,
                CompletionStatus::No,
            )),
            Some(key) => match core.lookup(key, header.operation, &mut self.plain_key) {
                Err(e) => Err(e),
                Ok(Found::Forward(to)) => match self.reply.start(ReplyStatus::LocationForward) {
                    Ok(e) => to
                        .to_ior()
                        .and_then(|ior| rtorb_cdr::CdrEncode::encode(&ior, e))
                        .map_err(SystemException::from),
                    Err(e) => Err(e.to_system_exception()),
                },
                Ok(Found::Servant(servant)) => match header.body.arguments(message, encoding) {
                    None => Err(GiopError::Cdr(rtorb_cdr::CdrError::Unsupported(
                        "request without a body",
                    ))
                    .to_system_exception()),
                    Some(arguments) if header.response_flags == RESPONSE_WITH_SERVER => {
                        // SYNC_WITH_SERVER: acknowledged before the upcall,
                        // which then runs as a plain oneway.
                        let sent = match self.reply.complete(Ok(())) {
                            Ok(()) => self.send_reply(),
                            Err(_) => return self.message_error(),
                        };
                        self.reply.reset(encoding, header.request_id);
                        let mut req =
                            arguments.request(header.operation, key, false, &mut self.reply);
                        let _ = upcall(core, &**servant.skeleton(), &mut req);
                        return sent;
                    }
                    Some(arguments) => {
                        self.probe.lap(Stage::ServerDemux);
                        let mut req = arguments.request(
                            header.operation,
                            key,
                            response_expected,
                            &mut self.reply,
                        );
                        let outcome = upcall(core, &**servant.skeleton(), &mut req);
                        self.probe.lap(Stage::ServerUpcall);
                        outcome
                    }
                },
            },
        };
        if !response_expected {
            return Next::Continue;
        }
        match self.reply.complete(outcome) {
            Ok(()) => {
                self.probe.lap(Stage::ServerMarshal);
                let next = self.send_reply();
                self.probe.lap(Stage::ServerWrite);
                next
            }
            Err(_) => self.message_error(),
        }
    }
}

/// Writes `message` to a nonblocking transport as far as it takes it, and
/// queues the rest (copied) on `output`.
fn write_or_queue(
    transport: &mut dyn Transport,
    output: &mut OutChain,
    message: &[u8],
) -> std::io::Result<()> {
    let mut rest = message;
    while !rest.is_empty() {
        match transport.writev(&[std::io::IoSlice::new(rest)]) {
            Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
            Ok(n) => rest = rest.get(n..).unwrap_or_default(),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                output.push(Bytes::copy_from_slice(rest));
                return Ok(());
            }
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// A request's header as the server uses it: read in place
/// ([`request_view_framed`]) or from a decoded [`Message`].
struct Incoming<'a> {
    request_id: u32,
    response_flags: u8,
    /// `None`: not addressed by object key.
    object_key: Option<&'a [u8]>,
    operation: &'a [u8],
    /// `None`: none were sent.
    service_context: Option<&'a ServiceContextList>,
    /// The message's byte order and version.
    encoding: Encoding,
    body: Body<'a>,
}

/// Where a request's body is.
enum Body<'a> {
    /// At this offset of the message.
    At(usize),
    /// Where the decoded message says (with its realignments).
    Of(&'a Message),
}

impl<'a> Body<'a> {
    /// Where the arguments in `message` are, in `encoding`; `None` if the
    /// decoded message has no body.
    fn arguments(&self, message: &'a Bytes, encoding: Encoding) -> Option<Arguments<'a>> {
        match self {
            Body::At(offset) => Some(Arguments::At(message, *offset, encoding)),
            Body::Of(msg) => msg
                .body_decoder(message, encoding.codesets)
                .map(Arguments::Decoder),
        }
    }
}

/// The arguments of a request, for its [`ServerRequest`].
enum Arguments<'a> {
    /// At this offset of the message, in this encoding: decoded only if
    /// the skeleton asks.
    At(&'a Bytes, usize, Encoding),
    /// In this decoder.
    Decoder(Decoder),
}

impl<'a> Arguments<'a> {
    fn request(
        self,
        operation: &'a [u8],
        key: &'a [u8],
        response_expected: bool,
        reply: &'a mut ReplyBuilder,
    ) -> ServerRequest<'a> {
        match self {
            Arguments::At(message, offset, encoding) => ServerRequest::in_message(
                operation,
                key,
                response_expected,
                message,
                offset,
                encoding,
                reply,
            ),
            Arguments::Decoder(d) => {
                ServerRequest::new(operation, key, response_expected, d, reply)
            }
        }
    }
}

/// The GIOP version in the header of an encoded message.
fn giop_version(message: &[u8]) -> Option<Version> {
    match message.get(4..6)? {
        [major, minor] => Some(Version::new(*major, *minor)),
        _ => None,
    }
}

/// `UNKNOWN` for a request whose servant (or servant manager) panicked.
fn servant_panicked() -> SystemException {
    SystemException::new(
        SystemExceptionKind::Unknown,
        UNKNOWN_SERVANT_PANICKED,
        CompletionStatus::Maybe,
    )
}

/// Runs `req` on `skeleton` with the ORB's invoker for references in it;
/// a servant that panics gives `UNKNOWN`.
fn upcall(
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
