//! Measures concurrent Cubit calls through the exclusive and the
//! multiplexed client connection strategies, over IIOP and UIOP, against
//! an in-process rtorb server.
//!
//! ```text
//! cargo run --release -p rtorb-examples --example connection_strategies -- [THREADS] [CALLS_PER_THREAD]
//! ```
//!
//! For each protocol and strategy, `THREADS` threads (default 8) each make
//! `CALLS_PER_THREAD` `cube_long` calls (default 5000) on one shared
//! reference, every result checked. Prints the latency of the calls
//! (mean, p50, p99), the calls per second of all threads together, and how
//! many client connections were open at the end.

use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use rtorb::orb::{ConnectionStrategy, Orb};
use rtorb_examples::Cuber;
use rtorb_examples::cubit_idl::{Cubit, CubitSkeleton};

fn run(target: &str, strategy: ConnectionStrategy, threads: usize, calls: usize) {
    let client = Orb::builder()
        .connection_strategy(strategy)
        .round_trip_timeout(Duration::from_secs(10))
        .build()
        .expect("a client ORB");
    let cubit: Cubit = client
        .string_to_object(target)
        .expect("a reference")
        .unchecked_narrow();
    cubit.cube_long(2).expect("a first call");
    let barrier = Arc::new(Barrier::new(threads + 1));
    let workers: Vec<_> = (0..threads)
        .map(|t| {
            let cubit = cubit.clone();
            let barrier = Arc::clone(&barrier);
            std::thread::spawn(move || {
                let mut times = Vec::with_capacity(calls);
                barrier.wait();
                for i in 0..calls {
                    let l = (t * calls + i) as i32 % 1000;
                    let start = Instant::now();
                    let r = cubit.cube_long(l).expect("a call");
                    times.push(start.elapsed());
                    assert_eq!(r, l * l * l, "wrong result");
                }
                times
            })
        })
        .collect();
    barrier.wait();
    let start = Instant::now();
    let mut times: Vec<Duration> = workers
        .into_iter()
        .flat_map(|w| w.join().expect("a worker"))
        .collect();
    let total = start.elapsed();
    times.sort_unstable();
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let pct = |p: usize| times[(times.len() * p / 100).min(times.len() - 1)];
    let mean = times.iter().map(|d| us(*d)).sum::<f64>() / times.len() as f64;
    println!(
        "{:<12} {:>7} {:>9} {:>9.1} {:>9.1} {:>9.1} {:>11.0} {:>6}",
        format!("{strategy:?}"),
        threads,
        times.len(),
        mean,
        us(pct(50)),
        us(pct(99)),
        times.len() as f64 / total.as_secs_f64(),
        client.stats().idle_client_connections,
    );
    client.shutdown();
}

fn main() {
    let mut args = std::env::args().skip(1);
    let threads = args.next().and_then(|a| a.parse().ok()).unwrap_or(8usize);
    let calls = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(5000usize);
    let socket = std::env::temp_dir().join(format!("rtorb-strategies-{}.sock", std::process::id()));
    let server = Orb::builder()
        .listen("iiop://127.0.0.1:0")
        .listen(format!("uiop://{}", socket.display()))
        .build()
        .expect("a server ORB");
    server
        .activate_with_key(&b"Cubit"[..], Arc::new(CubitSkeleton(Cuber::default())))
        .expect("the Cubit object");
    for endpoint in server.endpoints() {
        let e = server
            .registry()
            .parse_endpoint(&endpoint)
            .expect("its own endpoint");
        let profile = server
            .registry()
            .make_profile(&*e, bytes::Bytes::from_static(b"Cubit"), &[])
            .expect("a profile");
        let reference = rtorb_giop::ObjectReference::new("IDL:Cubit:1.0", vec![profile]);
        let ior = reference.to_stringified().expect("an IOR");
        println!("== {endpoint}");
        println!(
            "{:<12} {:>7} {:>9} {:>9} {:>9} {:>9} {:>11} {:>6}",
            "strategy", "threads", "calls", "mean µs", "p50 µs", "p99 µs", "calls/s", "conns"
        );
        for strategy in [
            ConnectionStrategy::Exclusive,
            ConnectionStrategy::Multiplexed,
        ] {
            run(&ior, strategy, threads, calls);
        }
    }
    server.shutdown();
}
