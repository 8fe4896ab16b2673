//! The one table of the ORB's settings and their names: the `-ORB`
//! command-line option, the configuration file's key, the
//! [`OrbBuilder`](super::OrbBuilder) method, the client policy that
//! overrides it per object or thread, and omniORB's setting for the same
//! thing.
//!
//! [`OrbConfig::apply_args`](super::OrbConfig::apply_args) (and with it
//! `Orb::init` and configuration files) accepts exactly the names of this
//! table, in any case: an option's [`name`](OrbOption::name), or one of
//! its [`aliases`](OrbOption::aliases) — the CORBA name of a setting
//! where it differs, and omniORB's where omniORB has a setting that means
//! the same, in the same unit. The README's table of options is this
//! table (a test compares them).
//!
//! ```
//! use rtorb::orb::options::{find, ORB_OPTIONS};
//! use rtorb::orb::OrbConfig;
//!
//! let timeout = find("clientcalltimeoutperiod").unwrap();
//! assert_eq!(timeout.name, "RoundTripTimeout");
//! assert_eq!(timeout.policy, Some("Policy::RelativeRoundtripTimeout"));
//! // omniORB's spelling sets the same thing.
//! let mut c = OrbConfig::default();
//! c.apply_args(["-ORBclientCallTimeOutPeriod", "250"]).unwrap();
//! assert_eq!(c.round_trip_timeout, Some(std::time::Duration::from_millis(250)));
//! assert!(ORB_OPTIONS.iter().any(|o| o.name == "ServerStrategy"));
//! ```

/// One setting of the ORB and its names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OrbOption {
    /// The name after `-ORB` on the command line, and the key in a
    /// configuration file.
    pub name: &'static str,
    /// Other names accepted for it: the CORBA name of the setting where
    /// it differs, and omniORB's where it means the same.
    pub aliases: &'static [&'static str],
    /// The [`OrbBuilder`](super::OrbBuilder) method that sets it, if any.
    pub builder: Option<&'static str>,
    /// The client policy ([`crate::runtime::Policy`]) that overrides it
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
}

