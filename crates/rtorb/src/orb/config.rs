//! What an [`super::Orb`] is configured with, and the `-ORB` command-line
//! options that set it.

use std::time::Duration;

use super::OrbError;
use crate::runtime::{ClientProtocolPolicy, SyncScope};

/// How the client side uses its connections to an endpoint.
///
/// Set with [`super::OrbBuilder::connection_strategy`] or
/// `-ORBClientConnectionStrategy exclusive|multiplexed`.
///
/// ```
/// use std::sync::Arc;
/// use std::time::Duration;
/// use rtorb::orb::{ConnectionStrategy, Orb};
/// use rtorb::runtime::{bad_operation, ServerRequest, Skeleton, SystemException};
/// use rtorb_cdr::{CdrDecode, CdrEncode};
///
/// struct Echo;
/// impl Skeleton for Echo {
///     fn repository_ids(&self) -> &'static [&'static str] { &["IDL:Echo:1.0"] }
///     fn dispatch(&self, req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
///         match req.operation() {
///             "echo" => {
///                 let l = i32::decode(req.arguments())?;
///                 req.write_results(|e| l.encode(e))
///             }
///             _ => Err(bad_operation()),
///         }
///     }
/// }
///
/// let server = Orb::builder().listen("iiop://127.0.0.1:0").build().unwrap();
/// let ior = server.object_to_string(&server.activate(Arc::new(Echo))).unwrap();
///
/// let (client, _) = Orb::init(["-ORBClientConnectionStrategy", "multiplexed"]).unwrap();
/// assert_eq!(client.config().connection_strategy, ConnectionStrategy::Multiplexed);
/// let obj = client.string_to_object(&ior).unwrap();
/// // Explicit binding: connected before the first call.
/// assert_eq!(obj.validate_connection(), Ok(true));
/// let calls: Vec<_> = (0..4)
///     .map(|i: i32| {
///         let obj = obj.clone();
///         std::thread::spawn(move || {
///             obj.invoke("echo", |e| i.encode(e)).unwrap()
///                 .decode::<i32, SystemException>(i32::decode).unwrap()
///         })
///     })
///     .collect();
/// for (i, c) in calls.into_iter().enumerate() {
///     assert_eq!(c.join().unwrap(), i as i32);
/// }
/// // One shared connection carried every call.
/// assert_eq!(client.idle_connections(), 1);
/// server.shutdown();
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ConnectionStrategy {
    /// One request in flight per connection: a call takes an idle
    /// connection to the endpoint (or opens one) and has it to itself
    /// until its reply has come. Concurrent calls use as many
    /// connections. The default: no thread ever waits for another's
    /// reply, which keeps priorities apart.
    #[default]
    Exclusive,
    /// One connection per endpoint shared by every call: many requests in
    /// flight at once, each calling thread waiting for its own reply
    /// (leader/followers: one waiting thread reads and hands the other
    /// replies to their threads).
    Multiplexed,
}

impl ConnectionStrategy {
    /// Parses `exclusive` or `multiplexed` (any case; `mux` too).
    pub fn parse(s: &str) -> Option<ConnectionStrategy> {
        match s.to_ascii_lowercase().as_str() {
            "exclusive" => Some(ConnectionStrategy::Exclusive),
            "multiplexed" | "mux" => Some(ConnectionStrategy::Multiplexed),
            _ => None,
        }
    }
}

/// The settings of an ORB.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrbConfig {
    /// Endpoints to listen on (`iiop://127.0.0.1:0`, `uiop:///tmp/x.sock`).
    pub listen: Vec<String>,
    /// Initial references by name (`-ORBInitRef Name=URL`).
    pub initial_references: Vec<(String, String)>,
    /// How long a twoway call may take from sending the request to
    /// receiving its reply (the relative round-trip timeout); `None`: no
    /// limit. An expired call fails with `TIMEOUT`.
    pub round_trip_timeout: Option<Duration>,
    /// How long opening a connection may take.
    pub connect_timeout: Duration,
    /// How long the server waits to write a reply to a client that does
    /// not read.
    pub server_write_timeout: Duration,
    /// How often an idle server connection looks whether the ORB is
    /// shutting down.
    pub server_poll_interval: Duration,
    /// How client calls use connections (default
    /// [`ConnectionStrategy::Exclusive`]).
    pub connection_strategy: ConnectionStrategy,
    /// How long a client connection may stay unused before it is closed;
    /// `None` (the default): until the ORB is dropped or the server
    /// closes it.
    pub connection_idle_timeout: Option<Duration>,
    /// The largest GIOP message sent in one piece, client requests and
    /// server replies alike; a larger GIOP 1.1 or 1.2 message goes out as
    /// fragments of at most this size (GIOP 1.0 and GIOPlite cannot
    /// fragment: sent whole). `None` (the default): never fragment.
    pub max_message_size: Option<usize>,
    /// The sync scope of oneway calls that set none at object or thread
    /// level (default [`SyncScope::WithTransport`]).
    pub sync_scope: SyncScope,
    /// The ORB's `ClientProtocolPolicy`, unless the object or thread
    /// overrides it; `None` (the default): every profile in the order of
    /// the reference.
    pub client_protocol: Option<ClientProtocolPolicy>,
}

impl Default for OrbConfig {
    fn default() -> Self {
        OrbConfig {
            listen: Vec::new(),
            initial_references: Vec::new(),
            round_trip_timeout: None,
            connect_timeout: Duration::from_secs(10),
            server_write_timeout: Duration::from_secs(30),
            server_poll_interval: Duration::from_millis(50),
            connection_strategy: ConnectionStrategy::Exclusive,
            connection_idle_timeout: None,
            max_message_size: None,
            sync_scope: SyncScope::WithTransport,
            client_protocol: None,
        }
    }
}

impl OrbConfig {
    /// Takes the `-ORB` options out of `args` into the configuration and
    /// returns the other arguments, in order.
    ///
    /// Options (names in any case): `-ORBListenEndpoints E` (several
    /// endpoints separated by `;` or spaces), `-ORBEndpoint E`,
    /// `-ORBInitRef Name=URL`, `-ORBRoundTripTimeout MS` and
    /// `-ORBConnectTimeout MS` (milliseconds),
    /// `-ORBClientConnectionStrategy exclusive|multiplexed`,
    /// `-ORBConnectionIdleTimeout MS`, `-ORBMaxMessageSize OCTETS`,
    /// `-ORBSyncScope none|transport|server|target` and
    /// `-ORBClientProtocolPolicy LIST` (see
    /// [`ClientProtocolPolicy::parse`]: `uiop,iiop+lite,*`). Any other
    /// argument starting with `-ORB` is an error.
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
            let option = arg[4..].to_ascii_lowercase();
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
                    self.round_trip_timeout = Some(millis(&arg, &v)?);
                }
                "connecttimeout" => {
                    let v = value()?;
                    self.connect_timeout = millis(&arg, &v)?;
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
                "maxmessagesize" => {
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
                    self.max_message_size = Some(n);
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

#[cfg(test)]
mod tests {
    use super::*;

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
            ])
            .unwrap();
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
                "-ORBMaxMessageSize",
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
        assert_eq!(c.max_message_size, Some(65536));
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
            &["-ORBClientConnectionStrategy", "shared"],
            &["-ORBMaxMessageSize", "8"],
            &["-ORBSyncScope", "maybe"],
            &["-ORBClientProtocolPolicy", "iiop+tls"],
        ] {
            let mut c = OrbConfig::default();
            assert!(
                matches!(c.apply_args(args.iter().copied()), Err(OrbError::Args(_))),
                "{args:?}"
            );
        }
    }
}
