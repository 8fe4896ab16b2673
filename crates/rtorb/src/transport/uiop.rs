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

use std::any::Any;
use std::fmt;
use std::io::IoSlice;
use std::net::Shutdown;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, RawFd};
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

use super::endpoint::{
    effective_version, parse_messaging, parse_options, split_version, strip_scheme,
};
use super::registry::ProtocolRegistry;
use super::{
    Acceptor, Connector, Endpoint, EndpointError, ProtocolFactory, Transport, TransportError,
    profile_components, profile_messaging,
};

/// The protocol name and endpoint scheme.
pub const PROTOCOL: &str = "uiop";

/// The longest socket path, in octets (`sun_path` holds 108 with the NUL).
pub const MAX_PATH_LEN: usize = 107;

/// The listen backlog of UIOP acceptors.
pub const LISTEN_BACKLOG: i32 = 128;

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
        let rest = strip_scheme(s, PROTOCOL)?;
        let (version, rest) = split_version(rest)?;
        let (path, query) = match rest.split_once('?') {
            Some((p, q)) => (p, Some(q)),
            None => (rest, None),
        };
        check_path(path)?;
        let mut messaging = FrameProtocol::Giop;
        for (k, v) in parse_options(query.unwrap_or(""))? {
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
        write!(f, "{PROTOCOL}://{}@{}", self.version, self.path)?;
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

impl Endpoint for UiopEndpoint {
    fn protocol(&self) -> &'static str {
        PROTOCOL
    }
    fn profile_tag(&self) -> ProfileId {
        tags::TAG_RTORB_UIOP
    }
    fn version(&self) -> Version {
        self.version
    }
    fn messaging(&self) -> FrameProtocol {
        self.messaging
    }
    fn clone_box(&self) -> Box<dyn Endpoint> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A Unix-domain stream connection.
#[derive(Debug)]
pub struct UnixTransport {
    stream: UnixStream,
    messaging: FrameProtocol,
    peer: String,
}

impl UnixTransport {
    /// Wraps a connected stream; `peer` describes the other side.
    pub fn new(stream: UnixStream, messaging: FrameProtocol, peer: String) -> UnixTransport {
        UnixTransport {
            stream,
            messaging,
            peer,
        }
    }

    /// The underlying stream.
    pub fn stream(&self) -> &UnixStream {
        &self.stream
    }
}

impl AsRawFd for UnixTransport {
    fn as_raw_fd(&self) -> RawFd {
        self.stream.as_raw_fd()
    }
}

impl AsFd for UnixTransport {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.stream.as_fd()
    }
}

impl Transport for UnixTransport {
    fn protocol(&self) -> &'static str {
        PROTOCOL
    }
    fn messaging(&self) -> FrameProtocol {
        self.messaging
    }
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        super::io::recv(&self.stream, buf)
    }
    fn writev(&mut self, bufs: &[IoSlice<'_>]) -> std::io::Result<usize> {
        super::io::send_gathered(&self.stream, bufs)
    }
    fn send_all(&mut self, message: &[u8]) -> std::io::Result<()> {
        super::io::send_all(&self.stream, message)
    }
    fn shutdown(&mut self, how: Shutdown) -> std::io::Result<()> {
        self.stream.shutdown(how)
    }
    fn peer(&self) -> String {
        self.peer.clone()
    }
    fn set_nonblocking(&mut self, nonblocking: bool) -> std::io::Result<()> {
        self.stream.set_nonblocking(nonblocking)
    }
    fn set_read_timeout(&mut self, timeout: Option<Duration>) -> std::io::Result<()> {
        self.stream.set_read_timeout(timeout)
    }
    fn set_write_timeout(&mut self, timeout: Option<Duration>) -> std::io::Result<()> {
        self.stream.set_write_timeout(timeout)
    }
    fn try_clone_box(&self) -> std::io::Result<Box<dyn Transport>> {
        Ok(Box::new(UnixTransport {
            stream: self.stream.try_clone()?,
            messaging: self.messaging,
            peer: self.peer.clone(),
        }))
    }
}

/// Opens Unix-domain connections to UIOP endpoints.
#[derive(Debug, Default, Clone, Copy)]
pub struct UiopConnector;

impl UiopConnector {
    /// Connects to `endpoint`. A Unix-domain connect does not wait for the
    /// server unless its backlog is full; with a timeout, a full backlog is
    /// retried until the timeout passes.
    pub fn connect_to(
        &self,
        endpoint: &UiopEndpoint,
        timeout: Option<Duration>,
    ) -> Result<UnixTransport, TransportError> {
        let connect_err = |source| TransportError::Connect {
            endpoint: endpoint.to_string(),
            source,
        };
        let peer = format!("{PROTOCOL}://{}", endpoint.path);
        let Some(timeout) = timeout else {
            let stream = UnixStream::connect(&endpoint.path).map_err(connect_err)?;
            return Ok(UnixTransport::new(stream, endpoint.messaging, peer));
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
                    return Ok(UnixTransport::new(stream, endpoint.messaging, peer));
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
}

impl Connector for UiopConnector {
    fn protocol(&self) -> &'static str {
        PROTOCOL
    }
    fn connect(
        &self,
        endpoint: &dyn Endpoint,
        timeout: Option<Duration>,
    ) -> Result<Box<dyn Transport>, TransportError> {
        Ok(Box::new(self.connect_to(downcast(endpoint)?, timeout)?))
    }
}

fn downcast(endpoint: &dyn Endpoint) -> Result<&UiopEndpoint, TransportError> {
    endpoint
        .downcast_ref::<UiopEndpoint>()
        .ok_or(TransportError::WrongProtocol {
            expected: PROTOCOL,
            found: endpoint.protocol(),
        })
}

/// A listening Unix-domain socket for a UIOP endpoint. Dropping it removes
/// its socket file.
#[derive(Debug)]
pub struct UiopAcceptor {
    listener: UnixListener,
    endpoint: UiopEndpoint,
    /// Device and inode of the socket file created, to remove only it.
    file_id: Option<(u64, u64)>,
}

impl UiopAcceptor {
    /// Listens on `endpoint`, first removing a stale socket file at its
    /// path.
    pub fn open(endpoint: &UiopEndpoint) -> Result<UiopAcceptor, TransportError> {
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
        // From here on, dropping the acceptor removes the file.
        let acceptor = UiopAcceptor {
            listener: UnixListener::from(std::os::fd::OwnedFd::from(socket)),
            endpoint: endpoint.clone(),
            file_id,
        };
        socket2::SockRef::from(&acceptor.listener)
            .listen(LISTEN_BACKLOG)
            .map_err(listen_err)?;
        Ok(acceptor)
    }

