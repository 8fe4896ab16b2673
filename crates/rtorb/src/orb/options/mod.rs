//! The one table of the ORB's settings, [`ORB_OPTIONS`]: each row
//! declares a setting once, and everything that sets or shows it comes
//! from that row:
//!
//! - the `-ORB` option of [`OrbConfig::apply_args`] (and so of
//!   [`Orb::init`](super::Orb::init)), by its name or an alias, in any
//!   case — the CORBA name of a setting where it differs, and omniORB's
//!   where omniORB has a setting that means the same, in the same unit;
//! - the key of the configuration file ([`OrbConfig::apply_file`]): the
//!   option's name without `-ORB`;
//! - the [`OrbBuilder`](super::OrbBuilder) setter, generated from the row
//!   with the row's documentation;
//! - the typed parser of its value and the error that names what it takes
//!   ([`OptionError`](super::OptionError));
//! - [`help`], the listing of every option, and [`markdown_table`], the
//!   README's table of options (a test checks that the README shows it).
//!
//! ```
//! use rtorb::orb::options::{find, ORB_OPTIONS};
//! use rtorb::orb::OrbConfig;
//!
//! let timeout = find("clientcalltimeoutperiod").unwrap();
//! assert_eq!(timeout.name, "RoundTripTimeout");
//! assert_eq!(timeout.builder, Some("round_trip_timeout"));
//! assert_eq!(timeout.policy, Some("Policy::RelativeRoundtripTimeout"));
//! // omniORB's spelling sets the same thing.
//! let mut c = OrbConfig::default();
//! c.apply_args(["-ORBclientCallTimeOutPeriod", "250"]).unwrap();
//! assert_eq!(c.round_trip_timeout, Some(std::time::Duration::from_millis(250)));
//! assert!(ORB_OPTIONS.iter().any(|o| o.name == "ServerStrategy"));
//! assert!(rtorb::orb::options::help().contains("-ORBServerStrategy"));
//! ```

use std::fmt;

use super::OrbConfig;
use super::config::{ConfigFileError, ValueError};

/// Declares the table of options: every row gives a setting's names,
/// what the README and [`help`] say of it, the parser of its value and
/// how the value is applied to an [`OrbConfig`], and the builder setter
/// (`fn name(args) => value`, documented by the row's doc comment) or
/// `none`. It makes [`ORB_OPTIONS`] and the setters.
macro_rules! orb_options {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident {
            aliases: [$($alias:literal),* $(,)?],
            policy: $policy:expr,
            omniorb: $omniorb:expr,
            values: $values:literal,
            default: $default:literal,
            example: $example:literal,
            parse: $parse:path => |$c:ident, $v:ident: $t:ty| $apply:expr,
            setter: $($setter:tt)*
        }
    )*) => {
        /// Every setting the `-ORB` options, configuration files and
        /// [`OrbBuilder`](crate::orb::OrbBuilder) setters set, in the
        /// order the README shows them.
        pub const ORB_OPTIONS: &[OrbOption] = &[$(
            OrbOption {
                name: stringify!($name),
                aliases: &[$($alias),*],
                builder: orb_option_setter_name!($($setter)*),
                policy: $policy,
                omniorb: $omniorb,
                values: $values,
                default: $default,
                example: $example,
                apply: {
                    fn apply(config: &mut OrbConfig, value: &str) -> Result<(), ApplyError> {
                        let $v: $t = $parse(value).map_err(ApplyError::Value)?;
                        let $c = config;
                        $apply;
                        Ok(())
                    }
                    apply
                },
            }
        ),*];

        impl crate::orb::OrbBuilder {
            $(
                orb_option_setter! {
                    [$(#[doc = $doc])*] ($t) |$c, $v| ($apply); $($setter)*
                }
            )*
        }
    };
}

/// The name of a row's setter, if it has one.
macro_rules! orb_option_setter_name {
    (fn $setter:ident $($rest:tt)*) => {
        Some(stringify!($setter))
    };
    (none $(,)?) => {
        None
    };
}

/// A row's setter: it applies its value to the builder's configuration
/// as the option would.
macro_rules! orb_option_setter {
    (
        [$($doc:tt)*] ($t:ty) |$c:ident, $v:ident| ($apply:expr);
        fn $setter:ident($($arg:ident: $arg_ty:ty),*) => $value:expr $(,)?
    ) => {
        $($doc)*
        pub fn $setter(self, $($arg: $arg_ty),*) -> Self {
            let $v: $t = $value;
            self.set(|$c: &mut OrbConfig| {
                $apply;
                Ok(())
            })
        }
    };
    ([$($doc:tt)*] ($t:ty) |$c:ident, $v:ident| ($apply:expr); none $(,)?) => {};
}

mod table;

pub use table::ORB_OPTIONS;

/// The name of the option that names a configuration file: it is read
/// before the other options by `Orb::init`, and cannot be set in a file.
pub(crate) const CONFIG_FILE: &str = "ConfigFile";

/// One setting of the ORB: its names, what it takes, and how it is
/// applied. See the [module](self).
pub struct OrbOption {
    /// The name after `-ORB` on the command line, and the key in a
    /// configuration file.
    pub name: &'static str,
    /// Other names accepted for it: the CORBA name of the setting where
    /// it differs, and omniORB's where it means the same.
    pub aliases: &'static [&'static str],
    /// The [`OrbBuilder`](super::OrbBuilder) setter made from the row, if
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
    apply: fn(&mut OrbConfig, &str) -> Result<(), ApplyError>,
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

/// The option `name` (what follows `-ORB`, in any case) names, by its
/// name or an alias.
pub fn find(name: &str) -> Option<&'static OrbOption> {
    ORB_OPTIONS
        .iter()
        .find(|o| o.names().any(|n| n.eq_ignore_ascii_case(name)))
}

