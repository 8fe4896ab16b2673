//! [`Leader`]: what only the event loop's leader touches (the poller,
//! the acceptors, the queues of claimed connections and the table of
//! connections by token). What the leader does is `lead.rs`.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

use mio::{Events, Poll, Token};

use super::slot::Slot;
use crate::transport::Acceptor;

/// The waker's token; acceptor `i` is token `1 + i`.
pub(super) const WAKER: Token = Token(0);

/// The most connections the leader accepts from one acceptor before it
/// looks at the poller again: connections that connect (and close) as fast
/// as they can keep the accept queue from ever emptying, and must not keep
/// the established connections from being served. More waiting are
/// accepted after the connections that became ready meanwhile.
///
/// A client whose request arrives during a round waits for the rest of
/// it: two keeps that wait to one accept, and a look at the poller (an
/// `epoll_wait` that does not block) costs little beside an accept. Under
/// connect churn (`rtorb-bench overload --scenario churn`) a round of 16
/// moved a served client's median latency 2.5-9× on the leader/followers
/// strategy, a round of 2 by 1.0-1.7×, at the same accept rate.
pub(crate) const ACCEPTS_PER_TURN: usize = 2;

/// Events taken from the poller at once.
const EVENTS: usize = 256;

/// The token of the connection in table slot 0.
pub(super) const FIRST_CONNECTION: usize = 1 << 20;

/// How long a leader waits after the poller failed, before trying again.
pub(super) const POLL_ERROR_PAUSE: Duration = Duration::from_millis(5);

/// What only the leader touches.
pub(super) struct Leader {
    pub(super) poll: Poll,
    pub(super) events: Events,
    pub(super) acceptors: Vec<Box<dyn Acceptor>>,
    /// By acceptor: more connections may be waiting (an event came, or
    /// the last round of accepts stopped at [`ACCEPTS_PER_TURN`]).
    pub(super) accepting: Vec<bool>,
    /// Claimed connections that became ready (an event, a timeout),
    /// waiting for a thread.
    pub(super) ready: VecDeque<Arc<Slot>>,
    /// Claimed connections that spent a whole turn and have more input,
    /// served in turn when no other connection is ready.
    pub(super) busy: VecDeque<Arc<Slot>>,
    pub(super) next_sweep: Instant,
    /// The connections by token: only the leader looks a connection up,
    /// adds one or frees a place, so the table needs no lock of its own
    /// (a cell, borrowed by one leader call at a time).
    pub(super) table: RefCell<Table>,
}

/// The connections by token.
#[derive(Default)]
pub(super) struct Table {
    pub(super) slots: Vec<Option<Arc<Slot>>>,
    pub(super) free: Vec<usize>,
}

impl Table {
    /// Frees the places of the connections closed since the last time
    /// (see [`EventLoop::remove`](super::shared::EventLoop::remove)).
    pub(super) fn reclaim(&mut self, closed: &mut Vec<usize>) {
        for index in closed.drain(..) {
            if let Some(s) = self.slots.get_mut(index)
                && s.take().is_some()
            {
                self.free.push(index);
            }
        }
    }
}

impl Leader {
    pub(super) fn new(poll: Poll, acceptors: Vec<Box<dyn Acceptor>>) -> Leader {
        Leader {
            poll,
            events: Events::with_capacity(EVENTS),
            accepting: vec![false; acceptors.len()],
            acceptors,
            ready: VecDeque::with_capacity(EVENTS),
            busy: VecDeque::new(),
            next_sweep: Instant::now(),
            table: RefCell::new(Table::default()),
        }
    }

    /// Every connection, taken out of the table (after the last thread),
    /// and the queues emptied.
    pub(super) fn take_slots(&self) -> Vec<Arc<Slot>> {
        let mut table = self.table.borrow_mut();
        table.free.clear();
        table.slots.drain(..).flatten().collect()
    }

    /// The acceptors, taken (after the last thread), and the queues
    /// emptied.
    pub(super) fn take_acceptors(&mut self) -> Vec<Box<dyn Acceptor>> {
        self.ready.clear();
        self.busy.clear();
        std::mem::take(&mut self.acceptors)
    }
}
