//! Tagged profiles: IIOP, rtorb's UIOP, multiple-components, and the rest.

use rtorb_cdr::{
    ByteOrder, Bytes, CdrDecode, CdrEncode, CdrError, Decoder, Encoder, TaggedProfile, Version,
};

use super::component::{Component, TaggedComponent};
use super::encap;
use super::tags::{self, ProfileId};

/// Whether a profile of this version carries a component list (IIOP 1.1
/// and later).
fn has_components(version: Version) -> bool {
    version >= Version::V1_1
}

/// The parts of an IIOP or UIOP profile body that surround the address.
struct Body {
    version: Version,
    object_key: Bytes,
    components: Vec<TaggedComponent>,
    order: ByteOrder,
    trailing: Bytes,
}

fn decode_body<A>(
    data: &Bytes,
    address: impl FnOnce(&mut Decoder) -> Result<A, CdrError>,
) -> Result<(A, Body), CdrError> {
    encap::decode(data, |d| {
        let version = Version::new(d.read_u8()?, d.read_u8()?);
        let addr = address(d)?;
        let object_key = d.read_octet_seq()?;
        let components = if has_components(version) {
            Vec::decode(d)?
        } else {
            Vec::new()
        };
        let body = Body {
            version,
            object_key,
            components,
            order: d.order(),
            trailing: d.rest(),
        };
        Ok((addr, body))
    })
}

fn encode_body(
    version: Version,
    object_key: &Bytes,
    components: &[TaggedComponent],
    order: ByteOrder,
    trailing: &Bytes,
    address: impl FnOnce(&mut Encoder) -> Result<(), CdrError>,
) -> Result<Bytes, CdrError> {
    if !components.is_empty() && !has_components(version) {
        return Err(CdrError::Unsupported(
            "tagged components in a version 1.0 profile",
        ));
    }
    encap::encode(order, |e| {
        e.write_u8(version.major);
        e.write_u8(version.minor);
        address(e)?;
        e.write_octet_seq(object_key)?;
        if has_components(version) {
            components.encode(e)?;
        }
        e.write_raw(trailing);
        Ok(())
    })
}

fn find_component(components: &[TaggedComponent], tag: u32) -> Option<&TaggedComponent> {
    components.iter().find(|c| c.tag == tag)
}

/// An IIOP profile body (`IIOP::ProfileBody_1_0` and `ProfileBody_1_1`,
/// used for 1.1 and later).
///
/// A profile decoded from the wire remembers its octets: encoding it
/// again, unchanged, yields them exactly, whatever their byte order,
/// padding or trailing data. A changed profile is encoded afresh in
/// [`IiopProfile::byte_order`], with [`IiopProfile::trailing`] appended.
#[derive(Debug, Clone)]
pub struct IiopProfile {
    /// The highest GIOP version the server speaks over this profile.
    pub version: Version,
    /// Host name or IP address (IPv6 without brackets).
    pub host: String,
    /// TCP port.
    pub port: u16,
    /// The object key (opaque to the client).
    pub object_key: Bytes,
    /// Tagged components (IIOP 1.1 and later only).
    pub components: Vec<TaggedComponent>,
    /// The byte order the body is encapsulated in.
    pub byte_order: ByteOrder,
    /// Octets after the known fields, kept for a later version's fields.
    pub trailing: Bytes,
    original: Option<Bytes>,
}

impl IiopProfile {
    /// A profile with no components, encapsulated in native byte order.
    pub fn new(
        version: Version,
        host: impl Into<String>,
        port: u16,
        object_key: impl Into<Bytes>,
    ) -> IiopProfile {
        IiopProfile {
            version,
            host: host.into(),
            port,
            object_key: object_key.into(),
            components: Vec::new(),
            byte_order: ByteOrder::NATIVE,
            trailing: Bytes::new(),
            original: None,
        }
    }

    /// Decodes a `TAG_INTERNET_IOP` profile body.
    pub fn decode(data: &Bytes) -> Result<IiopProfile, CdrError> {
        let ((host, port), body) = decode_body(data, |d| Ok((d.read_string()?, d.read_u16()?)))?;
        Ok(IiopProfile {
            version: body.version,
            host,
            port,
            object_key: body.object_key,
            components: body.components,
            byte_order: body.order,
            trailing: body.trailing,
            original: Some(data.clone()),
        })
    }

    /// Encodes the profile body: the original octets if the profile was
    /// decoded and has not changed since, else a fresh encapsulation.
    pub fn encode(&self) -> Result<Bytes, CdrError> {
        if let Some(orig) = &self.original {
            if IiopProfile::decode(orig).is_ok_and(|p| p == *self) {
                return Ok(orig.clone());
            }
        }
        encode_body(
            self.version,
            &self.object_key,
            &self.components,
            self.byte_order,
            &self.trailing,
            |e| {
                e.write_string(&self.host)?;
                e.write_u16(self.port);
                Ok(())
            },
        )
    }

