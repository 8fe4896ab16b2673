//! The close of a connection whose message was refused (too large, or
//! over the memory budget): the answer goes out, the server's side of the
//! stream ends, and what the peer still sends of the refused message is
//! read away before the connection closes.
//!
//! Closing a socket that holds unread input resets the connection, and a
//! reset can reach the peer before it has read the answer. So the rest of
//! the refused message is read away, up to [`DISCARD_LIMIT`] octets: a peer
//! that stops sending (and reads) gets an orderly close. A peer that goes
//! on sending is stopped by a full window once the limit is read, and its
//! connection closed at [`LINGER`] after the refusal, by which time the
//! answer has long reached it.
//!
//! In the event loop this is a state of the connection ([`Linger`]),
//! driven by readiness: each turn reads at most a turn's worth, so a
//! refused connection costs the loop a bounded amount of work per turn and
//! per connection, whatever the peer sends. A thread of its own (thread per
//! connection) reads it away at once ([`discard_at_once`]).

use std::time::{Duration, Instant};

use crate::transport::Transport;

/// The most octets of a refused message read away before its connection
/// closes.
pub(super) const DISCARD_LIMIT: usize = 1024 * 1024;

/// How long after a refusal the connection closes, if its peer has not
/// ended its stream by then.
pub(super) const LINGER: Duration = Duration::from_secs(2);

/// What is read at once.
const SCRATCH: usize = 16 * 1024;

/// What a turn of a lingering connection came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Step {
    /// Nothing more to read for now: wait for input, the peer's end of
    /// stream, or the deadline.
    Wait,
    /// The turn's budget is spent and more may be waiting.
    More,
    /// Close now: the peer ended its stream, or the deadline passed.
    Close,
}

/// A refused connection closing: what it has read away, and until when
/// it waits.
#[derive(Debug)]
pub(super) struct Linger {
    until: Instant,
    discarded: usize,
    write_shut: bool,
}

impl Linger {
    /// Lingering from now.
    pub(super) fn new() -> Linger {
        Linger {
            until: Instant::now() + LINGER,
            discarded: 0,
            write_shut: false,
        }
    }

    /// When the connection closes at the latest.
    pub(super) fn deadline(&self) -> Instant {
        self.until
    }

