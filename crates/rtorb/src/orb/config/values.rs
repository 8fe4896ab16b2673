//! The values of the `-ORB` options: a typed parser for each kind, and
//! [`ValueError`], what is wrong with a value that does not parse.
//!
//! The table of options ([`crate::orb::options`]) names, for each option,
//! the parser that reads its value into the type its setting holds.

use std::path::PathBuf;
use std::time::Duration;

use rtorb_cdr::CodeSetId;
use rtorb_cdr::codeset::UnknownCodeSet;

use super::orb_config::ConnectionStrategy;
use crate::codesets::{CodeSetError, CodeSetRole};
use crate::orb::strategy::{ServerStrategy, UnknownStrategy};
use crate::policy::{ClientProtocolPolicy, SyncScope};
use crate::rt::{
    BadLane, BadLaneBuffering, BadLaneCpus, LaneBuffering, LaneConfig, LaneCpus, MappingKind,
    SchedPolicy, UnknownPriorityMapping, UnknownSchedPolicy, UnknownWhenDenied, WhenDenied,
};

/// What is wrong with the value of an option (see
/// [`OptionError`](super::OptionError), which names the option and what
/// it takes).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ValueError {
    /// The value is empty.
    #[error("it is empty")]
    Empty,
    /// The value is not a whole number.
    #[error("it is not a whole number")]
    NotANumber,
    /// The number is smaller than the option allows.
    #[error("it is less than {least}")]
    TooSmall {
        /// The least the option takes.
        least: u64,
    },
    /// The number is larger than the option allows.
    #[error("it is more than {most}")]
    TooLarge {
        /// The most the option takes.
        most: u64,
    },
    /// The value is not one of the words the option takes.
    #[error("it is not one of the words the option takes")]
    UnknownWord,
    /// An initial reference is not written `Name=URL`.
    #[error("it is not Name=URL")]
    NotNameUrl,
    /// A list of protocols does not parse.
    #[error("it is not a list of protocols such as uiop,iiop+lite,*")]
    NotProtocols,
    /// The code set is unknown.
    #[error(transparent)]
    UnknownCodeSet(#[from] UnknownCodeSet),
    /// rtorb cannot use the code set for what the option sets.
    #[error(transparent)]
    UnusableCodeSet(#[from] CodeSetError),
    /// The server strategy is unknown.
    #[error(transparent)]
    ServerStrategy(#[from] UnknownStrategy),
    /// The scheduling policy is unknown.
    #[error(transparent)]
    SchedPolicy(#[from] UnknownSchedPolicy),
    /// The priority mapping is unknown.
    #[error(transparent)]
    PriorityMapping(#[from] UnknownPriorityMapping),
    /// What to do when scheduling is denied is unknown.
    #[error(transparent)]
    WhenDenied(#[from] UnknownWhenDenied),
    /// A lane is malformed.
    #[error(transparent)]
    Lane(#[from] BadLane),
    /// A lane's buffering is malformed.
    #[error(transparent)]
    LaneBuffering(#[from] BadLaneBuffering),
    /// A lane's CPUs are malformed.
    #[error(transparent)]
    LaneCpus(#[from] BadLaneCpus),
}

/// A whole number of at most `most`.
fn whole(s: &str, most: u64) -> Result<u64, ValueError> {
    let n = s.trim().parse::<u64>().map_err(|e| match e.kind() {
        std::num::IntErrorKind::PosOverflow => ValueError::TooLarge { most },
        std::num::IntErrorKind::Empty => ValueError::Empty,
        _ => ValueError::NotANumber,
    })?;
    if n > most {
        return Err(ValueError::TooLarge { most });
    }
    Ok(n)
}

/// A count of things (connections, octets, requests).
pub(crate) fn count(s: &str) -> Result<usize, ValueError> {
    let most = u64::try_from(usize::MAX).unwrap_or(u64::MAX);
    Ok(usize::try_from(whole(s, most)?).unwrap_or(usize::MAX))
}

/// A count that fits 32 bits.
pub(crate) fn count_u32(s: &str) -> Result<u32, ValueError> {
    Ok(u32::try_from(whole(s, u64::from(u32::MAX))?).unwrap_or(u32::MAX))
}

/// At least one.
pub(crate) fn at_least_one(s: &str) -> Result<usize, ValueError> {
    match count(s)? {
        0 => Err(ValueError::TooSmall { least: 1 }),
        n => Ok(n),
    }
}

/// Milliseconds.
pub(crate) fn millis(s: &str) -> Result<Duration, ValueError> {
    Ok(Duration::from_millis(whole(s, u64::MAX)?))
}

/// Milliseconds, 0 meaning none.
pub(crate) fn millis_or_none(s: &str) -> Result<Option<Duration>, ValueError> {
    Ok(Some(millis(s)?).filter(|t| !t.is_zero()))
}

/// Milliseconds, 0 meaning 0.
pub(crate) fn some_millis(s: &str) -> Result<Option<Duration>, ValueError> {
    millis(s).map(Some)
}

/// Microseconds (at most `i32::MAX`, what the PM QoS device takes), or
/// `none`.
pub(crate) fn micros_or_none(s: &str) -> Result<Option<Duration>, ValueError> {
    if s.trim().eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    let most = u64::try_from(i32::MAX).unwrap_or(u64::MAX);
    Ok(Some(Duration::from_micros(whole(s, most)?)))
}

/// A number of connections, or `system` (the system's maximum).
pub(crate) fn count_or_system(s: &str) -> Result<Option<u32>, ValueError> {
    if s.trim().eq_ignore_ascii_case("system") {
        return Ok(None);
    }
    count_u32(s).map(Some)
}

/// A fragment size, at least
/// [`MIN_FRAGMENT_SIZE`](rtorb_giop::fragment::MIN_FRAGMENT_SIZE).
pub(crate) fn fragment_size(s: &str) -> Result<Option<usize>, ValueError> {
    let least = rtorb_giop::fragment::MIN_FRAGMENT_SIZE;
    match count(s)? {
        n if n < least => Err(ValueError::TooSmall {
            least: least as u64,
        }),
        n => Ok(Some(n)),
    }
}

/// `yes` or `no` (or `true`, `false`, `1`, `0`), in any case.
pub(crate) fn yes_or_no(s: &str) -> Result<bool, ValueError> {
    match s.trim().to_ascii_lowercase().as_str() {
        "yes" | "true" | "1" => Ok(true),
        "no" | "false" | "0" => Ok(false),
        _ => Err(ValueError::UnknownWord),
    }
}

/// Some text, not empty.
pub(crate) fn text(s: &str) -> Result<String, ValueError> {
    match s.trim() {
        "" => Err(ValueError::Empty),
        t => Ok(t.to_owned()),
    }
}

/// A path.
pub(crate) fn path(s: &str) -> Result<PathBuf, ValueError> {
    text(s).map(PathBuf::from)
}

/// An endpoint, or `none`.
pub(crate) fn endpoint_or_none(s: &str) -> Result<Option<String>, ValueError> {
    match text(s)? {
        t if t.eq_ignore_ascii_case("none") => Ok(None),
        t => Ok(Some(t)),
    }
}

/// Endpoints separated by `;` or spaces.
pub(crate) fn endpoints(s: &str) -> Result<Vec<String>, ValueError> {
    Ok(s.split([';', ' '])
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect())
}

/// `Name=URL`.
pub(crate) fn initial_reference(s: &str) -> Result<(String, String), ValueError> {
    let (name, url) = s.split_once('=').ok_or(ValueError::NotNameUrl)?;
    Ok((name.to_owned(), url.to_owned()))
}

/// `exclusive` or `multiplexed`.
pub(crate) fn connection_strategy(s: &str) -> Result<ConnectionStrategy, ValueError> {
    ConnectionStrategy::parse(s).ok_or(ValueError::UnknownWord)
}

/// A server strategy.
pub(crate) fn server_strategy(s: &str) -> Result<ServerStrategy, ValueError> {
    Ok(s.parse()?)
}

/// `none`, `transport`, `server` or `target`.
pub(crate) fn sync_scope(s: &str) -> Result<SyncScope, ValueError> {
    match s.trim().to_ascii_lowercase().as_str() {
        "none" => Ok(SyncScope::None),
        "transport" => Ok(SyncScope::WithTransport),
        "server" => Ok(SyncScope::WithServer),
        "target" => Ok(SyncScope::WithTarget),
        _ => Err(ValueError::UnknownWord),
    }
}

/// Protocols in order (see [`ClientProtocolPolicy::parse`]).
pub(crate) fn client_protocol(s: &str) -> Result<Option<ClientProtocolPolicy>, ValueError> {
    ClientProtocolPolicy::parse(s)
        .map(Some)
        .ok_or(ValueError::NotProtocols)
}

/// A code set by name or number that rtorb can use as `role`.
fn code_set(s: &str, role: CodeSetRole) -> Result<CodeSetId, ValueError> {
    let cs = if role == CodeSetRole::AssumedWchar && s.trim().eq_ignore_ascii_case("none") {
        CodeSetId::NONE
    } else {
        s.parse()?
    };
    role.check(cs)?;
    Ok(cs)
}

/// A native `char` code set.
pub(crate) fn native_char(s: &str) -> Result<CodeSetId, ValueError> {
    code_set(s, CodeSetRole::NativeChar)
}

/// A native `wchar` code set.
pub(crate) fn native_wchar(s: &str) -> Result<CodeSetId, ValueError> {
    code_set(s, CodeSetRole::NativeWchar)
}

/// An assumed `char` code set.
pub(crate) fn assumed_char(s: &str) -> Result<CodeSetId, ValueError> {
    code_set(s, CodeSetRole::AssumedChar)
}

/// An assumed `wchar` code set, or `none`.
pub(crate) fn assumed_wchar(s: &str) -> Result<CodeSetId, ValueError> {
    code_set(s, CodeSetRole::AssumedWchar)
}

/// A scheduling policy.
pub(crate) fn sched_policy(s: &str) -> Result<SchedPolicy, ValueError> {
    Ok(s.parse()?)
}

/// A priority mapping.
pub(crate) fn priority_mapping(s: &str) -> Result<MappingKind, ValueError> {
    Ok(s.parse()?)
}

/// What to do when scheduling is denied.
pub(crate) fn when_denied(s: &str) -> Result<WhenDenied, ValueError> {
    Ok(s.parse()?)
}

/// A lane, `PRIORITY:THREADS[:ENDPOINT]`.
pub(crate) fn lane(s: &str) -> Result<LaneConfig, ValueError> {
    Ok(s.parse()?)
}

/// A lane's buffering, `REQUESTS[:OCTETS]` or `no`.
pub(crate) fn lane_buffering(s: &str) -> Result<LaneBuffering, ValueError> {
    Ok(s.parse()?)
}

/// A lane's CPUs, `PRIORITY:CPUS`.
pub(crate) fn lane_cpus(s: &str) -> Result<LaneCpus, ValueError> {
    Ok(s.parse()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_say_what_is_wrong() {
        assert_eq!(count("12"), Ok(12));
        assert_eq!(count(" 12 "), Ok(12));
        assert_eq!(count("many"), Err(ValueError::NotANumber));
        assert_eq!(count("-1"), Err(ValueError::NotANumber));
        assert_eq!(count(""), Err(ValueError::Empty));
        assert_eq!(
            count_u32("4294967296"),
            Err(ValueError::TooLarge {
                most: u64::from(u32::MAX)
            })
        );
        assert_eq!(
            count("99999999999999999999999"),
            Err(ValueError::TooLarge {
                most: usize::MAX as u64
            })
        );
        assert_eq!(at_least_one("0"), Err(ValueError::TooSmall { least: 1 }));
        assert_eq!(
            fragment_size("8"),
            Err(ValueError::TooSmall {
                least: rtorb_giop::fragment::MIN_FRAGMENT_SIZE as u64
            })
        );
        assert_eq!(millis_or_none("0"), Ok(None));
        assert_eq!(some_millis("0"), Ok(Some(Duration::ZERO)));
        assert_eq!(
            micros_or_none("2147483648"),
            Err(ValueError::TooLarge {
                most: i32::MAX as u64
            })
        );
        assert_eq!(micros_or_none("None"), Ok(None));
    }

    #[test]
    fn yes_or_no_takes_words_and_digits_in_any_case() {
        assert_eq!(yes_or_no(" Yes "), Ok(true));
        assert_eq!(yes_or_no("0"), Ok(false));
        assert_eq!(yes_or_no("maybe"), Err(ValueError::UnknownWord));
    }

    #[test]
    fn code_sets_are_checked_for_their_role() {
        assert_eq!(native_char("iso-8859-1"), Ok(CodeSetId::ISO_8859_1));
        assert_eq!(assumed_wchar("none"), Ok(CodeSetId::NONE));
        assert!(matches!(
            native_wchar("UTF-8"),
            Err(ValueError::UnusableCodeSet(CodeSetError {
                role: CodeSetRole::NativeWchar,
                ..
            }))
        ));
        assert!(matches!(
            assumed_char("none"),
            Err(ValueError::UnknownCodeSet(_))
        ));
    }
}
