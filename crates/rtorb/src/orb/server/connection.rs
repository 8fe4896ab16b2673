//! One server connection, in any strategy: its transport, the explicit
//! [`State`] of its life, its read and write halves, and its dispatch.
//!
//! A strategy calls [`Connection::receive`] when the connection may have
//! input; it reads what there is, hands each whole message to the
//! dispatch, and says whether to go on, wait, or close
//! ([`Progress`]). When it says close, the strategy calls
//! [`Connection::close`], which sends what is queued (the last message
//! among it) and shuts the transport down.
//!
//! ```text
//!            peer ends its stream,            queue written
//!   Open ──── replies still queued ──► Draining ─────────────┐
//!    │ │                                  │                  │
//!    │ │ end of stream, error, timeout,   │ write timeout,   │
//!    │ │ malformed input (MessageError),  │ write error,     │
//!    │ │ shutdown (CloseConnection)       │ shutdown         │
//!    │ ▼                                  ▼                  ▼
//!    │ Closing ◄──────────────────────────┴──────────────────┘
//!    │ ▲  │ close: the queue and the last message written
//!    │ │  ▼
//!    │ │ Closed
//!    │ └── end of stream, deadline, shutdown, write timeout ──┐
//!    │ message refused (nonblocking): answer queued           │
//!    └───────────────────────────────────────────────► Lingering
//! ```
//!
//! A nonblocking connection whose message is refused lingers
//! (`linger.rs`): the event loop writes its answer and reads away the rest
//! of the refused message a turn at a time before it closes.

use std::sync::Arc;
use std::time::Instant;

use rtorb_cdr::{ByteOrder, Version};
use rtorb_giop::header::{HEADER_LEN, MsgType};
use rtorb_giop::{CompletionStatus, FrameHeader, SystemException, SystemExceptionKind};

use super::ServerCore;
use super::dispatch::Dispatcher;
use super::linger::{Linger, Step, discard_at_once};
use super::read::{ReadError, ReadHalf};
use super::shedding::Activity;
use super::write::{Control, Next, WriteHalf};

mod ahead;
use crate::minor::{IMP_LIMIT_MESSAGE_TOO_LARGE, NO_MEMORY_BUDGET};
use crate::transport::Transport;
use crate::transport::io::MIN_READ;
use crate::whitebox::Stage;
pub(crate) use ahead::{Ahead, Refused};

/// Reading costs one of a turn's budget for every this many octets: a
/// turn reads a bounded amount, and a large message is read over several.
pub(crate) const OCTETS_PER_COST: usize = 4 * 1024;

/// Where a connection is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum State {
    /// Reading requests and writing their replies.
    Open,
    /// The peer ended its stream while replies were still queued: they
    /// are written (within the write timeout), nothing more is read.
    Draining,
    /// Nothing more is read: what is queued, and the last message if any
    /// (`CloseConnection` or `MessageError`), goes out on
    /// [`Connection::close`].
    Closing,
    /// A message was refused (nonblocking only): the answer and the last
    /// message are written, then what the peer still sends is read away,
    /// a bounded amount per turn, until it ends its stream or the linger
    /// deadline passes.
    Lingering,
    /// The transport is shut down.
    Closed,
}

/// What a call of [`Connection::receive`] came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Progress {
    /// Everything that had arrived is handled; wait for more input.
    Idle,
    /// The turn's budget is spent and more input may be waiting: call
    /// again (after serving others).
    More,
    /// Replies are queued beyond the bound (or the peer's stream ended
    /// with replies queued): wait until the connection is writable before
    /// reading on.
    Paused,
    /// The connection is [`State::Closing`]: [`Connection::close`] it.
    Close,
}

