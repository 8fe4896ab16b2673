//! Delivery: a bounded [`EventQueue`] per consumer, which applies the
//! channel's [`OverflowPolicy`] and counts what it drops, and the
//! [`Subscribers`], the queues an event from a supplier is offered to.
//!
//! Offering an event never waits for a consumer: it copies the event into
//! each queue (an `Any` keeps its encoded octets, shared, not copied) and
//! returns. Each push consumer has a thread of its own that takes from
//! its queue and calls the consumer; a pull consumer takes from its queue
//! when it pulls. A consumer that is slow or blocked so fills only its
//! own queue.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError, RwLock};
use std::time::Duration;

use rtorb::cdr::Any;

use crate::config::OverflowPolicy;

/// What a consumer's queue has done, as
/// [`EventChannel::consumers`](crate::EventChannel::consumers) reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct QueueCounts {
    /// Events taken from the queue (delivered, or being delivered).
    pub taken: u64,
    /// Events dropped because the queue was full.
    pub dropped: u64,
    /// Events in the queue now.
    pub queued: usize,
}

/// What became of an event offered to a queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Offer {
    /// Queued (after dropping the oldest one, under
    /// [`OverflowPolicy::DropOldest`], if the queue was full).
    Queued,
    /// The queue was full and dropped it.
    Dropped,
    /// The queue was full under [`OverflowPolicy::DisconnectConsumer`]:
    /// it is closed now, and its consumer must be disconnected.
    Overflowed,
    /// The queue is closed.
    Closed,
}

#[derive(Debug)]
struct QueueState {
    events: VecDeque<Any>,
    closed: bool,
    counts: QueueCounts,
}

/// A consumer's queue: at most `capacity` events, what happens to one
/// more decided by its [`OverflowPolicy`].
#[derive(Debug)]
pub(crate) struct EventQueue {
    state: Mutex<QueueState>,
    ready: Condvar,
    capacity: usize,
    policy: OverflowPolicy,
}

impl EventQueue {
    /// An open, empty queue of `capacity` events (at least one).
    pub(crate) fn new(capacity: usize, policy: OverflowPolicy) -> EventQueue {
        let capacity = capacity.max(1);
        EventQueue {
            state: Mutex::new(QueueState {
                // Grows up to `capacity` as events wait, no further.
                events: VecDeque::with_capacity(capacity.min(64)),
                closed: false,
                counts: QueueCounts::default(),
            }),
            ready: Condvar::new(),
            capacity,
            policy,
        }
    }

    fn lock(&self) -> MutexGuard<'_, QueueState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Offers `event` to the queue; never waits.
    pub(crate) fn offer(&self, event: &Any) -> Offer {
        let mut state = self.lock();
        if state.closed {
            return Offer::Closed;
        }
        let outcome = if state.events.len() < self.capacity {
            state.events.push_back(event.clone());
            Offer::Queued
        } else {
            match self.policy {
                OverflowPolicy::DropOldest => {
                    state.events.pop_front();
                    state.events.push_back(event.clone());
                    state.counts.dropped += 1;
                    Offer::Queued
                }
                OverflowPolicy::DropNewest => {
                    state.counts.dropped += 1;
                    return Offer::Dropped;
                }
                OverflowPolicy::DisconnectConsumer => {
                    state.counts.dropped += state.events.len() as u64 + 1;
                    state.events.clear();
                    state.closed = true;
                    Offer::Overflowed
                }
            }
        };
        drop(state);
        self.ready.notify_one();
        outcome
    }

    /// The next event, waiting for one up to `wait`; `Err(Closed)` once
    /// the queue is closed (events still queued then are dropped with
    /// it), `Ok(None)` if none came in time.
    pub(crate) fn take(&self, wait: Duration) -> Result<Option<Any>, Closed> {
        let state = self.lock();
        let (mut state, _) = self
            .ready
            .wait_timeout_while(state, wait, |s| s.events.is_empty() && !s.closed)
            .unwrap_or_else(PoisonError::into_inner);
        if state.closed {
            return Err(Closed);
        }
        let event = state.events.pop_front();
        if event.is_some() {
            state.counts.taken += 1;
        }
        Ok(event)
    }

    /// The next event if there is one, without waiting.
    pub(crate) fn try_take(&self) -> Result<Option<Any>, Closed> {
        self.take(Duration::ZERO)
    }

    /// Closes the queue: what it holds is dropped, offers are refused and
    /// every waiting [`EventQueue::take`] returns `Err(Closed)`. Whether
    /// this call closed it (it was open).
    pub(crate) fn close(&self) -> bool {
        let mut state = self.lock();
        let was_open = !state.closed;
        state.closed = true;
        state.events.clear();
        drop(state);
        self.ready.notify_all();
        was_open
    }

