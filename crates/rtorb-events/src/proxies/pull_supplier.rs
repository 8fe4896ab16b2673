//! The `ProxyPullSupplier`: the channel's side of a pull consumer. Once
//! connected, its events go into the consumer's queue, where `pull`
//! waits for them and `try_pull` looks.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

use rtorb::cdr::Any;
use rtorb::exception::SystemException;

use super::link::{LinkCell, bounded, channel_of, destroyed_proxy, tell_later};
use crate::delivery::{Closed, EventQueue};
use crate::idl::cos_event_channel_admin::proxy_pull_supplier::ConnectPullConsumerError;
use crate::idl::cos_event_channel_admin::{AlreadyConnected, ProxyPullSupplierServant};
use crate::idl::cos_event_comm::pull_supplier::{PullError, TryPullError};
use crate::idl::cos_event_comm::{Disconnected, PullConsumer, PullSupplierServant};
use crate::shared::{ChannelShared, Proxy, Reason};

/// How long a `pull` waits for an event before it looks whether the
/// channel still runs (a pull that waits on a channel whose ORB shuts
/// down would hold the shutdown).
const RUNNING_CHECK: Duration = Duration::from_millis(500);

/// A `ProxyPullSupplier`.
pub(crate) struct PullSupplierProxy {
    id: u64,
    channel: Weak<ChannelShared>,
    queue: Arc<EventQueue>,
    link: LinkCell<Option<PullConsumer>>,
    waiting: AtomicUsize,
}

impl PullSupplierProxy {
    /// The proxy numbered `id` of `channel`.
    pub(crate) fn new(id: u64, channel: &Arc<ChannelShared>) -> PullSupplierProxy {
        let config = channel.config();
        PullSupplierProxy {
            id,
            channel: Arc::downgrade(channel),
            queue: Arc::new(EventQueue::new(config.queue_length, config.overflow)),
            link: LinkCell::new(),
            waiting: AtomicUsize::new(0),
        }
    }

    /// `Err(Disconnected)` unless the proxy is connected.
    fn connected(&self) -> Result<(), Disconnected> {
        if self.link.is_connected() {
            Ok(())
        } else {
            Err(Disconnected {})
        }
    }
}

impl Proxy for PullSupplierProxy {
    fn end(&self, tell_client: bool) {
        let consumer = self.link.end();
        self.queue.close();
        if let (true, Some(Some(consumer))) = (tell_client, consumer) {
            tell_later("disconnect", move || {
                let _ = consumer.disconnect_pull_consumer();
            });
        }
    }

    fn is_connected(&self) -> bool {
        self.link.is_connected()
    }

    fn queue(&self) -> Option<&Arc<EventQueue>> {
        Some(&self.queue)
    }

    fn waiting_pulls(&self) -> usize {
        self.waiting.load(Ordering::Relaxed)
    }
}

/// Counts a waiting `pull` for as long as it lives.
struct Waiting<'a>(&'a AtomicUsize);

impl<'a> Waiting<'a> {
    fn new(count: &'a AtomicUsize) -> Waiting<'a> {
        count.fetch_add(1, Ordering::Relaxed);
        Waiting(count)
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The servant of a [`PullSupplierProxy`].
pub(crate) struct PullSupplierProxyServant(pub(crate) Arc<PullSupplierProxy>);

impl PullSupplierServant for PullSupplierProxyServant {
    /// Waits for the next event; `Disconnected` if the proxy is not
    /// connected, or is disconnected while it waits.
    fn pull(&self) -> Result<Any, PullError> {
        let proxy = &self.0;
        proxy.connected().map_err(PullError::Disconnected)?;
        let _waiting = Waiting::new(&proxy.waiting);
        loop {
            match proxy.queue.take(RUNNING_CHECK) {
                Ok(Some(event)) => return Ok(event),
                Ok(None) => {
                    if !proxy.channel.upgrade().is_some_and(|c| c.is_running()) {
                        return Err(PullError::Disconnected(Disconnected {}));
                    }
                }
                Err(Closed) => return Err(PullError::Disconnected(Disconnected {})),
            }
        }
    }

    /// The next event and `true` if there is one, else a null `Any` and
    /// `false`; `Disconnected` if the proxy is not connected.
    fn try_pull(&self) -> Result<(Any, bool), TryPullError> {
        let proxy = &self.0;
        proxy.connected().map_err(TryPullError::Disconnected)?;
        match proxy.queue.try_take() {
            Ok(Some(event)) => Ok((event, true)),
            Ok(None) => Ok((Any::null(), false)),
            Err(Closed) => Err(TryPullError::Disconnected(Disconnected {})),
        }
    }

    fn disconnect_pull_supplier(&self) -> Result<(), SystemException> {
        channel_of(&self.0.channel)?.disconnect(self.0.id, Reason::Requested);
        Ok(())
    }
}

impl ProxyPullSupplierServant for PullSupplierProxyServant {
    fn connect_pull_consumer(
        &self,
        pull_consumer: Option<PullConsumer>,
    ) -> Result<(), ConnectPullConsumerError> {
        let proxy = &self.0;
        let channel = channel_of(&proxy.channel)?;
        let consumer = pull_consumer.map(|c| bounded(&c, &channel));
        match proxy.link.connect(consumer) {
            Ok(()) => {}
            Err(true) => {
                return Err(ConnectPullConsumerError::AlreadyConnected(
                    AlreadyConnected {},
                ));
            }
            Err(false) => return Err(destroyed_proxy().into()),
        }
        channel.subscribe(proxy.id, &proxy.queue, || proxy.link.has_ended());
        Ok(())
    }
}
