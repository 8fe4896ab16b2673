//! `LocateRequest` and `LocateReply`: asking a server where an object is.

use rtorb_cdr::{CdrDecode, CdrEncode, Decoder, Encoder, Ior, Version};

use crate::exception::SystemException;
use crate::header::{GiopError, has_12_layout};
use crate::target::{AddressingDisposition, TargetAddress};

/// A `LocateRequest` message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocateRequest {
    /// Associates the reply with the request.
    pub request_id: u32,
    /// The object asked about (only [`TargetAddress::Key`] before 1.2).
    pub target: TargetAddress,
}

/// The status of a `LocateReply`, with its body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LocateStatus {
    /// `UNKNOWN_OBJECT`: the server does not know the object.
    UnknownObject,
    /// `OBJECT_HERE`: the server serves the object.
    ObjectHere,
    /// `OBJECT_FORWARD`: the object is elsewhere.
    ObjectForward(Ior),
    /// `OBJECT_FORWARD_PERM`: the object has moved for good (1.2).
    ObjectForwardPerm(Ior),
    /// `LOC_SYSTEM_EXCEPTION`: locating raised a system exception (1.2).
    LocSystemException(SystemException),
    /// `LOC_NEEDS_ADDRESSING_MODE`: resend with this addressing (1.2).
    LocNeedsAddressingMode(AddressingDisposition),
}

impl LocateStatus {
    /// The wire value of the status.
    pub fn code(&self) -> u32 {
        match self {
            LocateStatus::UnknownObject => 0,
            LocateStatus::ObjectHere => 1,
            LocateStatus::ObjectForward(_) => 2,
            LocateStatus::ObjectForwardPerm(_) => 3,
            LocateStatus::LocSystemException(_) => 4,
            LocateStatus::LocNeedsAddressingMode(_) => 5,
        }
    }

    /// Whether GIOP `version` has this status.
    pub(super) fn allowed_in(&self, version: Version) -> bool {
        self.code() <= 2 || has_12_layout(version)
    }

    /// Writes the body of the status (nothing for the first two).
    pub(crate) fn encode_body(&self, e: &mut Encoder) -> Result<(), GiopError> {
        match self {
            LocateStatus::UnknownObject | LocateStatus::ObjectHere => Ok(()),
            LocateStatus::ObjectForward(ior) | LocateStatus::ObjectForwardPerm(ior) => {
                Ok(ior.encode(e)?)
            }
            LocateStatus::LocSystemException(ex) => Ok(ex.encode(e)?),
            LocateStatus::LocNeedsAddressingMode(d) => Ok(d.encode(e)?),
        }
    }

    /// Reads the body of status `code`.
    pub(crate) fn decode_body(code: u32, d: &mut Decoder) -> Result<LocateStatus, GiopError> {
        Ok(match code {
            0 => LocateStatus::UnknownObject,
            1 => LocateStatus::ObjectHere,
            2 => LocateStatus::ObjectForward(Ior::decode(d)?),
            3 => LocateStatus::ObjectForwardPerm(Ior::decode(d)?),
            4 => LocateStatus::LocSystemException(SystemException::decode(d)?),
            5 => LocateStatus::LocNeedsAddressingMode(AddressingDisposition::decode(d)?),
            _ => {
                return Err(GiopError::InvalidLocateStatus {
                    status: code,
                    version: d.encoding().version,
                });
            }
        })
    }
}

/// Skips the padding some writers put between a GIOP 1.2 `LocateReply`'s
/// status and its body.
///
/// GIOP 1.2 as first published aligned the `LocateReply` body on 8, as it
/// does a `Reply` body; the OMG then dropped that alignment for
/// `LocateReply` (TAO's writer changed in 2001, omniORB reads the body
/// right after the status and fails on padding). rtorb writes the body
/// unaligned and reads both layouts: the body starts 20 octets into the
/// message, so an aligned one is preceded by 4 octets of padding, which
/// are zero, and no body can start with 4 zero octets: an IOR or a system
/// exception starts with a string length (at least 1), and the short of
/// `LOC_NEEDS_ADDRESSING_MODE` leaves fewer than 4 octets.
pub(super) fn skip_locate_reply_padding(d: &mut Decoder) -> Result<(), GiopError> {
    let at = d.offset();
    let next = d.buffer().get(at..at + 4);
    if d.position() % 8 == 4 && next == Some(&[0, 0, 0, 0][..]) {
        d.align(8)?;
    }
    Ok(())
}

/// A `LocateReply` message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocateReply {
    /// The id of the `LocateRequest` answered.
    pub request_id: u32,
    /// The answer.
    pub status: LocateStatus,
}
