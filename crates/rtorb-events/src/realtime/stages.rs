//! The stages together ([`Stages`]): what connecting and disconnecting
//! consumers and suppliers change in each, and how a [`Command`] is run
//! (filter → correlate → dispatch), and timers expired, producing the
//! next commands. No thread, lock, clock or socket: the caller gives the
//! time and takes the commands.

use std::collections::HashMap;

use crate::idl::rtorb_event::{ConsumerQos, SupplierQos, TimeT, TimeoutKind};

use super::commands::{Command, Delivery, Priority, TimeoutCause};
use super::correlation::{Correlated, Correlator};
use super::filter::SubscriptionIndex;
use super::publications::Publications;
use super::qos::{ConsumerId, QosError, QosLimits, Routed, SupplierId, check_consumer_qos};
use super::timers::{TimerError, TimerId, TimerQueue};

/// Why a consumer or a supplier could not connect.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConnectError {
    /// Its QoS was refused.
    #[error(transparent)]
    Qos(#[from] QosError),
    /// Its timeouts do not fit the channel's timer queue.
    #[error(transparent)]
    Timers(#[from] TimerError),
}

/// What a timer is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Purpose {
    consumer: ConsumerId,
    cause: TimeoutCause,
}

/// What the stages keep of a connected consumer.
#[derive(Debug)]
struct ConsumerEntry {
    priority: Priority,
    /// Its interval and deadline timers.
    timeouts: Vec<TimerId>,
    /// Each group's armed watchdog.
    watchdogs: Vec<Option<TimerId>>,
}

/// What running the stages has counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StageCounts {
    /// Events refused before filtering: their supplier is not connected,
    /// did not publish them, or no consumer can hear it.
    pub not_forwarded: u64,
    /// Events that passed no filter.
    pub unmatched: u64,
    /// Watchdogs not armed because the timer queue was full.
    pub watchdogs_refused: u64,
}

/// The sans-I/O core of the real-time channel.
#[derive(Debug)]
pub struct Stages<E> {
    index: SubscriptionIndex,
    publications: Publications,
    correlator: Correlator<E>,
    timers: TimerQueue<Purpose>,
    consumers: HashMap<ConsumerId, ConsumerEntry>,
    suppliers: HashMap<SupplierId, Priority>,
    limits: QosLimits,
    counts: StageCounts,
}

impl<E: Clone + Routed> Stages<E> {
    /// No consumers or suppliers; a timer queue of `timers` timers.
    pub fn new(limits: QosLimits, timers: usize) -> Result<Stages<E>, TimerError> {
        Ok(Stages {
            index: SubscriptionIndex::new(limits),
            publications: Publications::new(limits),
            correlator: Correlator::new(limits),
            timers: TimerQueue::with_capacity(timers)?,
            consumers: HashMap::new(),
            suppliers: HashMap::new(),
            limits,
            counts: StageCounts::default(),
        })
    }

    /// Connects `consumer` with `qos` at time `now`: subscribes it and
    /// starts its timeouts. On an error nothing is left of it.
    pub fn connect_consumer(
        &mut self,
        consumer: ConsumerId,
        qos: &ConsumerQos,
        now: TimeT,
    ) -> Result<(), ConnectError> {
        check_consumer_qos(qos, &self.limits)?;
        if self.consumers.contains_key(&consumer) {
            return Err(QosError::AlreadyConnected.into());
        }
        if self.timers.capacity() - self.timers.len() < qos.timeouts.len() {
            return Err(TimerError::Full {
                capacity: self.timers.capacity(),
            }
            .into());
        }
        self.index.subscribe(consumer, qos)?;
        let filters = self.index.filters_of(consumer).unwrap_or_default();
        let connected = self
            .publications
            .connect_consumer(consumer, filters)
            .and_then(|()| self.correlator.connect(consumer, qos));
        if let Err(e) = connected {
            self.index.unsubscribe(consumer);
            self.publications.disconnect_consumer(consumer);
            return Err(e.into());
        }
        let mut timeouts = Vec::with_capacity(qos.timeouts.len());
        for t in &qos.timeouts {
            let (cause, period) = match t.kind {
                TimeoutKind::Interval => (TimeoutCause::Interval, t.span),
                TimeoutKind::Deadline => (TimeoutCause::Deadline, 0),
            };
            let purpose = Purpose { consumer, cause };
            let first = now.saturating_add(t.span);
            // Room was checked above.
            if let Ok(id) = self.timers.schedule_periodic(first, period, purpose) {
                timeouts.push(id);
            }
        }
        let priority = qos
            .groups
            .iter()
            .map(|g| Priority::of(g.info.criticality))
            .max()
            .unwrap_or_default();
        self.consumers.insert(
            consumer,
            ConsumerEntry {
                priority,
                timeouts,
                watchdogs: vec![None; qos.groups.len()],
            },
        );
        Ok(())
    }

    /// Disconnects `consumer`: its subscriptions, correlation state and
    /// timers are released. Whether it was connected.
    pub fn disconnect_consumer(&mut self, consumer: ConsumerId) -> bool {
        let Some(entry) = self.consumers.remove(&consumer) else {
            return false;
        };
        for id in entry
            .timeouts
            .iter()
            .chain(entry.watchdogs.iter().flatten())
        {
            self.timers.cancel(*id);
        }
        self.index.unsubscribe(consumer);
        self.publications.disconnect_consumer(consumer);
        self.correlator.disconnect(consumer);
        true
    }