/// Every setting the `-ORB` options (and configuration files) set.
pub const ORB_OPTIONS: &[OrbOption] = &[
    OrbOption {
        name: "ListenEndpoints",
        aliases: &[],
        builder: Some("listen"),
        policy: None,
        omniorb: None,
        values: "endpoints separated by `;` or spaces; repeatable",
        default: "none",
        example: "iiop://127.0.0.1:0;uiop:///tmp/rtorb-example.sock",
    },
    OrbOption {
        name: "Endpoint",
        aliases: &[],
        builder: Some("listen"),
        policy: None,
        omniorb: Some("`endPoint` (values `giop:tcp:host:port`)"),
        values: "one endpoint, `iiop://host:port`, `uiop:///path`; repeatable",
        default: "none",
        example: "iiop://127.0.0.1:0",
    },
    OrbOption {
        name: "InitRef",
        aliases: &[],
        builder: Some("initial_reference"),
        policy: None,
        omniorb: Some("`InitRef`"),
        values: "`Name=URL`; repeatable",
        default: "none",
        example: "NameService=corbaloc::127.0.0.1:2809/NameService",
    },
    OrbOption {
        name: "RoundTripTimeout",
        aliases: &["RelativeRoundtripTimeout", "clientCallTimeOutPeriod"],
        builder: Some("round_trip_timeout"),
        policy: Some("Policy::RelativeRoundtripTimeout"),
        omniorb: Some("`clientCallTimeOutPeriod`"),
        values: "milliseconds; 0: none",
        default: "none",
        example: "250",
    },
    OrbOption {
        name: "ConnectTimeout",
        aliases: &[],
        builder: Some("connect_timeout"),
        policy: None,
        omniorb: Some("`clientConnectTimeOutPeriod` (0 there: the call timeout)"),
        values: "milliseconds",
        default: "10000",
        example: "2000",
    },
    OrbOption {
        name: "ServerStrategy",
        aliases: &[],
        builder: Some("server_strategy"),
        policy: None,
        omniorb: Some("`threadPerConnectionPolicy` (1: thread per connection, 0: a pool)"),
        values: "`reactive`, `thread-per-connection`, `leader-followers`",
        default: "thread-per-connection",
        example: "leader-followers",
    },
    OrbOption {
        name: "ServerThreads",
        aliases: &[],
        builder: Some("server_threads"),
        policy: None,
        omniorb: Some("`maxServerThreadPoolSize` (an upper bound there)"),
        values: "threads of the leader/followers pool, at least 1",
        default: "4",
        example: "3",
    },
    OrbOption {
        name: "MaxMessageSize",
        aliases: &["giopMaxMsgSize"],
        builder: Some("max_message_size"),
        policy: None,
        omniorb: Some("`giopMaxMsgSize`"),
        values: "octets after the GIOP header",
        default: "16777216",
        example: "65536",
    },
    OrbOption {
        name: "IncompleteMessageTimeout",
        aliases: &[],
        builder: Some("incomplete_message_timeout"),
        policy: None,
        omniorb: None,
        values: "milliseconds",
        default: "10000",
        example: "1500",
    },
    OrbOption {
        name: "MaxConnections",
        aliases: &[],
        builder: Some("max_connections"),
        policy: None,
        omniorb: None,
        values: "server connections open at once (0: derived from the descriptor limit)",
        default: "0",
        example: "16",
    },
    OrbOption {
        name: "MaxOutputBuffer",
        aliases: &[],
        builder: Some("max_output_buffer"),
        policy: None,
        omniorb: None,
        values: "octets of replies queued for one connection",
        default: "1048576",
        example: "4096",
    },
    OrbOption {
        name: "ServerWriteTimeout",
        aliases: &[],
        builder: Some("server_write_timeout"),
        policy: None,
        omniorb: None,
        values: "milliseconds",
        default: "30000",
        example: "700",
    },
    OrbOption {
        name: "ClientConnectionStrategy",
        aliases: &[],
        builder: Some("connection_strategy"),
        policy: None,
        omniorb: Some("`oneCallPerConnection` (0 there: calls share connections)"),
        values: "`exclusive`, `multiplexed`",
        default: "exclusive",
        example: "multiplexed",
    },
    OrbOption {
        name: "ConnectionIdleTimeout",
        aliases: &[],
        builder: Some("connection_idle_timeout"),
        policy: None,
        omniorb: Some("`outConScanPeriod` (in seconds there)"),
        values: "milliseconds",
        default: "none",
        example: "60000",
    },
    OrbOption {
        name: "FragmentSize",
        aliases: &[],
        builder: Some("fragment_size"),
        policy: None,
        omniorb: None,
        values: "octets, at least 32",
        default: "none",
        example: "32768",
    },
    OrbOption {
        name: "SyncScope",
        aliases: &[],
        builder: Some("sync_scope"),
        policy: Some("Policy::SyncScope"),
        omniorb: None,
        values: "`none`, `transport`, `server`, `target`",
        default: "transport",
        example: "server",
    },
    OrbOption {
        name: "ClientProtocolPolicy",
        aliases: &[],
        builder: Some("client_protocol"),
        policy: Some("Policy::ClientProtocol"),
        omniorb: Some("`clientTransportRule` (rules by address there)"),
        values: "protocols in order, `uiop,iiop+lite,*`",
        default: "none",
        example: "uiop,iiop",
    },
    OrbOption {
        name: "PoaHoldLimit",
        aliases: &[],
        builder: Some("poa_hold_limit"),
        policy: None,
        omniorb: None,
        values: "requests a holding POA manager keeps",
        default: "1024",
        example: "3",
    },
    OrbOption {
        name: "NativeCharCodeSet",
        aliases: &[],
        builder: Some("native_code_sets"),
        policy: None,
        omniorb: Some("`nativeCharCodeSet`"),
        values: "`UTF-8`, `ISO-8859-1`",
        default: "UTF-8",
        example: "ISO-8859-1",
    },
    OrbOption {
        name: "NativeWCharCodeSet",
        aliases: &[],
        builder: Some("native_code_sets"),
        policy: None,
        omniorb: Some("`nativeWCharCodeSet`"),
        values: "`UTF-16`, `UCS-2`",
        default: "UTF-16",
        example: "UCS-2",
    },
    OrbOption {
        name: "AssumedCharCodeSet",
        aliases: &[],
        builder: Some("assumed_code_sets"),
        policy: None,
        omniorb: Some("`defaultCharCodeSet` (for servers' references only there)"),
        values: "`ISO-8859-1`, `UTF-8`",
        default: "ISO-8859-1",
        example: "UTF-8",
    },
    OrbOption {
        name: "AssumedWCharCodeSet",
        aliases: &[],
        builder: Some("assumed_code_sets"),
        policy: None,
        omniorb: Some("`defaultWCharCodeSet` (for servers' references only there)"),
        values: "`none`, `UTF-16`, `UCS-2`",
        default: "none",
        example: "UTF-16",
    },
    OrbOption {
        name: "ConfigFile",
        aliases: &[],
        builder: Some("config_file"),
        policy: None,
        omniorb: Some("`configFile`"),
        values: "a configuration file's path (command line only)",
        default: "the file `RTORB_CONFIG` names",
        example: "/dev/null",
    },
    OrbOption {
        name: "MemoryBudget",
        aliases: &[],
        builder: Some("memory_budget"),
        policy: None,
        omniorb: None,
        values: "octets buffered for all server connections together",
        default: "67108864",
        example: "4194304",
    },
    OrbOption {
        name: "ListenBacklog",
        aliases: &[],
        builder: Some("listen_backlog"),
        policy: None,
        omniorb: None,
        values: "connections waiting to be accepted per endpoint, or `system`",
        default: "system",
        example: "1024",
    },
    OrbOption {
        name: "ServerIdleTimeout",
        aliases: &[],
        builder: Some("server_idle_timeout"),
        policy: None,
        omniorb: Some("`inConScanPeriod` (seconds; a periodic scan)"),
        values: "milliseconds a server connection may stay idle, 0: no limit",
        default: "0",
        example: "180000",
    },
    OrbOption {
        name: "SchedPolicy",
        aliases: &[],
        builder: Some("sched_policy"),
        policy: None,
        omniorb: None,
        values: "SCHED_FIFO, SCHED_RR or SCHED_OTHER (nice values): what CORBA priorities map onto (as TAO's -ORBSchedPolicy)",
        default: "SCHED_FIFO",
        example: "SCHED_RR",
    },
    OrbOption {
        name: "PriorityMapping",
        aliases: &[],
        builder: Some("priority_mapping"),
        policy: None,
        omniorb: None,
        values: "direct, linear or continuous (as TAO's -ORBPriorityMapping); a mapping of one's own through the builder",
        default: "linear",
        example: "direct",
    },
    OrbOption {
        name: "SchedDenied",
        aliases: &[],
        builder: Some("sched_denied"),
        policy: None,
        omniorb: None,
        values: "fail (NO_PERMISSION) or other (run on under SCHED_OTHER) where the system refuses the policy",
        default: "other",
        example: "fail",
    },
    OrbOption {
        name: "Lane",
        aliases: &[],
        builder: Some("threadpool"),
        policy: None,
        omniorb: None,
        values: "a lane of the ORB's thread pool, `PRIORITY:THREADS[:ENDPOINT]` (as TAO's RTORB lanes); repeatable",
        default: "none",
        example: "20000:2:iiop://127.0.0.1:0",
    },
    OrbOption {
        name: "LaneBuffering",
        aliases: &[],
        builder: Some("threadpool"),
        policy: None,
        omniorb: None,
        values: "what each `-ORBLane` lane buffers while its threads are all busy, `REQUESTS[:OCTETS]` (0: no limit), or no (TRANSIENT at once)",
        default: "64",
        example: "16:65536",
    },
    OrbOption {
        name: "LaneBorrowing",
        aliases: &[],
        builder: Some("threadpool"),
        policy: None,
        omniorb: None,
        values: "yes or no: a busy `-ORBLane` lane runs requests on a free thread of a lower lane, at its own priority",
        default: "no",
        example: "yes",
    },
    OrbOption {
        name: "LaneCpus",
        aliases: &[],
        builder: Some("threadpool"),
        policy: None,
        omniorb: None,
        values: "the CPUs of the `-ORBLane` lane at a priority, `PRIORITY:CPUS` (CPUS as 3, 0,2 or 1-3; without it, any CPU); repeatable",
        default: "none",
        example: "90:1",
    },
    OrbOption {
        name: "LockMemory",
        aliases: &[],
        builder: Some("lock_memory"),
        policy: None,
        omniorb: None,
        values: "yes or no: lock the process's memory when the ORB starts (mlockall), so that no request waits for a page",
        default: "no",
        example: "yes",
    },
    OrbOption {
        name: "CpuLatency",
        aliases: &[],
        builder: Some("cpu_latency"),
        policy: None,
        omniorb: None,
        values: "microseconds, or none: the CPUs' wake-up latency bound held through /dev/cpu_dma_latency while the ORB runs",
        default: "none",
        example: "0",
    },
];

