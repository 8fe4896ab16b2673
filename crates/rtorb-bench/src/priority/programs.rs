//! The programs the points of a run start, and the habits and tick
//! placement they are all given.

use std::path::PathBuf;

use super::config::Policy;
use super::habits::Habits;
use super::tick::TickPlan;
use crate::omniorb::PriorityPeers;

/// The programs the points run.
pub(crate) struct Programs {
    /// This program.
    pub(crate) exe: PathBuf,
    /// omniORB's, when built.
    pub(crate) omniorb: Option<PriorityPeers>,
    /// The client threads' scheduling.
    pub(crate) policy: Policy,
    /// The memory and timer habits of the run.
    pub(crate) habits: Habits,
    /// Where C0's slots fall against the kernel's ticks.
    pub(crate) tick: TickPlan,
}
