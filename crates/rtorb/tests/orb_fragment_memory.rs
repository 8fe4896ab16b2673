//! Fragments that never end, on several connections at once, under every
//! server strategy: each connection is answered with a `MessageError` and
//! closed once the memory budget cannot take its next fragment, the
//! well-behaved client is served after (a request it sends in fragments
//! too), nothing stays charged, and the
//! memory the server allocated meanwhile stays within its budget and a
//! small constant (measured with an allocator that tracks the bytes live,
//! not resident memory; one test in this binary, since every thread is
//! counted).

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;

use rtorb::orb::ServerStrategy;
use rtorb_giop::message::Content;
use rtorb_giop::{FrameDecoder, FrameProtocol, decode_message};
use rtorb_test_support::cubit::{self, Cubit};
use rtorb_test_support::live::{LiveAllocator, live_bytes, peak_bytes, reset_peak};
use rtorb_test_support::wait::eventually;
use rtorb_test_support::wire::giop_header;
use rtorb_test_support::{TIMEOUT, client, server};

#[global_allocator]
static GLOBAL: LiveAllocator = LiveAllocator;

/// The body of each piece a flooding connection sends.
const PIECE: usize = 8 * 1024;
/// The budget: just beyond what a buffer grown by doubling from the
/// first piece holds at its eighth doubling, so that such a buffer holds
/// twice what it has received when the budget runs out.
const BUDGET: usize = (12 + PIECE) * 128 + 64 * 1024;
/// Connections flooding at once.
const FLOODS: usize = 3;
/// What the server may allocate besides its budget while they flood: the
/// framing buffers and state of their connections.
const CONSTANT: usize = 384 * 1024;

/// A request with more fragments to follow, then fragments with more to
/// follow, each with a body of [`PIECE`] octets, until the server closes;
/// returns what the server answered.
fn flood(mut raw: TcpStream, id: u32) -> Vec<Content> {
    let mut first = giop_header(2, 0x03, 0, PIECE as u32);
    first.extend_from_slice(&id.to_le_bytes());
    first.resize(12 + PIECE, 0);
    let mut fragment = giop_header(2, 0x03, 7, (4 + PIECE) as u32);
    fragment.extend_from_slice(&id.to_le_bytes());
    fragment.resize(16 + PIECE, 0);
    let mut writer = raw.try_clone().unwrap();
    let sender = std::thread::spawn(move || {
        if writer.write_all(&first).is_err() {
            return;
        }
        // Within the largest message the server accepts (its default),
        // but far beyond its budget.
        for _ in 0..(16 * 1024 * 1024 / PIECE) {
            if writer.write_all(&fragment).is_err() {
                return;
            }
        }
    });
    let mut answers = Vec::new();
    let mut decoder = FrameDecoder::new(FrameProtocol::Giop);
    let mut buf = [0u8; 4096];
    loop {
        match raw.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                decoder.push(&buf[..n]).unwrap();
                while let Some(frame) = decoder.next_frame().unwrap() {
                    answers.push(decode_message(frame).unwrap().content);
                }
            }
            // Fragments still arriving when the server closed.
            Err(e) if e.kind() == ErrorKind::ConnectionReset => break,
            Err(e) => panic!("{e}"),
        }
    }
    sender.join().unwrap();
    answers
}

fn check(strategy: ServerStrategy) {
    let server = server::builder()
        .server_strategy(strategy)
        .server_threads(4)
        .max_connections(64)
        .memory_budget(BUDGET)
        .build()
        .unwrap();
    let ior = cubit::serve(&server);
    let client = client::orb();
    let cubit: Cubit = client.string_to_object(&ior).unwrap().unchecked_narrow();
    // A client that sends its large requests in fragments of 4 KiB.
    let fragmenting = client::builder().fragment_size(4096).build().unwrap();
    let fragmented: Cubit = fragmenting
        .string_to_object(&ior)
        .unwrap()
        .unchecked_narrow();
    let octets: Vec<u8> = (0..200 * 1024).map(|i| i as u8).collect();
    let cubed: Vec<u8> = octets.iter().map(|b| b.wrapping_pow(3)).collect();
    let address = rtorb_test_support::net::iiop_address(&server);
    assert_eq!(cubit.cube_long(3).unwrap(), 27, "{strategy}");

    let raws: Vec<TcpStream> = (0..FLOODS)
        .map(|_| {
            let s = TcpStream::connect(&address).unwrap();
            s.set_read_timeout(Some(TIMEOUT)).unwrap();
            s
        })
        .collect();
    let before = live_bytes();
    reset_peak();
    let floods: Vec<_> = raws
        .into_iter()
        .zip(1u32..)
        .map(|(raw, id)| std::thread::spawn(move || flood(raw, id)))
        .collect();
    for f in floods {
        assert_eq!(f.join().unwrap(), [Content::MessageError], "{strategy}");
    }
    let grew = (peak_bytes() - before).max(0) as usize;
    assert!(
        grew <= BUDGET + CONSTANT,
        "{strategy}: {grew} octets allocated for a budget of {BUDGET}"
    );
    assert!(
        eventually(TIMEOUT, || server.stats().buffered_bytes == 0),
        "{strategy}: the server still holds {} octets",
        server.stats().buffered_bytes
    );
    for i in 2..5 {
        assert_eq!(cubit.cube_long(i).unwrap(), i * i * i, "{strategy}");
    }
    // A message reassembled within the budget is served, and what it held
    // released.
    for _ in 0..3 {
        let got = fragmented.cube_octet_sequence(&octets).unwrap();
        assert!(got[..] == cubed[..], "{strategy}");
    }
    assert!(
        eventually(TIMEOUT, || server.stats().buffered_bytes == 0),
        "{strategy}: the server still holds {} octets",
        server.stats().buffered_bytes
    );
    server.shutdown();
}

#[test]
fn fragment_floods_on_many_connections_are_held_within_the_budget() {
    for strategy in ServerStrategy::ALL {
        check(strategy);
    }
}
