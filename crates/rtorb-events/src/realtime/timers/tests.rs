use super::*;
use proptest::prelude::*;

fn fired(queue: &mut TimerQueue<u32>, now: TimeT) -> Vec<(TimeT, u32)> {
    let mut out = Vec::new();
    queue.expire(now, |e| out.push((e.deadline, e.payload)));
    out
}

#[test]
fn one_shot_timers_expire_in_deadline_order_and_first_come_first_served() {
    let mut queue = TimerQueue::with_capacity(8).unwrap();
    for (deadline, payload) in [(30, 1), (10, 2), (20, 3), (10, 4)] {
        queue.schedule(deadline, payload).unwrap();
    }
    assert_eq!(queue.next_deadline(), Some(10));
    assert_eq!(fired(&mut queue, 9), []);
    assert_eq!(fired(&mut queue, 20), [(10, 2), (10, 4), (20, 3)]);
    assert_eq!(fired(&mut queue, 100), [(30, 1)]);
    assert!(queue.is_empty());
}

#[test]
fn a_periodic_timer_fires_every_period_and_counts_what_it_missed() {
    let mut queue = TimerQueue::with_capacity(2).unwrap();
    let id = queue.schedule_periodic(100, 50, 7).unwrap();
    let mut seen = Vec::new();
    queue.expire(100, |e| seen.push((e.deadline, e.missed, e.rearmed)));
    queue.expire(160, |e| seen.push((e.deadline, e.missed, e.rearmed)));
    queue.expire(330, |e| seen.push((e.deadline, e.missed, e.rearmed)));
    assert_eq!(seen, [(100, 0, true), (150, 0, true), (200, 2, true)]);
    assert_eq!(queue.next_deadline(), Some(350));
    assert_eq!(queue.cancel(id), Some(7));
    assert_eq!(queue.cancel(id), None, "cancelled once");
    assert!(queue.is_empty());
}

#[test]
fn a_cancelled_or_fired_timer_s_id_names_nothing_even_when_its_slot_is_reused() {
    let mut queue = TimerQueue::with_capacity(1).unwrap();
    let first = queue.schedule(10, 1).unwrap();
    assert_eq!(fired(&mut queue, 10), [(10, 1)]);
    let second = queue.schedule(20, 2).unwrap();
    assert_eq!(queue.cancel(first), None);
    assert_eq!(queue.cancel(second), Some(2));
}

#[test]
fn a_million_timers_are_refused_past_the_capacity_without_growing() {
    let mut queue = TimerQueue::with_capacity(10_000).unwrap();
    let mut refused = 0;
    for n in 0..1_000_000u32 {
        match queue.schedule(TimeT::from(n % 977), n) {
            Ok(_) => {}
            Err(TimerError::Full { capacity }) => {
                assert_eq!(capacity, 10_000);
                refused += 1;
            }
            Err(other) => panic!("{other}"),
        }
    }
    assert_eq!(refused, 990_000);
    assert_eq!((queue.len(), queue.capacity()), (10_000, 10_000));
    assert_eq!(queue.heap.capacity(), 10_000, "the heap did not grow");
    assert_eq!(
        TimerQueue::<u32>::with_capacity(MAX_TIMER_CAPACITY + 1).err(),
        Some(TimerError::CapacityTooLarge {
            asked: MAX_TIMER_CAPACITY + 1
        })
    );
    let mut last = 0;
    let count = queue.expire(TimeT::MAX, |e| {
        assert!(e.deadline >= last);
        last = e.deadline;
    });
    assert_eq!(count, 10_000);
}

#[test]
fn a_periodic_timer_that_would_overflow_time_stops() {
    let mut queue = TimerQueue::with_capacity(1).unwrap();
    queue.schedule_periodic(TimeT::MAX - 5, 10, 1).unwrap();
    assert_eq!(fired(&mut queue, TimeT::MAX), [(TimeT::MAX - 5, 1)]);
    assert!(queue.is_empty());
}

#[derive(Debug, Clone)]
enum Op {
    Schedule(TimeT),
    Cancel(usize),
    Expire(TimeT),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0u64..1000).prop_map(Op::Schedule),
        1 => any::<usize>().prop_map(Op::Cancel),
        1 => (0u64..1000).prop_map(Op::Expire),
    ]
}

proptest! {
    /// Against a sorted list of (deadline, order of scheduling): the
    /// queue expires the same timers in the same order, cancels the same,
    /// and refuses exactly past its capacity.
    #[test]
    fn the_heap_agrees_with_a_sorted_reference(
        capacity in 1usize..40,
        ops in proptest::collection::vec(op(), 0..300),
    ) {
        let mut queue = TimerQueue::with_capacity(capacity).unwrap();
        // (deadline, sequence, payload), sorted.
        let mut model: Vec<(TimeT, u32, u32)> = Vec::new();
        let mut ids: Vec<(TimerId, u32)> = Vec::new();
        let mut next = 0u32;
        for op in ops {
            match op {
                Op::Schedule(deadline) => {
                    let result = queue.schedule(deadline, next);
                    if model.len() == capacity {
                        prop_assert_eq!(result, Err(TimerError::Full { capacity }));
                    } else {
                        ids.push((result.unwrap(), next));
                        model.push((deadline, next, next));
                        model.sort_unstable();
                    }
                    next += 1;
                }
                Op::Cancel(i) if !ids.is_empty() => {
                    let (id, payload) = ids[i % ids.len()];
                    let present = model.iter().position(|e| e.2 == payload);
                    prop_assert_eq!(queue.cancel(id), present.map(|_| payload));
                    if let Some(at) = present {
                        model.remove(at);
                    }
                }
                Op::Cancel(_) => {}
                Op::Expire(now) => {
                    let due: Vec<(TimeT, u32)> = model
                        .iter()
                        .take_while(|e| e.0 <= now)
                        .map(|e| (e.0, e.2))
                        .collect();
                    model.retain(|e| e.0 > now);
                    prop_assert_eq!(fired(&mut queue, now), due);
                }
            }
            prop_assert_eq!(queue.len(), model.len());
            prop_assert_eq!(queue.next_deadline(), model.first().map(|e| e.0));
        }
    }
}
