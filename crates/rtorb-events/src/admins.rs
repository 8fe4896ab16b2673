//! The channel's two administration objects: the `ConsumerAdmin`, which
//! gives consumers their proxies (`ProxyPushSupplier`,
//! `ProxyPullSupplier`), and the `SupplierAdmin`, which gives suppliers
//! theirs (`ProxyPushConsumer`, `ProxyPullConsumer`). Each `obtain_*` makes
//! and serves a new proxy.

use std::sync::Arc;

use rtorb::Stub;
use rtorb::exception::SystemException;

use crate::idl::cos_event_channel_admin::{
    ConsumerAdminServant, ProxyPullConsumer, ProxyPullConsumerSkeleton, ProxyPullSupplier,
    ProxyPullSupplierSkeleton, ProxyPushConsumer, ProxyPushConsumerSkeleton, ProxyPushSupplier,
    ProxyPushSupplierSkeleton, SupplierAdminServant,
};
use crate::proxies::pull_consumer::{PullConsumerProxy, PullConsumerProxyServant};
use crate::proxies::pull_supplier::{PullSupplierProxy, PullSupplierProxyServant};
use crate::proxies::push_consumer::{PushConsumerProxy, PushConsumerProxyServant};
use crate::proxies::push_supplier::{PushSupplierProxy, PushSupplierProxyServant};
use crate::shared::{ChannelShared, ProxyKind};

/// The servant of a channel's `ConsumerAdmin`.
pub(crate) struct ChannelConsumerAdmin(pub(crate) Arc<ChannelShared>);

impl ConsumerAdminServant for ChannelConsumerAdmin {
    fn obtain_push_supplier(&self) -> Result<Option<ProxyPushSupplier>, SystemException> {
        let channel = &self.0;
        let object = channel.activate_proxy(ProxyKind::PushSupplier, |id| {
            let proxy = Arc::new(PushSupplierProxy::new(id, channel));
            let servant = PushSupplierProxyServant(Arc::clone(&proxy));
            (Arc::new(ProxyPushSupplierSkeleton(servant)), proxy)
        })?;
        Ok(Some(ProxyPushSupplier::from_object(object)))
    }

    fn obtain_pull_supplier(&self) -> Result<Option<ProxyPullSupplier>, SystemException> {
        let channel = &self.0;
        let object = channel.activate_proxy(ProxyKind::PullSupplier, |id| {
            let proxy = Arc::new(PullSupplierProxy::new(id, channel));
            let servant = PullSupplierProxyServant(Arc::clone(&proxy));
            (Arc::new(ProxyPullSupplierSkeleton(servant)), proxy)
        })?;
        Ok(Some(ProxyPullSupplier::from_object(object)))
    }
}

/// The servant of a channel's `SupplierAdmin`.
pub(crate) struct ChannelSupplierAdmin(pub(crate) Arc<ChannelShared>);

impl SupplierAdminServant for ChannelSupplierAdmin {
    fn obtain_push_consumer(&self) -> Result<Option<ProxyPushConsumer>, SystemException> {
        let channel = &self.0;
        let object = channel.activate_proxy(ProxyKind::PushConsumer, |id| {
            let proxy = Arc::new(PushConsumerProxy::new(id, channel));
            let servant = PushConsumerProxyServant(Arc::clone(&proxy));
            (Arc::new(ProxyPushConsumerSkeleton(servant)), proxy)
        })?;
        Ok(Some(ProxyPushConsumer::from_object(object)))
    }

    fn obtain_pull_consumer(&self) -> Result<Option<ProxyPullConsumer>, SystemException> {
        let channel = &self.0;
        let object = channel.activate_proxy(ProxyKind::PullConsumer, |id| {
            let proxy = Arc::new(PullConsumerProxy::new(id, channel));
            let servant = PullConsumerProxyServant(Arc::clone(&proxy));
            (Arc::new(ProxyPullConsumerSkeleton(servant)), proxy)
        })?;
        Ok(Some(ProxyPullConsumer::from_object(object)))
    }
}
