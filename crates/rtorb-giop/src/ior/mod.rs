//! Object references: IORs, their profiles and tagged components, and the
//! stringified `IOR:` form.
//!
//! [`rtorb_cdr::Ior`] is the raw CDR form of a reference (a type id and
//! tagged profiles as octets). This module interprets it: an
//! [`ObjectReference`] holds decoded [`Profile`]s (IIOP, rtorb's UIOP,
//! multiple-components, or unknown ones kept as octets), and each profile
//! its [`TaggedComponent`]s, which decode on demand to typed
//! [`Component`]s. Decoding a reference and encoding it again reproduces
//! the original octets exactly, byte order and padding included, for every
//! profile that was not changed in between.
//!
//! ```
//! use rtorb_cdr::{ByteOrder, Version};
//! use rtorb_giop::ior::{IiopProfile, ObjectReference};
//!
//! let p = IiopProfile::new(Version::V1_0, "127.0.0.1", 2809, &b"Cubit"[..]);
//! let r = ObjectReference::new("IDL:Cubit:1.0", vec![p.into()]);
//! let s = r.to_stringified_in(ByteOrder::Little).unwrap();
//! assert_eq!(
//!     s,
//!     // flag, type id, 1 profile, TAG_INTERNET_IOP, 29 octets of body:
//!     // flag, IIOP 1.0, pad, host, port 2809, key "Cubit"
//!     "IOR:01000000 0e000000 49444c3a43756269743a312e3000 0000 01000000 \
//!      00000000 1d000000 01 0100 00 0a000000 3132372e302e302e3100 f90a \
//!      05000000 4375626974"
//!         .replace(' ', "")
//! );
//! let back: ObjectReference = s.parse().unwrap();
//! assert_eq!(back.first_iiop_endpoint(), Some(("127.0.0.1", 2809)));
//! assert_eq!(&back.object_key().unwrap()[..], b"Cubit");
//! ```

mod component;
mod encap;
pub mod info;
mod policy;
mod profile;
pub mod tags;

use std::str::FromStr;

use rtorb_cdr::codeset::CodeSetComponentInfo;
use rtorb_cdr::{ByteOrder, Bytes, CdrDecode, CdrEncode, CdrError, Decoder, Encoder, Ior};

use crate::minor;

pub use component::{Component, SslSecTrans, TaggedComponent};
pub use info::Info;
pub use policy::{Policy, PolicyValue, PriorityBand, PriorityModel};
pub use profile::{IiopProfile, MultipleComponentProfile, Profile, UiopProfile};

/// The prefix of a stringified object reference.
pub const IOR_PREFIX: &str = "IOR:";

/// Why a stringified object reference could not be read or written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum IorError {
    /// The string does not start with `IOR:` (in any case).
    #[error("stringified IOR does not start with \"IOR:\"")]
    BadPrefix,
    /// No octets follow the prefix.
    #[error("stringified IOR has no octets")]
    Empty,
    /// An odd number of hexadecimal digits.
    #[error("stringified IOR has an odd number ({0}) of hex digits")]
    OddLength(usize),
    /// A character that is not a hexadecimal digit.
    #[error("invalid hex digit {found:?} at offset {offset} of the stringified IOR")]
    BadHexDigit {
        /// Offset of the character after the prefix.
        offset: usize,
        /// The character.
        found: char,
    },
    /// The octets are not a valid encapsulated IOR, or a profile in it is
    /// malformed.
    #[error("malformed IOR: {0}")]
    Cdr(#[from] CdrError),
}

impl IorError {
    /// The name of the CORBA system exception that reports this error:
    /// `BAD_PARAM` for a malformed string, `MARSHAL` for malformed octets.
    pub fn exception_name(&self) -> &'static str {
        match self {
            IorError::Cdr(_) => "MARSHAL",
            _ => "BAD_PARAM",
        }
    }

    /// The minor code: OMG `BAD_PARAM` minor 7 (bad scheme name) for a
    /// missing prefix, 9 (bad schema specific part) for bad hex, and the
    /// CDR error's `MARSHAL` minor for malformed octets.
    pub fn minor(&self) -> u32 {
        match self {
            IorError::BadPrefix => minor::BAD_PARAM_BAD_SCHEME,
            IorError::Empty | IorError::OddLength(_) | IorError::BadHexDigit { .. } => {
                minor::BAD_PARAM_BAD_SCHEME_SPECIFIC_PART
            }
            IorError::Cdr(e) => e.minor(),
        }
    }
}

/// An object reference with its profiles decoded.
///
/// A nil reference has an empty type id and no profiles.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ObjectReference {
    /// The repository id of the most derived interface known when the
    /// reference was made (may be empty).
    pub type_id: String,
    /// The profiles, in the order the server listed them.
    pub profiles: Vec<Profile>,
}

impl ObjectReference {
    /// A reference from a type id and profiles.
    pub fn new(type_id: impl Into<String>, profiles: Vec<Profile>) -> ObjectReference {
        ObjectReference {
            type_id: type_id.into(),
            profiles,
        }
    }

    /// The nil reference.
    pub fn nil() -> ObjectReference {
        ObjectReference::default()
    }

    /// Whether this is the nil reference (no type id and no profiles).
    pub fn is_nil(&self) -> bool {
        self.type_id.is_empty() && self.profiles.is_empty()
    }

    /// Decodes every profile of a raw IOR. Profiles with unknown tags are
    /// kept as octets; a malformed known profile is an error.
    pub fn from_ior(ior: &Ior) -> Result<ObjectReference, CdrError> {
        let profiles = ior
            .profiles
            .iter()
            .map(Profile::decode)
            .collect::<Result<_, _>>()?;
        Ok(ObjectReference {
            type_id: ior.type_id.clone(),
            profiles,
        })
    }

