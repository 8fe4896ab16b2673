//! What the tests of the channel share: ORBs, a push consumer that
//! records what it receives (and can be held inside a push, or refuse
//! events), and connecting clients to a channel.

#![allow(dead_code)]

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use rtorb::cdr::Any;
use rtorb::exception::SystemException;
use rtorb::orb::Orb;
use rtorb::{Object, Stub};
use rtorb_events::cos_event_channel_admin::{
    EventChannel as EventChannelRef, ProxyPushConsumer, ProxyPushSupplier,
};
use rtorb_events::cos_event_comm::pull_supplier::{PullError, TryPullError};
use rtorb_events::cos_event_comm::push_consumer::PushError;
use rtorb_events::cos_event_comm::{
    Disconnected, PushConsumer, PushConsumerServant, PushConsumerSkeleton,
};
use rtorb_events::cos_event_comm::{PullSupplier, PullSupplierServant, PullSupplierSkeleton};
use rtorb_events::{ChannelConfig, EventChannel};
use rtorb_test_support::TIMEOUT;
use rtorb_test_support::hold::Hold;

/// A server ORB on the loopback interface whose calls time out at
/// [`TIMEOUT`].
pub(crate) fn orb() -> Arc<Orb> {
    Arc::new(
        rtorb_test_support::server::builder()
            .round_trip_timeout(TIMEOUT)
            .build()
            .expect("an ORB"),
    )
}

/// A channel named `name` on `orb`.
pub(crate) fn channel(orb: &Arc<Orb>, name: &str, config: ChannelConfig) -> EventChannel {
    EventChannel::create(orb, name, config).expect("a channel")
}

/// The channel as the ORB `client` reaches it, over the network.
pub(crate) fn remote_channel(
    server: &Orb,
    client: &Orb,
    channel: &EventChannel,
) -> EventChannelRef {
    let ior = server
        .object_to_string(channel.reference())
        .expect("an IOR");
    client
        .string_to_object(&ior)
        .expect("a reference")
        .unchecked_narrow()
}

/// The text of an event: its string, or its value shown for a test.
pub(crate) fn text(any: &Any) -> String {
    any.get::<String>().unwrap_or_else(|_| format!("{any:?}"))
}

#[derive(Default)]
struct Received {
    events: Vec<String>,
    disconnects: usize,
}

/// What a recording consumer received.
#[derive(Default)]
pub(crate) struct Recorder {
    received: Mutex<Received>,
    changed: Condvar,
    /// Pushes stop here while it is set.
    pub(crate) hold: Hold,
    holding: AtomicBool,
    refusing: AtomicBool,
}

impl Recorder {
    /// A consumer that takes every event.
    pub(crate) fn new() -> Arc<Recorder> {
        Arc::new(Recorder::default())
    }

    /// A consumer whose pushes stop at its [`Hold`] until the test
    /// releases them.
    pub(crate) fn holding() -> Arc<Recorder> {
        let r = Recorder::default();
        r.holding.store(true, Ordering::Relaxed);
        Arc::new(r)
    }

    /// A consumer that answers every push with `Disconnected`.
    pub(crate) fn refusing() -> Arc<Recorder> {
        let r = Recorder::default();
        r.refusing.store(true, Ordering::Relaxed);
        Arc::new(r)
    }

    fn received(&self) -> MutexGuard<'_, Received> {
        self.received.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The events received so far.
    pub(crate) fn events(&self) -> Vec<String> {
        self.received().events.clone()
    }

    /// How many times it was told it is disconnected.
    pub(crate) fn disconnects(&self) -> usize {
        self.received().disconnects
    }

    /// Waits until `n` events came; they. Panics with what came if they
    /// do not within [`TIMEOUT`].
    pub(crate) fn wait_events(&self, n: usize) -> Vec<String> {
        let received = self.received();
        let (received, _) = self
            .changed
            .wait_timeout_while(received, TIMEOUT, |r| r.events.len() < n)
            .unwrap_or_else(PoisonError::into_inner);
        assert!(
            received.events.len() >= n,
            "{n} events expected, came: {:?}",
            received.events
        );
        received.events.clone()
    }

    /// Waits until it is told it is disconnected; whether it was within
    /// [`TIMEOUT`].
    pub(crate) fn wait_disconnected(&self) -> bool {
        let received = self.received();
        let (received, _) = self
            .changed
            .wait_timeout_while(received, TIMEOUT, |r| r.disconnects == 0)
            .unwrap_or_else(PoisonError::into_inner);
        received.disconnects > 0
    }
}

