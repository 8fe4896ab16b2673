//! Running the omniORB Cubit client against the omniORB Cubit server through
//! the recording proxy.

use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4, TcpListener};
use std::process::{Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::peers::{PeerPaths, ensure_peers};
use crate::process::{ChildGuard, Collector, line_channel};
use crate::proxy::{Direction, RecordingProxy};

/// A GIOP protocol version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GiopVersion {
    /// GIOP 1.0.
    V1_0,
    /// GIOP 1.1.
    V1_1,
    /// GIOP 1.2.
    V1_2,
}

impl GiopVersion {
    /// Every version, oldest first.
    pub const ALL: [GiopVersion; 3] = [GiopVersion::V1_0, GiopVersion::V1_1, GiopVersion::V1_2];

    /// The minor version number (the major is always 1).
    pub fn minor(self) -> u8 {
        match self {
            GiopVersion::V1_0 => 0,
            GiopVersion::V1_1 => 1,
            GiopVersion::V1_2 => 2,
        }
    }

    /// `"1.0"`, `"1.1"` or `"1.2"`.
    pub fn as_str(self) -> &'static str {
        match self {
            GiopVersion::V1_0 => "1.0",
            GiopVersion::V1_1 => "1.1",
            GiopVersion::V1_2 => "1.2",
        }
    }
}

/// An octet-sequence length that makes omniORB 4.2.5 fragment a GIOP 1.1 or
/// 1.2 request and its reply into three messages: omniORB marshals into
/// 8192-octet buffers and sends each full buffer as a fragment, copying
/// octet arrays shorter than 16384 octets into the buffers. The result is
/// a Request (or Reply) of 8192 octets with the more-fragments flag, a
/// Fragment of 8192 octets with the flag, and a last, short Fragment.
pub const FRAGMENTING_OCTETS: usize = 16_380;

/// An octet-sequence length that omniORB 4.2.5 sends directly from the
/// caller's buffer: under GIOP 1.1 and 1.2 the Request (or Reply) holds the
/// whole sequence with the more-fragments flag set, followed by a Fragment
/// with an empty body (GIOP 1.1) or only the request id (GIOP 1.2).
pub const DIRECT_SEND_OCTETS: usize = 40_000;

/// How [`capture_cubit`] runs the peers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaptureOptions {
    /// Also send an octet sequence of this many octets (after the fixed
    /// calls, before `cube_void`); large values make omniORB fragment the
    /// messages under GIOP 1.1 and 1.2.
    pub big_octet_sequence: Option<usize>,
    /// End with the oneway `shutdown()` call (the server then exits).
    pub shutdown: bool,
    /// Extra arguments for `cubit_client` (e.g. `-ORB` options).
    pub client_args: Vec<String>,
    /// Extra arguments for `cubit_server` (e.g. `-ORB` options).
    pub server_args: Vec<String>,
    /// Upper bound for each step (server start, client run, shutdown).
    pub timeout: Duration,
}

impl Default for CaptureOptions {
    fn default() -> Self {
        Self {
            big_octet_sequence: None,
            shutdown: true,
            client_args: Vec::new(),
            server_args: Vec::new(),
            timeout: Duration::from_secs(20),
        }
    }
}

/// Everything recorded by one [`capture_cubit`] run.
#[derive(Debug, Clone)]
pub struct Capture {
    /// The GIOP version the client was limited to.
    pub version: GiopVersion,
    /// Every GIOP message from client to server, in order.
    pub requests: Vec<Vec<u8>>,
    /// Every GIOP message from server to client, in order.
    pub replies: Vec<Vec<u8>>,
    /// Both directions interleaved in the order the proxy saw them.
    pub exchange: Vec<(Direction, Vec<u8>)>,
    /// The stringified IOR the server printed (it names the server's own
    /// port, not the proxy's).
    pub ior: String,
    /// The operations the client invoked, in order.
    pub operations: Vec<&'static str>,
    /// The client's standard output and error.
    pub client_output: String,
    /// The server's command line (its port varies from run to run).
    pub server_command: String,
    /// The client's command line (`PROXY` stands for the proxy's address,
    /// which varies from run to run).
    pub client_command: String,
}

