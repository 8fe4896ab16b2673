//! The well-behaved client that runs throughout a scenario: one
//! persistent connection calling `cube_long` continuously (a call every
//! interval, or back to back), and a call on a new connection every half
//! second, each with a timeout.

use std::net::{SocketAddr, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use bytes::Bytes;
use serde::Serialize;

use super::phase::Phase;
use crate::giop_client::{call, call_on_new, connect};
use crate::stats::Recorder;
use crate::stop::Stop;

/// How often the client calls on a new connection.
const NEW_CONNECTION_EVERY: Duration = Duration::from_millis(500);

/// Latencies of the persistent connection in one phase.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub(crate) struct Latency {
    /// Calls answered.
    pub(crate) calls: u64,
    /// Median round trip, µs.
    pub(crate) p50_us: f64,
    /// 99th percentile, µs.
    pub(crate) p99_us: f64,
}

/// What the well-behaved client saw.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub(crate) struct ProbeReport {
    /// Its persistent connection before the attack.
    pub(crate) before: Latency,
    /// Its persistent connection during the attack.
    pub(crate) during: Latency,
    /// The median during the attack over the one before.
    pub(crate) p50_ratio: Option<f64>,
    /// The 99th percentile during the attack over the one before.
    pub(crate) p99_ratio: Option<f64>,
    /// Calls on the persistent connection that failed (timed out, cut
    /// off, wrong answer) during and after the attack.
    pub(crate) failed_calls: u64,
    /// Calls on new connections during and after the attack.
    pub(crate) new_connections: u64,
    /// Of those, the ones that failed (not connected, not answered).
    pub(crate) failed_new_connections: u64,
}

/// Counts by phase.
struct Tally {
    latency: [Recorder; 3],
    failed_calls: [u64; 3],
    new_connections: [u64; 3],
    failed_new: [u64; 3],
}

/// The running client; dropping it stops its threads.
pub(super) struct Probe {
    stop: Arc<Stop>,
    tally: Arc<Mutex<Tally>>,
    threads: Vec<JoinHandle<()>>,
}

fn lock(tally: &Mutex<Tally>) -> std::sync::MutexGuard<'_, Tally> {
    tally.lock().unwrap_or_else(|e| e.into_inner())
}

impl Probe {
    /// Starts calling the object `key` at `address`, on the persistent
    /// connection one call every `interval` (back to back when zero).
    pub(super) fn start(
        address: SocketAddr,
        key: Bytes,
        phase: Arc<Phase>,
        timeout: Duration,
        interval: Duration,
    ) -> Probe {
        let stop = Arc::new(Stop::default());
        let tally = Arc::new(Mutex::new(Tally {
            latency: std::array::from_fn(|_| Recorder::new()),
            failed_calls: [0; 3],
            new_connections: [0; 3],
            failed_new: [0; 3],
        }));
        let persistent = {
            let (stop, tally, phase, key) = (
                Arc::clone(&stop),
                Arc::clone(&tally),
                Arc::clone(&phase),
                key.clone(),
            );
            std::thread::spawn(move || {
                let mut conn: Option<TcpStream> = None;
                let mut id = 0u32;
                let mut next = Instant::now();
                while !stop.is_set() {
                    if !interval.is_zero() {
                        // The next call at its time; after a slow one, at
                        // once, without making up for those missed.
                        let now = Instant::now();
                        next += interval;
                        if next < now {
                            next = now;
                        }
                        let wait = next.saturating_duration_since(now);
                        if !wait.is_zero() && stop.wait(wait) {
                            break;
                        }
                    }
                    let p = phase.get();
                    let result = match conn.as_mut() {
                        Some(s) => {
                            id = id.wrapping_add(1);
                            call(s, &key, id)
                        }
                        None => match connect(address, timeout) {
                            Ok(s) => {
                                conn = Some(s);
                                continue;
                            }
                            Err(e) => Err(e),
                        },
                    };
                    match result {
                        Ok(d) => lock(&tally).latency[p].record(d),
                        Err(_) => {
                            lock(&tally).failed_calls[p] += 1;
                            conn = None;
                            // Not a busy loop against a server that refuses.
                            stop.wait(Duration::from_millis(50));
                        }
                    }
                }
            })
        };
        let fresh = {
            let (stop, tally) = (Arc::clone(&stop), Arc::clone(&tally));
            std::thread::spawn(move || {
                let mut next = Instant::now();
                loop {
                    next += NEW_CONNECTION_EVERY;
                    if stop.wait(next.saturating_duration_since(Instant::now())) {
                        break;
                    }
                    let p = phase.get();
                    let ok = call_on_new(address, &key, timeout);
                    let mut t = lock(&tally);
                    t.new_connections[p] += 1;
                    if !ok {
                        t.failed_new[p] += 1;
                    }
                }
            })
        };
        Probe {
            stop,
            tally,
            threads: vec![persistent, fresh],
        }
    }

    /// Stops the client and reports what it saw.
    pub(super) fn finish(mut self) -> ProbeReport {
        self.stop_threads();
        let t = lock(&self.tally);
        let latency = |p: usize| {
            let s = t.latency[p].stats(Duration::ZERO);
            Latency {
                calls: s.calls,
                p50_us: s.p50_us,
                p99_us: s.p99_us,
            }
        };
        let (before, during) = (latency(Phase::BEFORE), latency(Phase::DURING));
        let ratio = |a: f64, b: f64| (b > 0.0 && a > 0.0).then(|| a / b);
        let later = |v: &[u64; 3]| v[Phase::DURING] + v[Phase::AFTER];
        ProbeReport {
            before,
            during,
            p50_ratio: ratio(during.p50_us, before.p50_us),
            p99_ratio: ratio(during.p99_us, before.p99_us),
            failed_calls: later(&t.failed_calls),
            new_connections: later(&t.new_connections),
            failed_new_connections: later(&t.failed_new),
        }
    }

    fn stop_threads(&mut self) {
        self.stop.set();
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

impl Drop for Probe {
    fn drop(&mut self) {
        self.stop_threads();
    }
}
