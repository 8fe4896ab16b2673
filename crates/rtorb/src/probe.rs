//! Probes: the time of each stage of a call, on the client and the server,
//! in the manner of the timeprobes of "The Design and Performance of a
//! Pluggable Protocols Framework for Object Request Broker Middleware"
//! (Tables 1 and 2).
//!
//! With the cargo feature `probe`, the ORB marks the end of each
//! [`Stage`] of a call with a [`Probe`], and the time since the previous
//! mark is added to a total of the calling thread for that stage; a
//! benchmark reads the totals of its thread with [`thread_totals`] before
//! and after its calls. Without the feature (the default) a probe is an
//! empty type, its methods do nothing and compile to nothing, and
//! [`thread_totals`] is `None`.
//!
//! ```
//! use rtorb::probe::{Probe, Stage, thread_totals};
//!
//! let mut probe = Probe::start();
//! let work: u64 = (0..1000u64).sum();
//! probe.lap(Stage::ClientMarshal);
//! assert_eq!(work, 499_500);
//! let totals = thread_totals();
//! assert_eq!(totals.is_some(), rtorb::probe::ENABLED);
//! if let Some(t) = totals {
//!     assert_eq!(t.laps(Stage::ClientMarshal), 1);
//! }
//! ```

/// Whether this build times stages (the `probe` feature).
pub const ENABLED: bool = cfg!(feature = "probe");

/// A stage of a twoway call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(usize)]
pub enum Stage {
    /// Client: building the request (header and arguments) in a buffer.
    ClientMarshal,
    /// Client: writing the request to the transport.
    ClientWrite,
    /// Client: waiting for and reading the reply's octets (the server's
    /// whole turn and both trips through the kernel).
    ClientWait,
    /// Client: decoding the reply's header and the results.
    ClientDemarshal,
    /// Server: reading the request's octets, including the wait for it.
    ServerRead,
    /// Server: decoding the message header (and reassembly).
    ServerParse,
    /// Server: finding the servant by object key, and the argument
    /// decoder.
    ServerDemux,
    /// Server: the skeleton: operation lookup, arguments, the servant, the
    /// results into the reply.
    ServerUpcall,
    /// Server: finishing the reply message (header, sizes).
    ServerMarshal,
    /// Server: writing the reply to the transport.
    ServerWrite,
}

impl Stage {
    /// Every stage, client stages first, in the order of a call.
    pub const ALL: [Stage; 10] = [
        Stage::ClientMarshal,
        Stage::ClientWrite,
        Stage::ClientWait,
        Stage::ClientDemarshal,
        Stage::ServerRead,
        Stage::ServerParse,
        Stage::ServerDemux,
        Stage::ServerUpcall,
        Stage::ServerMarshal,
        Stage::ServerWrite,
    ];

    /// A short name (`client.marshal`, `server.upcall`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Stage::ClientMarshal => "client.marshal",
            Stage::ClientWrite => "client.write",
            Stage::ClientWait => "client.wait",
            Stage::ClientDemarshal => "client.demarshal",
            Stage::ServerRead => "server.read",
            Stage::ServerParse => "server.parse",
            Stage::ServerDemux => "server.demux",
            Stage::ServerUpcall => "server.upcall",
            Stage::ServerMarshal => "server.marshal",
            Stage::ServerWrite => "server.write",
        }
    }
}

/// Time spent in each stage by one thread, and how many laps ended there.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StageTotals {
    nanos: [u64; 10],
    laps: [u64; 10],
}

impl StageTotals {
    /// Nanoseconds spent in `stage`.
    pub fn nanos(&self, stage: Stage) -> u64 {
        self.nanos[stage as usize]
    }

    /// Laps that ended in `stage`.
    pub fn laps(&self, stage: Stage) -> u64 {
        self.laps[stage as usize]
    }

    /// What was added between `earlier` and `self`.
    pub fn since(&self, earlier: &StageTotals) -> StageTotals {
        let mut d = StageTotals::default();
        for i in 0..10 {
            d.nanos[i] = self.nanos[i].wrapping_sub(earlier.nanos[i]);
            d.laps[i] = self.laps[i].wrapping_sub(earlier.laps[i]);
        }
        d
    }
}

/// The calling thread's totals, or `None` without the `probe` feature.
pub fn thread_totals() -> Option<StageTotals> {
    imp::totals()
}

/// Marks the ends of stages on one thread.
#[derive(Debug, Clone, Copy)]
pub struct Probe {
    #[cfg(feature = "probe")]
    last: std::time::Instant,
}

impl Probe {
    /// Starts timing now.
    #[inline(always)]
    pub fn start() -> Probe {
        Probe {
            #[cfg(feature = "probe")]
            last: std::time::Instant::now(),
        }
    }

    /// Restarts timing now, dropping the time since the last mark.
    #[inline(always)]
    pub fn restart(&mut self) {
        #[cfg(feature = "probe")]
        {
            self.last = std::time::Instant::now();
        }
    }

    /// Adds the time since the last mark to `stage`, and marks now.
    #[inline(always)]
    pub fn lap(&mut self, stage: Stage) {
        #[cfg(feature = "probe")]
        {
            let now = std::time::Instant::now();
            imp::add(stage, now.duration_since(self.last));
            self.last = now;
        }
        #[cfg(not(feature = "probe"))]
        let _ = stage;
    }
}

#[cfg(feature = "probe")]
mod imp {
    use std::cell::Cell;
    use std::time::Duration;

    use super::{Stage, StageTotals};

    thread_local! {
        static TOTALS: Cell<StageTotals> = const {
            Cell::new(StageTotals { nanos: [0; 10], laps: [0; 10] })
        };
    }

    pub(super) fn add(stage: Stage, d: Duration) {
        let _ = TOTALS.try_with(|t| {
            let mut v = t.get();
            let i = stage as usize;
            v.nanos[i] = v.nanos[i].wrapping_add(d.as_nanos() as u64);
            v.laps[i] = v.laps[i].wrapping_add(1);
            t.set(v);
        });
    }

    pub(super) fn totals() -> Option<StageTotals> {
        TOTALS.try_with(Cell::get).ok()
    }
}

#[cfg(not(feature = "probe"))]
mod imp {
    use super::StageTotals;

    #[inline(always)]
    pub(super) fn totals() -> Option<StageTotals> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn laps_add_to_their_stage_on_this_thread() {
        let before = thread_totals();
        let mut p = Probe::start();
        std::thread::sleep(std::time::Duration::from_millis(2));
        p.lap(Stage::ServerUpcall);
        p.lap(Stage::ServerWrite);
        let after = thread_totals();
        assert_eq!(before.is_some(), ENABLED);
        assert_eq!(after.is_some(), ENABLED);
        if let (Some(b), Some(a)) = (before, after) {
            let d = a.since(&b);
            assert_eq!(d.laps(Stage::ServerUpcall), 1);
            assert_eq!(d.laps(Stage::ServerWrite), 1);
            assert!(d.nanos(Stage::ServerUpcall) >= 2_000_000);
            assert_eq!(d.laps(Stage::ClientWait), 0);
        }
    }

    #[test]
    fn stage_names_are_distinct() {
        let mut names: Vec<_> = Stage::ALL.iter().map(|s| s.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Stage::ALL.len());
    }
}
