//! The threads of the hostile peers: each owns its sockets, does one
//! thing to the server (hold connections, send what it must refuse, never
//! read), counts what it did and saw, and runs until told to stop.

use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use rtorb_giop::header::HEADER_LEN;
use rtorb_giop::{MessageHeader, MsgType};
use serde_json::{Map, Value};

use crate::giop_client::{self, MAX_REPLY};
use crate::stats::Recorder;
use crate::stop::Stop;

/// What an attacker thread reports: counts by name.
pub(crate) type Details = Map<String, Value>;

/// How long one connect may take.
pub(super) const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);

/// How long a blocking read or write waits before the thread looks at
/// its stop flag again.
const POLL: Duration = Duration::from_millis(200);

/// How often a connection flood looks for connections the server
/// closed, and opens them again.
const SWEEP: Duration = Duration::from_secs(1);

/// The octets a garbage connection sends over and over.
pub(super) const GARBAGE_LEN: usize = 16 * 1024;

/// `len` pseudo-random octets (xorshift), none of them the start of a
/// GIOP header.
pub(super) fn garbage(len: usize) -> Vec<u8> {
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut out: Vec<u8> = (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect();
    if let Some(first) = out.first_mut() {
        *first = b'X';
    }
    out
}

pub(super) fn count(d: &mut Details, key: &str, v: u64) {
    let sum = d.get(key).and_then(Value::as_u64).unwrap_or(0) + v;
    d.insert(key.to_owned(), sum.into());
}

fn is_timeout(e: &std::io::Error) -> bool {
    matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut)
}

/// Makes closing `s` reset the connection: the attacker's ports do not
/// linger in TIME_WAIT, and the next scenario finds them free.
fn abortive(s: &TcpStream) {
    let _ = rustix::net::sockopt::set_socket_linger(s, Some(Duration::ZERO));
}

pub(super) fn set_timeouts(s: &TcpStream) -> std::io::Result<()> {
    abortive(s);
    s.set_read_timeout(Some(POLL))?;
    s.set_write_timeout(Some(POLL))
}

/// `n` connections each send the start of a request announcing a huge
/// body, then `body` octets of it, round robin, and hold on.
pub(super) fn memory_flood(
    stop: &Stop,
    address: SocketAddr,
    start: &[u8],
    n: usize,
    body: usize,
) -> Details {
    let mut d = Details::new();
    let zeros = vec![0u8; 64 * 1024];
    // Each connection and the octets it has still to send.
    let mut conns: Vec<(TcpStream, usize, bool)> = Vec::new();
    for _ in 0..n {
        if stop.is_set() {
            break;
        }
        match TcpStream::connect_timeout(&address, CONNECT_TIMEOUT) {
            Ok(s) if s.set_nonblocking(true).is_ok() => {
                abortive(&s);
                conns.push((s, start.len() + body, true));
            }
            _ => count(&mut d, "connect_failures", 1),
        }
    }
    count(&mut d, "connections", conns.len() as u64);
    let mut sent = 0u64;
    while !stop.is_set() && conns.iter().any(|(_, left, open)| *open && *left > 0) {
        let mut progress = false;
        for (s, left, open) in conns.iter_mut().filter(|(_, l, o)| *o && *l > 0) {
            let total = start.len() + body;
            let at = total - *left;
            let chunk = if at < start.len() {
                &start[at..]
            } else {
                &zeros[..(*left).min(zeros.len())]
            };
            match s.write(chunk) {
                Ok(k) => {
                    *left -= k;
                    sent += k as u64;
                    progress = true;
                }
                Err(e) if is_timeout(&e) => {}
                Err(_) => {
                    *open = false;
                    count(&mut d, "closed_by_server", 1);
                }
            }
        }
        if !progress {
            stop.wait(Duration::from_millis(1));
        }
    }
    count(&mut d, "octets_sent", sent);
    // Hold the connections until the end, then note what the server
    // answered and which connections it closed.
    while !stop.wait(POLL) {}
    for (s, _, _) in conns.iter_mut().filter(|(_, _, o)| *o) {
        if !note_answer(s, &mut d) {
            count(&mut d, "closed_by_server", 1);
        }
    }
    d
}

/// Reads what the server sent on `s` (non-blocking) and counts the type
/// of its first message (`answer MessageError`); whether the connection
/// is still open.
fn note_answer(s: &mut TcpStream, d: &mut Details) -> bool {
    let mut buf = [0u8; 4096];
    let mut first = true;
    loop {
        match s.read(&mut buf) {
            Ok(0) => return false,
            Ok(k) => {
                if first {
                    let what = match MessageHeader::parse(&buf[..k], u32::MAX).map(|h| h.msg_type) {
                        Err(_) => "not GIOP",
                        Ok(MsgType::Reply) => "Reply",
                        Ok(MsgType::CloseConnection) => "CloseConnection",
                        Ok(MsgType::MessageError) => "MessageError",
                        Ok(_) => "other",
                    };
                    count(d, &format!("answer {what}"), 1);
                    first = false;
                }
            }
            Err(e) if is_timeout(&e) => return true,
            Err(_) => return false,
        }
    }
}

