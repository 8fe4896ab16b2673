//! Server ORBs of the tests: listening on IIOP on the loopback interface,
//! at a port the system picks, and serving a servant under a plain key.

use std::sync::Arc;

use rtorb::object::Object;
use rtorb::orb::{Orb, OrbBuilder, ServerStrategy};
use rtorb::servant::Skeleton;

use crate::wait::NO_TIMEOUT;

/// The endpoint of the tests' servers: IIOP on the loopback interface,
/// at a port the system picks.
pub const IIOP_LOOPBACK: &str = "iiop://127.0.0.1:0";

/// A builder for a server ORB listening on [`IIOP_LOOPBACK`], for the
/// tests that set more.
pub fn builder() -> OrbBuilder {
    Orb::builder().listen(IIOP_LOOPBACK)
}

/// A server ORB listening on [`IIOP_LOOPBACK`].
pub fn orb() -> Orb {
    builder().build().expect("a server ORB")
}

/// A server ORB listening on [`IIOP_LOOPBACK`] with `strategy`.
pub fn with_strategy(strategy: ServerStrategy) -> Orb {
    builder()
        .server_strategy(strategy)
        .build()
        .expect("a server ORB")
}

/// A server ORB listening on [`IIOP_LOOPBACK`] with `strategy` and two
/// server threads, that holds at most `cap` connections (shedding one to
/// take a new one) and closes none for an incomplete message within a
/// test ([`NO_TIMEOUT`]): the server of the tests of shedding.
pub fn capped(strategy: ServerStrategy, cap: usize) -> Orb {
    builder()
        .server_strategy(strategy)
        .server_threads(2)
        .max_connections(cap)
        .incomplete_message_timeout(NO_TIMEOUT)
        .build()
        .expect("a server ORB")
}

/// Serves `servant` on `orb` under the plain key `key`; the stringified
/// reference to it.
pub fn serve(orb: &Orb, key: &'static [u8], servant: Arc<dyn Skeleton>) -> String {
    let object = orb
        .activate_with_key(key, servant)
        .expect("an object activated under its key");
    orb.object_to_string(&object)
        .expect("a reference to an object of a listening ORB")
}

/// `object` of the ORB `server`, as `client` sees it through its
/// stringified reference (calls on it go over the network, not
/// collocated).
pub fn remote(server: &Orb, client: &Orb, object: &Object) -> Object {
    let ior = server
        .object_to_string(object)
        .expect("a reference to an object of a listening ORB");
    client.string_to_object(&ior).expect("a reference")
}
