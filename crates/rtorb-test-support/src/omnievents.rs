//! omniEvents 2.6.2 (Debian `omnievents`) as the tests' peer: its event
//! service, `omniEvents`, on a port and in a directory of its own
//! ([`EventService`]), its tools (`eventc`, `eventf`, `events`,
//! `rmeventc`) run with an empty omniORB configuration ([`command`]), and
//! a child process whose lines a test waits for and that is killed when
//! dropped ([`Peer`]).
//!
//! A missing omniEvents fails the test that needs it, saying how to
//! install it ([`INSTALL_HINT`]); it is never a silent pass.

use std::io::Read;
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::net::free_port;
use crate::wait::{TIMEOUT, eventually};

/// What a test that cannot find omniEvents says.
pub const INSTALL_HINT: &str =
    "omniEvents is not installed: run scripts/install-deps.sh (Debian package omnievents)";

/// The path of the omniEvents program `name` (`omniEvents` is in
/// `/usr/sbin`, the tools in `/usr/bin`). Panics with [`INSTALL_HINT`]
/// where it is missing.
pub fn program(name: &str) -> PathBuf {
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    dirs.extend(["/usr/sbin", "/usr/bin"].map(PathBuf::from));
    dirs.into_iter()
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("{name} not found: {INSTALL_HINT}"))
}

/// An empty omniORB configuration file, so that the peers read no
/// `/etc/omniORB.cfg` (whose naming service, if it names one, would not
/// answer).
fn empty_omniorb_config() -> PathBuf {
    // One file for every test process: they all write the same text.
    let path = std::env::temp_dir().join("rtorb-omniorb-empty.cfg");
    if !path.exists() {
        std::fs::write(&path, "# no settings: the tests' omniORB peers\n")
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    }
    path
}

/// A command running the omniEvents program `name` with `args`, with an
/// empty omniORB configuration and no standard input.
pub fn command(name: &str, args: &[&str]) -> Command {
    let mut command = Command::new(program(name));
    command
        .args(args)
        .env("OMNIORB_CONFIG", empty_omniorb_config())
        .env_remove("ORBInitRef")
        .stdin(Stdio::null());
    command
}

/// A child process whose standard output and error lines a test reads as
/// they come; killed and reaped when dropped.
#[derive(Debug)]
pub struct Peer {
    child: Child,
    name: String,
    lines: Receiver<String>,
    seen: Vec<String>,
    raw: Arc<Mutex<Vec<u8>>>,
}

/// Sends each line of `stream` (invalid UTF-8 replaced, so that binary
/// output goes on) over `tx` until the stream ends, and keeps every octet
/// it read in `raw` (binary output need not end its lines).
fn forward_lines(
    mut stream: impl Read + Send + 'static,
    tx: mpsc::Sender<String>,
    raw: Arc<Mutex<Vec<u8>>>,
) {
    std::thread::spawn(move || {
        let mut chunk = [0u8; 4096];
        let mut pending = Vec::new();
        loop {
            let n = match stream.read(&mut chunk) {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            raw.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .extend_from_slice(&chunk[..n]);
            pending.extend_from_slice(&chunk[..n]);
            while let Some(end) = pending.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = pending.drain(..=end).collect();
                let text = String::from_utf8_lossy(&line);
                if tx
                    .send(text.trim_end_matches(['\n', '\r']).to_owned())
                    .is_err()
                {
                    return;
                }
            }
        }
        if !pending.is_empty() {
            let _ = tx.send(String::from_utf8_lossy(&pending).into_owned());
        }
    });
}

impl Peer {
    /// Starts `command` (named `name` in messages) with its output piped;
    /// its standard input is what the command set.
    pub fn spawn(command: &mut Command, name: &str) -> Peer {
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{name} ({command:?}) does not start: {e}"));
        let (tx, lines) = mpsc::channel();
        let raw = Arc::new(Mutex::new(Vec::new()));
        if let Some(out) = child.stdout.take() {
            forward_lines(out, tx.clone(), Arc::clone(&raw));
        }
        if let Some(err) = child.stderr.take() {
            forward_lines(err, tx, Arc::clone(&raw));
        }
        Peer {
            child,
            name: name.to_owned(),
            lines,
            seen: Vec::new(),
            raw,
        }
    }

    /// The child's standard input, if the command piped it.
    pub fn stdin(&mut self) -> Option<ChildStdin> {
        self.child.stdin.take()
    }

    /// Waits until a line for which `wanted` holds comes, or [`TIMEOUT`]
    /// passes; the line, or an error with every line seen.
    pub fn line(&mut self, wanted: impl Fn(&str) -> bool) -> Result<String, String> {
        self.line_within(TIMEOUT, wanted)
    }

