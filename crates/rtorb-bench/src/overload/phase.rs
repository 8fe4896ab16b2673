//! The phase of a scenario (before, during and after the attack), which
//! the well-behaved client's and the sampler's figures are filed under.

use std::sync::atomic::{AtomicUsize, Ordering};

/// The phase of a scenario, shared by the threads that file figures
/// under it.
pub(super) struct Phase(AtomicUsize);

impl Phase {
    /// Before the attack.
    pub(super) const BEFORE: usize = 0;
    /// While the attacker runs.
    pub(super) const DURING: usize = 1;
    /// After the attacker closed everything.
    pub(super) const AFTER: usize = 2;

    /// A scenario before its attack.
    pub(super) fn new() -> Phase {
        Phase(AtomicUsize::new(Phase::BEFORE))
    }

    /// The current phase.
    pub(super) fn get(&self) -> usize {
        self.0.load(Ordering::Relaxed)
    }

    /// Moves the scenario to `phase`.
    pub(super) fn set(&self, phase: usize) {
        self.0.store(phase, Ordering::Relaxed);
    }
}
