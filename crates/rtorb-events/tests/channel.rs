//! The channel as the OMG Event Service specifies it: admins and proxies,
//! push delivery to consumers in the channel's process and in another
//! ORB, `AlreadyConnected`, `BAD_PARAM` for a nil consumer, what
//! `disconnect_*` and `destroy` do to both sides, and the OMG repository
//! ids that other ORBs' clients ask for.

mod support;

use rtorb::Stub;
use rtorb::cdr::Any;
use rtorb::exception::SystemExceptionKind;
use rtorb_events::cos_event_channel_admin::proxy_push_consumer::ConnectPushSupplierError;
use rtorb_events::cos_event_channel_admin::proxy_push_supplier::ConnectPushConsumerError;
use rtorb_events::cos_event_channel_admin::{EventChannel as EventChannelRef, ProxyPushConsumer};
use rtorb_events::cos_event_comm::push_consumer::PushError;
use rtorb_events::{ChannelConfig, ChannelError, EventChannel, ProxyKind};
use support::{
    Recorder, channel, connect_consumer, connect_supplier, orb, push_all, remote_channel,
    serve_consumer,
};

#[test]
fn events_reach_every_push_consumer_in_order_here_and_in_another_orb() {
    let server = orb();
    let client = orb();
    let chan = channel(&server, "Orders", ChannelConfig::default());
    let local = Recorder::new();
    let _local_proxy = connect_consumer(chan.reference(), serve_consumer(&server, &local));
    let remote = Recorder::new();
    let remote_ref = remote_channel(&server, &client, &chan);
    let _remote_proxy = connect_consumer(&remote_ref, serve_consumer(&client, &remote));
    // A supplier in the other ORB pushes over the network.
    let supplier = connect_supplier(&remote_ref);
    push_all(&supplier, &["one", "two", "three"]);
    assert_eq!(local.wait_events(3), ["one", "two", "three"]);
    assert_eq!(remote.wait_events(3), ["one", "two", "three"]);
    let stats = chan.stats();
    assert_eq!(stats.events, 3);
    assert_eq!(stats.proxies, [2, 0, 1, 0]);
    assert_eq!(stats.dropped, 0);
    chan.destroy();
}

#[test]
fn the_channel_answers_at_its_name_with_the_omg_repository_ids() {
    let server = orb();
    let client = orb();
    let chan = channel(&server, "Quotes", ChannelConfig::default());
    let url = chan.reference().corbaloc().expect("a corbaloc URL");
    assert!(url.ends_with("/Quotes"), "{url}");
    let by_url = client.string_to_object(&url).expect("the URL");
    assert!(
        by_url
            .is_a("IDL:omg.org/CosEventChannelAdmin/EventChannel:1.0")
            .unwrap()
    );
    let channel: EventChannelRef = by_url.narrow().unwrap().expect("an EventChannel");
    let admin = channel.for_consumers().unwrap().unwrap();
    assert!(
        admin
            .is_a("IDL:omg.org/CosEventChannelAdmin/ConsumerAdmin:1.0")
            .unwrap()
    );
    let proxy = admin.obtain_push_supplier().unwrap().unwrap();
    assert!(
        proxy
            .is_a("IDL:omg.org/CosEventChannelAdmin/ProxyPushSupplier:1.0")
            .unwrap()
    );
    assert!(
        proxy
            .is_a("IDL:omg.org/CosEventComm/PushSupplier:1.0")
            .unwrap()
    );
    let pushed_to = channel
        .for_suppliers()
        .unwrap()
        .unwrap()
        .obtain_push_consumer()
        .unwrap()
        .unwrap();
    assert!(
        pushed_to
            .is_a("IDL:omg.org/CosEventComm/PushConsumer:1.0")
            .unwrap()
    );
    assert_eq!(
        <ProxyPushConsumer as Stub>::REPOSITORY_ID,
        "IDL:omg.org/CosEventChannelAdmin/ProxyPushConsumer:1.0"
    );
    chan.destroy();
}

