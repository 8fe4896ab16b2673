//! A recording TCP proxy, and the splitting of byte streams into GIOP
//! messages.

use std::fmt;
use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// The length of a GIOP message header.
pub const GIOP_HEADER_LEN: usize = 12;

/// Which way bytes travelled through the proxy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// From the connecting client to the target server.
    ClientToServer,
    /// From the target server back to the client.
    ServerToClient,
}

impl Direction {
    /// A short label: `c2s` or `s2c`.
    pub fn label(self) -> &'static str {
        match self {
            Direction::ClientToServer => "c2s",
            Direction::ServerToClient => "s2c",
        }
    }
}

/// One read from one side of one proxied connection, in the order the
/// proxy saw it.
#[derive(Debug, Clone)]
struct Chunk {
    connection: usize,
    direction: Direction,
    bytes: Vec<u8>,
}

#[derive(Debug, Default)]
struct Shared {
    chunks: Mutex<Vec<Chunk>>,
    pumps: Mutex<Vec<JoinHandle<()>>>,
    errors: Mutex<Vec<String>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A TCP proxy on `127.0.0.1` that forwards every accepted connection to a
/// target address and records the bytes flowing each way.
///
/// Dropping the proxy stops accepting; [`RecordingProxy::finish`] also
/// waits for the proxied connections to close and returns the
/// [`Recording`].
#[derive(Debug)]
pub struct RecordingProxy {
    addr: SocketAddr,
    shared: Arc<Shared>,
    stop: Arc<AtomicBool>,
    acceptor: Option<JoinHandle<()>>,
}

impl RecordingProxy {
    /// Listens on `127.0.0.1:0` and forwards each connection to `target`.
    pub fn start(target: SocketAddr) -> io::Result<Self> {
        let listener = TcpListener::bind(("127.0.0.1", 0))?;
        let addr = listener.local_addr()?;
        let shared = Arc::new(Shared::default());
        let stop = Arc::new(AtomicBool::new(false));
        let acceptor = {
            let shared = Arc::clone(&shared);
            let stop = Arc::clone(&stop);
            thread::spawn(move || accept_loop(&listener, target, &shared, &stop))
        };
        Ok(Self {
            addr,
            shared,
            stop,
            acceptor: Some(acceptor),
        })
    }

    /// The address clients should connect to.
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stops accepting, waits up to `timeout` for every proxied connection
    /// to be closed by its peers, and returns what was recorded.
    ///
    /// Connections still open at the deadline are reported as an error.
    pub fn finish(mut self, timeout: Duration) -> Result<Recording, String> {
        self.stop_accepting();
        let deadline = Instant::now() + timeout;
        loop {
            let pending = lock(&self.shared.pumps).iter().any(|h| !h.is_finished());
            if !pending {
                break;
            }
            if Instant::now() >= deadline {
                return Err(format!("proxied connections still open after {timeout:?}"));
            }
            thread::sleep(Duration::from_millis(5));
        }
        for h in lock(&self.shared.pumps).drain(..) {
            let _ = h.join();
        }
        let errors = lock(&self.shared.errors).clone();
        if !errors.is_empty() {
            return Err(format!("proxy errors: {}", errors.join("; ")));
        }
        Ok(Recording {
            chunks: std::mem::take(&mut *lock(&self.shared.chunks)),
        })
    }

