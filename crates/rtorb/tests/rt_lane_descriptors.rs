//! The lanes of a thread pool and the ORB's own endpoints share one
//! connection cap, the bound on the process's server descriptors: floods
//! on the low lane and on the ORB's endpoint at once never hold more
//! server connections than the cap together, and a new client of the
//! high lane still connects and is served, within the share of the cap
//! reserved for its lane, even when its pool was created while the ORB's
//! endpoint held the whole cap.
//!
//! Priorities are nice values (SCHED_OTHER): the test needs no real-time
//! privilege and cannot starve the machine.

use std::io::Write;
use std::net::TcpStream;

use rtorb::orb::{Orb, ServerStrategy};
use rtorb_test_support::cubit::Cubit;
use rtorb_test_support::net::{closed_by_server, iiop_address};
use rtorb_test_support::priority::{TwoLanes, lane_stats, nice_server, two_lanes};
use rtorb_test_support::wait::eventually;
use rtorb_test_support::{TIMEOUT, client};

/// The connection cap of the whole ORB.
const CAP: usize = 24;
/// Connections of each flood: many more than the cap.
const FLOOD: usize = 4 * CAP;

/// A flood connection to `address`: idle, or (every other one) with a
/// stalled half GIOP header.
fn flood_connection(address: &str, i: usize) -> TcpStream {
    let mut s = TcpStream::connect(address).unwrap();
    s.set_write_timeout(Some(TIMEOUT)).unwrap();
    if i % 2 == 1 {
        // The server may have closed it already.
        let _ = s.write_all(b"GIOP\x01\x02");
    }
    s.set_nonblocking(true).unwrap();
    s
}

/// The server: an ORB listening on its own endpoint, with a cap of
/// [`CAP`], its main endpoint served under `strategy`.
fn server(strategy: ServerStrategy) -> Orb {
    let server = nice_server()
        .server_strategy(strategy)
        .max_connections(CAP)
        .build()
        .unwrap();
    assert_eq!(server.stats().max_server_connections, CAP);
    server
}

/// Flood connections, each with whether the server has closed it.
struct Flood {
    connections: Vec<(TcpStream, bool)>,
    /// The most server connections seen open at once.
    most: usize,
}

impl Flood {
    fn new() -> Flood {
        Flood {
            connections: Vec::new(),
            most: 0,
        }
    }

    /// Opens `count` connections to each of `targets`, interleaved.
    fn open(&mut self, server: &Orb, targets: &[String], count: usize) {
        for i in 0..count {
            for target in targets {
                self.connections.push((flood_connection(target, i), false));
                self.most = self.most.max(server.stats().total_server_connections);
            }
        }
    }

    /// Waits until every flood connection has been taken (it is open on
    /// the server, or the server shed it or refused it), and checks that
    /// the server never held more connections than the cap, if `strict`;
    /// how many it holds.
    ///
    /// Not strict: under thread-per-connection a connection admitted in
    /// place of one being shed is counted before the shed one, which its
    /// own thread closes, has counted itself out.
    fn settle(&mut self, server: &Orb, strict: bool) -> usize {
        let settled = eventually(TIMEOUT, || {
            let open = server.stats().total_server_connections;
            self.most = self.most.max(open);
            for (s, closed) in self.connections.iter_mut().filter(|(_, c)| !*c) {
                *closed = closed_by_server(s);
            }
            let closed = self.connections.iter().filter(|(_, c)| *c).count();
            closed + open >= self.connections.len()
        });
        let open = server.stats().total_server_connections;
        assert!(settled, "the floods were not all taken: {open} open");
        self.most = self.most.max(open);
        assert!(
            !strict || self.most <= CAP,
            "{} server connections open, over the cap",
            self.most
        );
        open
    }
}

/// A new client of `High` connects and is served, and the server still
/// holds no more connections than the cap, the client's among the high
/// lane's.
fn high_lane_served(server: &Orb, lanes: &TwoLanes) {
    let before = lane_stats(server, lanes.high_lane()).connections;
    let client = client::orb();
    let late: Cubit = client
        .string_to_object(&lanes.high_ior)
        .unwrap()
        .unchecked_narrow();
    for i in 0..20 {
        assert_eq!(late.cube_long(i).ok(), Some(i * i * i), "call {i}");
    }
    let open = server.stats().total_server_connections;
    assert!(open <= CAP, "{open} server connections open, over the cap");
    let now = lane_stats(server, lanes.high_lane()).connections;
    assert_eq!(now, before + 1, "the client's connection in the high lane");
}

#[test]
fn floods_on_the_low_lane_and_the_orb_s_endpoint_stay_within_the_cap_and_leave_the_high_lane_room()
{
    let server = server(ServerStrategy::LeaderFollowers);
    let lanes = two_lanes(&server);
    let mut flood = Flood::new();
    flood.open(
        &server,
        &[lanes.low_address.clone(), iiop_address(&server)],
        FLOOD,
    );
    let open = flood.settle(&server, true);
    // The floods hold all the cap but the high lane's share: a sixth of
    // it (half of an equal part for each of the three endpoints).
    assert_eq!(open, CAP - CAP / 6, "flood connections held");
    // Each flood holds at least its own share, and each lane counts
    // its own connections.
    let low_lane = lane_stats(&server, lanes.low_lane()).connections;
    let high_lane = lane_stats(&server, lanes.high_lane()).connections;
    let main = server.stats().server_connections;
    assert_eq!(
        (low_lane + main, high_lane),
        (open, 0),
        "low lane {low_lane}, endpoint {main}, high lane {high_lane}"
    );
    assert!(low_lane >= CAP / 6 && main >= CAP / 6, "{low_lane} {main}");
    high_lane_served(&server, &lanes);
}

/// The ORB's endpoint, under `strategy`, holds the whole cap when a pool
/// is created; the flood goes on; a new client of the high lane is served.
fn late_pool(strategy: ServerStrategy) {
    let strict = strategy != ServerStrategy::ThreadPerConnection;
    let server = server(strategy);
    let main = [iiop_address(&server)];
    let mut flood = Flood::new();
    flood.open(&server, &main, FLOOD);
    assert!(
        eventually(TIMEOUT, || server.stats().total_server_connections == CAP),
        "the endpoint alone holds the cap"
    );
    flood.settle(&server, strict);
    let lanes = two_lanes(&server);
    // Each new connection to the ORB's endpoint sheds one there, whose
    // place goes to the lanes' promises.
    flood.open(&server, &main, CAP);
    flood.settle(&server, strict);
    // A shed connection counts itself out once closed, which its client
    // may see first; then what the lanes' promises leave of the cap is
    // held, exactly where the shed connections have closed when the new
    // ones come.
    let left = CAP - 2 * (CAP / 6);
    let came_down = eventually(TIMEOUT, || {
        let open = server.stats().total_server_connections;
        open == left || (!strict && open < left)
    });
    let open = server.stats().total_server_connections;
    assert!(came_down, "{open}: the lanes' promises are taken");
    high_lane_served(&server, &lanes);
}

#[test]
fn a_pool_created_while_an_event_loop_holds_the_cap_gets_its_promise_as_the_flood_goes_on() {
    late_pool(ServerStrategy::LeaderFollowers);
}

#[test]
fn a_pool_created_while_connection_threads_hold_the_cap_gets_its_promise_as_the_flood_goes_on() {
    late_pool(ServerStrategy::ThreadPerConnection);
}
