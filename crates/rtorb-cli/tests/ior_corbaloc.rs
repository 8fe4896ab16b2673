//! `rtorb ior decode` gives the `corbaloc:` URL of a reference, its
//! binary object key escaped, and the URL decodes to the same addresses
//! and key.

use std::process::Command;

use rtorb_cdr::Version;
use rtorb_giop::ior::{IiopProfile, ObjectReference, UiopProfile};
use serde_json::Value;

fn rtorb(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_rtorb"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "rtorb {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn decode_gives_the_corbaloc_url_of_an_ior() {
    let key = &b"\x00RootPOA\x00\x01"[..];
    let reference = ObjectReference::new(
        "IDL:Cubit:1.0",
        vec![
            IiopProfile::new(Version::V1_2, "127.0.0.1", 4000, key).into(),
            UiopProfile::new(Version::V1_2, "/tmp/cubit.sock", key).into(),
        ],
    );
    let ior = reference.to_stringified().unwrap();
    let expected = "corbaloc:iiop:1.2@127.0.0.1:4000,uiop:1.2@/tmp/cubit.sock|%00RootPOA%00%01";

    let text = rtorb(&["ior", "decode", &ior]);
    assert!(text.contains(&format!("corbaloc: {expected}")), "{text}");
    let json: Value = serde_json::from_str(&rtorb(&["ior", "decode", "--json", &ior])).unwrap();
    assert_eq!(json["corbaloc"], expected, "{json}");

    // The URL names the same addresses and key.
    let again: Value =
        serde_json::from_str(&rtorb(&["ior", "decode", "--json", expected])).unwrap();
    assert_eq!(again["profiles"], json["profiles"], "{again}");
}
