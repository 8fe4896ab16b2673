//! A client connection used by one call at a time (the exclusive
//! connection strategy): the call writes its request and reads until its
//! own reply comes.

use std::time::{Duration, Instant};

use bytes::Bytes;
use rtorb_cdr::TransmissionCodeSets;
use rtorb_giop::{CompletionStatus, SystemException};

use super::error::{lost, not_started, protocol_error};
use super::reply::{Inbound, Outcome, read_answer};
use super::request::{Destination, Request, RequestHead, RequestWriter, WriteError};
use crate::transport::Transport;
use crate::whitebox::Stage;

/// One exclusive client connection, used by one call at a time.
#[derive(Debug)]
pub(super) struct Connection {
    transport: Box<dyn Transport>,
    inbound: Inbound,
    next_request_id: u32,
    writer: RequestWriter,
    /// Whether a call has already completed on it (a failure to send on a
    /// reused connection means the server closed it while idle).
    reused: bool,
    /// When it was last put back idle.
    idle_since: Instant,
}

impl Connection {
    /// A connection over `transport`, writing requests larger than
    /// `fragment_size` as fragments.
    pub(super) fn new(
        transport: Box<dyn Transport>,
        fragment_size: Option<usize>,
    ) -> Box<Connection> {
        let messaging = transport.messaging();
        Box::new(Connection {
            transport,
            inbound: Inbound::new(messaging),
            next_request_id: 0,
            writer: RequestWriter::new(messaging, fragment_size),
            reused: false,
            idle_since: Instant::now(),
        })
    }

    /// Sends `request` to `to` and, if it expects one, reads its answer.
    pub(super) fn exchange(
        &mut self,
        to: &Destination<'_>,
        request: Request<'_>,
        deadline: Option<Instant>,
    ) -> Result<Outcome, SystemException> {
        self.inbound.probe.restart();
        let request_id = self.next_request_id;
        self.next_request_id = self.next_request_id.wrapping_add(1);
        let head = RequestHead {
            to,
            request_id,
            request,
        };
        let written = self
            .writer
            .write(&mut *self.transport, &mut self.inbound.probe, head);
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

    /// Writes an encoded message that expects no reply, which announces
    /// the code sets `announced` in a `CodeSets` context if `Some`;
    /// whether it was written.
    pub(super) fn write_pieces(
        &mut self,
        pieces: &[Bytes],
        announced: Option<TransmissionCodeSets>,
    ) -> bool {
        let written = self.transport.write_all_vectored(pieces).is_ok();
        if written {
            self.writer.wrote_encoded(announced);
        }
        written
    }

    /// Marks that a call has completed on it.
    #[inline]
    pub(super) fn completed_call(&mut self) {
        self.reused = true;
    }

    /// Notes that it is put back idle now.
    pub(super) fn set_idle_since(&mut self, now: Instant) {
        self.idle_since = now;
    }

    /// Whether it has been idle `timeout` or longer at `now`.
    pub(super) fn idle_for(&self, now: Instant, timeout: Duration) -> bool {
        now.saturating_duration_since(self.idle_since) >= timeout
    }

    /// Shuts the connection down.
    pub(super) fn shutdown(&mut self) {
        let _ = self.transport.shutdown(std::net::Shutdown::Both);
    }
}