/// Opens one connection of a flood, sending `opening`.
fn open(address: SocketAddr, opening: &[u8]) -> std::io::Result<TcpStream> {
    let mut s = TcpStream::connect_timeout(&address, CONNECT_TIMEOUT)?;
    abortive(&s);
    if !opening.is_empty() {
        s.set_write_timeout(Some(POLL))?;
        s.write_all(opening)?;
    }
    s.set_nonblocking(true)?;
    Ok(s)
}

/// The connections a flood's threads hold together, and the most they
/// held at once.
#[derive(Default)]
pub(super) struct Held {
    now: AtomicU64,
    peak: AtomicU64,
}

impl Held {
    /// One thread's count went from `was` to `is`.
    fn change(&self, was: u64, is: u64) {
        let now = if is >= was {
            self.now.fetch_add(is - was, Ordering::Relaxed) + (is - was)
        } else {
            self.now.fetch_sub(was - is, Ordering::Relaxed) - (was - is)
        };
        self.peak.fetch_max(now, Ordering::Relaxed);
    }

    pub(super) fn peak(&self) -> u64 {
        self.peak.load(Ordering::Relaxed)
    }
}

/// Holds `n` connections that send `opening` (nothing, or half a GIOP
/// header) and nothing more; every second, opens again those the server
/// closed.
pub(super) fn connection_flood(
    stop: &Stop,
    address: SocketAddr,
    opening: &[u8],
    n: usize,
    held: &Held,
) -> Details {
    let mut d = Details::new();
    let mut conns: Vec<Option<TcpStream>> = Vec::with_capacity(n);
    let mut mine = 0u64;
    while conns.len() < n && !stop.is_set() {
        match open(address, opening) {
            Ok(s) => {
                conns.push(Some(s));
                held.change(mine, mine + 1);
                mine += 1;
            }
            Err(e) => {
                count(&mut d, "connect_failures", 1);
                if e.raw_os_error() == Some(24) {
                    // EMFILE: the attacker's own limit.
                    d.insert("attacker_descriptor_limit_reached".to_owned(), true.into());
                    break;
                }
                conns.push(None);
            }
        }
    }
    let mut reopen = false;
    loop {
        let now = sweep(stop, address, opening, &mut conns, &mut d, reopen);
        held.change(mine, now);
        mine = now;
        if !reopen {
            if stop.is_set() {
                break;
            }
            reopen = true;
        }
        if stop.wait(SWEEP) {
            // A last look, opening nothing.
            reopen = false;
        }
    }
    count(&mut d, "held_at_end", mine);
    d
}

/// Notes the connections of a flood the server closed (opening them
/// again when `reopen`, unless stopped); returns how many are open.
fn sweep(
    stop: &Stop,
    address: SocketAddr,
    opening: &[u8],
    conns: &mut [Option<TcpStream>],
    d: &mut Details,
    reopen: bool,
) -> u64 {
    let mut buf = [0u8; 256];
    let mut held = 0u64;
    for slot in conns.iter_mut() {
        let closed = match slot.as_mut().map(|s| s.read(&mut buf)) {
            None => true,
            Some(Ok(0)) => {
                count(d, "closed_by_server", 1);
                true
            }
            Some(Ok(_)) => {
                count(d, "server_messages", 1);
                false
            }
            Some(Err(e)) if is_timeout(&e) => false,
            Some(Err(_)) => {
                count(d, "closed_by_server", 1);
                true
            }
        };
        if closed {
            *slot = None;
            if reopen && !stop.is_set() {
                match open(address, opening) {
                    Ok(s) => {
                        count(d, "reconnects", 1);
                        *slot = Some(s);
                    }
                    Err(_) => count(d, "connect_failures", 1),
                }
            }
        }
        held += u64::from(slot.is_some());
    }
    held
}

