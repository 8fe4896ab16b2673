//! GIOP 1.2 target addressing.
//!
//! ```text
//! typedef short AddressingDisposition;
//! const short KeyAddr = 0; const short ProfileAddr = 1; const short ReferenceAddr = 2;
//! struct IORAddressingInfo { unsigned long selected_profile_index; IOP::IOR ior; };
//! union TargetAddress switch (AddressingDisposition) {
//!     case KeyAddr:       sequence<octet>    object_key;
//!     case ProfileAddr:   IOP::TaggedProfile profile;
//!     case ReferenceAddr: IORAddressingInfo  ior;
//! };
//! ```

use bytes::Bytes;
use rtorb_cdr::{CdrDecode, CdrEncode, CdrError, Decoder, Encoder, Ior, TaggedProfile};

/// `GIOP::AddressingDisposition`: which form of target address a server
/// wants (the body of a `NEEDS_ADDRESSING_MODE` reply). Kept as the raw
/// `short` so any value received is passed on unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AddressingDisposition(pub i16);

impl AddressingDisposition {
    /// `KeyAddr`: the object key alone.
    pub const KEY_ADDR: AddressingDisposition = AddressingDisposition(0);
    /// `ProfileAddr`: the whole profile the client selected.
    pub const PROFILE_ADDR: AddressingDisposition = AddressingDisposition(1);
    /// `ReferenceAddr`: the whole IOR and the index of the profile used.
    pub const REFERENCE_ADDR: AddressingDisposition = AddressingDisposition(2);
}

/// `GIOP::IORAddressingInfo`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IORAddressingInfo {
    /// Index in `ior.profiles` of the profile the client used.
    pub selected_profile_index: u32,
    /// The object reference.
    pub ior: Ior,
}

/// `GIOP::TargetAddress`: the object a GIOP 1.2 request addresses.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TargetAddress {
    /// `KeyAddr`: the object key (a slice of the message, not a copy).
    Key(Bytes),
    /// `ProfileAddr`: a tagged profile.
    Profile(TaggedProfile),
    /// `ReferenceAddr`: an IOR and the selected profile.
    Reference(IORAddressingInfo),
}

impl TargetAddress {
    /// The discriminator of this address.
    pub fn disposition(&self) -> AddressingDisposition {
        match self {
            TargetAddress::Key(_) => AddressingDisposition::KEY_ADDR,
            TargetAddress::Profile(_) => AddressingDisposition::PROFILE_ADDR,
            TargetAddress::Reference(_) => AddressingDisposition::REFERENCE_ADDR,
        }
    }

    /// The object key, if the address is one.
    pub fn object_key(&self) -> Option<&Bytes> {
        match self {
            TargetAddress::Key(k) => Some(k),
            _ => None,
        }
    }
}

impl CdrEncode for AddressingDisposition {
    fn encode(&self, enc: &mut Encoder) -> rtorb_cdr::Result<()> {
        enc.write_i16(self.0);
        Ok(())
    }
}

impl CdrDecode for AddressingDisposition {
    const MIN_WIRE_SIZE: usize = 2;
    fn decode(dec: &mut Decoder) -> rtorb_cdr::Result<Self> {
        Ok(AddressingDisposition(dec.read_i16()?))
    }
}

impl CdrEncode for IORAddressingInfo {
    fn encode(&self, enc: &mut Encoder) -> rtorb_cdr::Result<()> {
        enc.write_u32(self.selected_profile_index);
        self.ior.encode(enc)
    }
}

impl CdrDecode for IORAddressingInfo {
    const MIN_WIRE_SIZE: usize = 4 + <Ior as CdrDecode>::MIN_WIRE_SIZE;
    fn decode(dec: &mut Decoder) -> rtorb_cdr::Result<Self> {
        Ok(IORAddressingInfo {
            selected_profile_index: dec.read_u32()?,
            ior: Ior::decode(dec)?,
        })
    }
}

impl CdrEncode for TargetAddress {
    fn encode(&self, enc: &mut Encoder) -> rtorb_cdr::Result<()> {
        self.disposition().encode(enc)?;
        match self {
            TargetAddress::Key(k) => enc.write_octet_seq(k),
            TargetAddress::Profile(p) => p.encode(enc),
            TargetAddress::Reference(r) => r.encode(enc),
        }
    }
}

impl CdrDecode for TargetAddress {
    const MIN_WIRE_SIZE: usize = 6;
    fn decode(dec: &mut Decoder) -> rtorb_cdr::Result<Self> {
        let d = dec.read_i16()?;
        dec.enter()?;
        let out = match AddressingDisposition(d) {
            AddressingDisposition::KEY_ADDR => dec.read_octet_seq().map(TargetAddress::Key),
            AddressingDisposition::PROFILE_ADDR => {
                TaggedProfile::decode(dec).map(TargetAddress::Profile)
            }
            AddressingDisposition::REFERENCE_ADDR => {
                IORAddressingInfo::decode(dec).map(TargetAddress::Reference)
            }
            _ => Err(CdrError::InvalidDiscriminator(d as i64)),
        };
        dec.leave();
        out
    }
}
