//! Hostile peers: the attacks of the overload benchmark, which the
//! priority benchmark's floods reuse. An [`Attack`] is a set of threads of
//! this process ([`workers`]) that own their sockets and run against one
//! object of one server until the attack is finished or dropped; the
//! process raises its descriptor limit for them but not for the servers
//! it starts ([`DescriptorLimit`]).

use std::net::SocketAddr;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use bytes::Bytes;
use serde::Serialize;
use serde_json::Value;

mod limit;
mod workers;

pub(crate) use limit::DescriptorLimit;
pub(crate) use workers::Details;

use crate::giop_client;
use crate::stats::Recorder;
use crate::stop::Stop;
use rtorb_test_support::wire;
use workers::{CONNECT_TIMEOUT, GARBAGE_LEN, Held, count};

/// One kind of attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scenario {
    /// Connections that announce huge requests and send part of them.
    MemoryFlood,
    /// Connections that send large requests back to back and never read
    /// the replies.
    UnreadReplies,
    /// Connections that send random bytes, connecting again when the
    /// server closes them.
    Garbage,
    /// Connections that send a request in fragments that never end.
    FragmentFlood,
    /// This many connections that never send a byte.
    IdleFlood(usize),
    /// This many connections that send half a GIOP header.
    HalfHeaderFlood(usize),
    /// A client pipelining requests, every write ending inside one.
    Pipelining,
    /// Connections opened and closed as fast as they are accepted.
    Churn,
    /// `CancelRequest`s back to back on a few connections.
    CancelFlood,
}

impl Scenario {
    /// The scenario's name in the results (`idle-flood 2000`).
    pub(crate) fn label(self) -> String {
        match self {
            Scenario::MemoryFlood => "memory-flood".to_owned(),
            Scenario::UnreadReplies => "unread-replies".to_owned(),
            Scenario::Garbage => "garbage".to_owned(),
            Scenario::FragmentFlood => "fragment-flood".to_owned(),
            Scenario::IdleFlood(n) => format!("idle-flood {n}"),
            Scenario::HalfHeaderFlood(n) => format!("half-header-flood {n}"),
            Scenario::Pipelining => "pipelining".to_owned(),
            Scenario::Churn => "churn".to_owned(),
            Scenario::CancelFlood => "cancel-flood".to_owned(),
        }
    }
}

/// The sizes of the attacks (each scenario uses its own).
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Sizes {
    /// Connections of the memory flood.
    pub(crate) flood_connections: usize,
    /// Body octets each of them sends.
    pub(crate) flood_body: usize,
    /// The body size their GIOP headers announce.
    pub(crate) announced: u32,
    /// Connections that never read their replies.
    pub(crate) unread_connections: usize,
    /// The size of each of their requests' sequence, octets.
    pub(crate) unread_request: usize,
    /// Connections sending random bytes.
    pub(crate) garbage_connections: usize,
    /// Connections sending fragments that never end.
    pub(crate) fragment_connections: usize,
    /// The size of each of their fragments, octets.
    pub(crate) fragment_size: usize,
    /// Threads opening the connection floods' connections.
    pub(crate) flood_threads: usize,
    /// Threads opening and closing connections in the churn.
    pub(crate) churn_threads: usize,
    /// Connections of the cancel flood.
    pub(crate) cancel_connections: usize,
}

/// `CancelRequest`s each write of the cancel flood carries.
const CANCELS_PER_BATCH: u32 = 4096;

/// Work done when the attack ends, from what the threads reported and
/// the attack's length.
type Summary = Box<dyn FnOnce(Duration, &mut Details) + Send>;

/// What one attacker thread does, until the stop flag is set.
type Work = Box<dyn FnOnce(&Stop) -> Details + Send>;

/// A running attack; dropping it stops its threads and closes every
/// socket they hold.
pub(crate) struct Attack {
    stop: Arc<Stop>,
    started: Instant,
    threads: Vec<JoinHandle<Details>>,
    summary: Option<Summary>,
}

impl Attack {
    /// Starts `scenario` against the object `key` at `address`.
    pub(crate) fn start(
        scenario: Scenario,
        address: SocketAddr,
        key: &Bytes,
        sizes: &Sizes,
    ) -> Result<Attack, String> {
        let mut attack = Attack {
            stop: Arc::new(Stop::default()),
            started: Instant::now(),
            threads: Vec::new(),
            summary: None,
        };
        let giop = |e: rtorb_giop::GiopError| e.to_string();
        match scenario {
            Scenario::MemoryFlood => {
                let start = wire::request_announcing(key.clone(), sizes.announced).map_err(giop)?;
                let (n, body) = (sizes.flood_connections, sizes.flood_body);
                attack.spawn(Box::new(move |stop| {
                    workers::memory_flood(stop, address, &start, n, body)
                }));
            }
            Scenario::UnreadReplies => {
                let request = wire::octet_sequence_request(key.clone(), sizes.unread_request)
                    .map_err(giop)?;
                let n = sizes.unread_connections;
                attack.send_forever(n, address, &[], &request, "requests_sent");
            }
            Scenario::Garbage => {
                let bytes = workers::garbage(GARBAGE_LEN);
                let n = sizes.garbage_connections;
                attack.send_forever(n, address, &[], &bytes, "blocks_sent");
            }
            Scenario::FragmentFlood => {
                // The fragment's body: the request id and a multiple of 8.
                let body = sizes.fragment_size.max(16) / 8 * 8 - 4;
                for id in 1..=sizes.fragment_connections.max(1) as u32 {
                    let first = wire::first_fragment(key.clone(), id).map_err(giop)?;
                    let next = wire::fragment(id, body).map_err(giop)?;
                    attack.send_forever(1, address, &first, &next, "fragments_sent");
                }
            }
            Scenario::IdleFlood(n) => attack.connection_flood(n, b"", address, sizes),
            Scenario::HalfHeaderFlood(n) => {
                attack.connection_flood(n, b"GIOP\x01\x02", address, sizes);
            }
            Scenario::Pipelining => attack.pipelining(address, key)?,
            Scenario::Churn => attack.churn(address, sizes),
            Scenario::CancelFlood => attack.cancel_flood(address, sizes)?,
        }
        Ok(attack)
    }