/// Sends `cube_long` requests back to back, every write ending inside a
/// message, with at most `WINDOW` unanswered.
pub(super) fn pipeline_writer(
    stop: &Stop,
    mut s: TcpStream,
    key: &Bytes,
    replies: &AtomicU64,
) -> Details {
    const WINDOW: u64 = 512;
    const BATCH: u32 = 64;
    let mut d = Details::new();
    let mut pending: Vec<u8> = Vec::new();
    let (mut written, mut queued, mut id) = (0u64, 0u64, 0u32);
    let mut message_len = 0u64;
    'run: while !stop.is_set() {
        if pending.len() < 4096 && queued - replies.load(Ordering::Relaxed) < WINDOW {
            for _ in 0..BATCH {
                id = id.wrapping_add(1);
                match giop_client::cube_long(id, key, 3) {
                    Ok(m) => {
                        message_len = m.len() as u64;
                        pending.extend_from_slice(&m);
                        queued += 1;
                    }
                    Err(e) => {
                        d.insert("error".to_owned(), e.into());
                        break 'run;
                    }
                }
            }
        }
        let mut n = pending.len().min(1024);
        // End inside a message, never at its end.
        if message_len > 0 && (written + n as u64) % message_len == 0 {
            n -= 1;
        }
        if n == 0 {
            stop.wait(Duration::from_millis(1));
            continue;
        }
        match s.write(&pending[..n]) {
            Ok(k) => {
                pending.drain(..k);
                written += k as u64;
            }
            Err(e) if is_timeout(&e) => {}
            Err(_) => break,
        }
    }
    let sent = written.checked_div(message_len).unwrap_or(0);
    count(&mut d, "requests_sent", sent);
    d
}

/// Reads the pipelining client's replies until the attack ends or the
/// server cuts the connection off.
pub(super) fn pipeline_reader(stop: &Stop, mut s: TcpStream, replies: &AtomicU64) -> Details {
    let mut d = Details::new();
    let started = Instant::now();
    let mut buf: Vec<u8> = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    let mut cut_off = None;
    while !stop.is_set() && cut_off.is_none() {
        match s.read(&mut chunk) {
            Ok(0) => cut_off = Some("closed"),
            Ok(k) => buf.extend_from_slice(&chunk[..k]),
            Err(e) if is_timeout(&e) => {}
            Err(_) => cut_off = Some("reset"),
        }
        while buf.len() >= HEADER_LEN {
            let Ok(header) = MessageHeader::parse(&buf, MAX_REPLY) else {
                cut_off = Some("not GIOP");
                break;
            };
            let size = header.size as usize;
            if buf.len() < HEADER_LEN + size {
                break;
            }
            match header.msg_type {
                MsgType::Reply => {
                    replies.fetch_add(1, Ordering::Relaxed);
                }
                MsgType::CloseConnection => cut_off = Some("CloseConnection"),
                MsgType::MessageError => cut_off = Some("MessageError"),
                _ => {}
            }
            buf.drain(..HEADER_LEN + size);
        }
    }
    count(&mut d, "replies", replies.load(Ordering::Relaxed));
    d.insert("cut_off".to_owned(), cut_off.is_some().into());
    if let Some(how) = cut_off {
        d.insert("cut_off_by".to_owned(), how.into());
        d.insert(
            "cut_off_after_ms".to_owned(),
            (started.elapsed().as_millis() as u64).into(),
        );
    }
    d
}

/// Opens and closes connections as fast as they are accepted, timing
/// each connect.
pub(super) fn churn(stop: &Stop, address: SocketAddr, times: &Mutex<Recorder>) -> Details {
    let mut d = Details::new();
    let (mut ok, mut failed) = (0u64, 0u64);
    while !stop.is_set() {
        let t = Instant::now();
        match TcpStream::connect_timeout(&address, CONNECT_TIMEOUT) {
            Ok(s) => {
                let elapsed = t.elapsed();
                times
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .record(elapsed);
                abortive(&s);
                ok += 1;
            }
            Err(_) => failed += 1,
        }
    }
    count(&mut d, "connects", ok);
    count(&mut d, "connect_failures", failed);
    d
}

/// On one connection, sends `first` and then `each` over and over,
/// never reading, until the attack ends; connects again when the server
/// closes the connection. Counts the `each` sent whole as `what`.
pub(super) fn send_forever(
    stop: &Stop,
    address: SocketAddr,
    first: &[u8],
    each: &[u8],
    what: &str,
) -> Details {
    let mut d = Details::new();
    let mut whole = 0u64;
    let mut conn: Option<TcpStream> = None;
    // Octets of `first` then `each` sent so far on this connection.
    let mut at = 0usize;
    while !stop.is_set() {
        let Some(s) = conn.as_mut() else {
            match TcpStream::connect_timeout(&address, CONNECT_TIMEOUT) {
                Ok(s) if set_timeouts(&s).is_ok() => {
                    count(&mut d, "connections", 1);
                    conn = Some(s);
                    at = 0;
                }
                _ => {
                    count(&mut d, "connect_failures", 1);
                    stop.wait(Duration::from_millis(50));
                }
            }
            continue;
        };
        let chunk = if at < first.len() {
            &first[at..]
        } else {
            &each[(at - first.len()) % each.len().max(1)..]
        };
        match s.write(chunk) {
            Ok(k) => {
                at += k;
                if at >= first.len() + each.len() {
                    at -= each.len();
                    whole += 1;
                }
            }
            Err(e) if is_timeout(&e) => {}
            Err(_) => {
                count(&mut d, "closed_by_server", 1);
                conn = None;
            }
        }
    }
    count(&mut d, what, whole);
    d
}
