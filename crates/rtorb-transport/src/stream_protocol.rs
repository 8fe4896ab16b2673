//! Protocols over stream sockets: what such a protocol supplies
//! ([`StreamProtocol`]), and the [`Connector`], [`Acceptor`] and
//! [`ProtocolFactory`] made from it ([`StreamConnector`],
//! [`StreamAcceptor`], [`StreamFactory`]), written once for IIOP, UIOP and
//! whatever protocol comes next over a stream socket.
//!
//! A protocol implements [`StreamProtocol`] on a marker type
//! ([`Iiop`](super::iiop::Iiop), [`Uiop`](super::uiop::Uiop)) with its
//! endpoint (a [`StreamEndpoint`], and through it an [`Endpoint`]),
//! socket, listener and profile types, and the few steps that are its
//! own: connecting, listening, accepting, and the conversions between its
//! endpoints and profiles. Everything the ORB core calls through the trait
//! objects (downcasting endpoints, wrapping sockets in
//! [`StreamTransport`]s, blocking mode, boxing) is done here.

use std::any::Any;
use std::fmt;
use std::marker::PhantomData;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, RawFd};
use std::str::FromStr;
use std::time::Duration;

use bytes::Bytes;
use rtorb_cdr::Version;
use rtorb_giop::FrameProtocol;
use rtorb_giop::ior::tags::ProfileId;
use rtorb_giop::ior::{Profile, TaggedComponent};

use super::stream::{StreamSocket, StreamTransport};
use super::{
    Acceptor, Connector, Endpoint, EndpointError, ProtocolFactory, Transport, TransportError,
    socket,
};

/// How a connection of protocol `P` names its peer.
pub type PeerOf<P> = <<P as StreamProtocol>::Socket as StreamSocket>::Peer;

/// A protocol whose connections are stream sockets: the pieces that are
/// its own. [`StreamConnector`], [`StreamAcceptor`] and [`StreamFactory`]
/// make the rest of a pluggable protocol from them.
pub trait StreamProtocol: fmt::Debug + Default + Send + Sync + 'static {
    /// The protocol name and endpoint scheme (`"iiop"`).
    const NAME: &'static str;

    /// The tag of its profiles.
    const PROFILE_TAG: ProfileId;

    /// Its endpoints, parsed from endpoint strings of scheme
    /// [`StreamProtocol::NAME`].
    type Endpoint: StreamEndpoint<Protocol = Self>;

    /// The connected socket.
    type Socket: StreamSocket;

    /// The listening socket, with whatever the protocol keeps beside it
    /// while it listens.
    type Listener: AsFd + fmt::Debug + Send;

    /// The body of its profiles.
    type Profile: Into<Profile>;

    /// Connects a socket to `endpoint`, giving up after `timeout` if one is
    /// given, and names the peer.
    fn connect(
        endpoint: &Self::Endpoint,
        timeout: Option<Duration>,
    ) -> Result<(Self::Socket, PeerOf<Self>), TransportError>;

    /// Listens on `endpoint`, and returns the listener with the endpoint
    /// to publish in profiles (the port it got, the host to publish).
    fn listen(
        endpoint: &Self::Endpoint,
    ) -> Result<(Self::Listener, Self::Endpoint), TransportError>;

    /// Waits for the next connection to `listener`, which listens on
    /// `endpoint` (as published), and names its peer.
    fn accept(
        listener: &Self::Listener,
        endpoint: &Self::Endpoint,
    ) -> std::io::Result<(Self::Socket, PeerOf<Self>)>;

    /// A profile for an object reachable at `endpoint` under `object_key`,
    /// carrying `components` (see [`ProtocolFactory::make_profile`]).
    fn make_profile(
        endpoint: &Self::Endpoint,
        object_key: Bytes,
        components: &[TaggedComponent],
    ) -> Result<Self::Profile, TransportError>;

    /// The body of `profile`, if it is one of this protocol's.
    fn profile_body(profile: &Profile) -> Result<&Self::Profile, TransportError>;

    /// The endpoint to connect to for a profile of this protocol.
    fn endpoint_of(profile: &Self::Profile) -> Result<Self::Endpoint, TransportError>;
}

