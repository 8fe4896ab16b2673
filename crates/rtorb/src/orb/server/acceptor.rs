//! Accepting connections: the connections waiting on an acceptor are
//! taken (until the accept would block, or up to a bound the event loop
//! sets so that accepting takes turns with serving), counted against the
//! connection limit, and handed to the strategy; and the loop of an
//! acceptor that has a thread of its own, which takes every one waiting. At the limit the strategy sheds
//! a connection to make room (see `shedding.rs`); only if none may be
//! shed is the new connection closed as soon as it is accepted, with
//! `CloseConnection`, so that a client that wrote a request into it sends
//! it again.

use std::sync::Arc;
use std::time::Duration;

use mio::unix::SourceFd;
use mio::{Events, Interest, Poll, Token, Waker};

use super::connection::driver::Connection;
use super::server_core::{OpenConnection, Room, ServerCore};
use crate::transport::{Acceptor, Transport, TransportError};

/// How long an acceptor waits after a failed accept (or, without an event
/// loop, between polls).
const ACCEPT_POLL: Duration = Duration::from_millis(5);

/// How a round of accepts ended.
pub(super) enum Pending {
    /// No connection is waiting.
    Drained,
    /// The bound was reached and more may be waiting: accept again soon,
    /// since those waiting bring no new event.
    More,
    /// An accept failed otherwise (out of descriptors or the like): try
    /// again later, since a waiting connection brings no new event.
    Failed,
}

/// Accepts the waiting connections, at most `most`, and hands each one
/// admitted to `serve`; at the limit, `shed` closes (or starts closing) a
/// connection to make room, or says that none may be shed.
///
/// A connection shed by the event loop has closed when `shed` returns,
/// and the new one takes its place in the count (another lane, admitting
/// at the same time, cannot take it in between), unless the place goes to
/// another lane's pending reserve (see `ServerCore::in_place_of`).
pub(super) fn accept_pending(
    core: &Arc<ServerCore>,
    acceptor: &dyn Acceptor,
    most: usize,
    mut shed: impl FnMut() -> Room,
    mut serve: impl FnMut(Box<dyn Transport>, OpenConnection),
) -> Pending {
    for _ in 0..most {
        match acceptor.accept() {
            Ok(transport) => {
                let open = match core.admit() {
                    Some(open) => Some(open),
                    None => match shed() {
                        Room::Freed(open) => core.in_place_of(open),
                        Room::Closing => core.admit_shedding(),
                        Room::None => None,
                    },
                };
                // Nothing to shed, or the place goes to a pending reserve:
                // the connection is closed at once.
                let Some(open) = open else {
                    Connection::refuse_at_cap(core, transport);
                    continue;
                };
                serve(transport, open);
            }
            Err(e) if e.is_would_block() => return Pending::Drained,
            // A peer that reset before we took it: the next one.
            Err(TransportError::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::Interrupted | std::io::ErrorKind::ConnectionAborted
                ) => {}
            Err(_) => return Pending::Failed,
        }
    }
    Pending::More
}

/// Accepts connections until the ORB stops, handing each to `serve`. The
/// thread sleeps in `epoll` on the listening socket and on a waker that
/// [`ServerCore::stop`] wakes: an idle server makes no periodic wake-ups
/// (which, on a CPU shared with real-time work, would each preempt it).
pub(super) fn accept_loop(
    core: &Arc<ServerCore>,
    acceptor: &dyn Acceptor,
    mut shed: impl FnMut() -> Room,
    mut serve: impl FnMut(Box<dyn Transport>, OpenConnection),
) {
    const LISTENER: Token = Token(0);
    const WAKER: Token = Token(1);
    let fd = acceptor.as_raw_fd();
    let poll = Poll::new().and_then(|poll| {
        poll.registry()
            .register(&mut SourceFd(&fd), LISTENER, Interest::READABLE)?;
        let waker = Arc::new(Waker::new(poll.registry(), WAKER)?);
        core.add_waker(waker);
        Ok(poll)
    });
    // Without an event loop (no descriptors left for one), the thread
    // polls the nonblocking listener every `ACCEPT_POLL` instead.
    let mut poll = poll.ok();
    let mut events = Events::with_capacity(4);
    while !core.stopping() {
        // Take every pending connection: readiness is edge-triggered.
        let pending = accept_pending(core, acceptor, usize::MAX, &mut shed, &mut serve);
        if core.stopping() {
            break;
        }
        match (&mut poll, pending) {
            (_, Pending::More) => {}
            (Some(p), Pending::Drained) => {
                if let Err(e) = p.poll(&mut events, None)
                    && e.kind() != std::io::ErrorKind::Interrupted
                {
                    std::thread::sleep(ACCEPT_POLL);
                }
            }
            // A failed accept (a lack of descriptors), or no event loop:
            // wait a little.
            _ => std::thread::sleep(ACCEPT_POLL),
        }
    }
}
