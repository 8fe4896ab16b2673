//! Priority timers: a [`TimerQueue`], a binary heap of deadlines whose
//! memory is allocated when it is made, for the consumers' interval
//! (periodic) and deadline (one-shot) timeouts and the conjunctions'
//! watchdogs.
//!
//! Scheduling, cancelling and expiring a timer each cost O(log n) and
//! allocate nothing: the timers live in a slab of `capacity` slots, the
//! heap holds slot numbers and each slot knows its place in the heap,
//! so that a cancelled timer is taken out where it is. One more timer
//! than the capacity is refused with [`TimerError::Full`]. A
//! [`TimerId`] carries its slot's generation, so that an id whose timer
//! has fired or been cancelled names nothing, even once the slot holds
//! another timer. Times are the channel's `TimeT` (100 ns units); the
//! queue never reads a clock: [`TimerQueue::expire`] is given the time.

use crate::idl::rtorb_event::TimeT;

/// The largest capacity a queue may be made with (16 Mi timers).
pub const MAX_TIMER_CAPACITY: usize = 1 << 24;

/// Names a scheduled timer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TimerId {
    slot: u32,
    generation: u32,
}

/// Why a timer queue refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TimerError {
    /// The queue holds `capacity` timers already.
    #[error("the timer queue is full ({capacity} timers)")]
    Full {
        /// The queue's capacity.
        capacity: usize,
    },
    /// A queue of more than [`MAX_TIMER_CAPACITY`] timers was asked for.
    #[error("a timer queue of {asked} timers; at most {MAX_TIMER_CAPACITY}")]
    CapacityTooLarge {
        /// What was asked for.
        asked: usize,
    },
}

/// A timer that expired, as [`TimerQueue::expire`] reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Expired<T> {
    /// The timer.
    pub id: TimerId,
    /// The deadline that passed.
    pub deadline: TimeT,
    /// What it was scheduled with.
    pub payload: T,
    /// For a periodic timer, the periods that passed unseen since this
    /// deadline (it fires once for them all); 0 for a one-shot timer.
    pub missed: u64,
    /// Whether the timer is scheduled again (periodic).
    pub rearmed: bool,
}

#[derive(Debug, Clone, Copy)]
struct Slot<T> {
    generation: u32,
    /// Place in the heap; `FREE` when the slot holds no timer.
    at: u32,
    deadline: TimeT,
    /// 0 for a one-shot timer.
    period: TimeT,
    /// Order of scheduling, so that equal deadlines expire first come,
    /// first served.
    sequence: u64,
    payload: Option<T>,
}

const FREE: u32 = u32::MAX;

/// A binary heap of timers carrying a `T` each (a consumer and what its
/// timer is for).
#[derive(Debug)]
pub struct TimerQueue<T> {
    slots: Vec<Slot<T>>,
    /// Free slots' numbers.
    free: Vec<u32>,
    /// Slot numbers, earliest deadline first.
    heap: Vec<u32>,
    next_sequence: u64,
}

impl<T: Copy> TimerQueue<T> {
    /// An empty queue of `capacity` timers, all its memory allocated now.
    pub fn with_capacity(capacity: usize) -> Result<TimerQueue<T>, TimerError> {
        if capacity > MAX_TIMER_CAPACITY {
            return Err(TimerError::CapacityTooLarge { asked: capacity });
        }
        let slot = Slot {
            generation: 0,
            at: FREE,
            deadline: 0,
            period: 0,
            sequence: 0,
            payload: None,
        };
        // Slots are numbered below MAX_TIMER_CAPACITY, which fits a u32.
        Ok(TimerQueue {
            slots: vec![slot; capacity],
            free: (0..capacity as u32).rev().collect(),
            heap: Vec::with_capacity(capacity),
            next_sequence: 0,
        })
    }

    /// Timers scheduled.
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// Whether no timer is scheduled.
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    /// The most timers the queue holds.
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Schedules a one-shot timer at `deadline`.
    pub fn schedule(&mut self, deadline: TimeT, payload: T) -> Result<TimerId, TimerError> {
        self.insert(deadline, 0, payload)
    }

    /// Schedules a periodic timer, first at `first`, then every `period`
    /// (above 0; a period of 0 makes a one-shot timer).
    pub fn schedule_periodic(
        &mut self,
        first: TimeT,
        period: TimeT,
        payload: T,
    ) -> Result<TimerId, TimerError> {
        self.insert(first, period, payload)
    }

