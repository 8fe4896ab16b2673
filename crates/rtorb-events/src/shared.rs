//! What a channel's objects share ([`ChannelShared`]): the ORB that serves
//! them, the settings, the consumers' queues, the table of live proxies
//! and the counters; activating a proxy, disconnecting one (its object
//! deactivated, its client told), publishing an event, and destroying
//! everything.
//!
//! The proxies are behind the [`Proxy`] trait, so that this module names
//! none of them. A disconnected proxy's key answers as
//! [`DisconnectedProxy`] for a while (the most recent
//! [`ChannelConfig::max_proxies`] disconnections), then not at all.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};

use bytes::Bytes;
use rtorb::exception::{CompletionStatus, SystemException, SystemExceptionKind};
use rtorb::orb::Orb;
use rtorb::servant::Skeleton;
use rtorb::{Object, OrbError};

use crate::config::ChannelConfig;
use crate::delivery::{EventQueue, QueueCounts, Subscribers};
use crate::disconnected::DisconnectedProxy;
use crate::idl::cos_event_channel_admin::{
    proxy_pull_consumer, proxy_pull_supplier, proxy_push_consumer, proxy_push_supplier,
};

/// The four kinds of proxy a channel makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProxyKind {
    /// A `ProxyPushSupplier`: pushes to a push consumer.
    PushSupplier,
    /// A `ProxyPullSupplier`: pulled by a pull consumer.
    PullSupplier,
    /// A `ProxyPushConsumer`: pushed to by a push supplier.
    PushConsumer,
    /// A `ProxyPullConsumer`: pulls from a pull supplier.
    PullConsumer,
}

impl ProxyKind {
    /// The IDL interface's name, which the proxy's object key holds too.
    pub fn interface(self) -> &'static str {
        match self {
            ProxyKind::PushSupplier => "ProxyPushSupplier",
            ProxyKind::PullSupplier => "ProxyPullSupplier",
            ProxyKind::PushConsumer => "ProxyPushConsumer",
            ProxyKind::PullConsumer => "ProxyPullConsumer",
        }
    }

    /// The repository ids of the IDL interface and its bases.
    fn repository_ids(self) -> &'static [&'static str] {
        match self {
            ProxyKind::PushSupplier => proxy_push_supplier::REPOSITORY_IDS,
            ProxyKind::PullSupplier => proxy_pull_supplier::REPOSITORY_IDS,
            ProxyKind::PushConsumer => proxy_push_consumer::REPOSITORY_IDS,
            ProxyKind::PullConsumer => proxy_pull_consumer::REPOSITORY_IDS,
        }
    }
}

/// Why a proxy was disconnected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reason {
    /// Its client asked (`disconnect_*`), or the channel was destroyed.
    Requested,
    /// Its consumer's queue overflowed under
    /// [`OverflowPolicy::DisconnectConsumer`](crate::config::OverflowPolicy::DisconnectConsumer).
    Overflow,
    /// Its client failed (`COMM_FAILURE`, `OBJECT_NOT_EXIST`) or said it
    /// was disconnected.
    ClientGone,
}

/// A proxy, as the channel ends it.
pub(crate) trait Proxy: Send + Sync {
    /// Ends the proxy's communication: its queue closes, its threads
    /// stop, and its client is told with its `disconnect_*` operation if
    /// `tell_client` (and the proxy knows one). Called once, after the
    /// proxy left the table and its object was deactivated.
    fn end(&self, tell_client: bool);

    /// The consumer's queue, for a proxy that serves a consumer.
    fn queue(&self) -> Option<&Arc<EventQueue>>;

    /// How many `pull` calls wait in the proxy now.
    fn waiting_pulls(&self) -> usize {
        0
    }

    /// Whether its client has connected.
    fn is_connected(&self) -> bool;
}

