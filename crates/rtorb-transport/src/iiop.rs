//! IIOP: GIOP over TCP, IPv4 and IPv6.
//!
//! Endpoint strings:
//!
//! ```text
//! iiop://[<version>@]<host>[:<port>|:<first>-<last>][/][?<options>]
//! ```
//!
//! - `<host>` is a dotted IPv4 address, an IPv6 address in brackets
//!   (`[::1]`), or a host name.
//! - The port defaults to 0: any free port when listening (an endpoint
//!   with port 0 cannot be connected to). A range `9000-9010` is for
//!   acceptors, which try its ports in order and take the first free one.
//! - Options: `giop=lite|standard` (see [`super::endpoint`]) and
//!   `hostname_in_ior=<host>`, the host to publish in profiles instead of
//!   the listening address.
//!
//! An acceptor whose host is a name listens on the first address the name
//! resolves to; a connector tries every address in turn.
//!
//! Connections have `TCP_NODELAY` set; listeners have `SO_REUSEADDR`, and
//! IPv6 listeners are IPv6-only (listen on `0.0.0.0` and `[::]` for both).
//! An acceptor publishes, in profiles, the `hostname_in_ior` option if
//! given, else the machine's host name if it listens on an unspecified
//! address (`0.0.0.0`, `[::]`), else the host it listens on.
//!
//! The module holds the endpoint ([`IiopEndpoint`]) and what IIOP adds to
//! the stream transport shared with other protocols: the TCP socket's
//! options and peer ([`StreamSocket`] for `TcpStream`), and connecting,
//! listening, accepting and profiles ([`Iiop`]). The transport, connector,
//! acceptor and factory are the generic ones of [`super::stream`] and
//! [`super::stream_protocol`].

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::ops::RangeInclusive;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use rtorb_cdr::Version;
use rtorb_giop::FrameProtocol;
use rtorb_giop::corbaloc::Host;
use rtorb_giop::ior::tags::{self, ProfileId};
use rtorb_giop::ior::{IiopProfile, Profile, TaggedComponent};
use socket2::{Domain, Socket, Type};

use super::endpoint::{effective_version, parse_messaging, parse_options, split_endpoint};
use super::registry::ProtocolRegistry;
use super::stream::{StreamSocket, StreamTransport};
use super::stream_protocol::{
    StreamAcceptor, StreamConnector, StreamEndpoint, StreamFactory, StreamProtocol,
};
use super::{EndpointError, TransportError, profile_components, profile_messaging};

/// The protocol name and endpoint scheme.
pub const PROTOCOL: &str = "iiop";

/// The listen backlog of IIOP acceptors where the system's maximum
/// (`net.core.somaxconn`, the default) cannot be read.
pub const LISTEN_BACKLOG: i32 = 4096;

/// Registers the IIOP factory. Does nothing if a protocol named `iiop` is
/// already registered.
pub fn register(registry: &mut ProtocolRegistry) {
    // A clash only means IIOP is there already.
    let _ = registry.register(Arc::new(IiopFactory::new()));
}

/// An IIOP endpoint.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IiopEndpoint {
    /// The highest GIOP version spoken.
    pub version: Version,
    /// The host.
    pub host: Host,
    /// The port, or the first port of a range; 0 for any free port.
    pub port: u16,
    /// The last port of a range, if the endpoint is one.
    pub port_last: Option<u16>,
    /// GIOP or GIOPlite.
    pub messaging: FrameProtocol,
    /// The host to publish in profiles, if not the listening host.
    pub host_in_ior: Option<String>,
}

impl IiopEndpoint {
    /// A GIOP 1.2 endpoint at `host` and `port`.
    pub fn new(host: Host, port: u16) -> IiopEndpoint {
        IiopEndpoint {
            version: super::endpoint::DEFAULT_GIOP_VERSION,
            host,
            port,
            port_last: None,
            messaging: FrameProtocol::Giop,
            host_in_ior: None,
        }
    }

    /// An endpoint at a socket address.
    pub fn from_socket_addr(addr: SocketAddr) -> IiopEndpoint {
        let host = match addr.ip() {
            IpAddr::V4(a) => Host::Ipv4(a),
            IpAddr::V6(a) => Host::Ipv6(a),
        };
        IiopEndpoint::new(host, addr.port())
    }

