//! What an [`Orb`](super::Orb) is configured with: [`OrbConfig`], the
//! settings, their defaults and limits (`orb_config.rs`); the typed
//! parsers of their values (`values.rs`); and what goes wrong setting
//! them, an [`OptionError`] or a [`ConfigFileError`] (`option_error.rs`). The
//! `-ORB` options and configuration files that set them are read through
//! the table of options ([`super::options`]).

pub(super) mod bounded_file;
pub(super) mod option_error;
pub(super) mod orb_config;
pub(crate) mod values;

pub use option_error::{
    ConfigFileError, ConfigFileProblem, OptionError, OptionProblem, ReadFileError,
};
pub use orb_config::{
    CONFIG_ENV, ConnectionStrategy, DEFAULT_ENDPOINT, DEFAULT_MAX_MESSAGE_SIZE,
    DEFAULT_MEMORY_BUDGET, DEFAULT_SERVER_THREADS, MAX_CONFIG_FILE_SIZE, ORB_FRAGMENTS, OrbConfig,
};
pub use values::ValueError;
