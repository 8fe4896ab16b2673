//! `rtorb demo` (the user guide's "Operating rtorb") runs on nothing but
//! itself and checks everything it prints.

use std::process::Command;

#[test]
fn demo_round_trips_everything() {
    let out = Command::new(env!("CARGO_BIN_EXE_rtorb"))
        .arg("demo")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "demo failed: {}\n{text}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("144 messages encoded, decoded, checked and re-encoded"),
        "{text}"
    );
    assert!(text.contains("reassembled: arguments intact"), "{text}");
    assert!(
        text.contains("173 frames recovered, each identical"),
        "{text}"
    );
    assert!(
        text.contains("-> IIOP 1.1 ::1:2810 key \"Cubit\""),
        "{text}"
    );
}
