//! A Cubit server under a chosen concurrency strategy, called by several
//! clients at once.
//!
//! ```text
//! cargo run --release -p rtorb-examples --example server_strategy -- -ORBServerStrategy leader-followers -ORBServerThreads 4 [CLIENTS] [CALLS]
//! cargo run --release -p rtorb-examples --example server_strategy -- -ORBServerStrategy reactive
//! cargo run --release -p rtorb-examples --example server_strategy -- -ORBServerStrategy thread-per-connection -ORBListenEndpoints uiop:///tmp/strategy.sock
//! ```
//!
//! Starts a server ORB from the `-ORB` options (by default on
//! `iiop://127.0.0.1:0`, thread-per-connection), serves a Cubit, and runs
//! `CLIENTS` client threads (default 4), each with an ORB and connection
//! of its own, making `CALLS` `cube_long` calls each (default 5000), every
//! result checked. Prints the calls per second and the mean round trip.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rtorb::orb::{Orb, OrbConfig};
use rtorb_examples::Cuber;
use rtorb_examples::cubit_idl::{Cubit, CubitSkeleton};

fn main() {
    // The `-ORB` options (and a configuration file), and the program's
    // own arguments, without its name.
    let (mut config, rest) = match OrbConfig::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("server_strategy: {e}");
            std::process::exit(2);
        }
    };
    let number = |i: usize, default: usize| {
        rest.get(i)
            .map(|s| {
                s.parse().unwrap_or_else(|_| {
                    eprintln!("server_strategy: {s:?} is not a number");
                    std::process::exit(2)
                })
            })
            .unwrap_or(default)
    };
    let (clients, calls) = (number(0, 4), number(1, 5000));
    if config.listen.is_empty() {
        config.listen.push("iiop://127.0.0.1:0".to_owned());
    }
    let (strategy, threads) = (config.server_strategy, config.server_threads);
    let server = match Orb::builder_with(config).build() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("server_strategy: {e}");
            std::process::exit(1);
        }
    };
    let obj = server
        .activate_with_key(&b"Cubit"[..], Arc::new(CubitSkeleton(Cuber::default())))
        .unwrap_or_else(|e| {
            eprintln!("server_strategy: {e}");
            std::process::exit(1);
        });
    let ior = server.object_to_string(&obj).unwrap_or_default();
    println!(
        "{strategy} server (leader/followers pool: {threads} threads) on {}",
        server.endpoints().join(" ")
    );
    let start = Instant::now();
    let workers: Vec<_> = (0..clients)
        .map(|c| {
            let ior = ior.clone();
            std::thread::spawn(move || -> Result<Duration, String> {
                let orb = Orb::builder()
                    .round_trip_timeout(Duration::from_secs(10))
                    .build()
                    .map_err(|e| e.to_string())?;
                let cubit: Cubit = orb
                    .string_to_object(&ior)
                    .map_err(|e| format!("{e}"))?
                    .unchecked_narrow();
                let t = Instant::now();
                for i in 0..calls {
                    let l = (c * calls + i) as i32;
                    let r = cubit.cube_long(l).map_err(|e| format!("{e}"))?;
                    if r != l.wrapping_pow(3) {
                        return Err(format!("client {c}: wrong result for {l}"));
                    }
                }
                Ok(t.elapsed())
            })
        })
        .collect();
    let mut busy = Duration::ZERO;
    for w in workers {
        match w.join() {
            Ok(Ok(d)) => busy += d,
            Ok(Err(e)) => {
                eprintln!("server_strategy: {e}");
                std::process::exit(3);
            }
            Err(_) => std::process::exit(3),
        }
    }
    let wall = start.elapsed();
    let total = (clients * calls) as f64;
    println!(
        "{clients} clients x {calls} cube_long: {:.0} calls/s, mean round trip {:.1} µs",
        total / wall.as_secs_f64(),
        busy.as_secs_f64() * 1e6 / total.max(1.0)
    );
    server.shutdown();
}