/// One server connection, in any strategy.
pub(crate) struct Connection {
    transport: Box<dyn Transport>,
    state: State,
    /// Whether the transport blocks (thread per connection) or not.
    blocking: bool,
    read: ReadHalf,
    write: WriteHalf,
    dispatch: Dispatcher,
    /// Whether a message was refused (its rest is read away before the
    /// connection closes).
    refused: bool,
    /// In [`State::Lingering`]: what has been read away, and until when.
    linger: Option<Linger>,
    /// What the acceptor reads to choose a connection to shed.
    activity: Arc<Activity>,
    /// Whether a whole message has been received.
    completed: bool,
    /// With an idle timeout: since when the connection has completed no
    /// message.
    idle_since: Instant,
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
            state: State::Open,
            blocking,
            read: ReadHalf::new(messaging, max, read_timeout, &core.budget),
            write: WriteHalf::new(messaging, blocking, core.fragment_size, &core.budget),
            dispatch: Dispatcher::new(messaging, max, core.limits.assumed_code_sets, &core.budget),
            refused: false,
            linger: None,
            activity: Arc::new(Activity::new()),
            completed: false,
            idle_since: Instant::now(),
        })
    }

    /// Blocking, with shutdown able to end its reads: reads wait with no
    /// timeout while no message is partly received.
    pub(crate) fn wait_while_idle(&mut self) {
        self.read.wait_while_idle();
    }

    /// The transport, for registering its descriptor with a poller.
    pub(crate) fn transport(&self) -> &dyn Transport {
        &*self.transport
    }

    /// Keeps its activity in `activity` (which the acceptor already
    /// holds) instead of its own.
    pub(crate) fn set_activity(&mut self, activity: Arc<Activity>) {
        self.activity = activity;
    }

    /// What the acceptor reads to choose a connection to shed.
    pub(crate) fn activity(&self) -> &Arc<Activity> {
        &self.activity
    }

    /// Whether the connection holds nothing: no part of a message, no
    /// reply queued.
    fn quiet(&self) -> bool {
        self.read.buffered() == 0 && !self.dispatch.reassembling() && self.write.is_empty()
    }

    /// Whether all that is left of the connection is its peer's end of
    /// stream: nothing held, nothing queued, nothing more to read. Serving
    /// it only closes it.
    pub(crate) fn only_end_of_stream(&self) -> bool {
        self.state == State::Open
            && self.quiet()
            && matches!(self.transport.peek(&mut [0u8; 1]), Ok(0))
    }

    /// Closes the connection that the acceptor chose to shed (not while a
    /// thread serves it), with `CloseConnection`.
    pub(crate) fn shed(&mut self, core: &ServerCore) {
        if self.state == State::Open {
            self.closing_shed();
        }
        self.close(core);
    }

    /// Closes a connection accepted at the connection cap when none could
    /// be shed to make room for it: with `CloseConnection` (in GIOP 1.0,
    /// which every version reads), so that a client that has already
    /// written a request into it sends it again, as after any
    /// `CloseConnection`, instead of taking it for lost; without waiting.
    #[cold]
    pub(crate) fn refuse_at_cap(core: &ServerCore, transport: Box<dyn Transport>) {
        if let Ok(mut conn) = Connection::new(core, transport, false) {
            conn.activity.mark_shed();
            conn.closing_shed();
            conn.close(core);
        }
    }

    /// Where the connection is in its life.
    #[cfg(test)]
    pub(crate) fn state(&self) -> State {
        self.state
    }

    /// Reads what has arrived and handles every whole message, within
    /// `budget` (a message handled costs one, and every
    /// [`OCTETS_PER_COST`] octets read one more), until the input would block (or, blocking, until
    /// the poll interval passes without input), the queued replies exceed
    /// their bound, or the connection must close: at end of stream, on a
    /// read error, on malformed input (with `MessageError`), on shutdown
    /// (with `CloseConnection`, the message not started), or when part of
    /// a message has been held beyond the incomplete-message timeout.
    pub(crate) fn receive(&mut self, core: &Arc<ServerCore>, budget: usize) -> Progress {
        let mut handled = 0usize;
        // A nonblocking read that returned less than it asked for emptied
        // the socket: no need for another read to see `WouldBlock` (unless
        // the end of stream is pending, which is seen only by reading).
        let mut drained = false;
        if self.state == State::Lingering {
            // Before the checks below, which would queue a last message.
            return self.linger_turn(core, budget);
        }
        loop {
            if core.stopping() {
                // Not started: the client may send it again elsewhere.
                return self.closing(Some(Control::CloseConnection));
            }
            if self.activity.is_shed() {
                return self.closing_shed();
            }
            match self.state {
                State::Open => {}
                State::Draining if self.write.is_empty() => return self.closing(None),
                State::Draining => return Progress::Paused,
                State::Lingering => return self.linger_turn(core, budget),
                State::Closing | State::Closed => return Progress::Close,
            }
            if self.write.queued() > core.limits.max_output_buffer
                || (!self.write.is_empty() && core.budget.spent())
            {
                return Progress::Paused;
            }
            // Nothing buffered (the usual case between messages): no
            // frame to look for. Messages already buffered bring no new
            // event: once the budget is spent they wait for the next turn.
            let next = if self.read.buffered() == 0 {
                Ok(None)
            } else if handled >= budget {
                return Progress::More;
            } else {
                self.read.next_frame()
            };
            let frame = match next {
                Ok(Some(f)) => {
                    self.dispatch.probe.lap(Stage::ServerRead);
                    f
                }
                Ok(None) => {
                    if self
                        .read
                        .partial_expired(core, self.dispatch.reassembling())
                    {
                        return self.closing(None);
                    }
                    let quiet = self.quiet();
                    self.activity.note(quiet, self.completed);
                    if quiet && self.idle_expired(core) {
                        return self.closing(Some(Control::CloseConnection));
                    }
                    if drained {
                        return Progress::Idle;
                    }
                    if handled >= budget {
                        return Progress::More;
                    }
                    let idle_left = self.idle_left(core);
                    if self.blocking
                        && self
                            .read
                            .arm_read_timeout(&mut *self.transport, core, idle_left)
                            .is_err()
                    {
                        return self.closing(None);
                    }
                    match self.read.fill(&mut *self.transport) {
                        // Shutdown ended the read: the request not started.
                        Ok(0) if core.stopping() => {
                            return self.closing(Some(Control::CloseConnection));
                        }
                        // The acceptor shed it (ending its read).
                        Ok(0) if self.activity.is_shed() => return self.closing_shed(),
                        Ok(0) if !self.write.is_empty() => {
                            // A client that half-closed still gets its
                            // replies (within the write timeout).
                            self.state = State::Draining;
                            return Progress::Paused;
                        }
                        Ok(0) => return self.closing(None),
                        Ok(n) => {
                            drained = !self.blocking && !self.read.read_closed() && n < MIN_READ;
                            handled = handled.saturating_add(n / OCTETS_PER_COST);
                            continue;
                        }
                        Err(e) => match e.kind() {
                            std::io::ErrorKind::Interrupted => continue,
                            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => {
                                return Progress::Idle;
                            }
                            _ => return self.closing(None),
                        },
                    }
                }
                Err(ReadError::Malformed) => return self.closing(Some(Control::MessageError)),
                // Its own queued replies hold budget: wait for them to
                // drain before deciding on the message.
                Err(ReadError::OverBudget(_)) if !self.write.is_empty() => {
                    return Progress::Paused;
                }
                Err(ReadError::OverBudget(header)) => {
                    let refusal = SystemException::new(
                        SystemExceptionKind::NoMemory,
                        NO_MEMORY_BUDGET,
                        CompletionStatus::No,
                    );
                    return self.refuse(header, refusal);
                }
                Err(ReadError::TooLarge(header)) => {
                    let refusal = SystemException::new(
                        SystemExceptionKind::ImpLimit,
                        IMP_LIMIT_MESSAGE_TOO_LARGE,
                        CompletionStatus::No,
                    );
                    return self.refuse(header, refusal);
                }
            };
            handled = handled.saturating_add(1);
            let header = self.read.last_header();
            if let Some(FrameHeader::Giop(h)) = &header {
                self.write.set_version(h.version);
            }
            let next =
                self.dispatch
                    .handle(core, frame, header, &mut *self.transport, &mut self.write);
            self.read.handled();
            if !self.dispatch.reassembling() {
                self.read.message_completed();
                self.completed = true;
                if core.limits.idle_timeout.is_some() {
                    self.idle_since = Instant::now();
                }
            }
            if let Next::Close(last) = next {
                return self.closing(last);
            }
        }
    }

    /// Refuses a message, from its `header`, that the memory budget
    /// cannot take (`NO_MEMORY`) or that exceeds the maximum message size
    /// (`IMP_LIMIT`): a `Request` whose request id has arrived is answered
    /// with `refusal`, in its GIOP version, and the connection closed with
    /// `CloseConnection`; anything else with `MessageError`.
    #[cold]
    fn refuse(&mut self, header: FrameHeader, refusal: SystemException) -> Progress {
        self.refused = true;
        let FrameHeader::Giop(h) = header else {
            return self.closing(Some(Control::MessageError));
        };
        self.write.set_version(h.version);
        let id = request_id(self.read.received(), h.version, h.order);
        match id {
            Some(id) if h.msg_type == MsgType::Request => {
                let refusal =
                    refusal.with_detail(format_args!("a request of {} octets", h.message_len()));
                self.write.queue_exception_reply(id, h.order, &refusal);
                self.refused_closing(Control::CloseConnection)
            }
            _ => self.refused_closing(Control::MessageError),
        }
    }

    /// After a refusal, with `last` to go out last: a blocking connection
    /// closes (reading away the refused message at once), a nonblocking
    /// one lingers (see `linger.rs`). Its first turn follows those of
    /// connections waiting.
    #[cold]
    fn refused_closing(&mut self, last: Control) -> Progress {
        if self.blocking {
            return self.closing(Some(last));
        }
        self.write.queue_control(last);
        self.state = State::Lingering;
        self.linger = Some(Linger::new());
        // Nothing of it is left for the shedding to keep.
        self.activity.note(true, self.completed);
        let _ = self.write.flush(&mut *self.transport);
        Progress::More
    }

    /// A turn of a lingering connection: the answer written, what has
    /// arrived read away within the turn's `budget`.
    #[cold]
    fn linger_turn(&mut self, core: &ServerCore, budget: usize) -> Progress {
        if core.stopping() || self.activity.is_shed() {
            return self.closing(None);
        }
        if !self.write.is_empty() {
            // Room to write brings an event; the write timeout bounds it.
            return Progress::Paused;
        }
        let Some(linger) = self.linger.as_mut() else {
            return self.closing(None);
        };
        let most = budget.saturating_mul(OCTETS_PER_COST);
        match linger.turn(&mut *self.transport, most, self.read.read_closed()) {
            Step::Wait => Progress::Idle,
            Step::More => Progress::More,
            Step::Close => self.closing(None),
        }
    }

    /// Whether the connection has been idle beyond the idle timeout (if
    /// there is one).
    fn idle_expired(&self, core: &ServerCore) -> bool {
        core.limits
            .idle_timeout
            .is_some_and(|t| self.idle_since.elapsed() >= t)
    }

    /// With an idle timeout: what is left of it (at least a millisecond).
    fn idle_left(&self, core: &ServerCore) -> Option<std::time::Duration> {
        core.limits.idle_timeout.map(|t| {
            t.saturating_sub(self.idle_since.elapsed())
                .max(std::time::Duration::from_millis(1))
        })
    }

    /// Moves to [`State::Closing`] when the acceptor shed the connection,
    /// with `CloseConnection` to go out last: no request is being
    /// processed, so GIOP lets the server send it, and the client sends
    /// again on a new connection whatever it has not had answered (a
    /// request read but not started, or not yet read, included).
    #[cold]
    fn closing_shed(&mut self) -> Progress {
        self.closing(Some(Control::CloseConnection))
    }

    /// Moves to [`State::Closing`], with `last` queued to go out last.
    #[cold]
    fn closing(&mut self, last: Option<Control>) -> Progress {
        if let Some(last) = last {
            self.write.queue_control(last);
        }
        self.state = State::Closing;
        Progress::Close
    }

    /// Notes that the poller saw the peer close its side (or an error):
    /// a short read no longer means that nothing more is to be read,
    /// since the end of stream itself brings no further event.
    pub(crate) fn set_read_closed(&mut self) {
        self.read.set_read_closed();
    }

    /// Writes queued replies until done or the transport would block.
    pub(crate) fn flush(&mut self) -> std::io::Result<()> {
        self.write.flush(&mut *self.transport)
    }

    /// When a timeout of this connection falls due, if one runs: the
    /// incomplete-message timeout, or the write timeout of queued replies
    /// that make no progress.
    pub(crate) fn deadline(&self, core: &ServerCore) -> Option<Instant> {
        if let Some(linger) = self
            .linger
            .as_ref()
            .filter(|_| self.state == State::Lingering)
        {
            let until = linger.deadline();
            return Some(self.write.deadline(core).map_or(until, |w| w.min(until)));
        }
        let idle = core
            .limits
            .idle_timeout
            .filter(|_| self.state == State::Open && self.quiet())
            .map(|t| self.idle_since + t);
        [self.read.deadline(core), self.write.deadline(core), idle]
            .into_iter()
            .flatten()
            .min()
    }

    /// Whether queued replies have made no progress for the write
    /// timeout.
    pub(crate) fn write_expired(&self, core: &ServerCore) -> bool {
        self.write.expired(core)
    }

    /// Ends the connection after the server's shutdown: `CloseConnection`
    /// after what is queued, then [`Connection::close`].
    pub(crate) fn shut_down(&mut self, core: &ServerCore) {
        // A lingering connection has queued its last message already.
        if !matches!(self.state, State::Closed | State::Lingering) {
            self.closing(Some(Control::CloseConnection));
        }
        self.close(core);
    }

    /// Sends what is queued, the last message among it, if it can, and
    /// shuts the transport down. While the ORB shuts down, it is written
    /// blocking, within the write timeout; otherwise a nonblocking
    /// connection makes one attempt and never waits.
    pub(crate) fn close(&mut self, core: &ServerCore) {
        if self.state == State::Closed {
            return;
        }
        self.state = State::Closing;
        self.write.linger(&mut *self.transport, core);
        // A shed connection's client may have written a request as it was
        // shed: what has arrived is read away, so that closing does not
        // reset the connection before the client has read
        // `CloseConnection` (a refused event-loop connection lingers
        // instead, and reads it away in turns).
        if (self.refused && self.blocking) || self.activity.is_shed() {
            discard_at_once(&mut *self.transport);
        }
        let _ = self.transport.shutdown(std::net::Shutdown::Both);
        self.state = State::Closed;
    }
}

