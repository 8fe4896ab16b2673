//! The 12-octet GIOP message header, the message types, and the errors of
//! the GIOP layer.
//!
//! ```text
//! octet 0..4  magic "GIOP"
//! octet 4     major version (1)
//! octet 5     minor version (0, 1, 2; 3 is read with the 1.2 layout)
//! octet 6     GIOP 1.0: byte_order boolean
//!             GIOP 1.1+: flags, bit 0 byte order (1 = little endian),
//!                        bit 1 more fragments follow
//! octet 7     message type
//! octet 8..12 message size: octets after the header, in the byte order
//!             octet 6 announces
//! ```
//!
//! GIOP 1.3 changed no message layout, so a 1.3 header is accepted and its
//! messages are read and written with the 1.2 layouts; the version number
//! is kept as it was read.

use rtorb_cdr::{ByteOrder, CdrError, Version};
use thiserror::Error;

use crate::exception::{CompletionStatus, SystemException, SystemExceptionKind};
use crate::minor;

/// The four octets every GIOP message starts with.
pub const GIOP_MAGIC: [u8; 4] = *b"GIOP";

/// Length of the GIOP message header in octets.
pub const HEADER_LEN: usize = 12;

/// The largest message rtorb accepts unless told otherwise: 64 MiB.
pub const DEFAULT_MAX_MESSAGE_SIZE: u32 = 64 * 1024 * 1024;

/// Flags bit 0 (GIOP 1.1 and later): the message is little-endian.
pub const FLAG_LITTLE_ENDIAN: u8 = 0x01;

/// Flags bit 1 (GIOP 1.1 and later): more fragments of this message follow.
pub const FLAG_MORE_FRAGMENTS: u8 = 0x02;

/// The GIOP message types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MsgType {
    /// A request (client to server; either side in bidirectional 1.2).
    Request = 0,
    /// The reply to a request.
    Reply = 1,
    /// The client no longer expects a reply to a request.
    CancelRequest = 2,
    /// Asks whether an object is served here.
    LocateRequest = 3,
    /// Answers a `LocateRequest`.
    LocateReply = 4,
    /// The sender is closing the connection.
    CloseConnection = 5,
    /// The sender could not interpret a message.
    MessageError = 6,
    /// A continuation of a fragmented message (GIOP 1.1 and later).
    Fragment = 7,
}

impl MsgType {
    /// Every message type, in numeric order.
    pub const ALL: [MsgType; 8] = [
        MsgType::Request,
        MsgType::Reply,
        MsgType::CancelRequest,
        MsgType::LocateRequest,
        MsgType::LocateReply,
        MsgType::CloseConnection,
        MsgType::MessageError,
        MsgType::Fragment,
    ];

    /// The message type with number `v`, if there is one.
    pub fn from_u8(v: u8) -> Option<MsgType> {
        MsgType::ALL.get(v as usize).copied()
    }

    /// The wire number of the type.
    pub fn as_u8(self) -> u8 {
        self as u8
    }

    /// Whether GIOP version `version` has this message type (`Fragment`
    /// appeared in 1.1; every other type is in every version).
    pub fn allowed_in(self, version: Version) -> bool {
        self != MsgType::Fragment || version >= Version::V1_1
    }

    /// The type's name as the specification spells it.
    pub fn name(self) -> &'static str {
        match self {
            MsgType::Request => "Request",
            MsgType::Reply => "Reply",
            MsgType::CancelRequest => "CancelRequest",
            MsgType::LocateRequest => "LocateRequest",
            MsgType::LocateReply => "LocateReply",
            MsgType::CloseConnection => "CloseConnection",
            MsgType::MessageError => "MessageError",
            MsgType::Fragment => "Fragment",
        }
    }
}

impl std::fmt::Display for MsgType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether rtorb reads and writes messages of this GIOP version: 1.0, 1.1,
/// 1.2, and 1.3 with the 1.2 layouts.
pub fn is_supported_version(version: Version) -> bool {
    version.major == 1 && version.minor <= 3
}

/// Whether messages of this version use the GIOP 1.2 layouts (request id
/// first, `TargetAddress`, bodies aligned on 8).
pub(crate) fn has_12_layout(version: Version) -> bool {
    version >= Version::V1_2
}