    /// Parses an `iiop://` endpoint string.
    pub fn parse(s: &str) -> Result<IiopEndpoint, EndpointError> {
        let (version, addr, query) = split_endpoint(s, PROTOCOL)?;
        let addr = addr.strip_suffix('/').unwrap_or(addr);
        if let Some(i) = addr.find('/') {
            return Err(EndpointError::TrailingText(addr[i..].to_owned()));
        }
        let (host, port_text) = split_host_port(addr)?;
        let (port, port_last) = match port_text {
            None => (0, None),
            Some(p) => parse_ports(p)?,
        };
        let mut messaging = FrameProtocol::Giop;
        let mut host_in_ior = None;
        for (k, v) in parse_options(query)? {
            match k.as_str() {
                "giop" => messaging = parse_messaging(v)?,
                "hostname_in_ior" => {
                    let h = parse_host(v.trim_start_matches('[').trim_end_matches(']')).map_err(
                        |_| EndpointError::BadOptionValue {
                            key: k.clone(),
                            value: v.into(),
                        },
                    )?;
                    host_in_ior = Some(h.to_profile_host());
                }
                _ => return Err(EndpointError::UnknownOption(k)),
            }
        }
        Ok(IiopEndpoint {
            version: effective_version(version, messaging)?,
            host,
            port,
            port_last,
            messaging,
            host_in_ior,
        })
    }

    /// The ports an acceptor tries, in order.
    pub fn ports(&self) -> RangeInclusive<u16> {
        self.port..=self.port_last.unwrap_or(self.port)
    }

    /// Whether the endpoint names one peer: a nonzero port, no range.
    pub fn is_connectable(&self) -> bool {
        self.port != 0 && self.port_last.is_none()
    }

    /// The host as a profile carries it: `hostname_in_ior` if given, else
    /// the host (IPv6 without brackets).
    pub fn profile_host(&self) -> String {
        self.host_in_ior
            .clone()
            .unwrap_or_else(|| self.host.to_profile_host())
    }

    /// The socket addresses of the host at `port`, resolving a name.
    fn resolve(&self, port: u16) -> Result<Vec<SocketAddr>, TransportError> {
        match &self.host {
            Host::Ipv4(a) => Ok(vec![SocketAddr::from((*a, port))]),
            Host::Ipv6(a) => Ok(vec![SocketAddr::from((*a, port))]),
            Host::Name(n) => {
                let addrs: Vec<SocketAddr> = (n.as_str(), port)
                    .to_socket_addrs()
                    .map_err(|source| TransportError::Resolve {
                        host: n.clone(),
                        source,
                    })?
                    .collect();
                if addrs.is_empty() {
                    return Err(TransportError::Resolve {
                        host: n.clone(),
                        source: std::io::ErrorKind::NotFound.into(),
                    });
                }
                Ok(addrs)
            }
        }
    }
}

impl fmt::Display for IiopEndpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // As users write it: the GIOP version only where it is not the
        // default, 1.2 (so `iiop://host:port` is given back as it was).
        write!(f, "{PROTOCOL}://")?;
        if self.version != Version::V1_2 {
            write!(f, "{}@", self.version)?;
        }
        write!(f, "{}:{}", self.host, self.port)?;
        if let Some(last) = self.port_last {
            write!(f, "-{last}")?;
        }
        let mut sep = "/?";
        if self.messaging == FrameProtocol::Lite {
            write!(f, "{sep}giop=lite")?;
            sep = "&";
        }
        if let Some(h) = &self.host_in_ior {
            write!(f, "{sep}hostname_in_ior={h}")?;
        }
        Ok(())
    }
}

impl std::str::FromStr for IiopEndpoint {
    type Err = EndpointError;
    fn from_str(s: &str) -> Result<IiopEndpoint, EndpointError> {
        IiopEndpoint::parse(s)
    }
}

impl StreamEndpoint for IiopEndpoint {
    type Protocol = Iiop;
    fn giop(&self) -> (Version, FrameProtocol) {
        (self.version, self.messaging)
    }
}

/// Splits `host[:port]` or `[v6][:port]`.
fn split_host_port(addr: &str) -> Result<(Host, Option<&str>), EndpointError> {
    if let Some(inner) = addr.strip_prefix('[') {
        let Some((v6, after)) = inner.split_once(']') else {
            return Err(EndpointError::BadHost(addr.to_owned()));
        };
        let ip: Ipv6Addr = v6
            .parse()
            .map_err(|_| EndpointError::BadHost(addr.to_owned()))?;
        let port = match after {
            "" => None,
            p => Some(
                p.strip_prefix(':')
                    .ok_or_else(|| EndpointError::TrailingText(p.to_owned()))?,
            ),
        };
        return Ok((Host::Ipv6(ip), port));
    }
    let (host, port) = match addr.split_once(':') {
        Some((h, p)) => (h, Some(p)),
        None => (addr, None),
    };
    if host.is_empty() {
        return Err(EndpointError::MissingHost);
    }
    Ok((parse_host(host)?, port))
}

