//! A Cubit client on the rtorb ORB that measures call latency.
//!
//! ```text
//! cargo run --release -p rtorb-examples --example cubit_client -- corbaloc::1.2@127.0.0.1:12345/Cubit [N] [--shutdown]
//! ```
//!
//! Calls every Cubit operation `N` times (default 10000), checks every
//! result, and prints a table of latencies and calls per second. With
//! `--shutdown` it ends with the oneway `shutdown`, which stops the
//! example server. The target is an `IOR:` or `corbaloc:` string.

use std::time::{Duration, Instant};

use rtorb::exception::SystemException;
use rtorb::orb::Orb;
use rtorb_examples::cubit_idl::{Cubit, cubit};

fn measure(
    name: &str,
    n: usize,
    mut call: impl FnMut(usize) -> Result<bool, SystemException>,
) -> Result<(), SystemException> {
    let mut times = Vec::with_capacity(n);
    let start = Instant::now();
    for i in 0..n {
        let t = Instant::now();
        let right = call(i)?;
        times.push(t.elapsed());
        if !right {
            eprintln!("cubit_client: {name}: wrong result in call {i}");
            std::process::exit(1);
        }
    }
    let total = start.elapsed();
    times.sort_unstable();
    let pct = |p: usize| {
        times
            .get((times.len() * p / 100).min(times.len().saturating_sub(1)))
            .copied()
            .unwrap_or_default()
    };
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    println!(
        "{name:<26} {n:>8} {:>9.1} {:>9.1} {:>9.1} {:>11.0}",
        us(total) / n.max(1) as f64,
        us(pct(50)),
        us(pct(99)),
        n as f64 / total.as_secs_f64()
    );
    Ok(())
}

fn run(cubit: &Cubit, n: usize) -> Result<(), SystemException> {
    println!(
        "{:<26} {:>8} {:>9} {:>9} {:>9} {:>11}",
        "operation", "calls", "mean µs", "p50 µs", "p99 µs", "calls/s"
    );
    measure("cube_void", n, |_| cubit.cube_void().map(|()| true))?;
    measure("cube_octet", n, |i| {
        let o = i as u8;
        Ok(cubit.cube_octet(o)? == o.wrapping_mul(o).wrapping_mul(o))
    })?;
    measure("cube_short", n, |i| {
        let s = i as i16;
        Ok(cubit.cube_short(s)? == s.wrapping_mul(s).wrapping_mul(s))
    })?;
    measure("cube_long", n, |i| {
        let l = i as i32;
        Ok(cubit.cube_long(l)? == l.wrapping_mul(l).wrapping_mul(l))
    })?;
    measure("cube_struct", n, |i| {
        let m = cubit::Many {
            o: i as u8,
            l: i as i32,
            s: i as i16,
        };
        let r = cubit.cube_struct(&m)?;
        Ok(r.l == m.l.wrapping_mul(m.l).wrapping_mul(m.l))
    })?;
    let longs: Vec<i32> = (0..100).collect();
    measure("cube_long_sequence(100)", n, |_| {
        let r = cubit.cube_long_sequence(&longs)?;
        Ok(r.len() == 100 && r[99] == 970_299)
    })?;
    let octets = vec![3u8; 1000];
    measure("cube_octet_sequence(1000)", n, |_| {
        let r = cubit.cube_octet_sequence(&octets)?;
        Ok(r.len() == 1000 && r.iter().all(|o| *o == 27))
    })?;
    Ok(())
}

fn main() {
    let mut target = None;
    let mut n = 10_000usize;
    let mut shutdown = false;
    for a in std::env::args().skip(1) {
        if a == "--shutdown" {
            shutdown = true;
        } else if let Ok(v) = a.parse() {
            n = v;
        } else {
            target = Some(a);
        }
    }
    let Some(target) = target else {
        eprintln!("usage: cubit_client TARGET [N] [--shutdown]");
        std::process::exit(2);
    };
    let orb = match Orb::builder()
        .round_trip_timeout(Duration::from_secs(10))
        .build()
    {
        Ok(o) => o,
        Err(e) => {
            eprintln!("cubit_client: {e}");
            std::process::exit(1);
        }
    };
    let result = orb.string_to_object(&target).and_then(|obj| {
        let cubit: Cubit = obj.unchecked_narrow();
        run(&cubit, n)?;
        if shutdown {
            cubit.shutdown()?;
        }
        Ok(())
    });
    if let Err(e) = result {
        eprintln!("cubit_client: {e}");
        std::process::exit(3);
    }
}
