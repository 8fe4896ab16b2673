//! # rtorb-transport: the pluggable transports of rtorb
//!
//! The ORB transport adapter component of the pluggable protocols
//! framework. It depends on the wire crates (`rtorb-cdr`, `rtorb-giop`)
//! and on nothing of the ORB; the ORB, `rtorb`, re-exports it as
//! `rtorb::transport`, the path applications use.
//!
//! A transport protocol plugs into the ORB as five pieces, all reached
//! through one registered [`ProtocolFactory`]:
//!
//! - an [`Endpoint`]: an address, parsed from an endpoint string such as
//!   `iiop://1.2@host:2809` or `uiop:///tmp/orb.sock` (syntax in
//!   [`endpoint`]);
//! - a [`Connector`], which opens a [`Transport`] to an endpoint, with an
//!   optional timeout;
//! - an [`Acceptor`], which listens on an endpoint and accepts
//!   [`Transport`]s, and knows the endpoint it actually got (port 0 or a
//!   port range resolved, the host to publish in object references);
//! - a [`Transport`]: a connected byte stream with gathered writes and an
//!   exposed file descriptor, usable blocking or nonblocking, so that a
//!   reactor can wait on it;
//! - the conversion between endpoints and IOR profiles: an acceptor's
//!   endpoint plus an object key and tagged components makes a profile; a
//!   profile from a reference makes a connectable endpoint.
//!
//! The ORB core sees only these traits and a [`ProtocolRegistry`]. The
//! messaging protocol (GIOP or GIOPlite, framed by
//! [`rtorb_giop::FrameDecoder`]) is a property of the endpoint
//! ([`Endpoint::messaging`]) and of each transport
//! ([`Transport::messaging`]); [`FrameReader`] and [`OutChain`] join the
//! two for blocking and nonblocking use.
//!
//! Two protocols come with rtorb: [`iiop`] (GIOP over TCP, IPv4 and IPv6)
//! and [`uiop`] (GIOP over Unix-domain stream sockets). Both run over
//! stream sockets and share everything but their addressing: one generic
//! transport ([`StreamTransport`]) and one generic connector, acceptor and
//! factory ([`StreamConnector`], [`StreamAcceptor`], [`StreamFactory`]),
//! each protocol supplying only what is its own ([`StreamSocket`],
//! [`StreamProtocol`]).
//!
//! # Modules
//!
//! Listed so that each depends only on those above it (and on the traits of
//! this module):
//!
//! - [`error`]: the typed errors of the layer;
//! - [`endpoint`]: the [`Endpoint`] trait and the endpoint string syntax
//!   every protocol shares;
//! - `socket`: the system calls on a stream socket's descriptor (send,
//!   receive, shutdown, blocking mode, timeouts, duplication);
//! - [`stream`]: [`StreamTransport`], the [`Transport`] over any kind of
//!   stream socket, and [`StreamSocket`], what differs between the kinds;
//! - [`io`]: sending chains of buffers and reading whole messages over any
//!   [`Transport`] ([`OutChain`], [`FrameReader`]);
//! - [`stream_protocol`]: [`StreamProtocol`], what a protocol over stream
//!   sockets supplies, and the connector, acceptor and factory made from it;
//! - [`registry`]: the [`ProtocolRegistry`] the ORB core uses, which finds
//!   protocols by name and profile tag;
//! - [`iiop`] and [`uiop`]: the two protocols, each its endpoint, its kind of
//!   socket, its [`StreamProtocol`] and a `register` function.
//!
//! ```
//! use std::time::Duration;
//! use rtorb_transport::{FrameReader, ProtocolRegistry};
//!
//! let registry = ProtocolRegistry::with_default_protocols();
//! let acceptor = registry.listen("iiop://127.0.0.1:0").unwrap();
//! let endpoint = acceptor.endpoint().clone_box(); // the port it got
//! let mut client = registry.connect(&*endpoint, Some(Duration::from_secs(5))).unwrap();
//! let mut server = acceptor.accept().unwrap();
//!
//! let close = bytes::Bytes::from_static(b"GIOP\x01\x02\x00\x05\x00\x00\x00\x00");
//! client.write_all_vectored(&[close.clone()]).unwrap();
//! let mut reader = FrameReader::new(server.messaging());
//! assert_eq!(reader.read_frame(&mut *server).unwrap(), Some(close));
//! ```
//!
//! # Adding a protocol
//!
//! A new transport is one new module; nothing else in the ORB changes.
//!
//! 1. Write an endpoint type and implement [`Endpoint`] for it, with a
//!    [`std::fmt::Display`] that prints the canonical endpoint string and a
//!    [`std::str::FromStr`] that parses it back. Use the helpers of
//!    [`endpoint`] for the scheme, version and options.
//! 2. Over a stream socket: implement [`StreamSocket`] for the socket type
//!    (unless it is TCP or Unix-domain, which have theirs), and
//!    [`StreamProtocol`] on a marker type, with the steps that are the
//!    protocol's own (connect, listen, accept, the conversions between
//!    endpoints and profiles). [`StreamFactory`] of that type is the
//!    protocol's factory.
//!
//!    Over anything else: write a transport type (the connected channel)
//!    implementing [`Transport`] and [`std::os::fd::AsRawFd`], a connector
//!    implementing [`Connector`], an acceptor implementing [`Acceptor`],
//!    and a factory implementing [`ProtocolFactory`]: its name (the
//!    endpoint scheme), its profile tag, endpoint parsing, and the
//!    conversions between endpoints and profiles.
//!
//!    A profile tag that `rtorb-giop` does not decode arrives as
//!    [`Profile::Unknown`] with its body; the protocol decodes it and makes
//!    profiles of that form.
//! 3. Give the module a `pub fn register(registry: &mut ProtocolRegistry)`
//!    that registers the factory, as [`iiop::register`] and
//!    [`uiop::register`] do, and call it where the ORB builds its registry
//!    (or add it to [`ProtocolRegistry::with_default_protocols`]).
//!
//! The registry then parses the new scheme, connects to and listens on its
//! endpoints, and turns its profiles into endpoints, with no other change.