    /// The first component with id `tag`.
    pub fn component(&self, tag: u32) -> Option<&TaggedComponent> {
        find_component(&self.components, tag)
    }

    /// Adds a typed component, encapsulated in the profile's byte order.
    pub fn push_component(&mut self, component: &Component) -> Result<(), CdrError> {
        self.components.push(component.to_tagged(self.byte_order)?);
        Ok(())
    }
}

impl PartialEq for IiopProfile {
    fn eq(&self, o: &Self) -> bool {
        self.version == o.version
            && self.host == o.host
            && self.port == o.port
            && self.object_key == o.object_key
            && self.components == o.components
            && self.byte_order == o.byte_order
            && self.trailing == o.trailing
    }
}

impl Eq for IiopProfile {}

/// An rtorb UIOP profile body ([`tags::TAG_RTORB_UIOP`]): GIOP over a
/// Unix-domain stream socket. Laid out like an IIOP profile, with the
/// socket path (`rendezvous_point`) in place of host and port. Like
/// [`IiopProfile`], it re-encodes to its original octets when unchanged.
#[derive(Debug, Clone)]
pub struct UiopProfile {
    /// The highest GIOP version the server speaks over this profile.
    pub version: Version,
    /// Absolute path of the server's socket.
    pub path: String,
    /// The object key.
    pub object_key: Bytes,
    /// Tagged components (version 1.1 and later only).
    pub components: Vec<TaggedComponent>,
    /// The byte order the body is encapsulated in.
    pub byte_order: ByteOrder,
    /// Octets after the known fields.
    pub trailing: Bytes,
    original: Option<Bytes>,
}

impl UiopProfile {
    /// A profile with no components, encapsulated in native byte order.
    pub fn new(
        version: Version,
        path: impl Into<String>,
        object_key: impl Into<Bytes>,
    ) -> UiopProfile {
        UiopProfile {
            version,
            path: path.into(),
            object_key: object_key.into(),
            components: Vec::new(),
            byte_order: ByteOrder::NATIVE,
            trailing: Bytes::new(),
            original: None,
        }
    }

    /// Decodes a [`tags::TAG_RTORB_UIOP`] profile body.
    pub fn decode(data: &Bytes) -> Result<UiopProfile, CdrError> {
        let (path, body) = decode_body(data, |d| d.read_string())?;
        Ok(UiopProfile {
            version: body.version,
            path,
            object_key: body.object_key,
            components: body.components,
            byte_order: body.order,
            trailing: body.trailing,
            original: Some(data.clone()),
        })
    }

    /// Encodes the profile body: the original octets if unchanged, else a
    /// fresh encapsulation.
    pub fn encode(&self) -> Result<Bytes, CdrError> {
        if let Some(orig) = &self.original {
            if UiopProfile::decode(orig).is_ok_and(|p| p == *self) {
                return Ok(orig.clone());
            }
        }
        encode_body(
            self.version,
            &self.object_key,
            &self.components,
            self.byte_order,
            &self.trailing,
            |e| e.write_string(&self.path),
        )
    }

    /// The first component with id `tag`.
    pub fn component(&self, tag: u32) -> Option<&TaggedComponent> {
        find_component(&self.components, tag)
    }
}

impl PartialEq for UiopProfile {
    fn eq(&self, o: &Self) -> bool {
        self.version == o.version
            && self.path == o.path
            && self.object_key == o.object_key
            && self.components == o.components
            && self.byte_order == o.byte_order
            && self.trailing == o.trailing
    }
}

impl Eq for UiopProfile {}

/// A `TAG_MULTIPLE_COMPONENTS` profile body: an encapsulated
/// `IOP::MultipleComponentProfile`. Re-encodes to its original octets when
/// unchanged.
#[derive(Debug, Clone)]
pub struct MultipleComponentProfile {
    /// The components.
    pub components: Vec<TaggedComponent>,
    /// The byte order the body is encapsulated in.
    pub byte_order: ByteOrder,
    /// Octets after the component list.
    pub trailing: Bytes,
    original: Option<Bytes>,
}

impl MultipleComponentProfile {
    /// A profile of `components`, encapsulated in native byte order.
    pub fn new(components: Vec<TaggedComponent>) -> MultipleComponentProfile {
        MultipleComponentProfile {
            components,
            byte_order: ByteOrder::NATIVE,
            trailing: Bytes::new(),
            original: None,
        }
    }