    /// Connects `supplier` with its publications; its events are
    /// filtered at `priority`.
    pub fn connect_supplier(
        &mut self,
        supplier: SupplierId,
        qos: &SupplierQos,
        priority: Priority,
    ) -> Result<(), ConnectError> {
        self.publications.connect_supplier(supplier, qos)?;
        self.suppliers.insert(supplier, priority);
        Ok(())
    }

    /// Disconnects `supplier`; whether it was connected.
    pub fn disconnect_supplier(&mut self, supplier: SupplierId) -> bool {
        self.suppliers.remove(&supplier);
        self.publications.disconnect_supplier(supplier)
    }

    /// The command for an event `supplier` pushed, or `None` if the
    /// channel does not forward it (counted).
    pub fn push(&mut self, supplier: SupplierId, event: E) -> Option<Command<E>> {
        let forwarded = self
            .publications
            .forwards(supplier, event.event_type(), event.source());
        match self.suppliers.get(&supplier) {
            Some(priority) if forwarded => Some(Command::Filter {
                supplier,
                event,
                priority: *priority,
            }),
            _ => {
                self.counts.not_forwarded += 1;
                None
            }
        }
    }

    /// Runs `command` at time `now`, giving `next` the commands it makes;
    /// a `Dispatch` command is the dispatcher's to run and is given back.
    /// Nothing is allocated but the `Vec` of a completed conjunction's
    /// set (and whatever cloning an `E` costs).
    pub fn run(&mut self, command: Command<E>, now: TimeT, mut next: impl FnMut(Command<E>)) {
        match command {
            Command::Filter { event, .. } => {
                let mut matched = false;
                let consumers = &self.consumers;
                self.index
                    .matches(event.event_type(), event.source(), |at| {
                        if let Some(c) = consumers.get(&at.consumer) {
                            matched = true;
                            next(Command::Correlate {
                                at,
                                event: event.clone(),
                                priority: c.priority,
                            });
                        }
                    });
                if !matched {
                    self.counts.unmatched += 1;
                }
            }
            Command::Correlate {
                at,
                event,
                priority,
            } => self.correlate(at, event, priority, now, next),
            dispatch @ Command::Dispatch { .. } => next(dispatch),
        }
    }

    fn correlate(
        &mut self,
        at: super::filter::Match,
        event: E,
        priority: Priority,
        now: TimeT,
        mut next: impl FnMut(Command<E>),
    ) {
        let consumer = at.consumer;
        let mut set = Vec::new();
        let outcome = self.correlator.offer(at, &event, |slots| {
            set.extend(slots.iter_mut().filter_map(Option::take));
        });
        let watchdog = self
            .consumers
            .get_mut(&consumer)
            .and_then(|c| c.watchdogs.get_mut(usize::from(at.group)));
        let delivery = match outcome {
            Correlated::Single => Delivery::Event(event),
            Correlated::Completed => {
                if let Some(id) = watchdog.and_then(Option::take) {
                    self.timers.cancel(id);
                }
                Delivery::Set {
                    group: at.group,
                    events: set,
                }
            }
            Correlated::Started => {
                let span = self.correlator.deadline(consumer, at.group);
                if let (Some(slot), true) = (watchdog, span > 0) {
                    let purpose = Purpose {
                        consumer,
                        cause: TimeoutCause::Watchdog { group: at.group },
                    };
                    match self.timers.schedule(now.saturating_add(span), purpose) {
                        Ok(id) => *slot = Some(id),
                        Err(_) => self.counts.watchdogs_refused += 1,
                    }
                }
                return;
            }
            Correlated::Stored | Correlated::Unknown => return,
        };
        next(Command::Dispatch {
            consumer,
            delivery,
            priority,
        });
    }

    /// Expires the timers due at `now`: each gives its consumer a timeout
    /// event (a `Dispatch` command); a watchdog also empties its
    /// conjunction.
    pub fn expire(&mut self, now: TimeT, mut next: impl FnMut(Command<E>)) -> usize {
        let (consumers, correlator) = (&mut self.consumers, &mut self.correlator);
        self.timers.expire(now, |fired| {
            let Purpose { consumer, cause } = fired.payload;
            let Some(entry) = consumers.get_mut(&consumer) else {
                return;
            };
            if let TimeoutCause::Watchdog { group } = cause {
                if let Some(slot) = entry.watchdogs.get_mut(usize::from(group)) {
                    *slot = None;
                }
                correlator.abandon(consumer, group);
            } else if !fired.rearmed {
                entry.timeouts.retain(|id| *id != fired.id);
            }
            next(Command::Dispatch {
                consumer,
                delivery: Delivery::Timeout {
                    cause,
                    header: cause.header(fired.deadline),
                },
                priority: entry.priority,
            });
        })
    }

    /// The earliest time a timer is due, for the thread that waits for it.
    pub fn next_deadline(&self) -> Option<TimeT> {
        self.timers.next_deadline()
    }

    /// Timers scheduled.
    pub fn timers(&self) -> usize {
        self.timers.len()
    }

    /// What running the stages has counted.
    pub fn counts(&self) -> StageCounts {
        self.counts
    }
}

#[cfg(test)]
mod tests;
