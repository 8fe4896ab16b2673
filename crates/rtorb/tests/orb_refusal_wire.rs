//! The exact answer on the wire to a GIOP 1.0 or 1.1 `Request` the server
//! refuses from its header, under every server strategy, in both byte
//! orders: one that announces more than what remains of the memory budget
//! gets a `Reply` in its own GIOP version and byte order carrying
//! `NO_MEMORY` (minor `NO_MEMORY_BUDGET`, `COMPLETED_NO`), one larger than
//! the largest message `IMP_LIMIT` (minor `IMP_LIMIT_MESSAGE_TOO_LARGE`),
//! and then `CloseConnection`, after which the server closes the
//! connection. The request id is found after the request's service
//! contexts. (GIOP 1.2 is checked in `orb_memory_budget.rs`.)

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;

use rtorb::minor::{IMP_LIMIT_MESSAGE_TOO_LARGE, NO_MEMORY_BUDGET};
use rtorb::orb::ServerStrategy;
use rtorb_test_support::cubit;
use rtorb_test_support::net::iiop_address;
use rtorb_test_support::wait::eventually;
use rtorb_test_support::wire::giop_header;
use rtorb_test_support::{TIMEOUT, server};

const BUDGET: usize = 1024 * 1024;
const MAX_MESSAGE: u32 = 4 * 1024 * 1024;

/// A ulong in the byte order `little` or not.
fn ulong(v: u32, little: bool) -> [u8; 4] {
    if little {
        v.to_le_bytes()
    } else {
        v.to_be_bytes()
    }
}

/// The start of a GIOP 1.`minor` `Request` announcing `size` octets, up to
/// and including its request id `id`: no service context, or one of five
/// octets (then padded to the id's alignment).
fn request_start(minor: u8, little: bool, size: u32, id: u32, context: bool) -> Vec<u8> {
    let mut m = giop_header(minor, u8::from(little), 0, size);
    if context {
        m.extend_from_slice(&ulong(1, little));
        m.extend_from_slice(&ulong(0x5254_0001, little));
        m.extend_from_slice(&ulong(5, little));
        m.extend_from_slice(b"abcde\0\0\0");
    } else {
        m.extend_from_slice(&ulong(0, little));
    }
    m.extend_from_slice(&ulong(id, little));
    m
}

/// What the server must send: a GIOP 1.`minor` `Reply` to `id` in the
/// request's byte order carrying the system exception `repository_id`
/// with `minor_code`, `COMPLETED_NO`; then `CloseConnection` in the same
/// GIOP version, in the server's own byte order.
fn expected_answer(
    minor: u8,
    little: bool,
    id: u32,
    repository_id: &str,
    minor_code: u32,
) -> Vec<u8> {
    let mut body = Vec::new();
    body.extend_from_slice(&ulong(0, little)); // no service context
    body.extend_from_slice(&ulong(id, little));
    body.extend_from_slice(&ulong(2, little)); // SYSTEM_EXCEPTION
    body.extend_from_slice(&ulong(repository_id.len() as u32 + 1, little));
    body.extend_from_slice(repository_id.as_bytes());
    body.push(0);
    while (12 + body.len()) % 4 != 0 {
        body.push(0);
    }
    body.extend_from_slice(&ulong(minor_code, little));
    body.extend_from_slice(&ulong(1, little)); // COMPLETED_NO
    let mut answer = giop_header(minor, u8::from(little), 1, body.len() as u32);
    answer.extend_from_slice(&body);
    let native_little = cfg!(target_endian = "little");
    answer.extend_from_slice(&giop_header(minor, u8::from(native_little), 5, 0));
    answer
}

/// Every octet the server sends until it closes the connection.
fn until_closed(raw: &mut TcpStream, what: &str) -> Vec<u8> {
    let mut all = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match raw.read(&mut buf) {
            Ok(0) => return all,
            Ok(n) => all.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => panic!("{what}: no orderly close after {all:?}: {e}"),
        }
    }
}

#[test]
fn giop_1_0_and_1_1_requests_over_the_budget_or_the_largest_message_get_their_exact_answer() {
    for strategy in ServerStrategy::ALL {
        let server = server::builder()
            .server_strategy(strategy)
            .max_message_size(MAX_MESSAGE)
            .memory_budget(BUDGET)
            .build()
            .unwrap();
        cubit::serve(&server);
        let address = iiop_address(&server);
        let cases = [
            (
                2 * BUDGET as u32,
                "IDL:omg.org/CORBA/NO_MEMORY:1.0",
                NO_MEMORY_BUDGET,
            ),
            (
                MAX_MESSAGE + 1,
                "IDL:omg.org/CORBA/IMP_LIMIT:1.0",
                IMP_LIMIT_MESSAGE_TOO_LARGE,
            ),
        ];
        let mut id = 0x1122_3300;
        for minor in [0u8, 1] {
            for little in [false, true] {
                for context in [false, true] {
                    for (size, repository_id, minor_code) in cases {
                        id += 1;
                        let what = format!(
                            "{strategy}: GIOP 1.{minor}, little endian {little}, \
                             a service context {context}, {repository_id}"
                        );
                        let mut raw = TcpStream::connect(&address).unwrap();
                        raw.set_read_timeout(Some(TIMEOUT)).unwrap();
                        raw.write_all(&request_start(minor, little, size, id, context))
                            .unwrap();
                        assert_eq!(
                            until_closed(&mut raw, &what),
                            expected_answer(minor, little, id, repository_id, minor_code),
                            "{what}"
                        );
                    }
                }
            }
        }
        assert!(
            eventually(TIMEOUT, || server.stats().buffered_bytes == 0),
            "{strategy}: the server still holds {} octets",
            server.stats().buffered_bytes
        );
        server.shutdown();
    }
}