#[test]
fn a_proxy_connects_once_and_refuses_a_nil_push_consumer() {
    let server = orb();
    let chan = channel(&server, "Once", ChannelConfig::default());
    let recorder = Recorder::new();
    let consumer = serve_consumer(&server, &recorder);
    let proxy = connect_consumer(chan.reference(), consumer.clone());
    assert!(matches!(
        proxy.connect_push_consumer(&Some(consumer)),
        Err(ConnectPushConsumerError::AlreadyConnected(_))
    ));
    let fresh = chan
        .for_consumers()
        .obtain_push_supplier()
        .unwrap()
        .unwrap();
    match fresh.connect_push_consumer(&None) {
        Err(ConnectPushConsumerError::System(e)) => {
            assert_eq!(e.kind(), Some(SystemExceptionKind::BadParam), "{e}");
        }
        other => panic!("a nil consumer connected: {other:?}"),
    }
    let supplier = connect_supplier(chan.reference());
    assert!(matches!(
        supplier.connect_push_supplier(&None),
        Err(ConnectPushSupplierError::AlreadyConnected(_))
    ));
    chan.destroy();
}

#[test]
fn a_consumer_that_disconnects_is_told_and_its_proxy_is_destroyed() {
    let server = orb();
    let client = orb();
    let chan = channel(&server, "Leaving", ChannelConfig::default());
    let remote_ref = remote_channel(&server, &client, &chan);
    let recorder = Recorder::new();
    let proxy = connect_consumer(&remote_ref, serve_consumer(&client, &recorder));
    proxy
        .disconnect_push_supplier()
        .expect("disconnect_push_supplier");
    assert!(recorder.wait_disconnected(), "the consumer was not told");
    let e = proxy
        .disconnect_push_supplier()
        .expect_err("the proxy is gone");
    assert_eq!(e.kind(), Some(SystemExceptionKind::ObjectNotExist), "{e}");
    assert_eq!(chan.stats().proxies, [0; 4]);
    // The channel goes on for the others.
    let other = Recorder::new();
    let _kept = connect_consumer(&remote_ref, serve_consumer(&client, &other));
    push_all(&connect_supplier(&remote_ref), &["after"]);
    assert_eq!(other.wait_events(1), ["after"]);
    assert!(recorder.events().is_empty());
    chan.destroy();
}

#[test]
fn a_push_to_a_disconnected_proxy_raises_disconnected() {
    let server = orb();
    let client = orb();
    let chan = channel(&server, "Pushed", ChannelConfig::default());
    let remote_ref = remote_channel(&server, &client, &chan);
    let supplier = connect_supplier(&remote_ref);
    supplier.push(&Any::from("before")).unwrap();
    supplier.disconnect_push_consumer().unwrap();
    assert!(matches!(
        supplier.push(&Any::from("after")),
        Err(PushError::Disconnected(_))
    ));
    // In the channel's own process too.
    let local = connect_supplier(chan.reference());
    local.disconnect_push_consumer().unwrap();
    assert!(matches!(
        local.push(&Any::from("late")),
        Err(PushError::Disconnected(_))
    ));
    // Any other operation finds no object.
    let e = supplier
        .disconnect_push_consumer()
        .expect_err("disconnected once");
    assert_eq!(e.kind(), Some(SystemExceptionKind::ObjectNotExist), "{e}");
    chan.destroy();
}

#[test]
fn only_the_latest_disconnections_answer_disconnected() {
    let server = orb();
    let config = ChannelConfig {
        max_proxies: 2,
        ..ChannelConfig::default()
    };
    let chan = channel(&server, "Forgetful", config);
    // Each is disconnected before the next is obtained: three
    // disconnections, two remembered.
    let proxies: Vec<ProxyPushConsumer> = (0..3)
        .map(|_| {
            let p = connect_supplier(chan.reference());
            p.disconnect_push_consumer().unwrap();
            p
        })
        .collect();
    match proxies[0].push(&Any::from("x")) {
        Err(PushError::System(e)) => {
            assert_eq!(e.kind(), Some(SystemExceptionKind::ObjectNotExist), "{e}");
        }
        other => panic!("the oldest disconnection still answers: {other:?}"),
    }
    for p in &proxies[1..] {
        assert!(matches!(
            p.push(&Any::from("x")),
            Err(PushError::Disconnected(_))
        ));
    }
    chan.destroy();
}

