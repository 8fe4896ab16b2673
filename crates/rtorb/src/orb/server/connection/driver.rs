//! [`Connection`]: one server connection with its I/O, in any strategy:
//! its transport, its [`Machine`] (the protocol, without I/O) and its
//! dispatch, driven in turns ([`Connection::turn`]).

use std::sync::Arc;
use std::time::{Duration, Instant};

use rtorb_giop::{FrameHeader, SystemException};

use super::super::server_core::ServerCore;
use super::super::shedding::Activity;
use super::dispatch::Dispatcher;
use super::linger::discard_at_once;
use super::machine::{Machine, Poll, Received, Refusal, State};
use super::now::Now;
use super::write::{Sink, Writer, flush, write_last};
use crate::probe::Stage;
use crate::transport::Transport;
use crate::transport::io::MIN_READ;

/// Reading costs one of a turn's budget for every this many octets: a
/// turn reads a bounded amount, and a large message is read over several.
pub(crate) const OCTETS_PER_COST: usize = 4 * 1024;

/// What a call of [`Connection::turn`] came to.
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
    /// Reading ahead: the next message waits for a thread of the lane
    /// (see [`ReadAhead`]).
    Waiting,
    /// The connection is closing: [`Connection::close`] it.
    Close,
}

/// What a lane's reader, reading ahead while every thread of its lane is
/// busy, does with the next message once its header has arrived (see
/// `threadpool/read_ahead.rs`): nothing read ahead is ever dispatched.
pub(crate) trait ReadAhead {
    /// The next message's header has arrived (and all of it, if
    /// `whole`; else it is larger than what is read ahead);
    /// `reassembling`: fragments of a message are held.
    fn decide(&mut self, header: &FrameHeader, whole: bool, reassembling: bool) -> Ahead;
    /// The answer to a request refused.
    fn refusal(&self) -> SystemException;
    /// A request was refused: called before its answer is written.
    fn refused(&mut self, how: Refusal);
}

/// What a [`ReadAhead`] policy does with the next message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ahead {
    /// It waits for a thread of the lane: the turn ends with
    /// [`Progress::Waiting`].
    Hold,
    /// It is a request the lane can neither run nor keep: answered with
    /// the refusal (or dropped, a oneway), and reading goes on.
    Refuse,
}

/// One server connection, in any strategy.
///
/// Its messages are handled one at a time, in order: a connection is
/// never read by two threads at once, and a request runs to completion
/// before the next message is read (but for `SYNC_WITH_SERVER` oneways,
/// acknowledged as read, their upcalls queued: `deferred.rs`).
pub(crate) struct Connection {
    transport: Box<dyn Transport>,
    machine: Machine,
    writer: Writer,
    dispatcher: Dispatcher,
    /// What the acceptor reads to choose a connection to shed.
    activity: Arc<Activity>,
    /// Blocking: the read timeout while no message is partly received
    /// (`None`: reads wait until input comes or shutdown ends them).
    idle_read_timeout: Option<Duration>,
    /// Blocking: the read timeout set on the transport now.
    read_timeout: Option<Duration>,
}