/// What a channel has done, as [`EventChannel::stats`](crate::EventChannel::stats)
/// reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ChannelStats {
    /// Events supplied to the channel (pushed to it or pulled by it).
    pub events: u64,
    /// Proxies of each kind now served: push suppliers, pull suppliers,
    /// push consumers, pull consumers (in [`ProxyKind`] order).
    pub proxies: [usize; 4],
    /// Events the consumers' queues dropped, those of proxies gone since
    /// included.
    pub dropped: u64,
    /// Consumers disconnected because their queue overflowed.
    pub disconnected_on_overflow: u64,
    /// Clients disconnected because they failed or said they were
    /// disconnected.
    pub disconnected_on_failure: u64,
}

/// One consumer's queue, as [`EventChannel::consumers`](crate::EventChannel::consumers)
/// reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConsumerStats {
    /// The object key of its proxy.
    pub proxy: String,
    /// Whether it is pushed to or pulls.
    pub kind: ProxyKind,
    /// Whether the consumer has connected (events reach its queue only
    /// from then on).
    pub connected: bool,
    /// What its queue has done.
    pub counts: QueueCounts,
    /// How many of its `pull` calls wait for an event now (a pull
    /// consumer's).
    pub waiting_pulls: usize,
}

#[derive(Default)]
struct ProxyTable {
    next_id: u64,
    live: HashMap<u64, (ProxyKind, Arc<dyn Proxy>)>,
}

/// What a channel's objects share.
pub(crate) struct ChannelShared {
    orb: Weak<Orb>,
    name: String,
    config: ChannelConfig,
    subscribers: Subscribers,
    table: Mutex<ProxyTable>,
    /// The keys of disconnected proxies that still answer `Disconnected`,
    /// oldest first.
    disconnected: Mutex<VecDeque<Bytes>>,
    destroyed: AtomicBool,
    events: AtomicU64,
    dropped_by_gone: AtomicU64,
    overflow_disconnects: AtomicU64,
    failure_disconnects: AtomicU64,
}

impl ChannelShared {
    /// The state of a channel named `name` (its object key) on `orb`.
    pub(crate) fn new(orb: &Arc<Orb>, name: &str, config: ChannelConfig) -> ChannelShared {
        ChannelShared {
            orb: Arc::downgrade(orb),
            name: name.to_owned(),
            config,
            subscribers: Subscribers::default(),
            table: Mutex::new(ProxyTable::default()),
            disconnected: Mutex::new(VecDeque::new()),
            destroyed: AtomicBool::new(false),
            events: AtomicU64::new(0),
            dropped_by_gone: AtomicU64::new(0),
            overflow_disconnects: AtomicU64::new(0),
            failure_disconnects: AtomicU64::new(0),
        }
    }

    fn table(&self) -> MutexGuard<'_, ProxyTable> {
        self.table.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The settings.
    pub(crate) fn config(&self) -> &ChannelConfig {
        &self.config
    }

    /// The channel's own object key.
    pub(crate) fn channel_key(&self) -> Bytes {
        Bytes::from(self.name.clone().into_bytes())
    }

    /// The object key of the channel's object `part` (an admin, or a
    /// proxy with its number).
    pub(crate) fn key(&self, part: &str) -> Bytes {
        Bytes::from(format!("{}/{part}", self.name).into_bytes())
    }

    fn proxy_key(&self, kind: ProxyKind, id: u64) -> Bytes {
        self.key(&format!("{}/{id}", kind.interface()))
    }

    /// The ORB, while it runs; `OBJECT_NOT_EXIST` once it is gone or shut
    /// down (the channel's objects with it).
    pub(crate) fn orb(&self) -> Result<Arc<Orb>, SystemException> {
        match self.orb.upgrade() {
            Some(orb) if !orb.is_shut_down() => Ok(orb),
            _ => Err(object_not_exist(
                "the ORB of the event channel is shut down",
            )),
        }
    }