/// An endpoint of a protocol over stream sockets. Every such type is an
/// [`Endpoint`], its protocol name and profile tag those of its
/// [`StreamEndpoint::Protocol`].
pub trait StreamEndpoint:
    fmt::Debug + fmt::Display + Clone + FromStr<Err = EndpointError> + Send + Sync + 'static
{
    /// The protocol of the endpoint.
    type Protocol: StreamProtocol<Endpoint = Self>;

    /// The highest GIOP version spoken at the endpoint, and the messaging
    /// protocol (GIOP or GIOPlite).
    fn giop(&self) -> (Version, FrameProtocol);
}

impl<E: StreamEndpoint> Endpoint for E {
    fn protocol(&self) -> &'static str {
        E::Protocol::NAME
    }
    fn profile_tag(&self) -> ProfileId {
        E::Protocol::PROFILE_TAG
    }
    fn version(&self) -> Version {
        self.giop().0
    }
    fn messaging(&self) -> FrameProtocol {
        self.giop().1
    }
    fn clone_box(&self) -> Box<dyn Endpoint> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// `endpoint` as protocol `P`'s endpoint type.
fn downcast<P: StreamProtocol>(endpoint: &dyn Endpoint) -> Result<&P::Endpoint, TransportError> {
    endpoint
        .downcast_ref::<P::Endpoint>()
        .ok_or(TransportError::WrongProtocol {
            expected: P::NAME,
            found: endpoint.protocol(),
        })
}

/// Opens connections to the endpoints of protocol `P`.
#[derive(Debug, Default)]
pub struct StreamConnector<P: StreamProtocol> {
    protocol: PhantomData<fn() -> P>,
}

impl<P: StreamProtocol> StreamConnector<P> {
    /// The connector.
    pub fn new() -> StreamConnector<P> {
        StreamConnector {
            protocol: PhantomData,
        }
    }

    /// Connects to `endpoint`, within `timeout` if one is given, as a
    /// transport speaking the endpoint's messaging protocol.
    pub fn connect_to(
        &self,
        endpoint: &P::Endpoint,
        timeout: Option<Duration>,
    ) -> Result<StreamTransport<P::Socket>, TransportError> {
        let (socket, peer) = P::connect(endpoint, timeout)?;
        StreamTransport::from_socket(socket, P::NAME, endpoint.messaging(), peer).map_err(
            |source| TransportError::Connect {
                endpoint: endpoint.to_string(),
                source,
            },
        )
    }
}

impl<P: StreamProtocol> Connector for StreamConnector<P> {
    fn protocol(&self) -> &'static str {
        P::NAME
    }
    fn connect(
        &self,
        endpoint: &dyn Endpoint,
        timeout: Option<Duration>,
    ) -> Result<Box<dyn Transport>, TransportError> {
        Ok(Box::new(
            self.connect_to(downcast::<P>(endpoint)?, timeout)?,
        ))
    }
}

/// A listening socket of protocol `P`, with the endpoint it publishes.
#[derive(Debug)]
pub struct StreamAcceptor<P: StreamProtocol> {
    listener: P::Listener,
    published: P::Endpoint,
}

impl<P: StreamProtocol> StreamAcceptor<P> {
    /// Listens on `endpoint` (see [`StreamProtocol::listen`]).
    pub fn open(endpoint: &P::Endpoint) -> Result<StreamAcceptor<P>, TransportError> {
        let (listener, published) = P::listen(endpoint)?;
        Ok(StreamAcceptor {
            listener,
            published,
        })
    }

    /// The endpoint clients reach this acceptor at, as its concrete type.
    pub fn published_endpoint(&self) -> &P::Endpoint {
        &self.published
    }

