//! Dissecting GIOP messages with tshark.
//!
//! The messages are sent over a real loopback TCP connection while
//! `dumpcap` (tshark's capture engine) captures it to a temporary file;
//! the file is then dissected by tshark with the connection's port mapped
//! to GIOP. Every step waits for an event, not for a time: the capture
//! for `dumpcap` to report its file (it has opened the interface and set
//! its filter then), each message for the other side to have read the
//! one before it (so that each goes out in segments of its own), and the
//! end of the capture for both ends' FIN to be in the file. Capturing
//! needs root or the capture capabilities (CAP_NET_RAW, CAP_NET_ADMIN)
//! for `dumpcap`.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::{self, JoinHandle};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use rtorb_test_support::TIMEOUT;
use rtorb_test_support::wait::eventually;

use crate::process::{ChildGuard, line_channel};
use crate::proxy::Direction;

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

    /// The segments with the FIN flag in what `dumpcap` has written to the
    /// file so far (none while the file cannot be read yet).
    fn fins(&self) -> usize {
        self.tshark_read(&[
            "-Y",
            "tcp.flags.fin == 1",
            "-T",
            "fields",
            "-e",
            "frame.number",
        ])
        .map_or(0, |text| {
            text.lines().filter(|l| !l.trim().is_empty()).count()
        })
    }
}

/// Sends SIGINT (dumpcap's orderly stop) with the shell's built-in `kill`,
/// which every system has, unlike a `kill` binary.
fn signal_interrupt(pid: u32) {
    let _ = Command::new("sh")
        .args(["-c", "kill -INT \"$1\"", "sh", &pid.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// Starts `dumpcap` capturing `tcp port {port}` on the loopback interface
/// into `file`, and waits until it reports the file: it has opened the
/// interface and set its filter before, so every packet from then on is
/// captured.
fn start_dumpcap(port: u16, file: &Path) -> Result<ChildGuard, String> {
    let child = Command::new("dumpcap")
        .args(["-i", "lo", "-f"])
        .arg(format!("tcp port {port}"))
        .arg("-w")
        .arg(file)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            format!(
                "cannot run dumpcap: {e} (install the tshark package, which brings it: \
                 scripts/install-deps.sh)"
            )
        })?;
    let mut dumpcap = ChildGuard::new(child, "dumpcap");
    let stderr = dumpcap.take_stderr().ok_or("dumpcap has no stderr")?;
    let lines = line_channel(stderr);
    let mut log = Vec::new();
    let deadline = Instant::now() + TIMEOUT;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match lines.recv_timeout(left) {
            Ok(line) => {
                let started = line.starts_with("File: ");
                log.push(line);
                if started {
                    // Keep reading what it reports, so that it never
                    // blocks on a full pipe.
                    thread::spawn(move || lines.iter().for_each(drop));
                    return Ok(dumpcap);
                }
            }
            Err(RecvTimeoutError::Timeout) => {
                return Err(format!(
                    "dumpcap did not start capturing within {TIMEOUT:?}: {}",
                    log.join("\n")
                ));
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(format!(
                    "dumpcap exited before capturing (capturing needs root or \
                     CAP_NET_RAW/CAP_NET_ADMIN): {}",
                    log.join("\n")
                ));
            }
        }
    }
}

/// Sends `exchange` over one loopback connection (client-to-server messages
/// from the connecting side, server-to-client from the accepting side) and
/// returns dumpcap's capture of all of it.
fn capture(exchange: &[(Direction, Vec<u8>)]) -> Result<PcapCapture, String> {
    let listener = TcpListener::bind(("127.0.0.1", 0)).map_err(|e| format!("bind: {e}"))?;
    let port = listener
        .local_addr()
        .map_err(|e| format!("local_addr: {e}"))?
        .port();
    let file = TempFile::new(".pcapng");
    let mut dumpcap = start_dumpcap(port, &file.0)?;
    send_exchange(&listener, exchange)?;
    let capture = PcapCapture { file, port };
    // Both ends have shut down their side once every message was read:
    // with both FINs in the file, so is every segment before them.
    // dumpcap writes what it captured to the file as it goes.
    let whole = eventually(TIMEOUT, || capture.fins() >= 2);
    signal_interrupt(dumpcap.id());
    dumpcap.wait_timeout(TIMEOUT)?;
    if !whole {
        return Err(format!(
            "dumpcap had not written the end of the conversation within {TIMEOUT:?} \
             ({} FIN segments of 2 in {})",
            capture.fins(),
            capture.file.0.display()
        ));
    }
    Ok(capture)
}

/// Reads what arrives on `stream` until its end, on a thread, and sends
/// the running count of octets read after each read.
fn count_arrivals(stream: &TcpStream) -> Result<(JoinHandle<()>, Receiver<usize>), String> {
    let mut reader = stream.try_clone().map_err(|e| e.to_string())?;
    let (sender, arrivals) = mpsc::channel();
    let handle = thread::spawn(move || {
        let mut buf = [0u8; 8192];
        let mut total = 0usize;
        while let Ok(n @ 1..) = reader.read(&mut buf) {
            total += n;
            // The sender may have stopped waiting; keep draining.
            let _ = sender.send(total);
        }
    });
    Ok((handle, arrivals))
}

/// Waits until `arrivals` has counted `total` octets.
fn wait_arrived(arrivals: &Receiver<usize>, total: usize) -> Result<(), String> {
    let deadline = Instant::now() + TIMEOUT;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match arrivals.recv_timeout(left) {
            Ok(n) if n >= total => return Ok(()),
            Ok(_) => {}
            Err(_) => {
                return Err(format!(
                    "the other end did not read {total} octets within {TIMEOUT:?}"
                ));
            }
        }
    }
}

fn send_exchange(listener: &TcpListener, exchange: &[(Direction, Vec<u8>)]) -> Result<(), String> {
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let mut client = TcpStream::connect(addr).map_err(|e| format!("connect: {e}"))?;
    let (mut server, _) = listener.accept().map_err(|e| format!("accept: {e}"))?;
    for s in [&client, &server] {
        s.set_nodelay(true).map_err(|e| e.to_string())?;
    }
    let (client_reader, to_client) = count_arrivals(&client)?;
    let (server_reader, to_server) = count_arrivals(&server)?;
    let (mut sent_to_client, mut sent_to_server) = (0usize, 0usize);
    for (direction, message) in exchange {
        let (sock, sent, arrivals) = match direction {
            Direction::ClientToServer => (&mut client, &mut sent_to_server, &to_server),
            Direction::ServerToClient => (&mut server, &mut sent_to_client, &to_client),
        };
        sock.write_all(message).map_err(|e| format!("send: {e}"))?;
        *sent += message.len();
        // One message per segment keeps the dissection easy to read: the
        // next is written once this one has been read at the other end.
        wait_arrived(arrivals, *sent)?;
    }
    client
        .shutdown(Shutdown::Write)
        .map_err(|e| format!("shutdown: {e}"))?;
    server
        .shutdown(Shutdown::Write)
        .map_err(|e| format!("shutdown: {e}"))?;
    for reader in [client_reader, server_reader] {
        let _ = reader.join();
    }
    Ok(())
}

/// Sends `messages` from client to server over a loopback TCP connection
/// while dumpcap captures it, and returns tshark's verbose dissection
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
