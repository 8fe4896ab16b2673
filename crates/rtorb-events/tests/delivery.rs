//! Push delivery under slow, blocked, failing and refusing consumers: a
//! consumer held inside a push delays neither the suppliers nor the other
//! consumers, its queue applies the overflow policy and counts what it
//! drops, and a consumer that fails or says it is disconnected loses its
//! proxy while the channel goes on.

mod support;

use std::sync::Arc;

use rtorb::cdr::Any;
use rtorb_events::{ChannelConfig, OverflowPolicy};
use rtorb_test_support::{TIMEOUT, wait::eventually};
use support::{
    Recorder, channel, connect_consumer, connect_supplier, orb, push_all, serve_consumer,
};

fn config(queue_length: usize, overflow: OverflowPolicy) -> ChannelConfig {
    ChannelConfig {
        queue_length,
        overflow,
        ..ChannelConfig::default()
    }
}

const TEN: [&str; 10] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];

/// Pushes `texts[from..]` one by one, each once `prompt` has all before
/// it: the prompt consumer's queue never holds more than one event.
fn push_in_step(
    supplier: &rtorb_events::cos_event_channel_admin::ProxyPushConsumer,
    prompt: &Recorder,
    from: usize,
) {
    for (i, t) in TEN.iter().enumerate().skip(from) {
        supplier.push(&Any::from(*t)).expect("push");
        prompt.wait_events(i + 1);
    }
}

#[test]
fn a_blocked_consumer_delays_no_one_and_drops_its_oldest_events() {
    let server = orb();
    let chan = channel(&server, "Oldest", config(2, OverflowPolicy::DropOldest));
    let blocked = Recorder::holding();
    let _guard = blocked.hold.open_when_dropped();
    let _p1 = connect_consumer(chan.reference(), serve_consumer(&server, &blocked));
    let prompt = Recorder::new();
    let _p2 = connect_consumer(chan.reference(), serve_consumer(&server, &prompt));
    let supplier = connect_supplier(chan.reference());
    push_all(&supplier, &TEN[..1]);
    assert!(
        blocked.hold.wait_entered(TIMEOUT),
        "the first push never came"
    );
    prompt.wait_events(1);
    // The blocked consumer holds event 0; its queue of two takes 1..9.
    push_in_step(&supplier, &prompt, 1);
    assert_eq!(prompt.events(), TEN);
    let queues = chan.consumers();
    let dropped: Vec<u64> = queues.iter().map(|c| c.counts.dropped).collect();
    assert!(dropped.contains(&7) && dropped.contains(&0), "{queues:?}");
    assert_eq!(chan.stats().dropped, 7);
    blocked.hold.open();
    assert_eq!(blocked.wait_events(3), ["0", "8", "9"]);
    chan.destroy();
}

#[test]
fn a_full_queue_can_drop_the_newest_events_instead() {
    let server = orb();
    let chan = channel(&server, "Newest", config(2, OverflowPolicy::DropNewest));
    let blocked = Recorder::holding();
    let _guard = blocked.hold.open_when_dropped();
    let _p = connect_consumer(chan.reference(), serve_consumer(&server, &blocked));
    let supplier = connect_supplier(chan.reference());
    push_all(&supplier, &TEN[..1]);
    assert!(blocked.hold.wait_entered(TIMEOUT));
    push_all(&supplier, &TEN[1..]);
    assert_eq!(chan.stats().dropped, 7);
    blocked.hold.open();
    assert_eq!(blocked.wait_events(3), ["0", "1", "2"]);
    chan.destroy();
}

