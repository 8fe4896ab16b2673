//! A client connection shared by many calls at once (the multiplexed
//! connection strategy), with leader/followers on its replies.
//!
//! Every call registers its request id as a waiter, writes its request
//! (whole, under the write lock, so fragments of two requests never mix
//! on the wire), and waits for its own reply. The code sets announced on
//! the connection are kept under the write lock too: whichever call
//! writes first sends the `CodeSets` context, and every later request,
//! and its reply, uses the code sets it announced. Of the waiting threads, one
//! at a time is the leader: it holds the read side of the connection and
//! reads messages; a reply to another waiter is handed to it (waking that
//! thread only), a reply to nobody (a waiter that timed out and left) is
//! dropped. When the leader's own reply arrives, or its deadline passes,
//! it gives the read side back and wakes one follower, which becomes the
//! leader. Each waiter sleeps on a condition variable of its own, taken
//! from a per-connection stock, so a hand-over wakes one thread and
//! allocates nothing.
//!
//! A connection that breaks (the peer closes it, a read or write fails,
//! the peer sends what a client cannot accept) fails every waiter with
//! `COMM_FAILURE` and is not used again; a `CloseConnection` from the
//! server means none of the requests in flight was started, so each is
//! sent again on a new connection.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use rtorb_cdr::TransmissionCodeSets;
use rtorb_giop::{CompletionStatus, SystemException, SystemExceptionKind};

use super::reply::{IDLE_CHECK_AFTER, Inbound, Outcome, Received, read_answer};
use super::request::{Destination, Request, RequestHead, RequestWriter, WriteError};
use super::system_exceptions::{is_not_started, lost, not_started, protocol_error, timed_out};
use crate::probe::Probe;
use crate::sync::{Condvar, Mutex};
use crate::transport::Transport;

/// A connection that carries many requests at once.
#[derive(Debug)]
pub(super) struct MuxConnection {
    /// The sending side: one request written at a time.
    writer: Mutex<Writer>,
    next_request_id: AtomicU32,
    state: Mutex<State>,
}

/// The write side of the connection.
#[derive(Debug)]
struct Writer {
    transport: Box<dyn Transport>,
    requests: RequestWriter,
}

/// The read side of the connection.
#[derive(Debug)]
struct ReadSide {
    transport: Box<dyn Transport>,
    inbound: Inbound,
}

#[derive(Debug)]
struct State {
    /// Absent while a leader reads.
    read_side: Option<ReadSide>,
    waiters: Vec<Waiter>,
    /// Condition variables of waiters that have left, for the next ones.
    spare: Vec<Arc<Condvar>>,
    broken: bool,
    /// When the last call on it ended.
    last_used: Instant,
}

#[derive(Debug)]
struct Waiter {
    request_id: u32,
    answer: Option<Answer>,
    /// Signalled when the answer is set or the waiter should lead.
    wake: Arc<Condvar>,
}

impl State {
    /// Removes the waiter of `request_id`, keeping its condition variable.
    fn remove(&mut self, request_id: u32) -> Option<Option<Answer>> {
        let i = self
            .waiters
            .iter()
            .position(|w| w.request_id == request_id)?;
        let w = self.waiters.swap_remove(i);
        self.spare.push(w.wake);
        self.last_used = Instant::now();
        Some(w.answer)
    }

    /// Wakes a waiter without an answer to lead, if the read side is free.
    fn wake_leader(&self) {
        if self.read_side.is_some() {
            if let Some(w) = self.waiters.iter().find(|w| w.answer.is_none()) {
                w.wake.notify_one();
            }
        }
    }
}

/// What a waiter gets. Kept inline (not boxed) so that handing a reply
/// over allocates nothing; waiters live in a reused vector.
#[derive(Debug)]
#[allow(clippy::large_enum_variant)]
enum Answer {
    Reply(Received),
    NotStarted,
    Lost,
}

