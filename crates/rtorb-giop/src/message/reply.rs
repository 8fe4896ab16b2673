//! The `Reply` message: its status, its header, and reading the bodies
//! that are not an operation's results.

use bytes::{Bytes, BytesMut};
use rtorb_cdr::{ByteOrder, CdrDecode, Decoder, Encoding, Ior, Version};

use crate::exception::SystemException;
use crate::header::{GiopError, has_12_layout, is_supported_version, not_representable};
use crate::service_context::ServiceContextList;
use crate::target::AddressingDisposition;

/// The status of a reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum ReplyStatus {
    /// The operation returned normally; the body holds the results.
    NoException = 0,
    /// The body holds a user exception (its repository id first).
    UserException = 1,
    /// The body holds a system exception.
    SystemException = 2,
    /// The body holds an IOR to retry the request at.
    LocationForward = 3,
    /// As `LocationForward`, and the new IOR replaces the old (GIOP 1.2).
    LocationForwardPerm = 4,
    /// The body holds the `AddressingDisposition` the server needs (GIOP
    /// 1.2).
    NeedsAddressingMode = 5,
}

impl ReplyStatus {
    /// The status with wire value `v`, if `version` has it.
    pub fn from_u32(v: u32, version: Version) -> Option<ReplyStatus> {
        let s = match v {
            0 => ReplyStatus::NoException,
            1 => ReplyStatus::UserException,
            2 => ReplyStatus::SystemException,
            3 => ReplyStatus::LocationForward,
            4 => ReplyStatus::LocationForwardPerm,
            5 => ReplyStatus::NeedsAddressingMode,
            _ => return None,
        };
        s.allowed_in(version).then_some(s)
    }

    /// Whether GIOP `version` has this status.
    pub fn allowed_in(self, version: Version) -> bool {
        (self as u32) <= 3 || has_12_layout(version)
    }
}

/// The header of a `Reply`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplyHeader {
    /// The id of the request answered.
    pub request_id: u32,
    /// What the body holds.
    pub reply_status: ReplyStatus,
    /// Service contexts.
    pub service_context: ServiceContextList,
}

impl ReplyHeader {
    /// A reply header with no service contexts.
    pub fn new(request_id: u32, reply_status: ReplyStatus) -> Self {
        ReplyHeader {
            request_id,
            reply_status,
            service_context: ServiceContextList::new(),
        }
    }
}

/// A `Reply` message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// The reply header.
    pub header: ReplyHeader,
    /// The encoded results or exception (a slice of the message when
    /// decoded).
    pub body: Bytes,
    /// Offset of the body from the start of the message (computed when
    /// decoding; ignored when encoding).
    pub body_offset: usize,
}

impl Reply {
    /// Reads the body of a `SYSTEM_EXCEPTION` reply, aligned as it was in
    /// the message (by [`Reply::body_offset`]).
    pub fn system_exception(&self, order: ByteOrder) -> Result<SystemException, GiopError> {
        Ok(SystemException::decode(&mut self.plain_decoder(order))?)
    }

    /// Reads the IOR in the body of a `LOCATION_FORWARD(_PERM)` reply.
    pub fn forward_ior(&self, order: ByteOrder) -> Result<Ior, GiopError> {
        Ok(Ior::decode(&mut self.plain_decoder(order))?)
    }

    /// Reads the body of a `NEEDS_ADDRESSING_MODE` reply.
    pub fn addressing_disposition(
        &self,
        order: ByteOrder,
    ) -> Result<AddressingDisposition, GiopError> {
        Ok(AddressingDisposition::decode(
            &mut self.plain_decoder(order),
        )?)
    }

    /// A decoder over the body alone, aligned as it was in the message
    /// (the body's offset modulo 8 is restored by a few leading octets,
    /// copied only when it is not already a multiple of 8).
    fn plain_decoder(&self, order: ByteOrder) -> Decoder {
        let enc = Encoding::native().with_order(order);
        let lead = self.body_offset % 8;
        if lead == 0 {
            return Decoder::new(self.body.clone(), enc);
        }
        let mut buf = BytesMut::with_capacity(lead + self.body.len());
        buf.resize(lead, 0);
        buf.extend_from_slice(&self.body);
        Decoder::with_position(buf.freeze(), 0, lead, enc)
    }
}

/// Whether a reply with `status` can be written in `version`.
pub(crate) fn check_reply(version: Version, status: ReplyStatus) -> Result<(), GiopError> {
    if !is_supported_version(version) {
        return Err(GiopError::UnsupportedVersion(version));
    }
    if !status.allowed_in(version) {
        return Err(not_representable("this reply status", version));
    }
    Ok(())
}
