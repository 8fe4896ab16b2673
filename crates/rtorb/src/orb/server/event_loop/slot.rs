//! [`Slot`]: a connection's place in the event loop, and the small state
//! machine by which one thread at a time claims it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};

use super::super::connection::driver::Connection;
use super::super::server_core::OpenConnection;
use super::super::shedding::Activity;
use crate::sync::{Mutex, MutexGuard};

/// A connection no thread serves.
pub(super) const IDLE: u8 = 0;
/// A thread serves (or has queued) the connection.
pub(super) const BUSY: u8 = 1;
/// As `BUSY`, and another event arrived meanwhile: serve it again.
pub(super) const AGAIN: u8 = 2;
/// Closed; events for it are stale.
pub(super) const CLOSED: u8 = 3;

pub(super) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock()
}

/// An open connection and its place in the open-connection count.
pub(in crate::orb::server) struct Live {
    pub(in crate::orb::server) connection: Connection,
    pub(super) _open: OpenConnection,
}

/// A connection in the event loop's table.
pub(in crate::orb::server) struct Slot {
    pub(super) index: usize,
    pub(super) state: AtomicU8,
    /// The poller reported the peer's end of stream or an error.
    pub(super) read_closed: AtomicBool,
    /// What the acceptor reads to choose a connection to shed.
    pub(super) activity: Arc<Activity>,
    /// When its next timeout falls due, in nanoseconds since the loop's
    /// epoch plus one; 0 for none.
    pub(super) deadline: AtomicU64,
    pub(super) live: Mutex<Option<Live>>,
}

impl Slot {
    /// Whether the poller saw its peer's end of stream and nothing else is
    /// left of it (see [`Connection::only_end_of_stream`]).
    pub(super) fn only_end_of_stream(&self) -> bool {
        self.read_closed.load(Ordering::Acquire)
            && lock(&self.live)
                .as_ref()
                .is_some_and(|live| live.connection.only_end_of_stream())
    }

    /// Locks the connection for a turn, having told it of an end of
    /// stream the poller saw (`None` inside once it is closed).
    pub(in crate::orb::server) fn take_turn(&self) -> MutexGuard<'_, Option<Live>> {
        let mut guard = lock(&self.live);
        if self.read_closed.load(Ordering::Acquire)
            && let Some(live) = guard.as_mut()
        {
            live.connection.set_read_closed();
        }
        guard
    }

    /// Signals an event; whether the caller now owns the connection (and
    /// must see that it is served).
    pub(super) fn signal(&self) -> bool {
        let mut s = self.state.load(Ordering::Acquire);
        loop {
            let next = match s {
                IDLE => BUSY,
                BUSY => AGAIN,
                _ => return false,
            };
            match self
                .state
                .compare_exchange(s, next, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => return s == IDLE,
                Err(now) => s = now,
            }
        }
    }

    /// Lets the connection go after a turn; `false` if an event arrived
    /// during the turn, and the owner must take another.
    pub(in crate::orb::server) fn release(&self) -> bool {
        match self
            .state
            .compare_exchange(BUSY, IDLE, Ordering::AcqRel, Ordering::Acquire)
        {
            Ok(_) => true,
            Err(_) => {
                self.state.store(BUSY, Ordering::Release);
                false
            }
        }
    }
}
