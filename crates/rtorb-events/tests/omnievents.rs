//! Interoperation with omniEvents 2.6.2: its tools supply into and
//! consume from an rtorb channel (`events -s`, `events`, `rmeventc`), and
//! `eventf` federates an rtorb channel with an omniEvents channel in
//! both directions, so that omniEvents' proxies push to rtorb's and
//! rtorb's to omniEvents'. Each test needs omniEvents and fails, saying
//! how to install it, where it is missing.

mod support;

use rtorb::exception::SystemExceptionKind;
use rtorb::orb::Orb;
use rtorb_events::cos_event_channel_admin::EventChannel as EventChannelRef;
use rtorb_events::{ChannelConfig, EventChannel};
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;

use rtorb_test_support::TIMEOUT;
use rtorb_test_support::omnievents::{
    EventService, InputFile, Peer, command, events_tool_input, run_tool,
};
use rtorb_test_support::wait::eventually;
use support::{
    Recorder, channel, connect_consumer, connect_supplier, orb, push_all, serve_consumer,
    serve_pull_supplier, text,
};

/// omniORB's tools serve their own objects on the loopback interface.
const LOOPBACK: [&str; 2] = ["-ORBendPoint", "giop:tcp:127.0.0.1:"];

fn url_of(orb: &Orb, chan: &EventChannel) -> String {
    orb.object_to_string(chan.reference()).expect("an IOR")
}

#[test]
#[ignore = "needs omniEvents (Debian omnievents): scripts/test.sh installs it and runs this"]
fn omnievents_events_tool_supplies_into_an_rtorb_channel() {
    let server = orb();
    let chan = channel(&server, "FromEvents", ChannelConfig::default());
    let recorder = Recorder::new();
    let _proxy = connect_consumer(chan.reference(), serve_consumer(&server, &recorder));
    let input = InputFile::new(
        "events-supply",
        &events_tool_input(&["first", "second event", "third"]),
    );
    let url = url_of(&server, &chan);
    let mut cmd = command("events", &[LOOPBACK[0], LOOPBACK[1], "-s", &url]);
    cmd.stdin(input.stdin());
    let mut supplier = Peer::spawn(&mut cmd, "events -s");
    assert_eq!(recorder.wait_events(3), ["first", "second event", "third"]);
    let status = supplier.wait().unwrap();
    assert!(
        status.success(),
        "events -s: {status}: {:?}",
        supplier.lines_so_far()
    );
    assert_eq!(chan.stats().events, 3);
    chan.destroy();
}

#[test]
#[ignore = "needs omniEvents (Debian omnievents): scripts/test.sh installs it and runs this"]
fn omnievents_events_tool_consumes_from_an_rtorb_channel_until_it_is_destroyed() {
    let server = orb();
    let chan = channel(&server, "ToEvents", ChannelConfig::default());
    let url = url_of(&server, &chan);
    let mut consumer = Peer::spawn(
        &mut command("events", &[LOOPBACK[0], LOOPBACK[1], &url]),
        "events",
    );
    assert!(
        eventually(TIMEOUT, || chan.consumers().iter().any(|c| c.connected)),
        "events never connected: {:?}",
        consumer.lines_so_far()
    );
    push_all(&connect_supplier(chan.reference()), &["hello-omnievents"]);
    assert!(
        consumer.output_holds("hello-omnievents"),
        "events did not show the event: {:?}",
        consumer.lines_so_far()
    );
    // Destroying the channel tells the consumer, which then ends.
    chan.destroy();
    consumer
        .line(|l| l.contains("disconnected"))
        .unwrap_or_else(|e| panic!("{e}"));
    let status = consumer.wait().unwrap();
    assert!(status.success(), "events: {status}");
}

#[test]
#[ignore = "needs omniEvents (Debian omnievents): scripts/test.sh installs it and runs this"]
fn omnievents_rmeventc_destroys_an_rtorb_channel() {
    let server = orb();
    let client = orb();
    let chan = channel(&server, "Removed", ChannelConfig::default());
    let corbaloc = chan.reference().corbaloc().expect("a corbaloc URL");
    run_tool("rmeventc", &[&corbaloc]);
    assert!(chan.is_destroyed());
    let remote: EventChannelRef = client
        .string_to_object(&corbaloc)
        .unwrap()
        .unchecked_narrow();
    let e = remote.for_consumers().expect_err("the channel is gone");
    assert_eq!(e.kind(), Some(SystemExceptionKind::ObjectNotExist), "{e}");
}

