//! omniORB's `cubit_client` reaches an rtorb Cubit through references that
//! rtorb forwards, by every path a server forwards with: a plain key
//! forwarded with `Orb::forward`, a servant activator and a servant
//! locator that raise `ForwardRequest`. Given an IOR, omniORB asks with a
//! GIOP 1.2 LocateRequest first, so the forwarding LocateReply (its body
//! right after the status, as omniORB reads it) is exercised along with
//! the LOCATION_FORWARD replies. A missing omniORB fails these tests.

mod forwarding;

use std::process::Command;

use forwarding::{Path, forwarding_server};
use rtorb_interop::ensure_peers;
use rtorb_interop::process::run_to_end;
use rtorb_test_support::TIMEOUT;

/// Runs omniORB's `cubit_client` through a reference forwarded by `path`;
/// it exits 0 only if every result was right.
fn omniorb_client_follows(path: Path) {
    let peers = ensure_peers().unwrap_or_else(|e| panic!("the omniORB peers cannot be built: {e}"));
    let (orb, ior) = forwarding_server(path);
    let mut command = Command::new(&peers.cubit_client);
    command
        .arg("-ORBclientCallTimeOutPeriod")
        .arg(TIMEOUT.as_millis().to_string())
        .arg(&ior);
    let what = path.describe();
    let (status, output) = run_to_end(&mut command, "cubit_client", TIMEOUT)
        .unwrap_or_else(|e| panic!("cubit_client ({what}): {e}"));
    assert!(
        status.success(),
        "cubit_client ({what}) failed ({status}): {output}"
    );
    orb.shutdown();
}

#[test]
#[ignore = "needs omniORB (Debian libomniorb4-dev, omniidl): scripts/test.sh installs it and runs this"]
fn omniorb_follows_a_forwarded_plain_key() {
    omniorb_client_follows(Path::PlainKey);
}

#[test]
#[ignore = "needs omniORB (Debian libomniorb4-dev, omniidl): scripts/test.sh installs it and runs this"]
fn omniorb_follows_a_servant_activator_that_forwards() {
    omniorb_client_follows(Path::Activator);
}

#[test]
#[ignore = "needs omniORB (Debian libomniorb4-dev, omniidl): scripts/test.sh installs it and runs this"]
fn omniorb_follows_a_servant_locator_that_forwards() {
    omniorb_client_follows(Path::Locator);
}
