//! Endpoints: where a protocol listens or connects, and the string syntax
//! they share.
//!
//! Every endpoint string has the form
//!
//! ```text
//! <protocol>://[<major>.<minor>@]<address>[?<option>=<value>[&...]]
//! ```
//!
//! - `<protocol>` names a registered [`ProtocolFactory`](super::ProtocolFactory)
//!   (`iiop`, `uiop`), in any case.
//! - The GIOP version is the highest version the endpoint speaks and goes
//!   into the profiles made from it; it defaults to 1.2.
//! - `<address>` is the protocol's own (`host:port` for IIOP, a socket
//!   path for UIOP).
//! - Options follow a `?` (IIOP also accepts `/?`, the form it prints).
//!   Every protocol takes `giop=lite` (GIOPlite messaging, which needs GIOP
//!   1.2) and `giop=standard` (the default); a protocol may add its own.
//!
//! GIOPlite is an option rather than a separate protocol name because it is
//! a choice of messaging over an unchanged transport: an IIOP endpoint with
//! `giop=lite` connects and listens exactly like any IIOP endpoint, and its
//! profiles are IIOP profiles that carry a [`TAG_RTORB_GIOP_LITE`]
//! component.
//!
//! [`TAG_RTORB_GIOP_LITE`]: super::TAG_RTORB_GIOP_LITE

use std::any::Any;
use std::fmt;

use rtorb_cdr::Version;
use rtorb_giop::FrameProtocol;
use rtorb_giop::ior::tags::ProfileId;

use super::error::EndpointError;

/// The GIOP version of an endpoint that names none.
pub const DEFAULT_GIOP_VERSION: Version = Version::V1_2;

/// A protocol address: where an acceptor listens or a connector connects.
///
/// Each protocol has its own endpoint type ([`IiopEndpoint`],
/// [`UiopEndpoint`]); the ORB core handles them as `dyn Endpoint` and hands
/// them back to the protocol that made them. Its [`fmt::Display`] form is
/// the canonical endpoint string, which parses back to an equal endpoint.
/// The endpoint of a protocol over stream sockets implements
/// [`StreamEndpoint`](super::StreamEndpoint) instead, which makes it an
/// `Endpoint`.
///
/// [`IiopEndpoint`]: super::iiop::IiopEndpoint
/// [`UiopEndpoint`]: super::uiop::UiopEndpoint
pub trait Endpoint: fmt::Debug + fmt::Display + Send + Sync + Any {
    /// The protocol name, as in the endpoint string (`"iiop"`).
    fn protocol(&self) -> &'static str;
    /// The tag of the profiles made from this endpoint.
    fn profile_tag(&self) -> ProfileId;
    /// The highest GIOP version spoken at this endpoint.
    fn version(&self) -> Version;
    /// The messaging protocol spoken at this endpoint (GIOP or GIOPlite).
    fn messaging(&self) -> FrameProtocol;
    /// A boxed copy.
    fn clone_box(&self) -> Box<dyn Endpoint>;
    /// The endpoint as [`Any`], for its protocol to downcast.
    fn as_any(&self) -> &dyn Any;
}

impl dyn Endpoint {
    /// The endpoint as its concrete type, if it is one.
    pub fn downcast_ref<T: Endpoint>(&self) -> Option<&T> {
        self.as_any().downcast_ref::<T>()
    }
}

impl Clone for Box<dyn Endpoint> {
    fn clone(&self) -> Box<dyn Endpoint> {
        self.clone_box()
    }
}

/// Splits `s` into its protocol name (lower-cased) and the rest after
/// `://`.
pub fn split_scheme(s: &str) -> Result<(String, &str), EndpointError> {
    let Some((scheme, rest)) = s.split_once("://") else {
        return Err(EndpointError::MissingScheme(s.to_owned()));
    };
    let valid = !scheme.is_empty()
        && scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'+' || b == b'.');
    if !valid {
        return Err(EndpointError::MissingScheme(s.to_owned()));
    }
    Ok((scheme.to_ascii_lowercase(), rest))
}

