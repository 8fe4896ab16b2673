//! `rtorb-bench priority --quick`: it runs, and its JSON and plots have
//! every field and file; never a figure is checked. And the errors of its
//! commands.

use std::process::{Command, Output};

use rtorb_test_support::process::{output_of, stdout_of};
use serde_json::Value;

fn rtorb_bench() -> Command {
    Command::new(env!("CARGO_BIN_EXE_rtorb-bench"))
}

/// Runs `rtorb-bench ARGS` to its end.
fn bench(args: &[&str]) -> Output {
    output_of(rtorb_bench().args(args))
}

/// Runs `rtorb-bench priority ARGS`, which must succeed; its standard
/// output (the table).
fn priority(args: &[&str]) -> String {
    stdout_of(rtorb_bench().args(["priority"]).args(args))
}

/// Runs `rtorb-bench priority ARGS --json`, which must succeed; the JSON
/// it writes.
fn priority_json(args: &[&str]) -> Value {
    let text = priority(&[args, &["--json"]].concat());
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text}"))
}

const CLASS_FIELDS: [&str; 12] = [
    "threads",
    "slots",
    "calls",
    "missed",
    "missed_late_wakeup",
    "mean_us",
    "p50_us",
    "p99_us",
    "max_us",
    "stddev_us",
    "client_locks",
    "server_locks",
];

/// The machine's floor of each rate set in a run's JSON: runs before and
/// after the points, each with a class's fields, one thread, its policy.
fn check_floor(v: &Value, rates: &[&str]) {
    for rates in rates {
        for when in ["before", "after"] {
            let f = &v["floor"][rates][when];
            for k in CLASS_FIELDS {
                assert!(f.get(k).is_some(), "floor {rates} {when}.{k}: {v}");
            }
            assert_eq!(f["threads"], 1, "{f}");
            assert!(f["calls"].as_u64() <= f["slots"].as_u64(), "{f}");
            assert!(f["policy"].is_string() && f.get("note").is_some(), "{f}");
        }
    }
    let habits = &v["habits"];
    assert!(habits["mlock"].is_boolean(), "{v}");
    assert!(habits["cpu_dma_latency"].is_string(), "{v}");
}

fn gcd(a: u64, b: u64) -> u64 {
    if a == 0 { b } else { gcd(b % a, a) }
}

/// C0's period at a rate set, ns.
fn c0_period_ns(rates: &str) -> u64 {
    match rates {
        "seed" => 50_000_000,
        _ => 500_000,
    }
}

/// Where a run's slots started against the kernel's tick, by the run's
/// JSON: the distance from `start_ns` to the nearest tick modulo the
/// greatest common divisor of C0's period and the tick period, ns, and
/// that divisor.
fn tick_offset(v: &Value, rates: &str, start_ns: &Value) -> (u64, u64) {
    let grid = &v["tick"]["grid"];
    let (period, phase) = (
        grid["period_ns"].as_u64().expect("tick period"),
        grid["phase_ns"].as_u64().expect("tick phase"),
    );
    assert!(grid["phase_read"].is_boolean(), "{v}");
    assert!(phase < period, "{v}");
    let start = start_ns.as_u64().unwrap_or_else(|| panic!("start_ns: {v}"));
    let g = gcd(c0_period_ns(rates), period);
    ((start + period - phase) % period % g, g)
}