#[test]
fn a_consumer_whose_queue_overflows_can_be_disconnected() {
    let server = orb();
    let chan = channel(
        &server,
        "Strict",
        config(1, OverflowPolicy::DisconnectConsumer),
    );
    let blocked = Recorder::holding();
    let _guard = blocked.hold.open_when_dropped();
    let _p1 = connect_consumer(chan.reference(), serve_consumer(&server, &blocked));
    let prompt = Recorder::new();
    let _p2 = connect_consumer(chan.reference(), serve_consumer(&server, &prompt));
    let supplier = connect_supplier(chan.reference());
    push_all(&supplier, &TEN[..1]);
    assert!(blocked.hold.wait_entered(TIMEOUT));
    prompt.wait_events(1);
    // 1 is queued, 2 overflows: the blocked consumer is disconnected.
    push_in_step(&supplier, &prompt, 1);
    let stats = chan.stats();
    assert_eq!(stats.disconnected_on_overflow, 1);
    assert_eq!(stats.proxies[0], 1, "{stats:?}");
    assert_eq!(prompt.events(), TEN);
    blocked.hold.open();
    assert!(
        blocked.wait_disconnected(),
        "the dropped consumer was not told"
    );
    assert_eq!(blocked.events(), ["0"]);
    chan.destroy();
}

#[test]
fn a_consumer_that_dies_is_disconnected_and_the_others_go_on() {
    let server = orb();
    let chan = channel(&server, "Survivors", ChannelConfig::default());
    let elsewhere = orb();
    let doomed = Recorder::new();
    let _p1 = connect_consumer(chan.reference(), serve_consumer(&elsewhere, &doomed));
    let survivor = Recorder::new();
    let _p2 = connect_consumer(chan.reference(), serve_consumer(&server, &survivor));
    let supplier = connect_supplier(chan.reference());
    push_all(&supplier, &["alive"]);
    assert_eq!(doomed.wait_events(1), ["alive"]);
    elsewhere.shutdown();
    drop(elsewhere);
    push_all(&supplier, &["after"]);
    assert!(
        eventually(TIMEOUT, || chan.stats().disconnected_on_failure == 1),
        "{:?}",
        chan.stats()
    );
    assert_eq!(chan.stats().proxies[0], 1);
    push_all(&supplier, &["still"]);
    assert_eq!(survivor.wait_events(3), ["alive", "after", "still"]);
    chan.destroy();
}

#[test]
fn a_consumer_that_raises_disconnected_loses_its_proxy() {
    let server = orb();
    let chan = channel(&server, "Refused", ChannelConfig::default());
    let refusing = Recorder::refusing();
    let _p = connect_consumer(chan.reference(), serve_consumer(&server, &refusing));
    connect_supplier(chan.reference())
        .push(&Any::from("no thanks"))
        .unwrap();
    assert!(eventually(TIMEOUT, || chan.stats().disconnected_on_failure == 1));
    assert_eq!(chan.stats().proxies[0], 0);
    assert_eq!(
        refusing.disconnects(),
        0,
        "a consumer that left is not told"
    );
    chan.destroy();
}

#[test]
fn many_consumers_each_get_every_event() {
    let server = orb();
    let chan = channel(&server, "Many", ChannelConfig::default());
    let recorders: Vec<Arc<Recorder>> = (0..20).map(|_| Recorder::new()).collect();
    let _proxies: Vec<_> = recorders
        .iter()
        .map(|r| connect_consumer(chan.reference(), serve_consumer(&server, r)))
        .collect();
    push_all(&connect_supplier(chan.reference()), &TEN);
    for r in &recorders {
        assert_eq!(r.wait_events(10), TEN);
    }
    chan.destroy();
}

#[test]
fn a_consumer_that_reconnects_in_a_loop_leaves_nothing_behind() {
    let server = orb();
    let config = ChannelConfig {
        max_proxies: 4,
        ..ChannelConfig::default()
    };
    let chan = channel(&server, "Loop", config);
    let recorder = Recorder::new();
    let consumer = serve_consumer(&server, &recorder);
    for _ in 0..200 {
        let proxy = connect_consumer(chan.reference(), consumer.clone());
        proxy.disconnect_push_supplier().unwrap();
    }
    // Each was told, none is left, and the channel has room and delivers.
    assert!(eventually(TIMEOUT, || recorder.disconnects() == 200));
    assert_eq!(chan.stats().proxies, [0; 4]);
    let _kept = connect_consumer(chan.reference(), consumer);
    push_all(&connect_supplier(chan.reference()), &["still here"]);
    assert_eq!(recorder.wait_events(1), ["still here"]);
    chan.destroy();
}
