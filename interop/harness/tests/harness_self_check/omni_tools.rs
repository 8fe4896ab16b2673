//! omniORB's `catior` and `genior`, and the committed IOR fixtures.

use rtorb_interop::fixtures::omniorb_fixtures_dir;
use rtorb_interop::omni_tools::catior_with;
use rtorb_interop::{catior, genior};

#[test]
#[ignore = "needs omniORB's catior and genior (Debian omniorb): scripts/test.sh installs them and runs this"]
fn genior_then_catior() {
    let ior = genior("IDL:Cubit:1.0", "127.0.0.1", 2809, Some("Cubit"), false).expect("genior");
    assert!(ior.starts_with("IOR:"), "{ior}");
    let dump = catior(&ior).expect("catior");
    assert!(dump.contains("Type ID: \"IDL:Cubit:1.0\""), "{dump}");
    assert!(dump.contains("IIOP 1.2 127.0.0.1 2809 \"Cubit\""), "{dump}");
}

#[test]
#[ignore = "needs omniORB's catior and genior (Debian omniorb): scripts/test.sh installs them and runs this"]
fn genior_hex_key() {
    let ior = genior("IDL:X:1.0", "example.org", 1, Some("0xff00"), true).expect("genior");
    let dump = catior_with(&["-x"], &ior).expect("catior");
    assert!(dump.contains("example.org 1 0xff00"), "{dump}");
}

#[test]
#[ignore = "needs omniORB's catior and genior (Debian omniorb): scripts/test.sh installs them and runs this"]
fn catior_rejects_garbage() {
    // catior ran and refused the IOR (a catior that cannot be run is
    // another error).
    let e = catior("IOR:zz").unwrap_err();
    assert!(e.starts_with("catior [\"IOR:zz\"] failed"), "{e}");
}

/// Every committed IOR still dumps to its committed `catior` text.
#[test]
#[ignore = "needs omniORB's catior and genior (Debian omniorb): scripts/test.sh installs them and runs this"]
fn committed_iors_match_their_catior_dumps() {
    let dir = omniorb_fixtures_dir().join("iors");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).expect("iors directory") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|x| x != "ior") {
            continue;
        }
        let ior = std::fs::read_to_string(&path).expect("ior file");
        let ior = ior.trim();
        let recorded = std::fs::read_to_string(path.with_extension("catior.txt")).expect("dump");
        let plain = catior(ior).expect("catior");
        let hex = catior_with(&["-x"], ior).expect("catior -x");
        let stripped: String = recorded
            .lines()
            .filter(|l| !l.starts_with("# "))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(stripped, format!("{plain}{hex}"), "{}", path.display());
        checked += 1;
    }
    assert!(checked >= 6, "only {checked} IORs");
}
