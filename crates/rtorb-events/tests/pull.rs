//! The pull model: consumers that pull from a `ProxyPullSupplier`
//! (`pull` waits, `try_pull` does not, both `Disconnected` once the proxy
//! is), and suppliers that the channel pulls from through a
//! `ProxyPullConsumer`.

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rtorb::exception::{SystemException, SystemExceptionKind};
use rtorb_events::ChannelConfig;
use rtorb_events::cos_event_channel_admin::proxy_pull_consumer::ConnectPullSupplierError;
use rtorb_events::cos_event_channel_admin::proxy_pull_supplier::ConnectPullConsumerError;
use rtorb_events::cos_event_comm::pull_supplier::{PullError, TryPullError};
use rtorb_events::cos_event_comm::{PullConsumer, PullConsumerServant, PullConsumerSkeleton};
use rtorb_test_support::TIMEOUT;
use rtorb_test_support::wait::eventually;
use support::{
    Recorder, channel, connect_consumer, connect_supplier, orb, push_all, remote_channel,
    serve_consumer, serve_pull_supplier, text,
};

#[test]
fn a_pull_consumer_pulls_what_was_pushed() {
    let server = orb();
    let client = orb();
    let chan = channel(&server, "Pulled", ChannelConfig::default());
    let remote_ref = remote_channel(&server, &client, &chan);
    let proxy = remote_ref
        .for_consumers()
        .unwrap()
        .unwrap()
        .obtain_pull_supplier()
        .unwrap()
        .unwrap();
    assert!(
        matches!(proxy.try_pull(), Err(TryPullError::Disconnected(_))),
        "not connected yet"
    );
    proxy.connect_pull_consumer(&None).unwrap();
    assert!(matches!(
        proxy.connect_pull_consumer(&None),
        Err(ConnectPullConsumerError::AlreadyConnected(_))
    ));
    let (_, has_event) = proxy.try_pull().unwrap();
    assert!(!has_event);
    let supplier = connect_supplier(&remote_ref);
    push_all(&supplier, &["a"]);
    let (event, has_event) = proxy.try_pull().unwrap();
    assert!(has_event);
    assert_eq!(text(&event), "a");
    // `pull` waits for the next event.
    let waiting = {
        let proxy = proxy.clone();
        std::thread::spawn(move || proxy.pull().map(|e| text(&e)))
    };
    push_all(&supplier, &["b"]);
    assert_eq!(waiting.join().unwrap().unwrap(), "b");
    chan.destroy();
}

#[test]
fn a_waiting_pull_ends_with_disconnected_when_the_channel_goes() {
    let server = orb();
    let client = orb();
    let chan = channel(&server, "Gone", ChannelConfig::default());
    let remote_ref = remote_channel(&server, &client, &chan);
    let proxy = remote_ref
        .for_consumers()
        .unwrap()
        .unwrap()
        .obtain_pull_supplier()
        .unwrap()
        .unwrap();
    proxy.connect_pull_consumer(&None).unwrap();
    let waiting = {
        let proxy = proxy.clone();
        std::thread::spawn(move || proxy.pull())
    };
    assert!(
        eventually(TIMEOUT, || chan
            .consumers()
            .iter()
            .any(|c| c.waiting_pulls == 1)),
        "the pull never started waiting"
    );
    chan.destroy();
    assert!(matches!(
        waiting.join().unwrap(),
        Err(PullError::Disconnected(_))
    ));
}

/// A pull consumer that counts its disconnections.
#[derive(Default)]
struct CountingPullConsumer(Arc<AtomicUsize>);

impl PullConsumerServant for CountingPullConsumer {
    fn disconnect_pull_consumer(&self) -> Result<(), SystemException> {
        self.0.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }
}

#[test]
fn a_pull_consumer_that_disconnects_is_told() {
    let server = orb();
    let client = orb();
    let chan = channel(&server, "Told", ChannelConfig::default());
    let remote_ref = remote_channel(&server, &client, &chan);
    let told = Arc::new(AtomicUsize::new(0));
    let consumer: PullConsumer = client
        .activate(Arc::new(PullConsumerSkeleton(CountingPullConsumer(
            Arc::clone(&told),
        ))))
        .unwrap()
        .unchecked_narrow();
    let proxy = remote_ref
        .for_consumers()
        .unwrap()
        .unwrap()
        .obtain_pull_supplier()
        .unwrap()
        .unwrap();
    proxy.connect_pull_consumer(&Some(consumer)).unwrap();
    proxy.disconnect_pull_supplier().unwrap();
    assert!(eventually(TIMEOUT, || told.load(Ordering::SeqCst) == 1));
    assert!(matches!(proxy.pull(), Err(PullError::Disconnected(_))));
    chan.destroy();
}

#[test]
fn the_channel_pulls_from_a_pull_supplier_and_pushes_to_consumers() {
    let server = orb();
    let client = orb();
    let config = ChannelConfig {
        pull_retry: std::time::Duration::from_millis(10),
        ..ChannelConfig::default()
    };
    let chan = channel(&server, "FromPull", config);
    let remote_ref = remote_channel(&server, &client, &chan);
    let recorder = Recorder::new();
    let _consumer = connect_consumer(chan.reference(), serve_consumer(&server, &recorder));
    let told = Arc::new(AtomicUsize::new(0));
    let supplier = serve_pull_supplier(&client, &["p1", "p2", "p3"], false, &told);
    let proxy = remote_ref
        .for_suppliers()
        .unwrap()
        .unwrap()
        .obtain_pull_consumer()
        .unwrap()
        .unwrap();
    proxy
        .connect_pull_supplier(&Some(supplier.clone()))
        .unwrap();
    assert!(matches!(
        proxy.connect_pull_supplier(&Some(supplier)),
        Err(ConnectPullSupplierError::AlreadyConnected(_))
    ));
    assert_eq!(recorder.wait_events(3), ["p1", "p2", "p3"]);
    // Disconnecting the proxy tells the supplier.
    proxy.disconnect_pull_consumer().unwrap();
    assert!(eventually(TIMEOUT, || told.load(Ordering::SeqCst) == 1));
    chan.destroy();
}

#[test]
fn a_pull_supplier_that_leaves_loses_its_proxy_and_a_nil_one_is_refused() {
    let server = orb();
    let chan = channel(&server, "Leaver", ChannelConfig::default());
    let told = Arc::new(AtomicUsize::new(0));
    let supplier = serve_pull_supplier(&server, &["last"], true, &told);
    let recorder = Recorder::new();
    let _consumer = connect_consumer(chan.reference(), serve_consumer(&server, &recorder));
    let admin = chan.for_suppliers();
    match admin
        .obtain_pull_consumer()
        .unwrap()
        .unwrap()
        .connect_pull_supplier(&None)
    {
        Err(ConnectPullSupplierError::System(e)) => {
            assert_eq!(e.kind(), Some(SystemExceptionKind::BadParam), "{e}");
        }
        other => panic!("a nil supplier connected: {other:?}"),
    }
    let proxy = admin.obtain_pull_consumer().unwrap().unwrap();
    proxy.connect_pull_supplier(&Some(supplier)).unwrap();
    assert_eq!(recorder.wait_events(1), ["last"]);
    assert!(eventually(TIMEOUT, || chan.stats().disconnected_on_failure == 1));
    assert_eq!(
        told.load(Ordering::SeqCst),
        0,
        "a supplier that left is not told"
    );
    chan.destroy();
}
