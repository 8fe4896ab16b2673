//! The rtorb ORB against omniORB: omniORB's `cubit_client` calls an rtorb
//! Cubit server, and an rtorb client calls omniORB's `cubit_server`, over
//! GIOP 1.0, 1.1 and 1.2, with messages large enough that omniORB
//! fragments them; the rtorb server runs under each server concurrency
//! strategy. A missing omniORB fails these tests.

use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rtorb::object::Stub;
use rtorb::orb::ServerStrategy;
use rtorb_cdr::Version;
use rtorb_giop::ObjectReference;
use rtorb_giop::ior::Profile;
use rtorb_interop::process::run_to_end;
use rtorb_interop::{
    CubitServer, DIRECT_SEND_OCTETS, FRAGMENTING_OCTETS, GiopVersion, ensure_peers,
    start_cubit_server,
};
use rtorb_test_support::cubit::{Cubit, CubitImpl, CubitSkeleton, cubit};
use rtorb_test_support::net::iiop_address;
use rtorb_test_support::wait::eventually;
use rtorb_test_support::{TIMEOUT, client, server};

fn peers() -> rtorb_interop::PeerPaths {
    ensure_peers().unwrap_or_else(|e| panic!("the omniORB peers cannot be built: {e}"))
}

/// Runs omniORB's `cubit_client` with `args` and the target; it exits 0
/// only if every result was right.
fn run_omniorb_client(args: &[String], target: &str) {
    let peers = peers();
    let mut cmd = Command::new(&peers.cubit_client);
    cmd.args(args)
        .arg("-ORBclientCallTimeOutPeriod")
        .arg(TIMEOUT.as_millis().to_string())
        .arg(target);
    let (status, output) = run_to_end(&mut cmd, "cubit_client", TIMEOUT)
        .unwrap_or_else(|e| panic!("cubit_client {args:?} {target}: {e}"));
    assert!(
        status.success(),
        "cubit_client {args:?} {target} failed ({status}): {output}"
    );
}

fn wait_for(flag: &AtomicBool) -> bool {
    eventually(TIMEOUT, || flag.load(Ordering::SeqCst))
}

#[test]
#[ignore = "needs omniORB (Debian libomniorb4-dev, omniidl): scripts/test.sh installs it and runs this"]
fn omniorb_client_calls_an_rtorb_server_in_every_giop_version() {
    for (strategy, version) in ServerStrategy::ALL
        .into_iter()
        .flat_map(|s| GiopVersion::ALL.into_iter().map(move |v| (s, v)))
    {
        for big in [FRAGMENTING_OCTETS, DIRECT_SEND_OCTETS] {
            let server = server::with_strategy(strategy);
            let servant = CubitImpl::default();
            let shut_down = Arc::clone(&servant.shut_down);
            server
                .activate_with_key(&b"Cubit"[..], Arc::new(CubitSkeleton(servant)))
                .unwrap();
            let target = format!(
                "corbaloc::{}@{}/Cubit",
                version.as_str(),
                iiop_address(&server)
            );
            run_omniorb_client(
                &[
                    "--giop".into(),
                    version.as_str().into(),
                    "--big".into(),
                    big.to_string(),
                    "--shutdown".into(),
                ],
                &target,
            );
            assert!(
                wait_for(&shut_down),
                "the oneway shutdown of GIOP {} did not arrive ({strategy})",
                version.as_str()
            );
            server.shutdown();
        }
    }
}

#[test]
#[ignore = "needs omniORB (Debian libomniorb4-dev, omniidl): scripts/test.sh installs it and runs this"]
fn omniorb_client_calls_an_rtorb_server_through_its_ior() {
    for strategy in ServerStrategy::ALL {
        let server = server::with_strategy(strategy);
        let obj = server
            .activate(Arc::new(CubitSkeleton(CubitImpl::default())))
            .unwrap();
        let ior = server.object_to_string(&obj).unwrap();
        run_omniorb_client(&[], &ior);
        server.shutdown();
    }
}

fn cube_everything(cubit: &Cubit, what: &str) {
    cubit.cube_void().unwrap();
    assert_eq!(cubit.cube_octet(3).unwrap(), 27, "{what}");
    assert_eq!(cubit.cube_short(-7).unwrap(), -343, "{what}");
    assert_eq!(cubit.cube_long(1234).unwrap(), 1_879_080_904, "{what}");
    assert_eq!(
        cubit
            .cube_struct(&cubit::Many { o: 2, l: -3, s: 5 })
            .unwrap(),
        cubit::Many {
            o: 8,
            l: -27,
            s: 125
        },
        "{what}"
    );
    let longs: Vec<i32> = (0..1024).map(|i| i - 512).collect();
    let want: Vec<i32> = longs
        .iter()
        .map(|l| l.wrapping_mul(*l).wrapping_mul(*l))
        .collect();
    assert_eq!(cubit.cube_long_sequence(&longs).unwrap(), want, "{what}");
    for len in [0, 16, 2000, FRAGMENTING_OCTETS, DIRECT_SEND_OCTETS] {
        let octets: Vec<u8> = (0..len).map(|i| (i * 7) as u8).collect();
        let want: Vec<u8> = octets
            .iter()
            .map(|o| o.wrapping_mul(*o).wrapping_mul(*o))
            .collect();
        let got = cubit.cube_octet_sequence(&octets).unwrap();
        assert!(got[..] == want[..], "{what}: octet sequence of {len}");
    }
    assert!(cubit.is_a("IDL:Cubit:1.0").unwrap(), "{what}");
    assert!(!cubit.non_existent().unwrap(), "{what}");
}

/// The reference with its IIOP profiles set to `version` (without
/// components for 1.0, which cannot carry them).
fn with_version(reference: &ObjectReference, version: Version) -> String {
    let mut r = reference.clone();
    for p in &mut r.profiles {
        if let Profile::Iiop(iiop) = p {
            iiop.version = version;
            if version == Version::V1_0 {
                iiop.components.clear();
            }
        }
    }
    r.to_stringified().unwrap()
}

#[test]
#[ignore = "needs omniORB (Debian libomniorb4-dev, omniidl): scripts/test.sh installs it and runs this"]
fn rtorb_client_calls_the_omniorb_server_in_every_giop_version() {
    let peers = peers();
    let mut server = start_cubit_server(&peers, &[], TIMEOUT)
        .unwrap_or_else(|e| panic!("cannot start the omniORB cubit_server: {e}"));
    let reference = ObjectReference::from_stringified(&server.ior).unwrap();
    let orb = client::orb();
    for version in GiopVersion::ALL {
        let v = Version::new(1, version.minor());
        let by_ior = with_version(&reference, v);
        let by_url = CubitServer::corbaloc(version, server.addr);
        for (how, s) in [("IOR", by_ior), ("corbaloc", by_url)] {
            let cubit = Cubit::narrow(orb.string_to_object(&s).unwrap())
                .unwrap()
                .expect("a Cubit");
            cube_everything(&cubit, &format!("GIOP {} by {how}", version.as_str()));
        }
    }
    let cubit: Cubit = orb
        .string_to_object(&CubitServer::corbaloc(GiopVersion::V1_2, server.addr))
        .unwrap()
        .unchecked_narrow();
    cubit.shutdown().unwrap();
    server.wait_exit(TIMEOUT).unwrap();
}
