//! Client ORBs of the tests: every call they make fails at [`TIMEOUT`]
//! instead of hanging the test when the server never answers.

use rtorb::orb::{ConnectionStrategy, Orb, OrbBuilder};

use crate::wait::TIMEOUT;

/// A builder for a client ORB whose calls time out at [`TIMEOUT`], for
/// the tests that set more.
pub fn builder() -> OrbBuilder {
    Orb::builder().round_trip_timeout(TIMEOUT)
}

/// A client ORB whose calls time out at [`TIMEOUT`].
pub fn orb() -> Orb {
    builder().build().expect("a client ORB")
}

/// A client ORB whose calls time out at [`TIMEOUT`] and use `strategy`'s
/// connections.
pub fn with_strategy(strategy: ConnectionStrategy) -> Orb {
    builder()
        .connection_strategy(strategy)
        .build()
        .expect("a client ORB")
}
