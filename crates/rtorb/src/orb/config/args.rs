//! The `-ORB` command-line options: each read into its setting of an
//! [`OrbConfig`].

use std::time::Duration;

use rtorb_cdr::CodeSetId;

use super::{ConnectionStrategy, OrbConfig};
use crate::orb::OrbError;
use crate::runtime::{ClientProtocolPolicy, SyncScope};

impl OrbConfig {
    /// Takes the `-ORB` options out of `args` into the configuration and
    /// returns the other arguments, in order.
    ///
    /// The options, their other names (omniORB's among them), builder
    /// methods, policies and defaults are the table
    /// [`ORB_OPTIONS`](crate::orb::options::ORB_OPTIONS), which the README
    /// shows.
    ///
    /// Options (names in any case): `-ORBListenEndpoints E` (several
    /// endpoints separated by `;` or spaces), `-ORBEndpoint E`,
    /// `-ORBInitRef Name=URL`, `-ORBRoundTripTimeout MS` (0: none) and
    /// `-ORBConnectTimeout MS` (milliseconds), and for the server
    /// `-ORBServerStrategy reactive|thread-per-connection|leader-followers`,
    /// `-ORBServerThreads N`, `-ORBMaxMessageSize OCTETS`,
    /// `-ORBIncompleteMessageTimeout MS`, `-ORBMaxConnections N`,
    /// `-ORBMaxOutputBuffer OCTETS`, `-ORBServerWriteTimeout MS` and
    /// `-ORBMemoryBudget OCTETS`, and
    /// for the client `-ORBClientConnectionStrategy exclusive|multiplexed`,
    /// `-ORBConnectionIdleTimeout MS`, `-ORBFragmentSize OCTETS`,
    /// `-ORBSyncScope none|transport|server|target`,
    /// `-ORBClientProtocolPolicy LIST` (see
    /// [`ClientProtocolPolicy::parse`]: `uiop,iiop+lite,*`), for the
    /// object adapters `-ORBPoaHoldLimit N`, and for text
    /// `-ORBNativeCharCodeSet UTF-8|ISO-8859-1`,
    /// `-ORBNativeWCharCodeSet UTF-16|UCS-2`,
    /// `-ORBAssumedCharCodeSet ISO-8859-1|UTF-8` and
    /// `-ORBAssumedWCharCodeSet none|UTF-16|UCS-2` (see [`CodeSetConfig`](crate::codesets::CodeSetConfig);
    /// code sets named as in the OSF registry, in any case, or by number,
    /// `0x05010001`). `-ORBConfigFile PATH`
    /// applies a configuration file (see [`OrbConfig::apply_file`]) at
    /// that point of the arguments; [`crate::orb::Orb::init`] instead applies
    /// it before every other option (see [`OrbConfig::from_init_args`]).
    /// Any other argument starting with `-ORB` is an error.
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
            // By its name or an alias, in any case: the table's name.
            let Some(known) = crate::orb::options::find(&arg[4..]) else {
                return Err(OrbError::Args(format!("unknown option {arg}")));
            };
            let option = known.name.to_ascii_lowercase();
            let mut value = || {
                it.next()
                    .ok_or_else(|| OrbError::Args(format!("{arg} needs a value")))
            };
            match option.as_str() {
                "listenendpoints" => {
                    let v = value()?;
                    self.listen.extend(
                        v.split([';', ' '])
                            .filter(|s| !s.is_empty())
                            .map(str::to_owned),
                    );
                }
                "endpoint" => {
                    let v = value()?;
                    self.listen.push(v);
                }
                "initref" => {
                    let v = value()?;
                    let Some((name, url)) = v.split_once('=') else {
                        return Err(OrbError::Args(format!("{arg} wants Name=URL, not {v:?}")));
                    };
                    self.initial_references
                        .push((name.to_owned(), url.to_owned()));
                }
                "roundtriptimeout" => {
                    let v = value()?;
                    // 0: no limit, as omniORB's clientCallTimeOutPeriod.
                    self.round_trip_timeout = Some(millis(&arg, &v)?).filter(|t| !t.is_zero());
                }
                "connecttimeout" => {
                    let v = value()?;
                    self.connect_timeout = millis(&arg, &v)?;
                }
                "serverstrategy" => {
                    let v = value()?;
                    self.server_strategy = v
                        .parse()
                        .map_err(|e| OrbError::Args(format!("{arg}: {e}")))?;
                }
                "serverthreads" => {
                    let v = value()?;
                    self.server_threads = count(&arg, &v)?.max(1);
                }
                "maxmessagesize" => {
                    let v = value()?;
                    self.max_message_size = v.parse().map_err(|_| {
                        OrbError::Args(format!("{arg} wants a number of octets, not {v:?}"))
                    })?;
                }
                "incompletemessagetimeout" => {
                    let v = value()?;
                    self.incomplete_message_timeout = millis(&arg, &v)?;
                }
                "maxconnections" => {
                    let v = value()?;
                    self.max_connections = count(&arg, &v)?;
                }
                "listenbacklog" => {
                    let v = value()?;
                    self.listen_backlog = if v.trim().eq_ignore_ascii_case("system") {
                        None
                    } else {
                        Some(v.parse().map_err(|_| {
                            OrbError::Args(format!(
                                "{arg} wants a number of connections or system, not {v:?}"
                            ))
                        })?)
                    };
                }
                "maxoutputbuffer" => {
                    let v = value()?;
                    self.max_output_buffer = count(&arg, &v)?;
                }
                "memorybudget" => {
                    let v = value()?;
                    self.memory_budget = count(&arg, &v)?;
                }
                "serveridletimeout" => {
                    let v = value()?;
                    // 0: never.
                    self.server_idle_timeout = Some(millis(&arg, &v)?).filter(|t| !t.is_zero());
                }
                "schedpolicy" => {
                    let v = value()?;
                    self.sched_policy = v
                        .parse()
                        .map_err(|e| OrbError::Args(format!("{arg}: {e}")))?;
                }
                "prioritymapping" => {
                    let v = value()?;
                    self.priority_mapping = v
                        .parse()
                        .map_err(|e| OrbError::Args(format!("{arg}: {e}")))?;
                }
                "scheddenied" => {
                    let v = value()?;
                    self.sched_denied = v
                        .parse()
                        .map_err(|e| OrbError::Args(format!("{arg}: {e}")))?;
                }
                "lane" => {
                    let v = value()?;
                    let lane = v
                        .parse()
                        .map_err(|e| OrbError::Args(format!("{arg}: {e}")))?;
                    self.lanes.push(lane);
                }
                "lanebuffering" => {
                    let v = value()?;
                    self.lane_buffering = v
                        .parse()
                        .map_err(|e| OrbError::Args(format!("{arg}: {e}")))?;
                }
                "lanecpus" => {
                    let v = value()?;
                    let cpus = v
                        .parse()
                        .map_err(|e| OrbError::Args(format!("{arg}: {e}")))?;
                    self.lane_cpus.push(cpus);
                }
                "lockmemory" => {
                    let v = value()?;
                    self.lock_memory = crate::rt::yes_or_no(&v).ok_or_else(|| {
                        OrbError::Args(format!("{arg} wants yes or no, not {v:?}"))
                    })?;
                }
                "cpulatency" => {
                    let v = value()?;
                    self.cpu_latency = if v.trim().eq_ignore_ascii_case("none") {
                        None
                    } else {
                        let micros = v
                            .trim()
                            .parse::<u32>()
                            .ok()
                            .filter(|m| i32::try_from(*m).is_ok());
                        Some(Duration::from_micros(u64::from(micros.ok_or_else(
                            || {
                                OrbError::Args(format!(
                                    "{arg} wants microseconds or none, not {v:?}"
                                ))
                            },
                        )?)))
                    };
                }
                "laneborrowing" => {
                    let v = value()?;
                    self.lane_borrowing = crate::rt::yes_or_no(&v).ok_or_else(|| {
                        OrbError::Args(format!("{arg} wants yes or no, not {v:?}"))
                    })?;
                }
                "serverwritetimeout" => {
                    let v = value()?;
                    self.server_write_timeout = millis(&arg, &v)?;
                }
                "clientconnectionstrategy" => {
                    let v = value()?;
                    self.connection_strategy = ConnectionStrategy::parse(&v).ok_or_else(|| {
                        OrbError::Args(format!("{arg} wants exclusive or multiplexed, not {v:?}"))
                    })?;
                }
                "connectionidletimeout" => {
                    let v = value()?;
                    self.connection_idle_timeout = Some(millis(&arg, &v)?);
                }
                "fragmentsize" => {
                    let v = value()?;
                    let n = v
                        .parse::<usize>()
                        .ok()
                        .filter(|n| *n >= rtorb_giop::fragment::MIN_FRAGMENT_SIZE)
                        .ok_or_else(|| {
                            OrbError::Args(format!(
                                "{arg} wants a size of at least {} octets, not {v:?}",
                                rtorb_giop::fragment::MIN_FRAGMENT_SIZE
                            ))
                        })?;
                    self.fragment_size = Some(n);
                }
                "syncscope" => {
                    let v = value()?;
                    self.sync_scope = match v.to_ascii_lowercase().as_str() {
                        "none" => SyncScope::None,
                        "transport" => SyncScope::WithTransport,
                        "server" => SyncScope::WithServer,
                        "target" => SyncScope::WithTarget,
                        _ => {
                            return Err(OrbError::Args(format!(
                                "{arg} wants none, transport, server or target, not {v:?}"
                            )));
                        }
                    };
                }
                "clientprotocolpolicy" => {
                    let v = value()?;
                    self.client_protocol =
                        Some(ClientProtocolPolicy::parse(&v).ok_or_else(|| {
                            OrbError::Args(format!(
                                "{arg} wants a list like uiop,iiop+lite,*, not {v:?}"
                            ))
                        })?);
                }
                "poaholdlimit" => {
                    let v = value()?;
                    self.poa_hold_limit = v
                        .parse()
                        .map_err(|_| OrbError::Args(format!("{arg} wants a number, not {v:?}")))?;
                }
                "nativecharcodeset" => {
                    let v = value()?;
                    self.code_sets.native_char = code_set(&arg, &v, false)?;
                    self.code_sets
                        .check()
                        .map_err(|e| OrbError::Args(e.to_string()))?;
                }
                "nativewcharcodeset" => {
                    let v = value()?;
                    self.code_sets.native_wchar = code_set(&arg, &v, false)?;
                    self.code_sets
                        .check()
                        .map_err(|e| OrbError::Args(e.to_string()))?;
                }
                "assumedcharcodeset" => {
                    let v = value()?;
                    self.code_sets.assumed_char = code_set(&arg, &v, false)?;
                    self.code_sets
                        .check()
                        .map_err(|e| OrbError::Args(e.to_string()))?;
                }
                "assumedwcharcodeset" => {
                    let v = value()?;
                    self.code_sets.assumed_wchar = code_set(&arg, &v, true)?;
                    self.code_sets
                        .check()
                        .map_err(|e| OrbError::Args(e.to_string()))?;
                }
                "configfile" => {
                    let v = value()?;
                    self.apply_file(v)?;
                }
                _ => return Err(OrbError::Args(format!("unknown option {arg}"))),
            }
        }
        Ok(rest)
    }
}

fn millis(option: &str, v: &str) -> Result<Duration, OrbError> {
    v.parse::<u64>()
        .map(Duration::from_millis)
        .map_err(|_| OrbError::Args(format!("{option} wants milliseconds, not {v:?}")))
}

/// A code set by name or number; `none` too where `none_allowed`.
fn code_set(option: &str, v: &str, none_allowed: bool) -> Result<CodeSetId, OrbError> {
    if none_allowed && v.trim().eq_ignore_ascii_case("none") {
        return Ok(CodeSetId::NONE);
    }
    v.parse()
        .map_err(|e: rtorb_cdr::codeset::UnknownCodeSet| OrbError::Args(format!("{option}: {e}")))
}

fn count(option: &str, v: &str) -> Result<usize, OrbError> {
    v.parse::<usize>()
        .map_err(|_| OrbError::Args(format!("{option} wants a number, not {v:?}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codesets::CodeSetConfig;
    use crate::orb::strategy::ServerStrategy;

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
            assert!(
                matches!(c.apply_args(args.iter().copied()), Err(OrbError::Args(_))),
                "{args:?}"
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
}
