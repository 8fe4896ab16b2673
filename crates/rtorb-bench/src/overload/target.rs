//! The servers under attack: a fresh `rtorb-bench cubit-server` of one
//! strategy, or omniORB's `cubit_server`, each a child process killed
//! when dropped, started with the descriptor limit the process had before
//! the attacker raised its own; and their resident memory, sampled.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use bytes::Bytes;
use rtorb_giop::ObjectReference;
use serde::Serialize;

use super::phase::Phase;
use crate::attack::DescriptorLimit;
use crate::process::Proc;

/// A server to attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum ServerKind {
    /// rtorb, one event loop thread.
    Reactive,
    /// rtorb, a thread per connection (its default).
    ThreadPerConnection,
    /// rtorb, a leader/followers pool.
    LeaderFollowers,
    /// omniORB 4's `cubit_server`.
    Omniorb,
}

impl ServerKind {
    /// Every server, in the order of the table.
    pub(crate) const ALL: [ServerKind; 4] = [
        ServerKind::Reactive,
        ServerKind::ThreadPerConnection,
        ServerKind::LeaderFollowers,
        ServerKind::Omniorb,
    ];

    /// The name on the command line and in the results.
    pub(crate) fn name(self) -> &'static str {
        match self {
            ServerKind::Reactive => "reactive",
            ServerKind::ThreadPerConnection => "thread-per-connection",
            ServerKind::LeaderFollowers => "leader-followers",
            ServerKind::Omniorb => "omniorb",
        }
    }

    /// The server named `name`.
    pub(crate) fn parse(name: &str) -> Result<ServerKind, String> {
        ServerKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                let known: Vec<&str> = ServerKind::ALL.iter().map(|k| k.name()).collect();
                format!("unknown server {name:?}; known: {}", known.join(", "))
            })
    }
}

/// A running server: its process, address and object key.
pub(super) struct Server {
    proc: Proc,
    /// Where it listens (IIOP).
    pub(super) address: SocketAddr,
    /// The Cubit object's key.
    pub(super) key: Bytes,
}

impl Server {
    /// Starts a fresh server of `kind` on the loopback interface.
    pub(super) fn start(
        kind: ServerKind,
        exe: &std::path::Path,
        omni_server: Option<&PathBuf>,
        limit: &DescriptorLimit,
    ) -> Result<Server, String> {
        let (cmd, name) = match kind {
            ServerKind::Omniorb => {
                let path = omni_server.ok_or("omniORB's cubit_server is not built")?;
                let mut c = Command::new(path);
                // Its log of each refused message would drown the table.
                c.args(["-ORBendPoint", "giop:tcp:127.0.0.1:", "-ORBtraceLevel", "0"]);
                (c, "omniORB cubit_server")
            }
            rtorb => {
                let mut c = Command::new(exe);
                c.args(["cubit-server", "--endpoint", "iiop://127.0.0.1:0"])
                    .args(["--", "-ORBServerStrategy", rtorb.name()]);
                (c, "rtorb-bench cubit-server")
            }
        };
        let mut proc = limit.as_started(|| Proc::spawn(cmd, name))?;
        let ior = proc.wait_line(Duration::from_secs(30), |l| {
            l.starts_with("IOR:").then(|| l.to_owned())
        })?;
        let reference =
            ObjectReference::from_stringified(&ior).map_err(|e| format!("{name}'s IOR: {e}"))?;
        let (host, port) = reference
            .first_iiop_endpoint()
            .ok_or_else(|| format!("{name}'s IOR has no IIOP profile"))?;
        let address = format!("{host}:{port}")
            .parse()
            .map_err(|e| format!("{name} listens at {host}:{port}: {e}"))?;
        let key = reference
            .object_key()
            .cloned()
            .ok_or_else(|| format!("{name}'s IOR has no object key"))?;
        Ok(Server { proc, address, key })
    }

    /// The process id.
    pub(super) fn pid(&self) -> u32 {
        self.proc.id()
    }

    /// Whether the process is still running.
    pub(super) fn alive(&mut self) -> bool {
        self.proc.alive()
    }
}

/// The resident memory of a process: `VmRSS` of `/proc/PID/status`, in
/// KiB (`None` when it cannot be read: the process is gone).
pub(super) fn resident_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// Resident memory before an attack, its peak from the attack's start,
/// and the last sample, in KiB.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub(crate) struct Resident {
    /// The last sample before the attack.
    pub(crate) before_kib: Option<u64>,
    /// The largest sample from the attack's start on.
    pub(crate) peak_kib: Option<u64>,
    /// The last sample, after the attack ended.
    pub(crate) after_kib: Option<u64>,
}

/// A thread that samples a process's resident memory every 10 ms until
/// dropped.
pub(super) struct Sampler {
    stop: Arc<AtomicBool>,
    resident: Arc<Mutex<Resident>>,
    thread: Option<JoinHandle<()>>,
}

impl Sampler {
    /// Starts sampling `pid`, the phase telling before from after.
    pub(super) fn start(pid: u32, phase: Arc<Phase>) -> Sampler {
        let stop = Arc::new(AtomicBool::new(false));
        let resident = Arc::new(Mutex::new(Resident::default()));
        let thread = {
            let (stop, resident) = (Arc::clone(&stop), Arc::clone(&resident));
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    if let Some(kib) = resident_kib(pid) {
                        let mut r = resident.lock().unwrap_or_else(|e| e.into_inner());
                        if phase.get() == Phase::BEFORE {
                            r.before_kib = Some(kib);
                        } else {
                            r.peak_kib = Some(r.peak_kib.map_or(kib, |p| p.max(kib)));
                            r.after_kib = Some(kib);
                        }
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
            })
        };
        Sampler {
            stop,
            resident,
            thread: Some(thread),
        }
    }

    /// What was sampled so far.
    pub(super) fn resident(&self) -> Resident {
        *self.resident.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for Sampler {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn servers_by_name() {
        for k in ServerKind::ALL {
            assert_eq!(ServerKind::parse(k.name()), Ok(k));
        }
        assert!(ServerKind::parse("tao").unwrap_err().contains("omniorb"));
    }

    #[test]
    fn this_process_has_resident_memory() {
        assert!(resident_kib(std::process::id()).is_some_and(|k| k > 0));
        assert_eq!(resident_kib(u32::MAX), None);
    }
}
