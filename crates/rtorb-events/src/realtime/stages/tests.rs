use super::*;
use crate::idl::rtorb_event::{
    CriticalityLevel, DEADLINE_TIMEOUT, DependencyGroup, DependencyInfo, EventFilter, EventHeader,
    GroupKind, INTERVAL_TIMEOUT, TimeoutRequest,
};

fn header(t: u32, s: u32) -> EventHeader {
    EventHeader {
        r#type: t,
        source: s,
        ttl: 0,
        creation_time: 0,
    }
}

fn exact(t: u32) -> EventFilter {
    EventFilter {
        r#type: t,
        type_mask: !0,
        source: 0,
        source_mask: 0,
    }
}

fn group(kind: GroupKind, types: &[u32], deadline: TimeT) -> DependencyGroup {
    DependencyGroup {
        kind,
        filters: types.iter().map(|t| exact(*t)).collect(),
        deadline,
        info: DependencyInfo {
            rate_hz: 0,
            worst_case_execution_time: 0,
            criticality: CriticalityLevel::High,
        },
    }
}

fn supplier_of(types: &[u32]) -> SupplierQos {
    SupplierQos {
        source: 5,
        publications: types.iter().map(|t| exact(*t)).collect(),
    }
}

/// Runs a push through every stage: the dispatch commands it makes.
fn deliver(
    stages: &mut Stages<EventHeader>,
    event: EventHeader,
    now: TimeT,
) -> Vec<Command<EventHeader>> {
    let mut pending: Vec<Command<EventHeader>> =
        stages.push(SupplierId(1), event).into_iter().collect();
    let mut out = Vec::new();
    while let Some(command) = pending.pop() {
        if matches!(command, Command::Dispatch { .. }) {
            out.push(command);
            continue;
        }
        stages.run(command, now, |c| pending.push(c));
    }
    out
}

fn stages() -> Stages<EventHeader> {
    let mut s = Stages::new(QosLimits::default(), 64).unwrap();
    s.connect_supplier(SupplierId(1), &supplier_of(&[20, 21, 22]), Priority(1))
        .unwrap();
    s
}

#[test]
fn an_event_goes_through_filter_correlate_and_dispatch_at_the_consumer_s_priority() {
    let mut s = stages();
    let qos = ConsumerQos {
        groups: vec![group(GroupKind::Disjunction, &[20], 0)],
        timeouts: vec![],
    };
    s.connect_consumer(ConsumerId(9), &qos, 0).unwrap();
    assert_eq!(
        deliver(&mut s, header(20, 5), 0),
        [Command::Dispatch {
            consumer: ConsumerId(9),
            delivery: Delivery::Event(header(20, 5)),
            priority: Priority::of(CriticalityLevel::High),
        }]
    );
    assert!(deliver(&mut s, header(21, 5), 0).is_empty());
    assert!(
        deliver(&mut s, header(30, 5), 0).is_empty(),
        "not published"
    );
    assert_eq!(
        s.counts(),
        StageCounts {
            not_forwarded: 1,
            unmatched: 1,
            watchdogs_refused: 0
        }
    );
}

#[test]
fn a_conjunction_is_delivered_as_a_set_and_its_watchdog_cancelled() {
    let mut s = stages();
    let qos = ConsumerQos {
        groups: vec![group(GroupKind::Conjunction, &[20, 21], 100)],
        timeouts: vec![],
    };
    s.connect_consumer(ConsumerId(9), &qos, 0).unwrap();
    assert!(deliver(&mut s, header(21, 5), 10).is_empty());
    assert_eq!(s.timers(), 1, "the watchdog is armed");
    let out = deliver(&mut s, header(20, 5), 50);
    assert!(matches!(
        &out[..],
        [Command::Dispatch { delivery: Delivery::Set { group: 0, events }, .. }]
            if events == &[header(20, 5), header(21, 5)]
    ));
    assert_eq!(
        s.timers(),
        0,
        "satisfied in time, the watchdog is cancelled"
    );
    assert_eq!(s.expire(1000, |_| panic!("nothing is due")), 0);
}

