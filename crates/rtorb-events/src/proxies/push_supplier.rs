//! The `ProxyPushSupplier`: the channel's side of a push consumer. Once
//! connected, its events go into the consumer's queue, and a thread of
//! its own takes them from there and pushes them to the consumer, one at
//! a time, so that a slow consumer delays no one else.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

use rtorb::exception::SystemException;

use super::link::{LinkCell, bounded, channel_of, client_is_gone, destroyed_proxy, nil_client};
use crate::delivery::{Closed, EventQueue};
use crate::idl::cos_event_channel_admin::proxy_push_supplier::ConnectPushConsumerError;
use crate::idl::cos_event_channel_admin::{AlreadyConnected, ProxyPushSupplierServant};
use crate::idl::cos_event_comm::push_consumer::PushError;
use crate::idl::cos_event_comm::{PushConsumer, PushSupplierServant};
use crate::shared::{ChannelShared, Proxy, Reason};

/// How long the delivery thread waits for an event before it looks
/// whether its channel still runs.
const IDLE_CHECK: Duration = Duration::from_secs(1);

/// A `ProxyPushSupplier`.
pub(crate) struct PushSupplierProxy {
    id: u64,
    channel: Weak<ChannelShared>,
    queue: Arc<EventQueue>,
    link: LinkCell<PushConsumer>,
    tell_client: AtomicBool,
    failed_pushes: AtomicU64,
}

impl PushSupplierProxy {
    /// The proxy numbered `id` of `channel`.
    pub(crate) fn new(id: u64, channel: &Arc<ChannelShared>) -> PushSupplierProxy {
        let config = channel.config();
        PushSupplierProxy {
            id,
            channel: Arc::downgrade(channel),
            queue: Arc::new(EventQueue::new(config.queue_length, config.overflow)),
            link: LinkCell::new(),
            tell_client: AtomicBool::new(false),
            failed_pushes: AtomicU64::new(0),
        }
    }

    /// Takes events from the queue and pushes them to `consumer` until the
    /// queue closes or the consumer is gone.
    fn deliver(self: Arc<Self>, consumer: PushConsumer) {
        loop {
            match self.queue.take(IDLE_CHECK) {
                Ok(Some(event)) => match consumer.push(&event) {
                    Ok(()) => {}
                    Err(PushError::Disconnected(_)) => return self.client_gone(),
                    Err(PushError::System(e)) if client_is_gone(&e) => return self.client_gone(),
                    // A failure of this one push (a timeout, the consumer's
                    // own error): the next event is pushed as usual.
                    Err(PushError::System(_)) => {
                        self.failed_pushes.fetch_add(1, Ordering::Relaxed);
                    }
                },
                // No event for a while: stop if the channel or its ORB is
                // gone (no one is left to tell the consumer). A destroyed
                // channel closes the queue soon, and the consumer is told
                // then.
                Ok(None) => {
                    if self.channel.upgrade().is_none_or(|c| c.orb().is_err()) {
                        return;
                    }
                }
                Err(Closed) => {
                    if self.tell_client.load(Ordering::Acquire) {
                        let _ = consumer.disconnect_push_consumer();
                    }
                    return;
                }
            }
        }
    }

    fn client_gone(&self) {
        if let Some(channel) = self.channel.upgrade() {
            channel.disconnect(self.id, Reason::ClientGone);
        }
    }
}

impl Proxy for PushSupplierProxy {
    fn end(&self, tell_client: bool) {
        self.tell_client.store(tell_client, Ordering::Release);
        self.link.end();
        // The delivery thread, if any, tells the consumer and stops.
        self.queue.close();
    }

    fn is_connected(&self) -> bool {
        self.link.is_connected()
    }

    fn queue(&self) -> Option<&Arc<EventQueue>> {
        Some(&self.queue)
    }
}

/// The servant of a [`PushSupplierProxy`].
pub(crate) struct PushSupplierProxyServant(pub(crate) Arc<PushSupplierProxy>);

impl PushSupplierServant for PushSupplierProxyServant {
    fn disconnect_push_supplier(&self) -> Result<(), SystemException> {
        channel_of(&self.0.channel)?.disconnect(self.0.id, Reason::Requested);
        Ok(())
    }
}

impl ProxyPushSupplierServant for PushSupplierProxyServant {
    fn connect_push_consumer(
        &self,
        push_consumer: Option<PushConsumer>,
    ) -> Result<(), ConnectPushConsumerError> {
        let proxy = &self.0;
        let consumer = push_consumer.ok_or_else(|| nil_client("PushConsumer"))?;
        let channel = channel_of(&proxy.channel)?;
        let consumer = bounded(&consumer, &channel);
        match proxy.link.connect(consumer.clone()) {
            Ok(()) => {}
            Err(true) => {
                return Err(ConnectPushConsumerError::AlreadyConnected(
                    AlreadyConnected {},
                ));
            }
            Err(false) => return Err(destroyed_proxy().into()),
        }
        let delivering = Arc::clone(proxy);
        let started = std::thread::Builder::new()
            .name(format!("rtorb-events-push-{}", proxy.id))
            .spawn(move || delivering.deliver(consumer));
        if let Err(e) = started {
            channel.disconnect(proxy.id, Reason::ClientGone);
            return Err(no_thread(e).into());
        }
        channel.subscribe(proxy.id, &proxy.queue, || proxy.link.has_ended());
        Ok(())
    }
}

/// `NO_RESOURCES` for a delivery thread that could not be started.
fn no_thread(e: std::io::Error) -> SystemException {
    SystemException::new(
        rtorb::exception::SystemExceptionKind::NoResources,
        0,
        rtorb::exception::CompletionStatus::No,
    )
    .with_detail(format!("no thread to deliver events: {e}"))
}
