//! UIOP: GIOP over Unix-domain stream sockets, for peers on one machine.
//!
//! Endpoint strings:
//!
//! ```text
//! uiop://[<version>@]<absolute socket path>[?<options>]
//! ```
//!
//! for example `uiop:///tmp/orb.sock` or `uiop://1.2@/run/orb.sock?giop=lite`.
//! The path must be absolute, at most [`MAX_PATH_LEN`] octets, and contain
//! neither a NUL nor a `?` (which starts the options). Options: `giop=lite`
//! or `giop=standard` (see [`super::endpoint`]).
//!
//! An acceptor removes a stale socket file at its path before binding (one
//! that is a socket with no server behind it), refuses a path with a live
//! server (found by connecting to it, a connection that server sees open
//! and close) or that is not a socket, and removes its socket file when it is
//! dropped (if the file is still the one it created).
//!
//! The module holds the endpoint ([`UiopEndpoint`]) and what UIOP adds to
//! the stream transport shared with other protocols: the Unix-domain
//! socket's peer ([`StreamSocket`] for `UnixStream`), the listener that
//! owns its socket file ([`UiopListener`]), and connecting, listening,
//! accepting and profiles ([`Uiop`]). The transport, connector, acceptor
//! and factory are the generic ones of [`super::stream`] and
//! [`super::stream_protocol`].

use std::fmt;
use std::os::fd::{AsFd, BorrowedFd};
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::os::unix::net::{UnixListener, UnixStream};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use rtorb_cdr::Version;
use rtorb_giop::FrameProtocol;
use rtorb_giop::ior::tags::{self, ProfileId};
use rtorb_giop::ior::{Profile, TaggedComponent, UiopProfile};
use socket2::{Domain, SockAddr, Socket, Type};

use super::endpoint::{effective_version, parse_messaging, parse_options, split_endpoint};
use super::registry::ProtocolRegistry;
use super::stream::{StreamSocket, StreamTransport};
use super::stream_protocol::{
    StreamAcceptor, StreamConnector, StreamEndpoint, StreamFactory, StreamProtocol,
};
use super::{EndpointError, TransportError, profile_components, profile_messaging};

/// The protocol name and endpoint scheme.
pub const PROTOCOL: &str = "uiop";

/// The longest socket path, in octets (`sun_path` holds 108 with the NUL).
pub const MAX_PATH_LEN: usize = 107;

/// The listen backlog of UIOP acceptors where the system's maximum
/// (`net.core.somaxconn`, the default) cannot be read.
pub const LISTEN_BACKLOG: i32 = 4096;

/// Registers the UIOP factory. Does nothing if a protocol named `uiop` is
/// already registered.
pub fn register(registry: &mut ProtocolRegistry) {
    // A clash only means UIOP is there already.
    let _ = registry.register(Arc::new(UiopFactory::new()));
}

/// A UIOP endpoint: the path of a Unix-domain socket.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct UiopEndpoint {
    /// The highest GIOP version spoken.
    pub version: Version,
    /// The absolute path of the socket.
    pub path: String,
    /// GIOP or GIOPlite.
    pub messaging: FrameProtocol,
}

impl UiopEndpoint {
    /// A GIOP 1.2 endpoint at `path`, which is checked.
    pub fn new(path: impl Into<String>) -> Result<UiopEndpoint, EndpointError> {
        let path = path.into();
        check_path(&path)?;
        Ok(UiopEndpoint {
            version: super::endpoint::DEFAULT_GIOP_VERSION,
            path,
            messaging: FrameProtocol::Giop,
        })
    }

    /// Parses a `uiop://` endpoint string.
    pub fn parse(s: &str) -> Result<UiopEndpoint, EndpointError> {
        let (version, path, query) = split_endpoint(s, PROTOCOL)?;
        check_path(path)?;
        let mut messaging = FrameProtocol::Giop;
        for (k, v) in parse_options(query)? {
            match k.as_str() {
                "giop" => messaging = parse_messaging(v)?,
                _ => return Err(EndpointError::UnknownOption(k)),
            }
        }
        Ok(UiopEndpoint {
            version: effective_version(version, messaging)?,
            path: path.to_owned(),
            messaging,
        })
    }
}