/// What a read came to.
enum Read {
    /// Octets arrived.
    Got(usize),
    /// Look at the machine again (the end of stream, an interrupted read,
    /// an error).
    Again,
    /// Nothing to read now.
    Stop,
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
        Ok(Connection {
            transport,
            machine: Machine::new(
                messaging,
                blocking,
                core.limits,
                &core.budget,
                Instant::now(),
            ),
            writer: Writer {
                messaging,
                blocking,
                fragment_size: core.fragment_size,
            },
            dispatcher: Dispatcher::new(messaging, core.limits.assumed_code_sets),
            activity: Arc::new(Activity::new()),
            idle_read_timeout: read_timeout,
            read_timeout,
        })
    }

    /// Blocking, with shutdown able to end its reads: reads wait with no
    /// timeout while no message is partly received.
    pub(crate) fn wait_while_idle(&mut self) {
        self.idle_read_timeout = None;
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

    /// Where the connection is in its life.
    #[cfg(test)]
    pub(crate) fn state(&self) -> State {
        self.machine.state()
    }

    /// Whether all that is left of the connection is its peer's end of
    /// stream: nothing held, nothing queued, nothing more to read. Serving
    /// it only closes it.
    pub(crate) fn only_end_of_stream(&self) -> bool {
        self.machine.state() == State::Open
            && self.machine.quiet()
            && matches!(self.transport.peek(&mut [0u8; 1]), Ok(0))
    }

    /// One turn: does what the machine asks until the input would block
    /// (or, blocking, until the poll interval passes without input), the
    /// queued replies exceed their bound, the connection must close, or
    /// `budget` is spent (a message handled costs one, and every
    /// [`OCTETS_PER_COST`] octets read one more). With `ahead`, a lane's
    /// reader reads ahead: no message is dispatched.
    pub(crate) fn turn(
        &mut self,
        core: &Arc<ServerCore>,
        budget: usize,
        mut ahead: Option<&mut dyn ReadAhead>,
    ) -> Progress {
        if !self.writer.blocking && self.flush().is_err() {
            self.machine.fail();
            return Progress::Close;
        }
        let mut spent = 0usize;
        // A nonblocking read that returned less than it asked for emptied
        // the socket: no need for another read to see `WouldBlock` (unless
        // the end of stream is pending, which is seen only by reading).
        let mut drained = false;
        let reading_ahead = ahead.is_some();
        loop {
            if core.stopping() || self.activity.is_shed() {
                // Not started: the client may send it again elsewhere.
                self.machine.shut_down();
            }
            let mut now = Now::lazy();
            match self.machine.poll(&mut now, spent >= budget, reading_ahead) {
                Poll::Dispatch(incoming) => {
                    spent = spent.saturating_add(1);
                    self.dispatch(core, &mut now, incoming);
                }
                Poll::Handled => spent = spent.saturating_add(1),
                Poll::Ahead { header, whole } => {
                    let Some(policy) = ahead.as_mut() else {
                        return Progress::Waiting;
                    };
                    if let Some(p) = self.read_ahead(&mut now, &mut **policy, &header, whole) {
                        return p;
                    }
                }
                Poll::Read => {
                    if self.machine.state() == State::Open {
                        self.note_activity();
                    }
                    if drained {
                        return self.waiting(&mut now, Progress::Idle);
                    }
                    if spent >= budget {
                        return Progress::More;
                    }
                    match self.read(core) {
                        Read::Got(n) => {
                            drained = !self.writer.blocking
                                && !self.machine.read_closed()
                                && n < MIN_READ;
                            spent = spent.saturating_add(n / OCTETS_PER_COST);
                        }
                        Read::Again => {}
                        Read::Stop => return self.waiting(&mut now, Progress::Idle),
                    }
                }
                Poll::ShutWrite => {
                    if self.transport.shutdown(std::net::Shutdown::Write).is_err() {
                        self.machine.fail();
                    }
                }
                Poll::More => return self.more(),
                Poll::Paused => return self.waiting(&mut now, Progress::Paused),
                Poll::Idle => return self.waiting(&mut now, Progress::Idle),
                Poll::Close => return Progress::Close,
            }
        }
    }

    /// Hands a whole message to the dispatch, and its outcome to the
    /// machine.
    #[inline]
    fn dispatch(&mut self, core: &Arc<ServerCore>, now: &mut Now, incoming: Received) {
        self.dispatcher.probe.lap(Stage::ServerRead);
        let mut sink = Sink {
            transport: &mut *self.transport,
            output: self.machine.output(),
            writer: self.writer,
        };
        let next = self.dispatcher.handle(core, incoming, &mut sink);
        self.machine.dispatched(now, next);
    }

    /// One read of the transport into the machine.
    #[inline]
    fn read(&mut self, core: &ServerCore) -> Read {
        if self.writer.blocking && self.arm_read_timeout().is_err() {
            self.machine.fail();
            return Read::Again;
        }
        let transport = &mut *self.transport;
        match self.machine.receive_with(|buf| transport.read(buf)) {
            Ok(0) => {
                if core.stopping() || self.activity.is_shed() {
                    // Shutdown (or the acceptor, shedding it) ended the
                    // read: the request not started.
                    self.machine.shut_down();
                } else {
                    self.machine.end_of_stream();
                }
                Read::Again
            }
            Ok(n) => Read::Got(n),
            Err(e) => match e.kind() {
                std::io::ErrorKind::Interrupted => Read::Again,
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => Read::Stop,
                _ => {
                    self.machine.fail();
                    Read::Again
                }
            },
        }
    }

    /// A turn that spent its budget with more to do. Just refused (its
    /// answer queued), the connection lingers: the shedding is told it
    /// holds nothing worth keeping, and the answer goes out at once.
    fn more(&mut self) -> Progress {
        if self.machine.state() == State::Lingering && !self.machine.output().is_empty() {
            self.note_activity();
            if self.flush().is_err() {
                self.machine.fail();
                return Progress::Close;
            }
        }
        Progress::More
    }

    /// A turn that waits for input or room to write: unless queued
    /// replies have made no progress for the write timeout (nonblocking),
    /// which closes the connection.
    fn waiting(&mut self, now: &mut Now, progress: Progress) -> Progress {
        if !self.writer.blocking && self.machine.write_expired(now) {
            self.machine.fail();
            return Progress::Close;
        }
        progress
    }

    /// The lane's reader is told the next message's header has arrived.
    #[cold]
    fn read_ahead(
        &mut self,
        now: &mut Now,
        policy: &mut dyn ReadAhead,
        header: &FrameHeader,
        whole: bool,
    ) -> Option<Progress> {
        match policy.decide(header, whole, self.machine.reassembling()) {
            Ahead::Hold => Some(Progress::Waiting),
            Ahead::Refuse => {
                let refusal = policy.refusal();
                let how = self.machine.refuse_next(now, &refusal);
                policy.refused(how);
                if self.flush().is_err() {
                    self.machine.fail();
                }
                None
            }
        }
    }

    /// Blocking: sets the read timeout for the next read, if it changes:
    /// the time left until the machine's read deadline (at least a
    /// millisecond), at most the idle read timeout.
    fn arm_read_timeout(&mut self) -> std::io::Result<()> {
        let left = self.machine.read_deadline().map(|d| {
            d.saturating_duration_since(Instant::now())
                .max(Duration::from_millis(1))
        });
        let want = match (self.idle_read_timeout, left) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        if want != self.read_timeout {
            self.transport.set_read_timeout(want)?;
            self.read_timeout = want;
        }
        Ok(())
    }

    /// Tells the acceptor whether the connection holds anything now.
    #[inline]
    fn note_activity(&self) {
        self.activity
            .note(self.machine.quiet_for_shedding(), self.machine.completed());
    }

    /// Closes the connection that the acceptor chose to shed (not while a
    /// thread serves it), with `CloseConnection`: no request is being
    /// processed, so GIOP lets the server send it, and the client sends
    /// again on a new connection whatever it has not had answered (a
    /// request read but not started, or not yet read, included).
    pub(crate) fn shed(&mut self, core: &ServerCore) {
        if self.machine.state() == State::Open {
            self.machine.shut_down();
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
            conn.machine.shut_down();
            conn.close(core);
        }
    }

    /// Notes that the poller saw the peer close its side (or an error).
    pub(crate) fn set_read_closed(&mut self) {
        self.machine.set_read_closed();
    }

    /// Writes queued replies until done or the transport would block.
    pub(crate) fn flush(&mut self) -> std::io::Result<()> {
        flush(&mut *self.transport, self.machine.output())
    }

    /// When the connection must be served again if nothing happens (see
    /// [`Machine::poll_timeout`]).
    pub(crate) fn deadline(&self) -> Option<Instant> {
        self.machine.poll_timeout()
    }

    /// Ends the connection after the server's shutdown: `CloseConnection`
    /// after what is queued, then [`Connection::close`].
    pub(crate) fn shut_down(&mut self, core: &ServerCore) {
        self.machine.shut_down();
        self.close(core);
    }

    /// Sends what is queued, the last message among it, if it can, and
    /// shuts the transport down. While the ORB shuts down, it is written
    /// blocking, within the write timeout; otherwise a nonblocking
    /// connection makes one attempt and never waits.
    pub(crate) fn close(&mut self, core: &ServerCore) {
        if self.machine.state() == State::Closed {
            return;
        }
        self.machine.close();
        write_last(
            &mut *self.transport,
            self.machine.output(),
            self.writer.blocking,
            core.stopping(),
            core.limits.write_timeout,
        );
        // A shed connection's client may have written a request as it was
        // shed: what has arrived is read away, so that closing does not
        // reset the connection before the client has read
        // `CloseConnection` (a refused event-loop connection lingers
        // instead, and reads it away in turns).
        if (self.machine.refused() && self.writer.blocking) || self.activity.is_shed() {
            discard_at_once(&mut *self.transport);
        }
        let _ = self.transport.shutdown(std::net::Shutdown::Both);
        self.machine.closed();
    }
}

#[cfg(test)]
mod tests;