    /// The endpoint, as its concrete type.
    pub fn uiop_endpoint(&self) -> &UiopEndpoint {
        &self.endpoint
    }

    /// Accepts a connection as a [`UnixTransport`].
    pub fn accept_unix(&self) -> Result<UnixTransport, TransportError> {
        let (stream, _) = self.listener.accept()?;
        stream.set_nonblocking(false)?;
        let peer = format!("{PROTOCOL}://{} (client)", self.endpoint.path);
        Ok(UnixTransport::new(stream, self.endpoint.messaging, peer))
    }
}

impl Drop for UiopAcceptor {
    fn drop(&mut self) {
        let Some(id) = self.file_id else { return };
        let ours = std::fs::symlink_metadata(&self.endpoint.path)
            .is_ok_and(|m| m.file_type().is_socket() && (m.dev(), m.ino()) == id);
        if ours {
            // Nothing to do on failure: the next acceptor removes a stale
            // file anyway.
            let _ = std::fs::remove_file(&self.endpoint.path);
        }
    }
}

impl AsRawFd for UiopAcceptor {
    fn as_raw_fd(&self) -> RawFd {
        self.listener.as_raw_fd()
    }
}

impl AsFd for UiopAcceptor {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.listener.as_fd()
    }
}

impl Acceptor for UiopAcceptor {
    fn endpoint(&self) -> &dyn Endpoint {
        &self.endpoint
    }
    fn accept(&self) -> Result<Box<dyn Transport>, TransportError> {
        Ok(Box::new(self.accept_unix()?))
    }
    fn set_nonblocking(&self, nonblocking: bool) -> std::io::Result<()> {
        self.listener.set_nonblocking(nonblocking)
    }
}

/// The UIOP protocol factory.
#[derive(Debug, Default)]
pub struct UiopFactory {
    connector: UiopConnector,
}

impl UiopFactory {
    /// The factory.
    pub fn new() -> UiopFactory {
        UiopFactory::default()
    }

    /// A UIOP profile for `endpoint` and `object_key`.
    pub fn profile(
        endpoint: &UiopEndpoint,
        object_key: Bytes,
        components: &[TaggedComponent],
    ) -> Result<UiopProfile, TransportError> {
        let components = profile_components(endpoint.version, components, endpoint.messaging)?;
        let mut p = UiopProfile::new(endpoint.version, endpoint.path.clone(), object_key);
        p.components = components;
        Ok(p)
    }

    /// The endpoint of a UIOP profile.
    pub fn endpoint_of(profile: &UiopProfile) -> Result<UiopEndpoint, TransportError> {
        check_path(&profile.path)?;
        let messaging = profile_messaging(profile.version, &profile.components)?;
        Ok(UiopEndpoint {
            version: profile.version,
            path: profile.path.clone(),
            messaging,
        })
    }
}

impl ProtocolFactory for UiopFactory {
    fn name(&self) -> &'static str {
        PROTOCOL
    }
    fn profile_tag(&self) -> ProfileId {
        tags::TAG_RTORB_UIOP
    }
    fn parse_endpoint(&self, s: &str) -> Result<Box<dyn Endpoint>, EndpointError> {
        Ok(Box::new(UiopEndpoint::parse(s)?))
    }
    fn connector(&self) -> &dyn Connector {
        &self.connector
    }
    fn open_acceptor(&self, endpoint: &dyn Endpoint) -> Result<Box<dyn Acceptor>, TransportError> {
        Ok(Box::new(UiopAcceptor::open(downcast(endpoint)?)?))
    }
    fn make_profile(
        &self,
        endpoint: &dyn Endpoint,
        object_key: Bytes,
        components: &[TaggedComponent],
    ) -> Result<Profile, TransportError> {
        Ok(Profile::Uiop(UiopFactory::profile(
            downcast(endpoint)?,
            object_key,
            components,
        )?))
    }
    fn endpoint_from_profile(
        &self,
        profile: &Profile,
    ) -> Result<Box<dyn Endpoint>, TransportError> {
        match profile {
            Profile::Uiop(p) => Ok(Box::new(UiopFactory::endpoint_of(p)?)),
            _ => Err(TransportError::Profile("not a UIOP profile")),
        }
    }
}