    /// Whether the queue is closed.
    #[cfg(test)]
    pub(crate) fn is_closed(&self) -> bool {
        self.lock().closed
    }

    /// What the queue has done.
    pub(crate) fn counts(&self) -> QueueCounts {
        let state = self.lock();
        QueueCounts {
            queued: state.events.len(),
            ..state.counts
        }
    }
}

/// The queue was closed: the consumer's proxy is disconnected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Closed;

/// The queues of a channel's connected consumers, each under the id of
/// its proxy.
#[derive(Debug, Default)]
pub(crate) struct Subscribers {
    queues: RwLock<Vec<(u64, Arc<EventQueue>)>>,
}

impl Subscribers {
    /// Adds the queue of the proxy `id`.
    pub(crate) fn add(&self, id: u64, queue: Arc<EventQueue>) {
        self.queues
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .push((id, queue));
    }

    /// Removes the queue of the proxy `id`, if it is there.
    pub(crate) fn remove(&self, id: u64) {
        self.queues
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|(i, _)| *i != id);
    }

    /// How many queues there are.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.queues
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// Offers `event` to every queue; the ids of the proxies whose queue
    /// overflowed under [`OverflowPolicy::DisconnectConsumer`] (empty,
    /// and allocating nothing, when none did).
    pub(crate) fn publish(&self, event: &Any) -> Vec<u64> {
        let mut overflowed = Vec::new();
        let queues = self.queues.read().unwrap_or_else(PoisonError::into_inner);
        for (id, queue) in queues.iter() {
            if queue.offer(event) == Offer::Overflowed {
                overflowed.push(*id);
            }
        }
        overflowed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(queue: &EventQueue) -> Vec<i32> {
        let mut out = Vec::new();
        while let Ok(Some(e)) = queue.try_take() {
            out.push(e.get::<i32>().unwrap());
        }
        out
    }

    #[test]
    fn a_full_queue_drops_its_oldest_event_and_counts_it() {
        let queue = EventQueue::new(2, OverflowPolicy::DropOldest);
        for n in 1..=5 {
            assert_eq!(queue.offer(&Any::from(n)), Offer::Queued);
        }
        assert_eq!(queue.counts().dropped, 3);
        assert_eq!(numbers(&queue), [4, 5]);
        assert_eq!(queue.counts().taken, 2);
    }

    #[test]
    fn a_full_queue_drops_the_newest_event_and_counts_it() {
        let queue = EventQueue::new(2, OverflowPolicy::DropNewest);
        let offers: Vec<Offer> = (1..=4).map(|n| queue.offer(&Any::from(n))).collect();
        assert_eq!(
            offers,
            [Offer::Queued, Offer::Queued, Offer::Dropped, Offer::Dropped]
        );
        assert_eq!(queue.counts().dropped, 2);
        assert_eq!(numbers(&queue), [1, 2]);
    }

    #[test]
    fn a_full_queue_under_disconnect_closes() {
        let queue = EventQueue::new(1, OverflowPolicy::DisconnectConsumer);
        assert_eq!(queue.offer(&Any::from(1)), Offer::Queued);
        assert_eq!(queue.offer(&Any::from(2)), Offer::Overflowed);
        assert!(queue.is_closed());
        assert_eq!(queue.offer(&Any::from(3)), Offer::Closed);
        assert_eq!(queue.try_take(), Err(Closed));
        assert_eq!(queue.counts().dropped, 2);
    }

    #[test]
    fn closing_wakes_a_waiting_taker() {
        let queue = Arc::new(EventQueue::new(4, OverflowPolicy::DropOldest));
        let waiter = {
            let queue = Arc::clone(&queue);
            std::thread::spawn(move || queue.take(rtorb_test_support::TIMEOUT))
        };
        assert!(queue.close());
        assert_eq!(waiter.join().unwrap(), Err(Closed));
        assert!(!queue.close(), "closed once");
    }

    #[test]
    fn publishing_reaches_every_queue_and_names_those_that_overflowed() {
        let subscribers = Subscribers::default();
        let roomy = Arc::new(EventQueue::new(8, OverflowPolicy::DropOldest));
        let tight = Arc::new(EventQueue::new(1, OverflowPolicy::DisconnectConsumer));
        subscribers.add(1, Arc::clone(&roomy));
        subscribers.add(2, Arc::clone(&tight));
        assert!(subscribers.publish(&Any::from(1)).is_empty());
        assert_eq!(subscribers.publish(&Any::from(2)), [2]);
        subscribers.remove(2);
        assert_eq!(subscribers.len(), 1);
        assert_eq!(numbers(&roomy), [1, 2]);
    }
}