/// The servant of a [`Recorder`].
pub(crate) struct RecordingConsumer(pub(crate) Arc<Recorder>);

impl PushConsumerServant for RecordingConsumer {
    fn push(&self, data: Any) -> Result<(), PushError> {
        let recorder = &self.0;
        if recorder.holding.load(Ordering::Relaxed) {
            recorder.hold.enter(TIMEOUT);
        }
        if recorder.refusing.load(Ordering::Relaxed) {
            return Err(PushError::Disconnected(Disconnected {}));
        }
        recorder.received().events.push(text(&data));
        recorder.changed.notify_all();
        Ok(())
    }

    fn disconnect_push_consumer(&self) -> Result<(), SystemException> {
        self.0.received().disconnects += 1;
        self.0.changed.notify_all();
        Ok(())
    }
}

/// Serves `recorder` as a push consumer on `orb`.
pub(crate) fn serve_consumer(orb: &Orb, recorder: &Arc<Recorder>) -> PushConsumer {
    let object: Object = orb
        .activate(Arc::new(PushConsumerSkeleton(RecordingConsumer(
            Arc::clone(recorder),
        ))))
        .expect("the consumer served");
    object.unchecked_narrow()
}

/// Connects `consumer` to a new ProxyPushSupplier of `channel`; the proxy.
pub(crate) fn connect_consumer(
    channel: &EventChannelRef,
    consumer: PushConsumer,
) -> ProxyPushSupplier {
    let proxy = channel
        .for_consumers()
        .expect("for_consumers")
        .expect("a ConsumerAdmin")
        .obtain_push_supplier()
        .expect("obtain_push_supplier")
        .expect("a proxy");
    proxy
        .connect_push_consumer(&Some(consumer))
        .expect("connect_push_consumer");
    proxy
}

/// A ProxyPushConsumer of `channel`, connected with a nil supplier.
pub(crate) fn connect_supplier(channel: &EventChannelRef) -> ProxyPushConsumer {
    let proxy = channel
        .for_suppliers()
        .expect("for_suppliers")
        .expect("a SupplierAdmin")
        .obtain_push_consumer()
        .expect("obtain_push_consumer")
        .expect("a proxy");
    proxy
        .connect_push_supplier(&None)
        .expect("connect_push_supplier");
    proxy
}

/// Pushes each of `texts` through `proxy`.
pub(crate) fn push_all(proxy: &ProxyPushConsumer, texts: &[&str]) {
    for t in texts {
        proxy.push(&Any::from(*t)).expect("push");
    }
}

/// The stub `S` of `object` (for stubs kept as another type).
pub(crate) fn as_stub<S: Stub>(object: &Object) -> S {
    S::from_object(object.clone())
}

/// A pull supplier that gives its events one by one (to `try_pull`, and
/// to `pull` while it has some), then none, and raises `Disconnected`
/// once it has no more and `leave` is set; counts its disconnections.
struct ListSupplier {
    events: Mutex<VecDeque<String>>,
    leave: bool,
    told: Arc<AtomicUsize>,
}

impl PullSupplierServant for ListSupplier {
    fn pull(&self) -> Result<Any, PullError> {
        match self
            .events
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop_front()
        {
            Some(e) => Ok(Any::from(e.as_str())),
            None => Err(PullError::Disconnected(Disconnected {})),
        }
    }

    fn try_pull(&self) -> Result<(Any, bool), TryPullError> {
        match self
            .events
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop_front()
        {
            Some(e) => Ok((Any::from(e.as_str()), true)),
            None if self.leave => Err(TryPullError::Disconnected(Disconnected {})),
            None => Ok((Any::null(), false)),
        }
    }

    fn disconnect_pull_supplier(&self) -> Result<(), SystemException> {
        self.told.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }
}

/// Serves on `orb` a pull supplier of `events` (see [`ListSupplier`]),
/// which counts in `told` how often it is told it is disconnected.
pub(crate) fn serve_pull_supplier(
    orb: &Orb,
    events: &[&str],
    leave: bool,
    told: &Arc<AtomicUsize>,
) -> PullSupplier {
    let servant = ListSupplier {
        events: Mutex::new(events.iter().map(|e| e.to_string()).collect()),
        leave,
        told: Arc::clone(told),
    };
    let object: Object = orb
        .activate(Arc::new(PullSupplierSkeleton(servant)))
        .expect("the supplier served");
    object.unchecked_narrow()
}