/// The request id of a `Request` of GIOP `version` and byte `order`, if
/// `received` (its start, header included) holds it: right after the
/// header in GIOP 1.2 and later, after the service contexts before.
fn request_id(received: &[u8], version: Version, order: ByteOrder) -> Option<u32> {
    let ulong = |at: usize| -> Option<u32> {
        let b = <[u8; 4]>::try_from(received.get(at..at.checked_add(4)?)?).ok()?;
        Some(match order {
            ByteOrder::Big => u32::from_be_bytes(b),
            ByteOrder::Little => u32::from_le_bytes(b),
        })
    };
    let align = |at: usize| at.checked_add(3).map(|a| a & !3);
    if version >= Version::V1_2 {
        return ulong(HEADER_LEN);
    }
    // A sequence of service contexts (an id, then a sequence of octets),
    // aligned from the start of the message.
    let contexts = ulong(HEADER_LEN)?;
    let mut at = HEADER_LEN + 4;
    for _ in 0..contexts {
        at = align(at)?;
        let len = ulong(at.checked_add(4)?)?;
        at = at.checked_add(8)?.checked_add(usize::try_from(len).ok()?)?;
        if at > received.len() {
            return None;
        }
    }
    ulong(align(at)?)
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};
    use std::os::unix::net::UnixStream;
    use std::sync::Arc;

    use bytes::Bytes;
    use rtorb_cdr::{ByteOrder, Version};
    use rtorb_giop::message::{Content, LocateRequest, Message};
    use rtorb_giop::target::TargetAddress;
    use rtorb_giop::{FrameProtocol, decode_message, encode_message};

    use super::*;
    use crate::orb::OrbConfig;
    use crate::orb::server::ServerLimits;
    use crate::poa::table::AdapterTable;
    use crate::runtime::NoInvoker;
    use crate::transport::UnixTransport;

    fn core() -> Arc<ServerCore> {
        Arc::new(ServerCore::new(
            ServerLimits::from_config(&OrbConfig::default()),
            Arc::new(NoInvoker),
            AdapterTable::new(16),
        ))
    }

    /// A nonblocking server connection, and its peer.
    fn pair(core: &ServerCore) -> (Connection, UnixStream) {
        let (server, peer) = UnixStream::pair().unwrap();
        let transport =
            UnixTransport::from_socket(server, "uiop", FrameProtocol::Giop, "peer".into()).unwrap();
        let conn = Connection::new(core, Box::new(transport), false).unwrap();
        peer.set_read_timeout(Some(std::time::Duration::from_secs(10)))
            .unwrap();
        (conn, peer)
    }

    fn locate(version: Version) -> Bytes {
        locate_key(version, Bytes::from_static(b"none"))
    }

    fn locate_key(version: Version, key: Bytes) -> Bytes {
        encode_message(&Message::new(
            version,
            ByteOrder::Big,
            Content::LocateRequest(LocateRequest {
                request_id: 1,
                target: TargetAddress::Key(key),
            }),
        ))
        .unwrap()
    }

    #[test]
    fn only_a_closed_peer_with_nothing_sent_is_only_end_of_stream() {
        let core = core();
        let (conn, peer) = pair(&core);
        // Open and silent: not the end.
        assert!(!conn.only_end_of_stream());
        drop(peer);
        assert!(conn.only_end_of_stream());
        // Octets waiting before the end: a message to handle first.
        let (conn, mut peer) = pair(&core);
        peer.write_all(b"GIOP").unwrap();
        drop(peer);
        assert!(!conn.only_end_of_stream());
    }

    #[test]
    fn a_large_message_is_charged_until_handled_and_its_room_freed() {
        let core = core();
        let (mut conn, mut peer) = pair(&core);
        let large = locate_key(Version::V1_2, Bytes::from(vec![7u8; 200_000]));
        // The header and part of the body: charged at the announced length.
        peer.write_all(&large[..40_000]).unwrap();
        assert_eq!(conn.receive(&core, usize::MAX), Progress::Idle);
        assert_eq!(core.buffered_bytes(), large.len());
        // The rest: handled, released, and the room made for it freed.
        let mut writer = peer.try_clone().unwrap();
        let rest = large.slice(40_000..);
        let sender = std::thread::spawn(move || writer.write_all(&rest).unwrap());
        while core.buffered_bytes() != 0 {
            assert_eq!(conn.receive(&core, usize::MAX), Progress::Idle);
        }
        sender.join().unwrap();
        // A small message after it is received in room of its own size.
        peer.write_all(&locate(Version::V1_2)).unwrap();
        assert_eq!(conn.receive(&core, usize::MAX), Progress::Idle);
        assert!(conn.read.capacity() < 64 * 1024, "{}", conn.read.capacity());
        conn.shut_down(&core);
        let messages = received(&mut peer);
        assert_eq!(messages.len(), 3);
        assert!(matches!(messages[0].content, Content::LocateReply(_)));
    }

    /// The messages the peer receives until the connection closes.
    fn received(peer: &mut UnixStream) -> Vec<Message> {
        let mut all = Vec::new();
        peer.read_to_end(&mut all).unwrap();
        let mut all = Bytes::from(all);
        let mut messages = Vec::new();
        while all.len() >= 12 {
            let size = [all[8], all[9], all[10], all[11]];
            let size = if all[6] & 1 == 1 {
                u32::from_le_bytes(size)
            } else {
                u32::from_be_bytes(size)
            };
            let one = all.split_to(12 + size as usize);
            messages.push(decode_message(one).unwrap());
        }
        assert!(all.is_empty());
        messages
    }

    #[test]
    fn shutdown_closes_an_open_connection_in_its_giop_version() {
        let core = core();
        let (mut conn, mut peer) = pair(&core);
        assert_eq!(conn.state(), State::Open);
        peer.write_all(&locate(Version::V1_1)).unwrap();
        assert_eq!(conn.receive(&core, usize::MAX), Progress::Idle);
        assert_eq!(conn.state(), State::Open);
        core.stop();
        assert_eq!(conn.receive(&core, usize::MAX), Progress::Close);
        assert_eq!(conn.state(), State::Closing);
        conn.close(&core);
        assert_eq!(conn.state(), State::Closed);
        // Closing again does nothing.
        conn.close(&core);
        let messages = received(&mut peer);
        assert_eq!(messages.len(), 2);
        assert!(matches!(messages[0].content, Content::LocateReply(_)));
        assert_eq!(messages[1].content, Content::CloseConnection);
        assert!(messages.iter().all(|m| m.version == Version::V1_1));
    }

    #[test]
    fn malformed_input_closes_with_message_error() {
        let core = core();
        let (mut conn, mut peer) = pair(&core);
        peer.write_all(b"GIOP\x01\x02\x00\x63\x00\x00\x00\x00")
            .unwrap();
        assert_eq!(conn.receive(&core, usize::MAX), Progress::Close);
        assert_eq!(conn.state(), State::Closing);
        // A closing connection reads nothing more.
        assert_eq!(conn.receive(&core, usize::MAX), Progress::Close);
        conn.close(&core);
        let messages = received(&mut peer);
        assert_eq!(messages.len(), 1);
        assert_eq!(messages[0].content, Content::MessageError);
    }

    #[test]
    fn the_peer_s_end_of_stream_closes_without_a_message() {
        let core = core();
        let (mut conn, mut peer) = pair(&core);
        peer.shutdown(std::net::Shutdown::Write).unwrap();
        conn.set_read_closed();
        assert_eq!(conn.receive(&core, usize::MAX), Progress::Close);
        conn.close(&core);
        assert!(received(&mut peer).is_empty());
    }

    #[test]
    fn shut_down_sends_close_connection_in_giop_1_0_before_any_message() {
        let core = core();
        let (mut conn, mut peer) = pair(&core);
        conn.shut_down(&core);
        assert_eq!(conn.state(), State::Closed);
        let messages = received(&mut peer);
        assert_eq!(messages.len(), 1);
        assert_eq!(messages[0].content, Content::CloseConnection);
        assert_eq!(messages[0].version, Version::V1_0);
    }
}