/// Checks that `s` is an endpoint of `protocol` and returns the text after
/// `://`.
pub(crate) fn strip_scheme<'a>(
    s: &'a str,
    protocol: &'static str,
) -> Result<&'a str, EndpointError> {
    let (scheme, rest) = split_scheme(s)?;
    if scheme != protocol {
        return Err(EndpointError::WrongScheme {
            expected: protocol,
            endpoint: s.to_owned(),
        });
    }
    Ok(rest)
}

/// Takes an endpoint string of `protocol` apart: the GIOP version it names
/// (if any), the protocol's address, and the options after the first `?`
/// (empty if none; see [`parse_options`]).
pub(crate) fn split_endpoint<'a>(
    s: &'a str,
    protocol: &'static str,
) -> Result<(Option<Version>, &'a str, &'a str), EndpointError> {
    let rest = strip_scheme(s, protocol)?;
    let (version, rest) = split_version(rest)?;
    let (address, options) = rest.split_once('?').unwrap_or((rest, ""));
    Ok((version, address, options))
}

/// Parses `1.0`, `1.1` or `1.2`.
pub(crate) fn parse_version(s: &str) -> Result<Version, EndpointError> {
    let bad = || EndpointError::BadVersion(s.to_owned());
    let (major, minor) = s.split_once('.').ok_or_else(bad)?;
    let all_digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(major) || !all_digits(minor) {
        return Err(bad());
    }
    let major: u8 = major.parse().map_err(|_| bad())?;
    let minor: u8 = minor.parse().map_err(|_| bad())?;
    let v = Version::new(major, minor);
    if v == Version::V1_0 || v == Version::V1_1 || v == Version::V1_2 {
        Ok(v)
    } else {
        Err(bad())
    }
}

/// Splits an optional `<version>@` prefix off the text after `://`. An `@`
/// counts only before the first `/`, so a socket path may contain one.
pub(crate) fn split_version(rest: &str) -> Result<(Option<Version>, &str), EndpointError> {
    let at = rest.find('@');
    let slash = rest.find('/');
    match at {
        Some(i) if slash.is_none_or(|j| i < j) => {
            let v = parse_version(&rest[..i])?;
            Ok((Some(v), &rest[i + 1..]))
        }
        _ => Ok((None, rest)),
    }
}

/// The options of an endpoint, as `key=value` pairs in their order, keys
/// lower-cased (option names are case-insensitive).
pub(crate) fn parse_options(query: &str) -> Result<Vec<(String, &str)>, EndpointError> {
    let mut out = Vec::new();
    for item in query.split('&') {
        if item.is_empty() {
            continue;
        }
        let Some((k, v)) = item.split_once('=') else {
            return Err(EndpointError::UnknownOption(item.to_owned()));
        };
        out.push((k.to_ascii_lowercase(), v));
    }
    Ok(out)
}

/// The value of a `giop=` option.
pub(crate) fn parse_messaging(value: &str) -> Result<FrameProtocol, EndpointError> {
    match value.to_ascii_lowercase().as_str() {
        "lite" => Ok(FrameProtocol::Lite),
        "standard" => Ok(FrameProtocol::Giop),
        _ => Err(EndpointError::BadOptionValue {
            key: "giop".into(),
            value: value.to_owned(),
        }),
    }
}

/// The GIOP version of an endpoint from the one it named (if any) and its
/// messaging: GIOPlite needs 1.2.
pub(crate) fn effective_version(
    named: Option<Version>,
    messaging: FrameProtocol,
) -> Result<Version, EndpointError> {
    let v = named.unwrap_or(DEFAULT_GIOP_VERSION);
    if messaging == FrameProtocol::Lite && v != Version::V1_2 {
        return Err(EndpointError::LiteNeedsGiop12(v));
    }
    Ok(v)
}