    /// Starts one attacker thread.
    fn spawn(&mut self, work: Work) {
        let stop = Arc::clone(&self.stop);
        self.threads.push(std::thread::spawn(move || work(&stop)));
    }

    /// `n` connections (one at least) that send `first` then `each` over
    /// and over, counting the `each` sent as `what`.
    fn send_forever(
        &mut self,
        n: usize,
        address: SocketAddr,
        first: &[u8],
        each: &[u8],
        what: &'static str,
    ) {
        let first: Arc<[u8]> = first.into();
        let each: Arc<[u8]> = each.into();
        for _ in 0..n.max(1) {
            let (first, each) = (Arc::clone(&first), Arc::clone(&each));
            self.spawn(Box::new(move |stop| {
                workers::send_forever(stop, address, &first, &each, what)
            }));
        }
    }

    /// `n` connections that send `opening` and hold on, shared among the
    /// flood's threads.
    fn connection_flood(
        &mut self,
        n: usize,
        opening: &'static [u8],
        address: SocketAddr,
        sizes: &Sizes,
    ) {
        let threads = sizes.flood_threads.max(1);
        let held = Arc::new(Held::default());
        for i in 0..threads {
            let share = n / threads + usize::from(i < n % threads);
            let held = Arc::clone(&held);
            self.spawn(Box::new(move |stop| {
                workers::connection_flood(stop, address, opening, share, &held)
            }));
        }
        self.summary = Some(Box::new(move |_, d| {
            d.insert("connections".to_owned(), n.into());
            d.insert("held_peak".to_owned(), held.peak().into());
        }));
    }

    /// A client pipelining `cube_long` requests on one connection, and
    /// its reader of the replies.
    fn pipelining(&mut self, address: SocketAddr, key: &Bytes) -> Result<(), String> {
        let s = giop_client::connect(address, CONNECT_TIMEOUT)?;
        workers::set_timeouts(&s).map_err(|e| e.to_string())?;
        let r = s.try_clone().map_err(|e| e.to_string())?;
        let replies = Arc::new(AtomicU64::new(0));
        let seen = Arc::clone(&replies);
        let key = key.clone();
        self.spawn(Box::new(move |stop| {
            workers::pipeline_writer(stop, s, &key, &seen)
        }));
        self.spawn(Box::new(move |stop| {
            workers::pipeline_reader(stop, r, &replies)
        }));
        Ok(())
    }

    /// Threads that connect and close as fast as they can, and the rate
    /// and times of their connects.
    fn churn(&mut self, address: SocketAddr, sizes: &Sizes) {
        let times = Arc::new(Mutex::new(Recorder::new()));
        for _ in 0..sizes.churn_threads.max(1) {
            let times = Arc::clone(&times);
            self.spawn(Box::new(move |stop| workers::churn(stop, address, &times)));
        }
        self.summary = Some(Box::new(move |elapsed, d| {
            let connects = d.get("connects").and_then(Value::as_u64).unwrap_or(0);
            let rate = connects as f64 / elapsed.as_secs_f64().max(1e-9);
            d.insert("accepts_per_s".to_owned(), rate.into());
            let s = times
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .stats(elapsed);
            d.insert("connect_p50_us".to_owned(), s.p50_us.into());
            d.insert("connect_p99_us".to_owned(), s.p99_us.into());
        }));
    }

    /// Connections that send batches of `CancelRequest`s back to back.
    fn cancel_flood(&mut self, address: SocketAddr, sizes: &Sizes) -> Result<(), String> {
        let mut batch = Vec::new();
        for id in 1..=CANCELS_PER_BATCH {
            batch.extend_from_slice(&wire::cancel_request(id).map_err(|e| e.to_string())?);
        }
        let batch: Arc<[u8]> = batch.into();
        for _ in 0..sizes.cancel_connections.max(1) {
            let batch = Arc::clone(&batch);
            self.spawn(Box::new(move |stop| {
                let mut d = workers::send_forever(stop, address, &[], &batch, "batches_sent");
                let batches = d.remove("batches_sent").and_then(|v| v.as_u64());
                let per_batch = u64::from(CANCELS_PER_BATCH);
                count(&mut d, "messages_sent", batches.unwrap_or(0) * per_batch);
                d
            }));
        }
        Ok(())
    }

    /// Stops the attack, closes its sockets and reports what it did.
    pub(crate) fn finish(mut self) -> Details {
        let elapsed = self.started.elapsed();
        let mut out = Details::new();
        for d in self.stop_threads() {
            for (k, v) in d {
                match (v.as_u64(), out.get(&k).and_then(Value::as_u64)) {
                    (Some(a), Some(b)) => {
                        out.insert(k, (a + b).into());
                    }
                    _ => {
                        out.insert(k, v);
                    }
                }
            }
        }
        if let Some(summary) = self.summary.take() {
            summary(elapsed, &mut out);
        }
        out
    }

    fn stop_threads(&mut self) -> Vec<Details> {
        self.stop.set();
        self.threads
            .drain(..)
            .filter_map(|t| t.join().ok())
            .collect()
    }
}

impl Drop for Attack {
    fn drop(&mut self) {
        self.stop_threads();
    }
}
