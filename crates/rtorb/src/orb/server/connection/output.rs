//! The output of a connection's [`Machine`](super::machine::Machine):
//! the messages not yet written, in order, what they hold of the memory
//! budget, and the write timeout's clock. The writes themselves are the
//! driver's (`write.rs`).
//!
//! The messages the server sends on its own ([`Control`]) are written in
//! the connection's protocol: GIOPlite on a GIOPlite connection, else GIOP
//! in the version of the last message received (1.0 before any).

use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use rtorb_cdr::{ByteOrder, CdrEncode, Encoding, Version};
use rtorb_giop::message::{Content, Message, MessageWriter, ReplyHeader, ReplyStatus};
use rtorb_giop::{FrameProtocol, SystemException};

use super::super::budget::{Charge, MemoryBudget};
use super::now::Now;
use crate::transport::OutChain;

/// A message the server sends on its own, without a body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Control {
    /// The server closes the connection; requests not answered were not
    /// started.
    CloseConnection,
    /// The peer sent something malformed.
    MessageError,
}

/// What to do after a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Next {
    /// Go on with the next message.
    Continue,
    /// Send this message, if any, and close.
    Close(Option<Control>),
}

/// What a connection has to write.
pub(crate) struct Output {
    messaging: FrameProtocol,
    /// The GIOP version of the connection: that of the last message
    /// received (1.0 before any).
    version: Version,
    /// Messages not yet written.
    queue: OutChain,
    /// Since when queued output has made no progress.
    stalled_since: Option<Instant>,
    /// What the queued messages hold of the memory budget.
    charge: Charge,
}

impl Output {
    pub(crate) fn new(messaging: FrameProtocol, budget: &Arc<MemoryBudget>) -> Output {
        Output {
            messaging,
            version: Version::V1_0,
            queue: OutChain::new(),
            stalled_since: None,
            charge: Charge::new(budget),
        }
    }

    /// Notes the GIOP version of a message received: the server's own
    /// messages go out in it from now on.
    #[inline]
    pub(crate) fn set_version(&mut self, version: Version) {
        self.version = version;
    }

    /// Whether no message waits to be written.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// Octets waiting to be written.
    #[inline]
    pub(crate) fn queued(&self) -> usize {
        self.queue.len()
    }

    /// `control` (without a body) in the connection's protocol.
    #[cold]
    pub(crate) fn control(&self, control: Control) -> Bytes {
        let content = match control {
            Control::CloseConnection => Content::CloseConnection,
            Control::MessageError => Content::MessageError,
        };
        let msg = Message::new(self.version, ByteOrder::NATIVE, content);
        self.messaging.encode(&msg).unwrap_or_default()
    }

    /// Queues `control` behind the messages not yet written.
    #[cold]
    pub(crate) fn queue_control(&mut self, control: Control) {
        let message = self.control(control);
        self.push(message);
    }

    /// Queues a GIOP `Reply` to request `request_id`, in `order` and the
    /// connection's version, carrying `exception`.
    #[cold]
    pub(crate) fn queue_exception_reply(
        &mut self,
        request_id: u32,
        order: ByteOrder,
        exception: &SystemException,
    ) {
        let encoding = Encoding::native()
            .with_order(order)
            .with_version(self.version);
        let header = ReplyHeader::new(request_id, ReplyStatus::SystemException);
        let reply = MessageWriter::reply(encoding, &header).and_then(|mut w| {
            exception.encode(w.body())?;
            w.finish()
        });
        if let Ok(message) = reply {
            self.push(message);
        }
    }

    /// Queues `message` behind the others, charged to the memory budget.
    pub(crate) fn push(&mut self, message: Bytes) {
        self.queue.push(message);
        self.charge.follow_output(self.queue.len());
    }

    /// Queues `message` without charging it yet ([`Output::wrote`] does,
    /// after the write that follows).
    #[inline]
    pub(crate) fn push_uncharged(&mut self, message: Bytes) {
        self.queue.push(message);
    }

    /// The queue, for the driver to write its front.
    #[inline]
    pub(crate) fn queue_mut(&mut self) -> &mut OutChain {
        &mut self.queue
    }