/// Parses a host as a profile or an option carries it: IPv4, IPv6
/// (without brackets) or a host name.
pub(crate) fn parse_host(s: &str) -> Result<Host, EndpointError> {
    if let Ok(a) = s.parse::<Ipv4Addr>() {
        return Ok(Host::Ipv4(a));
    }
    if s.contains(':') {
        return s
            .parse::<Ipv6Addr>()
            .map(Host::Ipv6)
            .map_err(|_| EndpointError::BadHost(s.to_owned()));
    }
    let all_numeric = s.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    let label_ok = |l: &str| {
        (1..=63).contains(&l.len())
            && !l.starts_with('-')
            && l.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    };
    let name = s.strip_suffix('.').unwrap_or(s);
    if s.is_empty() || s.len() > 253 || all_numeric || !name.split('.').all(label_ok) {
        return Err(EndpointError::BadHost(s.to_owned()));
    }
    Ok(Host::Name(s.to_owned()))
}

fn parse_ports(p: &str) -> Result<(u16, Option<u16>), EndpointError> {
    let port = |t: &str| -> Result<u16, EndpointError> {
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(EndpointError::BadPort(p.to_owned()));
        }
        t.parse().map_err(|_| EndpointError::BadPort(p.to_owned()))
    };
    match p.split_once('-') {
        None => Ok((port(p)?, None)),
        Some((a, b)) => {
            let (first, last) = (port(a)?, port(b)?);
            if first == 0 || first > last {
                return Err(EndpointError::BadPortRange(p.to_owned()));
            }
            Ok((first, (last != first).then_some(last)))
        }
    }
}

/// The machine's host name, for profiles of acceptors listening on an
/// unspecified address; `localhost` if it has none usable.
pub fn local_host_name() -> String {
    let uname = rustix::system::uname();
    match uname.nodename().to_str() {
        Ok(n) if parse_host(n).is_ok() => n.to_owned(),
        _ => "localhost".to_owned(),
    }
}

/// A TCP connection: the transport of IIOP.
pub type TcpTransport = StreamTransport<TcpStream>;

impl StreamSocket for TcpStream {
    /// The peer's address, if the system could tell it.
    type Peer = Option<SocketAddr>;

    fn set_connection_options(&self) -> std::io::Result<()> {
        self.set_nodelay(true)
    }

    fn describe_peer(protocol: &str, peer: &Option<SocketAddr>) -> String {
        match peer {
            Some(a) => format!("{protocol}://{a}"),
            None => format!("{protocol}://(unknown)"),
        }
    }
}

/// IIOP as a protocol over stream sockets: TCP sockets, [`IiopEndpoint`]s
/// and IIOP profiles.
#[derive(Debug, Default, Clone, Copy)]
pub struct Iiop;

/// Opens TCP connections to IIOP endpoints.
pub type IiopConnector = StreamConnector<Iiop>;

/// A listening TCP socket for an IIOP endpoint.
pub type IiopAcceptor = StreamAcceptor<Iiop>;

/// The IIOP protocol factory.
pub type IiopFactory = StreamFactory<Iiop>;

impl StreamProtocol for Iiop {
    const NAME: &'static str = PROTOCOL;
    const PROFILE_TAG: ProfileId = tags::TAG_INTERNET_IOP;
    type Endpoint = IiopEndpoint;
    type Socket = TcpStream;
    type Listener = TcpListener;
    type Profile = IiopProfile;

