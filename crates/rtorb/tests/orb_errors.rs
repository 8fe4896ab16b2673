//! Exceptions a user can act on: what rtorb raises itself says what
//! failed where, and every exception names what its minor code means.

use rtorb::minor::{
    BAD_PARAM_BAD_ADDRESS, BAD_PARAM_FILE_NO_REFERENCE, BAD_PARAM_FILE_UNREADABLE,
    OBJECT_NOT_EXIST_NO_SERVANT, TRANSIENT_CONNECT_FAILED,
};
use rtorb_giop::{CompletionStatus, SystemExceptionKind};
use rtorb_test_support::net::free_port;
use rtorb_test_support::{client, server};

#[test]
fn a_refused_connection_names_the_endpoint_and_the_system_error() {
    let port = free_port();
    let orb = client::orb();
    let obj = orb
        .string_to_object(&format!("corbaloc::1.2@127.0.0.1:{port}/Cubit"))
        .unwrap();
    let e = obj.invoke("cube_void", |_| Ok(())).unwrap_err();
    assert_eq!(e.kind(), Some(SystemExceptionKind::Transient));
    assert_eq!(e.minor, TRANSIENT_CONNECT_FAILED);
    assert_eq!(e.completed, CompletionStatus::No);
    let text = e.to_string();
    assert!(text.starts_with("CORBA::TRANSIENT: "), "{text}");
    assert!(text.contains(&format!("127.0.0.1:{port}")), "{text}");
    assert!(text.contains("refused"), "{text}");
    assert!(text.contains("TRANSIENT_CONNECT_FAILED"), "{text}");
    orb.shutdown();
}

#[test]
fn an_unknown_key_says_what_the_servers_minor_code_means() {
    let server = server::orb();
    let address = rtorb_test_support::net::iiop_address(&server);
    let orb = client::orb();
    let obj = orb
        .string_to_object(&format!("corbaloc::1.2@{address}/NoSuchKey"))
        .unwrap();
    let e = obj.invoke("cube_void", |_| Ok(())).unwrap_err();
    assert_eq!(e.minor, OBJECT_NOT_EXIST_NO_SERVANT);
    // Raised by the server: no detail crosses the wire, the registry
    // says what the code means.
    assert_eq!(e.detail(), None);
    assert_eq!(
        e.to_string(),
        "CORBA::OBJECT_NOT_EXIST: no object is registered under the object key \
         (minor 0x4f4d0001 OBJECT_NOT_EXIST_NO_SERVANT, OMG minor 1, COMPLETED_NO)"
    );
    orb.shutdown();
    server.shutdown();
}

#[test]
fn a_file_reference_that_cannot_be_read_names_the_file() {
    let orb = client::orb();
    let path = std::env::temp_dir().join(format!("rtorb-missing-{}.ior", std::process::id()));
    let e = orb
        .string_to_object(&format!("file://{}", path.display()))
        .unwrap_err();
    assert_eq!(e.minor, BAD_PARAM_FILE_UNREADABLE);
    assert!(e.to_string().contains(&path.display().to_string()), "{e}");

    std::fs::write(&path, "not a reference\n").unwrap();
    let e = orb
        .string_to_object(&format!("file://{}", path.display()))
        .unwrap_err();
    std::fs::remove_file(&path).ok();
    assert_eq!(e.minor, BAD_PARAM_FILE_NO_REFERENCE);
    assert!(e.to_string().contains("does not start with IOR:"), "{e}");
    orb.shutdown();
}

#[test]
fn a_malformed_corbaloc_says_what_is_wrong_with_it() {
    let orb = client::orb();
    let e = orb
        .string_to_object("corbaloc::1.2@127.0.0.1:notaport/Cubit")
        .unwrap_err();
    assert_eq!(e.kind(), Some(SystemExceptionKind::BadParam));
    assert_eq!(e.minor, BAD_PARAM_BAD_ADDRESS);
    assert!(e.detail().is_some_and(|d| d.contains("notaport")), "{e}");
    orb.shutdown();
}
