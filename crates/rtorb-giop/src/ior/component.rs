//! Tagged components (`IOP::TaggedComponent`) and the typed view of the
//! ones rtorb understands.

use rtorb_cdr::codeset::CodeSetComponentInfo;
use rtorb_cdr::{ByteOrder, Bytes, CdrDecode, CdrEncode, CdrError, Decoder, Encoder};

use super::encap;
use super::policy::PolicyValue;
use super::tags::{self, ComponentId};

/// A tagged component of a profile, as it was on the wire: the id and the
/// component data (usually an encapsulation). Keeping the octets means a
/// component rtorb does not understand is passed on unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TaggedComponent {
    /// The component id.
    pub tag: ComponentId,
    /// The component body.
    pub component_data: Bytes,
}

impl TaggedComponent {
    /// A component from its id and body.
    pub fn new(tag: ComponentId, component_data: impl Into<Bytes>) -> TaggedComponent {
        TaggedComponent {
            tag,
            component_data: component_data.into(),
        }
    }

    /// The IDL name of the component id, when known.
    pub fn name(&self) -> Option<&'static str> {
        tags::component_name(self.tag)
    }

    /// Decodes the body of the components rtorb knows; others come back
    /// as [`Component::Other`]. Trailing octets after a known body are
    /// ignored (encapsulations may be extended).
    pub fn decode_value(&self) -> Result<Component, CdrError> {
        let data = &self.component_data;
        Ok(match self.tag {
            tags::TAG_ORB_TYPE => Component::OrbType(encap::decode(data, |d| d.read_u32())?),
            tags::TAG_CODE_SETS => {
                Component::CodeSets(encap::decode(data, CodeSetComponentInfo::decode)?)
            }
            tags::TAG_POLICIES => Component::Policies(encap::decode(data, Vec::decode)?),
            tags::TAG_ALTERNATE_IIOP_ADDRESS => encap::decode(data, |d| {
                Ok(Component::AlternateIiopAddress {
                    host: d.read_string()?,
                    port: d.read_u16()?,
                })
            })?,
            tags::TAG_SSL_SEC_TRANS => encap::decode(data, |d| {
                Ok(Component::SslSecTrans(SslSecTrans {
                    target_supports: d.read_u16()?,
                    target_requires: d.read_u16()?,
                    port: d.read_u16()?,
                }))
            })?,
            tags::TAG_JAVA_CODEBASE => {
                Component::JavaCodebase(encap::decode(data, |d| d.read_string())?)
            }
            tags::TAG_OMNIORB_BIDIR => {
                Component::OmniOrbBidir(encap::decode(data, |d| d.read_string())?)
            }
            tags::TAG_OMNIORB_UNIX_TRANS => encap::decode(data, |d| {
                Ok(Component::OmniOrbUnixTrans {
                    host: d.read_string()?,
                    filename: d.read_string()?,
                })
            })?,
            tags::TAG_OMNIORB_PERSISTENT_ID => Component::OmniOrbPersistentId(data.clone()),
            _ => Component::Other(self.clone()),
        })
    }
}

impl CdrEncode for TaggedComponent {
    fn encode(&self, enc: &mut Encoder) -> Result<(), CdrError> {
        enc.write_u32(self.tag);
        enc.write_octet_seq_bytes(&self.component_data)
    }
}

impl CdrDecode for TaggedComponent {
    const MIN_WIRE_SIZE: usize = 8;
    fn decode(dec: &mut Decoder) -> Result<Self, CdrError> {
        Ok(TaggedComponent {
            tag: dec.read_u32()?,
            component_data: dec.read_octet_seq()?,
        })
    }
}

/// The body of a `TAG_SSL_SEC_TRANS` component (`SSLIOP::SSL`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SslSecTrans {
    /// `Security::AssociationOptions` the target supports.
    pub target_supports: u16,
    /// `Security::AssociationOptions` the target requires.
    pub target_requires: u16,
    /// The port of the SSL endpoint (on the profile's host).
    pub port: u16,
}

