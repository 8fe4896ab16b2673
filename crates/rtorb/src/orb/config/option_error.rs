//! What goes wrong reading settings: an `-ORB` option or a configuration
//! file's line that cannot be applied, and a file that cannot be read.

use std::fmt;
use std::path::PathBuf;

use super::values::ValueError;

/// An `-ORB` option (or a configuration file's `name = value` line) that
/// cannot be applied: which option, what was wrong, and what it takes.
///
/// ```
/// use rtorb::orb::{OptionProblem, OrbConfig, OrbError};
///
/// let Err(OrbError::Option(e)) = OrbConfig::default().apply_args(["-ORBServerThreads", "many"])
/// else { panic!() };
/// assert_eq!(e.option, "-ORBServerThreads");
/// assert!(matches!(e.problem, OptionProblem::BadValue { .. }));
/// assert_eq!(
///     e.to_string(),
///     "-ORBServerThreads does not take \"many\": it is not a whole number; \
///      it takes threads of the leader/followers pool, at least 1"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct OptionError {
    /// The option as it was written: `-ORBServerThreads` on the command
    /// line, `ServerThreads` in a configuration file.
    pub option: String,
    /// What was wrong.
    pub problem: OptionProblem,
    /// What the option takes (the `values` of its row in
    /// [`ORB_OPTIONS`](crate::orb::options::ORB_OPTIONS)); empty for an
    /// unknown option.
    pub allowed: &'static str,
}

/// What was wrong with an option (see [`OptionError`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum OptionProblem {
    /// No option has that name.
    Unknown,
    /// The option came last, without its value.
    MissingValue,
    /// The value is not one the option takes.
    BadValue {
        /// The value given.
        value: String,
        /// What is wrong with it.
        error: ValueError,
    },
    /// The option can be given on the command line only
    /// (`ConfigFile` in a configuration file).
    CommandLineOnly,
}

impl OptionError {
    pub(crate) fn new(
        option: impl Into<String>,
        problem: OptionProblem,
        allowed: &'static str,
    ) -> OptionError {
        OptionError {
            option: option.into(),
            problem,
            allowed,
        }
    }
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let allowed = self.allowed.replace('`', "");
        match &self.problem {
            OptionProblem::Unknown => write!(
                f,
                "unknown option {}: no ORB option has that name \
                 (rtorb::orb::options::help() lists them)",
                self.option
            ),
            OptionProblem::MissingValue => {
                write!(f, "{} needs a value: {allowed}", self.option)
            }
            OptionProblem::BadValue { value, error } => write!(
                f,
                "{} does not take {value:?}: {error}; it takes {allowed}",
                self.option
            ),
            OptionProblem::CommandLineOnly => write!(
                f,
                "{} can be given on the command line only, not in a configuration file",
                self.option
            ),
        }
    }
}

impl std::error::Error for OptionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.problem {
            OptionProblem::BadValue { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// A configuration file that could not be read, or one of its lines not
/// applied.
#[derive(Debug, thiserror::Error)]
#[error("{}{}: {problem}", file.display(), line.map(|l| format!(":{l}")).unwrap_or_default())]
#[non_exhaustive]
pub struct ConfigFileError {
    /// The file.
    pub file: PathBuf,
    /// The line (from 1), if the error is in one.
    pub line: Option<usize>,
    /// What is wrong (boxed: a configuration file's error is rare, and a
    /// result that carries one stays small).
    #[source]
    pub problem: Box<ConfigFileProblem>,
}

/// What is wrong with a configuration file (see [`ConfigFileError`]).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigFileProblem {
    /// The file cannot be read as text.
    #[error(transparent)]
    Read(#[from] ReadFileError),
    /// A line is not `name = value`.
    #[error("expected name = value, not {0:?}")]
    NotNameValue(String),
    /// A line's name is empty or holds white space.
    #[error("bad option name {0:?}")]
    BadName(String),
    /// A line names an option that cannot be applied.
    #[error(transparent)]
    Option(#[from] OptionError),
}

/// A text file (a configuration file, or a `file://` reference) that
/// cannot be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadFileError {
    /// Opening or reading it failed.
    #[error("cannot read: {0}")]
    Io(#[from] std::io::Error),
    /// It is larger than [`MAX_CONFIG_FILE_SIZE`](super::MAX_CONFIG_FILE_SIZE).
    #[error("larger than the limit of {limit} octets")]
    TooLarge {
        /// The limit, in octets.
        limit: u64,
    },
    /// It is not UTF-8 text.
    #[error("not UTF-8 text")]
    NotUtf8,
}
