//! The typed errors of the transport layer.

use std::io;
use std::time::Duration;

use rtorb_cdr::{CdrError, Version};
use rtorb_giop::GiopError;
use rtorb_giop::ior::tags::ProfileId;

/// Why an endpoint string could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EndpointError {
    /// The string does not start with `<protocol>://`.
    #[error("endpoint {0:?} does not start with \"<protocol>://\"")]
    MissingScheme(String),
    /// No registered protocol has this name.
    #[error("no protocol named {0:?} is registered")]
    UnknownProtocol(String),
    /// A protocol's parser was given another protocol's endpoint.
    #[error("endpoint {endpoint:?} is not a {expected} endpoint")]
    WrongScheme {
        /// The protocol whose parser was called.
        expected: &'static str,
        /// The endpoint string.
        endpoint: String,
    },
    /// The GIOP version before `@` is not 1.0, 1.1 or 1.2.
    #[error("bad GIOP version {0:?} (rtorb speaks 1.0, 1.1 and 1.2)")]
    BadVersion(String),
    /// No host between `//` and the port.
    #[error("the endpoint has no host")]
    MissingHost,
    /// The host is neither an IPv4 address, a bracketed IPv6 address nor a
    /// host name.
    #[error("bad host {0:?}")]
    BadHost(String),
    /// The port is not a number from 0 to 65535.
    #[error("bad port {0:?}")]
    BadPort(String),
    /// A port range whose first port is 0 or above its last.
    #[error("bad port range {0:?} (the first port must be nonzero and not above the last)")]
    BadPortRange(String),
    /// A Unix-domain socket path that cannot be used.
    #[error("bad socket path {path:?}: {reason}")]
    BadPath {
        /// The path.
        path: String,
        /// Why it cannot be used.
        reason: &'static str,
    },
    /// An option this protocol does not know.
    #[error("unknown endpoint option {0:?}")]
    UnknownOption(String),
    /// A known option with a value it does not take.
    #[error("bad value {value:?} for endpoint option {key:?}")]
    BadOptionValue {
        /// The option.
        key: String,
        /// Its value.
        value: String,
    },
    /// GIOPlite asked for together with a GIOP version other than 1.2.
    #[error("GIOPlite carries GIOP 1.2 messages; it cannot be used with GIOP {0}")]
    LiteNeedsGiop12(Version),
    /// Text after the address that is not an option list.
    #[error("unexpected {0:?} after the address")]
    TrailingText(String),
}

/// Why a transport operation failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TransportError {
    /// An endpoint string could not be parsed.
    #[error(transparent)]
    Endpoint(#[from] EndpointError),
    /// A protocol's connector, acceptor or factory was given another
    /// protocol's endpoint.
    #[error("the {expected} protocol was given a {found} endpoint")]
    WrongProtocol {
        /// The protocol that was called.
        expected: &'static str,
        /// The protocol of the endpoint.
        found: &'static str,
    },
    /// A factory with this name or profile tag is already registered.
    #[error("protocol {name:?} (profile tag {tag:#x}) is already registered")]
    DuplicateProtocol {
        /// The name of the factory that was refused.
        name: &'static str,
        /// Its profile tag.
        tag: ProfileId,
    },
    /// No registered protocol handles this endpoint.
    #[error("no registered protocol named {0:?}")]
    NoProtocol(&'static str),
    /// No registered protocol handles profiles with this tag.
    #[error("no registered protocol for profile tag {0:#x}")]
    NoProtocolForProfile(ProfileId),
    /// The endpoint names no single peer (port 0 or a port range).
    #[error("cannot connect to {endpoint}: {reason}")]
    NotConnectable {
        /// The endpoint.
        endpoint: String,
        /// Why.
        reason: &'static str,
    },
    /// The host name could not be resolved.
    #[error("cannot resolve {host:?}: {source}")]
    Resolve {
        /// The host.
        host: String,
        /// The resolver's error.
        source: io::Error,
    },
    /// The connection was not established within the timeout.
    #[error("connecting to {endpoint} timed out after {timeout:?}")]
    ConnectTimeout {
        /// The endpoint.
        endpoint: String,
        /// The timeout.
        timeout: Duration,
    },
    /// The connection was refused or failed.
    #[error("cannot connect to {endpoint}: {source}")]
    Connect {
        /// The endpoint.
        endpoint: String,
        /// The system's error.
        source: io::Error,
    },
    /// The listening socket could not be set up.
    #[error("cannot listen on {endpoint}: {source}")]
    Listen {
        /// The endpoint.
        endpoint: String,
        /// The system's error.
        source: io::Error,
    },
    /// Every port of the endpoint's range is in use.
    #[error("every port of {endpoint} is in use")]
    NoFreePort {
        /// The endpoint.
        endpoint: String,
    },
    /// A Unix-domain socket path has a live server behind it.
    #[error("{path} is in use by a live server")]
    SocketInUse {
        /// The path.
        path: String,
    },
    /// The path of a Unix-domain endpoint exists and is not a socket; it is
    /// left alone.
    #[error("{path} exists and is not a socket")]
    NotASocket {
        /// The path.
        path: String,
    },
    /// The peer closed the connection in the middle of a message.
    #[error(
        "the peer closed the connection in the middle of a message ({buffered} octets buffered)"
    )]
    TruncatedMessage {
        /// Octets of the incomplete message received.
        buffered: usize,
    },
    /// The received octets are not a valid message stream.
    #[error(transparent)]
    Giop(#[from] GiopError),
    /// A profile could not be converted.
    #[error("cannot convert the profile: {0}")]
    Profile(&'static str),
    /// A profile could not be encoded or decoded.
    #[error("cannot encode or decode the profile: {0}")]
    ProfileCdr(#[from] CdrError),
    /// An I/O error on an established connection or listener (including
    /// `WouldBlock` in nonblocking mode).
    #[error(transparent)]
    Io(#[from] io::Error),
}

impl TransportError {
    /// Whether this is a connect timeout, or an I/O timeout.
    pub fn is_timeout(&self) -> bool {
        match self {
            TransportError::ConnectTimeout { .. } => true,
            TransportError::Io(e) => e.kind() == io::ErrorKind::TimedOut,
            _ => false,
        }
    }

    /// Whether this is a `WouldBlock` from a nonblocking socket: try again
    /// when the socket is ready.
    pub fn is_would_block(&self) -> bool {
        matches!(self, TransportError::Io(e) if e.kind() == io::ErrorKind::WouldBlock)
    }
}