#[test]
fn a_late_conjunction_gives_a_deadline_timeout_and_starts_again() {
    let mut s = stages();
    let qos = ConsumerQos {
        groups: vec![group(GroupKind::Conjunction, &[20, 21], 100)],
        timeouts: vec![],
    };
    s.connect_consumer(ConsumerId(9), &qos, 0).unwrap();
    assert!(deliver(&mut s, header(21, 5), 10).is_empty());
    let mut timeouts = Vec::new();
    assert_eq!(s.expire(110, |c| timeouts.push(c)), 1);
    assert_eq!(
        timeouts,
        [Command::Dispatch {
            consumer: ConsumerId(9),
            delivery: Delivery::Timeout {
                cause: TimeoutCause::Watchdog { group: 0 },
                header: header(DEADLINE_TIMEOUT, 0).with_time(110),
            },
            priority: Priority::of(CriticalityLevel::High),
        }]
    );
    assert!(
        deliver(&mut s, header(20, 5), 120).is_empty(),
        "the 21 before the deadline was dropped"
    );
}

trait WithTime {
    fn with_time(self, t: TimeT) -> Self;
}

impl WithTime for EventHeader {
    fn with_time(mut self, t: TimeT) -> EventHeader {
        self.creation_time = t;
        self
    }
}

