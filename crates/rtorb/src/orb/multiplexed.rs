//! A client connection shared by many calls at once (the multiplexed
//! connection strategy), with leader/followers on its replies.
//!
//! Every call registers its request id as a waiter, writes its request
//! (whole, under the write lock, so fragments of two requests never mix
//! on the wire), and waits for its own reply. Of the waiting threads, one
//! at a time is the leader: it holds the read side of the connection and
//! reads messages; a reply to another waiter is handed to it (and the
//! waiters are woken), a reply to nobody (a waiter that timed out and
//! left) is dropped. When the leader's own reply arrives, or its deadline
//! passes, it gives the read side back and wakes the waiters, and the
//! next one to see it free becomes the leader.
//!
//! A connection that breaks (the peer closes it, a read or write fails,
//! the peer sends what a client cannot accept) fails every waiter with
//! `COMM_FAILURE` and is not used again; a `CloseConnection` from the
//! server means none of the requests in flight was started, so each is
//! sent again on a new connection.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use rtorb_cdr::Encoding;
use rtorb_giop::message::{Content, Message};
use rtorb_giop::{CompletionStatus, FrameProtocol, SystemExceptionKind};

use super::client::{
    BUFFER_CAPACITY, Failure, Inbound, Outcome, Request, WriteError, answered, lock, lost,
    protocol_error, read_answer, timed_out, write_request,
};
use crate::runtime::BufferPool;
use crate::transport::Transport;

/// A connection that carries many requests at once.
#[derive(Debug)]
pub(super) struct MuxConnection {
    /// The sending side: one request written at a time.
    writer: Mutex<Box<dyn Transport>>,
    buffers: BufferPool,
    messaging: FrameProtocol,
    max_message_size: Option<usize>,
    next_request_id: AtomicU32,
    state: Mutex<State>,
    /// Signalled when a reply is handed over, the read side is given back,
    /// or the connection breaks.
    changed: Condvar,
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
    broken: bool,
    /// Whether a call has completed on it (a failure to send after that
    /// means the server closed it while idle).
    reused: bool,
    /// When the last call on it ended.
    last_used: Instant,
}

#[derive(Debug)]
struct Waiter {
    request_id: u32,
    answer: Option<Answer>,
}

/// What a waiter gets. Kept inline (not boxed) so that handing a reply
/// over allocates nothing; waiters live in a reused vector.
#[derive(Debug)]
#[allow(clippy::large_enum_variant)]
enum Answer {
    Reply(Message, Bytes),
    NotStarted,
    Lost,
}

impl MuxConnection {
    /// Shares `transport`; gives it back if it cannot be read and written
    /// from two threads ([`Transport::try_clone_box`]).
    pub(super) fn new(
        transport: Box<dyn Transport>,
        max_message_size: Option<usize>,
    ) -> Result<MuxConnection, Box<dyn Transport>> {
        let messaging = transport.messaging();
        let Ok(reader) = transport.try_clone_box() else {
            return Err(transport);
        };
        Ok(MuxConnection {
            writer: Mutex::new(transport),
            buffers: BufferPool::new(BUFFER_CAPACITY),
            messaging,
            max_message_size,
            next_request_id: AtomicU32::new(0),
            state: Mutex::new(State {
                read_side: Some(ReadSide {
                    transport: reader,
                    inbound: Inbound::new(messaging),
                }),
                waiters: Vec::new(),
                broken: false,
                reused: false,
                last_used: Instant::now(),
            }),
            changed: Condvar::new(),
        })
    }

    /// Whether new calls may use it.
    pub(super) fn is_usable(&self) -> bool {
        !lock(&self.state).broken
    }

    /// Calls waiting for a reply on it.
    pub(super) fn in_flight(&self) -> usize {
        lock(&self.state).waiters.len()
    }

