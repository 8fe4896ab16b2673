//! [`OrbError`]: why an ORB could not be set up, an object not activated
//! or a name not resolved.

use std::sync::Arc;

use rtorb_giop::SystemException;

use super::config::option_error::{ConfigFileError, OptionError};
use crate::codesets::CodeSetError;
use crate::poa::PoaError;
use crate::rt::{Priority, SchedulingError};
use crate::transport::TransportError;

/// Why an ORB could not be set up, an object not activated, or a name
/// not resolved.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OrbError {
    /// A listening endpoint could not be opened.
    #[error("cannot listen on {endpoint}: {source}")]
    Listen {
        /// The endpoint string.
        endpoint: String,
        /// Why.
        source: TransportError,
    },
    /// The ORB was given no endpoint, and its default endpoint
    /// (`-ORBDefaultEndpoint`) could not be opened when it first served
    /// objects: they are reachable in process only.
    #[error(
        "the ORB listens on no endpoint, and opening its default one failed ({0}); \
         set -ORBListenEndpoints (OrbBuilder::listen), or -ORBDefaultEndpoint"
    )]
    NoEndpoint(#[source] Arc<OrbError>),
    /// A thread could not be started.
    #[error("cannot start a thread: {0}")]
    Thread(#[from] std::io::Error),
    /// An `-ORB` option could not be applied.
    #[error(transparent)]
    Option(#[from] OptionError),
    /// A configuration file could not be read, or one of its lines not
    /// applied.
    #[error(transparent)]
    ConfigFile(#[from] ConfigFileError),
    /// An argument of the process's command line is not Unicode.
    #[error("the argument {0} is not Unicode")]
    ArgumentNotUnicode(String),
    /// A code set of the configuration is one rtorb cannot use (set
    /// through the builder; the options refuse it at once).
    #[error(transparent)]
    CodeSet(#[from] CodeSetError),
    /// `-ORBLaneCpus` (or [`OrbConfig::lane_cpus`](super::OrbConfig::lane_cpus))
    /// names a priority no lane of [`OrbConfig::lanes`](super::OrbConfig::lanes)
    /// has.
    #[error("-ORBLaneCpus names priority {}, but no -ORBLane has priority {}", .0.get(), .0.get())]
    LaneCpusWithoutLane(Priority),
    /// A thread pool was asked for with no lane.
    #[error("a thread pool needs at least one lane")]
    NoLanes,
    /// The ORB has been shut down: it activates nothing more.
    #[error("the ORB has been shut down")]
    ShutDown,
    /// `resolve_initial_references` was asked for a name it does not know
    /// (`CORBA::ORB::InvalidName`).
    #[error("no initial reference named {0:?}")]
    InvalidName(String),
    /// An object adapter refused (activating an object on the Root POA).
    #[error(transparent)]
    Poa(#[from] PoaError),
    /// A reference string could not be used.
    #[error("{0}")]
    System(#[from] SystemException),
    /// A thread could not be given its priority (a lane's thread, under
    /// `-ORBSchedDenied fail`).
    #[error("{0}")]
    Scheduling(#[from] SchedulingError),
}
