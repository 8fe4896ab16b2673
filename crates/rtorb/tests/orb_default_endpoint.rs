//! An ORB given no endpoint listens on its default one
//! (`-ORBDefaultEndpoint`, `iiop://0.0.0.0:0`) once it serves objects, so
//! that the first reference a new server hands out can be called from
//! another process; a client-only ORB never listens.

use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use rtorb::orb::{Orb, OrbError};
use rtorb_test_support::echo::{ECHO_ID, Echo, echo};
use rtorb_test_support::log::capture;
use rtorb_test_support::process::stdout_of;

const TIMEOUT: Duration = Duration::from_secs(20);

/// The variable that hands the server's reference to the child.
const IOR_ENV: &str = "RTORB_TEST_DEFAULT_ENDPOINT_IOR";

/// This test runs itself again as a child process, the client, with the
/// server's reference in [`IOR_ENV`]. The server publishes the host's
/// name, which must resolve on the machine running the tests.
#[test]
fn an_object_of_an_orb_built_with_no_options_is_called_from_another_process() {
    if let Ok(ior) = std::env::var(IOR_ENV) {
        // The child: a client in a process of its own.
        let client = Orb::builder().round_trip_timeout(TIMEOUT).build().unwrap();
        let obj = client.string_to_object(&ior).unwrap();
        println!("echoed {}", echo(&obj, 21).unwrap());
        return;
    }
    let server = Orb::builder().build().unwrap();
    assert!(server.endpoints().is_empty(), "{:?}", server.endpoints());
    let obj = server
        .activate_with_key(&b"Echo"[..], Arc::new(Echo))
        .unwrap();
    let endpoints = server.endpoints();
    assert_eq!(endpoints.len(), 1, "{endpoints:?}");
    assert!(endpoints[0].starts_with("iiop://"), "{endpoints:?}");
    let ior = server
        .object_to_string(&obj)
        .expect("a reference with a profile");
    let stdout = stdout_of(
        Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "an_object_of_an_orb_built_with_no_options_is_called_from_another_process",
                "--nocapture",
            ])
            .env(IOR_ENV, &ior),
    );
    assert!(stdout.contains("echoed 21"), "{stdout}");
    server.shutdown();
}

#[test]
fn a_client_only_orb_listens_nowhere() {
    let server = Orb::builder().listen("iiop://127.0.0.1:0").build().unwrap();
    let obj = server
        .activate_with_key(&b"Echo"[..], Arc::new(Echo))
        .unwrap();
    let ior = server.object_to_string(&obj).unwrap();
    let client = Orb::builder().round_trip_timeout(TIMEOUT).build().unwrap();
    let remote = client.string_to_object(&ior).unwrap();
    assert_eq!(echo(&remote, 5), Ok(5));
    assert!(client.endpoints().is_empty(), "{:?}", client.endpoints());
    // An ORB that listens opens no default endpoint beside its own.
    assert_eq!(server.endpoints().len(), 1);
    client.shutdown();
    server.shutdown();
}

#[test]
fn the_root_poa_opens_the_default_endpoint() {
    let orb = Orb::builder().build().unwrap();
    let poa = orb.root_poa();
    assert_eq!(orb.endpoints().len(), 1, "{:?}", orb.endpoints());
    let obj = poa.create_reference(ECHO_ID).unwrap();
    assert!(orb.object_to_string(&obj).is_some());
    // Once: asking again opens nothing more.
    orb.root_poa();
    orb.activate(Arc::new(Echo)).unwrap();
    assert_eq!(orb.endpoints().len(), 1, "{:?}", orb.endpoints());
    orb.shutdown();
}

#[test]
fn without_a_default_endpoint_objects_are_served_in_process_only() {
    let orb = Orb::builder().default_endpoint(None).build().unwrap();
    let obj = orb.activate_with_key(&b"Echo"[..], Arc::new(Echo)).unwrap();
    assert!(orb.endpoints().is_empty(), "{:?}", orb.endpoints());
    assert_eq!(orb.object_to_string(&obj), None);
    // Collocated calls work.
    assert_eq!(echo(&obj, 7), Ok(7));
    orb.shutdown();
}

#[test]
fn a_default_endpoint_that_cannot_be_opened_fails_activation_and_says_what_to_set() {
    // An address of no interface of this host (TEST-NET-3): binding fails.
    let (orb, lines) = capture(|| {
        let orb = Orb::builder()
            .default_endpoint(Some("iiop://203.0.113.1:0".to_owned()))
            .build()
            .unwrap();
        // The Root POA is there all the same, serving in process.
        let _ = orb.root_poa();
        orb
    });
    let warnings: Vec<_> = lines
        .iter()
        .filter(|l| l.level == tracing::Level::WARN)
        .collect();
    assert_eq!(warnings.len(), 1, "{lines:?}");
    assert!(
        warnings[0].message.contains("iiop://203.0.113.1:0"),
        "{warnings:?}"
    );
    for _ in 0..2 {
        match orb.activate_with_key(&b"Echo"[..], Arc::new(Echo)) {
            Err(e @ OrbError::NoEndpoint(_)) => {
                let text = e.to_string();
                assert!(text.contains("-ORBListenEndpoints"), "{text}");
                assert!(text.contains("-ORBDefaultEndpoint"), "{text}");
            }
            other => panic!("{other:?}"),
        }
    }
    assert!(orb.endpoints().is_empty());
    orb.shutdown();
}

#[test]
fn an_orb_that_has_shut_down_activates_nothing() {
    let orb = Orb::builder().listen("iiop://127.0.0.1:0").build().unwrap();
    orb.shutdown();
    assert!(matches!(
        orb.activate(Arc::new(Echo)),
        Err(OrbError::ShutDown)
    ));
    assert!(matches!(
        orb.activate_with_key(&b"Echo"[..], Arc::new(Echo)),
        Err(OrbError::ShutDown)
    ));
}
