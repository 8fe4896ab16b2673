//! The `ProxyPushConsumer`: the channel's side of a push supplier. What
//! the supplier pushes is offered to every consumer's queue at once; the
//! push returns without waiting for any consumer.

use std::sync::{Arc, Weak};

use rtorb::cdr::Any;
use rtorb::exception::SystemException;

use super::link::{LinkCell, bounded, channel_of, destroyed_proxy, tell_later};
use crate::idl::cos_event_channel_admin::proxy_push_consumer::ConnectPushSupplierError;
use crate::idl::cos_event_channel_admin::{AlreadyConnected, ProxyPushConsumerServant};
use crate::idl::cos_event_comm::push_consumer::PushError;
use crate::idl::cos_event_comm::{Disconnected, PushConsumerServant, PushSupplier};
use crate::shared::{ChannelShared, Proxy, Reason};

/// A `ProxyPushConsumer`.
pub(crate) struct PushConsumerProxy {
    id: u64,
    channel: Weak<ChannelShared>,
    link: LinkCell<Option<PushSupplier>>,
}

impl PushConsumerProxy {
    /// The proxy numbered `id` of `channel`.
    pub(crate) fn new(id: u64, channel: &Arc<ChannelShared>) -> PushConsumerProxy {
        PushConsumerProxy {
            id,
            channel: Arc::downgrade(channel),
            link: LinkCell::new(),
        }
    }
}

impl Proxy for PushConsumerProxy {
    fn end(&self, tell_client: bool) {
        if let (true, Some(Some(supplier))) = (tell_client, self.link.end()) {
            tell_later("disconnect", move || {
                let _ = supplier.disconnect_push_supplier();
            });
        }
    }

    fn is_connected(&self) -> bool {
        self.link.is_connected()
    }

    fn queue(&self) -> Option<&Arc<crate::delivery::EventQueue>> {
        None
    }
}

/// The servant of a [`PushConsumerProxy`].
pub(crate) struct PushConsumerProxyServant(pub(crate) Arc<PushConsumerProxy>);

impl PushConsumerServant for PushConsumerProxyServant {
    /// Offers `data` to every consumer. A supplier may push before it
    /// connects (as omniEvents lets it); once the proxy is disconnected,
    /// `Disconnected`.
    fn push(&self, data: Any) -> Result<(), PushError> {
        let proxy = &self.0;
        if proxy.link.has_ended() {
            return Err(PushError::Disconnected(Disconnected {}));
        }
        let channel = proxy
            .channel
            .upgrade()
            .ok_or(PushError::Disconnected(Disconnected {}))?;
        channel.publish(&data);
        Ok(())
    }

    fn disconnect_push_consumer(&self) -> Result<(), SystemException> {
        channel_of(&self.0.channel)?.disconnect(self.0.id, Reason::Requested);
        Ok(())
    }
}

impl ProxyPushConsumerServant for PushConsumerProxyServant {
    /// Connects `push_supplier`, which may be nil: the channel then has no
    /// one to tell when it disconnects the proxy.
    fn connect_push_supplier(
        &self,
        push_supplier: Option<PushSupplier>,
    ) -> Result<(), ConnectPushSupplierError> {
        let proxy = &self.0;
        let channel = channel_of(&proxy.channel)?;
        let supplier = push_supplier.map(|s| bounded(&s, &channel));
        match proxy.link.connect(supplier) {
            Ok(()) => Ok(()),
            Err(true) => Err(ConnectPushSupplierError::AlreadyConnected(
                AlreadyConnected {},
            )),
            Err(false) => Err(destroyed_proxy().into()),
        }
    }
}
