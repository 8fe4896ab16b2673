//! A protocol registry whose acceptors count the connections they accept
//! and how many of them are still open, for tests that check how many
//! connections a client opens and when it closes them.

use std::io::IoSlice;
use std::net::Shutdown;
use std::os::fd::{AsRawFd, RawFd};
use std::sync::Arc;
use std::sync::Mutex;
use std::time::Duration;

use bytes::Bytes;
use rtorb::transport::{
    Acceptor, Connector, Endpoint, EndpointError, ProtocolFactory, ProtocolRegistry, Transport,
    TransportError,
};
use rtorb_giop::FrameProtocol;
use rtorb_giop::ior::tags::ProfileId;
use rtorb_giop::ior::{Profile, TaggedComponent};

/// What the acceptors of a counting registry saw.
#[derive(Debug, Default)]
pub(crate) struct Counts {
    /// (protocol, GIOPlite) of every accepted connection.
    accepted: Mutex<Vec<(&'static str, bool)>>,
    open: Mutex<usize>,
}

impl Counts {
    /// Connections accepted so far.
    pub(crate) fn accepted(&self) -> usize {
        self.accepted.lock().unwrap().len()
    }

    /// Connections of `protocol` (GIOPlite or not) accepted so far.
    pub(crate) fn accepted_by(&self, protocol: &str, lite: bool) -> usize {
        self.accepted
            .lock()
            .unwrap()
            .iter()
            .filter(|(p, l)| *p == protocol && *l == lite)
            .count()
    }

    /// Accepted connections the server has not closed yet.
    pub(crate) fn open(&self) -> usize {
        *self.open.lock().unwrap()
    }
}

/// The default protocols, counting.
pub(crate) fn counting_registry() -> (ProtocolRegistry, Arc<Counts>) {
    let counts = Arc::new(Counts::default());
    let base = ProtocolRegistry::with_default_protocols();
    let mut r = ProtocolRegistry::new();
    for f in base.factories() {
        r.register(Arc::new(CountingFactory {
            inner: Arc::clone(f),
            counts: Arc::clone(&counts),
        }))
        .unwrap();
    }
    (r, counts)
}

#[derive(Debug)]
struct CountingFactory {
    inner: Arc<dyn ProtocolFactory>,
    counts: Arc<Counts>,
}

/// The default protocols, with client transports that cannot be shared
/// between threads (no [`Transport::try_clone_box`]); `Counts::open`
/// counts the client connections open.
pub(crate) fn unsharable_registry() -> (ProtocolRegistry, Arc<Counts>) {
    let counts = Arc::new(Counts::default());
    let base = ProtocolRegistry::with_default_protocols();
    let mut r = ProtocolRegistry::new();
    for f in base.factories() {
        r.register(Arc::new(UnsharableFactory {
            connector: UnsharableConnector {
                inner: Arc::clone(f),
                counts: Arc::clone(&counts),
            },
        }))
        .unwrap();
    }
    (r, counts)
}

#[derive(Debug)]
struct UnsharableFactory {
    connector: UnsharableConnector,
}

#[derive(Debug)]
struct UnsharableConnector {
    inner: Arc<dyn ProtocolFactory>,
    counts: Arc<Counts>,
}

impl Connector for UnsharableConnector {
    fn protocol(&self) -> &'static str {
        self.inner.name()
    }
    fn connect(
        &self,
        endpoint: &dyn Endpoint,
        timeout: Option<Duration>,
    ) -> Result<Box<dyn Transport>, TransportError> {
        let t = self.inner.connector().connect(endpoint, timeout)?;
        *self.counts.open.lock().unwrap() += 1;
        Ok(Box::new(CountingTransport {
            inner: t,
            counts: Arc::clone(&self.counts),
        }))
    }
}