impl MuxConnection {
    /// Shares `transport`; gives it back if it cannot be read and written
    /// from two threads ([`Transport::try_clone_box`]).
    pub(super) fn new(
        transport: Box<dyn Transport>,
        fragment_size: Option<usize>,
    ) -> Result<MuxConnection, Box<dyn Transport>> {
        let messaging = transport.messaging();
        let Ok(reader) = transport.try_clone_box() else {
            return Err(transport);
        };
        Ok(MuxConnection {
            writer: Mutex::new(Writer {
                transport,
                requests: RequestWriter::new(messaging, fragment_size),
            }),
            next_request_id: AtomicU32::new(0),
            state: Mutex::new(State {
                read_side: Some(ReadSide {
                    transport: reader,
                    inbound: Inbound::new(messaging),
                }),
                waiters: Vec::new(),
                spare: Vec::new(),
                broken: false,
                last_used: Instant::now(),
            }),
        })
    }

    /// Whether new calls may use it.
    pub(super) fn is_usable(&self) -> bool {
        !self.state.lock().broken
    }

    /// Whether new calls may use it, looking, when it has had no call in
    /// flight for [`IDLE_CHECK_AFTER`], whether the server closed it
    /// meanwhile ([`Inbound::closed_while_idle`]); if it did, it is not
    /// used again, and no request was written into it since.
    pub(super) fn is_usable_now(&self) -> bool {
        let closed = {
            let st = self.state.lock();
            if st.broken {
                return false;
            }
            // With no waiter, no request expecting a reply is written:
            // one that comes next registers first, under this lock.
            match &st.read_side {
                Some(side) if st.waiters.is_empty() => {
                    st.last_used.elapsed() >= IDLE_CHECK_AFTER
                        && side.inbound.closed_while_idle(&*side.transport)
                }
                _ => false,
            }
        };
        if closed {
            self.fail(Answer::NotStarted);
        }
        !closed
    }

    /// Calls waiting for a reply on it.
    pub(super) fn in_flight(&self) -> usize {
        self.state.lock().waiters.len()
    }

    /// How long it has had no call in flight, if it has none.
    pub(super) fn unused_for(&self, now: Instant) -> Option<Duration> {
        let st = self.state.lock();
        st.waiters
            .is_empty()
            .then(|| now.saturating_duration_since(st.last_used))
    }

    /// Closes it: no new call uses it, calls in flight fail.
    pub(super) fn close(&self) {
        self.fail(Answer::Lost);
    }

    /// Marks it broken, gives every waiter `answer`, and shuts the socket
    /// down so that a leader blocked in a read wakes up.
    fn fail(&self, answer: Answer) {
        {
            let mut st = self.state.lock();
            st.broken = true;
            for w in st.waiters.iter_mut().filter(|w| w.answer.is_none()) {
                w.answer = Some(match answer {
                    Answer::NotStarted => Answer::NotStarted,
                    _ => Answer::Lost,
                });
                w.wake.notify_one();
            }
        }
        let _ = self
            .writer
            .lock()
            .transport
            .shutdown(std::net::Shutdown::Both);
    }

    /// Writes an encoded message that expects no reply, which announces
    /// the code sets `announced` in a `CodeSets` context if `Some`; whether
    /// it was written (a connection that fails to write is not used
    /// again).
    pub(super) fn write_pieces(
        &self,
        pieces: &[Bytes],
        announced: Option<TransmissionCodeSets>,
    ) -> bool {
        let written = {
            let mut writer = self.writer.lock();
            let written = writer.transport.write_all_vectored(pieces);
            if written.is_ok() {
                writer.requests.wrote_encoded(announced);
            }
            written
        };
        self.state.lock().last_used = Instant::now();
        if written.is_err() {
            self.fail(Answer::Lost);
        }
        written.is_ok()
    }