/// The error of what GIOP `version` cannot carry.
pub(crate) fn not_representable(what: &'static str, version: Version) -> GiopError {
    GiopError::NotRepresentable {
        what,
        protocol: match version.minor {
            0 => "GIOP 1.0",
            1 => "GIOP 1.1",
            _ => "GIOP 1.2",
        },
    }
}

/// A parsed GIOP message header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MessageHeader {
    /// The protocol version.
    pub version: Version,
    /// Byte order of the message (its size field included).
    pub order: ByteOrder,
    /// More fragments follow (never set in GIOP 1.0).
    pub more_fragments: bool,
    /// What kind of message follows.
    pub msg_type: MsgType,
    /// Octets that follow the header.
    pub size: u32,
}

impl MessageHeader {
    /// Parses and checks the first [`HEADER_LEN`] octets of `bytes`: the
    /// magic, a supported version, a known message type allowed in that
    /// version, and a size no larger than `max_size`.
    ///
    /// Bits 2 to 7 of the GIOP 1.1+ flags octet are reserved: they are
    /// ignored here, so a header with any of them set is not reproduced
    /// exactly by [`MessageHeader::encode`].
    #[inline]
    pub fn parse(bytes: &[u8], max_size: u32) -> Result<MessageHeader, GiopError> {
        let h: &[u8; HEADER_LEN] = bytes
            .get(..HEADER_LEN)
            .and_then(|s| s.try_into().ok())
            .ok_or(GiopError::Truncated {
                needed: HEADER_LEN,
                available: bytes.len(),
            })?;
        let magic = [h[0], h[1], h[2], h[3]];
        if magic != GIOP_MAGIC {
            return Err(GiopError::BadMagic(magic));
        }
        let version = Version::new(h[4], h[5]);
        if !is_supported_version(version) {
            return Err(GiopError::UnsupportedVersion(version));
        }
        let (order, more_fragments) = if version == Version::V1_0 {
            match h[6] {
                0 => (ByteOrder::Big, false),
                1 => (ByteOrder::Little, false),
                other => return Err(GiopError::InvalidFlags(other)),
            }
        } else {
            let order = if h[6] & FLAG_LITTLE_ENDIAN != 0 {
                ByteOrder::Little
            } else {
                ByteOrder::Big
            };
            (order, h[6] & FLAG_MORE_FRAGMENTS != 0)
        };
        let msg_type = MsgType::from_u8(h[7]).ok_or(GiopError::UnknownMessageType(h[7]))?;
        if !msg_type.allowed_in(version) {
            return Err(GiopError::MessageTypeNotInVersion { msg_type, version });
        }
        let size_octets = [h[8], h[9], h[10], h[11]];
        let size = match order {
            ByteOrder::Big => u32::from_be_bytes(size_octets),
            ByteOrder::Little => u32::from_le_bytes(size_octets),
        };
        if size > max_size {
            return Err(GiopError::MessageTooLarge {
                size: size as u64,
                max: max_size,
            });
        }
        Ok(MessageHeader {
            version,
            order,
            more_fragments,
            msg_type,
            size,
        })
    }

    /// The flags octet (octet 6) as this header writes it.
    pub fn flags(&self) -> u8 {
        let mut f = self.order.flag();
        if self.more_fragments && self.version >= Version::V1_1 {
            f |= FLAG_MORE_FRAGMENTS;
        }
        f
    }

    /// The 12 octets of the header.
    pub fn encode(&self) -> [u8; HEADER_LEN] {
        let size = match self.order {
            ByteOrder::Big => self.size.to_be_bytes(),
            ByteOrder::Little => self.size.to_le_bytes(),
        };
        [
            GIOP_MAGIC[0],
            GIOP_MAGIC[1],
            GIOP_MAGIC[2],
            GIOP_MAGIC[3],
            self.version.major,
            self.version.minor,
            self.flags(),
            self.msg_type.as_u8(),
            size[0],
            size[1],
            size[2],
            size[3],
        ]
    }

    /// The length of the whole message, header included.
    pub fn message_len(&self) -> usize {
        HEADER_LEN + self.size as usize
    }
}

