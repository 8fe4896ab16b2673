//! `rtorb-bench overload`, small and short: every scenario against the
//! rtorb servers, checked for the shape of its results (a table and
//! JSON), never for a figure; and its option errors.

use std::process::Command;

use rtorb_test_support::process::stdout_of;
use serde_json::Value;

fn rtorb_bench() -> Command {
    Command::new(env!("CARGO_BIN_EXE_rtorb-bench"))
}

/// Runs `rtorb-bench overload ARGS`, which must succeed; its output.
fn overload(args: &[&str]) -> String {
    stdout_of(
        rtorb_bench()
            .args(["overload", "--quick", "--attack-ms", "300"])
            .args(["--connections", "20", "--flood-connections", "2"])
            .args(args),
    )
}

fn number(v: &Value, what: &str) -> f64 {
    v.as_f64()
        .unwrap_or_else(|| panic!("{what} is not a number: {v}"))
}

/// The figures every row has, whatever the scenario.
fn check_row(row: &Value) {
    let what = format!("{} on {}", row["scenario"], row["server"]);
    assert!(row["survived"].is_boolean(), "{what}: {row}");
    assert!(row.get("error").is_none(), "{what}: {row}");
    let resident = &row["resident"];
    for k in ["before_kib", "peak_kib", "after_kib"] {
        assert!(number(&resident[k], k) > 0.0, "{what}: {resident}");
    }
    let client = &row["client"];
    for phase in ["before", "during"] {
        let p = &client[phase];
        assert!(number(&p["calls"], "calls") >= 0.0, "{what}: {p}");
        assert!(
            number(&p["p50_us"], "p50") <= number(&p["p99_us"], "p99"),
            "{what}: {p}"
        );
    }
    for k in ["p50_ratio", "p99_ratio"] {
        assert!(
            client[k].is_null() || client[k].is_f64(),
            "{what}: {client}"
        );
    }
    for k in ["failed_calls", "new_connections", "failed_new_connections"] {
        assert!(client[k].is_u64(), "{what}: {k}: {client}");
    }
    assert!(
        client["failed_new_connections"].as_u64() <= client["new_connections"].as_u64(),
        "{what}: {client}"
    );
    assert!(row["attacker"].is_object(), "{what}: {row}");
}

#[test]
fn every_scenario_against_the_reactive_server_as_json() {
    let text = overload(&["--json", "--server", "reactive"]);
    let v: Value = serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert!(v["sizes"]["attack_ms"].as_u64() == Some(300), "{v}");
    assert!(v["notes"].as_array().is_some_and(Vec::is_empty), "{v}");
    let limit = &v["attacker_descriptor_limit"];
    assert!(limit.is_null() || limit.is_u64(), "{limit}");
    let rows = v["rows"].as_array().expect("rows");
    let scenarios: Vec<&str> = rows.iter().filter_map(|r| r["scenario"].as_str()).collect();
    assert_eq!(
        scenarios,
        [
            "memory-flood",
            "unread-replies",
            "garbage",
            "fragment-flood",
            "idle-flood 20",
            "half-header-flood 20",
            "pipelining",
            "churn",
            "cancel-flood"
        ]
    );
    for row in rows {
        assert_eq!(row["server"], "reactive", "{row}");
        check_row(row);
        let attacker = &row["attacker"];
        let has = |k: &str| attacker.get(k).is_some();
        match row["scenario"].as_str().unwrap_or_default() {
            "memory-flood" => assert!(has("connections") && has("octets_sent"), "{row}"),
            "unread-replies" => assert!(has("connections") && has("requests_sent"), "{row}"),
            "garbage" => assert!(has("connections") && has("blocks_sent"), "{row}"),
            "fragment-flood" => assert!(has("connections") && has("fragments_sent"), "{row}"),
            "idle-flood 20" | "half-header-flood 20" => {
                assert_eq!(attacker["connections"], 20, "{row}");
                assert!(has("held_peak") && has("held_at_end"), "{row}");
            }
            "pipelining" => {
                assert!(attacker["cut_off"].is_boolean(), "{row}");
                assert!(has("requests_sent") && has("replies"), "{row}");
            }
            "churn" => {
                assert!(number(&row["accepts_per_s"], "accepts/s") >= 0.0, "{row}");
                for k in ["connects", "connect_p50_us", "connect_p99_us"] {
                    assert!(has(k), "{k}: {row}");
                }
            }
            _ => assert!(has("messages_sent"), "{row}"),
        }
        if row["scenario"] != "churn" {
            assert!(row["accepts_per_s"].is_null(), "{row}");
        }
    }
}