    /// Sends `request` and, if it expects one, waits for its answer.
    pub(super) fn exchange(
        &self,
        to: &Destination<'_>,
        request: Request<'_>,
        deadline: Option<Instant>,
    ) -> Result<Outcome, SystemException> {
        let request_id = self.next_request_id.fetch_add(1, Ordering::Relaxed);
        let expects = request.expects_reply();
        {
            let mut st = self.state.lock();
            if st.broken {
                return Err(not_started());
            }
            if expects {
                let wake = st.spare.pop().unwrap_or_default();
                st.waiters.push(Waiter {
                    request_id,
                    answer: None,
                    wake,
                });
            }
        }
        let written = {
            let mut writer = self.writer.lock();
            let Writer {
                transport,
                requests,
            } = &mut *writer;
            let head = RequestHead {
                to,
                request_id,
                request,
            };
            requests.write(&mut **transport, &mut Probe::start(), head)
        };
        let tcs = match written {
            Ok(tcs) => tcs,
            Err(e) => {
                self.leave(request_id);
                return Err(match e {
                    WriteError::Encode(e) => e,
                    // Not all of it went out: the server cannot have
                    // started it.
                    WriteError::Io => {
                        self.fail(Answer::Lost);
                        not_started()
                    }
                });
            }
        };
        if !expects {
            self.state.lock().last_used = Instant::now();
            return Ok(Outcome::Sent);
        }
        let received = self.wait(request_id, deadline)?;
        read_answer(received, tcs)
    }

    /// Removes the waiter of `request_id` (its late reply, if any, will be
    /// dropped).
    fn leave(&self, request_id: u32) {
        let mut st = self.state.lock();
        st.remove(request_id);
        st.last_used = Instant::now();
        st.wake_leader();
    }

    /// Waits for the answer to `request_id`, leading when the read side
    /// is free.
    fn wait(
        &self,
        request_id: u32,
        deadline: Option<Instant>,
    ) -> Result<Received, SystemException> {
        let mut st = self.state.lock();
        loop {
            let Some(mine) = st.waiters.iter().find(|w| w.request_id == request_id) else {
                return Err(lost(CompletionStatus::Maybe));
            };
            let wake = Arc::clone(&mine.wake);
            if mine.answer.is_some() {
                return match st.remove(request_id).flatten() {
                    Some(Answer::Reply(r)) => Ok(r),
                    Some(Answer::NotStarted) => Err(not_started()),
                    _ => Err(lost(CompletionStatus::Maybe)),
                };
            }
            let now = Instant::now();
            if st.broken || deadline.is_some_and(|d| now >= d) {
                st.remove(request_id);
                // If we were to lead, another must.
                st.wake_leader();
                return Err(if st.broken {
                    lost(CompletionStatus::Maybe)
                } else {
                    timed_out()
                });
            }
            if let Some(mut side) = st.read_side.take() {
                drop(st);
                let led = self.lead(&mut side, request_id, deadline);
                st = self.state.lock();
                if !st.broken {
                    st.read_side = Some(side);
                }
                st.remove(request_id);
                // The next waiter leads.
                st.wake_leader();
                return led;
            }
            st = match deadline {
                None => wake.wait(st),
                Some(d) => wake.wait_timeout(st, d.saturating_duration_since(now)).0,
            };
        }
    }

    /// Reads messages as the leader until the answer to `request_id`
    /// comes, handing the others to their waiters.
    fn lead(
        &self,
        side: &mut ReadSide,
        request_id: u32,
        deadline: Option<Instant>,
    ) -> Result<Received, SystemException> {
        loop {
            let read = side.inbound.read_message(&mut *side.transport, deadline);
            let received = match read {
                Ok(m) => m,
                // Our deadline: the connection is fine, another may lead.
                Err(e) if e.kind() == Some(SystemExceptionKind::Timeout) => {
                    return Err(e);
                }
                Err(e) => {
                    self.fail(Answer::Lost);
                    return Err(if is_not_started(&e) {
                        lost(CompletionStatus::Maybe)
                    } else {
                        e
                    });
                }
            };
            match received.answers() {
                Some(id) if id == request_id => return Ok(received),
                Some(id) => {
                    let mut st = self.state.lock();
                    let waiter = st
                        .waiters
                        .iter_mut()
                        .find(|w| w.request_id == id && w.answer.is_none());
                    if let Some(w) = waiter {
                        w.answer = Some(Answer::Reply(received));
                        w.wake.notify_one();
                    }
                    // Else its caller has left: dropped.
                }
                None if received.is_close() => {
                    self.fail(Answer::NotStarted);
                    return Err(not_started());
                }
                None => {
                    self.fail(Answer::Lost);
                    return Err(protocol_error());
                }
            }
        }
    }
}
