//! The descriptor limit of the attacker: raised for the sockets of the
//! hostile peers, as it was for the servers the benchmarks start.

use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};

/// The process's descriptor limit, raised to its hard limit for the
/// attacker's sockets; the servers start with the limit as it was.
pub(crate) struct DescriptorLimit {
    original: Rlimit,
    raised: Rlimit,
}

impl DescriptorLimit {
    /// Raises the soft limit to the hard one.
    pub(crate) fn raise() -> DescriptorLimit {
        let original = getrlimit(Resource::Nofile);
        let raised = Rlimit {
            current: original.maximum,
            maximum: original.maximum,
        };
        let raised = if setrlimit(Resource::Nofile, raised).is_ok() {
            raised
        } else {
            original
        };
        DescriptorLimit { original, raised }
    }

    /// The attacker's soft limit (`None`: unlimited).
    pub(crate) fn attacker(&self) -> Option<u64> {
        self.raised.current
    }

    /// Runs `f` (a spawn) with the limit the process started with, so
    /// that the child inherits that one.
    pub(crate) fn as_started<T>(&self, f: impl FnOnce() -> T) -> T {
        let _ = setrlimit(Resource::Nofile, self.original);
        let out = f();
        let _ = setrlimit(Resource::Nofile, self.raised);
        out
    }
}

impl Drop for DescriptorLimit {
    fn drop(&mut self) {
        let _ = setrlimit(Resource::Nofile, self.original);
    }
}
