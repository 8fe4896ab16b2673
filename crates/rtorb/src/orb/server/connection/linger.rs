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
//! On a nonblocking connection this is a state of the machine
//! ([`Linger`]), driven like any other turn: each turn reads at most a
//! turn's worth, so a refused connection costs the event loop a bounded
//! amount of work per turn, whatever the peer sends. A connection with a
//! thread of its own reads it away at once as it closes
//! ([`discard_at_once`]).

use std::time::{Duration, Instant};

use super::now::Now;
use crate::transport::Transport;

/// The most octets of a refused message read away before its connection
/// closes.
pub(crate) const DISCARD_LIMIT: usize = 1024 * 1024;

/// How long after a refusal the connection closes, if its peer has not
/// ended its stream by then.
pub(crate) const LINGER: Duration = Duration::from_secs(2);

/// The most read away at once.
pub(crate) const SCRATCH: usize = 16 * 1024;

/// What a lingering connection does next, once everything queued on it
/// is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// End the server's side of the stream (the first time).
    ShutWrite,
    /// Read away up to this many octets.
    Read(usize),
    /// Nothing more is read: wait for the peer's end of stream, or the
    /// deadline.
    Wait,
    /// Close now: the deadline passed, or the peer ended its stream.
    Close,
}

/// A refused connection closing: what it has read away, and until when
/// it waits.
#[derive(Debug)]
pub(crate) struct Linger {
    until: Instant,
    discarded: usize,
    write_shut: bool,
}

impl Linger {
    /// Lingering from `now`.
    pub(crate) fn new(now: Instant) -> Linger {
        Linger {
            until: now + LINGER,
            discarded: 0,
            write_shut: false,
        }
    }

    /// When the connection closes at the latest.
    pub(crate) fn deadline(&self) -> Instant {
        self.until
    }

    /// The next step: the server's side of the stream ends first; then
    /// what has arrived is read away, [`DISCARD_LIMIT`] octets in all,
    /// until the deadline. `read_closed`: the poller saw the peer end its
    /// stream (or an error).
    pub(crate) fn next(&mut self, now: &mut Now, read_closed: bool) -> Step {
        if !self.write_shut {
            self.write_shut = true;
            return Step::ShutWrite;
        }
        if now.get() >= self.until {
            return Step::Close;
        }
        if self.discarded < DISCARD_LIMIT {
            return Step::Read(self.wanted());
        }
        // Nothing more is read: the peer's sending stalls, and only its
        // end of stream (an event) or the deadline ends the wait.
        if read_closed { Step::Close } else { Step::Wait }
    }

    /// The most octets to read away next.
    pub(crate) fn wanted(&self) -> usize {
        SCRATCH.min(DISCARD_LIMIT.saturating_sub(self.discarded))
    }

    /// `n` octets were read away.
    pub(crate) fn discarded(&mut self, n: usize) {
        self.discarded = self.discarded.saturating_add(n);
    }
}

/// Reads away at once what of a refused message has already arrived, at
/// most [`DISCARD_LIMIT`] octets, without waiting, having ended the
/// server's side of the stream (on a connection with a thread of its own).
#[cold]
pub(crate) fn discard_at_once(transport: &mut dyn Transport) {
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
    use super::*;

    #[test]
    fn a_linger_ends_the_stream_reads_away_a_bounded_total_and_ends_at_its_deadline() {
        let t0 = Instant::now();
        let mut linger = Linger::new(t0);
        assert_eq!(linger.deadline(), t0 + LINGER);
        let now = || Now::at(t0);
        assert_eq!(linger.next(&mut now(), false), Step::ShutWrite);
        let mut total = 0;
        loop {
            match linger.next(&mut now(), false) {
                Step::Read(n) => {
                    assert!(n <= SCRATCH);
                    linger.discarded(n);
                    total += n;
                }
                Step::Wait => break,
                step => panic!("{step:?} before the limit"),
            }
        }
        assert_eq!(total, DISCARD_LIMIT);
        // The peer's end of stream, or the deadline, closes it.
        assert_eq!(linger.next(&mut now(), false), Step::Wait);
        assert_eq!(linger.next(&mut now(), true), Step::Close);
        assert_eq!(linger.next(&mut Now::at(t0 + LINGER), false), Step::Close);
    }
}
