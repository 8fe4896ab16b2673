//! The `ProxyPullConsumer`: the channel's side of a pull supplier. Once
//! connected, a thread of its own asks the supplier for events with
//! `try_pull`, waiting the channel's pull retry period after each answer
//! without one, and offers each event to every consumer's queue.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError, Weak};

use rtorb::exception::SystemException;

use super::link::{LinkCell, bounded, channel_of, client_is_gone, destroyed_proxy, nil_client};
use crate::idl::cos_event_channel_admin::proxy_pull_consumer::ConnectPullSupplierError;
use crate::idl::cos_event_channel_admin::{AlreadyConnected, ProxyPullConsumerServant};
use crate::idl::cos_event_comm::pull_supplier::TryPullError;
use crate::idl::cos_event_comm::{PullConsumerServant, PullSupplier};
use crate::shared::{ChannelShared, Proxy, Reason};

/// A `ProxyPullConsumer`.
pub(crate) struct PullConsumerProxy {
    id: u64,
    channel: Weak<ChannelShared>,
    link: LinkCell<PullSupplier>,
    tell_client: AtomicBool,
    /// Set when the proxy ends; the pulling thread's retry wait watches it.
    ended: Mutex<bool>,
    wake: Condvar,
}

impl PullConsumerProxy {
    /// The proxy numbered `id` of `channel`.
    pub(crate) fn new(id: u64, channel: &Arc<ChannelShared>) -> PullConsumerProxy {
        PullConsumerProxy {
            id,
            channel: Arc::downgrade(channel),
            link: LinkCell::new(),
            tell_client: AtomicBool::new(false),
            ended: Mutex::new(false),
            wake: Condvar::new(),
        }
    }

    /// Pulls from `supplier` until the proxy ends or the supplier is gone.
    fn pull_events(self: Arc<Self>, supplier: PullSupplier) {
        loop {
            if self.link.has_ended() {
                break;
            }
            // Without a channel or an ORB no one is left to tell the
            // supplier; a destroyed channel ends this proxy soon, and the
            // supplier is told then.
            let Some(channel) = self.channel.upgrade().filter(|c| c.orb().is_ok()) else {
                return;
            };
            let pulled = if channel.is_destroyed() {
                Ok((rtorb::cdr::Any::null(), false))
            } else {
                supplier.try_pull()
            };
            match pulled {
                Ok((event, true)) => {
                    channel.publish(&event);
                    continue;
                }
                Ok((_, false)) => {}
                Err(TryPullError::Disconnected(_)) => {
                    return channel.disconnect(self.id, Reason::ClientGone);
                }
                Err(TryPullError::System(e)) if client_is_gone(&e) => {
                    return channel.disconnect(self.id, Reason::ClientGone);
                }
                // This pull failed (a timeout, the supplier's own error):
                // the next one is tried after the retry period.
                Err(TryPullError::System(_)) => {}
            }
            let retry = channel.config().pull_retry;
            drop(channel);
            let ended = self.ended.lock().unwrap_or_else(PoisonError::into_inner);
            let (ended, _) = self
                .wake
                .wait_timeout_while(ended, retry, |ended| !*ended)
                .unwrap_or_else(PoisonError::into_inner);
            if *ended {
                break;
            }
        }
        if self.tell_client.load(Ordering::Acquire) {
            let _ = supplier.disconnect_pull_supplier();
        }
    }
}

impl Proxy for PullConsumerProxy {
    fn end(&self, tell_client: bool) {
        self.tell_client.store(tell_client, Ordering::Release);
        // The pulling thread, if any, tells the supplier and stops.
        self.link.end();
        *self.ended.lock().unwrap_or_else(PoisonError::into_inner) = true;
        self.wake.notify_all();
    }

    fn is_connected(&self) -> bool {
        self.link.is_connected()
    }

    fn queue(&self) -> Option<&Arc<crate::delivery::EventQueue>> {
        None
    }
}

/// The servant of a [`PullConsumerProxy`].
pub(crate) struct PullConsumerProxyServant(pub(crate) Arc<PullConsumerProxy>);

impl PullConsumerServant for PullConsumerProxyServant {
    fn disconnect_pull_consumer(&self) -> Result<(), SystemException> {
        channel_of(&self.0.channel)?.disconnect(self.0.id, Reason::Requested);
        Ok(())
    }
}

impl ProxyPullConsumerServant for PullConsumerProxyServant {
    /// Connects `pull_supplier` and starts pulling from it. An untyped
    /// channel takes any supplier, so `TypeError` is never raised.
    fn connect_pull_supplier(
        &self,
        pull_supplier: Option<PullSupplier>,
    ) -> Result<(), ConnectPullSupplierError> {
        let proxy = &self.0;
        let supplier = pull_supplier.ok_or_else(|| nil_client("PullSupplier"))?;
        let channel = channel_of(&proxy.channel)?;
        let supplier = bounded(&supplier, &channel);
        match proxy.link.connect(supplier.clone()) {
            Ok(()) => {}
            Err(true) => {
                return Err(ConnectPullSupplierError::AlreadyConnected(
                    AlreadyConnected {},
                ));
            }
            Err(false) => return Err(destroyed_proxy().into()),
        }
        let pulling = Arc::clone(proxy);
        let started = std::thread::Builder::new()
            .name(format!("rtorb-events-pull-{}", proxy.id))
            .spawn(move || pulling.pull_events(supplier));
        if let Err(e) = started {
            channel.disconnect(proxy.id, Reason::ClientGone);
            return Err(SystemException::new(
                rtorb::exception::SystemExceptionKind::NoResources,
                0,
                rtorb::exception::CompletionStatus::No,
            )
            .with_detail(format!("no thread to pull events: {e}"))
            .into());
        }
        Ok(())
    }
}
