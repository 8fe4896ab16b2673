//! A lane whose threads are all busy: it buffers requests up to its bound
//! and runs them in arrival order once a thread is free, answers the next
//! with `TRANSIENT` (checked on the wire), and never delays another lane.
//! Scheduling is SCHED_OTHER (nice values), so no privilege is needed;
//! raw GIOP peers, a connection each, send the requests.

use std::io::Write;
use std::net::TcpStream;
use std::sync::Arc;

use rtorb::cdr::CdrEncode;
use rtorb::minor::TRANSIENT_LANE_FULL;
use rtorb::object::Object;
use rtorb::orb::{Orb, OrbConfig};
use rtorb::rt::{
    LaneConfig, LaneId, LaneStats, Priority, PriorityModelPolicy, ThreadpoolConfig, ThreadpoolId,
};
use rtorb_cdr::ByteOrder;
use rtorb_giop::message::{Content, Message, ReplyStatus};
use rtorb_giop::{CompletionStatus, SystemExceptionKind};
use rtorb_test_support::hold::{HeldServant, whoami};
use rtorb_test_support::net::{endpoint_address, read_message};
use rtorb_test_support::priority::{high, lane_stats, low, nice_of, nice_server, nice_server_of};
use rtorb_test_support::wait::eventually;
use rtorb_test_support::wire::request_to;
use rtorb_test_support::{TIMEOUT, client};

/// A server with `pool` (lane 0 low, lane 1 high), the servant `gate` as
/// `Low` in the low lane and as `High` in the high one.
struct Server {
    orb: Orb,
    pool: ThreadpoolId,
    gate: Arc<HeldServant>,
}

/// Should a test fail with an upcall held, the upcall ends and the ORB
/// shuts down at once.
impl Drop for Server {
    fn drop(&mut self) {
        self.gate.hold().open();
    }
}

impl Server {
    fn start(pool: ThreadpoolConfig) -> Server {
        let orb = nice_server().build().unwrap();
        let pool = orb.create_threadpool(pool).unwrap();
        Server::serve(orb, pool)
    }

    /// The server of the lanes of `-ORB` options.
    fn from_options(args: &[&str]) -> Server {
        let mut config = OrbConfig::default();
        config.apply_args(args.iter().copied()).unwrap();
        let orb = nice_server_of(config);
        let pool = orb.threadpools()[0];
        Server::serve(orb, pool)
    }

    fn serve(orb: Orb, pool: ThreadpoolId) -> Server {
        let gate = HeldServant::new(TIMEOUT);
        orb.activate_with_key_at(
            &b"Low"[..],
            gate.clone(),
            PriorityModelPolicy::server_declared(low()),
        )
        .unwrap();
        orb.activate_with_key_at(
            &b"High"[..],
            gate.clone(),
            PriorityModelPolicy::server_declared(high()),
        )
        .unwrap();
        Server { orb, pool, gate }
    }

    fn lane(&self, index: u16) -> LaneId {
        LaneId {
            pool: self.pool,
            index,
        }
    }

    fn stats(&self, index: u16) -> LaneStats {
        lane_stats(&self.orb, self.lane(index))
    }

    /// A raw connection to the lane `index`.
    fn connect(&self, index: u16) -> TcpStream {
        let lanes = self.orb.lane_endpoints(self.pool).unwrap();
        let endpoint = &lanes[usize::from(index)].1[0];
        let s = TcpStream::connect(endpoint_address(endpoint)).unwrap();
        s.set_read_timeout(Some(TIMEOUT)).unwrap();
        s
    }

    /// `record(n)` as request `id`, on a new connection to the low lane;
    /// the connection.
    fn record_on_new(&self, id: u32, n: u32) -> TcpStream {
        let mut c = self.connect(0);
        c.write_all(&record(id, n, true)).unwrap();
        c
    }

    /// Sends `block` to `key` on a connection of lane `index`, and waits
    /// until a thread runs it.
    fn block(&self, index: u16, key: &'static [u8]) -> TcpStream {
        let mut c = self.connect(index);
        c.write_all(&request_to(ByteOrder::Big, 1, key, "block", true, |_| {}))
            .unwrap();
        assert!(self.gate.hold().wait_entered(TIMEOUT));
        c
    }

    /// Sends `block` on a connection of the low lane, and waits until its
    /// one thread runs it.
    fn block_low_lane(&self) -> TcpStream {
        self.block(0, b"Low")
    }

    /// The gate as `key`, declared at `priority`, as `client` sees it.
    fn remote(&self, client: &Orb, key: &'static [u8], priority: Priority) -> Object {
        let o = self
            .orb
            .activate_with_key_at(
                key,
                self.gate.clone(),
                PriorityModelPolicy::server_declared(priority),
            )
            .unwrap();
        client
            .string_to_object(&self.orb.object_to_string(&o).unwrap())
            .unwrap()
    }
}