#[test]
#[ignore = "needs omniEvents (Debian omnievents): scripts/test.sh installs it and runs this"]
fn eventf_federates_an_rtorb_channel_with_an_omnievents_channel_both_ways() {
    let service = EventService::start();
    let omni_url = service.create_channel("OmniSide");
    let server = orb();
    let chan = channel(&server, "RtorbSide", ChannelConfig::default());
    let rtorb_url = chan.reference().corbaloc().expect("a corbaloc URL");
    let omni: EventChannelRef = server
        .string_to_object(&omni_url)
        .unwrap()
        .narrow()
        .unwrap()
        .expect("omniEvents' channel");

    // rtorb → omniEvents: omniEvents' ProxyPushConsumer is pushed to by
    // rtorb's ProxyPushSupplier; a consumer of the omniEvents channel
    // (served here) receives what is pushed to the rtorb channel.
    run_tool("eventf", &[&rtorb_url, &omni_url]);
    let at_omni = Recorder::new();
    let _p1 = connect_consumer(&omni, serve_consumer(&server, &at_omni));
    push_all(&connect_supplier(chan.reference()), &["rtorb to omni"]);
    assert_eq!(at_omni.wait_events(1), ["rtorb to omni"]);

    // omniEvents → rtorb: omniEvents' ProxyPushSupplier pushes to rtorb's
    // ProxyPushConsumer.
    let second = channel(&server, "RtorbSink", ChannelConfig::default());
    let sink_url = second.reference().corbaloc().expect("a corbaloc URL");
    run_tool("eventf", &[&omni_url, &sink_url]);
    let at_rtorb = Recorder::new();
    let _p2 = connect_consumer(second.reference(), serve_consumer(&server, &at_rtorb));
    push_all(&connect_supplier(&omni), &["omni to rtorb"]);
    assert_eq!(at_rtorb.wait_events(1), ["omni to rtorb"]);
    chan.destroy();
    second.destroy();
}

#[test]
#[ignore = "needs omniEvents (Debian omnievents): scripts/test.sh installs it and runs this"]
fn rtorb_pull_clients_work_with_an_omnievents_channel() {
    let service = EventService::start();
    let url = service.create_channel("PullSide");
    let server = orb();
    let omni: EventChannelRef = server
        .string_to_object(&url)
        .unwrap()
        .narrow()
        .unwrap()
        .expect("omniEvents' channel");
    // An rtorb pull consumer of omniEvents' ProxyPullSupplier...
    let pulled = omni
        .for_consumers()
        .unwrap()
        .unwrap()
        .obtain_pull_supplier()
        .unwrap()
        .unwrap();
    pulled.connect_pull_consumer(&None).unwrap();
    // ... gets what omniEvents' ProxyPullConsumer pulls from an rtorb
    // pull supplier.
    let told = Arc::new(AtomicUsize::new(0));
    let supplier = serve_pull_supplier(&server, &["pulled twice"], false, &told);
    let proxy = omni
        .for_suppliers()
        .unwrap()
        .unwrap()
        .obtain_pull_consumer()
        .unwrap()
        .unwrap();
    proxy.connect_pull_supplier(&Some(supplier)).unwrap();
    // omniEvents' `pull` does not wait (it raises TRANSIENT while it has
    // no event): ask with `try_pull` until the event is there.
    let mut events = Vec::new();
    let came = eventually(TIMEOUT, || {
        let (event, has_event) = pulled.try_pull().expect("try_pull");
        if has_event {
            events.push(text(&event));
        }
        has_event
    });
    assert!(came, "no event pulled through omniEvents");
    assert_eq!(events, ["pulled twice"]);
    pulled.disconnect_pull_supplier().unwrap();
    proxy.disconnect_pull_consumer().unwrap();
}
