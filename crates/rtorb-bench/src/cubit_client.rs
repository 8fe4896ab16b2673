//! `rtorb-bench cubit-client`: calls every benchmarked operation, checks
//! every result, and reports latencies and per-call costs.

use std::time::{Duration, Instant};

use rtorb::exception::SystemException;
use rtorb::orb::Orb;
use rtorb::probe::Stage;

use crate::cubit_idl::{Cubit, cubit};
use crate::cubit_ops::{self, Op};
use crate::stats::{ByOp, OpStats, Recorder};
use rtorb_test_support::alloc::thread_allocations;

/// Calls made before measuring each operation.
pub(crate) fn warmup_calls(calls: u64) -> u64 {
    (calls / 10).clamp(100, 2000)
}

/// One measured call: how long it took and whether its result was right.
type Call<'a> = Box<dyn FnMut(u64) -> Result<(Duration, bool), SystemException> + 'a>;

fn cube_i32(l: i32) -> i32 {
    l.wrapping_mul(l).wrapping_mul(l)
}

fn cube_u8(o: u8) -> u8 {
    o.wrapping_mul(o).wrapping_mul(o)
}

fn cube_i16(s: i16) -> i16 {
    s.wrapping_mul(s).wrapping_mul(s)
}

/// The call of `op`, its arguments made (and its expected results worked
/// out) beforehand.
fn call_for<'a>(cubit: &'a Cubit, op: &Op) -> Call<'a> {
    match op.idl {
        "cube_void" => Box::new(move |_| {
            let t = Instant::now();
            cubit.cube_void()?;
            Ok((t.elapsed(), true))
        }),
        "cube_octet" => Box::new(move |i| {
            let o = i as u8;
            let t = Instant::now();
            let r = cubit.cube_octet(o)?;
            Ok((t.elapsed(), r == cube_u8(o)))
        }),
        "cube_short" => Box::new(move |i| {
            let s = i as i16;
            let t = Instant::now();
            let r = cubit.cube_short(s)?;
            Ok((t.elapsed(), r == cube_i16(s)))
        }),
        "cube_long" => Box::new(move |i| {
            let l = i as i32;
            let t = Instant::now();
            let r = cubit.cube_long(l)?;
            Ok((t.elapsed(), r == cube_i32(l)))
        }),
        "cube_struct" => Box::new(move |i| {
            let m = cubit::Many {
                o: i as u8,
                l: i as i32,
                s: i as i16,
            };
            let t = Instant::now();
            let r = cubit.cube_struct(&m)?;
            let d = t.elapsed();
            Ok((
                d,
                r.o == cube_u8(m.o) && r.l == cube_i32(m.l) && r.s == cube_i16(m.s),
            ))
        }),
        "cube_long_sequence" => {
            let args: Vec<i32> = (0..op.len as i32).map(|j| j * 7 - 3).collect();
            let want: Vec<i32> = args.iter().map(|l| cube_i32(*l)).collect();
            Box::new(move |_| {
                let t = Instant::now();
                let r = cubit.cube_long_sequence(&args)?;
                let d = t.elapsed();
                Ok((d, r == want))
            })
        }
        _ => {
            let args: Vec<u8> = (0..op.len).map(|j| (j * 7 + 1) as u8).collect();
            let want: Vec<u8> = args.iter().map(|o| cube_u8(*o)).collect();
            Box::new(move |_| {
                let t = Instant::now();
                let r = cubit.cube_octet_sequence(&args)?;
                let d = t.elapsed();
                Ok((d, r[..] == want[..]))
            })
        }
    }
}

