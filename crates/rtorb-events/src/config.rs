//! A channel's settings ([`ChannelConfig`]): the length of each consumer's
//! queue and what happens when it is full ([`OverflowPolicy`]), how many
//! proxies the channel serves at most, how often it asks a pull supplier
//! again, and how long a call to a client may take. They come from code,
//! from `name = value` lines ([`ChannelConfig::set`],
//! [`ChannelConfig::from_text`]) or from a file
//! ([`ChannelConfig::from_file`]).

use std::path::Path;
use std::time::Duration;

/// What a consumer's queue does with an event that arrives when it is
/// full, as a consumer that is slow or blocked fills it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OverflowPolicy {
    /// Drop the oldest queued event to make room (the consumer sees the
    /// latest events).
    #[default]
    DropOldest,
    /// Drop the event that arrived (the consumer sees the earliest
    /// events).
    DropNewest,
    /// Disconnect the consumer: its proxy is destroyed and it is told
    /// with its `disconnect_*` operation.
    DisconnectConsumer,
}

impl OverflowPolicy {
    /// The policy named `name`: `drop-oldest`, `drop-newest` or
    /// `disconnect`.
    pub fn from_name(name: &str) -> Option<OverflowPolicy> {
        match name {
            "drop-oldest" => Some(OverflowPolicy::DropOldest),
            "drop-newest" => Some(OverflowPolicy::DropNewest),
            "disconnect" => Some(OverflowPolicy::DisconnectConsumer),
            _ => None,
        }
    }

    /// The policy's name, as [`OverflowPolicy::from_name`] reads it.
    pub fn name(self) -> &'static str {
        match self {
            OverflowPolicy::DropOldest => "drop-oldest",
            OverflowPolicy::DropNewest => "drop-newest",
            OverflowPolicy::DisconnectConsumer => "disconnect",
        }
    }
}

/// The settings of an event channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChannelConfig {
    /// The events each consumer's queue holds at most (`QueueLength`,
    /// at least 1; 1024 by default).
    pub queue_length: usize,
    /// What a full queue does with another event (`Overflow`; drop the
    /// oldest by default).
    pub overflow: OverflowPolicy,
    /// The proxies the channel serves at once, suppliers' and consumers'
    /// together (`MaxProxies`, 1024 by default); another is refused with
    /// `IMP_LIMIT`.
    pub max_proxies: usize,
    /// How long the channel waits before asking a pull supplier that had
    /// no event again (`PullRetryMs`, 100 ms by default).
    pub pull_retry: Duration,
    /// How long a call of the channel to a client (a push, a pull, a
    /// `disconnect_*`) may take before it fails with `TIMEOUT`
    /// (`CallTimeoutMs`, 10 s by default).
    pub call_timeout: Duration,
}

impl Default for ChannelConfig {
    fn default() -> ChannelConfig {
        ChannelConfig {
            queue_length: 1024,
            overflow: OverflowPolicy::DropOldest,
            max_proxies: 1024,
            pull_retry: Duration::from_millis(100),
            call_timeout: Duration::from_secs(10),
        }
    }
}

/// A setting that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// The setting has no such name.
    #[error(
        "no channel setting is named {0:?} (QueueLength, Overflow, MaxProxies, PullRetryMs, CallTimeoutMs)"
    )]
    UnknownSetting(String),
    /// The value does not suit the setting.
    #[error("{name} = {value:?}: {expected}")]
    BadValue {
        /// The setting.
        name: String,
        /// What it was given.
        value: String,
        /// What it takes.
        expected: &'static str,
    },
    /// A line of a file is not `name = value`.
    #[error("line {line}: not `name = value`: {text:?}")]
    BadLine {
        /// The line's number, from 1.
        line: usize,
        /// The line.
        text: String,
    },
    /// The file could not be read.
    #[error("cannot read {path}: {reason}")]
    File {
        /// The file.
        path: String,
        /// Why.
        reason: String,
    },
}

impl ChannelConfig {
    /// Sets the setting `name` (as the field docs name them, in any case)
    /// to `value`.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), ConfigError> {
        let bad = |expected| ConfigError::BadValue {
            name: name.to_owned(),
            value: value.to_owned(),
            expected,
        };
        let count = || {
            value
                .parse::<usize>()
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| bad("a whole number above 0"))
        };
        let millis = || {
            value
                .parse::<u64>()
                .map(Duration::from_millis)
                .map_err(|_| bad("milliseconds, a whole number"))
        };
        match name.to_ascii_lowercase().as_str() {
            "queuelength" => self.queue_length = count()?,
            "maxproxies" => self.max_proxies = count()?,
            "overflow" => {
                self.overflow = OverflowPolicy::from_name(value)
                    .ok_or_else(|| bad("drop-oldest, drop-newest or disconnect"))?;
            }
            "pullretryms" => self.pull_retry = millis()?,
            "calltimeoutms" => self.call_timeout = millis()?,
            _ => return Err(ConfigError::UnknownSetting(name.to_owned())),
        }
        Ok(())
    }

    /// The default settings changed by `text`: a `name = value` per line;
    /// blank lines and lines starting with `#` are skipped.
    pub fn from_text(text: &str) -> Result<ChannelConfig, ConfigError> {
        let mut config = ChannelConfig::default();
        for (index, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((name, value)) = line.split_once('=') else {
                return Err(ConfigError::BadLine {
                    line: index + 1,
                    text: line.to_owned(),
                });
            };
            config.set(name.trim(), value.trim())?;
        }
        Ok(config)
    }

    /// The settings of the file at `path`, as [`ChannelConfig::from_text`]
    /// reads them.
    pub fn from_file(path: &Path) -> Result<ChannelConfig, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError::File {
            path: path.display().to_string(),
            reason: e.to_string(),
        })?;
        ChannelConfig::from_text(&text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_sets_what_it_names_and_keeps_the_rest() {
        let config =
            ChannelConfig::from_text("# a channel\nQueueLength = 8\n\noverflow = disconnect\n")
                .unwrap();
        assert_eq!(config.queue_length, 8);
        assert_eq!(config.overflow, OverflowPolicy::DisconnectConsumer);
        assert_eq!(config.max_proxies, ChannelConfig::default().max_proxies);
    }

    #[test]
    fn bad_settings_are_refused_with_what_is_wrong() {
        assert_eq!(
            ChannelConfig::from_text("Colour = blue"),
            Err(ConfigError::UnknownSetting("Colour".into()))
        );
        assert!(matches!(
            ChannelConfig::from_text("QueueLength = 0"),
            Err(ConfigError::BadValue {
                expected: "a whole number above 0",
                ..
            })
        ));
        assert!(matches!(
            ChannelConfig::from_text("Overflow = sometimes"),
            Err(ConfigError::BadValue { .. })
        ));
        assert_eq!(
            ChannelConfig::from_text("QueueLength 3"),
            Err(ConfigError::BadLine {
                line: 1,
                text: "QueueLength 3".into()
            })
        );
    }

    #[test]
    fn policies_read_back_their_names() {
        for policy in [
            OverflowPolicy::DropOldest,
            OverflowPolicy::DropNewest,
            OverflowPolicy::DisconnectConsumer,
        ] {
            assert_eq!(OverflowPolicy::from_name(policy.name()), Some(policy));
        }
    }
}