/// Everything that can go wrong in the GIOP layer.
///
/// Errors fall in two classes (see [`GiopError::is_protocol_error`]): a
/// message whose header or framing is broken, answered with a GIOP
/// `MessageError` (and usually the connection is closed); and a message
/// whose body cannot be read, answered with a `MARSHAL` system exception
/// ([`GiopError::to_system_exception`]).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum GiopError {
    /// The message does not start with `GIOP`.
    #[error("bad GIOP magic {0:02x?}")]
    BadMagic([u8; 4]),
    /// A GIOP version rtorb does not speak.
    #[error("unsupported GIOP version {0}")]
    UnsupportedVersion(Version),
    /// A message type number outside 0..=7.
    #[error("unknown GIOP message type {0}")]
    UnknownMessageType(u8),
    /// A message type the version does not have (a `Fragment` in 1.0).
    #[error("GIOP {version} has no {msg_type} message")]
    MessageTypeNotInVersion {
        /// The message type.
        msg_type: MsgType,
        /// The version of the message.
        version: Version,
    },
    /// A flags octet that is not valid (GIOP 1.0's byte-order boolean other
    /// than 0 or 1, or reserved GIOPlite flag bits set).
    #[error("invalid GIOP flags octet {0:#04x}")]
    InvalidFlags(u8),
    /// A message larger than the configured maximum.
    #[error("message of {size} octets exceeds the maximum of {max}")]
    MessageTooLarge {
        /// The size the message declared or would have.
        size: u64,
        /// The maximum in force.
        max: u32,
    },
    /// Fewer octets than a header or a message needs.
    #[error("message truncated: {needed} octets needed, {available} available")]
    Truncated {
        /// Octets needed.
        needed: usize,
        /// Octets available.
        available: usize,
    },
    /// A buffer longer than the message its header describes.
    #[error("message size field says {declared} octets, {actual} follow the header")]
    SizeMismatch {
        /// Octets after the header that the size field declares.
        declared: usize,
        /// Octets after the header actually present.
        actual: usize,
    },
    /// The body could not be read or written as CDR.
    #[error("CDR error: {0}")]
    Cdr(#[from] CdrError),
    /// A reply status outside the range of the version.
    #[error("invalid reply status {status} for GIOP {version}")]
    InvalidReplyStatus {
        /// The status read.
        status: u32,
        /// The version of the message.
        version: Version,
    },
    /// A locate status outside the range of the version.
    #[error("invalid locate status {status} for GIOP {version}")]
    InvalidLocateStatus {
        /// The status read.
        status: u32,
        /// The version of the message.
        version: Version,
    },
    /// A value that the version of the message cannot carry (a
    /// `ProfileAddr` target in GIOP 1.1, a `LOCATION_FORWARD_PERM` status in
    /// 1.0, ...).
    #[error("not representable in {protocol}: {what}")]
    NotRepresentable {
        /// What could not be written.
        what: &'static str,
        /// The protocol and version (`"GIOP 1.1"`, `"GIOPlite"`).
        protocol: &'static str,
    },
    /// A message too large for its 32-bit size field.
    #[error("message of {0} octets does not fit a 32-bit size")]
    SizeOverflow(usize),
    /// GIOP 1.0 has no fragments.
    #[error("GIOP 1.0 messages cannot be fragmented")]
    CannotFragment,
    /// This message type cannot be fragmented.
    #[error("a {0} message cannot be fragmented")]
    NotFragmentable(MsgType),
    /// The maximum fragment size is too small to be useful.
    #[error("maximum fragment size {0} is too small")]
    FragmentSizeTooSmall(usize),
    /// A `Fragment` that continues no message in progress.
    #[error("fragment for no message in progress (request id {0:?})")]
    UnexpectedFragment(Option<u32>),
    /// A fragmented message began while another with the same request id
    /// (1.2) or any other (1.1) was still incomplete.
    #[error("fragmented message {0:?} began while one was still in progress")]
    FragmentInterleaved(Option<u32>),
    /// A fragment whose version or byte order differs from its message's.
    #[error("fragment does not match the version or byte order of its message")]
    FragmentMismatch,
    /// More incomplete fragmented messages than the limit.
    #[error("more than {0} fragmented messages in progress")]
    TooManyPartialMessages(usize),
    /// More fragments in one message than the limit.
    #[error("more than {0} fragments in one message")]
    TooManyFragments(usize),
    /// More octets held for reassembly than the limit.
    #[error("reassembly would hold more than {0} octets")]
    ReassemblyLimit(usize),
}

