//! A flood on a low lane's endpoint leaves a high lane's clients served:
//! connections up to the low lane's cap (idle ones and stalled half GIOP
//! headers), random bytes, a request announcing most of the memory
//! budget, and a client that never reads its replies. Each lane has a
//! share of the connection cap that no other lane takes, and charges its
//! octets to a budget of its own, so the high lane's clients (a connection held from before the
//! flood, and a new one opened during it) make every call, large requests
//! charged to a budget included, while the low lane sheds and refuses.
//!
//! Priorities are nice values (SCHED_OTHER): the tests need no real-time
//! privilege and cannot starve the machine.

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use bytes::Bytes;
use rtorb::exception::SystemExceptionKind;
use rtorb::orb::Orb;
use rtorb::rt::PriorityModelPolicy;
use rtorb_cdr::{Encoding, Version};
use rtorb_giop::MessageWriter;
use rtorb_giop::message::RequestHeader;
use rtorb_test_support::cubit::{Cubit, CubitImpl, CubitSkeleton};
use rtorb_test_support::net::closed_by_server;
use rtorb_test_support::priority::{TwoLanes, low, nice_server, two_lanes};
use rtorb_test_support::wait::eventually;
use rtorb_test_support::wire::cubit_request;
use rtorb_test_support::{TIMEOUT, client};

/// The connection cap (of the whole ORB, a share of it reserved for each lane).
const CAP: usize = 16;
/// The memory budget (per lane).
const BUDGET: usize = 256 * 1024;
/// A request the budget is charged for (more than 16 KiB), larger than
/// what unread replies leave of a budget.
const LARGE: usize = 96 * 1024;

struct Fixture {
    server: Orb,
    /// `host:port` of the low lane, where `Cubit` is served.
    low_address: String,
    /// The stringified references of `High` and of the low lane's `Cubit`.
    high_ior: String,
    low_ior: String,
    /// A client of `High` connected before the flood.
    _client: Orb,
    early: Cubit,
}

fn fixture() -> Fixture {
    let server = nice_server()
        .max_connections(CAP)
        .memory_budget(BUDGET)
        .build()
        .unwrap();
    let TwoLanes {
        low_address,
        high_ior,
        ..
    } = two_lanes(&server);
    let lo = server
        .activate_with_key_at(
            &b"Cubit"[..],
            Arc::new(CubitSkeleton(CubitImpl::default())),
            PriorityModelPolicy::server_declared(low()),
        )
        .unwrap();
    let low_ior = server.object_to_string(&lo).unwrap();
    let client = client::orb();
    let early: Cubit = client
        .string_to_object(&high_ior)
        .unwrap()
        .unchecked_narrow();
    let f = Fixture {
        server,
        low_address,
        high_ior,
        low_ior,
        _client: client,
        early,
    };
    served(&f.early, "before the flood");
    f
}

/// Small and large calls on `c`, every one answered.
fn served(c: &Cubit, what: &str) {
    for i in 0..20 {
        assert_eq!(c.cube_long(i).ok(), Some(i * i * i), "{what}: call {i}");
    }
    let octets = vec![3u8; LARGE];
    let got = c.cube_octet_sequence(&octets);
    assert_eq!(
        got.as_ref().map(|s| (s.len(), s[0])).ok(),
        Some((LARGE, 27)),
        "{what}: a large request: {got:?}"
    );
}

impl Fixture {
    /// The high lane's client connected before the flood, and one
    /// connected during it, are served.
    fn high_lane_served(&self, what: &str) {
        served(&self.early, &format!("{what}, the early client"));
        let client = client::orb();
        let late: Cubit = client
            .string_to_object(&self.high_ior)
            .unwrap()
            .unchecked_narrow();
        served(&late, &format!("{what}, a new client"));
    }

    fn low_connection(&self) -> TcpStream {
        let s = TcpStream::connect(&self.low_address).unwrap();
        s.set_read_timeout(Some(TIMEOUT)).unwrap();
        s.set_write_timeout(Some(TIMEOUT)).unwrap();
        s
    }
}

#[test]
fn connections_beyond_the_low_lane_s_cap_shed_none_of_the_high_lane_s() {
    let f = fixture();
    // Twice the cap: idle connections and stalled half GIOP headers.
    let mut flood: Vec<TcpStream> = (0..2 * CAP)
        .map(|i| {
            let mut s = f.low_connection();
            if i % 2 == 1 {
                s.write_all(b"GIOP\x01\x02").unwrap();
            }
            s
        })
        .collect();
    // The low lane is at its cap: it sheds (or refuses) the rest.
    assert!(
        eventually(TIMEOUT, || {
            flood
                .iter_mut()
                .map(closed_by_server)
                .filter(|c| *c)
                .count()
                >= CAP
        }),
        "the low lane shed nothing"
    );
    f.high_lane_served("at the low lane's cap");
    drop(flood);
}

