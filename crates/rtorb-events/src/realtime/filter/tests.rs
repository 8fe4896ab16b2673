use super::*;
use crate::idl::rtorb_event::{DependencyGroup, EventFilter, GroupKind};
use proptest::prelude::*;

fn filter(t: u32, tm: u32, s: u32, sm: u32) -> EventFilter {
    EventFilter {
        r#type: t,
        type_mask: tm,
        source: s,
        source_mask: sm,
    }
}

fn qos(groups: Vec<Vec<EventFilter>>) -> ConsumerQos {
    ConsumerQos {
        groups: groups
            .into_iter()
            .map(|filters| DependencyGroup {
                kind: GroupKind::Disjunction,
                filters,
                ..DependencyGroup::default()
            })
            .collect(),
        timeouts: vec![],
    }
}

fn found(index: &SubscriptionIndex, t: u32, s: u32) -> Vec<Match> {
    let mut out = Vec::new();
    index.matches(t, s, |m| out.push(m));
    out.sort();
    out
}

/// What a naive matcher finds: every filter of every consumer, tried.
fn reference(consumers: &[(ConsumerId, ConsumerQos)], t: u32, s: u32) -> Vec<Match> {
    let mut out = Vec::new();
    for (consumer, qos) in consumers {
        for (g, group) in qos.groups.iter().enumerate() {
            for (m, f) in group.filters.iter().enumerate() {
                let type_ok = f.r#type == 0 || t & f.type_mask == f.r#type & f.type_mask;
                let source_ok = f.source == 0 || s & f.source_mask == f.source & f.source_mask;
                if type_ok && source_ok {
                    out.push(Match {
                        consumer: *consumer,
                        group: g as u16,
                        member: m as u16,
                    });
                }
            }
        }
    }
    out.sort();
    out
}

#[test]
fn an_event_finds_exact_wildcard_and_masked_filters() {
    let mut index = SubscriptionIndex::new(QosLimits::default());
    index
        .subscribe(
            ConsumerId(1),
            &qos(vec![vec![filter(20, !0, 7, !0), filter(0, 0, 7, !0)]]),
        )
        .unwrap();
    index
        .subscribe(
            ConsumerId(2),
            &qos(vec![
                vec![filter(20, !0, 0, 0)],
                vec![filter(0x14, 0xf0, 0, 0)],
            ]),
        )
        .unwrap();
    let at = |c, g, m| Match {
        consumer: ConsumerId(c),
        group: g,
        member: m,
    };
    assert_eq!(
        found(&index, 20, 7),
        [at(1, 0, 0), at(1, 0, 1), at(2, 0, 0), at(2, 1, 0)]
    );
    assert_eq!(found(&index, 21, 7), [at(1, 0, 1), at(2, 1, 0)]);
    assert_eq!(found(&index, 0x31, 8), []);
    assert!(index.is_wanted(0x1f, 9));
    assert!(!index.is_wanted(0x31, 9));
    assert_eq!(
        index.mask_pairs(),
        4,
        "exact, any type, any source, low bits"
    );
}

#[test]
fn unsubscribing_takes_out_every_filter_and_unused_mask_pairs() {
    let mut index = SubscriptionIndex::new(QosLimits::default());
    index
        .subscribe(ConsumerId(1), &qos(vec![vec![filter(20, !0, 0, 0)]]))
        .unwrap();
    index
        .subscribe(ConsumerId(2), &qos(vec![vec![filter(20, 0xff, 3, !0)]]))
        .unwrap();
    assert_eq!(
        index.subscribe(ConsumerId(2), &qos(vec![vec![filter(1, !0, 0, 0)]])),
        Err(QosError::AlreadyConnected)
    );
    assert!(index.unsubscribe(ConsumerId(2)));
    assert!(!index.unsubscribe(ConsumerId(2)));
    assert_eq!(index.mask_pairs(), 1);
    assert_eq!(found(&index, 20, 3).len(), 1);
    assert!(index.unsubscribe(ConsumerId(1)));
    assert_eq!((index.mask_pairs(), index.consumers()), (0, 0));
    assert!(!index.is_wanted(20, 3));
}

#[test]
fn thousands_of_filters_in_a_subscription_are_indexed_or_refused() {
    let limits = QosLimits {
        max_filters: 4096,
        ..QosLimits::default()
    };
    let mut index = SubscriptionIndex::new(limits);
    let many: Vec<EventFilter> = (0..4096).map(|t| filter(16 + t, !0, 0, 0)).collect();
    index.subscribe(ConsumerId(1), &qos(vec![many])).unwrap();
    assert_eq!(found(&index, 16 + 4000, 5).len(), 1);
    assert_eq!(index.mask_pairs(), 1, "one hash table for them all");

    let too_many: Vec<EventFilter> = (0..4097).map(|t| filter(16 + t, !0, 0, 0)).collect();
    assert_eq!(
        index.subscribe(ConsumerId(2), &qos(vec![too_many])),
        Err(QosError::TooManyFilters {
            given: 4097,
            most: 4096
        })
    );
    let masks: Vec<EventFilter> = (0..100).map(|m| filter(1, m + 1, 0, 0)).collect();
    assert_eq!(
        index.subscribe(ConsumerId(3), &qos(vec![masks])),
        Err(QosError::TooManyMaskPairs { most: 32 })
    );
    assert_eq!(index.consumers(), 1, "refused subscriptions leave nothing");
    assert_eq!(index.mask_pairs(), 1);
}

fn small_filter() -> impl Strategy<Value = EventFilter> {
    // Few values and a few masks, so that filters and events meet.
    let value = prop_oneof![Just(0u32), 16u32..24, Just(0x115)];
    let mask = prop_oneof![Just(!0u32), Just(0xffu32), Just(0x3u32)];
    (value.clone(), mask.clone(), value, mask).prop_map(|(t, tm, s, sm)| filter(t, tm, s, sm))
}

proptest! {
    #[test]
    fn matching_agrees_with_trying_every_filter(
        subscriptions in proptest::collection::vec(
            proptest::collection::vec(proptest::collection::vec(small_filter(), 1..6), 1..4),
            1..6,
        ),
        leave in proptest::collection::vec(any::<bool>(), 6),
        events in proptest::collection::vec((0u32..30, 0u32..30), 1..40),
    ) {
        let mut index = SubscriptionIndex::new(QosLimits::default());
        let mut consumers = Vec::new();
        for (n, groups) in subscriptions.into_iter().enumerate() {
            let q = qos(groups);
            index.subscribe(ConsumerId(n as u64), &q).unwrap();
            consumers.push((ConsumerId(n as u64), q));
        }
        for (n, gone) in leave.iter().enumerate() {
            if *gone && index.unsubscribe(ConsumerId(n as u64)) {
                consumers.retain(|(c, _)| *c != ConsumerId(n as u64));
            }
        }
        for (t, s) in events {
            let t = if t >= 24 { 0x115 + t - 24 } else { t };
            let expected = reference(&consumers, t, s);
            prop_assert_eq!(index.is_wanted(t, s), !expected.is_empty());
            prop_assert_eq!(found(&index, t, s), expected);
        }
    }
}