    /// How long it has had no call in flight, if it has none.
    pub(super) fn unused_for(&self, now: Instant) -> Option<Duration> {
        let st = lock(&self.state);
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
            let mut st = lock(&self.state);
            st.broken = true;
            for w in st.waiters.iter_mut().filter(|w| w.answer.is_none()) {
                w.answer = Some(match answer {
                    Answer::NotStarted => Answer::NotStarted,
                    _ => Answer::Lost,
                });
            }
        }
        self.changed.notify_all();
        let _ = lock(&self.writer).shutdown(std::net::Shutdown::Both);
    }

    /// Writes an encoded message that expects no reply; whether it was
    /// written (a connection that fails to write is not used again).
    pub(super) fn write_pieces(&self, pieces: &[Bytes]) -> bool {
        let written = lock(&self.writer).write_all_vectored(pieces);
        lock(&self.state).last_used = Instant::now();
        if written.is_err() {
            self.fail(Answer::Lost);
        }
        written.is_ok()
    }

    /// Sends `request` and, if it expects one, waits for its answer.
    pub(super) fn exchange(
        &self,
        encoding: Encoding,
        object_key: &Bytes,
        request: Request<'_>,
        deadline: Option<Instant>,
    ) -> Result<Outcome, Failure> {
        let request_id = self.next_request_id.fetch_add(1, Ordering::Relaxed);
        let expects = request.expects_reply();
        let reused = {
            let mut st = lock(&self.state);
            if st.broken {
                return Err(Failure::NotStarted);
            }
            if expects {
                st.waiters.push(Waiter {
                    request_id,
                    answer: None,
                });
            }
            st.reused
        };
        let written = {
            let mut transport = lock(&self.writer);
            write_request(
                &mut **transport,
                &self.buffers,
                self.messaging,
                encoding,
                object_key,
                request_id,
                request,
                self.max_message_size,
            )
        };
        if let Err(e) = written {
            self.leave(request_id);
            return Err(match e {
                WriteError::Encode(e) => Failure::Failed(e),
                WriteError::Io => {
                    self.fail(Answer::Lost);
                    if reused {
                        Failure::NotStarted
                    } else {
                        Failure::Failed(lost(CompletionStatus::Maybe))
                    }
                }
            });
        }
        if !expects {
            lock(&self.state).last_used = Instant::now();
            return Ok(Outcome::Sent);
        }
        let (msg, message) = self.wait(request_id, deadline)?;
        read_answer(&msg, &message).map_err(Failure::Failed)
    }

    /// Removes the waiter of `request_id` (its late reply, if any, will be
    /// dropped).
    fn leave(&self, request_id: u32) {
        let mut st = lock(&self.state);
        st.waiters.retain(|w| w.request_id != request_id);
        st.last_used = Instant::now();
    }

    /// Waits for the answer to `request_id`, leading when the read side
    /// is free.
    fn wait(
        &self,
        request_id: u32,
        deadline: Option<Instant>,
    ) -> Result<(Message, Bytes), Failure> {
        let mut st = lock(&self.state);
        loop {
            let mine = st.waiters.iter().position(|w| w.request_id == request_id);
            let Some(i) = mine else {
                return Err(Failure::Failed(lost(CompletionStatus::Maybe)));
            };
            if st.waiters[i].answer.is_some() {
                let w = st.waiters.swap_remove(i);
                st.last_used = Instant::now();
                return match w.answer {
                    Some(Answer::Reply(m, b)) => {
                        st.reused = true;
                        Ok((m, b))
                    }
                    Some(Answer::NotStarted) => Err(Failure::NotStarted),
                    _ => Err(Failure::Failed(lost(CompletionStatus::Maybe))),
                };
            }
            let now = Instant::now();
            if st.broken || deadline.is_some_and(|d| now >= d) {
                st.waiters.swap_remove(i);
                st.last_used = now;
                return Err(Failure::Failed(if st.broken {
                    lost(CompletionStatus::Maybe)
                } else {
                    timed_out()
                }));
            }
            if let Some(mut side) = st.read_side.take() {
                drop(st);
                let led = self.lead(&mut side, request_id, deadline);
                st = lock(&self.state);
                if !st.broken {
                    st.read_side = Some(side);
                }
                st.waiters.retain(|w| w.request_id != request_id);
                st.last_used = Instant::now();
                if led.is_ok() {
                    st.reused = true;
                }
                drop(st);
                // The next waiter to see the read side free leads.
                self.changed.notify_all();
                return led;
            }
            st = match deadline {
                None => match self.changed.wait(st) {
                    Ok(g) => g,
                    Err(p) => p.into_inner(),
                },
                Some(d) => {
                    match self
                        .changed
                        .wait_timeout(st, d.saturating_duration_since(now))
                    {
                        Ok((g, _)) => g,
                        Err(p) => p.into_inner().0,
                    }
                }
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
    ) -> Result<(Message, Bytes), Failure> {
        loop {
            let read = side.inbound.read_message(&mut *side.transport, deadline);
            let (msg, message) = match read {
                Ok(m) => m,
                // Our deadline: the connection is fine, another may lead.
                Err(Failure::Failed(e)) if e.kind() == Some(SystemExceptionKind::Timeout) => {
                    return Err(Failure::Failed(e));
                }
                Err(e) => {
                    self.fail(Answer::Lost);
                    return Err(match e {
                        Failure::Failed(e) => Failure::Failed(e),
                        Failure::NotStarted => Failure::Failed(lost(CompletionStatus::Maybe)),
                    });
                }
            };
            match answered(&msg) {
                Some(id) if id == request_id => return Ok((msg, message)),
                Some(id) => {
                    let mut st = lock(&self.state);
                    let waiter = st
                        .waiters
                        .iter_mut()
                        .find(|w| w.request_id == id && w.answer.is_none());
                    if let Some(w) = waiter {
                        w.answer = Some(Answer::Reply(msg, message));
                        drop(st);
                        self.changed.notify_all();
                    }
                    // Else its caller has left: dropped.
                }
                None if matches!(msg.content, Content::CloseConnection) => {
                    self.fail(Answer::NotStarted);
                    return Err(Failure::NotStarted);
                }
                None => {
                    self.fail(Answer::Lost);
                    return Err(Failure::Failed(protocol_error()));
                }
            }
        }
    }
}
