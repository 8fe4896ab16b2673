//! A cached connection the server closed while it was idle (with a
//! `CloseConnection` first, or without) is not written into: the call
//! goes on a new connection and succeeds. A connection that breaks after
//! the request was written gives `COMM_FAILURE` (`COMPLETED_MAYBE`): the
//! server may have processed it.
//!
//! The server here is a raw socket peer that follows a script per
//! connection.

use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc::{Receiver, Sender, channel};

use rtorb::cdr::{CdrDecode, CdrEncode};
use rtorb::exception::{CompletionStatus, SystemExceptionKind};
use rtorb::object::Object;
use rtorb::orb::ConnectionStrategy;
use rtorb::policy::SyncScope;
use rtorb_cdr::{ByteOrder, Encoding, Version};
use rtorb_giop::encode_message;
use rtorb_giop::message::{Content, Message, MessageWriter, ReplyHeader, ReplyStatus};
use rtorb_test_support::clock::idle_past_reuse_check;
use rtorb_test_support::net::try_read_message;
use rtorb_test_support::{TIMEOUT, client};

/// What the peer does on one connection after answering `answered`
/// requests.
#[derive(Debug, Clone, Copy)]
enum Then {
    /// Answers every request.
    Serve,
    /// Closes the connection, as a process that exits does.
    Close,
    /// Sends `CloseConnection`, then closes.
    CloseOrderly,
    /// Reads the next request, then closes without answering.
    CloseAfterReading,
}

/// What the peer saw.
#[derive(Debug, PartialEq, Eq)]
enum Event {
    /// Connection `n` (from 0) was accepted.
    Accepted(usize),
    /// Connection `n` was closed as its script says.
    Closed(usize),
}

/// Answers `request` with a `NO_EXCEPTION` reply holding `tag`, if it
/// expects a reply.
fn answer(stream: &mut TcpStream, request: &Message, tag: u32) -> bool {
    let Content::Request(r) = &request.content else {
        return false;
    };
    if r.header.response_flags == 0 {
        return true;
    }
    let header = ReplyHeader {
        request_id: r.header.request_id,
        reply_status: ReplyStatus::NoException,
        service_context: Default::default(),
    };
    let encoding = Encoding::native()
        .with_order(ByteOrder::Big)
        .with_version(request.version);
    let mut w = MessageWriter::reply(encoding, &header).unwrap();
    tag.encode(w.body()).unwrap();
    stream.write_all(&w.finish().unwrap()).is_ok()
}

/// A peer on a fresh port whose connection `n` answers `scripts[n].0`
/// requests (its number `n` as the result), then does `scripts[n].1`;
/// connections past the scripts serve. Its address, and what it saw.
fn peer(scripts: Vec<(usize, Then)>) -> (String, Receiver<Event>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let (events, seen) = channel();
    std::thread::spawn(move || {
        for (n, stream) in listener.incoming().enumerate() {
            let Ok(stream) = stream else { return };
            let script = scripts.get(n).copied().unwrap_or((usize::MAX, Then::Serve));
            let events = events.clone();
            std::thread::spawn(move || serve(stream, n, script, &events));
        }
    });
    (address, seen)
}

fn serve(mut stream: TcpStream, n: usize, (answered, then): (usize, Then), events: &Sender<Event>) {
    let _ = events.send(Event::Accepted(n));
    for _ in 0..answered {
        let Some(request) = try_read_message(&mut stream) else {
            return;
        };
        if !answer(&mut stream, &request, n as u32) {
            return;
        }
    }
    match then {
        Then::Serve => return,
        Then::Close => {}
        Then::CloseOrderly => {
            let close = Message::new(Version::V1_2, ByteOrder::Big, Content::CloseConnection);
            let _ = stream.write_all(&encode_message(&close).unwrap());
        }
        Then::CloseAfterReading => {
            let _ = try_read_message(&mut stream);
        }
    }
    drop(stream);
    let _ = events.send(Event::Closed(n));
}

