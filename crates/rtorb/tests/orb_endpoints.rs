//! An ORB gives its endpoints back in the syntax users write them in, so
//! that one pasted into a `corbaloc` URL reaches the ORB.

use std::sync::Arc;

use rtorb_test_support::echo::{Echo, echo};
use rtorb_test_support::net::socket_path;
use rtorb_test_support::{client, server};

#[test]
fn endpoints_come_back_as_they_were_written() {
    let path = socket_path("endpoints");
    let server = server::builder()
        .listen("iiop://1.1@127.0.0.1:0")
        .listen(format!("uiop://{path}"))
        .build()
        .expect("server ORB");
    server
        .activate_with_key(&b"Echo"[..], Arc::new(Echo))
        .unwrap();
    let endpoints = server.endpoints();
    assert_eq!(endpoints.len(), 3, "{endpoints:?}");
    // The default version is not written out; the port is the one bound.
    let first = &endpoints[0];
    let port = first
        .strip_prefix("iiop://127.0.0.1:")
        .unwrap_or_else(|| panic!("{first}"));
    assert!(port.parse::<u16>().is_ok_and(|p| p != 0), "{first}");
    assert!(
        endpoints[1].starts_with("iiop://1.1@127.0.0.1:"),
        "{endpoints:?}"
    );
    assert_eq!(endpoints[2], format!("uiop://{path}"));

    // Each pastes into a corbaloc URL as it is.
    let client = client::orb();
    for url in [
        format!("corbaloc::{}/Echo", first.trim_start_matches("iiop://")),
        format!(
            "corbaloc::{}/Echo",
            endpoints[1].trim_start_matches("iiop://")
        ),
        format!("corbaloc:uiop:{path}|Echo"),
    ] {
        let obj = client
            .string_to_object(&url)
            .unwrap_or_else(|e| panic!("{url}: {e}"));
        assert_eq!(echo(&obj, 7).unwrap_or_else(|e| panic!("{url}: {e}")), 7);
    }
    // And parses back to the same endpoint.
    for e in &endpoints {
        let again = server.registry().parse_endpoint(e).expect("parses");
        assert_eq!(&again.to_string(), e);
    }
    client.shutdown();
    server.shutdown();
}

/// A POA's object keys are binary: the reference's corbaloc URL escapes
/// them, and reaches the object from another ORB.
#[test]
fn a_poa_reference_has_a_corbaloc_that_reaches_it() {
    let path = socket_path("corbaloc");
    let server = server::builder()
        .listen(format!("uiop://{path}"))
        .build()
        .expect("server ORB");
    let obj = server.activate(Arc::new(Echo)).unwrap();
    let url = obj.corbaloc().expect("a corbaloc URL");
    // The POA gives the same URL for the object's id.
    let root = server.root_poa();
    let id = root.reference_to_id(&obj).expect("the object's id");
    assert_eq!(
        root.corbaloc(&id).expect("the POA's URL"),
        Some(url.clone())
    );
    let address = rtorb_test_support::net::iiop_address(&server);
    assert!(
        url.starts_with(&format!("corbaloc:iiop:1.2@{address},uiop:1.2@{path}|")),
        "{url}"
    );
    assert!(url.contains('%'), "a POA key is binary: {url}");
    let client = client::orb();
    let again = client
        .string_to_object(&url)
        .unwrap_or_else(|e| panic!("{url}: {e}"));
    assert_eq!(
        echo(&again, 11).unwrap_or_else(|e| panic!("{url}: {e}")),
        11
    );
    assert_eq!(
        again.target().reference().unwrap().profiles[0].object_key(),
        obj.target().reference().unwrap().profiles[0].object_key(),
        "the key survives the URL"
    );
    client.shutdown();
    server.shutdown();
}
