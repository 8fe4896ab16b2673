//! The transport of every protocol that runs over a stream socket:
//! [`StreamTransport`], generic over the kind of socket
//! ([`StreamSocket`]: TCP for IIOP, Unix-domain for UIOP).
//!
//! Sending, receiving, shutdown, blocking mode, timeouts, a second handle
//! and the descriptor a reactor polls are written here once, as the system
//! calls of the `socket` module; a kind of socket adds only its connection
//! options and how it names its peer.

use std::fmt;
use std::io::IoSlice;
use std::net::Shutdown;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd, RawFd};
use std::time::Duration;

use rtorb_giop::FrameProtocol;

use super::{Transport, socket};

/// A kind of connected stream socket a transport can run over
/// (`TcpStream`, `UnixStream`): what differs between them once connected.
///
/// Everything else is done on the descriptor, the same way for every kind.
pub trait StreamSocket: AsFd + From<OwnedFd> + fmt::Debug + Send + 'static {
    /// How a connection names its peer: a socket address for TCP, a path
    /// for Unix-domain sockets.
    type Peer: fmt::Debug + Clone + Send + 'static;

    /// Sets the options every connection over this kind of socket has
    /// (`TCP_NODELAY` for TCP), once, when it is connected or accepted.
    fn set_connection_options(&self) -> std::io::Result<()>;

    /// The peer as [`Transport::peer`] describes it, for a connection of
    /// `protocol`: `iiop://127.0.0.1:40312`.
    fn describe_peer(protocol: &str, peer: &Self::Peer) -> String;
}

/// A connection over a stream socket: the [`Transport`] of IIOP
/// ([`TcpTransport`](super::TcpTransport)), UIOP
/// ([`UnixTransport`](super::UnixTransport)) and any protocol whose
/// connection is a stream socket.
#[derive(Debug)]
pub struct StreamTransport<S: StreamSocket> {
    socket: S,
    protocol: &'static str,
    messaging: FrameProtocol,
    peer: S::Peer,
}

impl<S: StreamSocket> StreamTransport<S> {
    /// Wraps a connected socket of `protocol`, speaking `messaging` to
    /// `peer`, and sets its connection options
    /// ([`StreamSocket::set_connection_options`]).
    pub fn from_socket(
        socket: S,
        protocol: &'static str,
        messaging: FrameProtocol,
        peer: S::Peer,
    ) -> std::io::Result<StreamTransport<S>> {
        socket.set_connection_options()?;
        Ok(StreamTransport {
            socket,
            protocol,
            messaging,
            peer,
        })
    }

    /// The underlying socket.
    pub fn stream(&self) -> &S {
        &self.socket
    }

    /// The peer, as the socket names it.
    pub fn peer_address(&self) -> &S::Peer {
        &self.peer
    }

    /// A second handle to the same connection: the same socket, with its
    /// options, timeouts and blocking mode.
    pub fn try_clone(&self) -> std::io::Result<StreamTransport<S>> {
        Ok(StreamTransport {
            socket: S::from(socket::duplicate(&self.socket)?),
            protocol: self.protocol,
            messaging: self.messaging,
            peer: self.peer.clone(),
        })
    }
}

impl<S: StreamSocket> AsRawFd for StreamTransport<S> {
    fn as_raw_fd(&self) -> RawFd {
        self.socket.as_fd().as_raw_fd()
    }
}

impl<S: StreamSocket> AsFd for StreamTransport<S> {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.socket.as_fd()
    }
}

impl<S: StreamSocket> Transport for StreamTransport<S> {
    fn protocol(&self) -> &'static str {
        self.protocol
    }
    fn messaging(&self) -> FrameProtocol {
        self.messaging
    }
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        socket::recv(&self.socket, buf)
    }
    fn peek(&self, buf: &mut [u8]) -> std::io::Result<usize> {
        socket::peek(&self.socket, buf)
    }
    fn writev(&mut self, bufs: &[IoSlice<'_>]) -> std::io::Result<usize> {
        socket::send_gathered(&self.socket, bufs)
    }
    fn send_all(&mut self, message: &[u8]) -> std::io::Result<()> {
        socket::send_all(&self.socket, message)
    }
    fn shutdown(&mut self, how: Shutdown) -> std::io::Result<()> {
        socket::shutdown(&self.socket, how)
    }
    fn peer(&self) -> String {
        S::describe_peer(self.protocol, &self.peer)
    }
    fn set_nonblocking(&mut self, nonblocking: bool) -> std::io::Result<()> {
        socket::set_nonblocking(&self.socket, nonblocking)
    }
    fn set_read_timeout(&mut self, timeout: Option<Duration>) -> std::io::Result<()> {
        socket::set_read_timeout(&self.socket, timeout)
    }
    fn set_write_timeout(&mut self, timeout: Option<Duration>) -> std::io::Result<()> {
        socket::set_write_timeout(&self.socket, timeout)
    }
    fn try_clone_box(&self) -> std::io::Result<Box<dyn Transport>> {
        Ok(Box::new(self.try_clone()?))
    }
}
