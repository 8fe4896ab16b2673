//! The client's connection cache: the connections to each endpoint, idle
//! exclusive ones and the shared one of the multiplexed strategy, opened
//! on demand and closed once unused for the idle timeout.
//!
//! The exclusive connection put back last waits in a lock-free slot of its
//! endpoint's pool, so a thread calling an endpoint again and again takes
//! no lock.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use crossbeam_utils::atomic::AtomicCell;
use rtorb_giop::SystemException;

use super::exclusive::{Connection, coarse_now};
use super::multiplexed::MuxConnection;
use super::oneway::OnewayQueue;
use super::system_exceptions::{connect_failed, timed_out};
use crate::sync::Mutex;
use crate::transport::{Endpoint, ProtocolRegistry, Transport};

/// The idle exclusive connections to one endpoint (boxed: a call moves
/// its connection out and back in, a pointer rather than the whole
/// state). The one put back last waits in a slot that a call takes and
/// fills with one atomic swap each, without a lock: a thread that calls
/// an endpoint again and again finds its connection there. The others
/// are in a locked list.
#[derive(Default)]
pub(super) struct IdleConnections {
    last: AtomicCell<Option<Box<Connection>>>,
    #[allow(clippy::vec_box)]
    others: Mutex<Vec<Box<Connection>>>,
}

impl std::fmt::Debug for IdleConnections {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IdleConnections").finish_non_exhaustive()
    }
}

impl IdleConnections {
    /// The connection put back last.
    #[inline]
    fn pop(&self) -> Option<Box<Connection>> {
        self.last.take().or_else(|| self.others.lock().pop())
    }

    /// Puts a connection back.
    #[inline]
    fn push(&self, conn: Box<Connection>) {
        if let Some(before) = self.last.swap(Some(conn)) {
            self.others.lock().push(before);
        }
    }

    /// Takes every idle connection out.
    #[allow(clippy::vec_box)]
    fn take_all(&self) -> Vec<Box<Connection>> {
        let mut all = std::mem::take(&mut *self.others.lock());
        all.extend(self.last.take());
        all
    }

    /// How many there are (a moment's count: calls take and put back
    /// connections meanwhile).
    fn len(&self) -> usize {
        let last = self.last.take();
        let n = self.others.lock().len() + usize::from(last.is_some());
        if let Some(c) = last {
            self.push(c);
        }
        n
    }
}

/// The connections to one endpoint: idle exclusive ones, the shared one
/// of the multiplexed strategy, and the `SYNC_NONE` oneways waiting to be
/// written there.
#[derive(Debug, Default)]
pub(super) struct EndpointPool {
    /// Idle exclusive connections.
    idle: IdleConnections,
    shared: Mutex<Option<Arc<MuxConnection>>>,
    /// Whether the endpoint's transport cannot be shared (see
    /// [`Transport::try_clone_box`]): its calls use connections
    /// exclusively whatever the strategy.
    unsharable: AtomicBool,
    /// `SYNC_NONE` oneways to the endpoint not yet written.
    pub(super) oneways: OnewayQueue,
}

/// The connections to an endpoint, shared by the targets that name it.
pub(super) type Pool = Arc<EndpointPool>;

/// How the cache opens and keeps connections.
#[derive(Debug, Clone)]
pub(super) struct PoolConfig {
    pub(super) connect_timeout: Duration,
    pub(super) fragment_size: Option<usize>,
    pub(super) idle_timeout: Option<Duration>,
}

/// The connection cache: a pool per endpoint.
#[derive(Debug)]
pub(super) struct Connections {
    registry: ProtocolRegistry,
    config: PoolConfig,
    /// The connections to each endpoint, by endpoint string.
    pools: Mutex<HashMap<String, Pool>>,
}

impl Connections {
    pub(super) fn new(registry: ProtocolRegistry, config: PoolConfig) -> Connections {
        Connections {
            registry,
            config,
            pools: Mutex::new(HashMap::new()),
        }
    }

    /// The protocols connections are opened with.
    pub(super) fn registry(&self) -> &ProtocolRegistry {
        &self.registry
    }

    /// The pool of connections to the endpoint `key` names.
    pub(super) fn pool(&self, key: String) -> Pool {
        Arc::clone(self.pools.lock().entry(key).or_default())
    }

    /// A pool of one reference's own (`PrivateConnectionPolicy`): not in
    /// the cache, so no other reference finds it; its connections close
    /// when the reference's last clone is dropped.
    pub(super) fn private_pool(&self) -> Pool {
        Pool::default()
    }

    fn all_pools(&self) -> Vec<Pool> {
        self.pools.lock().values().cloned().collect()
    }

    /// Opens a connection to `endpoint`, within the connect timeout and
    /// the call's deadline.
    fn connect(
        &self,
        endpoint: &dyn Endpoint,
        deadline: Option<Instant>,
    ) -> Result<Box<dyn Transport>, SystemException> {
        let mut timeout = self.config.connect_timeout;
        if let Some(d) = deadline {
            timeout = timeout.min(d.saturating_duration_since(Instant::now()));
            if timeout.is_zero() {
                return Err(timed_out());
            }
        }
        self.registry
            .connect(endpoint, Some(timeout))
            .map_err(|e| connect_failed().with_detail(e))
    }

