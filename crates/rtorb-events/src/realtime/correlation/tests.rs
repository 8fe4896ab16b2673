use super::*;
use crate::idl::rtorb_event::{DependencyGroup, EventFilter};
use proptest::prelude::*;

fn group(kind: GroupKind, members: usize) -> DependencyGroup {
    DependencyGroup {
        kind,
        filters: (0..members)
            .map(|m| EventFilter {
                r#type: 16 + m as u32,
                type_mask: !0,
                source: 0,
                source_mask: 0,
            })
            .collect(),
        ..DependencyGroup::default()
    }
}

fn at(group: u16, member: u16) -> Match {
    Match {
        consumer: ConsumerId(1),
        group,
        member,
    }
}

fn correlator(groups: Vec<DependencyGroup>) -> Correlator<u32> {
    let mut c = Correlator::new(QosLimits::default());
    c.connect(
        ConsumerId(1),
        &ConsumerQos {
            groups,
            timeouts: vec![],
        },
    )
    .unwrap();
    c
}

#[test]
fn a_disjunction_passes_each_event_on() {
    let mut c = correlator(vec![group(GroupKind::Disjunction, 2)]);
    assert_eq!(
        c.offer(at(0, 1), &7, |_| panic!("no set")),
        Correlated::Single
    );
    assert_eq!(
        c.offer(at(0, 0), &8, |_| panic!("no set")),
        Correlated::Single
    );
}

#[test]
fn a_conjunction_completes_when_every_member_has_arrived_then_starts_again() {
    let mut c = correlator(vec![group(GroupKind::Conjunction, 3)]);
    let mut sets = Vec::new();
    let mut offer = |c: &mut Correlator<u32>, member, event| {
        c.offer(at(0, member), &event, |set| {
            sets.push(set.iter_mut().map(|e| e.take()).collect::<Vec<_>>());
        })
    };
    assert_eq!(offer(&mut c, 2, 30), Correlated::Started);
    assert_eq!(offer(&mut c, 0, 10), Correlated::Stored);
    assert_eq!(offer(&mut c, 0, 11), Correlated::Stored, "replaces 10");
    assert_eq!(offer(&mut c, 1, 20), Correlated::Completed);
    assert_eq!(offer(&mut c, 1, 21), Correlated::Started, "empty again");
    assert_eq!(sets, [vec![Some(11), Some(20), Some(30)]]);
    assert_eq!(
        c.counts(ConsumerId(1)),
        Some(CorrelationCounts {
            completed: 1,
            replaced: 1,
            abandoned: 0
        })
    );
}

#[test]
fn an_abandoned_conjunction_starts_again_and_unknown_matches_are_said() {
    let mut c = correlator(vec![
        group(GroupKind::Conjunction, 2),
        group(GroupKind::Conjunction, 64),
    ]);
    assert_eq!(c.offer(at(0, 0), &1, |_| {}), Correlated::Started);
    assert!(c.abandon(ConsumerId(1), 0));
    assert!(!c.abandon(ConsumerId(1), 0), "already empty");
    assert_eq!(c.offer(at(0, 1), &2, |_| {}), Correlated::Started);
    let mut completed = false;
    for member in 0..64 {
        let outcome = c.offer(at(1, member), &3, |set| completed = set.len() == 64);
        assert_eq!(outcome == Correlated::Completed, member == 63);
    }
    assert!(completed, "a conjunction of 64 completes");
    assert_eq!(c.offer(at(2, 0), &4, |_| {}), Correlated::Unknown);
    assert_eq!(c.offer(at(0, 5), &4, |_| {}), Correlated::Unknown);
    assert!(c.disconnect(ConsumerId(1)));
    assert_eq!(c.offer(at(0, 0), &4, |_| {}), Correlated::Unknown);
}

proptest! {
    /// A conjunction delivers exactly when every member has an event
    /// since its last set, and delivers each member's latest event.
    #[test]
    fn conjunctions_agree_with_a_model(
        members in 1usize..8,
        arrivals in proptest::collection::vec((0usize..8, any::<u32>()), 0..200),
    ) {
        let mut c = correlator(vec![group(GroupKind::Conjunction, members)]);
        let mut model: Vec<Option<u32>> = vec![None; members];
        for (member, event) in arrivals {
            let member = member % members;
            let was_empty = model.iter().all(Option::is_none);
            model[member] = Some(event);
            let mut delivered = None;
            let outcome = c.offer(at(0, member as u16), &event, |set| {
                delivered = Some(set.to_vec());
            });
            if model.iter().all(Option::is_some) {
                prop_assert_eq!(outcome, Correlated::Completed);
                prop_assert_eq!(delivered, Some(model.clone()));
                model.iter_mut().for_each(|m| *m = None);
            } else {
                prop_assert_eq!(delivered, None);
                let expected = if was_empty { Correlated::Started } else { Correlated::Stored };
                prop_assert_eq!(outcome, expected);
            }
        }
    }
}