    /// Tries each address the endpoint's host resolves to in turn, all
    /// within `timeout` if one is given.
    fn connect(
        endpoint: &IiopEndpoint,
        timeout: Option<Duration>,
    ) -> Result<(TcpStream, Option<SocketAddr>), TransportError> {
        if !endpoint.is_connectable() {
            return Err(TransportError::NotConnectable {
                endpoint: endpoint.to_string(),
                reason: "it names no single port",
            });
        }
        let deadline = timeout.map(|t| Instant::now() + t);
        let mut last_err: Option<std::io::Error> = None;
        for addr in endpoint.resolve(endpoint.port)? {
            let attempt = match deadline {
                None => TcpStream::connect(addr),
                Some(d) => {
                    let left = d.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        last_err = Some(std::io::ErrorKind::TimedOut.into());
                        break;
                    }
                    TcpStream::connect_timeout(&addr, left)
                }
            };
            match attempt {
                Ok(stream) => {
                    let peer = stream.peer_addr().ok();
                    return Ok((stream, peer));
                }
                Err(e) => last_err = Some(e),
            }
        }
        let source = last_err.unwrap_or_else(|| std::io::ErrorKind::NotFound.into());
        match (source.kind(), timeout) {
            (std::io::ErrorKind::TimedOut, Some(timeout)) => Err(TransportError::ConnectTimeout {
                endpoint: endpoint.to_string(),
                timeout,
            }),
            _ => Err(TransportError::Connect {
                endpoint: endpoint.to_string(),
                source,
            }),
        }
    }

    /// Listens on the endpoint's port, or on the first free port of its
    /// range.
    fn listen(endpoint: &IiopEndpoint) -> Result<(TcpListener, IiopEndpoint), TransportError> {
        let listen_err = |source| TransportError::Listen {
            endpoint: endpoint.to_string(),
            source,
        };
        let base = endpoint
            .resolve(0)?
            .into_iter()
            .next()
            .ok_or_else(|| listen_err(std::io::ErrorKind::NotFound.into()))?;
        let ranged = endpoint.port_last.is_some();
        for port in endpoint.ports() {
            let addr = SocketAddr::new(base.ip(), port);
            match bind_listener(addr) {
                Ok(listener) => {
                    let local = listener.local_addr().map_err(listen_err)?;
                    let host = match &endpoint.host_in_ior {
                        Some(h) => parse_host(h)?,
                        None if local.ip().is_unspecified() => parse_host(&local_host_name())
                            .unwrap_or_else(|_| Host::Name("localhost".into())),
                        None => endpoint.host.clone(),
                    };
                    let published = IiopEndpoint {
                        version: endpoint.version,
                        host,
                        port: local.port(),
                        port_last: None,
                        messaging: endpoint.messaging,
                        host_in_ior: None,
                    };
                    return Ok((listener, published));
                }
                Err(e) if ranged && e.kind() == std::io::ErrorKind::AddrInUse => continue,
                Err(e) => return Err(listen_err(e)),
            }
        }
        Err(TransportError::NoFreePort {
            endpoint: endpoint.to_string(),
        })
    }

    fn accept(
        listener: &TcpListener,
        _: &IiopEndpoint,
    ) -> std::io::Result<(TcpStream, Option<SocketAddr>)> {
        let (stream, peer) = listener.accept()?;
        Ok((stream, Some(peer)))
    }

    fn make_profile(
        endpoint: &IiopEndpoint,
        object_key: Bytes,
        components: &[TaggedComponent],
    ) -> Result<IiopProfile, TransportError> {
        if !endpoint.is_connectable() {
            return Err(TransportError::NotConnectable {
                endpoint: endpoint.to_string(),
                reason: "a profile needs a single nonzero port",
            });
        }
        let components = profile_components(endpoint.version, components, endpoint.messaging)?;
        let mut p = IiopProfile::new(
            endpoint.version,
            endpoint.profile_host(),
            endpoint.port,
            object_key,
        );
        p.components = components;
        Ok(p)
    }

    fn profile_body(profile: &Profile) -> Result<&IiopProfile, TransportError> {
        match profile {
            Profile::Iiop(p) => Ok(p),
            _ => Err(TransportError::Profile("not an IIOP profile")),
        }
    }

    fn endpoint_of(profile: &IiopProfile) -> Result<IiopEndpoint, TransportError> {
        let host = parse_host(&profile.host)?;
        let messaging = profile_messaging(profile.version, &profile.components)?;
        Ok(IiopEndpoint {
            version: profile.version,
            host,
            port: profile.port,
            port_last: None,
            messaging,
            host_in_ior: None,
        })
    }
}

fn bind_listener(addr: SocketAddr) -> std::io::Result<TcpListener> {
    let socket = Socket::new(Domain::for_address(addr), Type::STREAM, None)?;
    socket.set_reuse_address(true)?;
    if addr.is_ipv6() {
        socket.set_only_v6(true)?;
    }
    socket.bind(&addr.into())?;
    socket.listen(super::socket::system_backlog(LISTEN_BACKLOG))?;
    Ok(socket.into())
}
