//! Dissecting GIOP messages with tshark.
//!
//! The messages are sent over a real loopback TCP connection while tshark
//! captures it to a temporary file; the file is then dissected with the
//! connection's port mapped to GIOP. Capturing needs root or the capture
//! capabilities (CAP_NET_RAW, CAP_NET_ADMIN) for `dumpcap`.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::process::{ChildGuard, line_channel};
use crate::proxy::Direction;

/// How long to wait for tshark to start capturing.
const START_TIMEOUT: Duration = Duration::from_secs(20);

/// A temporary file removed on drop.
#[derive(Debug)]
struct TempFile(PathBuf);

impl TempFile {
    fn new(suffix: &str) -> Self {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let name = format!(
            "rtorb-interop-{}-{}-{nanos}{suffix}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::SeqCst)
        );
        Self(std::env::temp_dir().join(name))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// A capture file of one loopback TCP conversation on `port`.
#[derive(Debug)]
struct PcapCapture {
    file: TempFile,
    port: u16,
}

impl PcapCapture {
    fn tshark_read(&self, extra: &[&str]) -> Result<String, String> {
        tshark_read_file(&self.file.0, self.port, extra)
    }

    /// The number of GIOP PDUs tshark finds in the capture.
    fn giop_pdu_count(&self) -> Result<usize, String> {
        let text = self.tshark_read(&["-Y", "giop", "-T", "fields", "-e", "giop.type"])?;
        Ok(text
            .lines()
            .flat_map(|l| l.split(','))
            .filter(|v| !v.trim().is_empty())
            .count())
    }
}

/// Sends SIGINT (tshark's orderly stop) with the shell's built-in `kill`,
/// which every system has, unlike a `kill` binary.
fn signal_interrupt(pid: u32) {
    let _ = Command::new("sh")
        .args(["-c", "kill -INT \"$1\"", "sh", &pid.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// Sends `exchange` over one loopback connection (client-to-server messages
/// from the connecting side, server-to-client from the accepting side) and
/// returns tshark's capture of it.
fn capture_once(
    exchange: &[(Direction, Vec<u8>)],
    settle: Duration,
) -> Result<PcapCapture, String> {
    let listener = TcpListener::bind(("127.0.0.1", 0)).map_err(|e| format!("bind: {e}"))?;
    let port = listener
        .local_addr()
        .map_err(|e| format!("local_addr: {e}"))?
        .port();
    let file = TempFile::new(".pcapng");
    let child = Command::new("tshark")
        .args(["-i", "lo", "-f"])
        .arg(format!("tcp port {port}"))
        .arg("-w")
        .arg(&file.0)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            format!("cannot run tshark: {e} (install the tshark package: scripts/install-deps.sh)")
        })?;
    let mut tshark = ChildGuard::new(child, "tshark");
    let stderr = tshark.take_stderr().ok_or("tshark has no stderr")?;
    let lines = line_channel(stderr);
    let mut log = Vec::new();
    let deadline = Instant::now() + START_TIMEOUT;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match lines.recv_timeout(left) {
            Ok(line) => {
                let started = line.contains("Capturing on");
                log.push(line);
                if started {
                    break;
                }
            }
            Err(RecvTimeoutError::Timeout) => {
                return Err(format!(
                    "tshark did not start capturing within {START_TIMEOUT:?}: {}",
                    log.join("\n")
                ));
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(format!(
                    "tshark exited before capturing (capturing needs root or \
                     CAP_NET_RAW/CAP_NET_ADMIN): {}",
                    log.join("\n")
                ));
            }
        }
    }
    // The filter is attached before tshark reports; leave a little margin.
    thread::sleep(Duration::from_millis(100));

    send_exchange(&listener, exchange)?;

    thread::sleep(settle);
    signal_interrupt(tshark.id());
    tshark.wait_timeout(Duration::from_secs(10))?;
    Ok(PcapCapture { file, port })
}

fn send_exchange(listener: &TcpListener, exchange: &[(Direction, Vec<u8>)]) -> Result<(), String> {
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let mut client = TcpStream::connect(addr).map_err(|e| format!("connect: {e}"))?;
    let (mut server, _) = listener.accept().map_err(|e| format!("accept: {e}"))?;
    let drain = |s: &TcpStream| -> Result<thread::JoinHandle<()>, String> {
        let mut r = s.try_clone().map_err(|e| e.to_string())?;
        Ok(thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while matches!(r.read(&mut buf), Ok(n) if n > 0) {}
        }))
    };
    let drains = [drain(&client)?, drain(&server)?];
    for s in [&client, &server] {
        s.set_nodelay(true).map_err(|e| e.to_string())?;
    }
    for (direction, message) in exchange {
        let sock = match direction {
            Direction::ClientToServer => &mut client,
            Direction::ServerToClient => &mut server,
        };
        sock.write_all(message).map_err(|e| format!("send: {e}"))?;
        // One message per segment keeps the dissection easy to read.
        thread::sleep(Duration::from_millis(2));
    }
    let _ = client.shutdown(Shutdown::Write);
    let _ = server.shutdown(Shutdown::Write);
    for d in drains {
        let _ = d.join();
    }
    Ok(())
}

