use std::collections::VecDeque;
use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::net::UnixStream;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use super::super::connection::driver::{Connection, Progress};
use super::super::limits::ServerLimits;
use super::super::server_core::ServerCore;
use super::super::shedding::Activity;
use super::leader::ACCEPTS_PER_TURN;
use super::shared::MESSAGES_PER_TURN;
use super::slot::{CLOSED, IDLE, Slot};
use super::threads::spawn;
use crate::object::NoInvoker;
use crate::orb::OrbConfig;
use crate::poa::adapter_table::AdapterTable;
use crate::sync::Mutex;
use crate::transport::Acceptor;
use crate::transport::iiop::IiopEndpoint;
use crate::transport::{Endpoint, Transport, TransportError, UnixTransport};
use rtorb_cdr::{ByteOrder, Version};
use rtorb_giop::message::{Content, LocateRequest, Message};
use rtorb_giop::target::TargetAddress;
use rtorb_giop::{FrameProtocol, decode_message, encode_message};

/// A peer that never stops sending: one GIOP 1.2 request header
/// announcing `size` octets, then as many as are read.
#[derive(Debug)]
struct Endless {
    header: Vec<u8>,
    read: Arc<AtomicUsize>,
    /// Octets read, counted with those of other peers.
    total: Option<Arc<AtomicUsize>>,
    /// A socket with input, always readable, for the poller.
    bell: Option<(UnixStream, UnixStream)>,
}

impl Endless {
    fn new(size: u32, read: Arc<AtomicUsize>) -> Endless {
        let mut header = b"GIOP\x01\x02\x00\x00".to_vec();
        header.extend_from_slice(&size.to_be_bytes());
        Endless {
            header,
            read,
            total: None,
            bell: None,
        }
    }

    /// One the poller can watch (always readable), counting what is read
    /// of it in `total`.
    fn polled(size: u32, total: &Arc<AtomicUsize>) -> Endless {
        let (bell, mut ringer) = UnixStream::pair().unwrap();
        ringer.write_all(b"!").unwrap();
        Endless {
            total: Some(Arc::clone(total)),
            bell: Some((bell, ringer)),
            ..Endless::new(size, Arc::new(AtomicUsize::new(0)))
        }
    }
}

impl AsRawFd for Endless {
    fn as_raw_fd(&self) -> std::os::fd::RawFd {
        self.bell.as_ref().map_or(-1, |(b, _)| b.as_raw_fd())
    }
}

