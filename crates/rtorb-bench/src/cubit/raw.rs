//! The raw-socket floor: a client and a server that exchange, over a
//! plain TCP or Unix-domain socket, messages of exactly the octets of each
//! operation's GIOP 1.2 request and reply, with no ORB in between.
//!
//! Per operation the client opens a connection and sends a setup: the
//! request's length and the reply's (two little-endian `u32`s) and the
//! reply's octets. The server then answers every request of that length
//! with those reply octets, until the client closes. The client checks
//! every reply against the octets it sent in the setup.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::net::{UnixListener, UnixStream};
use std::time::Instant;

use crate::cubit_client::warmup_calls;
use crate::cubit_ops::{self, Op, giop_messages};
use crate::stats::{OpStats, Recorder};
use rtorb_test_support::alloc::thread_allocations;

/// The largest message the raw server accepts.
const MAX_MESSAGE: usize = 1 << 20;

/// A connected socket of either kind.
trait Duplex: Read + Write + Send {}
impl<T: Read + Write + Send> Duplex for T {}

/// Where a raw server listens: `tcp://HOST:PORT` or `unix:///PATH`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum RawEndpoint {
    /// A TCP address.
    Tcp(String),
    /// A Unix-domain socket path.
    Unix(String),
}

impl RawEndpoint {
    /// Parses `tcp://HOST:PORT` or `unix:///PATH`.
    pub(crate) fn parse(s: &str) -> Result<RawEndpoint, String> {
        if let Some(a) = s.strip_prefix("tcp://") {
            Ok(RawEndpoint::Tcp(a.to_owned()))
        } else if let Some(p) = s.strip_prefix("unix://") {
            Ok(RawEndpoint::Unix(p.to_owned()))
        } else {
            Err(format!(
                "raw endpoint {s:?}: want tcp://HOST:PORT or unix:///PATH"
            ))
        }
    }

    fn connect(&self) -> Result<Box<dyn Duplex>, String> {
        match self {
            RawEndpoint::Tcp(a) => {
                let s = TcpStream::connect(a).map_err(|e| format!("connect {a}: {e}"))?;
                s.set_nodelay(true).map_err(|e| e.to_string())?;
                Ok(Box::new(s))
            }
            RawEndpoint::Unix(p) => Ok(Box::new(
                UnixStream::connect(p).map_err(|e| format!("connect {p}: {e}"))?,
            )),
        }
    }
}

/// Serves one connection: setup, then request/reply until the client
/// closes. A malformed setup closes the connection.
fn serve(mut s: impl Read + Write) {
    let mut setup = [0u8; 8];
    if s.read_exact(&mut setup).is_err() {
        return;
    }
    let request_len = u32::from_le_bytes([setup[0], setup[1], setup[2], setup[3]]) as usize;
    let reply_len = u32::from_le_bytes([setup[4], setup[5], setup[6], setup[7]]) as usize;
    if request_len > MAX_MESSAGE || reply_len > MAX_MESSAGE {
        return;
    }
    let mut reply = vec![0u8; reply_len];
    let mut request = vec![0u8; request_len];
    if s.read_exact(&mut reply).is_err() {
        return;
    }
    while s.read_exact(&mut request).is_ok() {
        if s.write_all(&reply).is_err() {
            return;
        }
    }
}

/// Runs a raw server on `endpoint` until killed; prints `listening
/// ENDPOINT` (with the actual port) when ready.
pub(crate) fn run_server(endpoint: &str) -> Result<String, String> {
    let ready = |e: String| {
        println!("listening {e}");
        let _ = std::io::stdout().flush();
    };
    match RawEndpoint::parse(endpoint)? {
        RawEndpoint::Tcp(a) => {
            let l = TcpListener::bind(&a).map_err(|e| format!("bind {a}: {e}"))?;
            ready(format!(
                "tcp://{}",
                l.local_addr().map_err(|e| e.to_string())?
            ));
            for s in l.incoming().flatten() {
                let _ = s.set_nodelay(true);
                std::thread::spawn(move || serve(s));
            }
        }
        RawEndpoint::Unix(p) => {
            let _ = std::fs::remove_file(&p);
            let l = UnixListener::bind(&p).map_err(|e| format!("bind {p}: {e}"))?;
            ready(format!("unix://{p}"));
            for s in l.incoming().flatten() {
                std::thread::spawn(move || serve(s));
            }
        }
    }
    Ok(String::new())
}