fn check_path(path: &str) -> Result<(), EndpointError> {
    let bad = |reason| EndpointError::BadPath {
        path: path.to_owned(),
        reason,
    };
    if path.is_empty() {
        return Err(bad("empty"));
    }
    if !path.starts_with('/') {
        return Err(bad("not absolute"));
    }
    if path.len() > MAX_PATH_LEN {
        return Err(bad("longer than a Unix-domain socket address allows"));
    }
    if path.contains('\0') || path.contains('?') {
        return Err(bad("contains a NUL or a '?'"));
    }
    if path.ends_with('/') {
        return Err(bad("names a directory"));
    }
    Ok(())
}

impl fmt::Display for UiopEndpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // As users write it: the GIOP version only where it is not the
        // default, 1.2 (`uiop:///tmp/orb.sock`).
        write!(f, "{PROTOCOL}://")?;
        if self.version != Version::V1_2 {
            write!(f, "{}@", self.version)?;
        }
        f.write_str(&self.path)?;
        if self.messaging == FrameProtocol::Lite {
            f.write_str("?giop=lite")?;
        }
        Ok(())
    }
}

impl std::str::FromStr for UiopEndpoint {
    type Err = EndpointError;
    fn from_str(s: &str) -> Result<UiopEndpoint, EndpointError> {
        UiopEndpoint::parse(s)
    }
}

impl StreamEndpoint for UiopEndpoint {
    type Protocol = Uiop;
    fn giop(&self) -> (Version, FrameProtocol) {
        (self.version, self.messaging)
    }
}

/// A Unix-domain stream connection: the transport of UIOP.
pub type UnixTransport = StreamTransport<UnixStream>;

impl StreamSocket for UnixStream {
    /// The socket path, followed by ` (client)` on the accepting side (a
    /// client's socket has no name of its own).
    type Peer = String;

    fn set_connection_options(&self) -> std::io::Result<()> {
        Ok(())
    }

    fn describe_peer(protocol: &str, peer: &String) -> String {
        format!("{protocol}://{peer}")
    }
}

/// UIOP as a protocol over stream sockets: Unix-domain sockets,
/// [`UiopEndpoint`]s and UIOP profiles.
#[derive(Debug, Default, Clone, Copy)]
pub struct Uiop;

/// Opens Unix-domain connections to UIOP endpoints.
pub type UiopConnector = StreamConnector<Uiop>;

/// A listening Unix-domain socket for a UIOP endpoint. Dropping it removes
/// its socket file.
pub type UiopAcceptor = StreamAcceptor<Uiop>;

/// The UIOP protocol factory.
pub type UiopFactory = StreamFactory<Uiop>;

/// A listening Unix-domain socket and the socket file it created, which
/// it removes when dropped (if the file is still the one it created).
#[derive(Debug)]
pub struct UiopListener {
    socket: UnixListener,
    path: String,
    /// Device and inode of the socket file created, to remove only it.
    file_id: Option<(u64, u64)>,
}

impl UiopListener {
    /// The listening socket.
    pub fn socket(&self) -> &UnixListener {
        &self.socket
    }
}

impl AsFd for UiopListener {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.socket.as_fd()
    }
}