impl Transport for Endless {
    fn protocol(&self) -> &'static str {
        "endless"
    }
    fn messaging(&self) -> FrameProtocol {
        FrameProtocol::Giop
    }
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let at = self.read.load(Ordering::Relaxed);
        for (i, b) in buf.iter_mut().enumerate() {
            *b = self.header.get(at + i).copied().unwrap_or(0);
        }
        self.read.fetch_add(buf.len(), Ordering::Relaxed);
        if let Some(total) = &self.total {
            total.fetch_add(buf.len(), Ordering::Relaxed);
        }
        Ok(buf.len())
    }
    fn writev(&mut self, bufs: &[std::io::IoSlice<'_>]) -> std::io::Result<usize> {
        Ok(bufs.iter().map(|b| b.len()).sum())
    }
    fn shutdown(&mut self, _: std::net::Shutdown) -> std::io::Result<()> {
        Ok(())
    }
    fn peer(&self) -> String {
        "endless".into()
    }
    fn set_nonblocking(&mut self, _: bool) -> std::io::Result<()> {
        Ok(())
    }
    fn set_read_timeout(&mut self, _: Option<Duration>) -> std::io::Result<()> {
        Ok(())
    }
    fn set_write_timeout(&mut self, _: Option<Duration>) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_turn_reads_a_large_message_a_part_at_a_time() {
    let core = Arc::new(ServerCore::new(
        ServerLimits::from_config(&OrbConfig::default()),
        Arc::new(NoInvoker),
        AdapterTable::new(16),
    ));
    let read = Arc::new(AtomicUsize::new(0));
    let size = 8 << 20;
    let mut conn = Connection::new(
        &core,
        Box::new(Endless::new(size, Arc::clone(&read))),
        false,
    )
    .unwrap();
    // The peer always has more: each turn ends with its budget spent,
    // having read at most one read past the budget's worth.
    let most = MESSAGES_PER_TURN * super::super::connection::driver::OCTETS_PER_COST + (256 << 10);
    let mut before = 0;
    for turn in 0..4 {
        assert_eq!(conn.turn(&core, MESSAGES_PER_TURN, None), Progress::More);
        let now = read.load(Ordering::Relaxed);
        assert!(now > before, "turn {turn} read nothing");
        assert!(
            now - before <= most,
            "turn {turn} read {} octets of a {size}-octet message (at most {most})",
            now - before
        );
        before = now;
    }
}

fn slot() -> Slot {
    Slot {
        index: 0,
        state: AtomicU8::new(IDLE),
        read_closed: AtomicBool::new(false),
        activity: Arc::new(Activity::new()),
        deadline: AtomicU64::new(0),
        live: Mutex::new(None),
    }
}

#[test]
fn an_event_claims_an_idle_connection_only() {
    let s = slot();
    assert!(s.signal(), "the first event claims it");
    assert!(!s.signal(), "a second event does not");
    assert!(!s.signal());
    // The owner is told to take another turn, once.
    assert!(!s.release());
    assert!(s.release());
    assert!(s.signal(), "idle again: claimable");
}

#[test]
fn a_closed_connection_is_never_claimed() {
    let s = slot();
    s.state.store(CLOSED, Ordering::Release);
    assert!(!s.signal());
    assert_eq!(s.state.load(Ordering::Acquire), CLOSED);
}

#[test]
fn events_racing_releases_leave_one_owner_and_end_idle() {
    // Two threads signal while the owner serves and releases: at most
    // one thread owns the connection at any time, and when all is
    // done it is idle, not claimed by no one.
    for _ in 0..200 {
        let s = Arc::new(slot());
        let owners = Arc::new(AtomicUsize::new(0));
        // One turn, then release; another turn while release says so.
        let serve = |s: &Slot, owners: &AtomicUsize| loop {
            assert_eq!(owners.fetch_add(1, Ordering::SeqCst), 0, "two owners");
            owners.fetch_sub(1, Ordering::SeqCst);
            if s.release() {
                break;
            }
        };
        assert!(s.signal());
        let threads: Vec<_> = (0..3)
            .map(|t| {
                let (s, owners) = (Arc::clone(&s), Arc::clone(&owners));
                std::thread::spawn(move || {
                    if t == 0 {
                        serve(&s, &owners);
                    }
                    for _ in 0..50 {
                        if s.signal() {
                            serve(&s, &owners);
                        }
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(s.state.load(Ordering::Acquire), IDLE);
    }
}

/// What a [`Listener`] hands out once its queue is empty.
#[derive(Debug, Clone, Copy)]
enum Then {
    /// Nothing: the accept would block.
    Nothing,
    /// A new connection every time, whose peer has already closed it (a
    /// client that connects and closes as fast as it can).
    Churn,
}

/// An acceptor that hands out the transports queued in it, then as
/// `then` says; its descriptor is always readable.
struct Listener {
    endpoint: IiopEndpoint,
    bell: (UnixStream, UnixStream),
    queue: Mutex<VecDeque<Box<dyn Transport>>>,
    then: Then,
    /// Connections handed out.
    accepted: Arc<AtomicUsize>,
    /// Written to its peer at the next accept, which is noted in
    /// [`Clock::armed_at`].
    armed: Arc<Mutex<Option<Armed>>>,
    clock: Arc<Clock>,
}

/// A client's end and the request to write on it.
type Armed = (UnixStream, Vec<u8>);

/// Accept counts: when a client's request was written, and when the
/// server next read that client.
#[derive(Debug)]
struct Clock {
    armed_at: AtomicUsize,
    seen_at: AtomicUsize,
}

impl std::fmt::Debug for Listener {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Listener")
    }
}

impl Listener {
    fn new(queue: Vec<Box<dyn Transport>>, then: Then) -> Listener {
        let (bell, mut ringer) = UnixStream::pair().unwrap();
        ringer.write_all(b"!").unwrap();
        Listener {
            endpoint: IiopEndpoint::from_socket_addr(([127, 0, 0, 1], 9).into()),
            bell: (bell, ringer),
            queue: Mutex::new(queue.into()),
            then,
            accepted: Arc::new(AtomicUsize::new(0)),
            armed: Arc::new(Mutex::new(None)),
            clock: Arc::new(Clock {
                armed_at: AtomicUsize::new(usize::MAX),
                seen_at: AtomicUsize::new(usize::MAX),
            }),
        }
    }
}

impl AsRawFd for Listener {
    fn as_raw_fd(&self) -> std::os::fd::RawFd {
        self.bell.0.as_raw_fd()
    }
}

impl Acceptor for Listener {
    fn endpoint(&self) -> &dyn Endpoint {
        &self.endpoint
    }
    fn accept(&self) -> Result<Box<dyn Transport>, TransportError> {
        let n = self.accepted.fetch_add(1, Ordering::SeqCst) + 1;
        if let Some((mut peer, request)) = self.armed.lock().take() {
            self.clock.armed_at.store(n, Ordering::SeqCst);
            peer.write_all(&request).unwrap();
        }
        if let Some(t) = self.queue.lock().pop_front() {
            return Ok(t);
        }
        match self.then {
            Then::Nothing => Err(TransportError::Io(std::io::ErrorKind::WouldBlock.into())),
            Then::Churn => {
                let (server, peer) = UnixStream::pair().unwrap();
                drop(peer);
                Ok(Box::new(unix(server)))
            }
        }
    }
    fn set_nonblocking(&self, _: bool) -> std::io::Result<()> {
        Ok(())
    }
}

/// A client's transport that calls `before_read` before each read (to
/// note where the server stands when it reads this client).
struct Watched {
    inner: UnixTransport,
    before_read: Box<dyn Fn() + Send + Sync>,
}

impl std::fmt::Debug for Watched {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Watched")
    }
}

impl Watched {
    /// Notes in `seen`, at the server's first read, how much had been
    /// read of the [`Endless`] peers (`total`) by then.
    fn first_read(
        inner: UnixTransport,
        total: &Arc<AtomicUsize>,
        seen: &Arc<AtomicUsize>,
    ) -> Watched {
        let (total, seen) = (Arc::clone(total), Arc::clone(seen));
        Watched {
            inner,
            before_read: Box::new(move || {
                let total = total.load(Ordering::Relaxed);
                let _ =
                    seen.compare_exchange(usize::MAX, total, Ordering::Relaxed, Ordering::Relaxed);
            }),
        }
    }

    /// Notes in the listener's [`Clock`], at the server's first read after
    /// a request was written, the accepts made by then.
    fn read_after_arming(inner: UnixTransport, listener: &Listener) -> Watched {
        let (accepted, clock) = (Arc::clone(&listener.accepted), Arc::clone(&listener.clock));
        Watched {
            inner,
            before_read: Box::new(move || {
                if clock.armed_at.load(Ordering::SeqCst) != usize::MAX {
                    let now = accepted.load(Ordering::SeqCst);
                    let _ = clock.seen_at.compare_exchange(
                        usize::MAX,
                        now,
                        Ordering::SeqCst,
                        Ordering::SeqCst,
                    );
                }
            }),
        }
    }
}

impl AsRawFd for Watched {
    fn as_raw_fd(&self) -> std::os::fd::RawFd {
        self.inner.as_raw_fd()
    }
}

impl Transport for Watched {
    fn protocol(&self) -> &'static str {
        self.inner.protocol()
    }
    fn messaging(&self) -> FrameProtocol {
        self.inner.messaging()
    }
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        (self.before_read)();
        self.inner.read(buf)
    }
    fn writev(&mut self, bufs: &[std::io::IoSlice<'_>]) -> std::io::Result<usize> {
        self.inner.writev(bufs)
    }
    fn shutdown(&mut self, how: std::net::Shutdown) -> std::io::Result<()> {
        self.inner.shutdown(how)
    }
    fn peer(&self) -> String {
        self.inner.peer()
    }
    fn set_nonblocking(&mut self, on: bool) -> std::io::Result<()> {
        self.inner.set_nonblocking(on)
    }
    fn set_read_timeout(&mut self, t: Option<Duration>) -> std::io::Result<()> {
        self.inner.set_read_timeout(t)
    }
    fn set_write_timeout(&mut self, t: Option<Duration>) -> std::io::Result<()> {
        self.inner.set_write_timeout(t)
    }
}

fn unix(s: UnixStream) -> UnixTransport {
    UnixTransport::from_socket(s, "uiop", FrameProtocol::Giop, "peer".into()).unwrap()
}

fn core() -> Arc<ServerCore> {
    Arc::new(ServerCore::new(
        ServerLimits::from_config(&OrbConfig::default()),
        Arc::new(NoInvoker),
        AdapterTable::new(16),
    ))
}

/// A client's connection (the server's end, and the client's): the
/// client sends a `LocateRequest` on it.
fn client() -> (UnixTransport, UnixStream) {
    let (server, mut peer) = UnixStream::pair().unwrap();
    peer.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    peer.write_all(&locate_request()).unwrap();
    (unix(server), peer)
}

/// A GIOP 1.2 `LocateRequest` for a key no adapter has.
fn locate_request() -> Vec<u8> {
    encode_message(&Message::new(
        Version::V1_2,
        ByteOrder::Big,
        Content::LocateRequest(LocateRequest {
            request_id: 5,
            target: TargetAddress::Key(bytes::Bytes::from_static(b"none")),
        }),
    ))
    .unwrap()
    .to_vec()
}

/// Reads the `LocateReply` the client's call gets (within the read
/// timeout); `what` says where the server stands when it does not come.
fn answered(peer: &mut UnixStream, what: &str) {
    let mut header = [0u8; 12];
    if let Err(e) = peer.read_exact(&mut header) {
        panic!("{what}: the call was not answered: {e}");
    }
    let len = u32::from_be_bytes([header[8], header[9], header[10], header[11]]) as usize;
    let mut all = header.to_vec();
    all.resize(12 + len, 0);
    peer.read_exact(&mut all[12..]).unwrap();
    let reply = decode_message(bytes::Bytes::from(all)).unwrap();
    assert!(
        matches!(reply.content, Content::LocateReply(_)),
        "{reply:?}"
    );
}

fn stop(core: &ServerCore, threads: Vec<JoinHandle<()>>) {
    core.stop();
    for t in threads {
        t.join().unwrap();
    }
}

#[test]
fn connections_that_never_stop_coming_leave_room_to_serve_the_others() {
    // Behind the client's connection, connections keep arriving (each
    // closed by its peer at once): the accept never blocks.
    for threads in [1, 3] {
        let core = core();
        let (server, mut peer) = client();
        let listener = Listener::new(vec![Box::new(server)], Then::Churn);
        let loop_threads = spawn(Arc::clone(&core), vec![Box::new(listener)], threads).unwrap();
        answered(
            &mut peer,
            &format!("{threads} thread(s), accepting without end"),
        );
        stop(&core, loop_threads);
    }
}

#[test]
fn a_refused_connection_takes_a_turn_not_the_loop() {
    // Connections whose peers send a message over the largest and never
    // stop, then a client's: the client is served after a turn of each,
    // not after each has read away what it discards.
    const REFUSED: usize = 8;
    let core = core();
    let total = Arc::new(AtomicUsize::new(0));
    let mut queue: Vec<Box<dyn Transport>> = (0..REFUSED)
        .map(|_| Box::new(Endless::polled(32 << 20, &total)) as Box<dyn Transport>)
        .collect();
    let (server, mut peer) = client();
    let seen = Arc::new(AtomicUsize::new(usize::MAX));
    queue.push(Box::new(Watched::first_read(server, &total, &seen)));
    let threads = spawn(
        Arc::clone(&core),
        vec![Box::new(Listener::new(queue, Then::Nothing))],
        1,
    )
    .unwrap();
    answered(&mut peer, "behind refused connections");
    // What was read of them by the time the client's request was: a
    // turn's worth each (and a read past it), where reading away a refused
    // message at once took up to a MiB each.
    let read = seen.load(Ordering::Relaxed);
    let most = REFUSED
        * (MESSAGES_PER_TURN * super::super::connection::driver::OCTETS_PER_COST + (256 << 10));
    assert!(
        read <= most,
        "{read} octets read of {REFUSED} refused connections before another was served (at most {most})"
    );
    stop(&core, threads);
}

#[test]
fn a_served_client_waits_for_at_most_a_round_of_accepts() {
    // A client served once, then connections that never stop coming; its
    // second request is written during an accept: the server reads it
    // before it has accepted more than the rest of that round.
    let core = core();
    let (server, mut peer) = client();
    let mut listener = Listener::new(Vec::new(), Then::Churn);
    let timed = Watched::read_after_arming(server, &listener);
    listener.queue = Mutex::new(VecDeque::from([Box::new(timed) as Box<dyn Transport>]));
    let (armed, clock) = (Arc::clone(&listener.armed), Arc::clone(&listener.clock));
    let threads = spawn(Arc::clone(&core), vec![Box::new(listener)], 1).unwrap();
    answered(&mut peer, "first request, accepting without end");
    *armed.lock() = Some((peer.try_clone().unwrap(), locate_request()));
    answered(&mut peer, "second request, accepting without end");
    let (at, seen) = (
        clock.armed_at.load(Ordering::SeqCst),
        clock.seen_at.load(Ordering::SeqCst),
    );
    assert!(
        seen - at < ACCEPTS_PER_TURN,
        "request written at accept {at}, read at accept {seen}: more than the rest of a round ({ACCEPTS_PER_TURN})"
    );
    stop(&core, threads);
}
