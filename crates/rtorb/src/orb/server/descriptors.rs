//! The process's descriptor limit, and the connection cap derived from it.
//!
//! Every server connection holds a descriptor, so the soft
//! `RLIMIT_NOFILE` (1024 on most systems) is what bounds a server, not
//! memory. When the first ORB of a process listens, the soft limit is
//! raised to the hard one (the most an unprivileged process may set, and
//! at most the kernel's `fs.nr_open`), once, with an `info` log line that
//! says from what to what; a limit that cannot be raised is a `warn` log
//! line, once, and the server runs within the soft limit it has.
//!
//! The default connection cap ([`OrbConfig::max_connections`] left at 0)
//! is then [`derived_max_connections`]: the limit less a reserve for what
//! else the process opens (its own client connections, files, listeners,
//! event loops): an eighth of the limit, at least 64; divided by the
//! descriptors one connection takes (two under thread-per-connection,
//! whose shutdown wakes blocked reads through a second descriptor, one
//! otherwise); and at least 16. The cap bounds the connections of the
//! ORB's own endpoints and of its thread pool lanes together (`connection_cap.rs`).
//!
//! [`OrbConfig::max_connections`]: crate::orb::OrbConfig::max_connections

use std::sync::OnceLock;

use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};

use crate::orb::strategy::ServerStrategy;

/// The fewest connections a derived cap allows.
const MIN_DERIVED: usize = 16;
/// The smallest reserve of descriptors left for what is not a server
/// connection.
const MIN_RESERVE: u64 = 64;
/// The soft limit assumed where the system reports none.
const UNLIMITED: u64 = 1 << 20;

/// The soft descriptor limit after the first call raised it (to the hard
/// limit, if it could); the limit itself, once raised, on later calls.
pub(crate) fn raise_descriptor_limit() -> u64 {
    static RAISED: OnceLock<u64> = OnceLock::new();
    *RAISED.get_or_init(raise)
}

/// Raises the soft limit to the hard one and logs what it did.
fn raise() -> u64 {
    let now = getrlimit(Resource::Nofile);
    let from = now.current.unwrap_or(UNLIMITED);
    let to = now.maximum.unwrap_or(UNLIMITED).min(nr_open());
    if to <= from {
        tracing::info!(
            limit = from,
            "descriptor limit (RLIMIT_NOFILE) {from}, already the most allowed"
        );
        return from;
    }
    let raised = Rlimit {
        current: Some(to),
        maximum: now.maximum,
    };
    match setrlimit(Resource::Nofile, raised) {
        Ok(()) => {
            tracing::info!(
                from,
                to,
                "raised the descriptor limit (RLIMIT_NOFILE) from {from} to {to}"
            );
            to
        }
        Err(e) => {
            tracing::warn!(
                limit = from,
                wanted = to,
                "cannot raise the descriptor limit (RLIMIT_NOFILE) from {from} to {to}: {e}"
            );
            from
        }
    }
}

/// The kernel's ceiling on a process's descriptors (`fs.nr_open`).
fn nr_open() -> u64 {
    std::fs::read_to_string("/proc/sys/fs/nr_open")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(UNLIMITED)
}

/// The default connection cap for a process whose descriptor limit is
/// `limit`, under `strategy` (the rule is in the module's documentation).
pub fn derived_max_connections(limit: u64, strategy: ServerStrategy) -> usize {
    let reserve = (limit / 8).max(MIN_RESERVE);
    let per_connection = match strategy {
        ServerStrategy::ThreadPerConnection => 2,
        ServerStrategy::Reactive | ServerStrategy::LeaderFollowers => 1,
    };
    let cap = limit.saturating_sub(reserve) / per_connection;
    usize::try_from(cap).unwrap_or(usize::MAX).max(MIN_DERIVED)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_leaves_a_reserve_and_counts_descriptors_per_connection() {
        use ServerStrategy::*;
        assert_eq!(derived_max_connections(1024, Reactive), 1024 - 128);
        assert_eq!(derived_max_connections(1024, LeaderFollowers), 1024 - 128);
        assert_eq!(derived_max_connections(1024, ThreadPerConnection), 448);
        assert_eq!(derived_max_connections(256, Reactive), 256 - 64);
        assert_eq!(derived_max_connections(0, Reactive), MIN_DERIVED);
        assert_eq!(derived_max_connections(65536, Reactive), 65536 - 8192);
    }
}