/// Captures `exchange`, retrying with a longer settling time if tshark
/// finds fewer GIOP PDUs than messages sent.
fn capture(exchange: &[(Direction, Vec<u8>)]) -> Result<PcapCapture, String> {
    let mut settle = Duration::from_millis(300);
    let mut attempt = 0;
    loop {
        attempt += 1;
        let cap = capture_once(exchange, settle)?;
        if attempt >= 3 || cap.giop_pdu_count()? >= exchange.len() {
            return Ok(cap);
        }
        settle *= 3;
    }
}

/// Sends `messages` from client to server over a loopback TCP connection
/// while tshark captures it, and returns tshark's verbose dissection
/// (`tshark -V`: every frame with every layer in full detail).
pub fn tshark_decode_giop(messages: &[Vec<u8>]) -> Result<String, String> {
    let exchange: Vec<(Direction, Vec<u8>)> = messages
        .iter()
        .map(|m| (Direction::ClientToServer, m.clone()))
        .collect();
    tshark_decode_exchange(&exchange)
}

/// Like [`tshark_decode_giop`], but sends each message from its own side of
/// the connection, so tshark can match replies with their requests.
pub fn tshark_decode_exchange(exchange: &[(Direction, Vec<u8>)]) -> Result<String, String> {
    capture(exchange)?.tshark_read(&["-V"])
}

/// Captures `exchange` like [`tshark_decode_exchange`] and returns, for each
/// frame with GIOP in it, the values of the given tshark fields (such as
/// `giop.type`, `giop.request_id`, `giop.request_op`). A field that occurs
/// several times in a frame has its values joined by commas.
pub fn tshark_giop_fields(
    exchange: &[(Direction, Vec<u8>)],
    fields: &[&str],
) -> Result<Vec<Vec<String>>, String> {
    let mut args = vec!["-Y", "giop", "-T", "fields"];
    for f in fields {
        args.push("-e");
        args.push(f);
    }
    let text = capture(exchange)?.tshark_read(&args)?;
    Ok(text
        .lines()
        .map(|l| l.split('\t').map(str::to_owned).collect())
        .collect())
}

/// Dissects an existing capture file with the given port decoded as GIOP
/// (`tshark -r FILE -d tcp.port==PORT,giop` followed by `args`).
pub fn tshark_read_file(path: &Path, port: u16, args: &[&str]) -> Result<String, String> {
    let decode_as = format!("tcp.port=={port},giop");
    let output = Command::new("tshark")
        .arg("-r")
        .arg(path)
        .args(["-d", decode_as.as_str()])
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run tshark: {e}"))?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    } else {
        Err(format!(
            "tshark -r failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}