/// Warms up `op`, then measures `calls` calls of it.
fn measure(cubit: &Cubit, op: &Op, calls: u64) -> Result<OpStats, String> {
    let mut call = call_for(cubit, op);
    let failed = |i: u64, e: SystemException| format!("{}: call {i}: {e}", op.name);
    for i in 0..warmup_calls(calls) {
        let (_, right) = call(i).map_err(|e| failed(i, e))?;
        if !right {
            return Err(format!("{}: wrong result in warm-up call {i}", op.name));
        }
    }
    let mut recorder = Recorder::new();
    let allocs = thread_allocations();
    let locks = rtorb::sync::thread_acquisitions();
    let stages = rtorb::probe::thread_totals();
    let start = Instant::now();
    for i in 0..calls {
        let (d, right) = call(i).map_err(|e| failed(i, e))?;
        recorder.record(d);
        if !right {
            return Err(format!("{}: wrong result in call {i}", op.name));
        }
    }
    let total = start.elapsed();
    let allocs = thread_allocations() - allocs;
    let locks = rtorb::sync::thread_acquisitions()
        .zip(locks)
        .map(|(a, b)| a - b);
    let stages = rtorb::probe::thread_totals()
        .zip(stages)
        .map(|(a, b)| a.since(&b));
    let per_call = |v: u64| v as f64 / calls.max(1) as f64;
    let mut stats = recorder.stats(total);
    stats.allocs = Some(per_call(allocs));
    stats.locks = locks.map(per_call);
    stats.stages_us = stages.map(|d| {
        Stage::ALL
            .iter()
            .filter(|s| s.name().starts_with("client."))
            .map(|s| (s.name().to_owned(), per_call(d.nanos(*s)) / 1000.0))
            .collect()
    });
    Ok(stats)
}

/// Measures every operation against `target` (an `IOR:` or `corbaloc:`
/// string), optionally sending `shutdown` afterwards.
pub(crate) fn run_all(
    target: &str,
    calls: u64,
    ops: &[String],
    timeout: Option<Duration>,
    shutdown: bool,
) -> Result<Vec<(&'static str, OpStats)>, String> {
    let ops = cubit_ops::select(ops)?;
    let mut builder = Orb::builder();
    if let Some(timeout) = timeout {
        builder = builder.round_trip_timeout(timeout);
    }
    let orb = builder.build().map_err(|e| e.to_string())?;
    let obj = orb
        .string_to_object(target)
        .map_err(|e| format!("{target}: {e}"))?;
    let cubit: Cubit = obj.unchecked_narrow();
    let mut out = Vec::new();
    for op in ops {
        out.push((op.name, measure(&cubit, op, calls)?));
    }
    if shutdown {
        cubit.shutdown().map_err(|e| format!("shutdown: {e}"))?;
    }
    orb.shutdown();
    Ok(out)
}

/// The results as one JSON object keyed by operation, in order.
pub(crate) fn to_json(results: &[(&'static str, OpStats)]) -> String {
    let mut map = serde_json::Map::new();
    for (name, s) in results {
        map.insert(
            (*name).to_owned(),
            serde_json::to_value(s).unwrap_or(serde_json::Value::Null),
        );
    }
    serde_json::Value::Object(map).to_string()
}

/// Parses what [`to_json`] (or the omniORB benchmark client) printed.
pub(crate) fn from_json(text: &str) -> Result<ByOp<OpStats>, String> {
    serde_json::from_str(text.trim()).map_err(|e| format!("benchmark JSON: {e}: {text}"))
}

fn opt(v: Option<f64>) -> String {
    v.map_or_else(|| "-".to_owned(), |v| format!("{v:.2}"))
}

/// The results as a table.
pub(crate) fn to_table(results: &[(&'static str, OpStats)]) -> String {
    use std::fmt::Write as _;
    let mut out = format!(
        "{:<16} {:>8} {:>10} {:>9} {:>9} {:>9} {:>9} {:>9} {:>7} {:>7}\n",
        "operation",
        "calls",
        "calls/s",
        "mean µs",
        "p50 µs",
        "p99 µs",
        "p99.9 µs",
        "max µs",
        "allocs",
        "locks"
    );
    for (name, s) in results {
        let _ = writeln!(
            out,
            "{name:<16} {:>8} {:>10.0} {:>9.2} {:>9.2} {:>9.2} {:>9.2} {:>9.1} {:>7} {:>7}",
            s.calls,
            s.calls_per_s,
            s.mean_us,
            s.p50_us,
            s.p99_us,
            s.p999_us,
            s.max_us,
            opt(s.allocs),
            opt(s.locks)
        );
    }
    if let Some(first) = results.first().and_then(|(_, s)| s.stages_us.as_ref()) {
        let _ = writeln!(out, "\nclient stages, µs per call (probe)");
        let _ = write!(out, "{:<16}", "operation");
        for k in first.keys() {
            let _ = write!(out, " {:>17}", k);
        }
        out.push('\n');
        for (name, s) in results {
            let _ = write!(out, "{name:<16}");
            for v in s.stages_us.iter().flat_map(|m| m.values()) {
                let _ = write!(out, " {v:>17.2}");
            }
            out.push('\n');
        }
    }
    out
}
