//! The `-ORB` command-line options: each read into its setting of an
//! [`OrbConfig`] through its row of the table of options.

use super::option::ApplyError;
use super::table::find;
use crate::orb::config::option_error::{OptionError, OptionProblem};
use crate::orb::config::orb_config::OrbConfig;
use crate::orb::error::OrbError;

impl OrbConfig {
    /// Takes the `-ORB` options out of `args` into the configuration and
    /// returns the other arguments, in order.
    ///
    /// Every option is a row of the table
    /// [`ORB_OPTIONS`](crate::orb::options::ORB_OPTIONS), which the user
    /// guide shows and [`crate::orb::options::help`] lists: its
    /// name or an alias follows `-ORB`, in any case, and its value is the
    /// next argument. `-ORBConfigFile PATH` applies a configuration file
    /// (see [`OrbConfig::apply_file`]) at that point of the arguments;
    /// [`crate::orb::Orb::init`] instead applies it before every other
    /// option (see [`OrbConfig::from_init_args`]). Any other argument
    /// starting with `-ORB`, a missing value and a value the option does
    /// not take are [`OrbError::Option`] errors naming the option and
    /// what it takes.
    pub fn apply_args<I, S>(&mut self, args: I) -> Result<Vec<String>, OrbError>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut rest = Vec::new();
        let mut it = args.into_iter().map(Into::into);
        while let Some(arg) = it.next() {
            if !arg.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("-ORB")) {
                rest.push(arg);
                continue;
            }
            let Some(option) = find(&arg[4..]) else {
                return Err(OptionError::new(arg, OptionProblem::Unknown, "").into());
            };
            let Some(value) = it.next() else {
                return Err(
                    OptionError::new(arg, OptionProblem::MissingValue, option.values).into(),
                );
            };
            match option.apply(self, &value) {
                Ok(()) => {}
                Err(ApplyError::Value(error)) => {
                    let problem = OptionProblem::BadValue { value, error };
                    return Err(OptionError::new(arg, problem, option.values).into());
                }
                Err(ApplyError::File(e)) => return Err(e.into()),
            }
        }
        Ok(rest)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use rtorb_cdr::CodeSetId;

    use super::*;
    use crate::codesets::CodeSetConfig;
    use crate::orb::ConnectionStrategy;
    use crate::orb::strategy::ServerStrategy;
    use crate::policy::{ClientProtocolPolicy, SyncScope};

    #[test]
    fn orb_options_are_taken_and_the_rest_kept() {
        let mut c = OrbConfig::default();
        let rest = c
            .apply_args([
                "prog",
                "-ORBListenEndpoints",
                "iiop://127.0.0.1:0;uiop:///tmp/a.sock",
                "x",
                "-ORBendPoint",
                "iiop://[::1]:0",
                "-ORBInitRef",
                "Cubit=corbaloc::1.2@127.0.0.1:1/Cubit",
                "-ORBRoundTripTimeout",
                "250",
                "-ORBServerStrategy",
                "leader-followers",
                "-ORBServerThreads",
                "3",
                "-ORBMaxMessageSize",
                "65536",
                "-ORBIncompleteMessageTimeout",
                "1500",
                "-ORBMaxConnections",
                "16",
                "-ORBMaxOutputBuffer",
                "4096",
                "-ORBServerWriteTimeout",
                "700",
                "-ORBPoaHoldLimit",
                "3",
            ])
            .unwrap();
        assert_eq!(c.poa_hold_limit, 3);
        assert_eq!(rest, ["prog", "x"]);
        assert_eq!(
            c.listen,
            ["iiop://127.0.0.1:0", "uiop:///tmp/a.sock", "iiop://[::1]:0"]
        );
        assert_eq!(
            c.initial_references,
            [(
                "Cubit".to_owned(),
                "corbaloc::1.2@127.0.0.1:1/Cubit".to_owned()
            )]
        );
        assert_eq!(c.round_trip_timeout, Some(Duration::from_millis(250)));
        assert_eq!(c.server_strategy, ServerStrategy::LeaderFollowers);
        assert_eq!(c.server_threads, 3);
        assert_eq!(c.max_message_size, 65536);
        assert_eq!(c.incomplete_message_timeout, Duration::from_millis(1500));
        assert_eq!(c.max_connections, 16);
        assert_eq!(c.max_output_buffer, 4096);
        assert_eq!(c.server_write_timeout, Duration::from_millis(700));
        for s in ["reactive", "thread-per-connection", "LEADER_FOLLOWERS"] {
            let mut c = OrbConfig::default();
            c.apply_args(["-ORBServerStrategy", s]).unwrap();
            assert_eq!(
                c.server_strategy.as_str(),
                s.to_ascii_lowercase().replace('_', "-")
            );
        }
        assert_eq!(c.connection_strategy, ConnectionStrategy::Exclusive);
    }

    #[test]
    fn connection_and_policy_options_are_taken() {
        let mut c = OrbConfig::default();
        let rest = c
            .apply_args([
                "-ORBClientConnectionStrategy",
                "multiplexed",
                "-ORBConnectionIdleTimeout",
                "1500",
                "-ORBFragmentSize",
                "65536",
                "-ORBSyncScope",
                "server",
                "-ORBClientProtocolPolicy",
                "uiop,iiop+lite,*",
            ])
            .unwrap();
        assert!(rest.is_empty());
        assert_eq!(c.connection_strategy, ConnectionStrategy::Multiplexed);
        assert_eq!(c.connection_idle_timeout, Some(Duration::from_millis(1500)));
        assert_eq!(c.fragment_size, Some(65536));
        assert_eq!(c.sync_scope, SyncScope::WithServer);
        assert_eq!(
            c.client_protocol,
            ClientProtocolPolicy::parse("uiop,iiop+lite,*")
        );
    }

    #[test]
    fn bad_orb_options_are_errors() {
        for args in [
            &["-ORBEndpoint"][..],
            &["-ORBInitRef", "NoEquals"],
            &["-ORBRoundTripTimeout", "soon"],
            &["-ORBFrobnicate", "1"],
            &["-ORBServerStrategy", "thread-per-request"],
            &["-ORBServerThreads", "many"],
            &["-ORBMaxMessageSize", "-1"],
            &["-ORBMaxConnections"],
            &["-ORBClientConnectionStrategy", "shared"],
            &["-ORBFragmentSize", "8"],
            &["-ORBSyncScope", "maybe"],
            &["-ORBClientProtocolPolicy", "iiop+tls"],
            &["-ORBNativeCharCodeSet", "EBCDIC"],
            &["-ORBNativeCharCodeSet", "ISO-8859-15"],
            &["-ORBNativeWCharCodeSet", "UTF-8"],
            &["-ORBNativeWCharCodeSet", "none"],
            &["-ORBAssumedCharCodeSet", "none"],
            &["-ORBAssumedWCharCodeSet", "0x00010106"],
        ] {
            let mut c = OrbConfig::default();
            let e = c.apply_args(args.iter().copied());
            assert!(
                matches!(&e, Err(OrbError::Option(o)) if o.option == args[0]),
                "{args:?}: {e:?}"
            );
        }
    }

    #[test]
    fn code_set_options_take_names_and_numbers() {
        let mut c = OrbConfig::default();
        assert_eq!(c.code_sets, CodeSetConfig::DEFAULT);
        c.apply_args([
            "-ORBnativeCharCodeSet",
            "ISO-8859-1",
            "-ORBnativeWCharCodeSet",
            "0x00010100",
            "-ORBassumedCharCodeSet",
            "utf8",
            "-ORBAssumedWCharCodeSet",
            "UTF-16",
        ])
        .unwrap();
        assert_eq!(
            c.code_sets,
            CodeSetConfig {
                native_char: CodeSetId::ISO_8859_1,
                native_wchar: CodeSetId::UCS_2,
                assumed_char: CodeSetId::UTF_8,
                assumed_wchar: CodeSetId::UTF_16,
            }
        );
        c.apply_args(["-ORBAssumedWCharCodeSet", "None"]).unwrap();
        assert_eq!(c.code_sets.assumed_wchar, CodeSetId::NONE);
        let e = c
            .apply_args(["-ORBAssumedCharCodeSet", "UTF-7"])
            .unwrap_err();
        assert!(e.to_string().contains("unknown code set \"UTF-7\""), "{e}");
    }

    #[test]
    fn option_errors_name_the_option_what_is_wrong_and_what_it_takes() {
        let mut c = OrbConfig::default();
        let error = |c: &mut OrbConfig, args: &[&str]| match c.apply_args(args.iter().copied()) {
            Err(OrbError::Option(e)) => e,
            other => panic!("{args:?}: {other:?}"),
        };
        let e = error(&mut c, &["-ORBFragmentSize", "8"]);
        assert_eq!(e.option, "-ORBFragmentSize");
        assert_eq!(
            e.problem,
            OptionProblem::BadValue {
                value: "8".into(),
                error: crate::orb::ValueError::TooSmall { least: 32 }
            }
        );
        assert_eq!(e.allowed, "octets, at least 32");
        assert_eq!(
            e.to_string(),
            "-ORBFragmentSize does not take \"8\": it is less than 32; it takes octets, at least 32"
        );
        let e = error(&mut c, &["-orbmaxconnections"]);
        assert_eq!(e.problem, OptionProblem::MissingValue);
        assert_eq!(
            e.to_string(),
            "-orbmaxconnections needs a value: server connections open at once \
             (0: derived from the descriptor limit)"
        );
        let e = error(&mut c, &["-ORBFrobnicate", "1"]);
        assert_eq!(e.problem, OptionProblem::Unknown);
        assert!(
            e.to_string().starts_with("unknown option -ORBFrobnicate"),
            "{e}"
        );
        let e = error(&mut c, &["-ORBNativeWCharCodeSet", "UTF-8"]);
        assert_eq!(
            e.to_string(),
            "-ORBNativeWCharCodeSet does not take \"UTF-8\": rtorb cannot use UTF-8 (0x05010001) \
             as native wchar code set: it converts wchar data to UTF-16 (0x00010109) and \
             UCS-2 (0x00010100); it takes UTF-16, UCS-2"
        );
        // Nothing of a bad option is applied.
        assert_eq!(c, OrbConfig::default());
    }
}