    fn stop_accepting(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(h) = self.acceptor.take() {
            // Wake the blocking accept() with a connection of our own.
            let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
            let _ = h.join();
        }
    }
}

impl Drop for RecordingProxy {
    fn drop(&mut self) {
        self.stop_accepting();
    }
}

fn accept_loop(
    listener: &TcpListener,
    target: SocketAddr,
    shared: &Arc<Shared>,
    stop: &AtomicBool,
) {
    let mut connection = 0usize;
    for incoming in listener.incoming() {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let client = match incoming {
            Ok(s) => s,
            Err(e) => {
                lock(&shared.errors).push(format!("accept: {e}"));
                continue;
            }
        };
        let server = match TcpStream::connect_timeout(&target, Duration::from_secs(5)) {
            Ok(s) => s,
            Err(e) => {
                lock(&shared.errors).push(format!("connect to {target}: {e}"));
                continue;
            }
        };
        let _ = client.set_nodelay(true);
        let _ = server.set_nodelay(true);
        let pair = client
            .try_clone()
            .and_then(|c| Ok((c, server.try_clone()?)));
        let (client2, server2) = match pair {
            Ok(p) => p,
            Err(e) => {
                lock(&shared.errors).push(format!("clone socket: {e}"));
                continue;
            }
        };
        let up = {
            let shared = Arc::clone(shared);
            thread::spawn(move || {
                pump(
                    client,
                    server2,
                    connection,
                    Direction::ClientToServer,
                    &shared,
                )
            })
        };
        let down = {
            let shared = Arc::clone(shared);
            thread::spawn(move || {
                pump(
                    server,
                    client2,
                    connection,
                    Direction::ServerToClient,
                    &shared,
                )
            })
        };
        lock(&shared.pumps).extend([up, down]);
        connection += 1;
    }
}

fn pump(
    mut from: TcpStream,
    mut to: TcpStream,
    connection: usize,
    direction: Direction,
    shared: &Shared,
) {
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match from.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                let bytes = buf.get(..n).map(<[u8]>::to_vec).unwrap_or_default();
                // Record before forwarding, so the recorded order of the two
                // directions follows causality.
                lock(&shared.chunks).push(Chunk {
                    connection,
                    direction,
                    bytes: bytes.clone(),
                });
                if to.write_all(&bytes).is_err() {
                    break;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    let _ = to.shutdown(Shutdown::Write);
    let _ = from.shutdown(Shutdown::Read);
}

/// The bytes a [`RecordingProxy`] forwarded, in the order it read them.
#[derive(Debug, Clone, Default)]
pub struct Recording {
    chunks: Vec<Chunk>,
}

impl Recording {
    /// The number of proxied connections that carried any bytes.
    pub fn connections(&self) -> usize {
        let mut ids: Vec<usize> = self.chunks.iter().map(|c| c.connection).collect();
        ids.sort_unstable();
        ids.dedup();
        ids.len()
    }

    /// The whole byte stream of one direction (connections concatenated in
    /// the order they were accepted).
    pub fn stream(&self, direction: Direction) -> Vec<u8> {
        let mut ids: Vec<usize> = self.chunks.iter().map(|c| c.connection).collect();
        ids.sort_unstable();
        ids.dedup();
        let mut out = Vec::new();
        for id in ids {
            for c in self
                .chunks
                .iter()
                .filter(|c| c.connection == id && c.direction == direction)
            {
                out.extend_from_slice(&c.bytes);
            }
        }
        out
    }

    /// The GIOP messages of one direction, in order.
    pub fn messages(&self, direction: Direction) -> Result<Vec<Vec<u8>>, SplitError> {
        Ok(self
            .exchange()?
            .into_iter()
            .filter(|(d, _)| *d == direction)
            .map(|(_, m)| m)
            .collect())
    }

    /// Every GIOP message of both directions, ordered by when the proxy read
    /// its first byte (for a synchronous client this interleaves each
    /// request with its reply).
    pub fn exchange(&self) -> Result<Vec<(Direction, Vec<u8>)>, SplitError> {
        // (first chunk index, direction, message)
        let mut all: Vec<(usize, Direction, Vec<u8>)> = Vec::new();
        let mut ids: Vec<usize> = self.chunks.iter().map(|c| c.connection).collect();
        ids.sort_unstable();
        ids.dedup();
        for id in ids {
            for direction in [Direction::ClientToServer, Direction::ServerToClient] {
                let mut stream = Vec::new();
                // Byte offset in `stream` at which each chunk starts.
                let mut starts: Vec<(usize, usize)> = Vec::new();
                for (index, c) in self.chunks.iter().enumerate() {
                    if c.connection == id && c.direction == direction {
                        starts.push((stream.len(), index));
                        stream.extend_from_slice(&c.bytes);
                    }
                }
                let mut offset = 0usize;
                for message in split_giop_stream(&stream)? {
                    let chunk_index = starts
                        .iter()
                        .rev()
                        .find(|(start, _)| *start <= offset)
                        .map_or(0, |(_, index)| *index);
                    offset += message.len();
                    all.push((chunk_index, direction, message));
                }
            }
        }
        all.sort_by_key(|(index, _, _)| *index);
        Ok(all.into_iter().map(|(_, d, m)| (d, m)).collect())
    }
}

/// Why a byte stream could not be split into GIOP messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SplitError {
    /// The bytes at `offset` do not start with the magic `GIOP`.
    BadMagic {
        /// Offset of the bad header in the stream.
        offset: usize,
    },
    /// The stream ends inside the message starting at `offset`.
    Truncated {
        /// Offset of the incomplete message in the stream.
        offset: usize,
        /// Bytes the message needs (header included), when known.
        needed: usize,
        /// Bytes present from `offset` to the end of the stream.
        available: usize,
    },
}

impl fmt::Display for SplitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SplitError::BadMagic { offset } => {
                write!(f, "no GIOP magic at stream offset {offset}")
            }
            SplitError::Truncated {
                offset,
                needed,
                available,
            } => write!(
                f,
                "stream ends inside the message at offset {offset}: needs {needed} bytes, has {available}"
            ),
        }
    }
}

