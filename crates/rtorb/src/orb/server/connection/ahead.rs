//! Reading ahead for a lane whose threads are all busy (see the event
//! loop's `buffering.rs`): a connection's input is read until its next
//! message is whole, without running it, so that the message can wait for
//! a thread of the lane, or a request the lane has no room for is
//! answered at once.
//!
//! Only messages of at most [`UNCHARGED_MESSAGE`] octets are read ahead
//! (a larger one waits, read no further than its header, so that nothing
//! is held for it beyond what the memory budget charges when a thread
//! reads it). Nothing here runs an upcall.

use rtorb_giop::message::Content;
use rtorb_giop::{FrameHeader, SystemException, decode_message};

use super::super::ServerCore;
use super::super::budget::UNCHARGED_MESSAGE;
use super::{Connection, State};
use rtorb_giop::header::MsgType;

/// What reading ahead came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ahead {
    /// The next message is whole (or large, its header arrived): the
    /// connection waits, claimed, for a thread. `request` says whether it
    /// is a whole unfragmented request that `admit` took.
    Whole {
        /// The message's octets, header included.
        len: usize,
        /// Whether `admit` counted it.
        request: bool,
    },
    /// No message is whole and nothing else is due: let the connection go.
    Wait,
    /// The connection must be served, and serving it runs no message: it
    /// is closing, its input is malformed or ended, or a timeout is due.
    Serve,
}

/// The requests reading ahead answered without running them.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Refused {
    /// Requests answered with the refusal.
    pub(crate) answered: usize,
    /// Oneway requests dropped.
    pub(crate) dropped: usize,
}

impl Connection {
    /// Reads until the next message is whole, without running it. A whole
    /// unfragmented GIOP request of at most [`UNCHARGED_MESSAGE`] octets is
    /// offered to `admit` (with its length): if it takes it, the
    /// connection waits for a thread with it; if not, it is answered with
    /// `refusal` (a oneway is dropped) and reading goes on. Any other
    /// whole message waits for a thread, counted by nobody. Like a turn,
    /// it reads nothing while the connection's queued answers exceed the
    /// output bound.
    #[cold]
    pub(crate) fn read_ahead(
        &mut self,
        core: &ServerCore,
        admit: &mut dyn FnMut(usize) -> bool,
        refusal: &dyn Fn() -> SystemException,
        refused: &mut Refused,
    ) -> Ahead {
        loop {
            if self.state != State::Open || core.stopping() || self.activity.is_shed() {
                return Ahead::Serve;
            }
            if self.write.flush(&mut *self.transport).is_err() {
                return Ahead::Serve;
            }
            if self.write.queued() > core.limits.max_output_buffer
                || (!self.write.is_empty() && core.budget.spent())
            {
                // A client that does not read its answers is read no
                // further (room to write brings the connection back).
                return Ahead::Wait;
            }
            let next = match self.read.peek_next() {
                Err(()) => return Ahead::Serve,
                Ok(next) => next,
            };
            if let Some((h, whole)) = next {
                let len = h.message_len();
                if len > UNCHARGED_MESSAGE {
                    // Read by a thread, charged as it is.
                    return Ahead::Whole {
                        len,
                        request: false,
                    };
                }
                let refusable = match h {
                    FrameHeader::Giop(g) => g.msg_type == MsgType::Request && !g.more_fragments,
                    FrameHeader::Lite(_) => false,
                };
                if whole && (!refusable || self.dispatch.reassembling()) {
                    return Ahead::Whole {
                        len,
                        request: false,
                    };
                }
                if whole {
                    if admit(len) {
                        return Ahead::Whole { len, request: true };
                    }
                    self.refuse_ahead(refusal, refused);
                    continue;
                }
            }
            if self
                .read
                .partial_expired(core, self.dispatch.reassembling())
            {
                return Ahead::Serve;
            }
            match self.read.fill(&mut *self.transport) {
                Ok(0) => return Ahead::Serve,
                Ok(_) => {}
                Err(e) => match e.kind() {
                    std::io::ErrorKind::Interrupted => {}
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => {
                        return Ahead::Wait;
                    }
                    _ => return Ahead::Serve,
                },
            }
        }
    }

    /// Takes the whole request next in line and answers it with
    /// `refusal`, or drops it if it is a oneway.
    #[cold]
    fn refuse_ahead(&mut self, refusal: &dyn Fn() -> SystemException, refused: &mut Refused) {
        let Ok(Some(frame)) = self.read.next_frame() else {
            return;
        };
        self.read.handled();
        self.read.message_completed();
        self.completed = true;
        let Ok(message) = decode_message(frame) else {
            // No request id to answer: dropped.
            refused.dropped += 1;
            return;
        };
        let Content::Request(request) = &message.content else {
            return;
        };
        if !request.header.response_expected() {
            refused.dropped += 1;
            return;
        }
        self.write.set_version(message.version);
        self.write
            .queue_exception_reply(request.header.request_id, message.order, &refusal());
        let _ = self.write.flush(&mut *self.transport);
        refused.answered += 1;
    }
}