/// Bytes that are no GIOP message, from a simple generator.
fn garbage(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 32) as u8
        })
        .collect()
}

#[test]
fn random_bytes_on_the_low_lane_leave_the_high_lane_served() {
    let f = fixture();
    let stop = Arc::new(AtomicBool::new(false));
    let answered = Arc::new(AtomicUsize::new(0));
    let address = f.low_address.clone();
    let attacker = {
        let (stop, answered) = (Arc::clone(&stop), Arc::clone(&answered));
        std::thread::spawn(move || {
            let mut seed = 0x9e37_79b9_7f4a_7c15u64;
            while !stop.load(Ordering::Relaxed) {
                let mut s = TcpStream::connect(&address).unwrap();
                s.set_read_timeout(Some(TIMEOUT)).unwrap();
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let mut bytes = garbage(seed, 4096);
                bytes[0] = b'X';
                // The server may close before all is written.
                let _ = s.write_all(&bytes);
                let mut answer = Vec::new();
                let _ = s.read_to_end(&mut answer);
                if answer.len() >= 8 && &answer[..4] == b"GIOP" && answer[7] == 6 {
                    answered.fetch_add(1, Ordering::Relaxed);
                }
            }
        })
    };
    assert!(
        eventually(TIMEOUT, || answered.load(Ordering::Relaxed) >= 3),
        "the low lane answered no garbage with MessageError"
    );
    f.high_lane_served("under random bytes");
    stop.store(true, Ordering::Relaxed);
    attacker.join().unwrap();
}

/// The start of a `cube_octet_sequence` request to `Cubit` whose header
/// announces a body of `announced` octets, of which only this start is
/// sent.
fn announcing(announced: u32) -> Vec<u8> {
    let encoding = Encoding::native().with_version(Version::V1_2);
    let header = RequestHeader::new(1, Bytes::from_static(b"Cubit"), "cube_octet_sequence");
    let mut w = MessageWriter::request(encoding, &header).unwrap();
    let so_far = u32::try_from(w.len()).unwrap() - 12;
    w.body().write_u32(announced - so_far - 4);
    let mut bytes = w.finish().unwrap().to_vec();
    let size = if bytes[6] & 1 == 1 {
        announced.to_le_bytes()
    } else {
        announced.to_be_bytes()
    };
    bytes[8..12].copy_from_slice(&size);
    bytes
}

#[test]
fn a_low_lane_s_spent_budget_refuses_none_of_the_high_lane_s_requests() {
    let f = fixture();
    let mut hog = f.low_connection();
    let announced = u32::try_from(BUDGET - 4096).unwrap();
    hog.write_all(&announcing(announced)).unwrap();
    assert!(
        eventually(TIMEOUT, || f.server.stats().buffered_bytes
            >= announced as usize),
        "the flood's request is not charged: {}",
        f.server.stats().buffered_bytes
    );
    // The low lane has no room for a large request...
    let client = client::orb();
    let low: Cubit = client
        .string_to_object(&f.low_ior)
        .unwrap()
        .unchecked_narrow();
    let refused = low.cube_octet_sequence(&vec![3u8; LARGE]).unwrap_err();
    assert_eq!(refused.kind(), Some(SystemExceptionKind::NoMemory));
    // ...and the high lane has all of its own.
    f.high_lane_served("with the low lane's budget spent");
    drop(hog);
    assert!(eventually(TIMEOUT, || f.server.stats().buffered_bytes == 0));
}

#[test]
fn low_lane_clients_that_never_read_leave_the_high_lane_served() {
    let f = fixture();
    let stop = Arc::new(AtomicBool::new(false));
    // Each connection's queued replies stop its reading well before the
    // budget: several spend it together.
    let attackers: Vec<_> = (0..4)
        .map(|_| {
            let mut writer = f.low_connection();
            writer
                .set_write_timeout(Some(Duration::from_millis(50)))
                .unwrap();
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                let octets = vec![3u8; 64 * 1024];
                let request = cubit_request(1, "cube_octet_sequence", |w| {
                    w.body().write_octet_seq(&octets).unwrap();
                });
                let mut at = 0;
                while !stop.load(Ordering::Relaxed) {
                    match writer.write(&request[at..]) {
                        Ok(n) => at = (at + n) % request.len(),
                        Err(e)
                            if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
                        Err(_) => break,
                    }
                }
                writer
            })
        })
        .collect();
    // Replies queue up for the clients that do not read them until the
    // low lane's budget has no room for a large request.
    let spent = eventually(TIMEOUT, || f.server.stats().buffered_bytes > BUDGET - LARGE);
    let held = f.server.stats().buffered_bytes;
    if spent {
        f.high_lane_served("with unread replies on the low lane");
    }
    stop.store(true, Ordering::Relaxed);
    for a in attackers {
        drop(a.join().unwrap());
    }
    assert!(spent, "the unread replies held {held} octets");
    assert!(eventually(TIMEOUT, || f.server.stats().buffered_bytes == 0));
}