impl ProtocolFactory for UnsharableFactory {
    fn name(&self) -> &'static str {
        self.connector.inner.name()
    }
    fn profile_tag(&self) -> ProfileId {
        self.connector.inner.profile_tag()
    }
    fn parse_endpoint(&self, s: &str) -> Result<Box<dyn Endpoint>, EndpointError> {
        self.connector.inner.parse_endpoint(s)
    }
    fn connector(&self) -> &dyn Connector {
        &self.connector
    }
    fn open_acceptor(&self, endpoint: &dyn Endpoint) -> Result<Box<dyn Acceptor>, TransportError> {
        self.connector.inner.open_acceptor(endpoint)
    }
    fn make_profile(
        &self,
        endpoint: &dyn Endpoint,
        object_key: Bytes,
        components: &[TaggedComponent],
    ) -> Result<Profile, TransportError> {
        self.connector
            .inner
            .make_profile(endpoint, object_key, components)
    }
    fn endpoint_from_profile(
        &self,
        profile: &Profile,
    ) -> Result<Box<dyn Endpoint>, TransportError> {
        self.connector.inner.endpoint_from_profile(profile)
    }
}

impl ProtocolFactory for CountingFactory {
    fn name(&self) -> &'static str {
        self.inner.name()
    }
    fn profile_tag(&self) -> ProfileId {
        self.inner.profile_tag()
    }
    fn parse_endpoint(&self, s: &str) -> Result<Box<dyn Endpoint>, EndpointError> {
        self.inner.parse_endpoint(s)
    }
    fn connector(&self) -> &dyn Connector {
        self.inner.connector()
    }
    fn open_acceptor(&self, endpoint: &dyn Endpoint) -> Result<Box<dyn Acceptor>, TransportError> {
        Ok(Box::new(CountingAcceptor {
            inner: self.inner.open_acceptor(endpoint)?,
            counts: Arc::clone(&self.counts),
        }))
    }
    fn make_profile(
        &self,
        endpoint: &dyn Endpoint,
        object_key: Bytes,
        components: &[TaggedComponent],
    ) -> Result<Profile, TransportError> {
        self.inner.make_profile(endpoint, object_key, components)
    }
    fn endpoint_from_profile(
        &self,
        profile: &Profile,
    ) -> Result<Box<dyn Endpoint>, TransportError> {
        self.inner.endpoint_from_profile(profile)
    }
}

#[derive(Debug)]
struct CountingAcceptor {
    inner: Box<dyn Acceptor>,
    counts: Arc<Counts>,
}

impl AsRawFd for CountingAcceptor {
    fn as_raw_fd(&self) -> RawFd {
        self.inner.as_raw_fd()
    }
}

impl Acceptor for CountingAcceptor {
    fn endpoint(&self) -> &dyn Endpoint {
        self.inner.endpoint()
    }
    fn accept(&self) -> Result<Box<dyn Transport>, TransportError> {
        let t = self.inner.accept()?;
        self.counts
            .accepted
            .lock()
            .unwrap()
            .push((t.protocol(), t.messaging() == FrameProtocol::Lite));
        *self.counts.open.lock().unwrap() += 1;
        Ok(Box::new(CountingTransport {
            inner: t,
            counts: Arc::clone(&self.counts),
        }))
    }
    fn set_nonblocking(&self, nonblocking: bool) -> std::io::Result<()> {
        self.inner.set_nonblocking(nonblocking)
    }
}

#[derive(Debug)]
struct CountingTransport {
    inner: Box<dyn Transport>,
    counts: Arc<Counts>,
}

impl Drop for CountingTransport {
    fn drop(&mut self) {
        *self.counts.open.lock().unwrap() -= 1;
    }
}

impl AsRawFd for CountingTransport {
    fn as_raw_fd(&self) -> RawFd {
        self.inner.as_raw_fd()
    }
}

impl Transport for CountingTransport {
    fn protocol(&self) -> &'static str {
        self.inner.protocol()
    }
    fn messaging(&self) -> FrameProtocol {
        self.inner.messaging()
    }
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.inner.read(buf)
    }
    fn writev(&mut self, bufs: &[IoSlice<'_>]) -> std::io::Result<usize> {
        self.inner.writev(bufs)
    }
    fn shutdown(&mut self, how: Shutdown) -> std::io::Result<()> {
        self.inner.shutdown(how)
    }
    fn peer(&self) -> String {
        self.inner.peer()
    }
    fn set_nonblocking(&mut self, nonblocking: bool) -> std::io::Result<()> {
        self.inner.set_nonblocking(nonblocking)
    }
    fn set_read_timeout(&mut self, timeout: Option<Duration>) -> std::io::Result<()> {
        self.inner.set_read_timeout(timeout)
    }
    fn set_write_timeout(&mut self, timeout: Option<Duration>) -> std::io::Result<()> {
        self.inner.set_write_timeout(timeout)
    }
}
