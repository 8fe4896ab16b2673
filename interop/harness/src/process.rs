//! Child processes that are killed when dropped, with bounded waits.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, ChildStderr, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// A child process that is killed and reaped when dropped, so a failing test
/// never leaves a peer running.
#[derive(Debug)]
pub struct ChildGuard {
    child: Option<Child>,
    name: String,
}

impl ChildGuard {
    /// Takes ownership of `child`; `name` labels it in error messages.
    pub fn new(child: Child, name: impl Into<String>) -> Self {
        Self {
            child: Some(child),
            name: name.into(),
        }
    }

    /// The process id.
    pub fn id(&self) -> u32 {
        self.child.as_ref().map_or(0, Child::id)
    }

    /// Takes the child's piped standard output, if any.
    pub fn take_stdout(&mut self) -> Option<ChildStdout> {
        self.child.as_mut().and_then(|c| c.stdout.take())
    }

    /// Takes the child's piped standard error, if any.
    pub fn take_stderr(&mut self) -> Option<ChildStderr> {
        self.child.as_mut().and_then(|c| c.stderr.take())
    }

    /// Whether the child has exited, and how.
    pub fn try_wait(&mut self) -> Result<Option<ExitStatus>, String> {
        match self.child.as_mut() {
            Some(c) => c
                .try_wait()
                .map_err(|e| format!("waiting for {}: {e}", self.name)),
            None => Err(format!("{} was already reaped", self.name)),
        }
    }

    /// Waits up to `timeout` for the child to exit. On timeout the child is
    /// killed and an error returned.
    pub fn wait_timeout(&mut self, timeout: Duration) -> Result<ExitStatus, String> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.try_wait()? {
                self.child = None;
                return Ok(status);
            }
            if Instant::now() >= deadline {
                self.kill();
                return Err(format!("{} did not exit within {timeout:?}", self.name));
            }
            thread::sleep(Duration::from_millis(10));
        }
    }

    /// Kills and reaps the child (no-op if it has already been reaped).
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for ChildGuard {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Reads a stream to its end on a thread; [`Collector::finish`] returns
/// what was read as (lossy) UTF-8.
#[derive(Debug)]
pub struct Collector {
    handle: JoinHandle<String>,
}

impl Collector {
    /// Starts draining `stream`.
    pub fn start(mut stream: impl Read + Send + 'static) -> Self {
        let handle = thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = stream.read_to_end(&mut buf);
            String::from_utf8_lossy(&buf).into_owned()
        });
        Self { handle }
    }

    /// Waits for the end of the stream and returns its text.
    pub fn finish(self) -> String {
        self.handle
            .join()
            .unwrap_or_else(|_| String::from("<reader thread panicked>"))
    }
}

/// Runs `command` (named `name` in messages) to its end with no input,
/// killing it after `timeout`: its exit status and its standard output
/// followed by its standard error.
pub fn run_to_end(
    command: &mut Command,
    name: &str,
    timeout: Duration,
) -> Result<(ExitStatus, String), String> {
    let child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {name}: {e}"))?;
    let mut child = ChildGuard::new(child, name);
    let out = child.take_stdout().map(Collector::start);
    let err = child.take_stderr().map(Collector::start);
    let status = child.wait_timeout(timeout);
    let output = format!(
        "{}{}",
        out.map(Collector::finish).unwrap_or_default(),
        err.map(Collector::finish).unwrap_or_default()
    );
    match status {
        Ok(status) => Ok((status, output)),
        Err(e) => Err(format!("{e}; {output}")),
    }
}

/// Forwards the lines of `stream` over a channel as they arrive, so a caller
/// can wait for a particular line with a timeout.
pub fn line_channel(stream: impl Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let reader = BufReader::new(stream);
        for line in reader.lines() {
            match line {
                Ok(l) => {
                    if tx.send(l).is_err() {
                        break;
                    }
                }
                Err(_) => break,
            }
        }
    });
    rx
}
