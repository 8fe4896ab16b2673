//! The table of options as a whole: every name, alias, default, setter
//! and listing.

use std::path::Path;

use super::option::CONFIG_FILE;
use super::*;
use crate::orb::config::orb_config::OrbConfig;

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