    /// Whether the channel can still deliver: not destroyed, its ORB
    /// running.
    pub(crate) fn is_running(&self) -> bool {
        !self.is_destroyed() && self.orb().is_ok()
    }

    /// Whether the channel was destroyed.
    pub(crate) fn is_destroyed(&self) -> bool {
        self.destroyed.load(Ordering::Acquire)
    }

    /// Serves `skeleton` under `key` on the channel's ORB.
    pub(crate) fn serve(
        &self,
        key: Bytes,
        skeleton: Arc<dyn Skeleton>,
    ) -> Result<Object, OrbError> {
        let orb = self.orb.upgrade().ok_or(OrbError::ShutDown)?;
        orb.activate_with_key(key, skeleton)
    }

    /// Makes and serves a proxy of `kind`: `make` is given the proxy's
    /// number and returns its skeleton and the proxy. `OBJECT_NOT_EXIST`
    /// once the channel is destroyed, `IMP_LIMIT` past
    /// [`ChannelConfig::max_proxies`].
    pub(crate) fn activate_proxy(
        &self,
        kind: ProxyKind,
        make: impl FnOnce(u64) -> (Arc<dyn Skeleton>, Arc<dyn Proxy>),
    ) -> Result<Object, SystemException> {
        let orb = self.orb()?;
        let (id, skeleton) = {
            let mut table = self.table();
            if self.is_destroyed() {
                return Err(object_not_exist("the event channel is destroyed"));
            }
            if table.live.len() >= self.config.max_proxies {
                return Err(SystemException::new(
                    SystemExceptionKind::ImpLimit,
                    0,
                    CompletionStatus::No,
                )
                .with_detail(format!(
                    "the event channel serves {} proxies, its most (MaxProxies)",
                    self.config.max_proxies
                )));
            }
            let id = table.next_id;
            table.next_id += 1;
            let (skeleton, proxy) = make(id);
            table.live.insert(id, (kind, proxy));
            (id, skeleton)
        };
        match orb.activate_with_key(self.proxy_key(kind, id), skeleton) {
            Ok(object) => Ok(object),
            Err(e) => {
                self.table().live.remove(&id);
                Err(match e {
                    OrbError::System(s) => s,
                    other => object_not_exist(other),
                })
            }
        }
    }

    /// Adds the queue of the consumer proxy `id`: events published from
    /// now on reach it. `ended` says whether the proxy was disconnected
    /// meanwhile, in which case the queue is taken out again.
    pub(crate) fn subscribe(&self, id: u64, queue: &Arc<EventQueue>, ended: impl FnOnce() -> bool) {
        self.subscribers.add(id, Arc::clone(queue));
        if ended() {
            self.subscribers.remove(id);
        }
    }

    /// Offers `event` to every consumer's queue, and disconnects those
    /// that overflowed under
    /// [`OverflowPolicy::DisconnectConsumer`](crate::config::OverflowPolicy::DisconnectConsumer).
    pub(crate) fn publish(&self, event: &rtorb::cdr::Any) {
        self.events.fetch_add(1, Ordering::Relaxed);
        for id in self.subscribers.publish(event) {
            self.disconnect(id, Reason::Overflow);
        }
    }

