//! [`OrbOption`]: one row of the table of options, a setting's names,
//! what it takes and how it is applied.

use std::fmt;

use crate::orb::config::option_error::ConfigFileError;
use crate::orb::config::orb_config::OrbConfig;
use crate::orb::config::values::ValueError;

/// The name of the option that names a configuration file: it is read
/// before the other options by `Orb::init`, and cannot be set in a file.
pub(crate) const CONFIG_FILE: &str = "ConfigFile";

/// One setting of the ORB: its names, what it takes, and how it is
/// applied. See the [module](super).
pub struct OrbOption {
    /// The name after `-ORB` on the command line, and the key in a
    /// configuration file.
    pub name: &'static str,
    /// Other names accepted for it: the CORBA name of the setting where
    /// it differs, and omniORB's where it means the same.
    pub aliases: &'static [&'static str],
    /// The [`OrbBuilder`](crate::orb::OrbBuilder) setter made from the row, if
    /// it has one.
    pub builder: Option<&'static str>,
    /// The client policy ([`crate::policy::Policy`]) that overrides it
    /// per object or thread, if any.
    pub policy: Option<&'static str>,
    /// omniORB's setting for the same purpose, if it has one (with how it
    /// differs, where it does).
    pub omniorb: Option<&'static str>,
    /// What its value is.
    pub values: &'static str,
    /// Its value by default (`none`: unset).
    pub default: &'static str,
    /// A value it accepts.
    pub example: &'static str,
    /// Parses a value and applies it.
    pub(super) apply: fn(&mut OrbConfig, &str) -> Result<(), ApplyError>,
}

/// Why a value could not be applied: it does not parse, or (`ConfigFile`)
/// the file it names cannot be applied.
#[derive(Debug)]
pub(crate) enum ApplyError {
    /// The value does not parse.
    Value(ValueError),
    /// The configuration file it names cannot be applied.
    File(ConfigFileError),
}

impl From<ConfigFileError> for ApplyError {
    fn from(e: ConfigFileError) -> ApplyError {
        ApplyError::File(e)
    }
}

impl OrbOption {
    /// Parses `value` and applies it to `config`.
    pub(crate) fn apply(&self, config: &mut OrbConfig, value: &str) -> Result<(), ApplyError> {
        (self.apply)(config, value)
    }

    /// Its name, then its aliases.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + use<> {
        std::iter::once(self.name).chain(self.aliases.iter().copied())
    }
}

impl PartialEq for OrbOption {
    /// The same option: names are unique.
    fn eq(&self, other: &OrbOption) -> bool {
        self.name == other.name
    }
}

impl Eq for OrbOption {}

impl fmt::Debug for OrbOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OrbOption")
            .field("name", &self.name)
            .field("aliases", &self.aliases)
            .field("builder", &self.builder)
            .field("policy", &self.policy)
            .field("omniorb", &self.omniorb)
            .field("values", &self.values)
            .field("default", &self.default)
            .field("example", &self.example)
            .finish()
    }
}