mod builtin;
pub mod endpoint;
pub mod error;
pub mod iiop;
pub mod io;
pub mod registry;
mod socket;
pub mod stream;
pub mod stream_protocol;
pub mod uiop;

use std::fmt;
use std::io::IoSlice;
use std::net::Shutdown;
use std::os::fd::AsRawFd;
use std::time::Duration;

use bytes::Bytes;
use rtorb_cdr::Version;
use rtorb_giop::FrameProtocol;
use rtorb_giop::ior::tags::ProfileId;
use rtorb_giop::ior::{Profile, TaggedComponent};

pub use endpoint::Endpoint;
pub use error::{EndpointError, TransportError};
pub use iiop::{IiopAcceptor, IiopConnector, IiopEndpoint, IiopFactory, TcpTransport};
pub use io::{FrameReader, OutChain};
pub use registry::ProtocolRegistry;
pub use stream::{StreamSocket, StreamTransport};
pub use stream_protocol::{
    StreamAcceptor, StreamConnector, StreamEndpoint, StreamFactory, StreamProtocol,
};
pub use uiop::{UiopAcceptor, UiopConnector, UiopEndpoint, UiopFactory, UnixTransport};

pub use rtorb_giop::ior::tags::TAG_RTORB_GIOP_LITE;

/// The most buffers one gathered write hands to the system at once.
pub const MAX_GATHER: usize = 64;

/// A connected, reliable byte stream to a peer: the channel the messaging
/// protocol runs over.
///
/// A transport is blocking by default; [`Transport::set_nonblocking`]
/// makes every call return `WouldBlock` instead of waiting, for use with a
/// reactor that polls [`AsRawFd::as_raw_fd`].
pub trait Transport: fmt::Debug + Send + AsRawFd {
    /// The protocol name (`"iiop"`).
    fn protocol(&self) -> &'static str;

    /// The messaging protocol spoken on this connection.
    fn messaging(&self) -> FrameProtocol;

    /// Reads what has arrived into `buf`, up to its length; 0 means the
    /// peer closed its side.
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize>;

    /// Copies what has arrived into `buf` without consuming it and without
    /// waiting: 0 means the peer closed its side, `WouldBlock` that
    /// nothing has arrived. Transports that cannot return `Unsupported`
    /// (the default).
    fn peek(&self, buf: &mut [u8]) -> std::io::Result<usize> {
        let _ = buf;
        Err(std::io::ErrorKind::Unsupported.into())
    }

