//! At the connection cap the server sheds the connections of peers that
//! never completed a message before those of clients that use theirs,
//! under every server concurrency strategy: while an attacker holds the
//! cap with half GIOP headers and idle connections, and opens a new one
//! for every one the server sheds, a client that calls on its connection
//! keeps it (a raw one, which would take `CloseConnection` for a failed
//! call, is never shed), and an rtorb client calling throughout never
//! sees a call fail. When the only connection that may be shed is the
//! rtorb client's, it is shed between its calls, or as it writes one, and
//! its calls are sent again on a new connection: none is lost (a call
//! whose second connection is closed as well fails as not processed,
//! `COMPLETED_NO`, never `COMPLETED_MAYBE`).

use std::io::Write;
use std::net::TcpStream;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rtorb::exception::{CompletionStatus, SystemException};
use rtorb::minor::TRANSIENT_CONNECTION_CLOSED;
use rtorb::orb::{Orb, ServerStrategy};
use rtorb_giop::message::{Content, ReplyStatus};
use rtorb_test_support::cubit::{self, Cubit};
use rtorb_test_support::net::{closed_by_server, iiop_address, read_message};
use rtorb_test_support::wait::eventually;
use rtorb_test_support::wire::{cubit_request, giop_header};
use rtorb_test_support::{TIMEOUT, client, server};

/// The server's connection cap in these tests.
const CAP: usize = 8;
/// Connections the attacker opens in place of those shed.
const ROUNDS: usize = 40;

/// The server of the tests, a Cubit on it, and the server's address.
fn cubit_server(strategy: ServerStrategy) -> (Orb, String, String) {
    let server = server::capped(strategy, CAP);
    let ior = cubit::serve(&server);
    let address = iiop_address(&server);
    (server, ior, address)
}

/// A raw client that makes its calls on one connection and, like a
/// benchmark's probe, takes anything but the reply as a failed call.
struct RawClient {
    stream: TcpStream,
    id: u32,
}

impl RawClient {
    fn connect(address: &str) -> RawClient {
        let stream = TcpStream::connect(address).unwrap();
        stream.set_read_timeout(Some(TIMEOUT)).unwrap();
        RawClient { stream, id: 0 }
    }

    /// `cube_long(3)`: whether it was answered.
    fn call(&mut self) -> Result<(), String> {
        self.call_then(&[])
    }

    /// `cube_long(3)`, with `then` written after it in one write: whether
    /// it was answered.
    fn call_then(&mut self, then: &[u8]) -> Result<(), String> {
        self.id += 1;
        let mut request = cubit_request(self.id, "cube_long", |w| w.body().write_i32(3)).to_vec();
        request.extend_from_slice(then);
        self.stream
            .write_all(&request)
            .map_err(|e| format!("write: {e}"))?;
        let m = read_message(&mut self.stream);
        match &m.content {
            Content::Reply(r)
                if r.header.request_id == self.id
                    && r.header.reply_status == ReplyStatus::NoException =>
            {
                Ok(())
            }
            _ => Err(format!("{m:?}")),
        }
    }
}

/// An rtorb client calling `cube_long` until told to stop, on its own
/// thread; counts its calls, and panics on a failed one.
struct Caller {
    stop: Arc<AtomicBool>,
    calls: Arc<AtomicU64>,
    thread: std::thread::JoinHandle<Orb>,
}

impl Caller {
    /// An rtorb client whose calls must all succeed.
    fn start(ior: &str, what: &str) -> Caller {
        Caller::start_tolerating(ior, what, |_| false)
    }

    /// An rtorb client whose calls must succeed, or fail as `tolerated`
    /// says they may.
    fn start_tolerating(ior: &str, what: &str, tolerated: fn(&SystemException) -> bool) -> Caller {
        let client = client::orb();
        let cubit: Cubit = client.string_to_object(ior).unwrap().unchecked_narrow();
        assert_eq!(cubit.cube_long(2), Ok(8), "{what}: the first call");
        let stop = Arc::new(AtomicBool::new(false));
        let calls = Arc::new(AtomicU64::new(0));
        let (s, c, what) = (Arc::clone(&stop), Arc::clone(&calls), what.to_owned());
        let thread = std::thread::spawn(move || {
            let mut l = 0i32;
            while !s.load(Ordering::Relaxed) {
                l = (l + 1) % 1000;
                match cubit.cube_long(l) {
                    Ok(got) => assert_eq!(got, l * l * l, "{what}"),
                    Err(e) if tolerated(&e) => {}
                    Err(e) => panic!("{what}: a call of the rtorb client failed: {e:?}"),
                }
                c.fetch_add(1, Ordering::Relaxed);
            }
            client
        });
        Caller {
            stop,
            calls,
            thread,
        }
    }

