//! Addresses and raw GIOP for tests that talk to an ORB over sockets.

use std::io::Read;
use std::sync::atomic::{AtomicUsize, Ordering};

use rtorb::orb::Orb;
use rtorb_giop::decode_message;
use rtorb_giop::message::Message;

/// A Unix socket path in the temporary directory that no other call, test
/// process or `tag` gets.
pub fn socket_path(tag: &str) -> String {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir()
        .join(format!("rtorb-{tag}-{}-{n}.sock", std::process::id()))
        .display()
        .to_string()
}

/// A TCP port on 127.0.0.1 that was free a moment ago (another process
/// may take it before the test binds it).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// `host:port` of the first endpoint of `orb`, an IIOP one.
pub fn iiop_address(orb: &Orb) -> String {
    endpoint_address(&orb.endpoints()[0])
}

/// The address in an endpoint as [`Orb::endpoints`] gives it: `host:port`
/// of `iiop://[V@]host:port[/?options]`, the socket path of
/// `uiop://[V@]/path[?options]`.
pub fn endpoint_address(endpoint: &str) -> String {
    let rest = endpoint.split_once("://").map_or(endpoint, |(_, r)| r);
    // A GIOP version (`1.1@`), not an `@` inside a socket path.
    let rest = match rest.split_once('@') {
        Some((v, a)) if v.len() == 3 && v.as_bytes()[1] == b'.' => a,
        _ => rest,
    };
    let rest = rest.split('?').next().unwrap_or(rest);
    if endpoint.starts_with("uiop") {
        rest.to_owned()
    } else {
        rest.trim_end_matches('/').to_owned()
    }
}

/// Reads one whole GIOP message from `stream` and decodes it; panics on
/// a short stream or a message that does not decode.
pub fn read_message(stream: &mut impl Read) -> Message {
    try_read_message(stream).expect("a whole GIOP message that decodes")
}

/// Reads one whole GIOP message from `stream` and decodes it; `None` at
/// the end of the stream, on a short one or a message that does not
/// decode.
pub fn try_read_message(stream: &mut impl Read) -> Option<Message> {
    let mut header = [0u8; 12];
    stream.read_exact(&mut header).ok()?;
    let b = [header[8], header[9], header[10], header[11]];
    let size = if header[6] & 1 == 1 {
        u32::from_le_bytes(b)
    } else {
        u32::from_be_bytes(b)
    };
    let mut whole = header.to_vec();
    whole.resize(12 + size as usize, 0);
    stream.read_exact(&mut whole[12..]).ok()?;
    decode_message(whole.into()).ok()
}

/// Whether the server closed `s` (it read the end, or `CloseConnection`
/// and then the end), looking without waiting: `s` is made non-blocking.
pub fn closed_by_server(s: &mut std::net::TcpStream) -> bool {
    s.set_nonblocking(true).expect("a non-blocking socket");
    let mut buf = [0u8; 256];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return false,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return true,
        }
    }
}

/// A client that speaks GIOP by hand on one IIOP connection to an ORB:
/// what a test writes to [`RawGiopClient::stream`] goes on the wire as it
/// is, and what the server sends comes back decoded, a message at a time,
/// however the server's writes were cut.
pub struct RawGiopClient {
    /// The connection, for the test to write to.
    pub stream: std::net::TcpStream,
    decoder: rtorb_giop::FrameDecoder,
}

impl RawGiopClient {
    /// Connects to the first endpoint of `orb` (an IIOP one); a read
    /// waits at most [`crate::TIMEOUT`].
    pub fn connect(orb: &Orb) -> RawGiopClient {
        let stream = std::net::TcpStream::connect(iiop_address(orb)).expect("connect to the ORB");
        stream
            .set_read_timeout(Some(crate::TIMEOUT))
            .expect("a read timeout");
        RawGiopClient {
            stream,
            decoder: rtorb_giop::FrameDecoder::new(rtorb_giop::FrameProtocol::Giop),
        }
    }

    /// The next message from the server, or `None` once it has closed
    /// the connection (the end of the stream, or a reset). Panics, naming
    /// `what`, on bytes that are not GIOP, and when the server neither
    /// sends a message nor closes within [`crate::TIMEOUT`].
    pub fn next(&mut self, what: &str) -> Option<Message> {
        let mut buf = [0u8; 4096];
        loop {
            let frame = self.decoder.next_frame();
            if let Some(frame) = frame.unwrap_or_else(|e| panic!("{what}: not GIOP: {e}")) {
                return Some(
                    decode_message(frame).unwrap_or_else(|e| panic!("{what}: not GIOP: {e}")),
                );
            }
            match self.stream.read(&mut buf) {
                Ok(0) => return None,
                Ok(n) => self
                    .decoder
                    .push(&buf[..n])
                    .unwrap_or_else(|e| panic!("{what}: not GIOP: {e}")),
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return None,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => panic!("{what}: neither a message nor a close from the server: {e}"),
            }
        }
    }
}