    /// Writes from a chain of buffers in one system call (`writev`), and
    /// returns how many octets were written: possibly fewer than offered.
    fn writev(&mut self, bufs: &[IoSlice<'_>]) -> std::io::Result<usize>;

    /// Writes the whole chain, in as few system calls as the kernel allows,
    /// continuing after partial writes and retrying on `Interrupted`.
    ///
    /// Meant for blocking mode: on a nonblocking transport a `WouldBlock`
    /// returns an error and how much was written is lost; use an
    /// [`OutChain`] there.
    fn write_all_vectored(&mut self, chunks: &[Bytes]) -> std::io::Result<()> {
        if let [only] = chunks {
            // One buffer (every small message): no gather list to build.
            return self.send_all(only);
        }
        let mut first = 0;
        let mut offset = 0;
        loop {
            // Skip what is written, and empty buffers.
            while chunks.get(first).is_some_and(|c| offset >= c.len()) {
                first += 1;
                offset = 0;
            }
            if first >= chunks.len() {
                break;
            }
            let mut slices: [IoSlice<'_>; MAX_GATHER] = [IoSlice::new(&[]); MAX_GATHER];
            let mut n = 0;
            for (i, c) in chunks[first..].iter().take(MAX_GATHER).enumerate() {
                let from = if i == 0 { offset } else { 0 };
                slices[n] = IoSlice::new(c.get(from..).unwrap_or_default());
                n += 1;
            }
            let written = match self.writev(&slices[..n]) {
                Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
                Ok(w) => w,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            let mut left = written + offset;
            offset = 0;
            while let Some(c) = chunks.get(first) {
                if left >= c.len() {
                    left -= c.len();
                    first += 1;
                } else {
                    offset = left;
                    break;
                }
            }
        }
        Ok(())
    }

    /// Writes all of `message` (one buffer), continuing after partial
    /// writes and retrying on `Interrupted`; blocking mode, as
    /// [`Transport::write_all_vectored`].
    fn send_all(&mut self, message: &[u8]) -> std::io::Result<()> {
        let mut rest = message;
        while !rest.is_empty() {
            match self.writev(&[IoSlice::new(rest)]) {
                Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
                Ok(w) => rest = rest.get(w..).unwrap_or_default(),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Shuts down the reading, writing or both halves of the connection.
    /// The descriptor itself is closed when the transport is dropped.
    fn shutdown(&mut self, how: Shutdown) -> std::io::Result<()>;

    /// A description of the peer, as an endpoint-like string
    /// (`iiop://127.0.0.1:40312`).
    fn peer(&self) -> String;

    /// Switches nonblocking mode on or off.
    fn set_nonblocking(&mut self, nonblocking: bool) -> std::io::Result<()>;

    /// Sets how long a blocking read may wait (`None`: for ever).
    fn set_read_timeout(&mut self, timeout: Option<Duration>) -> std::io::Result<()>;

    /// Sets how long a blocking write may wait (`None`: for ever).
    fn set_write_timeout(&mut self, timeout: Option<Duration>) -> std::io::Result<()>;

    /// A second handle to the same connection (the same socket), so that
    /// one thread can read while others write. Timeouts and blocking mode
    /// are the socket's, shared by both handles. Transports that cannot
    /// return `Unsupported` (the default), and the ORB then uses them
    /// exclusively.
    fn try_clone_box(&self) -> std::io::Result<Box<dyn Transport>> {
        Err(std::io::ErrorKind::Unsupported.into())
    }
}

/// Opens connections to endpoints of one protocol.
pub trait Connector: fmt::Debug + Send + Sync {
    /// The protocol name.
    fn protocol(&self) -> &'static str;

    /// Connects to `endpoint`, giving up after `timeout` if one is given.
    /// The transport speaks the endpoint's messaging protocol.
    fn connect(
        &self,
        endpoint: &dyn Endpoint,
        timeout: Option<Duration>,
    ) -> Result<Box<dyn Transport>, TransportError>;
}

/// A listening endpoint of one protocol.
pub trait Acceptor: fmt::Debug + Send + AsRawFd {
    /// The endpoint clients reach this acceptor at, as it goes into
    /// profiles: the actual port, the published host.
    fn endpoint(&self) -> &dyn Endpoint;

    /// Waits for the next connection (or returns `WouldBlock` in
    /// nonblocking mode).
    fn accept(&self) -> Result<Box<dyn Transport>, TransportError>;

    /// Switches nonblocking accepts on or off.
    fn set_nonblocking(&self, nonblocking: bool) -> std::io::Result<()>;

    /// Sets how many connections may wait to be accepted (the listen
    /// backlog; the system caps it to its maximum). An acceptor without
    /// one ignores it.
    fn set_backlog(&self, backlog: u32) -> std::io::Result<()> {
        let _ = backlog;
        Ok(())
    }
}

/// One pluggable protocol: parses its endpoints, makes its connectors and
/// acceptors, and converts between its endpoints and IOR profiles.
pub trait ProtocolFactory: fmt::Debug + Send + Sync {
    /// The protocol name, the scheme of its endpoint strings (`"iiop"`).
    fn name(&self) -> &'static str;

    /// The tag of its profiles.
    fn profile_tag(&self) -> ProfileId;

    /// Parses an endpoint string of this protocol.
    fn parse_endpoint(&self, s: &str) -> Result<Box<dyn Endpoint>, EndpointError>;

    /// The protocol's connector.
    fn connector(&self) -> &dyn Connector;

    /// Listens on `endpoint`.
    fn open_acceptor(&self, endpoint: &dyn Endpoint) -> Result<Box<dyn Acceptor>, TransportError>;

    /// A profile for an object reachable at `endpoint` (normally an
    /// acceptor's [`Acceptor::endpoint`]) under `object_key`, carrying
    /// `components` (and the [`TAG_RTORB_GIOP_LITE`] marker if the endpoint
    /// speaks GIOPlite).
    fn make_profile(
        &self,
        endpoint: &dyn Endpoint,
        object_key: Bytes,
        components: &[TaggedComponent],
    ) -> Result<Profile, TransportError>;

    /// The endpoint to connect to for `profile`, which has this factory's
    /// [`ProtocolFactory::profile_tag`].
    fn endpoint_from_profile(&self, profile: &Profile)
    -> Result<Box<dyn Endpoint>, TransportError>;
}

/// Whether `components` mark GIOPlite messaging.
pub(crate) fn messaging_of(components: &[TaggedComponent]) -> FrameProtocol {
    if components.iter().any(|c| c.tag == TAG_RTORB_GIOP_LITE) {
        FrameProtocol::Lite
    } else {
        FrameProtocol::Giop
    }
}

/// The components of a profile of GIOP `version` for an endpoint
/// speaking `messaging`: `components`, plus the GIOPlite marker where
/// needed. A version 1.0 profile has no room for components. Every stream
/// transport's profile (IIOP, UIOP) is made with it.
pub(crate) fn profile_components(
    version: Version,
    components: &[TaggedComponent],
    messaging: FrameProtocol,
) -> Result<Vec<TaggedComponent>, TransportError> {
    let mut out: Vec<TaggedComponent> = components
        .iter()
        .filter(|c| c.tag != TAG_RTORB_GIOP_LITE)
        .cloned()
        .collect();
    if messaging == FrameProtocol::Lite {
        let order = rtorb_cdr::ByteOrder::NATIVE.flag();
        out.push(TaggedComponent::new(TAG_RTORB_GIOP_LITE, vec![order]));
    }
    if version == Version::V1_0 && !out.is_empty() {
        return Err(TransportError::Profile(
            "GIOP 1.0 profiles cannot carry tagged components",
        ));
    }
    Ok(out)
}

/// The messaging protocol a profile of GIOP `version` with `components`
/// asks for: GIOPlite (which needs GIOP 1.2) when marked, else GIOP.
pub(crate) fn profile_messaging(
    version: Version,
    components: &[TaggedComponent],
) -> Result<FrameProtocol, TransportError> {
    let messaging = messaging_of(components);
    if messaging == FrameProtocol::Lite && version != Version::V1_2 {
        return Err(EndpointError::LiteNeedsGiop12(version).into());
    }
    Ok(messaging)
}
