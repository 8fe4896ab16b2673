//! The server's concurrency strategies: which threads wait for input,
//! read requests and run them ([`ServerStrategy`]).
//!
//! Every strategy hands each complete message to the same code (decode,
//! demultiplex, dispatch, reply); they differ only in how threads meet
//! connections. A servant that calls, over the network, an object served
//! by its own ORB needs a free server thread for the nested request: with
//! the reactive strategy there is none (the call waits for its round-trip
//! timeout), and with leader/followers one of the pool must be free. This,
//! and servants that block, is why thread-per-connection is the default;
//! choose another strategy for many connections or a bounded thread count.
//!
//! In every strategy a `SYNC_WITH_SERVER` oneway is acknowledged as soon
//! as it is read, and its upcall runs on a thread of its connection's own,
//! started with the first such request, one upcall at a time in the order
//! sent: the acknowledgement of the next request never waits for a slow
//! servant, and the requests that follow on the connection run after it.
//! Shutdown is the same in every strategy: the requests being run finish,
//! every connection is sent `CloseConnection`, and every thread is joined.
//!
//! ```
//! use rtorb::orb::ServerStrategy;
//!
//! let s: ServerStrategy = "leader-followers".parse().unwrap();
//! assert_eq!(s, ServerStrategy::LeaderFollowers);
//! assert_eq!(s.to_string(), "leader-followers");
//! assert_eq!(ServerStrategy::default(), ServerStrategy::ThreadPerConnection);
//! ```

use std::fmt;
use std::str::FromStr;

/// How the server's threads serve connections. See the
/// [module](self).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ServerStrategy {
    /// One thread, an event loop over every acceptor and connection;
    /// requests run inline.
    ///
    /// The thread waits on every acceptor and connection at once (`epoll`
    /// through `mio`), reads whatever is ready without blocking, keeps
    /// each connection's partial message, runs requests inline, and
    /// queues replies that cannot be written at once until the socket is
    /// writable. One thread for any number of connections; a request that
    /// takes long delays every other client. No thread is ever blocked on
    /// a connection that sends half a message or stops reading its
    /// replies.
    Reactive,
    /// A thread per connection, blocking I/O.
    ///
    /// A thread per acceptor and a thread per accepted connection,
    /// blocking reads and writes. A servant that blocks holds up only its
    /// own connection, and a request costs one blocking read and one
    /// write: the lowest latency for a few clients, and no limit on nested
    /// or long-running upcalls. It spends a thread (and its stack) on
    /// every connection, and a stalled client ties up its thread until the
    /// incomplete-message timeout.
    #[default]
    ThreadPerConnection,
    /// A pool of threads taking turns as the leader that waits for events;
    /// the thread that reads a request runs it.
    ///
    /// When a connection has input the leader hands leadership to a
    /// follower and then reads and runs the request itself, so the thread
    /// that reads a request runs it (no hand-off between threads, no queue
    /// of requests), up to the pool size at once. A connection is never
    /// read by two threads at once, and, as with
    /// [`ServerStrategy::Reactive`], no thread is ever blocked on a
    /// connection that sends half a message or stops reading.
    LeaderFollowers,
}

impl ServerStrategy {
    /// Every strategy.
    pub const ALL: [ServerStrategy; 3] = [
        ServerStrategy::Reactive,
        ServerStrategy::ThreadPerConnection,
        ServerStrategy::LeaderFollowers,
    ];

    /// The name used in `-ORBServerStrategy`.
    pub fn as_str(self) -> &'static str {
        match self {
            ServerStrategy::Reactive => "reactive",
            ServerStrategy::ThreadPerConnection => "thread-per-connection",
            ServerStrategy::LeaderFollowers => "leader-followers",
        }
    }
}

impl fmt::Display for ServerStrategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is not a server strategy.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown server strategy {0:?} (reactive, thread-per-connection or leader-followers)")]
pub struct UnknownStrategy(pub String);

impl FromStr for ServerStrategy {
    type Err = UnknownStrategy;

    /// Parses a strategy name, in any case; `_` may stand for `-`, and
    /// `tpc` and `lf` are short forms.
    fn from_str(s: &str) -> Result<ServerStrategy, UnknownStrategy> {
        match s.to_ascii_lowercase().replace('_', "-").as_str() {
            "reactive" | "reactor" => Ok(ServerStrategy::Reactive),
            "thread-per-connection" | "tpc" => Ok(ServerStrategy::ThreadPerConnection),
            "leader-followers" | "leader-follower" | "lf" => Ok(ServerStrategy::LeaderFollowers),
            _ => Err(UnknownStrategy(s.to_owned())),
        }
    }
}