fn record(id: u32, n: u32, response: bool) -> bytes::Bytes {
    request_to(ByteOrder::Big, id, b"Low", "record", response, |w| {
        n.encode(w.body()).unwrap();
    })
}

fn reply_status(m: &Message) -> (u32, ReplyStatus) {
    let Content::Reply(r) = &m.content else {
        panic!("not a reply: {m:?}");
    };
    (r.header.request_id, r.header.reply_status)
}

/// Reads the next reply on `c`: the one to request `id`, without an
/// exception.
fn assert_answered(c: &mut TcpStream, id: u32) {
    assert_eq!(
        reply_status(&read_message(c)),
        (id, ReplyStatus::NoException)
    );
}

fn one_thread_lanes(low_lane: LaneConfig) -> ThreadpoolConfig {
    ThreadpoolConfig::new()
        .lane(low_lane)
        .lane(LaneConfig::new(high()).static_threads(1))
}

/// The high lane's object answered through an rtorb client, meanwhile: at
/// once, from the high lane's thread.
fn high_lane_answers(server: &Server) {
    let client = client::orb();
    let hi = server.remote(&client, b"High2", high());
    for _ in 0..3 {
        let (name, _) = whoami(&hi).unwrap();
        assert!(name.ends_with("-1"), "{name}");
    }
}

/// The `TRANSIENT` reply to request `id`, in big-endian GIOP 1.2, octet by
/// octet: `SYSTEM_EXCEPTION`, no service context, the repository id,
/// rtorb's minor code and `COMPLETED_NO`.
fn assert_transient_bytes(c: &mut TcpStream, id: u32) {
    let mut header = [0u8; 12];
    std::io::Read::read_exact(c, &mut header).unwrap();
    assert_eq!(&header[..8], b"GIOP\x01\x02\x00\x01");
    let size = u32::from_be_bytes(header[8..12].try_into().unwrap()) as usize;
    let mut body = vec![0u8; size];
    std::io::Read::read_exact(c, &mut body).unwrap();
    let repository_id = b"IDL:omg.org/CORBA/TRANSIENT:1.0\0";
    let mut expected = Vec::new();
    expected.extend_from_slice(&id.to_be_bytes());
    expected.extend_from_slice(&2u32.to_be_bytes()); // SYSTEM_EXCEPTION
    expected.extend_from_slice(&0u32.to_be_bytes()); // no service context
    expected.extend_from_slice(&(repository_id.len() as u32).to_be_bytes());
    expected.extend_from_slice(repository_id);
    expected.extend_from_slice(&TRANSIENT_LANE_FULL.to_be_bytes());
    expected.extend_from_slice(&1u32.to_be_bytes()); // COMPLETED_NO
    assert_eq!(body, expected);
}

#[test]
fn a_busy_lane_buffers_up_to_its_bound_answers_transient_past_it_and_runs_them_in_order() {
    let server = Server::start(one_thread_lanes(
        LaneConfig::new(low()).max_buffered_requests(3),
    ));
    let mut blocked = server.block_low_lane();
    // Three requests, each on a connection of its own, each buffered
    // before the next is sent.
    let mut waiting = Vec::new();
    for n in 1..=3u32 {
        let c = server.record_on_new(10 + n, n);
        assert!(eventually(TIMEOUT, || server.stats(0).waiting == n as usize));
        waiting.push(c);
    }
    // The fourth finds the buffer full: TRANSIENT at once, on the wire.
    let mut refused = server.record_on_new(14, 4);
    assert_transient_bytes(&mut refused, 14);
    // Meanwhile the high lane answers at once.
    high_lane_answers(&server);
    assert!(server.gate.recorded().is_empty());
    let stats = server.stats(0);
    assert_eq!((stats.waiting, stats.buffered, stats.refused), (3, 3, 1));

    server.gate.hold().release();
    assert_answered(&mut blocked, 1);
    for (n, c) in (1..=3u32).zip(&mut waiting) {
        assert_answered(c, 10 + n);
    }
    assert_eq!(server.gate.recorded(), [1, 2, 3]);
    // The refused request's connection keeps serving.
    refused.write_all(&record(15, 5, true)).unwrap();
    assert_answered(&mut refused, 15);
    assert_eq!(server.gate.recorded(), [1, 2, 3, 5]);
    assert_eq!(server.stats(0).waiting, 0);
    server.orb.shutdown();
}