    /// After the driver wrote (`progressed`: some octets went out): the
    /// write timeout's clock starts when the queue stops moving, and what
    /// is left is charged.
    pub(crate) fn wrote(&mut self, progressed: bool, now: &mut Now) {
        if self.queue.is_empty() {
            self.stalled_since = None;
        } else if progressed || self.stalled_since.is_none() {
            self.stalled_since = Some(now.get());
        }
        self.charge.follow_output(self.queue.len());
    }

    /// What is left is charged (after a last blocking write).
    pub(crate) fn recharge(&mut self) {
        self.charge.follow_output(self.queue.len());
    }

    /// When `write_timeout` falls due for queued messages that make no
    /// progress, if they are queued.
    pub(crate) fn deadline(&self, write_timeout: Duration) -> Option<Instant> {
        self.stalled_since.map(|t| t + write_timeout)
    }

    /// Whether queued messages have made no progress for `write_timeout`.
    pub(crate) fn expired(&self, now: &mut Now, write_timeout: Duration) -> bool {
        self.stalled_since
            .is_some_and(|t| now.get().saturating_duration_since(t) >= write_timeout)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rtorb_giop::{decode_lite, decode_message};

    fn budget() -> Arc<MemoryBudget> {
        Arc::new(MemoryBudget::new(usize::MAX))
    }

    #[test]
    fn control_messages_are_in_the_version_last_received() {
        let mut w = Output::new(FrameProtocol::Giop, &budget());
        let first = decode_message(w.control(Control::CloseConnection)).unwrap();
        assert_eq!(first.version, Version::V1_0);
        for v in [Version::V1_1, Version::V1_2, Version::V1_0] {
            w.set_version(v);
            let close = decode_message(w.control(Control::CloseConnection)).unwrap();
            assert_eq!(
                (close.version, close.content),
                (v, Content::CloseConnection)
            );
            let error = decode_message(w.control(Control::MessageError)).unwrap();
            assert_eq!((error.version, error.content), (v, Content::MessageError));
        }
    }

    #[test]
    fn control_messages_on_giop_lite_are_giop_lite() {
        let w = Output::new(FrameProtocol::Lite, &budget());
        let close = decode_lite(w.control(Control::CloseConnection)).unwrap();
        assert_eq!(close.content, Content::CloseConnection);
    }

    #[test]
    fn the_write_timeout_runs_while_the_queue_does_not_move() {
        let budget = budget();
        let mut out = Output::new(FrameProtocol::Giop, &budget);
        let t0 = Instant::now();
        let timeout = Duration::from_secs(5);
        out.push(Bytes::from_static(b"reply"));
        assert!(budget.used() > 0, "queued output is charged");
        out.wrote(false, &mut Now::at(t0));
        assert_eq!(out.deadline(timeout), Some(t0 + timeout));
        // No progress: the clock keeps its start.
        out.wrote(false, &mut Now::at(t0 + Duration::from_secs(3)));
        assert!(!out.expired(&mut Now::at(t0 + Duration::from_secs(4)), timeout));
        assert!(out.expired(&mut Now::at(t0 + timeout), timeout));
        // Progress starts it again; an empty queue stops it.
        out.wrote(true, &mut Now::at(t0 + Duration::from_secs(6)));
        assert!(!out.expired(&mut Now::at(t0 + Duration::from_secs(10)), timeout));
        out.queue_mut().write_to(&mut Sink).unwrap();
        out.wrote(true, &mut Now::at(t0 + Duration::from_secs(11)));
        assert_eq!(out.deadline(timeout), None);
        assert_eq!(budget.used(), 0, "an empty queue holds nothing");
    }

    /// A transport that takes everything.
    #[derive(Debug)]
    struct Sink;

    impl std::os::fd::AsRawFd for Sink {
        fn as_raw_fd(&self) -> std::os::fd::RawFd {
            -1
        }
    }

    impl crate::transport::Transport for Sink {
        fn protocol(&self) -> &'static str {
            "sink"
        }
        fn messaging(&self) -> FrameProtocol {
            FrameProtocol::Giop
        }
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Ok(0)
        }
        fn writev(&mut self, bufs: &[std::io::IoSlice<'_>]) -> std::io::Result<usize> {
            Ok(bufs.iter().map(|b| b.len()).sum())
        }
        fn shutdown(&mut self, _: std::net::Shutdown) -> std::io::Result<()> {
            Ok(())
        }
        fn peer(&self) -> String {
            "sink".into()
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
}