#[test]
fn quick_run_as_json_with_plots() {
    let plots = std::env::temp_dir().join(format!("rtorb-priority-plots-{}", std::process::id()));
    let v = priority_json(&["--quick", "--plots", plots.to_str().expect("a UTF-8 path")]);
    assert_eq!(v["n"], serde_json::json!([1, 2]), "{v}");
    assert!(v["policy"] == "fifo", "{v}");
    assert!(v["flood"].is_null(), "no flood asked for: {v}");
    for (rates, high, low) in [("seed", 20, 10), ("scaled", 2000, 1000)] {
        let info = &v["rate_sets"][rates];
        assert_eq!(info["high_hz"], high, "{v}");
        assert_eq!(info["low_hz"], low, "{v}");
        assert_eq!(info["duration_ms"], 300, "{v}");
    }
    let configurations: Vec<&str> = v["configurations"]
        .as_array()
        .expect("configurations")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(
        configurations[..2],
        ["rtorb real-time", "rtorb conventional"],
        "{v}"
    );
    // omniORB beside it where installed, else a note that says why not.
    let notes = v["notes"].as_array().expect("notes");
    if configurations.len() == 2 {
        assert!(
            notes.iter().any(|n| n
                .as_str()
                .is_some_and(|n| n.contains("omniORB column left out"))),
            "{v}"
        );
    } else {
        assert_eq!(
            configurations,
            ["rtorb real-time", "rtorb conventional", "omniORB"],
            "{v}"
        );
    }
    for configuration in &configurations {
        for rates in ["seed", "scaled"] {
            for n in [1u64, 2] {
                let point = &v["results"][configuration][rates][n.to_string()];
                let what = format!("{configuration}, {rates}, n = {n}");
                assert!(point["policy"].is_string(), "{what}: {point}");
                // Every client, omniORB's too, started between ticks.
                let (offset, g) = tick_offset(&v, rates, &point["start_ns"]);
                assert_eq!(offset, g / 2, "{what}: {point}");
                assert!(point.get("note").is_some(), "{what}: {point}");
                for (class, threads) in [("high", 1), ("low", n)] {
                    let c = &point[class];
                    for k in CLASS_FIELDS {
                        assert!(c.get(k).is_some(), "{what}: {class}.{k}: {c}");
                    }
                    assert_eq!(c["threads"], threads, "{what}: {c}");
                    assert!(c["calls"].as_u64() <= c["slots"].as_u64(), "{what}: {c}");
                    assert!(c["missed"].as_u64() <= c["slots"].as_u64(), "{what}: {c}");
                    assert!(
                        c["missed_late_wakeup"].as_u64() <= c["missed"].as_u64(),
                        "{what}: {c}"
                    );
                    if configuration.starts_with("rtorb ") {
                        // This build counts locks on both sides.
                        assert!(c["client_locks"].is_f64(), "{what}: {c}");
                        assert!(c["server_locks"].is_f64(), "{what}: {c}");
                    }
                }
            }
        }
    }
    check_floor(&v, &["seed", "scaled"]);
    for rates in ["seed", "scaled"] {
        for metric in ["latency", "jitter"] {
            let svg = plots.join(format!("priority-{rates}-{metric}.svg"));
            let svg = std::fs::read_to_string(&svg).unwrap_or_else(|e| panic!("{svg:?}: {e}"));
            assert!(
                svg.contains("<svg")
                    && svg.contains("rtorb conventional")
                    && svg.contains("rtorb real-time")
                    && svg.contains("machine floor (TCP echo, no ORB)"),
                "{svg}"
            );
            let png = plots.join(format!("priority-{rates}-{metric}.png"));
            let png = std::fs::read(&png).unwrap_or_else(|e| panic!("{png:?}: {e}"));
            assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "{rates} {metric}");
        }
    }
    let _ = std::fs::remove_dir_all(&plots);
}

/// `--tick-phase`: where the slots start against the kernel's tick, for
/// the floor's client as for the ORBs'.
#[test]
fn the_slots_start_where_the_tick_phase_says() {
    for (phase, want) in [
        ("0", Some(0)),
        ("between", None),
        ("any", None),
        ("10", Some(10_000)),
    ] {
        let v = priority_json(&[
            "--floor-only",
            "--quick",
            "--no-pm-qos",
            "--tick-phase",
            phase,
        ]);
        assert_eq!(v["tick"]["phase"], phase, "{v}");
        for rates in ["seed", "scaled"] {
            for when in ["before", "after"] {
                let (offset, g) = tick_offset(&v, rates, &v["floor"][rates][when]["start_ns"]);
                match (phase, want) {
                    // A tick `want` after a slot: the slot `want` before it.
                    // A tick `want` after a slot: the slot `want` before it.
                    (_, Some(want)) => {
                        assert_eq!((offset + want) % g, 0, "{phase} {rates}: {v}")
                    }
                    ("between", None) => assert_eq!(offset, g / 2, "{rates}: {v}"),
                    _ => assert!(offset < g, "{v}"),
                }
            }
        }
    }
    let text = priority(&["--floor-only", "--quick", "--rates", "scaled"]);
    assert!(
        text.contains("C0's slots between ticks (--tick-phase between): every slot at least "),
        "{text}"
    );
    assert!(text.contains("slots: the kernel's tick every "), "{text}");
    let text = priority(&["--floor-only", "--quick", "--tick-phase", "10"]);
    assert!(
        text.contains("a tick 10 µs after one of C0's slots (--tick-phase 10)"),
        "{text}"
    );
}

#[test]
fn the_table_names_every_column() {
    let text = priority(&[
        "--quick",
        "--rates",
        "scaled",
        "-n",
        "1",
        "--duration-ms",
        "100",
        "--policy",
        "other",
        "--flood",
        "garbage",
    ]);
    assert!(
        text.contains(
            "== scaled rates: C0 at 2000 Hz, each low thread at 1000 Hz, 100 ms per point"
        ),
        "{text}"
    );
    for column in [
        "n",
        "configuration",
        "calls",
        "missed",
        "mean µs",
        "p50 µs",
        "p99 µs",
        "max µs",
        "jitter",
        "c.lock",
        "s.lock",
    ] {
        assert!(text.contains(column), "{column}: {text}");
    }
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("rtorb conventional   C0")),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("1  rtorb real-time      C0")),
        "{text}"
    );
    assert!(
        text.contains("ran SCHED_OTHER: asked for (--policy other)"),
        "{text}"
    );
    // Each configuration's point again under the flood, beside it, and
    // whether C0's targets hold under it.
    let flooded = text
        .lines()
        .filter(|l| l.trim_start().starts_with("+ garbage") && l.contains(" C0 "))
        .count();
    assert!(flooded >= 2, "{text}");
    for configuration in ["rtorb real-time", "rtorb conventional"] {
        assert!(
            text.lines().any(|l| {
                let l = l.trim_start();
                l.starts_with(configuration)
                    && l.contains("garbage")
                    && (l.ends_with(": hold") || l.contains(": missed: "))
            }),
            "{configuration}: {text}"
        );
    }
    // The floor's two rows, before the points' rows.
    let floor = text
        .find("      machine floor        pre")
        .unwrap_or_else(|| panic!("{text}"));
    let post = text
        .find("      (TCP echo, no ORB)   post")
        .unwrap_or_else(|| panic!("{text}"));
    let points = text
        .find("1  rtorb real-time")
        .unwrap_or_else(|| panic!("{text}"));
    assert!(floor < post && post < points, "{text}");
    assert!(text.contains("memory: "), "{text}");
}