    /// The listening socket.
    pub fn listener(&self) -> &P::Listener {
        &self.listener
    }

    /// Accepts a connection, as a blocking transport.
    pub fn accept_stream(&self) -> Result<StreamTransport<P::Socket>, TransportError> {
        let (socket, peer) = P::accept(&self.listener, &self.published)?;
        // An accepted socket does not inherit the listener's nonblocking
        // mode on every system: make it blocking, as documented.
        socket::set_nonblocking(&socket, false)?;
        Ok(StreamTransport::from_socket(
            socket,
            P::NAME,
            self.published.messaging(),
            peer,
        )?)
    }
}

impl<P: StreamProtocol> AsRawFd for StreamAcceptor<P> {
    fn as_raw_fd(&self) -> RawFd {
        self.listener.as_fd().as_raw_fd()
    }
}

impl<P: StreamProtocol> AsFd for StreamAcceptor<P> {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.listener.as_fd()
    }
}

impl<P: StreamProtocol> Acceptor for StreamAcceptor<P> {
    fn endpoint(&self) -> &dyn Endpoint {
        &self.published
    }
    fn accept(&self) -> Result<Box<dyn Transport>, TransportError> {
        Ok(Box::new(self.accept_stream()?))
    }
    fn set_nonblocking(&self, nonblocking: bool) -> std::io::Result<()> {
        socket::set_nonblocking(&self.listener, nonblocking)
    }
    fn set_backlog(&self, backlog: u32) -> std::io::Result<()> {
        socket::set_backlog(&self.listener, i32::try_from(backlog).unwrap_or(i32::MAX))
    }
}

/// The factory of protocol `P`.
#[derive(Debug, Default)]
pub struct StreamFactory<P: StreamProtocol> {
    connector: StreamConnector<P>,
}

impl<P: StreamProtocol> StreamFactory<P> {
    /// The factory.
    pub fn new() -> StreamFactory<P> {
        StreamFactory {
            connector: StreamConnector::new(),
        }
    }

    /// A profile for `endpoint` and `object_key`, as its concrete type.
    pub fn profile(
        endpoint: &P::Endpoint,
        object_key: Bytes,
        components: &[TaggedComponent],
    ) -> Result<P::Profile, TransportError> {
        P::make_profile(endpoint, object_key, components)
    }

    /// The endpoint of a profile, as its concrete type.
    pub fn endpoint_of(profile: &P::Profile) -> Result<P::Endpoint, TransportError> {
        P::endpoint_of(profile)
    }
}

impl<P: StreamProtocol> ProtocolFactory for StreamFactory<P> {
    fn name(&self) -> &'static str {
        P::NAME
    }
    fn profile_tag(&self) -> ProfileId {
        P::PROFILE_TAG
    }
    fn parse_endpoint(&self, s: &str) -> Result<Box<dyn Endpoint>, EndpointError> {
        Ok(Box::new(s.parse::<P::Endpoint>()?))
    }
    fn connector(&self) -> &dyn Connector {
        &self.connector
    }
    fn open_acceptor(&self, endpoint: &dyn Endpoint) -> Result<Box<dyn Acceptor>, TransportError> {
        let endpoint = downcast::<P>(endpoint)?;
        Ok(Box::new(StreamAcceptor::<P>::open(endpoint)?))
    }
    fn make_profile(
        &self,
        endpoint: &dyn Endpoint,
        object_key: Bytes,
        components: &[TaggedComponent],
    ) -> Result<Profile, TransportError> {
        let endpoint = downcast::<P>(endpoint)?;
        Ok(P::make_profile(endpoint, object_key, components)?.into())
    }
    fn endpoint_from_profile(
        &self,
        profile: &Profile,
    ) -> Result<Box<dyn Endpoint>, TransportError> {
        Ok(Box::new(P::endpoint_of(P::profile_body(profile)?)?))
    }
}