/// Calls `who` (any operation the peer answers with its number).
fn who(object: &Object) -> Result<u32, rtorb::exception::SystemException> {
    object.invoke("who", |_| Ok(()))?.decode(u32::decode)
}

fn next(seen: &Receiver<Event>) -> Event {
    seen.recv_timeout(TIMEOUT).expect("the peer to go on")
}

const STRATEGIES: [ConnectionStrategy; 2] = [
    ConnectionStrategy::Exclusive,
    ConnectionStrategy::Multiplexed,
];

#[test]
fn a_connection_closed_while_idle_is_not_written_into() {
    for strategy in STRATEGIES {
        for then in [Then::Close, Then::CloseOrderly] {
            let (address, seen) = peer(vec![(1, then)]);
            let orb = client::with_strategy(strategy);
            let obj = orb
                .string_to_object(&format!("corbaloc:iiop:1.2@{address}/Raw"))
                .unwrap();
            assert_eq!(who(&obj).unwrap(), 0);
            assert_eq!(next(&seen), Event::Accepted(0));
            assert_eq!(next(&seen), Event::Closed(0));
            idle_past_reuse_check();
            // The first call after the close succeeds, on a new connection.
            assert_eq!(who(&obj), Ok(1), "{strategy:?}, {then:?}");
            assert_eq!(next(&seen), Event::Accepted(1));
            assert_eq!(who(&obj), Ok(1));
        }
    }
}

#[test]
fn a_first_connection_that_breaks_after_the_request_is_completed_maybe() {
    for strategy in STRATEGIES {
        let (address, seen) = peer(vec![(0, Then::CloseAfterReading)]);
        let orb = client::with_strategy(strategy);
        let obj = orb
            .string_to_object(&format!("corbaloc:iiop:1.2@{address}/Raw"))
            .unwrap();
        let e = who(&obj).unwrap_err();
        assert_eq!(e.kind(), Some(SystemExceptionKind::CommFailure), "{e}");
        assert_eq!(e.completed, CompletionStatus::Maybe);
        assert_eq!(next(&seen), Event::Accepted(0));
        assert_eq!(next(&seen), Event::Closed(0));
        // Not sent again: the next call is the next connection's first.
        assert_eq!(who(&obj), Ok(1));
        assert_eq!(next(&seen), Event::Accepted(1));
    }
}

#[test]
fn a_reused_connection_that_breaks_after_the_request_is_completed_maybe() {
    for strategy in STRATEGIES {
        let (address, seen) = peer(vec![(1, Then::CloseAfterReading)]);
        let orb = client::with_strategy(strategy);
        let obj = orb
            .string_to_object(&format!("corbaloc:iiop:1.2@{address}/Raw"))
            .unwrap();
        assert_eq!(who(&obj), Ok(0));
        let e = who(&obj).unwrap_err();
        assert_eq!(e.kind(), Some(SystemExceptionKind::CommFailure), "{e}");
        assert_eq!(e.completed, CompletionStatus::Maybe);
        assert_eq!(next(&seen), Event::Accepted(0));
        assert_eq!(next(&seen), Event::Closed(0));
        assert_eq!(who(&obj), Ok(1));
    }
}

#[test]
fn oneways_that_wait_go_on_a_new_connection_too() {
    for strategy in STRATEGIES {
        for sync in [SyncScope::WithServer, SyncScope::WithTarget] {
            let (address, seen) = peer(vec![(1, Then::Close)]);
            let orb = client::with_strategy(strategy);
            let obj = orb
                .string_to_object(&format!("corbaloc:iiop:1.2@{address}/Raw"))
                .unwrap();
            assert_eq!(who(&obj), Ok(0));
            assert_eq!(next(&seen), Event::Accepted(0));
            assert_eq!(next(&seen), Event::Closed(0));
            idle_past_reuse_check();
            obj.invoke_oneway_with("ping", sync, |_| Ok(()))
                .unwrap_or_else(|e| panic!("{strategy:?}, {sync:?}: {e}"));
            assert_eq!(next(&seen), Event::Accepted(1));
        }
    }
}
