//! Fairness of the event-loop strategies (reactive, and leader/followers
//! with one thread): connections that flood the server with pipelined
//! oneway and twoway requests, `CancelRequest`s and `LocateRequest`s
//! take turns with
//! the others, a bounded amount of work per connection per turn, rather
//! than taking the one thread.
//!
//! Work is counted, not timed: every unit of the flood carries a oneway
//! `tick` request, which the servant counts, so the number of ticks the
//! server ran before a well-behaved request says how much of the flood it
//! handled first.

use std::io::{ErrorKind, Read, Write};
use std::os::unix::net::UnixStream;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

use bytes::Bytes;
use rtorb::exception::{SystemException, bad_operation};
use rtorb::object::Object;
use rtorb::orb::{MESSAGES_PER_TURN, Orb, ServerStrategy};
use rtorb::servant::{ServerRequest, Skeleton};
use rtorb_cdr::{ByteOrder, Encoding, Version};
use rtorb_giop::message::{
    CancelRequest, Content, LocateRequest, Message, RESPONSE_NONE, RESPONSE_WITH_TARGET,
    RequestHeader,
};
use rtorb_giop::target::TargetAddress;
use rtorb_giop::{FrameDecoder, FrameProtocol, MessageWriter, encode_message};
use rtorb_test_support::hold::Hold;
use rtorb_test_support::net::socket_path;
use rtorb_test_support::wait::eventually;
use rtorb_test_support::{TIMEOUT, client};

/// Flooding connections.
const FLOODERS: usize = 4;
/// `CancelRequest`s in each unit of the flood, after its oneway `tick`
/// and a twoway `pong`.
const CANCELS: usize = 3;
/// `LocateRequest`s in each unit of the flood, after its `CancelRequest`s.
const LOCATES: usize = 3;
/// Messages in a unit of the flood.
const UNIT: usize = 2 + CANCELS + LOCATES;
/// Units written at once.
const BATCH: usize = 64;
/// Units of the flood each connection has written before the waiting
/// request is sent: several times what one read takes in.
const PILED: u64 = 2 * BATCH as u64;

/// What the meter servant counts.
#[derive(Default)]
struct Counts {
    /// `tick`s run: units of the flood handled.
    ticks: AtomicU64,
    /// The ticks run before the last `mark`.
    at_mark: AtomicU64,
    /// Where `hold` waits until released.
    hold: Hold,
    /// The tick at which `tick` sends the waiting request (0: none).
    trigger: AtomicU64,
    /// Where the waiting request is sent from, at the trigger tick.
    waiting: Mutex<Option<UnixStream>>,
}

/// `tick` (oneway) counts (and at the trigger, has the waiting client send
/// its `mark`), `pong` answers, `mark` notes the count, `hold` keeps the
/// thread that runs it until released.
struct Meter(Arc<Counts>);

impl Skeleton for Meter {
    fn repository_ids(&self) -> &'static [&'static str] {
        &["IDL:rtorb/Meter:1.0"]
    }
    fn dispatch(&self, req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
        match req.operation() {
            "tick" => {
                let n = self.0.ticks.fetch_add(1, Ordering::AcqRel) + 1;
                if n == self.0.trigger.load(Ordering::Acquire) {
                    let waiting = self.0.waiting.lock().unwrap().take();
                    if let Some(mut w) = waiting {
                        w.write_all(&request(2, "mark", RESPONSE_WITH_TARGET))
                            .unwrap();
                    }
                }
                Ok(())
            }
            "pong" => req.write_results(|_| Ok(())),
            "mark" => {
                let ticks = self.0.ticks.load(Ordering::Acquire);
                self.0.at_mark.store(ticks, Ordering::Release);
                req.write_results(|_| Ok(()))
            }
            "hold" => {
                self.0.hold.enter(TIMEOUT);
                req.write_results(|_| Ok(()))
            }
            _ => Err(bad_operation()),
        }
    }
}

/// A server of `strategy` (one thread) with the meter, and its socket.
fn server(strategy: ServerStrategy) -> (Orb, Arc<Counts>, String, String) {
    let path = socket_path("fair");
    let server = Orb::builder()
        .listen(format!("uiop://{path}"))
        .server_strategy(strategy)
        .server_threads(1)
        .build()
        .unwrap();
    let counts = Arc::new(Counts::default());
    let obj = server
        .activate_with_key(&b"Meter"[..], Arc::new(Meter(Arc::clone(&counts))))
        .unwrap();
    let ior = server.object_to_string(&obj).unwrap();
    (server, counts, path, ior)
}

fn encoding() -> Encoding {
    Encoding::native()
        .with_order(ByteOrder::Big)
        .with_version(Version::V1_2)
}

/// A GIOP 1.2 request to the meter.
fn request(id: u32, operation: &'static str, response_flags: u8) -> Bytes {
    let mut h = RequestHeader::new(id, Bytes::from_static(b"Meter"), operation);
    h.response_flags = response_flags;
    MessageWriter::request(encoding(), &h)
        .unwrap()
        .finish()
        .unwrap()
}