    fn calls(&self) -> u64 {
        self.calls.load(Ordering::Relaxed)
    }

    /// Waits until it has made a few more calls.
    fn progresses(&self, what: &str) {
        let from = self.calls();
        assert!(
            eventually(TIMEOUT, || self.calls() >= from + 3),
            "{what}: the rtorb client makes no calls"
        );
    }

    fn finish(self) -> Orb {
        self.stop.store(true, Ordering::Relaxed);
        self.thread
            .join()
            .expect("no call of the rtorb client failed")
    }
}

#[test]
fn clients_keep_their_connections_while_an_attacker_holds_the_cap() {
    for strategy in ServerStrategy::ALL {
        let what = strategy.to_string();
        let (server, ior, address) = cubit_server(strategy);
        // The clients' connections are the oldest: they connect first.
        let mut probe = RawClient::connect(&address);
        probe.call().unwrap();
        let caller = Caller::start(&ior, &what);
        // The attacker takes the rest of the cap, each connection with
        // half a GIOP 1.2 header, or nothing.
        let opening =
            |i: usize| -> &'static [u8] { if i % 2 == 0 { b"GIOP\x01\x02" } else { b"" } };
        let mut held: Vec<TcpStream> = (0..CAP - 2)
            .map(|i| {
                let mut r = TcpStream::connect(&address).unwrap();
                r.write_all(opening(i)).unwrap();
                r
            })
            .collect();
        assert!(
            eventually(TIMEOUT, || server.stats().server_connections == CAP),
            "{what}: {} connections, not {CAP}",
            server.stats().server_connections
        );
        for round in 0..ROUNDS {
            // One more: the server sheds one of the attacker's.
            let mut r = TcpStream::connect(&address).unwrap();
            r.write_all(opening(round)).unwrap();
            let mut shed = None;
            assert!(
                eventually(TIMEOUT, || {
                    shed = held.iter_mut().position(closed_by_server);
                    shed.is_some()
                }),
                "{what}: round {round}: none of the attacker's connections was shed"
            );
            if let Some(i) = shed {
                held.swap_remove(i);
            }
            held.push(r);
            if let Err(e) = probe.call() {
                panic!("{what}: round {round}: the raw client's call failed: {e}");
            }
            caller.progresses(&what);
        }
        let client = caller.finish();
        assert!(server.stats().server_connections <= CAP, "{what}");
        client.shutdown();
        server.shutdown();
    }
}

/// A call sent twice, on two connections closed with `CloseConnection`
/// before the server read it (the second a new one refused at the cap,
/// where the only other connection was being served as it arrived): not
/// processed, and said so.
fn closed_twice(e: &SystemException) -> bool {
    e.minor == TRANSIENT_CONNECTION_CLOSED && e.completed == CompletionStatus::No
}

#[test]
fn a_client_shed_as_it_calls_sends_its_requests_again() {
    for strategy in ServerStrategy::ALL {
        let what = strategy.to_string();
        let (server, ior, address) = cubit_server(strategy);
        // All of the cap but one held by connections with a request in
        // progress (a whole message, then part of one): never shed.
        let mut busy: Vec<TcpStream> = (0..CAP - 1)
            .map(|i| {
                let mut r = RawClient::connect(&address);
                r.call_then(&giop_header(2, 1, 0, 64)).unwrap();
                assert!(
                    eventually(TIMEOUT, || server.stats().server_connections == i + 1),
                    "{what}"
                );
                r.stream
            })
            .collect();
        let caller = Caller::start_tolerating(&ior, &what, closed_twice);
        for round in 0..ROUNDS {
            // A new connection sheds the client's (between its calls, or
            // as it writes one), or, once the client has connected anew,
            // the attacker's previous one.
            // It is refused if the client's connection is being served
            // as it arrives.
            caller.progresses(&what);
            let mut r = TcpStream::connect(&address).unwrap();
            assert!(
                eventually(TIMEOUT, || closed_by_server(&mut r)),
                "{what}: round {round}: the attacker's connection stays open"
            );
        }
        let client = caller.finish();
        for b in busy.iter_mut() {
            assert!(
                !closed_by_server(b),
                "{what}: a connection with a request in progress was shed"
            );
        }
        client.shutdown();
        server.shutdown();
    }
}
