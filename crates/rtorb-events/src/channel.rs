//! The event channel: [`EventChannel`], which makes a channel on an ORB
//! and serves it under a plain object key (so that
//! `corbaloc::host:port/NAME` reaches it, as it reaches an omniEvents
//! channel), and the servant of its `EventChannel` object, whose
//! `for_consumers` and `for_suppliers` give its two admins and whose
//! `destroy` ends it.

use std::sync::Arc;

use bytes::Bytes;
use rtorb::OrbError;
use rtorb::exception::SystemException;
use rtorb::orb::Orb;

use crate::admins::{ChannelConsumerAdmin, ChannelSupplierAdmin};
use crate::config::ChannelConfig;
use crate::idl::cos_event_channel_admin::{
    ConsumerAdmin, ConsumerAdminSkeleton, EventChannel as EventChannelRef, EventChannelServant,
    EventChannelSkeleton, SupplierAdmin, SupplierAdminSkeleton,
};
use crate::shared::{ChannelShared, ChannelStats, ConsumerStats};

/// What kept a channel from being made.
#[derive(Debug, thiserror::Error)]
pub enum ChannelError {
    /// The name, which is the channel's object key, is empty.
    #[error("an event channel needs a name (its object key)")]
    EmptyName,
    /// The ORB could not serve the channel's objects.
    #[error("cannot serve the event channel: {0}")]
    Orb(#[from] OrbError),
}

/// An event channel served by an ORB: its `EventChannel` object under the
/// key `name`, its admins under `name/ConsumerAdmin` and
/// `name/SupplierAdmin`, and its proxies under `name/ProxyPushSupplier/N`
/// and the like.
///
/// The channel lives as long as its ORB serves it: dropping this handle
/// does not destroy it; [`EventChannel::destroy`] (or a client's
/// `destroy`) does.
pub struct EventChannel {
    shared: Arc<ChannelShared>,
    reference: EventChannelRef,
    consumer_admin: ConsumerAdmin,
    supplier_admin: SupplierAdmin,
}

impl std::fmt::Debug for EventChannel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EventChannel")
            .field("stats", &self.stats())
            .finish_non_exhaustive()
    }
}

impl EventChannel {
    /// Makes a channel named `name` on `orb`, with the settings `config`,
    /// and serves it. Fails if `name` is empty or the ORB cannot serve
    /// objects (it is shut down, or cannot open its endpoint).
    pub fn create(
        orb: &Arc<Orb>,
        name: &str,
        config: ChannelConfig,
    ) -> Result<EventChannel, ChannelError> {
        if name.is_empty() {
            return Err(ChannelError::EmptyName);
        }
        let shared = Arc::new(ChannelShared::new(orb, name, config));
        let consumer_admin: ConsumerAdmin = shared
            .serve(
                shared.key(CONSUMER_ADMIN),
                Arc::new(ConsumerAdminSkeleton(ChannelConsumerAdmin(Arc::clone(
                    &shared,
                )))),
            )?
            .unchecked_narrow();
        let supplier_admin: SupplierAdmin = shared
            .serve(
                shared.key(SUPPLIER_ADMIN),
                Arc::new(SupplierAdminSkeleton(ChannelSupplierAdmin(Arc::clone(
                    &shared,
                )))),
            )?
            .unchecked_narrow();
        let servant = ChannelServant {
            shared: Arc::clone(&shared),
            consumer_admin: consumer_admin.clone(),
            supplier_admin: supplier_admin.clone(),
        };
        let reference: EventChannelRef = shared
            .serve(
                shared.channel_key(),
                Arc::new(EventChannelSkeleton(servant)),
            )?
            .unchecked_narrow();
        Ok(EventChannel {
            shared,
            reference,
            consumer_admin,
            supplier_admin,
        })
    }

    /// The reference to the channel's `EventChannel` object, for
    /// `object_to_string` or `corbaloc()`, or to call.
    pub fn reference(&self) -> &EventChannelRef {
        &self.reference
    }

    /// The channel's `ConsumerAdmin`, as `for_consumers` gives it.
    pub fn for_consumers(&self) -> ConsumerAdmin {
        self.consumer_admin.clone()
    }

    /// The channel's `SupplierAdmin`, as `for_suppliers` gives it.
    pub fn for_suppliers(&self) -> SupplierAdmin {
        self.supplier_admin.clone()
    }

    /// Destroys the channel, as `destroy` does: every proxy is
    /// disconnected and destroyed, its client told with its
    /// `disconnect_*` operation, and the channel's objects are no longer
    /// served (`OBJECT_NOT_EXIST`). Whether this call destroyed it.
    pub fn destroy(&self) -> bool {
        destroy(&self.shared)
    }

    /// Whether the channel was destroyed.
    pub fn is_destroyed(&self) -> bool {
        self.shared.is_destroyed()
    }

    /// What the channel has done: events supplied, proxies served, events
    /// dropped, clients disconnected.
    pub fn stats(&self) -> ChannelStats {
        self.shared.stats()
    }

    /// The queue of each consumer now connected (or obtained), by the
    /// object key of its proxy: what it has taken, dropped and holds.
    pub fn consumers(&self) -> Vec<ConsumerStats> {
        self.shared.consumers()
    }
}

/// The last part of the `ConsumerAdmin`'s object key.
const CONSUMER_ADMIN: &str = "ConsumerAdmin";
/// The last part of the `SupplierAdmin`'s object key.
const SUPPLIER_ADMIN: &str = "SupplierAdmin";

fn destroy(shared: &ChannelShared) -> bool {
    let admins: [Bytes; 2] = [shared.key(CONSUMER_ADMIN), shared.key(SUPPLIER_ADMIN)];
    shared.destroy(&admins)
}

/// The servant of a channel's `EventChannel` object.
struct ChannelServant {
    shared: Arc<ChannelShared>,
    consumer_admin: ConsumerAdmin,
    supplier_admin: SupplierAdmin,
}

impl EventChannelServant for ChannelServant {
    fn for_consumers(&self) -> Result<Option<ConsumerAdmin>, SystemException> {
        Ok(Some(self.consumer_admin.clone()))
    }

    fn for_suppliers(&self) -> Result<Option<SupplierAdmin>, SystemException> {
        Ok(Some(self.supplier_admin.clone()))
    }

    fn destroy(&self) -> Result<(), SystemException> {
        destroy(&self.shared);
        Ok(())
    }
}