#[test]
fn without_buffering_a_busy_lane_answers_transient_at_once_and_drops_oneways() {
    let server =
        Server::start(one_thread_lanes(LaneConfig::new(low())).allow_request_buffering(false));
    let mut blocked = server.block_low_lane();
    let mut c = server.record_on_new(20, 1);
    let m = read_message(&mut c);
    assert_eq!(reply_status(&m).1, ReplyStatus::SystemException);
    let Content::Reply(r) = &m.content else {
        unreachable!()
    };
    let e = r.system_exception(m.order).unwrap();
    assert_eq!(e.kind(), Some(SystemExceptionKind::Transient));
    assert_eq!(e.minor, TRANSIENT_LANE_FULL);
    assert_eq!(e.completed, CompletionStatus::No);
    // A oneway is dropped, and counted.
    c.write_all(&record(21, 2, false)).unwrap();
    assert!(eventually(TIMEOUT, || server.stats(0).dropped_oneways == 1));
    high_lane_answers(&server);

    server.gate.hold().release();
    assert_answered(&mut blocked, 1);
    c.write_all(&record(22, 3, true)).unwrap();
    assert_answered(&mut c, 22);
    assert_eq!(server.gate.recorded(), [3]);
    let stats = server.stats(0);
    assert_eq!((stats.buffered, stats.refused), (0, 1));
    server.orb.shutdown();
}

#[test]
fn a_bound_of_zero_is_no_limit() {
    let server = Server::start(one_thread_lanes(
        LaneConfig::new(low()).max_buffered_requests(0),
    ));
    let mut blocked = server.block_low_lane();
    let mut waiting = Vec::new();
    for n in 1..=8u32 {
        let c = server.record_on_new(30 + n, n);
        waiting.push(c);
    }
    assert!(eventually(TIMEOUT, || server.stats(0).waiting == 8));
    server.gate.hold().release();
    read_message(&mut blocked);
    for (n, c) in (1..=8u32).zip(&mut waiting) {
        assert_answered(c, 30 + n);
    }
    let mut recorded = server.gate.recorded();
    recorded.sort_unstable();
    assert_eq!(recorded, (1..=8).collect::<Vec<_>>());
    assert_eq!(server.stats(0).refused, 0);
    server.orb.shutdown();
}

#[test]
fn a_busy_lane_borrows_an_idle_thread_of_a_lower_lane_at_its_own_priority() {
    let server = Server::start(
        one_thread_lanes(LaneConfig::new(low()).static_threads(1)).allow_borrowing(true),
    );
    assert_ne!(nice_of(&server.orb, high()), nice_of(&server.orb, low()));
    let client = client::orb();
    let hi = server.remote(&client, b"High3", high());
    let lo = server.remote(&client, b"Low3", low());
    let low_thread = format!("rtorb-lane-{}-0", server.pool.index());
    // The high lane's one thread is in the servant.
    let mut blocked = server.block(1, b"High");
    // Its next request runs on the low lane's thread, at the high lane's
    // priority; that thread then serves its own lane at its own again.
    for _ in 0..3 {
        assert_eq!(
            whoami(&hi).unwrap(),
            (low_thread.clone(), nice_of(&server.orb, high()))
        );
        assert_eq!(
            whoami(&lo).unwrap(),
            (low_thread.clone(), nice_of(&server.orb, low()))
        );
    }
    assert_eq!(server.stats(1).refused, 0);
    server.gate.hold().release();
    assert_answered(&mut blocked, 1);
    server.orb.shutdown();
}

#[test]
fn a_higher_lane_does_not_lend() {
    let server = Server::start(
        one_thread_lanes(LaneConfig::new(low()).static_threads(1)).allow_borrowing(true),
    );
    let mut blocked = server.block_low_lane();
    let mut c = server.record_on_new(2, 7);
    assert!(eventually(TIMEOUT, || server.stats(0).waiting == 1));
    // The high lane serves its own, and leaves the low lane's waiting.
    high_lane_answers(&server);
    assert_eq!(server.stats(0).waiting, 1);
    assert!(server.gate.recorded().is_empty());
    server.gate.hold().release();
    read_message(&mut blocked);
    assert_answered(&mut c, 2);
    assert_eq!(server.gate.recorded(), [7]);
    server.orb.shutdown();
}

#[test]
fn lane_buffering_comes_from_orb_options() {
    let (lo, hi) = (low().get().to_string(), high().get().to_string());
    let server = Server::from_options(&[
        "-ORBLane",
        &format!("{lo}:1"),
        "-ORBLane",
        &format!("{hi}:1"),
        "-ORBLaneBuffering",
        "1",
        "-ORBLaneBorrowing",
        "no",
    ]);
    let mut blocked = server.block_low_lane();
    let mut kept = server.record_on_new(2, 1);
    assert!(eventually(TIMEOUT, || server.stats(0).waiting == 1));
    let mut refused = server.record_on_new(3, 2);
    assert_transient_bytes(&mut refused, 3);
    server.gate.hold().release();
    read_message(&mut blocked);
    assert_answered(&mut kept, 2);
    assert_eq!(server.gate.recorded(), [1]);
    server.orb.shutdown();
}