/// Every option, as a program's `--help` lists them: its names, what it
/// takes and its default.
pub fn help() -> String {
    let mut out = String::from(
        "ORB options (-ORBName VALUE on the command line, Name = VALUE in a \
         configuration file; names in any case):\n",
    );
    for o in ORB_OPTIONS {
        out.push_str(&format!("  -ORB{}", o.name));
        if !o.aliases.is_empty() {
            let aliases: Vec<String> = o.aliases.iter().map(|a| format!("-ORB{a}")).collect();
            out.push_str(&format!(" (also {})", aliases.join(", ")));
        }
        out.push_str(&format!(
            "\n      {} (default: {})\n",
            o.values.replace('`', ""),
            o.default.replace('`', "")
        ));
    }
    out
}

/// The README's table of options: a Markdown table of every row of
/// [`ORB_OPTIONS`], as the README shows it between its markers (the test
/// `orb_options_table` compares them; `RTORB_BLESS=1 cargo test -p rtorb
/// --test orb_options_table` writes it there).
pub fn markdown_table() -> String {
    let mut t = String::from(
        "| option (file key: the same without `-ORB`) | also accepted | `OrbBuilder` | policy | omniORB | value | default |\n\
         | --- | --- | --- | --- | --- | --- | --- |\n",
    );
    for o in ORB_OPTIONS {
        t.push_str(&markdown_row(o));
        t.push('\n');
    }
    t
}

fn markdown_row(o: &OrbOption) -> String {
    let cell = |v: Option<&str>, f: fn(&str) -> String| v.map_or_else(|| "—".to_owned(), f);
    let aliases = if o.aliases.is_empty() {
        "—".to_owned()
    } else {
        let quoted: Vec<String> = o.aliases.iter().map(|a| format!("`-ORB{a}`")).collect();
        quoted.join(", ")
    };
    format!(
        "| `-ORB{}` | {} | {} | {} | {} | {} | {} |",
        o.name,
        aliases,
        cell(o.builder, |b| format!("`{b}`")),
        cell(o.policy, |p| format!("`{p}`")),
        cell(o.omniorb, str::to_owned),
        o.values,
        code(o.default),
    )
}