#[test]
fn destroying_the_channel_tells_every_client_and_ends_its_objects() {
    let server = orb();
    let client = orb();
    let chan = channel(&server, "Ending", ChannelConfig::default());
    let remote_ref = remote_channel(&server, &client, &chan);
    let recorders = [Recorder::new(), Recorder::new()];
    let _proxies: Vec<_> = recorders
        .iter()
        .map(|r| connect_consumer(&remote_ref, serve_consumer(&client, r)))
        .collect();
    remote_ref.destroy().expect("destroy");
    for r in &recorders {
        assert!(r.wait_disconnected(), "a consumer was not told");
    }
    assert!(chan.is_destroyed());
    assert!(!chan.destroy(), "destroyed once");
    let e = remote_ref.for_consumers().expect_err("the channel is gone");
    assert_eq!(e.kind(), Some(SystemExceptionKind::ObjectNotExist), "{e}");
}

#[test]
fn the_channel_serves_at_most_its_proxies() {
    let server = orb();
    let config = ChannelConfig {
        max_proxies: 2,
        ..ChannelConfig::default()
    };
    let chan = channel(&server, "Small", config);
    let admin = chan.for_suppliers();
    let first = admin.obtain_push_consumer().unwrap().unwrap();
    let _second = admin.obtain_pull_consumer().unwrap().unwrap();
    let e = admin.obtain_push_consumer().expect_err("a third proxy");
    assert_eq!(e.kind(), Some(SystemExceptionKind::ImpLimit), "{e}");
    // A disconnected proxy makes room.
    first.disconnect_push_consumer().unwrap();
    assert!(admin.obtain_push_consumer().is_ok());
    chan.destroy();
}

#[test]
fn a_channel_needs_a_name() {
    let server = orb();
    assert!(matches!(
        EventChannel::create(&server, "", ChannelConfig::default()),
        Err(ChannelError::EmptyName)
    ));
}

#[test]
fn consumers_list_their_proxies_and_queues() {
    let server = orb();
    let chan = channel(&server, "Listed", ChannelConfig::default());
    let recorder = Recorder::new();
    let _proxy = connect_consumer(chan.reference(), serve_consumer(&server, &recorder));
    let _pull = chan
        .for_consumers()
        .obtain_pull_supplier()
        .unwrap()
        .unwrap();
    let consumers = chan.consumers();
    let kinds: Vec<ProxyKind> = consumers.iter().map(|c| c.kind).collect();
    assert_eq!(kinds, [ProxyKind::PullSupplier, ProxyKind::PushSupplier]);
    let connected: Vec<bool> = consumers.iter().map(|c| c.connected).collect();
    assert_eq!(connected, [false, true], "only the push consumer connected");
    assert!(
        consumers[1].proxy.starts_with("Listed/ProxyPushSupplier/"),
        "{consumers:?}"
    );
    chan.destroy();
}

#[test]
fn a_malformed_event_is_refused_and_the_channel_goes_on() {
    use rtorb::cdr::CdrEncode;
    use rtorb::exception::SystemException;

    let server = orb();
    let client = orb();
    let chan = channel(&server, "Hostile", ChannelConfig::default());
    let remote_ref = remote_channel(&server, &client, &chan);
    let recorder = Recorder::new();
    let _consumer = connect_consumer(chan.reference(), serve_consumer(&server, &recorder));
    let supplier = connect_supplier(&remote_ref);
    // An `any` whose TypeCode kind is no kind, then one that claims a
    // string longer than the message.
    let no_kind = |e: &mut rtorb::cdr::Encoder| 0xffff_fff0u32.encode(e);
    let long_string = |e: &mut rtorb::cdr::Encoder| {
        18u32.encode(e)?;
        0u32.encode(e)?;
        0x7fff_ffffu32.encode(e)
    };
    for arguments in [
        &no_kind as &dyn Fn(&mut rtorb::cdr::Encoder) -> _,
        &long_string,
    ] {
        let outcome = supplier
            .as_object()
            .invoke("push", arguments)
            .and_then(|reply| reply.decode::<(), SystemException>(|_| Ok(())));
        let e = outcome.expect_err("a malformed event was taken");
        assert_eq!(e.kind(), Some(SystemExceptionKind::Marshal), "{e}");
    }
    assert_eq!(chan.stats().events, 0);
    push_all(&supplier, &["well formed"]);
    assert_eq!(recorder.wait_events(1), ["well formed"]);
    chan.destroy();
}
