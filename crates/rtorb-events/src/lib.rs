//! # rtorb-events: the CORBA Event Service on rtorb
//!
//! Event channels as the OMG Event Service (version 1.2) specifies them,
//! served by an rtorb [`Orb`](rtorb::Orb): suppliers push events to the
//! channel or are pulled by it, consumers are pushed to by it or pull
//! from it, each through a proxy that an admin gives. The IDL
//! (`idl/CosEventComm.idl`, `idl/CosEventChannelAdmin.idl`) is compiled
//! by `rtorb-idl` in this crate's `build.rs`, with the OMG's repository
//! ids (`IDL:omg.org/CosEventComm/PushConsumer:1.0`, ...), so that
//! omniEvents' and other ORBs' suppliers and consumers use an rtorb
//! channel, and rtorb's use theirs.
//!
//! - [`EventChannel::create`] makes a channel and serves it under a plain
//!   object key, its name: `corbaloc::host:port/NAME` reaches it.
//! - [`cos_event_comm`] and [`cos_event_channel_admin`]: the generated
//!   stubs, servant traits and skeletons, for suppliers and consumers.
//! - [`realtime`]: the core of the real-time event channel (filtering,
//!   correlation, timers, dispatching commands), with its data in
//!   [`rtorb_event`], generated from `idl/RtorbEvent.idl`.
//! - [`ChannelConfig`]: each consumer's queue length and
//!   [`OverflowPolicy`], the most proxies, the pull retry period, the
//!   timeout of the channel's calls to clients.
//!
//! ```
//! use std::sync::{Arc, mpsc};
//! use rtorb::cdr::Any;
//! use rtorb::exception::SystemException;
//! use rtorb::orb::Orb;
//! use rtorb_events::cos_event_comm::push_consumer::PushError;
//! use rtorb_events::cos_event_comm::{PushConsumer, PushConsumerServant, PushConsumerSkeleton};
//! use rtorb_events::{ChannelConfig, EventChannel};
//!
//! /// A consumer that passes on the text of each event.
//! struct Lines(mpsc::Sender<String>);
//!
//! impl PushConsumerServant for Lines {
//!     fn push(&self, data: Any) -> Result<(), PushError> {
//!         let _ = self.0.send(data.get::<String>().unwrap_or_default());
//!         Ok(())
//!     }
//!     fn disconnect_push_consumer(&self) -> Result<(), SystemException> {
//!         Ok(())
//!     }
//! }
//!
//! let orb = Arc::new(Orb::builder().listen("iiop://127.0.0.1:0").build()?);
//! let channel = EventChannel::create(&orb, "Prices", ChannelConfig::default())?;
//!
//! // A consumer connects to a ProxyPushSupplier of the channel...
//! let (tx, rx) = mpsc::channel();
//! let consumer: PushConsumer = orb.activate(Arc::new(PushConsumerSkeleton(Lines(tx))))?.unchecked_narrow();
//! let to_consumer = channel.for_consumers().obtain_push_supplier()?.ok_or("nil proxy")?;
//! to_consumer.connect_push_consumer(&Some(consumer))?;
//!
//! // ... and a supplier pushes to a ProxyPushConsumer.
//! let from_supplier = channel.for_suppliers().obtain_push_consumer()?.ok_or("nil proxy")?;
//! from_supplier.connect_push_supplier(&None)?;
//! from_supplier.push(&Any::from("ACME 12.5"))?;
//! assert_eq!(rx.recv_timeout(std::time::Duration::from_secs(60))?, "ACME 12.5");
//!
//! channel.destroy();
//! orb.shutdown();
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Delivery
//!
//! A supplier's event is offered to every consumer's queue and the push
//! returns: no consumer delays a supplier or another consumer. Each push
//! consumer has a thread that pushes from its queue; a pull consumer
//! pulls from its own. A queue holds [`ChannelConfig::queue_length`]
//! events; past that its [`OverflowPolicy`] drops the oldest or the
//! newest event (counted, see [`EventChannel::consumers`]) or
//! disconnects the consumer. A client whose calls fail with
//! `COMM_FAILURE`, `OBJECT_NOT_EXIST` or `TRANSIENT`, or that raises
//! `Disconnected`, is disconnected and its proxy destroyed.
//!
//! # Modules
//!
//! The modules depend one way: each uses only those of the rows below
//! its own.
//!
//! ```text
//! realtime     the real-time channel's core (of the rows below, uses config and idl)
//!  |
//! channel      EventChannel: makes and serves a channel, its servant, destroy
//!  |
//! admins       the ConsumerAdmin and SupplierAdmin servants: obtain_* make proxies
//!  |
//! proxies      the four proxies, a file each, and their link to a client
//!  |
//! shared       what the channel's objects share: the ORB, the proxy table, publishing
//!  |
//! disconnected what answers at a disconnected proxy's key: `Disconnected`
//! delivery     each consumer's bounded queue, and the queues an event is offered to
//!  |
//! config       the channel's settings and overflow policies
//! idl          the generated CosEventComm and CosEventChannelAdmin code
//! ```

mod admins;
mod channel;
mod config;
mod delivery;
mod disconnected;
mod idl;
mod proxies;
pub mod realtime;
mod shared;

pub use channel::{ChannelError, EventChannel};
pub use config::{ChannelConfig, ConfigError, OverflowPolicy};
pub use delivery::QueueCounts;
pub use idl::{cos_event_channel_admin, cos_event_comm, rtorb_event};
pub use shared::{ChannelStats, ConsumerStats, ProxyKind};
