//! The registry of pluggable protocols. It knows protocols only through
//! their [`ProtocolFactory`]; the ones that come with rtorb are added by
//! [`ProtocolRegistry::with_default_protocols`] (in the parent module).

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use rtorb_giop::ObjectReference;
use rtorb_giop::ior::tags::ProfileId;
use rtorb_giop::ior::{Profile, TaggedComponent};

use super::endpoint::split_scheme;
use super::{Acceptor, Endpoint, EndpointError, ProtocolFactory, Transport, TransportError};

/// The protocols an ORB can speak, each a registered [`ProtocolFactory`],
/// found by name (endpoint scheme) or by profile tag.
///
/// Cloning a registry shares its factories.
#[derive(Debug, Default, Clone)]
pub struct ProtocolRegistry {
    factories: Vec<Arc<dyn ProtocolFactory>>,
}

impl ProtocolRegistry {
    /// A registry with no protocols.
    pub fn new() -> ProtocolRegistry {
        ProtocolRegistry::default()
    }

    /// Adds a protocol. Refused if one with the same name or profile tag
    /// is already registered.
    pub fn register(&mut self, factory: Arc<dyn ProtocolFactory>) -> Result<(), TransportError> {
        let clash = self.factories.iter().any(|f| {
            f.name().eq_ignore_ascii_case(factory.name())
                || f.profile_tag() == factory.profile_tag()
        });
        if clash {
            return Err(TransportError::DuplicateProtocol {
                name: factory.name(),
                tag: factory.profile_tag(),
            });
        }
        self.factories.push(factory);
        Ok(())
    }

    /// The registered factories, in registration order.
    pub fn factories(&self) -> impl Iterator<Item = &Arc<dyn ProtocolFactory>> {
        self.factories.iter()
    }

    /// The factory of the protocol named `name` (any case).
    pub fn get(&self, name: &str) -> Option<&Arc<dyn ProtocolFactory>> {
        self.factories
            .iter()
            .find(|f| f.name().eq_ignore_ascii_case(name))
    }

    /// The factory for profiles tagged `tag`.
    pub fn by_tag(&self, tag: ProfileId) -> Option<&Arc<dyn ProtocolFactory>> {
        self.factories.iter().find(|f| f.profile_tag() == tag)
    }

    fn factory_of(
        &self,
        endpoint: &dyn Endpoint,
    ) -> Result<&Arc<dyn ProtocolFactory>, TransportError> {
        self.get(endpoint.protocol())
            .ok_or(TransportError::NoProtocol(endpoint.protocol()))
    }

    /// Parses an endpoint string with the factory its scheme names.
    pub fn parse_endpoint(&self, s: &str) -> Result<Box<dyn Endpoint>, EndpointError> {
        let (scheme, _) = split_scheme(s)?;
        let factory = self
            .get(&scheme)
            .ok_or(EndpointError::UnknownProtocol(scheme))?;
        factory.parse_endpoint(s)
    }

    /// Connects to `endpoint` with its protocol's connector.
    pub fn connect(
        &self,
        endpoint: &dyn Endpoint,
        timeout: Option<Duration>,
    ) -> Result<Box<dyn Transport>, TransportError> {
        self.factory_of(endpoint)?
            .connector()
            .connect(endpoint, timeout)
    }

    /// Listens on `endpoint` with its protocol's acceptor.
    pub fn open_acceptor(
        &self,
        endpoint: &dyn Endpoint,
    ) -> Result<Box<dyn Acceptor>, TransportError> {
        self.factory_of(endpoint)?.open_acceptor(endpoint)
    }

    /// Parses an endpoint string and listens on it.
    pub fn listen(&self, s: &str) -> Result<Box<dyn Acceptor>, TransportError> {
        let endpoint = self.parse_endpoint(s)?;
        self.open_acceptor(&*endpoint)
    }

    /// A profile for an object reachable at `endpoint` under `object_key`.
    pub fn make_profile(
        &self,
        endpoint: &dyn Endpoint,
        object_key: Bytes,
        components: &[TaggedComponent],
    ) -> Result<Profile, TransportError> {
        self.factory_of(endpoint)?
            .make_profile(endpoint, object_key, components)
    }

    /// The endpoint to connect to for `profile`, by the factory of its tag.
    pub fn endpoint_from_profile(
        &self,
        profile: &Profile,
    ) -> Result<Box<dyn Endpoint>, TransportError> {
        let tag = profile.tag();
        self.by_tag(tag)
            .ok_or(TransportError::NoProtocolForProfile(tag))?
            .endpoint_from_profile(profile)
    }

    /// The endpoints of the profiles of `reference` that a registered
    /// protocol can reach, in the order of the reference, each with the
    /// index of its profile. Profiles of other protocols, and malformed
    /// ones, are skipped.
    pub fn endpoints_of(&self, reference: &ObjectReference) -> Vec<(usize, Box<dyn Endpoint>)> {
        reference
            .profiles
            .iter()
            .enumerate()
            .filter_map(|(i, p)| self.endpoint_from_profile(p).ok().map(|e| (i, e)))
            .collect()
    }
}