impl Drop for UiopListener {
    fn drop(&mut self) {
        let Some(id) = self.file_id else { return };
        let ours = std::fs::symlink_metadata(&self.path)
            .is_ok_and(|m| m.file_type().is_socket() && (m.dev(), m.ino()) == id);
        if ours {
            // Nothing to do on failure: the next acceptor removes a stale
            // file anyway.
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

impl StreamProtocol for Uiop {
    const NAME: &'static str = PROTOCOL;
    const PROFILE_TAG: ProfileId = tags::TAG_RTORB_UIOP;
    type Endpoint = UiopEndpoint;
    type Socket = UnixStream;
    type Listener = UiopListener;
    type Profile = UiopProfile;

    /// A Unix-domain connect does not wait for the server unless its
    /// backlog is full; with a timeout, a full backlog is retried until the
    /// timeout passes.
    fn connect(
        endpoint: &UiopEndpoint,
        timeout: Option<Duration>,
    ) -> Result<(UnixStream, String), TransportError> {
        let connect_err = |source| TransportError::Connect {
            endpoint: endpoint.to_string(),
            source,
        };
        let peer = endpoint.path.clone();
        let Some(timeout) = timeout else {
            let stream = UnixStream::connect(&endpoint.path).map_err(connect_err)?;
            return Ok((stream, peer));
        };
        let addr = SockAddr::unix(&endpoint.path).map_err(connect_err)?;
        let deadline = Instant::now() + timeout;
        let mut pause = Duration::from_millis(1);
        loop {
            let socket = Socket::new(Domain::UNIX, Type::STREAM, None).map_err(connect_err)?;
            socket.set_nonblocking(true).map_err(connect_err)?;
            match socket.connect(&addr) {
                Ok(()) => {
                    socket.set_nonblocking(false).map_err(connect_err)?;
                    let stream = UnixStream::from(std::os::fd::OwnedFd::from(socket));
                    return Ok((stream, peer));
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    let now = Instant::now();
                    if now >= deadline {
                        return Err(TransportError::ConnectTimeout {
                            endpoint: endpoint.to_string(),
                            timeout,
                        });
                    }
                    std::thread::sleep(pause.min(deadline - now));
                    pause = (pause * 2).min(Duration::from_millis(20));
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(connect_err(e)),
            }
        }
    }

    /// Listens on the endpoint's path, first removing a stale socket file
    /// there.
    fn listen(endpoint: &UiopEndpoint) -> Result<(UiopListener, UiopEndpoint), TransportError> {
        let path = &endpoint.path;
        let listen_err = |source| TransportError::Listen {
            endpoint: endpoint.to_string(),
            source,
        };
        match std::fs::symlink_metadata(path) {
            Ok(meta) if meta.file_type().is_socket() => {
                if UnixStream::connect(path).is_ok() {
                    return Err(TransportError::SocketInUse { path: path.clone() });
                }
                match std::fs::remove_file(path) {
                    Ok(()) => {}
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                    Err(e) => return Err(listen_err(e)),
                }
            }
            Ok(_) => return Err(TransportError::NotASocket { path: path.clone() }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(listen_err(e)),
        }
        let socket = Socket::new(Domain::UNIX, Type::STREAM, None).map_err(listen_err)?;
        let addr = SockAddr::unix(path).map_err(listen_err)?;
        socket.bind(&addr).map_err(listen_err)?;
        let file_id = std::fs::symlink_metadata(path)
            .ok()
            .map(|m| (m.dev(), m.ino()));
        // From here on, dropping the listener removes the file.
        let listener = UiopListener {
            socket: UnixListener::from(std::os::fd::OwnedFd::from(socket)),
            path: path.clone(),
            file_id,
        };
        socket2::SockRef::from(&listener.socket)
            .listen(super::socket::system_backlog(LISTEN_BACKLOG))
            .map_err(listen_err)?;
        Ok((listener, endpoint.clone()))
    }

    fn accept(
        listener: &UiopListener,
        endpoint: &UiopEndpoint,
    ) -> std::io::Result<(UnixStream, String)> {
        let (stream, _) = listener.socket.accept()?;
        Ok((stream, format!("{} (client)", endpoint.path)))
    }

    fn make_profile(
        endpoint: &UiopEndpoint,
        object_key: Bytes,
        components: &[TaggedComponent],
    ) -> Result<UiopProfile, TransportError> {
        let components = profile_components(endpoint.version, components, endpoint.messaging)?;
        let mut p = UiopProfile::new(endpoint.version, endpoint.path.clone(), object_key);
        p.components = components;
        Ok(p)
    }

    fn profile_body(profile: &Profile) -> Result<&UiopProfile, TransportError> {
        match profile {
            Profile::Uiop(p) => Ok(p),
            _ => Err(TransportError::Profile("not a UIOP profile")),
        }
    }

    fn endpoint_of(profile: &UiopProfile) -> Result<UiopEndpoint, TransportError> {
        check_path(&profile.path)?;
        let messaging = profile_messaging(profile.version, &profile.components)?;
        Ok(UiopEndpoint {
            version: profile.version,
            path: profile.path.clone(),
            messaging,
        })
    }
}