/// A decoded tagged component.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Component {
    /// `TAG_ORB_TYPE`: the ORB that made the reference (see
    /// [`tags::orb_type_name`]).
    OrbType(u32),
    /// `TAG_CODE_SETS`: the server's native and conversion code sets.
    CodeSets(CodeSetComponentInfo),
    /// `TAG_POLICIES`: client-exposed policies.
    Policies(Vec<PolicyValue>),
    /// `TAG_ALTERNATE_IIOP_ADDRESS`: another address of the same server.
    AlternateIiopAddress {
        /// Host name or address.
        host: String,
        /// TCP port.
        port: u16,
    },
    /// `TAG_SSL_SEC_TRANS`: the SSL endpoint.
    SslSecTrans(SslSecTrans),
    /// `TAG_JAVA_CODEBASE`: space-separated codebase URLs.
    JavaCodebase(String),
    /// `TAG_OMNIORB_BIDIR`: omniORB's bidirectional GIOP send-from address.
    OmniOrbBidir(String),
    /// `TAG_OMNIORB_UNIX_TRANS`: omniORB's Unix-domain socket endpoint.
    OmniOrbUnixTrans {
        /// The host the socket lives on.
        host: String,
        /// The socket's file name.
        filename: String,
    },
    /// `TAG_OMNIORB_PERSISTENT_ID`: omniORB's persistent server id, raw.
    OmniOrbPersistentId(Bytes),
    /// A component rtorb does not decode, as it was received.
    Other(TaggedComponent),
}

impl Component {
    /// The component id.
    pub fn tag(&self) -> ComponentId {
        match self {
            Component::OrbType(_) => tags::TAG_ORB_TYPE,
            Component::CodeSets(_) => tags::TAG_CODE_SETS,
            Component::Policies(_) => tags::TAG_POLICIES,
            Component::AlternateIiopAddress { .. } => tags::TAG_ALTERNATE_IIOP_ADDRESS,
            Component::SslSecTrans(_) => tags::TAG_SSL_SEC_TRANS,
            Component::JavaCodebase(_) => tags::TAG_JAVA_CODEBASE,
            Component::OmniOrbBidir(_) => tags::TAG_OMNIORB_BIDIR,
            Component::OmniOrbUnixTrans { .. } => tags::TAG_OMNIORB_UNIX_TRANS,
            Component::OmniOrbPersistentId(_) => tags::TAG_OMNIORB_PERSISTENT_ID,
            Component::Other(c) => c.tag,
        }
    }

    /// The component as a profile carries it, encapsulated in `order`.
    pub fn to_tagged(&self, order: ByteOrder) -> Result<TaggedComponent, CdrError> {
        let data = match self {
            Component::OrbType(t) => encap::encode(order, |e| {
                e.write_u32(*t);
                Ok(())
            })?,
            Component::CodeSets(info) => encap::encode(order, |e| info.encode(e))?,
            Component::Policies(p) => encap::encode(order, |e| p.encode(e))?,
            Component::AlternateIiopAddress { host, port } => encap::encode(order, |e| {
                e.write_string(host)?;
                e.write_u16(*port);
                Ok(())
            })?,
            Component::SslSecTrans(s) => encap::encode(order, |e| {
                e.write_u16(s.target_supports);
                e.write_u16(s.target_requires);
                e.write_u16(s.port);
                Ok(())
            })?,
            Component::JavaCodebase(s) | Component::OmniOrbBidir(s) => {
                encap::encode(order, |e| e.write_string(s))?
            }
            Component::OmniOrbUnixTrans { host, filename } => encap::encode(order, |e| {
                e.write_string(host)?;
                e.write_string(filename)
            })?,
            Component::OmniOrbPersistentId(b) => b.clone(),
            Component::Other(c) => return Ok(c.clone()),
        };
        Ok(TaggedComponent {
            tag: self.tag(),
            component_data: data,
        })
    }
}