    /// An idle exclusive connection to `endpoint`, or a new one. Idle
    /// connections the server has closed meanwhile are dropped
    /// ([`Connection::closed_while_idle`]): no request is written into
    /// them.
    pub(super) fn checkout(
        &self,
        pool: &EndpointPool,
        endpoint: &dyn Endpoint,
        deadline: Option<Instant>,
    ) -> Result<Box<Connection>, SystemException> {
        while let Some(c) = pool.idle.pop() {
            if !c.closed_while_idle(coarse_now()) {
                return Ok(c);
            }
        }
        Ok(self.new_connection(self.connect(endpoint, deadline)?))
    }

    /// Puts an exclusive connection back idle.
    pub(super) fn checkin(&self, pool: &EndpointPool, mut conn: Box<Connection>) {
        conn.set_idle_tick(coarse_now());
        // Only the idle reaper reads it: no fine clock read per call
        // without one.
        if self.config.idle_timeout.is_some() {
            conn.set_idle_since(Instant::now());
        }
        pool.idle.push(conn);
    }

    fn new_connection(&self, transport: Box<dyn Transport>) -> Box<Connection> {
        Connection::new(transport, self.config.fragment_size)
    }

    /// The shared connection to `endpoint`, opened if there is none (or
    /// the one there broke); `None` if its transport cannot be shared (the
    /// connection opened goes to the idle exclusive ones).
    pub(super) fn shared(
        &self,
        pool: &EndpointPool,
        endpoint: &dyn Endpoint,
        deadline: Option<Instant>,
    ) -> Result<Option<Arc<MuxConnection>>, SystemException> {
        if pool.unsharable.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let mut slot = pool.shared.lock();
        if let Some(c) = slot.as_ref().filter(|c| c.is_usable_now()) {
            return Ok(Some(Arc::clone(c)));
        }
        let transport = self.connect(endpoint, deadline)?;
        match MuxConnection::new(transport, self.config.fragment_size) {
            Ok(conn) => {
                let conn = Arc::new(conn);
                *slot = Some(Arc::clone(&conn));
                Ok(Some(conn))
            }
            Err(transport) => {
                pool.unsharable.store(true, Ordering::Relaxed);
                self.checkin(pool, self.new_connection(transport));
                Ok(None)
            }
        }
    }

    /// Opens exclusive connections to `endpoint` until `count` are idle
    /// there; how many are.
    pub(super) fn open_idle(
        &self,
        pool: &EndpointPool,
        endpoint: &dyn Endpoint,
        count: usize,
        deadline: Option<Instant>,
    ) -> Result<usize, SystemException> {
        let have = pool.idle.len();
        for _ in have..count {
            let conn = self.new_connection(self.connect(endpoint, deadline)?);
            self.checkin(pool, conn);
        }
        Ok(pool.idle.len())
    }

    /// Closes every idle connection (shared ones with no call in flight).
    pub(super) fn close_idle(&self) {
        for pool in self.all_pools() {
            drop(pool.idle.take_all());
            let mut shared = pool.shared.lock();
            if shared.as_ref().is_some_and(|c| c.in_flight() == 0) {
                if let Some(c) = shared.take() {
                    c.close();
                }
            }
        }
    }

    /// Closes the connections unused for `timeout` or longer.
    fn close_unused(&self, timeout: Duration) {
        let now = Instant::now();
        for pool in self.all_pools() {
            let (expired, keep): (Vec<Box<Connection>>, Vec<Box<Connection>>) = pool
                .idle
                .take_all()
                .into_iter()
                .partition(|c| c.idle_for(now, timeout));
            for c in keep {
                pool.idle.push(c);
            }
            for mut c in expired {
                c.shutdown();
            }
            let mut shared = pool.shared.lock();
            if shared
                .as_ref()
                .is_some_and(|c| c.unused_for(now).is_some_and(|d| d >= timeout))
            {
                if let Some(c) = shared.take() {
                    c.close();
                }
            }
        }
    }

    /// The number of idle connections: exclusive ones in the cache, and
    /// shared ones with no call in flight.
    pub(super) fn idle_connections(&self) -> usize {
        self.all_pools()
            .iter()
            .map(|p| {
                let shared = p
                    .shared
                    .lock()
                    .as_ref()
                    .is_some_and(|c| c.is_usable() && c.in_flight() == 0);
                p.idle.len() + usize::from(shared)
            })
            .sum()
    }
}

/// Starts the thread that closes the connections of `owner`'s cache
/// (`connections` finds it) unused for the configured idle timeout, if
/// one is configured. It ends when `owner` is dropped.
pub(super) fn spawn_idle_reaper<C: Send + Sync + 'static>(
    owner: &Arc<C>,
    connections: fn(&C) -> &Connections,
) -> std::io::Result<()> {
    let Some(timeout) = connections(owner).config.idle_timeout else {
        return Ok(());
    };
    let weak: Weak<C> = Arc::downgrade(owner);
    let period = (timeout / 4).clamp(Duration::from_millis(5), Duration::from_secs(1));
    std::thread::Builder::new()
        .name("rtorb-idle-reaper".into())
        .spawn(move || {
            loop {
                std::thread::sleep(period);
                let Some(owner) = weak.upgrade() else {
                    return;
                };
                connections(&owner).close_unused(timeout);
            }
        })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_idle_connection_slot_takes_no_lock() {
        // A cell that is not lock-free would fall back to a hidden global
        // lock on every call.
        assert!(AtomicCell::<Option<Box<Connection>>>::is_lock_free());
    }
}