/// Measures one operation's message sizes.
fn measure(endpoint: &RawEndpoint, op: &Op, calls: u64) -> Result<OpStats, String> {
    let (request, reply) = giop_messages(op)?;
    let mut s = endpoint.connect()?;
    let io = |e: std::io::Error| format!("{}: {e}", op.name);
    let mut setup = Vec::with_capacity(8 + reply.len());
    setup.extend_from_slice(&(request.len() as u32).to_le_bytes());
    setup.extend_from_slice(&(reply.len() as u32).to_le_bytes());
    setup.extend_from_slice(&reply);
    s.write_all(&setup).map_err(io)?;
    let mut got = vec![0u8; reply.len()];
    for _ in 0..warmup_calls(calls) {
        s.write_all(&request).map_err(io)?;
        s.read_exact(&mut got).map_err(io)?;
    }
    let mut recorder = Recorder::new();
    let allocs = thread_allocations();
    let start = Instant::now();
    for i in 0..calls {
        let t = Instant::now();
        s.write_all(&request).map_err(io)?;
        s.read_exact(&mut got).map_err(io)?;
        recorder.record(t.elapsed());
        if got[..] != reply[..] {
            return Err(format!("{}: wrong reply in call {i}", op.name));
        }
    }
    let total = start.elapsed();
    let mut stats = recorder.stats(total);
    stats.allocs = Some((thread_allocations() - allocs) as f64 / calls.max(1) as f64);
    stats.locks = None;
    Ok(stats)
}

/// Measures every operation's exchange against a raw server.
pub(crate) fn run_client(
    endpoint: &str,
    calls: u64,
    ops: &[String],
) -> Result<Vec<(&'static str, OpStats)>, String> {
    let endpoint = RawEndpoint::parse(endpoint)?;
    cubit_ops::select(ops)?
        .into_iter()
        .map(|op| Ok((op.name, measure(&endpoint, op, calls)?)))
        .collect()
}

/// Reads a raw server's `listening ENDPOINT` line.
pub(crate) fn parse_listening(line: &str) -> Option<&str> {
    line.strip_prefix("listening ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_exchange_in_process_over_tcp_and_unix() {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let tcp = format!("tcp://{}", l.local_addr().unwrap());
        std::thread::spawn(move || {
            for s in l.incoming().flatten() {
                std::thread::spawn(move || serve(s));
            }
        });
        let path = std::env::temp_dir().join(format!("rtorb-raw-test-{}.sock", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let u = UnixListener::bind(&path).unwrap();
        std::thread::spawn(move || {
            for s in u.incoming().flatten() {
                std::thread::spawn(move || serve(s));
            }
        });
        for e in [tcp, format!("unix://{}", path.display())] {
            let results = run_client(&e, 50, &[]).unwrap();
            assert_eq!(results.len(), cubit_ops::OPS.len());
            for (name, s) in &results {
                assert_eq!(s.calls, 50, "{e} {name}");
                assert!(s.mean_us > 0.0 && s.p50_us <= s.max_us, "{e} {name}: {s:?}");
            }
        }
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn raw_endpoints_parse() {
        assert_eq!(
            RawEndpoint::parse("tcp://127.0.0.1:9"),
            Ok(RawEndpoint::Tcp("127.0.0.1:9".to_owned()))
        );
        assert_eq!(
            RawEndpoint::parse("unix:///tmp/x.sock"),
            Ok(RawEndpoint::Unix("/tmp/x.sock".to_owned()))
        );
        let e = RawEndpoint::parse("iiop://127.0.0.1:9").unwrap_err();
        assert!(e.contains("want tcp://HOST:PORT or unix:///PATH"), "{e}");
    }

    #[test]
    fn a_setup_beyond_the_limit_closes_the_connection() {
        let mut input = std::io::Cursor::new(vec![0xff; 8]);
        let mut sink = Vec::new();
        struct Both<'a>(&'a mut std::io::Cursor<Vec<u8>>, &'a mut Vec<u8>);
        impl Read for Both<'_> {
            fn read(&mut self, b: &mut [u8]) -> std::io::Result<usize> {
                self.0.read(b)
            }
        }
        impl Write for Both<'_> {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.1.write(b)
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        serve(Both(&mut input, &mut sink));
        assert!(sink.is_empty());
    }
}
