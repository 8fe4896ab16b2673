//! The benchmarks' child processes: a server whose standard output is read
//! line by line while it runs ([`Proc`]), and a client run to its end
//! ([`run_client`]).

use std::io::{BufRead, BufReader};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// A child process killed when dropped, its standard output read line by
/// line on a thread. Its standard input is closed ([`Proc::spawn`]) or
/// held open until [`Proc::finish`] ([`Proc::spawn_held`]: a server that
/// stops when its input closes).
pub(crate) struct Proc {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    name: String,
}

impl Proc {
    /// Starts `cmd` with its standard input closed; `name` names it in
    /// errors.
    pub(crate) fn spawn(cmd: Command, name: &str) -> Result<Proc, String> {
        Proc::start(cmd, name, Stdio::null())
    }

    /// Starts `cmd` with its standard input held open until
    /// [`Proc::finish`].
    pub(crate) fn spawn_held(cmd: Command, name: &str) -> Result<Proc, String> {
        Proc::start(cmd, name, Stdio::piped())
    }

    fn start(mut cmd: Command, name: &str, stdin: Stdio) -> Result<Proc, String> {
        let mut child = cmd
            .stdin(stdin)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start {name}: {e}"))?;
        let stdin = child.stdin.take();
        let out = child.stdout.take().ok_or("no stdout")?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Proc {
            child,
            stdin,
            lines,
            name: name.to_owned(),
        })
    }

    /// The process id.
    pub(crate) fn id(&self) -> u32 {
        self.child.id()
    }

    /// Whether the process is still running.
    pub(crate) fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// What the first line that `pick` accepts gives, within `timeout`;
    /// `pick` sees every line before it.
    pub(crate) fn wait_line<T>(
        &mut self,
        timeout: Duration,
        mut pick: impl FnMut(&str) -> Option<T>,
    ) -> Result<T, String> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    if let Some(v) = pick(&l) {
                        return Ok(v);
                    }
                }
                Err(_) => {
                    let status = self.child.try_wait().ok().flatten();
                    return Err(format!(
                        "{} gave no expected line within {timeout:?} (exit: {status:?})",
                        self.name
                    ));
                }
            }
        }
    }

    /// Hands each line the process prints to `line` until it prints
    /// `ready`, within `timeout`.
    pub(crate) fn ready(
        &mut self,
        timeout: Duration,
        mut line: impl FnMut(&str),
    ) -> Result<(), String> {
        self.wait_line(timeout, |l| {
            if l == "ready" {
                return Some(());
            }
            line(l);
            None
        })
        .map_err(|_| {
            let status = self.child.try_wait().ok().flatten();
            format!(
                "{} did not get ready within {timeout:?} (exit: {status:?})",
                self.name
            )
        })
    }

    /// Closes its standard input (which stops a server started with
    /// [`Proc::spawn_held`]) and waits, within `timeout`, for it to end;
    /// the lines it printed since it was last read. A process that fails
    /// is an error.
    pub(crate) fn finish(mut self, timeout: Duration) -> Result<Vec<String>, String> {
        drop(self.stdin.take());
        let deadline = Instant::now() + timeout;
        let mut rest = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => rest.push(l),
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("{} did not exit within {timeout:?}", self.name));
                }
            }
        }
        let status = self.child.wait().map_err(|e| e.to_string())?;
        if !status.success() {
            return Err(format!("{} failed: {status}", self.name));
        }
        Ok(rest)
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// Runs a client to completion and returns its standard output; one
/// that has not finished within `limit` (a server that stopped
/// answering: the clients run without a round-trip timeout, as omniORB's
/// does) is killed and reported.
pub(crate) fn run_client(mut cmd: Command, name: &str, limit: Duration) -> Result<String, String> {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .stdin(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {name}: {e}"))?;
    let drain = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut text);
            }
            String::from_utf8_lossy(&text).into_owned()
        })
    };
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as _));
    let deadline = Instant::now() + limit;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(20));
            }
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("{name} did not finish within {limit:?}"));
            }
            Err(e) => return Err(format!("{name}: {e}")),
        }
    };
    let out = stdout.join().unwrap_or_default();
    let err = stderr.join().unwrap_or_default();
    if !status.success() {
        return Err(format!("{name} failed ({status}): {err}"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_s_lines_until_ready_then_the_rest_once_its_input_closes() {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo one; echo ready; cat >/dev/null; echo stats"]);
        let mut p = Proc::spawn_held(cmd, "sh").unwrap();
        let mut seen = Vec::new();
        p.ready(Duration::from_secs(60), |l| seen.push(l.to_owned()))
            .unwrap();
        assert_eq!(seen, ["one"]);
        assert!(p.alive());
        assert_eq!(p.finish(Duration::from_secs(60)).unwrap(), ["stats"]);
    }

    #[test]
    fn a_line_picked_and_a_failure_reported() {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo a; echo IOR:x; exit 3"]);
        let mut p = Proc::spawn(cmd, "failing").unwrap();
        let ior = p.wait_line(Duration::from_secs(60), |l| {
            l.starts_with("IOR:").then(|| l.to_owned())
        });
        assert_eq!(ior.unwrap(), "IOR:x");
        let e = p.finish(Duration::from_secs(60)).unwrap_err();
        assert!(e.starts_with("failing failed"), "{e}");
    }

    #[test]
    fn a_client_s_output_or_its_error() {
        let mut ok = Command::new("sh");
        ok.args(["-c", "echo out; echo err >&2"]);
        let limit = Duration::from_secs(60);
        assert_eq!(run_client(ok, "ok", limit).unwrap(), "out\n");
        let mut bad = Command::new("sh");
        bad.args(["-c", "echo why >&2; exit 1"]);
        assert!(run_client(bad, "bad", limit).unwrap_err().contains("why"));
    }
}