/// `--floor-only`: the floor of each rate set and nothing else, as JSON
/// and as a table, with and without the memory and timer habits.
#[test]
fn floor_only() {
    let v = priority_json(&["--floor-only", "--quick", "--no-pm-qos"]);
    assert_eq!(v["configurations"], serde_json::json!([]), "{v}");
    assert_eq!(v["n"], serde_json::json!([]), "{v}");
    assert_eq!(v["results"], serde_json::json!({}), "{v}");
    assert_eq!(v["habits"]["mlock"], true, "{v}");
    assert_eq!(
        v["habits"]["cpu_dma_latency"], "not held (--no-pm-qos)",
        "{v}"
    );
    check_floor(&v, &["seed", "scaled"]);
    assert_eq!(v["floor"]["scaled"]["before"]["slots"], 600, "{v}");
    assert_eq!(v["tick"]["phase"], "between", "{v}");

    let text = priority(&[
        "--floor-only",
        "--quick",
        "--rates",
        "seed",
        "--policy",
        "other",
        "--no-mlock",
    ]);
    assert!(text.contains("== seed rates"), "{text}");
    assert!(!text.contains("== scaled rates"), "{text}");
    assert!(text.contains("      machine floor        pre "), "{text}");
    assert!(text.contains("      (TCP echo, no ORB)   post"), "{text}");
    assert!(!text.contains("rtorb real-time "), "{text}");
    // Held, or a reason why not where the system refuses.
    assert!(
        text.contains(
            "memory: not locked (--no-mlock); CPU wake-up latency \
             (/dev/cpu_dma_latency): "
        ),
        "{text}"
    );
    assert!(
        text.contains("machine floor (TCP echo, no ORB): the calling thread ran SCHED_OTHER"),
        "{text}"
    );
}

#[test]
fn bad_options_are_clear_errors() {
    for (args, want) in [
        (&["priority", "-n", "0"][..], "-n"),
        (&["priority", "--rates", "hourly"][..], "hourly"),
        (&["priority", "--flood", "teardrop"][..], "teardrop"),
        (&["priority", "--tick-phase", "sometimes"][..], "sometimes"),
        (&["priority", "--tick-phase", "-5"][..], "-5"),
        (
            &["priority-echo-client", "--slot-grid-ns", "0", "127.0.0.1:1"][..],
            "--slot-grid-ns",
        ),
        (
            &["priority-server", "--real-time", "--", "-ORBLane", "x:1"][..],
            "-ORBLane",
        ),
        (
            &[
                "priority-server",
                "--",
                "-ORBServerStrategy",
                "carrier-pigeon",
            ][..],
            "-ORBServerStrategy",
        ),
        (
            &[
                "priority-client",
                "--policy",
                "other",
                "--duration-ms",
                "10",
                "not-a-reference",
                "corbaloc::1.2@127.0.0.1:1/Low",
            ][..],
            "not-a-reference",
        ),
        (
            &[
                "priority-echo-client",
                "--policy",
                "other",
                "--no-mlock",
                "127.0.0.1:1",
            ][..],
            "127.0.0.1:1",
        ),
    ] {
        let out = bench(args);
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// A run that overruns its watchdog fails, saying so.
#[test]
fn an_overrun_fails_clearly() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let mut server = rtorb_bench()
        .args(["priority-server", "--endpoint", "iiop://127.0.0.1:0"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the priority server");
    let stdin = server.stdin.take();
    let mut lines = BufReader::new(server.stdout.take().expect("stdout")).lines();
    let mut urls = Vec::new();
    for line in lines.by_ref().map_while(Result::ok) {
        if line == "ready" {
            break;
        }
        urls.extend(line.split_once(' ').map(|(_, url)| url.to_owned()));
    }
    assert_eq!(urls.len(), 2, "{urls:?}");
    // The run lasts 300 ms at least, its watchdog 1 ms.
    let client = [
        "priority-client",
        "--policy",
        "other",
        "--duration-ms",
        "300",
        "--watchdog-ms",
        "1",
    ];
    let urls: Vec<&str> = urls.iter().map(String::as_str).collect();
    let out = bench(&[&client[..], &urls].concat());
    drop(stdin);
    let status = server.wait().expect("the server exits");
    assert!(status.success(), "{status}");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("did not finish within 1ms") && err.contains("SCHED_OTHER"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}