#[test]
fn the_other_strategies_in_a_table() {
    let text = overload(&[
        "--scenario",
        "churn",
        "--scenario",
        "half-header-flood",
        "--server",
        "thread-per-connection",
        "--server",
        "leader-followers",
    ]);
    let mut lines = text.lines();
    let header = lines.next().unwrap_or_default();
    for column in [
        "scenario",
        "server",
        "survived",
        "RSS MiB before/peak/after",
        "p50 µs before/during",
        "p99 µs before/during",
        "failed",
        "new fail",
        "accepts/s",
    ] {
        assert!(header.contains(column), "{column}: {header}");
    }
    let rows: Vec<(&str, &str)> = text
        .lines()
        .filter(|l| !l.starts_with(' ') && *l != header)
        .map(|l| {
            let mut w = l.split_whitespace();
            let scenario = w.next().unwrap_or_default();
            let server = if scenario == "churn" {
                w.next()
            } else {
                w.nth(1)
            };
            (scenario, server.unwrap_or_default())
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("half-header-flood", "thread-per-connection"),
            ("half-header-flood", "leader-followers"),
            ("churn", "thread-per-connection"),
            ("churn", "leader-followers"),
        ],
        "{text}"
    );
    assert_eq!(
        text.lines()
            .filter(|l| l.starts_with("    attacker: "))
            .count(),
        4,
        "{text}"
    );
}

#[test]
fn unknown_scenarios_and_servers_are_named() {
    for (args, want) in [
        (["--scenario", "teardrop"], "unknown scenario \"teardrop\""),
        (["--server", "tao"], "unknown server \"tao\""),
    ] {
        let out = rtorb_bench()
            .args(["overload", "--quick"])
            .args(args)
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{err}");
    }
}

/// omniORB asked for by name but not buildable (no tools on an empty
/// `PATH`): an error that says so, not rows without it.
#[test]
fn omniorb_asked_for_but_missing_is_an_error() {
    let empty =
        std::env::temp_dir().join(format!("rtorb-overload-no-tools-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let out = rtorb_bench()
        .args(["overload", "--quick", "--server", "omniorb"])
        .env("PATH", &empty)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir(&empty);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("omniORB: make is not installed"), "{err}");
}

/// The servers the benchmark starts take `-ORB` options after `--`, and
/// only those.
#[test]
fn cubit_server_takes_orb_options_after_a_double_dash() {
    for (extra, want) in [
        (
            &["-ORBServerStrategy", "carrier-pigeon"][..],
            "-ORBServerStrategy",
        ),
        (
            &["-ORBServerThreads", "2", "out.txt"][..],
            "out.txt: only -ORB options",
        ),
    ] {
        let out = rtorb_bench()
            .args(["cubit-server", "--"])
            .args(extra)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{extra:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{extra:?}: {err}");
        assert!(out.stdout.is_empty(), "{extra:?}");
    }
}

/// omniORB's server beside rtorb's: this machine must have omniORB
/// (`scripts/install-deps.sh` installs it).
#[test]
#[ignore = "needs omniORB (Debian libomniorb4-dev, omniidl): scripts/test.sh installs it and runs this"]
fn omniorb_server_rows() {
    let text = overload(&[
        "--json",
        "--server",
        "omniorb",
        "--scenario",
        "memory-flood",
        "--scenario",
        "churn",
    ]);
    let v: Value = serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text}"));
    let rows = v["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 2, "{v}");
    for row in rows {
        assert_eq!(row["server"], "omniorb", "{row}");
        check_row(row);
    }
    assert!(number(&rows[1]["accepts_per_s"], "accepts/s") >= 0.0, "{v}");
}