/// `text` in code quotes, unless it is `none` or already quoted.
fn code(text: &str) -> String {
    if text == "none" || text.contains('`') {
        text.to_owned()
    } else {
        format!("`{text}`")
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    #[test]
    fn every_name_names_one_option() {
        let mut seen: Vec<String> = Vec::new();
        for o in ORB_OPTIONS {
            for n in o.names() {
                let lower = n.to_ascii_lowercase();
                assert!(!seen.contains(&lower), "{n} names two options");
                seen.push(lower);
                assert_eq!(find(&n.to_ascii_uppercase()), Some(o));
            }
        }
        assert_eq!(find("Frobnicate"), None);
        assert!(find(CONFIG_FILE).is_some());
    }

    #[test]
    fn every_option_and_alias_is_accepted_and_sets_the_same() {
        for o in ORB_OPTIONS {
            let mut by_name = OrbConfig::default();
            let rest = by_name
                .apply_args(["x", &format!("-ORB{}", o.name), o.example])
                .unwrap_or_else(|e| panic!("-ORB{} {}: {e}", o.name, o.example));
            assert_eq!(rest, ["x"]);
            if o.name != CONFIG_FILE {
                assert_ne!(by_name, OrbConfig::default(), "{} changes nothing", o.name);
            }
            for alias in o.aliases {
                let mut by_alias = OrbConfig::default();
                by_alias
                    .apply_args([format!("-ORB{alias}"), o.example.to_owned()])
                    .unwrap();
                assert_eq!(by_alias, by_name, "{alias} sets what {} sets", o.name);
            }
            if o.name != CONFIG_FILE {
                // The same key in a configuration file.
                let mut from_file = OrbConfig::default();
                from_file
                    .apply_config_text(Path::new("t.cfg"), &format!("{} = {}\n", o.name, o.example))
                    .unwrap();
                assert_eq!(from_file, by_name, "{} in a file", o.name);
            }
        }
    }

    #[test]
    fn the_defaults_are_the_configuration_s() {
        for o in ORB_OPTIONS {
            if o.default == "none" && o.name != "AssumedWCharCodeSet" || o.name == CONFIG_FILE {
                continue;
            }
            let mut c = OrbConfig::default();
            c.apply_args([format!("-ORB{}", o.name), o.default.to_owned()])
                .unwrap_or_else(|e| panic!("-ORB{} {}: {e}", o.name, o.default));
            assert_eq!(c, OrbConfig::default(), "the default of {}", o.name);
        }
        // A round-trip timeout of 0 is none, as omniORB's.
        let mut c = OrbConfig::default();
        c.apply_args(["-ORBRoundTripTimeout", "0"]).unwrap();
        assert_eq!(c.round_trip_timeout, None);
    }

    #[test]
    fn the_help_lists_every_option_and_its_default() {
        let help = help();
        for o in ORB_OPTIONS {
            let at = format!("  -ORB{}", o.name);
            let line = help
                .lines()
                .position(|l| l == at || l.starts_with(&format!("{at} (also")))
                .unwrap_or_else(|| panic!("-ORB{} is not in the help:\n{help}", o.name));
            let next = help.lines().nth(line + 1).unwrap();
            assert!(
                next.ends_with(&format!("(default: {})", o.default.replace('`', ""))),
                "{next}"
            );
        }
        assert!(
            help.contains(
                "-ORBRoundTripTimeout (also -ORBRelativeRoundtripTimeout, \
                 -ORBclientCallTimeOutPeriod)"
            ),
            "{help}"
        );
    }

    #[test]
    fn the_setters_are_the_table_s() {
        use crate::orb::Orb;
        use std::time::Duration;
        // A setter sets what its option sets.
        let by_setter = Orb::builder()
            .round_trip_timeout(Duration::from_millis(250))
            .server_threads(3)
            .lane_borrowing(true);
        let mut by_options = OrbConfig::default();
        by_options
            .apply_args([
                "-ORBRoundTripTimeout",
                "250",
                "-ORBServerThreads",
                "3",
                "-ORBLaneBorrowing",
                "yes",
            ])
            .unwrap();
        assert_eq!(by_setter.configuration(), &by_options);
        assert!(
            ORB_OPTIONS
                .iter()
                .filter_map(|o| o.builder)
                .any(|b| b == "lane_cpus")
        );
    }
}
