//! Generated stubs and skeletons over real connections: a client ORB
//! passes a reference to its own `Pinger` to a `Relay` served by another
//! ORB, which decodes the reference, connects back and calls it; both ORBs
//! serve under each server concurrency strategy.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use rtorb::exception::SystemException;
use rtorb::object::Stub;
use rtorb::orb::{Orb, ServerStrategy};
use rtorb_idl_tests::relay_idl::{
    Pinger, PingerServant, PingerSkeleton, Relay, RelayServant, RelaySkeleton,
};

#[derive(Default)]
struct Counter(AtomicU32);

impl PingerServant for Counter {
    fn ping(&self, n: i32) -> Result<i32, SystemException> {
        self.0.fetch_add(1, Ordering::SeqCst);
        Ok(n + 1)
    }
}

struct Relayer;

impl RelayServant for Relayer {
    fn pass(&self, p: Option<Pinger>, n: i32) -> Result<i32, SystemException> {
        match p {
            Some(p) => p.ping(n),
            None => Ok(-1),
        }
    }

    fn echo(&self, p: Option<Pinger>) -> Result<Option<Pinger>, SystemException> {
        Ok(p)
    }
}

fn check(server_endpoint: &str, client_endpoint: &str) {
    for strategy in ServerStrategy::ALL {
        check_with(server_endpoint, client_endpoint, strategy);
    }
}

fn check_with(server_endpoint: &str, client_endpoint: &str, strategy: ServerStrategy) {
    let orb = |endpoint: &str| {
        Orb::builder()
            .listen(endpoint)
            .server_strategy(strategy)
            .build()
            .unwrap()
    };
    let server = orb(server_endpoint);
    let relay_obj = server
        .activate_with_key(&b"Relay"[..], Arc::new(RelaySkeleton(Relayer)))
        .unwrap();
    let ior = server.object_to_string(&relay_obj).expect("a reference");

    let client = orb(client_endpoint);
    let pinger_servant = Arc::new(PingerSkeleton(Counter::default()));
    let pinger = Pinger::unchecked_narrow(
        client
            .activate_with_key(&b"Pinger"[..], pinger_servant.clone())
            .unwrap(),
    );
    let relay = Relay::narrow(client.string_to_object(&ior).unwrap())
        .unwrap()
        .expect("the relay is a Relay");

    // The relay calls the client's pinger back over a connection of its own.
    assert_eq!(relay.pass(&Some(pinger.clone()), 41).unwrap(), 42);
    assert_eq!(pinger_servant.0.0.load(Ordering::SeqCst), 1);
    assert_eq!(relay.pass(&None, 1).unwrap(), -1);
    // A reference that went there and back still reaches the pinger.
    let back = relay.echo(&Some(pinger)).unwrap().expect("a reference");
    assert_eq!(back.ping(9).unwrap(), 10);
    assert_eq!(pinger_servant.0.0.load(Ordering::SeqCst), 2);
    client.shutdown();
    server.shutdown();
}

#[test]
fn references_are_called_back_over_iiop() {
    check("iiop://127.0.0.1:0", "iiop://127.0.0.1:0");
}

#[test]
fn references_are_called_back_over_uiop() {
    let dir = std::env::temp_dir();
    let pid = std::process::id();
    check(
        &format!("uiop://{}/rtorb-relay-{pid}.sock", dir.display()),
        &format!("uiop://{}/rtorb-pinger-{pid}.sock", dir.display()),
    );
}