impl GiopError {
    /// Whether the error is in the message header or framing, to be
    /// answered with a GIOP `MessageError` rather than a system exception.
    pub fn is_protocol_error(&self) -> bool {
        matches!(
            self,
            GiopError::BadMagic(_)
                | GiopError::UnsupportedVersion(_)
                | GiopError::UnknownMessageType(_)
                | GiopError::MessageTypeNotInVersion { .. }
                | GiopError::InvalidFlags(_)
                | GiopError::MessageTooLarge { .. }
                | GiopError::Truncated { .. }
                | GiopError::SizeMismatch { .. }
                | GiopError::NotFragmentable(_)
                | GiopError::UnexpectedFragment(_)
                | GiopError::FragmentInterleaved(_)
                | GiopError::FragmentMismatch
                | GiopError::TooManyPartialMessages(_)
                | GiopError::TooManyFragments(_)
                | GiopError::ReassemblyLimit(_)
        )
    }

    /// The minor code of the exception that reports this error (see
    /// [`GiopError::to_system_exception`] and [`crate::minor`]).
    pub fn minor(&self) -> u32 {
        match self {
            GiopError::Cdr(e) => e.minor(),
            GiopError::BadMagic(_) => minor::MARSHAL_BAD_MAGIC,
            GiopError::UnsupportedVersion(_) => minor::MARSHAL_UNSUPPORTED_VERSION,
            GiopError::UnknownMessageType(_) => minor::MARSHAL_UNKNOWN_MESSAGE_TYPE,
            GiopError::MessageTypeNotInVersion { .. } => minor::MARSHAL_MESSAGE_TYPE_NOT_IN_VERSION,
            GiopError::InvalidFlags(_) => minor::MARSHAL_INVALID_FLAGS,
            GiopError::MessageTooLarge { .. } => minor::IMP_LIMIT_MESSAGE_TOO_LARGE,
            GiopError::Truncated { .. } => minor::MARSHAL_TRUNCATED,
            GiopError::SizeMismatch { .. } => minor::MARSHAL_SIZE_MISMATCH,
            GiopError::InvalidReplyStatus { .. } => minor::MARSHAL_INVALID_REPLY_STATUS,
            GiopError::InvalidLocateStatus { .. } => minor::MARSHAL_INVALID_LOCATE_STATUS,
            GiopError::NotRepresentable { .. } => minor::MARSHAL_NOT_REPRESENTABLE,
            GiopError::SizeOverflow(_) => minor::IMP_LIMIT_SIZE_OVERFLOW,
            GiopError::CannotFragment => minor::MARSHAL_CANNOT_FRAGMENT,
            GiopError::NotFragmentable(_) => minor::MARSHAL_NOT_FRAGMENTABLE,
            GiopError::FragmentSizeTooSmall(_) => minor::MARSHAL_FRAGMENT_SIZE_TOO_SMALL,
            GiopError::UnexpectedFragment(_) => minor::MARSHAL_UNEXPECTED_FRAGMENT,
            GiopError::FragmentInterleaved(_) => minor::MARSHAL_FRAGMENT_INTERLEAVED,
            GiopError::FragmentMismatch => minor::MARSHAL_FRAGMENT_MISMATCH,
            GiopError::TooManyPartialMessages(_) => minor::IMP_LIMIT_TOO_MANY_PARTIAL_MESSAGES,
            GiopError::TooManyFragments(_) => minor::IMP_LIMIT_TOO_MANY_FRAGMENTS,
            GiopError::ReassemblyLimit(_) => minor::IMP_LIMIT_REASSEMBLY_LIMIT,
        }
    }

    /// The system exception that reports this error to the peer or the
    /// caller: `MARSHAL` with [`GiopError::minor`] and `COMPLETED_NO`
    /// (`IMP_LIMIT` for a size or reassembly limit).
    pub fn to_system_exception(&self) -> SystemException {
        let kind = match self {
            GiopError::MessageTooLarge { .. }
            | GiopError::SizeOverflow(_)
            | GiopError::TooManyPartialMessages(_)
            | GiopError::TooManyFragments(_)
            | GiopError::ReassemblyLimit(_) => SystemExceptionKind::ImpLimit,
            GiopError::Cdr(CdrError::NoWcharCodeSet) => SystemExceptionKind::BadParam,
            GiopError::Cdr(CdrError::BadCharacter { .. }) => SystemExceptionKind::DataConversion,
            _ => SystemExceptionKind::Marshal,
        };
        SystemException::new(kind, self.minor(), CompletionStatus::No).with_detail(self)
    }
}

impl From<GiopError> for SystemException {
    fn from(e: GiopError) -> Self {
        e.to_system_exception()
    }
}