fn message(content: Content) -> Bytes {
    encode_message(&Message::new(Version::V1_2, ByteOrder::Big, content)).unwrap()
}

/// [`BATCH`] units of the flood: each a oneway `tick`, a twoway `pong`,
/// then `CancelRequest`s (of the `pong`) and `LocateRequest`s for the
/// meter.
fn flood_batch() -> Vec<u8> {
    let mut batch = Vec::new();
    for unit in 0..BATCH as u32 {
        let id = unit * UNIT as u32;
        batch.extend_from_slice(&request(id, "tick", RESPONSE_NONE));
        batch.extend_from_slice(&request(id + 1, "pong", RESPONSE_WITH_TARGET));
        for _ in 0..CANCELS {
            batch.extend_from_slice(&message(Content::CancelRequest(CancelRequest {
                request_id: id + 1,
            })));
        }
        for i in 0..LOCATES as u32 {
            batch.extend_from_slice(&message(Content::LocateRequest(LocateRequest {
                request_id: id + 2 + i,
                target: TargetAddress::Key(Bytes::from_static(b"Meter")),
            })));
        }
    }
    batch
}

/// Reads one whole message from `s`.
fn read_message(s: &mut UnixStream) -> Bytes {
    let mut decoder = FrameDecoder::new(FrameProtocol::Giop);
    loop {
        if let Some(m) = decoder.next_frame().unwrap() {
            return m;
        }
        let mut buf = [0u8; 256];
        let n = s.read(&mut buf).expect("a reply within the timeout");
        assert!(n > 0, "the server closed the connection");
        decoder.buffer_mut().extend_from_slice(&buf[..n]);
    }
}

/// A connection that floods the server until stopped, reading (and
/// discarding) the replies so that it is never held back for
/// replies it does not read.
struct Flooder {
    written: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    stream: UnixStream,
    threads: Vec<JoinHandle<()>>,
}

impl Flooder {
    /// Connected, and known to the server (it has answered a first
    /// `LocateRequest`).
    fn connect(path: &str) -> Flooder {
        let mut stream = UnixStream::connect(path).unwrap();
        stream.set_read_timeout(Some(TIMEOUT)).unwrap();
        stream
            .write_all(&message(Content::LocateRequest(LocateRequest {
                request_id: u32::MAX,
                target: TargetAddress::Key(Bytes::from_static(b"Meter")),
            })))
            .unwrap();
        read_message(&mut stream);
        Flooder {
            written: Arc::new(AtomicU64::new(0)),
            stop: Arc::new(AtomicBool::new(false)),
            stream,
            threads: Vec::new(),
        }
    }

    /// Starts writing units of the flood, and reading what comes back.
    fn start(&mut self) {
        let (mut w, mut r) = (
            self.stream.try_clone().unwrap(),
            self.stream.try_clone().unwrap(),
        );
        r.set_read_timeout(None).unwrap();
        let (written, stop) = (Arc::clone(&self.written), Arc::clone(&self.stop));
        self.threads.push(std::thread::spawn(move || {
            let batch = flood_batch();
            while !stop.load(Ordering::Acquire) {
                if w.write_all(&batch).is_err() {
                    return;
                }
                written.fetch_add(BATCH as u64, Ordering::AcqRel);
            }
        }));
        self.threads.push(std::thread::spawn(move || {
            let mut sink = vec![0u8; 64 * 1024];
            loop {
                match r.read(&mut sink) {
                    Ok(0) => return,
                    Ok(_) => {}
                    Err(e) if e.kind() == ErrorKind::Interrupted => {}
                    Err(_) => return,
                }
            }
        }));
    }

    /// Units of the flood written so far.
    fn written(&self) -> u64 {
        self.written.load(Ordering::Acquire)
    }
}

impl Drop for Flooder {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
        let _ = self.stream.shutdown(std::net::Shutdown::Both);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

/// The strategies with an event loop, one thread each.
const STRATEGIES: [ServerStrategy; 2] = [ServerStrategy::Reactive, ServerStrategy::LeaderFollowers];

/// When the well-behaved request is sent, with the server's one thread
/// held until a flood has piled up on every flooding connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Arrival {
    /// Before the thread is let go: all become ready together.
    Together,
    /// While a flooding connection has its turn, once every one has had
    /// a few (the `tick` at this count sends it).
    AtTick(u64),
}