    /// Encodes every profile into a raw IOR.
    pub fn to_ior(&self) -> Result<Ior, CdrError> {
        let profiles = self
            .profiles
            .iter()
            .map(Profile::to_tagged)
            .collect::<Result<_, _>>()?;
        Ok(Ior {
            type_id: self.type_id.clone(),
            profiles,
        })
    }

    /// Reads a stringified reference (`IOR:` and hex digits).
    pub fn from_stringified(s: &str) -> Result<ObjectReference, IorError> {
        let (ior, _) = decode_stringified(s)?;
        Ok(ObjectReference::from_ior(&ior)?)
    }

    /// The stringified reference, encapsulated in native byte order, in
    /// lowercase hex.
    pub fn to_stringified(&self) -> Result<String, IorError> {
        self.to_stringified_in(ByteOrder::NATIVE)
    }

    /// The stringified reference, encapsulated in `order`.
    pub fn to_stringified_in(&self, order: ByteOrder) -> Result<String, IorError> {
        encode_stringified(&self.to_ior()?, order)
    }

    /// The IIOP profiles.
    pub fn iiop_profiles(&self) -> impl Iterator<Item = &IiopProfile> {
        self.profiles.iter().filter_map(|p| match p {
            Profile::Iiop(i) => Some(i),
            _ => None,
        })
    }

    /// The first IIOP profile.
    pub fn first_iiop(&self) -> Option<&IiopProfile> {
        self.iiop_profiles().next()
    }

    /// Host and port of the first IIOP profile.
    pub fn first_iiop_endpoint(&self) -> Option<(&str, u16)> {
        self.first_iiop().map(|p| (p.host.as_str(), p.port))
    }

    /// The object key of the first profile that has one.
    pub fn object_key(&self) -> Option<&Bytes> {
        self.profiles.iter().find_map(Profile::object_key)
    }

    /// All tagged components of all profiles, in order.
    pub fn components(&self) -> impl Iterator<Item = &TaggedComponent> {
        self.profiles.iter().flat_map(|p| p.components().iter())
    }

    /// The first `TAG_CODE_SETS` component that decodes.
    pub fn code_sets(&self) -> Option<CodeSetComponentInfo> {
        self.components()
            .filter(|c| c.tag == tags::TAG_CODE_SETS)
            .find_map(|c| match c.decode_value() {
                Ok(Component::CodeSets(info)) => Some(info),
                _ => None,
            })
    }

    /// The ORB type of the first `TAG_ORB_TYPE` component that decodes.
    pub fn orb_type(&self) -> Option<u32> {
        self.components()
            .filter(|c| c.tag == tags::TAG_ORB_TYPE)
            .find_map(|c| match c.decode_value() {
                Ok(Component::OrbType(t)) => Some(t),
                _ => None,
            })
    }
}

impl FromStr for ObjectReference {
    type Err = IorError;

    fn from_str(s: &str) -> Result<ObjectReference, IorError> {
        ObjectReference::from_stringified(s)
    }
}

/// An object reference in a CDR stream: an `IOP::IOR`.
impl CdrEncode for ObjectReference {
    fn encode(&self, enc: &mut Encoder) -> Result<(), CdrError> {
        self.to_ior()?.encode(enc)
    }
}

impl CdrDecode for ObjectReference {
    const MIN_WIRE_SIZE: usize = Ior::MIN_WIRE_SIZE;
    fn decode(dec: &mut Decoder) -> Result<Self, CdrError> {
        ObjectReference::from_ior(&Ior::decode(dec)?)
    }
}

fn hex_value(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

/// Reads a stringified IOR: `IOR:` (any case) and an even number of hex
/// digits (any case) encoding a CDR encapsulation of an `IOP::IOR`.
/// Surrounding whitespace is ignored; octets after the IOR inside the
/// encapsulation are ignored. Returns the raw IOR and the byte order it was
/// encapsulated in.
pub fn decode_stringified(s: &str) -> Result<(Ior, ByteOrder), IorError> {
    let s = s.trim();
    let digits = match s.get(..IOR_PREFIX.len()) {
        Some(p) if p.eq_ignore_ascii_case(IOR_PREFIX) => &s[IOR_PREFIX.len()..],
        _ => return Err(IorError::BadPrefix),
    };
    let raw = digits.as_bytes();
    if let Some((offset, found)) = digits.char_indices().find(|(_, c)| !c.is_ascii_hexdigit()) {
        return Err(IorError::BadHexDigit { offset, found });
    }
    if raw.is_empty() {
        return Err(IorError::Empty);
    }
    if raw.len() % 2 != 0 {
        return Err(IorError::OddLength(raw.len()));
    }
    let octets: Vec<u8> = raw
        .chunks_exact(2)
        .map(|p| (hex_value(p[0]).unwrap_or(0) << 4) | hex_value(p[1]).unwrap_or(0))
        .collect();
    let mut d =
        Decoder::from_encapsulation(Bytes::from(octets), encap::ior_encoding(ByteOrder::NATIVE))?;
    let order = d.order();
    let ior = Ior::decode(&mut d)?;
    Ok((ior, order))
}

/// Writes a stringified IOR: `IOR:` and the lowercase hex of a CDR
/// encapsulation of `ior` in byte order `order`.
pub fn encode_stringified(ior: &Ior, order: ByteOrder) -> Result<String, IorError> {
    let octets = encap::encode(order, |e| ior.encode(e))?;
    let mut s = String::with_capacity(IOR_PREFIX.len() + octets.len() * 2);
    s.push_str(IOR_PREFIX);
    s.push_str(&encap::hex(&octets));
    Ok(s)
}