    /// Disconnects the proxy `id`: it leaves the table and the consumers,
    /// its object is deactivated, and it is ended, its client told unless
    /// the client is gone. Nothing if it was disconnected already.
    pub(crate) fn disconnect(&self, id: u64, reason: Reason) {
        let Some((kind, proxy)) = self.table().live.remove(&id) else {
            return;
        };
        match reason {
            Reason::Requested => {}
            Reason::Overflow => {
                self.overflow_disconnects.fetch_add(1, Ordering::Relaxed);
            }
            Reason::ClientGone => {
                self.failure_disconnects.fetch_add(1, Ordering::Relaxed);
            }
        }
        self.subscribers.remove(id);
        if let Some(orb) = self.orb.upgrade() {
            let key = self.proxy_key(kind, id);
            let answer = Arc::new(DisconnectedProxy {
                repository_ids: kind.repository_ids(),
            });
            if orb.activate_with_key(key.clone(), answer).is_ok() {
                let mut disconnected = self
                    .disconnected
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner);
                disconnected.push_back(key);
                // A destroyed channel keeps none (`destroy` sets the flag
                // before it empties this list, so one of the two does).
                let keep = if self.is_destroyed() {
                    0
                } else {
                    self.config.max_proxies
                };
                while disconnected.len() > keep {
                    if let Some(oldest) = disconnected.pop_front() {
                        orb.deactivate(&oldest);
                    }
                }
            }
        }
        self.end(proxy, reason != Reason::ClientGone);
    }

    /// Ends `proxy` (which left the table and the consumers) and counts
    /// what its queue dropped.
    fn end(&self, proxy: Arc<dyn Proxy>, tell_client: bool) {
        proxy.end(tell_client);
        if let Some(queue) = proxy.queue() {
            self.dropped_by_gone
                .fetch_add(queue.counts().dropped, Ordering::Relaxed);
        }
    }

    /// Destroys the channel: every proxy is disconnected and its client
    /// told, and the channel's and its admins' objects are deactivated.
    /// Whether this call destroyed it (it was not destroyed already).
    pub(crate) fn destroy(&self, admin_keys: &[Bytes]) -> bool {
        let live = {
            let mut table = self.table();
            if self.destroyed.swap(true, Ordering::AcqRel) {
                return false;
            }
            std::mem::take(&mut table.live)
        };
        let orb = self.orb.upgrade();
        for (id, (kind, proxy)) in live {
            self.subscribers.remove(id);
            if let Some(orb) = &orb {
                orb.deactivate(&self.proxy_key(kind, id));
            }
            self.end(proxy, true);
        }
        let disconnected = std::mem::take(
            &mut *self
                .disconnected
                .lock()
                .unwrap_or_else(PoisonError::into_inner),
        );
        if let Some(orb) = orb {
            for key in disconnected.iter().chain(admin_keys) {
                orb.deactivate(key);
            }
            orb.deactivate(&self.channel_key());
        }
        true
    }

    /// What the channel has done.
    pub(crate) fn stats(&self) -> ChannelStats {
        let mut stats = ChannelStats {
            events: self.events.load(Ordering::Relaxed),
            dropped: self.dropped_by_gone.load(Ordering::Relaxed),
            disconnected_on_overflow: self.overflow_disconnects.load(Ordering::Relaxed),
            disconnected_on_failure: self.failure_disconnects.load(Ordering::Relaxed),
            ..ChannelStats::default()
        };
        for (kind, proxy) in self.table().live.values() {
            stats.proxies[*kind as usize] += 1;
            if let Some(queue) = proxy.queue() {
                stats.dropped += queue.counts().dropped;
            }
        }
        stats
    }

    /// The queues of the consumers now connected or connecting.
    pub(crate) fn consumers(&self) -> Vec<ConsumerStats> {
        let mut out: Vec<ConsumerStats> = self
            .table()
            .live
            .iter()
            .filter_map(|(id, (kind, proxy))| {
                Some(ConsumerStats {
                    proxy: String::from_utf8_lossy(&self.proxy_key(*kind, *id)).into_owned(),
                    kind: *kind,
                    connected: proxy.is_connected(),
                    counts: proxy.queue()?.counts(),
                    waiting_pulls: proxy.waiting_pulls(),
                })
            })
            .collect();
        out.sort_by(|a, b| a.proxy.cmp(&b.proxy));
        out
    }
}

/// `OBJECT_NOT_EXIST`, saying why.
pub(crate) fn object_not_exist(why: impl std::fmt::Display) -> SystemException {
    SystemException::new(SystemExceptionKind::ObjectNotExist, 0, CompletionStatus::No)
        .with_detail(why)
}