/// The units of the flood run before the well-behaved request, less those
/// run before it was sent.
fn flood_before_waiting_request(strategy: ServerStrategy, arrival: Arrival) -> u64 {
    let (server, counts, path, ior) = server(strategy);
    let client = client::orb();
    let meter: Object = client.string_to_object(&ior).unwrap();
    // Every connection is known to the server before it is held.
    let mut flooders: Vec<Flooder> = (0..FLOODERS).map(|_| Flooder::connect(&path)).collect();
    let mut waiting = UnixStream::connect(&path).unwrap();
    waiting.set_read_timeout(Some(TIMEOUT)).unwrap();
    waiting
        .write_all(&request(1, "mark", RESPONSE_WITH_TARGET))
        .unwrap();
    read_message(&mut waiting);

    // The one thread runs `hold`, while the flood piles up behind it
    // (many turns' worth on each connection).
    let holder = std::thread::spawn(move || meter.invoke("hold", |_| Ok(())).map(|_| ()));
    assert!(
        counts.hold.wait_entered(TIMEOUT),
        "{strategy}: hold never ran"
    );
    for f in &mut flooders {
        f.start();
    }
    let piled = eventually(TIMEOUT, || flooders.iter().all(|f| f.written() >= PILED));
    assert!(piled, "{strategy}: the flood could not be written");
    assert_eq!(
        counts.ticks.load(Ordering::Acquire),
        0,
        "{strategy}: the flood ran while held"
    );
    let sent_at = match arrival {
        Arrival::Together => {
            waiting
                .write_all(&request(2, "mark", RESPONSE_WITH_TARGET))
                .unwrap();
            0
        }
        Arrival::AtTick(t) => {
            *counts.waiting.lock().unwrap() = Some(waiting.try_clone().unwrap());
            counts.trigger.store(t, Ordering::Release);
            t
        }
    };
    counts.hold.release();
    holder.join().unwrap().unwrap();
    read_message(&mut waiting);
    let at_mark = counts.at_mark.load(Ordering::Acquire);
    println!(
        "{strategy}, {arrival:?}: {} units of the flood before the waiting request",
        at_mark - sent_at
    );
    // And the flood goes on being served.
    let served = eventually(TIMEOUT, || {
        counts.ticks.load(Ordering::Acquire) > at_mark + 64
    });
    assert!(served, "{strategy}: the flood stopped being served");
    drop(flooders);
    server.shutdown();
    at_mark - sent_at
}

/// The most units of the flood one turn on a flooding connection runs: a
/// turn is at most MESSAGES_PER_TURN messages.
fn units_per_turn() -> u64 {
    MESSAGES_PER_TURN.div_ceil(UNIT) as u64
}

#[test]
fn a_flood_gets_one_turn_before_a_waiting_request() {
    for strategy in STRATEGIES {
        // All became ready together: each flooding connection has at most
        // one turn before the request; twice that, for a turn begun
        // before the request's event was seen.
        let bound = 2 * FLOODERS as u64 * units_per_turn();
        let ran = flood_before_waiting_request(strategy, Arrival::Together);
        assert!(
            ran <= bound,
            "{strategy}: {ran} units of the flood ran before the waiting request \
             (at most {bound}: a turn is {MESSAGES_PER_TURN} messages at most)"
        );
    }
}

#[test]
fn a_request_arriving_during_a_flood_waits_for_one_turn() {
    for strategy in STRATEGIES {
        // Sent during the turn of a flooding connection, after every
        // flooding connection has had several: served as soon as that turn
        // ends, before the other flooding connections' next turns.
        let at = 3 * FLOODERS as u64 * units_per_turn() + 1;
        let bound = units_per_turn();
        let ran = flood_before_waiting_request(strategy, Arrival::AtTick(at));
        assert!(
            ran <= bound,
            "{strategy}: {ran} units of the flood ran after the request was sent \
             (at most {bound}: the rest of the turn it arrived in)"
        );
    }
}

#[test]
fn calls_complete_while_floods_go_on() {
    /// Calls the well-behaved client makes at least.
    const CALLS: u64 = 200;
    for strategy in STRATEGIES {
        let (server, counts, path, ior) = server(strategy);
        let client = client::orb();
        let meter: Object = client.string_to_object(&ior).unwrap();
        let mut flooders: Vec<Flooder> = (0..FLOODERS).map(|_| Flooder::connect(&path)).collect();
        for f in &mut flooders {
            f.start();
        }
        let written = |fs: &[Flooder]| fs.iter().map(Flooder::written).sum::<u64>();
        // The flood is under way.
        assert!(
            eventually(TIMEOUT, || counts.ticks.load(Ordering::Acquire) > 0),
            "{strategy}: the flood is not served"
        );
        let (written_before, ticks_before) =
            (written(&flooders), counts.ticks.load(Ordering::Acquire));
        // Calls go on until the flood has moved on by as many units as
        // calls were made, both written and served: every call completes
        // while the flood continues.
        let deadline = Instant::now() + TIMEOUT;
        let mut calls = 0u64;
        let progressed = loop {
            let got = meter.invoke("mark", |_| Ok(()));
            assert!(
                got.is_ok(),
                "{strategy}: call {calls} failed: {:?}",
                got.err()
            );
            calls += 1;
            if calls >= CALLS
                && written(&flooders) >= written_before + CALLS
                && counts.ticks.load(Ordering::Acquire) >= ticks_before + CALLS
            {
                break true;
            }
            if Instant::now() >= deadline {
                break false;
            }
        };
        assert!(
            progressed,
            "{strategy}: after {calls} calls the flood wrote {} and ran {} more units",
            written(&flooders) - written_before,
            counts.ticks.load(Ordering::Acquire) - ticks_before
        );
        drop(flooders);
        server.shutdown();
    }
}