    /// Waits until a line for which `wanted` holds comes, or `within`
    /// passes (for a test that retries what should make it come).
    pub fn line_within(
        &mut self,
        within: Duration,
        wanted: impl Fn(&str) -> bool,
    ) -> Result<String, String> {
        let deadline = Instant::now() + within;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if wanted(&line) {
                        return Ok(line);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "{}: no such line within {within:?}; it wrote: {:?}",
                        self.name, self.seen
                    ));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!(
                        "{} ended ({:?}) without such a line; it wrote: {:?}",
                        self.name,
                        self.child.try_wait(),
                        self.seen
                    ));
                }
            }
        }
    }

    /// Waits until the child's output holds `text`, in a line or not (for
    /// binary output), or [`TIMEOUT`] passes; whether it came.
    pub fn output_holds(&self, text: &str) -> bool {
        self.output_holds_within(TIMEOUT, text)
    }

    /// Waits until the child's output holds `text` or `within` passes
    /// (for a test that retries what should make it come).
    pub fn output_holds_within(&self, within: Duration, text: &str) -> bool {
        let needle = text.as_bytes();
        eventually(within, || {
            self.raw
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .windows(needle.len())
                .any(|w| w == needle)
        })
    }

    /// Every line the child has written so far (and those a wait saw).
    pub fn lines_so_far(&mut self) -> Vec<String> {
        while let Ok(line) = self.lines.try_recv() {
            self.seen.push(line);
        }
        self.seen.clone()
    }

    /// Waits for the child to end, up to [`TIMEOUT`]; its exit status, or
    /// an error with what it wrote (the child is then killed).
    pub fn wait(&mut self) -> Result<ExitStatus, String> {
        let mut status = None;
        let ended = eventually(TIMEOUT, || {
            status = self.child.try_wait().ok().flatten();
            status.is_some()
        });
        match status {
            Some(status) if ended => Ok(status),
            _ => {
                let _ = self.child.kill();
                let lines = self.lines_so_far();
                Err(format!(
                    "{} did not end within {TIMEOUT:?}; it wrote: {lines:?}",
                    self.name
                ))
            }
        }
    }

    /// Sends the child SIGTERM (for a program that ends cleanly on it).
    pub fn terminate(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs the omniEvents tool `name` with `args` to its end (within
/// [`TIMEOUT`]), which must succeed; what it wrote.
pub fn run_tool(name: &str, args: &[&str]) -> String {
    let mut peer = Peer::spawn(&mut command(name, args), name);
    let status = peer.wait().unwrap_or_else(|e| panic!("{e}"));
    let lines = peer.lines_so_far();
    assert!(
        status.success(),
        "{name} {args:?} failed ({status}): {lines:?}"
    );
    lines.join("\n")
}

/// What `events -s` reads from its standard input to push `texts`: per
/// event, the time to push it at (one second after the epoch, for every
/// record, so that it never waits) and the event, an `Any` holding a
/// string (TypeCode `tk_string`, then the string), in the host's byte
/// order as omniORB's memory streams write them, each record starting
/// at a multiple of four octets.
pub fn events_tool_input(texts: &[&str]) -> Vec<u8> {
    let mut out = Vec::new();
    for text in texts {
        // Each record starts four-aligned; the last ends with its string,
        // as the tool reads records while octets are left.
        while out.len() % 4 != 0 {
            out.push(0);
        }
        let length = u32::try_from(text.len() + 1).expect("a short text");
        for word in [1u32, 0, 18, 0, length] {
            out.extend_from_slice(&word.to_ne_bytes());
        }
        out.extend_from_slice(text.as_bytes());
        out.push(0);
    }
    out
}

/// A file holding `bytes`, for a peer's standard input; removed when
/// dropped.
#[derive(Debug)]
pub struct InputFile(PathBuf);

impl InputFile {
    /// Writes `bytes` to a new file named after `tag`.
    pub fn new(tag: &str, bytes: &[u8]) -> InputFile {
        let path = std::env::temp_dir().join(format!("rtorb-{tag}-{}", std::process::id()));
        std::fs::write(&path, bytes)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        InputFile(path)
    }

    /// The file, opened for a command's standard input.
    pub fn stdin(&self) -> Stdio {
        let file = std::fs::File::open(&self.0)
            .unwrap_or_else(|e| panic!("cannot open {}: {e}", self.0.display()));
        Stdio::from(file)
    }
}

impl Drop for InputFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// An omniEvents event service, on a free port of the loopback interface
/// and a log directory of its own; stopped when dropped.
#[derive(Debug)]
pub struct EventService {
    peer: Peer,
    port: u16,
    dir: PathBuf,
}

impl EventService {
    /// Starts `omniEvents` in the foreground and waits until it accepts
    /// connections.
    pub fn start() -> EventService {
        let port = free_port();
        let dir =
            std::env::temp_dir().join(format!("rtorb-omnievents-{}-{port}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)
            .unwrap_or_else(|e| panic!("cannot make {}: {e}", dir.display()));
        let dir_arg = dir.to_string_lossy().into_owned();
        let port_arg = port.to_string();
        let mut peer = Peer::spawn(
            &mut command("omniEvents", &["-f", "-p", &port_arg, "-l", &dir_arg]),
            "omniEvents",
        );
        let up = eventually(TIMEOUT, || {
            TcpStream::connect_timeout(
                &std::net::SocketAddr::from(([127, 0, 0, 1], port)),
                Duration::from_secs(1),
            )
            .is_ok()
        });
        assert!(
            up,
            "omniEvents does not listen on port {port}: {:?}",
            peer.lines_so_far()
        );
        EventService { peer, port, dir }
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The `corbaloc:` URL of its event channel factory.
    pub fn factory(&self) -> String {
        format!("corbaloc::127.0.0.1:{}/omniEvents", self.port)
    }

    /// Makes a channel with `eventc`, reachable by `corbaloc:` under
    /// `name`; its URL.
    pub fn create_channel(&self, name: &str) -> String {
        run_tool("eventc", &["-i", name, &self.factory()]);
        format!("corbaloc::127.0.0.1:{}/{name}", self.port)
    }

    /// What the service has written so far.
    pub fn output(&mut self) -> Vec<String> {
        self.peer.lines_so_far()
    }
}

impl Drop for EventService {
    fn drop(&mut self) {
        self.peer.terminate();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