    /// One turn, once everything queued on the connection is written: ends
    /// the server's side of the stream (the first time), then reads away
    /// what has arrived, about `most` octets at most (whole reads of up to
    /// 16 KiB) and [`DISCARD_LIMIT`] in all. `read_closed`: the poller saw
    /// the peer end its stream or an error.
    pub(super) fn turn(
        &mut self,
        transport: &mut dyn Transport,
        most: usize,
        read_closed: bool,
    ) -> Step {
        if !self.write_shut {
            self.write_shut = true;
            if transport.shutdown(std::net::Shutdown::Write).is_err() {
                return Step::Close;
            }
        }
        if Instant::now() >= self.until {
            return Step::Close;
        }
        let mut scratch = [0u8; SCRATCH];
        let mut read = 0usize;
        while self.discarded < DISCARD_LIMIT {
            if read >= most.max(1) {
                return Step::More;
            }
            let want = SCRATCH.min(DISCARD_LIMIT - self.discarded);
            match transport.read(&mut scratch[..want]) {
                Ok(0) => return Step::Close,
                Ok(n) => {
                    self.discarded += n;
                    read += n;
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return Step::Wait,
                Err(_) => return Step::Close,
            }
        }
        // Nothing more is read: the peer's sending stalls, and only its
        // end of stream (an event) or the deadline ends the wait.
        if read_closed { Step::Close } else { Step::Wait }
    }
}

/// Reads away at once what of a refused message has already arrived, at
/// most [`DISCARD_LIMIT`] octets, without waiting, having ended the
/// server's side of the stream (on a connection with a thread of its own).
#[cold]
pub(super) fn discard_at_once(transport: &mut dyn Transport) {
    let _ = transport.shutdown(std::net::Shutdown::Write);
    if transport.set_nonblocking(true).is_err() {
        return;
    }
    let mut scratch = [0u8; 4096];
    let mut left = DISCARD_LIMIT;
    while left > 0 {
        match transport.read(&mut scratch) {
            Ok(0) => return,
            Ok(n) => left = left.saturating_sub(n),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};
    use std::os::unix::net::UnixStream;
    use std::sync::Arc;

    use rtorb_giop::message::{Content, ReplyStatus};
    use rtorb_giop::{FrameDecoder, FrameProtocol, decode_message};

    use super::*;
    use crate::orb::OrbConfig;
    use crate::orb::server::ServerCore;
    use crate::orb::server::ServerLimits;
    use crate::orb::server::connection::{Connection, Progress, State};
    use crate::poa::table::AdapterTable;
    use crate::runtime::NoInvoker;
    use crate::transport::UnixTransport;

    /// A peer that always has more to send.
    #[derive(Debug, Default)]
    struct Source {
        read: usize,
        write_shut: usize,
    }

    impl std::os::fd::AsRawFd for Source {
        fn as_raw_fd(&self) -> std::os::fd::RawFd {
            -1
        }
    }

    impl Transport for Source {
        fn protocol(&self) -> &'static str {
            "source"
        }
        fn messaging(&self) -> FrameProtocol {
            FrameProtocol::Giop
        }
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            self.read += buf.len();
            Ok(buf.len())
        }
        fn writev(&mut self, bufs: &[std::io::IoSlice<'_>]) -> std::io::Result<usize> {
            Ok(bufs.iter().map(|b| b.len()).sum())
        }
        fn shutdown(&mut self, how: std::net::Shutdown) -> std::io::Result<()> {
            if how == std::net::Shutdown::Write {
                self.write_shut += 1;
            }
            Ok(())
        }
        fn peer(&self) -> String {
            "source".into()
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
    fn a_turn_reads_away_a_bounded_amount_and_the_whole_a_bounded_total() {
        const MOST: usize = 64 * 1024;
        let mut source = Source::default();
        let mut linger = Linger::new();
        let mut turns = 0;
        loop {
            let before = source.read;
            let step = linger.turn(&mut source, MOST, false);
            assert!(
                source.read - before <= MOST + SCRATCH,
                "a turn read {}",
                source.read - before
            );
            turns += 1;
            match step {
                Step::More => {}
                Step::Wait => break,
                Step::Close => panic!("closed before its deadline"),
            }
        }
        assert_eq!(source.read, DISCARD_LIMIT);
        assert_eq!(turns, DISCARD_LIMIT / MOST);
        assert_eq!(source.write_shut, 1, "the server's side ends once");
        // Nothing more is read: the peer's end of stream, or the
        // deadline, closes it.
        assert_eq!(linger.turn(&mut source, MOST, false), Step::Wait);
        assert_eq!(source.read, DISCARD_LIMIT);
        assert_eq!(linger.turn(&mut source, MOST, true), Step::Close);
        let mut due = Linger {
            until: Instant::now(),
            ..Linger::new()
        };
        assert_eq!(due.turn(&mut source, MOST, false), Step::Close);
    }

    #[test]
    fn a_refused_peer_that_goes_on_sending_reads_the_answer_and_an_orderly_end() {
        let core = Arc::new(ServerCore::new(
            ServerLimits::from_config(&OrbConfig::default()),
            Arc::new(NoInvoker),
            AdapterTable::new(16),
        ));
        let (server, mut peer) = UnixStream::pair().unwrap();
        let transport =
            UnixTransport::from_socket(server, "uiop", FrameProtocol::Giop, "peer".into()).unwrap();
        let mut conn = Connection::new(&core, Box::new(transport), false).unwrap();
        peer.set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        // A GIOP 1.2 request of 32 MiB, over the largest message, id 9;
        // its body sent without end until the server closes.
        let mut start = b"GIOP\x01\x02\x00\x00".to_vec();
        start.extend_from_slice(&(32u32 << 20).to_be_bytes());
        start.extend_from_slice(&9u32.to_be_bytes());
        peer.write_all(&start).unwrap();
        let mut writer = peer.try_clone().unwrap();
        let sender = std::thread::spawn(move || {
            let chunk = [0u8; 8192];
            while writer.write_all(&chunk).is_ok() {}
        });
        // The refusal: not closed at once, but lingering, its turn after
        // the others'.
        assert_eq!(
            conn.receive(&core, crate::orb::server::MESSAGES_PER_TURN),
            Progress::More
        );
        assert_eq!(conn.state(), State::Lingering);
        // The peer reads the answer and the end of the server's stream,
        // while it is still sending, as the turns read away what it sends.
        let reader = std::thread::spawn(move || {
            let mut all = Vec::new();
            let end = peer.read_to_end(&mut all).map(|_| all);
            (peer, end)
        });
        while !reader.is_finished() {
            match conn.receive(&core, crate::orb::server::MESSAGES_PER_TURN) {
                Progress::More | Progress::Idle => {}
                p => panic!("{p:?} before the peer had read the answer"),
            }
        }
        let (peer, end) = reader.join().unwrap();
        let all = end.expect("an orderly end of stream");
        let mut decoder = FrameDecoder::with_max_message_size(FrameProtocol::Giop, u32::MAX);
        decoder.push(&all).unwrap();
        let reply = decode_message(decoder.next_frame().unwrap().unwrap()).unwrap();
        let Content::Reply(r) = &reply.content else {
            panic!("{reply:?}");
        };
        assert_eq!(r.header.request_id, 9);
        assert_eq!(r.header.reply_status, ReplyStatus::SystemException);
        let close = decode_message(decoder.next_frame().unwrap().unwrap()).unwrap();
        assert_eq!(close.content, Content::CloseConnection);
        assert_eq!(decoder.buffered(), 0);
        // The peer closes: so does the server.
        peer.shutdown(std::net::Shutdown::Both).unwrap();
        drop(peer);
        sender.join().unwrap();
        conn.set_read_closed();
        while conn.receive(&core, crate::orb::server::MESSAGES_PER_TURN) != Progress::Close {}
        conn.close(&core);
        assert_eq!(conn.state(), State::Closed);
    }
}