    fn insert(
        &mut self,
        deadline: TimeT,
        period: TimeT,
        payload: T,
    ) -> Result<TimerId, TimerError> {
        let Some(slot) = self.free.pop() else {
            return Err(TimerError::Full {
                capacity: self.capacity(),
            });
        };
        let sequence = self.next_sequence;
        self.next_sequence += 1;
        let at = self.heap.len();
        let s = &mut self.slots[slot as usize];
        s.at = at as u32;
        s.deadline = deadline;
        s.period = period;
        s.sequence = sequence;
        s.payload = Some(payload);
        let id = TimerId {
            slot,
            generation: s.generation,
        };
        self.heap.push(slot);
        self.sift_up(at);
        Ok(id)
    }

    /// Cancels the timer `id`: its payload, or `None` if it is no longer
    /// scheduled.
    pub fn cancel(&mut self, id: TimerId) -> Option<T> {
        let s = self.slots.get(id.slot as usize)?;
        if s.generation != id.generation || s.at == FREE {
            return None;
        }
        let at = s.at as usize;
        self.remove_at(at)
    }

    /// The earliest deadline, if any timer is scheduled.
    pub fn next_deadline(&self) -> Option<TimeT> {
        self.heap
            .first()
            .map(|slot| self.slots[*slot as usize].deadline)
    }

    /// Expires every timer whose deadline is at or before `now`, earliest
    /// first, calling `fired` for each: a one-shot timer is removed, a
    /// periodic one scheduled at its first deadline after `now`. Returns
    /// how many fired.
    pub fn expire(&mut self, now: TimeT, mut fired: impl FnMut(Expired<T>)) -> usize {
        let mut count = 0;
        while let Some(&slot) = self.heap.first() {
            let s = self.slots[slot as usize];
            if s.deadline > now {
                break;
            }
            let Some(payload) = s.payload else {
                break;
            };
            let id = TimerId {
                slot,
                generation: s.generation,
            };
            count += 1;
            if s.period == 0 {
                self.remove_at(0);
                fired(Expired {
                    id,
                    deadline: s.deadline,
                    payload,
                    missed: 0,
                    rearmed: false,
                });
                continue;
            }
            let missed = (now - s.deadline) / s.period;
            let next = s
                .deadline
                .saturating_add(missed.saturating_add(1).saturating_mul(s.period));
            let sequence = self.next_sequence;
            self.next_sequence += 1;
            let entry = &mut self.slots[slot as usize];
            entry.deadline = next;
            entry.sequence = sequence;
            self.sift_down(0);
            fired(Expired {
                id,
                deadline: s.deadline,
                payload,
                missed,
                rearmed: true,
            });
            if next == TimeT::MAX {
                // It can never fire again: take it out rather than loop.
                self.cancel(id);
            }
        }
        count
    }

    fn remove_at(&mut self, at: usize) -> Option<T> {
        let slot = self.heap[at];
        let last = self.heap.len() - 1;
        self.swap(at, last);
        self.heap.pop();
        if at < self.heap.len() {
            self.sift_down(at);
            self.sift_up(at);
        }
        let s = &mut self.slots[slot as usize];
        s.at = FREE;
        s.generation = s.generation.wrapping_add(1);
        self.free.push(slot);
        s.payload.take()
    }

    fn before(&self, a: usize, b: usize) -> bool {
        let (x, y) = (
            &self.slots[self.heap[a] as usize],
            &self.slots[self.heap[b] as usize],
        );
        (x.deadline, x.sequence) < (y.deadline, y.sequence)
    }

    fn swap(&mut self, a: usize, b: usize) {
        self.heap.swap(a, b);
        self.slots[self.heap[a] as usize].at = a as u32;
        self.slots[self.heap[b] as usize].at = b as u32;
    }

    fn sift_up(&mut self, mut at: usize) {
        while at > 0 {
            let parent = (at - 1) / 2;
            if !self.before(at, parent) {
                break;
            }
            self.swap(at, parent);
            at = parent;
        }
    }

    fn sift_down(&mut self, mut at: usize) {
        loop {
            let (left, right) = (2 * at + 1, 2 * at + 2);
            let mut first = at;
            if left < self.heap.len() && self.before(left, first) {
                first = left;
            }
            if right < self.heap.len() && self.before(right, first) {
                first = right;
            }
            if first == at {
                break;
            }
            self.swap(at, first);
            at = first;
        }
    }
}

#[cfg(test)]
mod tests;