#[test]
fn interval_and_deadline_timeouts_reach_their_consumer_until_it_disconnects() {
    let mut s = stages();
    let qos = ConsumerQos {
        groups: vec![],
        timeouts: vec![
            TimeoutRequest {
                kind: TimeoutKind::Interval,
                span: 10,
            },
            TimeoutRequest {
                kind: TimeoutKind::Deadline,
                span: 25,
            },
        ],
    };
    s.connect_consumer(ConsumerId(3), &qos, 0).unwrap();
    let mut types = Vec::new();
    s.expire(30, |c| {
        if let Command::Dispatch {
            delivery: Delivery::Timeout { header, .. },
            ..
        } = c
        {
            types.push((header.creation_time, header.r#type));
        }
    });
    assert_eq!(types, [(10, INTERVAL_TIMEOUT), (25, DEADLINE_TIMEOUT)]);
    assert_eq!(s.timers(), 1, "the interval goes on, the deadline is spent");
    assert!(s.disconnect_consumer(ConsumerId(3)));
    assert_eq!(s.timers(), 0, "its timers are released");
    assert!(!s.disconnect_consumer(ConsumerId(3)));
}

#[test]
fn a_consumer_whose_timeouts_do_not_fit_is_refused_whole() {
    let mut s: Stages<EventHeader> = Stages::new(QosLimits::default(), 2).unwrap();
    s.connect_supplier(SupplierId(1), &supplier_of(&[20]), Priority(0))
        .unwrap();
    let qos = ConsumerQos {
        groups: vec![group(GroupKind::Disjunction, &[20], 0)],
        timeouts: vec![
            TimeoutRequest {
                kind: TimeoutKind::Interval,
                span: 10,
            };
            3
        ],
    };
    assert_eq!(
        s.connect_consumer(ConsumerId(1), &qos, 0),
        Err(ConnectError::Timers(TimerError::Full { capacity: 2 }))
    );
    assert!(
        deliver(&mut s, header(20, 5), 0).is_empty(),
        "not subscribed"
    );
    assert_eq!(s.counts().not_forwarded, 1, "nobody hears the supplier");
}

#[test]
fn a_consumer_that_reconnects_in_a_loop_leaves_nothing_behind() {
    let mut s = stages();
    let qos = ConsumerQos {
        groups: vec![group(GroupKind::Conjunction, &[20, 21], 100)],
        timeouts: vec![TimeoutRequest {
            kind: TimeoutKind::Interval,
            span: 10,
        }],
    };
    for round in 0..10_000 {
        s.connect_consumer(ConsumerId(1), &qos, round).unwrap();
        assert!(deliver(&mut s, header(20, 5), round).is_empty());
        assert!(s.disconnect_consumer(ConsumerId(1)));
    }
    assert_eq!(s.timers(), 0);
    assert_eq!(s.next_deadline(), None);
}

mod model {
    use super::*;
    use proptest::prelude::*;

    fn groups() -> impl Strategy<Value = Vec<DependencyGroup>> {
        // A disjunction of any filters; a conjunction of distinct exact
        // types, so that no event passes two of its filters (the order in
        // which it would fill them is the index's, not the filters').
        let disjunction = proptest::collection::vec(prop_oneof![Just(0u32), 20u32..24], 1..4)
            .prop_map(|types| group(GroupKind::Disjunction, &types, 0));
        let conjunction = proptest::sample::subsequence(vec![20u32, 21, 22, 23], 1..4)
            .prop_shuffle()
            .prop_map(|types| group(GroupKind::Conjunction, &types, 0));
        proptest::collection::vec(prop_oneof![disjunction, conjunction], 1..3)
    }

    /// What a consumer should get, computed naively: per group, the
    /// filters each event passes, and a conjunction's latest event per
    /// filter until every filter has one.
    #[derive(Default)]
    struct Naive {
        slots: Vec<Vec<Option<EventHeader>>>,
    }

    impl Naive {
        fn offer(
            &mut self,
            qos: &ConsumerQos,
            e: &EventHeader,
            out: &mut Vec<Delivery<EventHeader>>,
        ) {
            self.slots.resize(qos.groups.len(), Vec::new());
            for (g, group) in qos.groups.iter().enumerate() {
                let slots = &mut self.slots[g];
                slots.resize(group.filters.len(), None);
                for (m, f) in group.filters.iter().enumerate() {
                    if f.r#type != 0 && f.r#type != e.r#type {
                        continue;
                    }
                    if group.kind == GroupKind::Disjunction {
                        out.push(Delivery::Event(e.clone()));
                        continue;
                    }
                    slots[m] = Some(e.clone());
                    if slots.iter().all(Option::is_some) {
                        let events = slots.iter_mut().filter_map(Option::take).collect();
                        out.push(Delivery::Set {
                            group: g as u16,
                            events,
                        });
                    }
                }
            }
        }
    }

    proptest! {
        #[test]
        fn deliveries_agree_with_a_naive_channel(
            consumers in proptest::collection::vec(groups(), 1..5),
            events in proptest::collection::vec((18u32..25, 0u64..1000), 0..60),
        ) {
            let mut s = stages();
            let mut naive: Vec<(ConsumerQos, Naive)> = Vec::new();
            for (n, groups) in consumers.into_iter().enumerate() {
                let qos = ConsumerQos { groups, timeouts: vec![] };
                s.connect_consumer(ConsumerId(n as u64), &qos, 0).unwrap();
                naive.push((qos, Naive::default()));
            }
            for (t, creation_time) in events {
                let e = EventHeader { creation_time, ..header(t, 5) };
                let mut expected: Vec<(u64, Delivery<EventHeader>)> = Vec::new();
                if (20..=22).contains(&t) {
                    for (n, (qos, model)) in naive.iter_mut().enumerate() {
                        let mut out = Vec::new();
                        model.offer(qos, &e, &mut out);
                        expected.extend(out.into_iter().map(|d| (n as u64, d)));
                    }
                }
                let mut got: Vec<(u64, Delivery<EventHeader>)> = deliver(&mut s, e, 0)
                    .into_iter()
                    .filter_map(|c| match c {
                        Command::Dispatch { consumer, delivery, .. } => Some((consumer.0, delivery)),
                        _ => None,
                    })
                    .collect();
                let key = |d: &(u64, Delivery<EventHeader>)| format!("{d:?}");
                got.sort_by_key(key);
                expected.sort_by_key(key);
                prop_assert_eq!(got, expected);
            }
        }
    }
}