/// The operations `cubit_client` invokes with `options`, in order (see the
/// comment at the top of `interop/omniorb/cubit_client.cc` for arguments).
pub fn expected_operations(options: &CaptureOptions) -> Vec<&'static str> {
    let mut ops = vec![
        "cube_octet",
        "cube_short",
        "cube_long",
        "cube_struct",
        "cube_long_sequence",
        "cube_long_sequence",
        "cube_octet_sequence",
        "cube_octet_sequence",
    ];
    if options.big_octet_sequence.is_some() {
        ops.push("cube_octet_sequence");
    }
    ops.push("cube_void");
    if options.shutdown {
        ops.push("shutdown");
    }
    ops
}

/// A running omniORB server (`cubit_server` or `interop_server`), killed
/// when dropped.
#[derive(Debug)]
pub struct CubitServer {
    guard: ChildGuard,
    /// The stringified IOR the server printed.
    pub ior: String,
    /// The address the server listens on.
    pub addr: SocketAddr,
    /// The server's command line.
    pub command: String,
    stderr: Option<Collector>,
    /// The lines it prints after its IOR.
    lines: Receiver<String>,
}

impl CubitServer {
    /// A `corbaloc` URL for the Cubit object at `addr` for `version`.
    pub fn corbaloc(version: GiopVersion, addr: SocketAddr) -> String {
        format!("corbaloc::{}@{}/Cubit", version.as_str(), addr)
    }

    /// The next line the server prints after its IOR, waiting up to
    /// `timeout` for it.
    pub fn next_line(&self, timeout: Duration) -> Result<String, String> {
        self.lines
            .recv_timeout(timeout)
            .map_err(|e| format!("{}: no further line ({e})", self.command))
    }

    /// Waits up to `timeout` for the server to exit (after `shutdown()`),
    /// killing it on timeout.
    pub fn wait_exit(&mut self, timeout: Duration) -> Result<(), String> {
        let status = self.guard.wait_timeout(timeout)?;
        let stderr = self
            .stderr
            .take()
            .map(Collector::finish)
            .unwrap_or_default();
        if status.success() {
            Ok(())
        } else {
            Err(format!("the omniORB server exited with {status}: {stderr}"))
        }
    }
}

/// A command line as text: the program's file name and the arguments,
/// separated by spaces.
fn command_line(cmd: &Command) -> String {
    let program = std::path::Path::new(cmd.get_program())
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    std::iter::once(program)
        .chain(cmd.get_args().map(|a| a.to_string_lossy().into_owned()))
        .collect::<Vec<_>>()
        .join(" ")
}

fn free_port() -> Result<u16, String> {
    let l = TcpListener::bind(("127.0.0.1", 0)).map_err(|e| format!("bind: {e}"))?;
    l.local_addr()
        .map(|a| a.port())
        .map_err(|e| format!("local_addr: {e}"))
}

/// Starts `cubit_server` on a free loopback port and waits for its IOR.
pub fn start_cubit_server(
    peers: &PeerPaths,
    extra_args: &[String],
    timeout: Duration,
) -> Result<CubitServer, String> {
    start_server(&peers.cubit_server, "cubit_server", extra_args, timeout)
}

/// Starts the omniORB server of the interop IDL (`interop_server`, which
/// serves an `Interop::Tester` under the object key `Tester`) on a free
/// loopback port and waits for its IOR. It runs until dropped.
pub fn start_interop_server(
    peers: &PeerPaths,
    extra_args: &[String],
    timeout: Duration,
) -> Result<CubitServer, String> {
    start_server(&peers.interop_server, "interop_server", extra_args, timeout)
}

