//! An rtorb client remembers where omniORB forwarded its calls: through a
//! reference to an object of an omniORB POA whose servant locator forwards
//! every request to the Cubit (`cubit_server -forward`), a thousand calls
//! ask the locator once. A missing omniORB fails this test.

use rtorb_interop::{CubitServer, GiopVersion, ensure_peers, start_cubit_server};
use rtorb_test_support::cubit::Cubit;
use rtorb_test_support::{TIMEOUT, client};

/// How many calls go through the forwarded reference.
const CALLS: i32 = 1000;

#[test]
#[ignore = "needs omniORB (Debian libomniorb4-dev, omniidl): scripts/test.sh installs it and runs this"]
fn rtorb_asks_an_omniorb_forwarder_once_for_many_calls() {
    let peers = ensure_peers().unwrap_or_else(|e| panic!("the omniORB peers cannot be built: {e}"));
    let mut server = start_cubit_server(&peers, &["-forward".to_owned()], TIMEOUT)
        .unwrap_or_else(|e| panic!("cannot start the omniORB cubit_server: {e}"));
    let line = server.next_line(TIMEOUT).unwrap();
    let forwarder = line
        .strip_prefix("forwarder ")
        .unwrap_or_else(|| panic!("no forwarder reference: {line:?}"));
    let orb = client::orb();
    let moved: Cubit = orb.string_to_object(forwarder).unwrap().unchecked_narrow();
    for l in 0..CALLS {
        assert_eq!(
            moved.cube_long(l).unwrap(),
            l.wrapping_mul(l).wrapping_mul(l)
        );
    }
    // A clone shares what the reference remembers.
    let copy = moved.clone();
    assert_eq!(copy.cube_long(3).unwrap(), 27);
    let cubit: Cubit = orb
        .string_to_object(&CubitServer::corbaloc(GiopVersion::V1_2, server.addr))
        .unwrap()
        .unchecked_narrow();
    cubit.shutdown().unwrap();
    assert_eq!(server.next_line(TIMEOUT).unwrap(), "forwarded 1");
    server.wait_exit(TIMEOUT).unwrap();
}