    /// Decodes a `TAG_MULTIPLE_COMPONENTS` profile body.
    pub fn decode(data: &Bytes) -> Result<MultipleComponentProfile, CdrError> {
        encap::decode(data, |d| {
            let components = Vec::decode(d)?;
            Ok(MultipleComponentProfile {
                components,
                byte_order: d.order(),
                trailing: d.rest(),
                original: Some(data.clone()),
            })
        })
    }

    /// Encodes the profile body.
    pub fn encode(&self) -> Result<Bytes, CdrError> {
        if let Some(orig) = &self.original {
            if MultipleComponentProfile::decode(orig).is_ok_and(|p| p == *self) {
                return Ok(orig.clone());
            }
        }
        encap::encode(self.byte_order, |e| {
            self.components.encode(e)?;
            e.write_raw(&self.trailing);
            Ok(())
        })
    }
}

impl PartialEq for MultipleComponentProfile {
    fn eq(&self, o: &Self) -> bool {
        self.components == o.components
            && self.byte_order == o.byte_order
            && self.trailing == o.trailing
    }
}

impl Eq for MultipleComponentProfile {}

/// One decoded profile of an object reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Profile {
    /// `TAG_INTERNET_IOP`.
    Iiop(IiopProfile),
    /// rtorb's [`tags::TAG_RTORB_UIOP`].
    Uiop(UiopProfile),
    /// `TAG_MULTIPLE_COMPONENTS`.
    MultipleComponents(MultipleComponentProfile),
    /// Any other profile, kept as it was received.
    Unknown {
        /// The profile id.
        tag: ProfileId,
        /// The profile body.
        data: Bytes,
    },
}

impl Profile {
    /// Decodes a raw tagged profile.
    pub fn decode(profile: &TaggedProfile) -> Result<Profile, CdrError> {
        Ok(match profile.tag {
            tags::TAG_INTERNET_IOP => Profile::Iiop(IiopProfile::decode(&profile.data)?),
            tags::TAG_RTORB_UIOP => Profile::Uiop(UiopProfile::decode(&profile.data)?),
            tags::TAG_MULTIPLE_COMPONENTS => {
                Profile::MultipleComponents(MultipleComponentProfile::decode(&profile.data)?)
            }
            tag => Profile::Unknown {
                tag,
                data: profile.data.clone(),
            },
        })
    }

    /// Encodes the profile as a raw tagged profile.
    pub fn to_tagged(&self) -> Result<TaggedProfile, CdrError> {
        let data = match self {
            Profile::Iiop(p) => p.encode()?,
            Profile::Uiop(p) => p.encode()?,
            Profile::MultipleComponents(p) => p.encode()?,
            Profile::Unknown { data, .. } => data.clone(),
        };
        Ok(TaggedProfile {
            tag: self.tag(),
            data,
        })
    }

    /// The profile id.
    pub fn tag(&self) -> ProfileId {
        match self {
            Profile::Iiop(_) => tags::TAG_INTERNET_IOP,
            Profile::Uiop(_) => tags::TAG_RTORB_UIOP,
            Profile::MultipleComponents(_) => tags::TAG_MULTIPLE_COMPONENTS,
            Profile::Unknown { tag, .. } => *tag,
        }
    }

    /// A short protocol name: `"iiop"`, `"uiop"`, `"multiple-components"`
    /// or `"unknown"`.
    pub fn protocol(&self) -> &'static str {
        match self {
            Profile::Iiop(_) => "iiop",
            Profile::Uiop(_) => "uiop",
            Profile::MultipleComponents(_) => "multiple-components",
            Profile::Unknown { .. } => "unknown",
        }
    }

    /// The profile's tagged components (none for unknown profiles).
    pub fn components(&self) -> &[TaggedComponent] {
        match self {
            Profile::Iiop(p) => &p.components,
            Profile::Uiop(p) => &p.components,
            Profile::MultipleComponents(p) => &p.components,
            Profile::Unknown { .. } => &[],
        }
    }

    /// The object key, for profiles that carry one.
    pub fn object_key(&self) -> Option<&Bytes> {
        match self {
            Profile::Iiop(p) => Some(&p.object_key),
            Profile::Uiop(p) => Some(&p.object_key),
            _ => None,
        }
    }

    /// The GIOP version, for profiles that carry one.
    pub fn version(&self) -> Option<Version> {
        match self {
            Profile::Iiop(p) => Some(p.version),
            Profile::Uiop(p) => Some(p.version),
            _ => None,
        }
    }
}

impl From<IiopProfile> for Profile {
    fn from(p: IiopProfile) -> Profile {
        Profile::Iiop(p)
    }
}

impl From<UiopProfile> for Profile {
    fn from(p: UiopProfile) -> Profile {
        Profile::Uiop(p)
    }
}