/// The option `name` (what follows `-ORB`, in any case) names, by its
/// name or an alias.
pub fn find(name: &str) -> Option<&'static OrbOption> {
    ORB_OPTIONS.iter().find(|o| {
        o.name.eq_ignore_ascii_case(name) || o.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::orb::OrbConfig;

    fn names(o: &OrbOption) -> impl Iterator<Item = &'static str> {
        std::iter::once(o.name).chain(o.aliases.iter().copied())
    }

    #[test]
    fn every_name_names_one_option() {
        let mut seen: Vec<String> = Vec::new();
        for o in ORB_OPTIONS {
            for n in names(o) {
                let lower = n.to_ascii_lowercase();
                assert!(!seen.contains(&lower), "{n} names two options");
                seen.push(lower);
                assert_eq!(find(&n.to_ascii_uppercase()), Some(o));
            }
        }
        assert_eq!(find("Frobnicate"), None);
    }

    #[test]
    fn every_option_and_alias_is_accepted_and_sets_the_same() {
        for o in ORB_OPTIONS {
            let mut by_name = OrbConfig::default();
            let rest = by_name
                .apply_args(["x", &format!("-ORB{}", o.name), o.example])
                .unwrap_or_else(|e| panic!("-ORB{} {}: {e}", o.name, o.example));
            assert_eq!(rest, ["x"]);
            if o.name != "ConfigFile" {
                assert_ne!(by_name, OrbConfig::default(), "{} changes nothing", o.name);
            }
            for alias in o.aliases {
                let mut by_alias = OrbConfig::default();
                by_alias
                    .apply_args([format!("-ORB{alias}"), o.example.to_owned()])
                    .unwrap();
                assert_eq!(by_alias, by_name, "{alias} sets what {} sets", o.name);
            }
            if o.name != "ConfigFile" {
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
            if o.default == "none" && o.name != "AssumedWCharCodeSet" || o.name == "ConfigFile" {
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
}