fn start_server(
    program: &std::path::Path,
    name: &str,
    extra_args: &[String],
    timeout: Duration,
) -> Result<CubitServer, String> {
    let mut last_error = String::new();
    // The port is chosen before the server binds it; retry if another
    // process took it in between.
    for _ in 0..3 {
        let port = free_port()?;
        let mut cmd = Command::new(program);
        cmd.arg("-ORBendPoint")
            .arg(format!("giop:tcp:127.0.0.1:{port}"))
            .args(extra_args);
        let command = command_line(&cmd);
        let child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", program.display()))?;
        let mut guard = ChildGuard::new(child, name);
        let stdout = guard
            .take_stdout()
            .ok_or_else(|| format!("{name} has no stdout"))?;
        let stderr = guard.take_stderr().map(Collector::start);
        let lines = line_channel(stdout);
        match lines.recv_timeout(timeout) {
            Ok(line) if line.starts_with("IOR:") => {
                return Ok(CubitServer {
                    guard,
                    ior: line.trim().to_owned(),
                    addr: SocketAddr::V4(SocketAddrV4::new(Ipv4Addr::LOCALHOST, port)),
                    command,
                    stderr,
                    lines,
                });
            }
            Ok(line) => {
                return Err(format!("{name} printed {line:?} instead of an IOR"));
            }
            Err(RecvTimeoutError::Timeout) => {
                return Err(format!("{name} printed no IOR within {timeout:?}"));
            }
            Err(RecvTimeoutError::Disconnected) => {
                guard.kill();
                let err = stderr.map(Collector::finish).unwrap_or_default();
                last_error = format!("{name} exited before printing its IOR: {err}");
            }
        }
    }
    Err(last_error)
}

/// Runs `cubit_client` limited to `version` against a fresh `cubit_server`
/// through a [`RecordingProxy`], and returns every GIOP message each way.
///
/// The client reaches the server with `corbaloc::1.x@127.0.0.1:PROXY/Cubit`.
/// Fails (with the peers' output) if a peer cannot be built or started, the
/// client reports a wrong result, or anything exceeds `options.timeout`.
/// Every process started is killed before this returns.
pub fn capture_cubit(version: GiopVersion, options: &CaptureOptions) -> Result<Capture, String> {
    let peers = ensure_peers()?;
    let mut server = start_cubit_server(&peers, &options.server_args, options.timeout)?;
    let proxy = RecordingProxy::start(server.addr).map_err(|e| format!("proxy: {e}"))?;
    let target = CubitServer::corbaloc(version, proxy.local_addr());

    let mut cmd = Command::new(&peers.cubit_client);
    cmd.arg("--giop").arg(version.as_str());
    // Bound every call so a misbehaving peer cannot hang the capture.
    cmd.arg("-ORBclientCallTimeOutPeriod")
        .arg(options.timeout.as_millis().to_string());
    if let Some(n) = options.big_octet_sequence {
        cmd.arg("--big").arg(n.to_string());
    }
    if options.shutdown {
        cmd.arg("--shutdown");
    }
    cmd.args(&options.client_args).arg(&target);
    let client_command = command_line(&cmd).replace(&proxy.local_addr().to_string(), "PROXY");
    let child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", peers.cubit_client.display()))?;
    let mut client = ChildGuard::new(child, "cubit_client");
    let out = client.take_stdout().map(Collector::start);
    let err = client.take_stderr().map(Collector::start);
    let started = Instant::now();
    let status = client.wait_timeout(options.timeout);
    let client_output = format!(
        "{}{}",
        out.map(Collector::finish).unwrap_or_default(),
        err.map(Collector::finish).unwrap_or_default()
    );
    let status = status.map_err(|e| format!("{e}; output: {client_output}"))?;
    if !status.success() {
        return Err(format!(
            "cubit_client {target} failed ({status}) after {:?}: {client_output}",
            started.elapsed()
        ));
    }
    if options.shutdown {
        server.wait_exit(options.timeout)?;
    }
    let recording = proxy.finish(options.timeout)?;
    let ior = server.ior.clone();
    let exchange = recording.exchange().map_err(|e| e.to_string())?;
    let pick = |d: Direction| -> Vec<Vec<u8>> {
        exchange
            .iter()
            .filter(|(dir, _)| *dir == d)
            .map(|(_, m)| m.clone())
            .collect()
    };
    Ok(Capture {
        version,
        requests: pick(Direction::ClientToServer),
        replies: pick(Direction::ServerToClient),
        ior,
        operations: expected_operations(options),
        client_output,
        server_command: server.command.clone(),
        client_command,
        exchange,
    })
}
