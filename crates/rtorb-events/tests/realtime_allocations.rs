//! The real-time channel's core allocates nothing per event in steady
//! state: matching an event to the filters it passes, correlating it
//! (disjunctions and conjunctions, a conjunction's watchdog armed and
//! cancelled), and the timer queue's scheduling and expiring, counted by
//! the counting allocator on the calling thread.

use rtorb_events::realtime::{
    Command, ConsumerId, Correlated, Correlator, Priority, QosLimits, Stages, SubscriptionIndex,
    SupplierId, TimerQueue,
};
use rtorb_events::rtorb_event::{
    ConsumerQos, DependencyGroup, EventFilter, EventHeader, GroupKind, SupplierQos,
};
use rtorb_test_support::alloc::{CountingAllocator, allocations_per_call};

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

const CALLS: u64 = 2000;

fn filter(t: u32, source: u32) -> EventFilter {
    EventFilter {
        r#type: t,
        type_mask: !0,
        source,
        source_mask: !0,
    }
}

/// Twenty consumers: one group of exact filters each (OR for the even,
/// AND of three types for the odd), plus one that takes every event of
/// source 5.
fn subscriptions() -> Vec<(ConsumerId, ConsumerQos)> {
    let mut out: Vec<(ConsumerId, ConsumerQos)> = (0..20u32)
        .map(|n| {
            let kind = if n % 2 == 0 {
                GroupKind::Disjunction
            } else {
                GroupKind::Conjunction
            };
            let qos = ConsumerQos {
                groups: vec![DependencyGroup {
                    kind,
                    filters: vec![filter(20, 5), filter(21, 5), filter(22, 0)],
                    deadline: 1000,
                    ..DependencyGroup::default()
                }],
                timeouts: vec![],
            };
            (ConsumerId(u64::from(n)), qos)
        })
        .collect();
    out.push((
        ConsumerId(99),
        ConsumerQos {
            groups: vec![DependencyGroup {
                kind: GroupKind::Disjunction,
                filters: vec![filter(0, 5)],
                ..DependencyGroup::default()
            }],
            timeouts: vec![],
        },
    ));
    out
}

#[test]
fn matching_and_correlating_an_event_allocates_nothing_in_steady_state() {
    let limits = QosLimits::default();
    let mut index = SubscriptionIndex::new(limits);
    let mut correlator: Correlator<EventHeader> = Correlator::new(limits);
    for (id, qos) in subscriptions() {
        index.subscribe(id, &qos).unwrap();
        correlator.connect(id, &qos).unwrap();
    }
    let mut timers = TimerQueue::with_capacity(64).unwrap();
    let mut watchdogs = [None; 100];
    let mut now = 0u64;
    let (mut delivered, mut sets, mut late) = (0u64, 0u64, 0u64);
    let (per_event, _) = allocations_per_call(300, CALLS, || {
        now += 1;
        let event = EventHeader {
            r#type: 20 + (now % 3) as u32,
            source: 5,
            ttl: 0,
            creation_time: now,
        };
        index.matches(event.r#type, event.source, |at| {
            let slot = &mut watchdogs[at.consumer.0 as usize];
            match correlator.offer(at, &event, |set| {
                sets += set.iter().filter(|e| e.is_some()).count() as u64;
            }) {
                Correlated::Single => delivered += 1,
                Correlated::Started => *slot = timers.schedule(now + 1000, at.consumer).ok(),
                Correlated::Completed => {
                    if let Some(id) = slot.take() {
                        timers.cancel(id);
                    }
                }
                Correlated::Stored | Correlated::Unknown => {}
            }
        });
        timers.expire(now, |_| late += 1);
    });
    assert_eq!(per_event, 0.0, "allocations per event");
    assert!(delivered > 0, "the disjunctions delivered");
    assert!(sets > 0, "the conjunctions completed");
    assert_eq!(late, 0, "every watchdog was cancelled in time");
    assert!(timers.len() <= 10, "at most one armed per conjunction");
}

#[test]
fn an_event_through_every_stage_to_twenty_disjunctions_allocates_nothing() {
    let mut stages: Stages<EventHeader> = Stages::new(QosLimits::default(), 64).unwrap();
    let publications = SupplierQos {
        source: 5,
        publications: vec![filter(20, 0), filter(21, 0), filter(22, 0)],
    };
    stages
        .connect_supplier(SupplierId(1), &publications, Priority(0))
        .unwrap();
    for (id, qos) in subscriptions().into_iter().step_by(2) {
        stages.connect_consumer(id, &qos, 0).unwrap();
    }
    // The dispatcher's queue, allocated before the run.
    let mut pending: Vec<Command<EventHeader>> = Vec::with_capacity(64);
    let mut now = 0u64;
    let mut dispatched = 0u64;
    let (per_event, _) = allocations_per_call(300, CALLS, || {
        now += 1;
        let event = EventHeader {
            r#type: 20 + (now % 3) as u32,
            source: 5,
            ttl: 0,
            creation_time: now,
        };
        pending.extend(stages.push(SupplierId(1), event));
        while let Some(command) = pending.pop() {
            if matches!(command, Command::Dispatch { .. }) {
                dispatched += 1;
            } else {
                stages.run(command, now, |next| pending.push(next));
            }
        }
    });
    assert_eq!(per_event, 0.0, "allocations per event");
    // Ten disjunctions hear every event, the eleventh (any type) too.
    assert_eq!(dispatched, 11 * (300 + CALLS));
}
