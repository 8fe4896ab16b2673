//! The one table of the ORB's settings, [`ORB_OPTIONS`]: each row
//! declares a setting once, and everything that sets or shows it comes
//! from that row:
//!
//! - the `-ORB` option of [`OrbConfig::apply_args`](super::OrbConfig::apply_args) (and so of
//!   [`Orb::init`](super::Orb::init)), by its name or an alias, in any
//!   case — the CORBA name of a setting where it differs, and omniORB's
//!   where omniORB has a setting that means the same, in the same unit;
//! - the key of the configuration file ([`OrbConfig::apply_file`](super::OrbConfig::apply_file)): the
//!   option's name without `-ORB`;
//! - the [`OrbBuilder`](super::OrbBuilder) setter, generated from the row
//!   with the row's documentation;
//! - the typed parser of its value and the error that names what it takes
//!   ([`OptionError`](super::OptionError));
//! - [`help`], the listing of every option, and [`markdown_table`], the
//!   user guide's table of options (a test checks that the guide shows it).
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

mod args;
mod file;
mod listing;
mod option;
mod table;

pub use listing::{help, markdown_table};
pub use option::OrbOption;
pub use table::{ORB_OPTIONS, find};

#[cfg(test)]
mod tests;
