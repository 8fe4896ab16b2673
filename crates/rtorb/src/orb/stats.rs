//! [`OrbStats`]: what the ORB has open, holds and has counted, in one
//! snapshot ([`Orb::stats`]).

use super::broker::Orb;
use super::collocation::CollocationStats;
use crate::rt::{LaneId, LaneStats};

/// A snapshot of the ORB's connections, memory and counters, taken by
/// [`Orb::stats`]. Each figure is read on its own, so two of them may be
/// a moment apart.
///
/// ```
/// use rtorb::orb::Orb;
///
/// let orb = Orb::builder().listen("iiop://127.0.0.1:0").build()?;
/// let stats = orb.stats();
/// assert_eq!(stats.server_connections, 0);
/// assert_eq!(stats.buffered_bytes, 0);
/// assert!(stats.max_server_connections > 0);
/// assert!(stats.lanes.is_empty());
/// # Ok::<(), rtorb::orb::OrbError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct OrbStats {
    /// Idle client connections: exclusive ones in the cache, and shared
    /// (multiplexed) ones with no call in flight.
    pub idle_client_connections: usize,
    /// Server connections open now (accepted, not yet closed) on the
    /// ORB's own endpoints.
    pub server_connections: usize,
    /// Server connections open now on every endpoint: the ORB's own and
    /// its lanes'. [`OrbStats::max_server_connections`] bounds them
    /// together, and each lane (and the ORB's own endpoints, if it was
    /// built with some) is reserved a share of the cap that the others
    /// never take: the cap over twice the number of them, at least 4
    /// where the cap allows; beyond its share a lane holds only what
    /// the reserved shares leave of the cap.
    pub total_server_connections: usize,
    /// The most server connections open at once, on the ORB's own
    /// endpoints and its lanes' together: the configured
    /// [`OrbConfig::max_connections`](super::OrbConfig::max_connections),
    /// or the cap derived from the descriptor limit (see
    /// [`derived_max_connections`](super::derived_max_connections)).
    pub max_server_connections: usize,
    /// The octets the server holds now against its memory budget (see
    /// [`OrbConfig::memory_budget`](super::OrbConfig::memory_budget)): the
    /// part received of large messages, fragments held for reassembly and
    /// queued replies, over all connections, those of thread pool lanes
    /// (each lane's charged to a budget of its own) included.
    pub buffered_bytes: usize,
    /// What collocated calls have done so far.
    pub collocation: CollocationStats,
    /// What each lane of the ORB's thread pools has counted (see
    /// [`LaneStats`]), pools in creation order, lanes in the pool's order.
    pub lanes: Vec<(LaneId, LaneStats)>,
}

impl OrbStats {
    /// What `lane` has counted, if the ORB has such a lane.
    pub fn lane(&self, lane: LaneId) -> Option<&LaneStats> {
        self.lanes
            .iter()
            .find(|(id, _)| *id == lane)
            .map(|(_, s)| s)
    }
}

impl Orb {
    /// A snapshot of the ORB's connections, memory budget, collocated
    /// calls and lanes (see [`OrbStats`]).
    pub fn stats(&self) -> OrbStats {
        let pools = self.pools.lock();
        let lanes: Vec<(LaneId, LaneStats, usize)> = pools
            .iter()
            .flat_map(|p| p.lanes.iter())
            .map(|l| (l.id, l.stats(), l.core.buffered_bytes()))
            .collect();
        drop(pools);
        let server_connections = self.server.open_connections();
        // An ORB built with no endpoint left the cap's shares to its
        // lanes: the connections of its default endpoint are counted
        // beside theirs.
        let outside_shares = if self.config.listen.is_empty() {
            server_connections
        } else {
            0
        };
        OrbStats {
            idle_client_connections: self.client.idle_connections(),
            server_connections,
            total_server_connections: self.server.all_open_connections() + outside_shares,
            max_server_connections: self.server.max_connections(),
            buffered_bytes: self.server.buffered_bytes()
                + lanes.iter().map(|(_, _, b)| b).sum::<usize>(),
            collocation: self.invoker.stats(),
            lanes: lanes.into_iter().map(|(id, s, _)| (id, s)).collect(),
        }
    }
}
