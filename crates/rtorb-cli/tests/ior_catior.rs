//! `rtorb ior decode` against omniORB's `catior`, on references omniORB
//! made (`genior` and recorded omniNames references) and on references
//! rtorb made. omniORB's tools must be installed (`scripts/install-deps.sh`
//! does it); a missing tool fails the test.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

fn run(cmd: &str, args: &[&str]) -> String {
    let out = Command::new(cmd).args(args).output().unwrap_or_else(|e| {
        panic!("cannot run {cmd}: {e}; install omniORB's tools with scripts/install-deps.sh")
    });
    assert!(
        out.status.success(),
        "{cmd} {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

fn rtorb(args: &[&str]) -> String {
    run(env!("CARGO_BIN_EXE_rtorb"), args)
}

/// What `catior -x` says about a reference: type id and, per IIOP
/// profile, version, host, port, key (hex) and component names.
#[derive(Debug, PartialEq)]
struct Summary {
    type_id: String,
    profiles: Vec<(String, String, u16, String, Vec<String>)>,
}

fn catior_summary(ior: &str) -> Summary {
    let text = run("catior", &["-x", ior]);
    let mut type_id = String::new();
    let mut profiles = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("Type ID: ") {
            type_id = rest.trim_matches('"').to_owned();
        } else if let Some((_, rest)) = line.split_once(". IIOP ") {
            let f: Vec<&str> = rest.split_whitespace().collect();
            let key = f[3].trim_start_matches("0x").to_owned();
            let key = if f[3] == "\"\"" { String::new() } else { key };
            profiles.push((f[0].into(), f[1].into(), f[2].parse().unwrap(), key, vec![]));
        } else if let Some(tag) = line.trim_start().strip_prefix("TAG_") {
            let name = format!("TAG_{}", tag.split_whitespace().next().unwrap());
            profiles
                .last_mut()
                .expect("component after a profile")
                .4
                .push(name);
        }
    }
    Summary { type_id, profiles }
}

fn rtorb_summary(ior: &str) -> (Summary, Value) {
    let json: Value = serde_json::from_str(&rtorb(&["ior", "decode", "--json", ior])).unwrap();
    let mut profiles = Vec::new();
    for p in json["profiles"].as_array().unwrap() {
        if p["protocol"] != "iiop" {
            continue;
        }
        let comps = p["components"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].as_str().unwrap().to_owned())
            .collect();
        profiles.push((
            p["version"].as_str().unwrap().to_owned(),
            p["host"].as_str().unwrap().to_owned(),
            p["port"].as_u64().unwrap() as u16,
            p["object_key"].as_str().unwrap().to_owned(),
            comps,
        ));
    }
    let s = Summary {
        type_id: json["type_id"].as_str().unwrap().to_owned(),
        profiles,
    };
    (s, json)
}

fn fixtures() -> Vec<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../rtorb-giop/tests/data");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "ior") {
            out.push(std::fs::read_to_string(path).unwrap().trim().to_owned());
        }
    }
    assert!(out.len() >= 4, "IOR fixtures missing");
    out
}

fn genior(args: &[&str]) -> String {
    let out = run("genior", args);
    out.lines()
        .filter_map(|l| l.split_whitespace().find(|w| w.starts_with("IOR:")))
        .next_back()
        .expect("genior printed an IOR")
        .to_owned()
}

#[test]
#[ignore = "needs omniORB (Debian omniorb, omniorb-idl): scripts/test.sh installs it and runs this"]
fn decode_agrees_with_catior_on_omniorb_references() {
    let mut iors = fixtures();
    iors.push(genior(&["IDL:Cubit:1.0", "127.0.0.1", "2809", "Cubit"]));
    iors.push(genior(&["-x", "IDL:A/B:1.0", "::1", "1234", "0x00ff4142"]));
    iors.push(genior(&[
        "IDL:omg.org/CosNaming/NamingContextExt:1.0",
        "example.org",
        "65535",
        "NameService",
    ]));
    for ior in &iors {
        let theirs = catior_summary(ior);
        let (ours, _) = rtorb_summary(ior);
        assert!(
            !theirs.profiles.is_empty(),
            "catior found no IIOP profile in {ior}"
        );
        assert_eq!(ours, theirs, "rtorb and catior disagree on {ior}");
    }
}

#[test]
#[ignore = "needs omniORB (Debian omniorb, omniorb-idl): scripts/test.sh installs it and runs this"]
fn catior_reads_what_rtorb_encodes() {
    for order in ["big", "little"] {
        let ior = rtorb(&[
            "ior",
            "encode",
            "--type-id",
            "IDL:Cubit:1.0",
            "--byte-order",
            order,
            "corbaloc:iiop:1.2@127.0.0.1:2809,iiop:1.1@[::1]:99/Cu%62it",
        ]);
        let ior = ior.trim();
        let theirs = catior_summary(ior);
        assert_eq!(theirs.type_id, "IDL:Cubit:1.0");
        assert_eq!(
            theirs.profiles,
            vec![
                (
                    "1.2".into(),
                    "127.0.0.1".into(),
                    2809,
                    "4375626974".into(),
                    vec![]
                ),
                ("1.1".into(), "::1".into(), 99, "4375626974".into(), vec![]),
            ]
        );
        let (ours, _) = rtorb_summary(ior);
        assert_eq!(ours, theirs);
    }
}

#[test]
#[ignore = "needs omniORB (Debian omniorb, omniorb-idl): scripts/test.sh installs it and runs this"]
fn decode_reads_corbaloc_and_files() {
    let (s, json) = rtorb_summary("corbaloc::1.2@localhost/Cubit");
    assert_eq!(s.profiles[0].2, 2809, "default port");
    assert!(json["source"].as_str().unwrap().starts_with("corbaloc:"));
    let path = std::env::temp_dir().join(format!("rtorb-cli-{}.ior", std::process::id()));
    let ior = genior(&["IDL:Cubit:1.0", "127.0.0.1", "2809", "Cubit"]);
    std::fs::write(&path, format!("{ior}\n")).unwrap();
    let text = rtorb(&["ior", "decode", path.to_str().unwrap()]);
    std::fs::remove_file(&path).ok();
    assert!(text.contains("type_id: IDL:Cubit:1.0"), "{text}");
    assert!(text.contains("object_key_string: Cubit"), "{text}");
    assert!(text.contains("TAG_CODE_SETS"), "{text}");
}

#[test]
fn bad_references_exit_nonzero_with_a_minor_code() {
    for bad in [
        "IOR:0",
        "IOR:zz",
        "corbaloc:iiop:1.2@:x/Key",
        "corbaloc:foo:bar/k",
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_rtorb"))
            .args(["ior", "decode", bad])
            .output()
            .unwrap();
        assert!(!out.status.success(), "{bad} was accepted");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("minor code 0x"), "{bad}: {err}");
    }
}
