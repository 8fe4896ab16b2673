//! What an [`super::Orb`] is configured with, and the `-ORB` command-line
//! options that set it.

use std::time::Duration;

use super::OrbError;

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
    /// How many requests a POA manager in the holding state lets wait;
    /// more get `TRANSIENT` (`-ORBPoaHoldLimit N`).
    pub poa_hold_limit: usize,
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
            poa_hold_limit: 1024,
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
    /// `-ORBConnectTimeout MS` (milliseconds), `-ORBPoaHoldLimit N`. Any other argument starting
    /// with `-ORB` is an error.
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
                "poaholdlimit" => {
                    let v = value()?;
                    self.poa_hold_limit = v
                        .parse()
                        .map_err(|_| OrbError::Args(format!("{arg} wants a number, not {v:?}")))?;
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
    }

    #[test]
    fn bad_orb_options_are_errors() {
        for args in [
            &["-ORBEndpoint"][..],
            &["-ORBInitRef", "NoEquals"],
            &["-ORBRoundTripTimeout", "soon"],
            &["-ORBFrobnicate", "1"],
        ] {
            let mut c = OrbConfig::default();
            assert!(
                matches!(c.apply_args(args.iter().copied()), Err(OrbError::Args(_))),
                "{args:?}"
            );
        }
    }
}