impl std::error::Error for SplitError {}

/// Splits a byte stream into whole GIOP messages (12-byte header plus the
/// body size the header declares, in the byte order its flags give).
///
/// The messages are slices of the input copied out; nothing is allocated
/// from a declared size alone. An empty stream yields no messages.
pub fn split_giop_stream(stream: &[u8]) -> Result<Vec<Vec<u8>>, SplitError> {
    let mut out = Vec::new();
    let mut offset = 0usize;
    while offset < stream.len() {
        let rest = stream.get(offset..).unwrap_or_default();
        let header = match rest.get(..GIOP_HEADER_LEN) {
            Some(h) => h,
            None => {
                return Err(SplitError::Truncated {
                    offset,
                    needed: GIOP_HEADER_LEN,
                    available: rest.len(),
                });
            }
        };
        if header.get(..4) != Some(b"GIOP".as_slice()) {
            return Err(SplitError::BadMagic { offset });
        }
        let body_len = crate::peek::header_body_len(header).unwrap_or(0);
        let total = usize::try_from(body_len)
            .ok()
            .and_then(|b| b.checked_add(GIOP_HEADER_LEN))
            .unwrap_or(usize::MAX);
        match rest.get(..total) {
            Some(message) => {
                out.push(message.to_vec());
                offset += total;
            }
            None => {
                return Err(SplitError::Truncated {
                    offset,
                    needed: total,
                    available: rest.len(),
                });
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(little: bool, msg_type: u8, body: &[u8]) -> Vec<u8> {
        let mut m = b"GIOP\x01\x02".to_vec();
        m.push(u8::from(little));
        m.push(msg_type);
        let len = u32::try_from(body.len()).expect("small body");
        m.extend_from_slice(&if little {
            len.to_le_bytes()
        } else {
            len.to_be_bytes()
        });
        m.extend_from_slice(body);
        m
    }

    #[test]
    fn splits_both_byte_orders() {
        let a = message(true, 0, &[1, 2, 3, 4, 5]);
        let b = message(false, 1, &[9; 8]);
        let c = message(false, 5, &[]);
        let stream = [a.clone(), b.clone(), c.clone()].concat();
        assert_eq!(split_giop_stream(&stream), Ok(vec![a, b, c]));
    }

    #[test]
    fn reports_truncation_and_bad_magic() {
        let a = message(true, 0, &[1, 2, 3, 4, 5]);
        let cut = a.get(..a.len() - 1).expect("non-empty");
        assert_eq!(
            split_giop_stream(cut),
            Err(SplitError::Truncated {
                offset: 0,
                needed: 17,
                available: 16
            })
        );
        assert_eq!(
            split_giop_stream(b"GIOP\x01\x02\x01"),
            Err(SplitError::Truncated {
                offset: 0,
                needed: 12,
                available: 7
            })
        );
        let mut bad = a.clone();
        bad.extend_from_slice(b"GIOX\x01\x02\x01\x00\x00\x00\x00\x00");
        assert_eq!(
            split_giop_stream(&bad),
            Err(SplitError::BadMagic { offset: 17 })
        );
    }

    #[test]
    fn huge_declared_size_is_truncation_not_allocation() {
        let m = b"GIOP\x01\x02\x00\x00\xff\xff\xff\xff".to_vec();
        assert!(matches!(
            split_giop_stream(&m),
            Err(SplitError::Truncated { offset: 0, .. })
        ));
    }

    #[test]
    fn proxy_records_both_directions_in_order() {
        let server = TcpListener::bind(("127.0.0.1", 0)).expect("bind");
        let target = server.local_addr().expect("addr");
        let echo = thread::spawn(move || {
            let (mut s, _) = server.accept().expect("accept");
            let mut buf = [0u8; 17];
            s.read_exact(&mut buf).expect("read request");
            s.write_all(&message(false, 1, &[7; 4]))
                .expect("write reply");
        });
        let proxy = RecordingProxy::start(target).expect("proxy");
        let mut c = TcpStream::connect(proxy.local_addr()).expect("connect");
        let request = message(true, 0, &[1, 2, 3, 4, 5]);
        c.write_all(&request).expect("write");
        let mut reply = [0u8; 16];
        c.read_exact(&mut reply).expect("reply");
        drop(c);
        echo.join().expect("echo thread");
        let rec = proxy.finish(Duration::from_secs(5)).expect("finish");
        assert_eq!(rec.connections(), 1);
        let ex = rec.exchange().expect("split");
        assert_eq!(
            ex,
            vec![
                (Direction::ClientToServer, request.clone()),
                (Direction::ServerToClient, reply.to_vec())
            ]
        );
        assert_eq!(rec.messages(Direction::ClientToServer), Ok(vec![request]));
    }
}
