//! Correlation: what a consumer's dependency groups make of the events
//! its filters passed ([`Correlator`]).
//!
//! - A disjunction (OR) passes each event on as it comes.
//! - A conjunction (AND) keeps, for each of its filters, the latest event
//!   that passed it; once every filter has one, the set is delivered and
//!   the conjunction starts again, empty. An event that arrives for a
//!   filter that already has one replaces it (counted). An event that
//!   passes several filters of one conjunction is offered once for each,
//!   in the order the filter index finds them (not the filters' order):
//!   it fills each, and may complete one set and start the next.
//!
//! A consumer's state is allocated when it connects and bounded by its
//! QoS (a slot per conjunction filter, at most
//! [`MAX_CONJUNCTION_FILTERS`](super::qos::MAX_CONJUNCTION_FILTERS) a
//! group); correlating an event allocates nothing. The events are kept
//! as the channel gives them (`E`: an event, or a shared handle to one).

use std::collections::HashMap;

use crate::idl::rtorb_event::{ConsumerQos, GroupKind, TimeT};

use super::filter::Match;
use super::qos::{ConsumerId, QosError, QosLimits, check_consumer_qos};

/// What an event did in its group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Correlated {
    /// Its group is a disjunction: deliver the event alone.
    Single,
    /// It is the first event of a conjunction's set (arm its deadline,
    /// if the group has one).
    Started,
    /// It joined a conjunction's set, which is not complete yet.
    Stored,
    /// It completed a conjunction's set, handed to the caller; the
    /// conjunction is empty again (cancel its deadline).
    Completed,
    /// No such consumer or group (it disconnected).
    Unknown,
}

#[derive(Debug)]
struct Group<E> {
    kind: GroupKind,
    /// For a conjunction, the latest event of each filter.
    slots: Vec<Option<E>>,
    /// Bit `i`: slot `i` holds an event.
    arrived: u64,
    /// Every slot's bit.
    full: u64,
    deadline: TimeT,
}

/// What correlation has done for a consumer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CorrelationCounts {
    /// Conjunction sets delivered.
    pub completed: u64,
    /// Events that replaced an earlier one in a conjunction's slot.
    pub replaced: u64,
    /// Conjunctions emptied before they completed (their deadline passed).
    pub abandoned: u64,
}

#[derive(Debug)]
struct Consumer<E> {
    groups: Vec<Group<E>>,
    counts: CorrelationCounts,
}

/// The correlation state of the channel's consumers.
#[derive(Debug)]
pub struct Correlator<E> {
    consumers: HashMap<ConsumerId, Consumer<E>>,
    limits: QosLimits,
}

impl<E> Correlator<E> {
    /// No consumers; their QoS keeps `limits`.
    pub fn new(limits: QosLimits) -> Correlator<E> {
        Correlator {
            consumers: HashMap::new(),
            limits,
        }
    }

    /// Allocates the state of `consumer`'s groups.
    pub fn connect(&mut self, consumer: ConsumerId, qos: &ConsumerQos) -> Result<(), QosError> {
        check_consumer_qos(qos, &self.limits)?;
        if self.consumers.contains_key(&consumer) {
            return Err(QosError::AlreadyConnected);
        }
        let groups = qos
            .groups
            .iter()
            .map(|g| {
                let n = if g.kind == GroupKind::Conjunction {
                    g.filters.len()
                } else {
                    0
                };
                Group {
                    kind: g.kind,
                    slots: std::iter::repeat_with(|| None).take(n).collect(),
                    arrived: 0,
                    full: u64::MAX.checked_shr(64 - n as u32).unwrap_or(0),
                    deadline: g.deadline,
                }
            })
            .collect();
        self.consumers.insert(
            consumer,
            Consumer {
                groups,
                counts: CorrelationCounts::default(),
            },
        );
        Ok(())
    }

    /// Frees the state of `consumer`; whether it had any.
    pub fn disconnect(&mut self, consumer: ConsumerId) -> bool {
        self.consumers.remove(&consumer).is_some()
    }

    /// Correlates `event`, which passed the filter `at`. When it
    /// completes a conjunction, `complete` is called with the set (a
    /// slot per filter, in the order of the group's filters, each
    /// `Some`; the caller may take them) before the group is emptied.
    pub fn offer(
        &mut self,
        at: Match,
        event: &E,
        complete: impl FnOnce(&mut [Option<E>]),
    ) -> Correlated
    where
        E: Clone,
    {
        let Some(consumer) = self.consumers.get_mut(&at.consumer) else {
            return Correlated::Unknown;
        };
        let Some(group) = consumer.groups.get_mut(usize::from(at.group)) else {
            return Correlated::Unknown;
        };
        if group.kind == GroupKind::Disjunction {
            return Correlated::Single;
        }
        let member = usize::from(at.member);
        let Some(slot) = group.slots.get_mut(member) else {
            return Correlated::Unknown;
        };
        if slot.is_some() {
            consumer.counts.replaced += 1;
        }
        // Replacing in place keeps the slot's memory.
        match slot {
            Some(kept) => kept.clone_from(event),
            None => *slot = Some(event.clone()),
        }
        let first = group.arrived == 0;
        group.arrived |= 1 << member;
        if group.arrived != group.full {
            return if first {
                Correlated::Started
            } else {
                Correlated::Stored
            };
        }
        complete(&mut group.slots);
        group.slots.iter_mut().for_each(|s| *s = None);
        group.arrived = 0;
        consumer.counts.completed += 1;
        Correlated::Completed
    }

    /// Empties `consumer`'s conjunction `group` (its deadline passed);
    /// whether it held any event.
    pub fn abandon(&mut self, consumer: ConsumerId, group: u16) -> bool {
        let Some(c) = self.consumers.get_mut(&consumer) else {
            return false;
        };
        let Some(g) = c.groups.get_mut(usize::from(group)) else {
            return false;
        };
        if g.arrived == 0 {
            return false;
        }
        g.slots.iter_mut().for_each(|s| *s = None);
        g.arrived = 0;
        c.counts.abandoned += 1;
        true
    }

    /// The deadline of `consumer`'s `group` (0: none).
    pub fn deadline(&self, consumer: ConsumerId, group: u16) -> TimeT {
        self.consumers
            .get(&consumer)
            .and_then(|c| c.groups.get(usize::from(group)))
            .map_or(0, |g| g.deadline)
    }

    /// What correlation has done for `consumer`.
    pub fn counts(&self, consumer: ConsumerId) -> Option<CorrelationCounts> {
        self.consumers.get(&consumer).map(|c| c.counts)
    }
}

#[cfg(test)]
mod tests;
