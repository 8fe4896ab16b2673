//! GIOP messages: the model of every message type of GIOP 1.0, 1.1 and
//! 1.2, decoding of whole messages, and writing messages with a body the
//! caller appends.
//!
//! # Layouts
//!
//! After the 12-octet header ([`crate::header`]), aligned relative to the
//! first octet of the header:
//!
//! ```text
//! Request 1.0      ServiceContextList service_context; ulong request_id;
//!                  boolean response_expected; sequence<octet> object_key;
//!                  string operation; sequence<octet> requesting_principal; body
//! Request 1.1      as 1.0 with octet reserved[3] after response_expected
//! Request 1.2      ulong request_id; octet response_flags; octet reserved[3];
//!                  TargetAddress target; string operation;
//!                  ServiceContextList service_context; body aligned on 8
//! Reply 1.0, 1.1   ServiceContextList service_context; ulong request_id;
//!                  ulong reply_status; body
//! Reply 1.2        ulong request_id; ulong reply_status;
//!                  ServiceContextList service_context; body aligned on 8
//! CancelRequest    ulong request_id
//! LocateRequest    ulong request_id; then sequence<octet> object_key (1.0,
//!                  1.1) or TargetAddress target (1.2)
//! LocateReply      ulong request_id; ulong locate_status; body right after
//!                  the status (see below): an IOR for OBJECT_FORWARD(_PERM),
//!                  a system exception for LOC_SYSTEM_EXCEPTION, a short for
//!                  LOC_NEEDS_ADDRESSING_MODE, nothing otherwise
//! CloseConnection, MessageError: the header alone
//! Fragment 1.1     the continuation octets
//! Fragment 1.2     ulong request_id; the continuation octets
//! ```
//!
//! # Bodies
//!
//! The body of a request or reply (the operation's arguments or results)
//! stays undecoded: [`Request::body`] is a slice of the message buffer and
//! [`Request::body_offset`] the offset of its first octet from the start
//! of the message. Read it with
//! `Decoder::with_position(message, 0, body_offset, encoding)` (or
//! [`Message::body_decoder`]), which keeps CDR alignment relative to the
//! message start as GIOP requires.
//!
//! A GIOP 1.2 body is aligned on 8 when it is not empty; an empty body has
//! no padding. A 1.2 message that ends with padding and no body is read as
//! having an empty body.
//!
//! # Exactness
//!
//! Decoding a message and encoding the result reproduces it octet for
//! octet, with these documented exceptions, all departures from what the
//! specification says a sender writes: reserved flag bits, octets after a message that has no
//! body (dropped), and padding with no body after it (dropped).

use std::sync::Arc;

use bytes::{Bytes, BytesMut};
use rtorb_cdr::{
    ByteOrder, CdrDecode, CdrEncode, Decoder, Encoder, Encoding, Ior, Realign, Version,
};

use crate::exception::SystemException;
use crate::header::{
    DEFAULT_MAX_MESSAGE_SIZE, GiopError, HEADER_LEN, MessageHeader, MsgType, has_12_layout,
    is_supported_version,
};
use crate::operation::Operation;
use crate::service_context::ServiceContextList;
use crate::target::{AddressingDisposition, TargetAddress};

/// `response_flags` of a oneway request that wants no reply
/// (`SYNC_NONE`, `SYNC_WITH_TRANSPORT`).
pub const RESPONSE_NONE: u8 = 0x00;
/// `response_flags` of a oneway request the server acknowledges before
/// invoking the target (`SYNC_WITH_SERVER`).
pub const RESPONSE_WITH_SERVER: u8 = 0x01;
/// `response_flags` of a twoway request, or a oneway acknowledged after
/// the target ran (`SYNC_WITH_TARGET`).
pub const RESPONSE_WITH_TARGET: u8 = 0x03;

/// The header of a `Request`, in a form common to every GIOP version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestHeader {
    /// Associates the reply with the request.
    pub request_id: u32,
    /// GIOP 1.2 `response_flags` ([`RESPONSE_NONE`],
    /// [`RESPONSE_WITH_SERVER`], [`RESPONSE_WITH_TARGET`]). GIOP 1.0 and
    /// 1.1 carry only `response_expected`, which is bit 0: it is read as
    /// [`RESPONSE_WITH_TARGET`] or [`RESPONSE_NONE`].
    pub response_flags: u8,
    /// The target object. GIOP 1.0 and 1.1 can address it only by object
    /// key ([`TargetAddress::Key`]).
    pub target: TargetAddress,
    /// The operation name (or `_get_x`/`_set_x` for attributes).
    pub operation: Operation,
    /// Service contexts.
    pub service_context: ServiceContextList,
    /// The `requesting_principal` of GIOP 1.0 and 1.1, as received; not
    /// carried (and ignored when writing) in GIOP 1.2.
    pub requesting_principal: Bytes,
    /// The three reserved octets of a GIOP 1.1 or 1.2 request, as received,
    /// and written back as they are. The specification asks senders for
    /// zeros (what [`RequestHeader::new`] gives); some ORBs, omniORB among
    /// them, leave them unset, and keeping them makes a decoded request
    /// re-encode to the same octets.
    pub reserved: [u8; 3],
}

impl RequestHeader {
    /// A twoway request to an object key, with no service contexts.
    pub fn new(request_id: u32, object_key: Bytes, operation: impl Into<Operation>) -> Self {
        RequestHeader {
            request_id,
            response_flags: RESPONSE_WITH_TARGET,
            target: TargetAddress::Key(object_key),
            operation: operation.into(),
            service_context: ServiceContextList::new(),
            requesting_principal: Bytes::new(),
            reserved: [0; 3],
        }
    }

    /// Whether the client expects a reply (bit 0 of the response flags).
    pub fn response_expected(&self) -> bool {
        self.response_flags & 0x01 != 0
    }
}

/// A `Request` message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The request header.
    pub header: RequestHeader,
    /// The encoded arguments (a slice of the message when decoded).
    pub body: Bytes,
    /// Offset of the body from the start of the message (computed when
    /// decoding; ignored when encoding).
    pub body_offset: usize,
}

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

/// A `CancelRequest` message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CancelRequest {
    /// The id of the request the client no longer waits for.
    pub request_id: u32,
}

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

    fn allowed_in(&self, version: Version) -> bool {
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
fn skip_locate_reply_padding(d: &mut Decoder) -> Result<(), GiopError> {
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

/// A `Fragment` message: the continuation of a fragmented message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fragment {
    /// The request id of the message continued (GIOP 1.2 only).
    pub request_id: Option<u32>,
    /// The continuation octets.
    pub body: Bytes,
    /// Offset of the body from the start of the message (computed when
    /// decoding; ignored when encoding).
    pub body_offset: usize,
}

/// What a GIOP message holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content {
    /// `Request`.
    Request(Request),
    /// `Reply`.
    Reply(Reply),
    /// `CancelRequest`.
    CancelRequest(CancelRequest),
    /// `LocateRequest`.
    LocateRequest(LocateRequest),
    /// `LocateReply`.
    LocateReply(LocateReply),
    /// `CloseConnection`.
    CloseConnection,
    /// `MessageError`.
    MessageError,
    /// `Fragment`.
    Fragment(Fragment),
}

impl Content {
    /// The message type of this content.
    pub fn msg_type(&self) -> MsgType {
        match self {
            Content::Request(_) => MsgType::Request,
            Content::Reply(_) => MsgType::Reply,
            Content::CancelRequest(_) => MsgType::CancelRequest,
            Content::LocateRequest(_) => MsgType::LocateRequest,
            Content::LocateReply(_) => MsgType::LocateReply,
            Content::CloseConnection => MsgType::CloseConnection,
            Content::MessageError => MsgType::MessageError,
            Content::Fragment(_) => MsgType::Fragment,
        }
    }

    /// The request id the message carries, if its type has one.
    pub fn request_id(&self) -> Option<u32> {
        match self {
            Content::Request(r) => Some(r.header.request_id),
            Content::Reply(r) => Some(r.header.request_id),
            Content::CancelRequest(c) => Some(c.request_id),
            Content::LocateRequest(l) => Some(l.request_id),
            Content::LocateReply(l) => Some(l.request_id),
            Content::Fragment(f) => f.request_id,
            Content::CloseConnection | Content::MessageError => None,
        }
    }
}

/// A whole GIOP message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// The GIOP version.
    pub version: Version,
    /// The byte order of the message.
    pub order: ByteOrder,
    /// More fragments of this message follow.
    pub more_fragments: bool,
    /// The message type and its contents.
    pub content: Content,
    /// Where the alignment origin of the message's buffer changes: set by
    /// [`crate::Reassembler::push_message`] for a GIOP 1.1 message
    /// reassembled from fragments, `None` otherwise.
    pub realign: Option<Arc<[Realign]>>,
}

impl Message {
    /// A message that is not fragmented.
    pub fn new(version: Version, order: ByteOrder, content: Content) -> Message {
        Message {
            version,
            order,
            more_fragments: false,
            content,
            realign: None,
        }
    }

    /// The message type.
    pub fn msg_type(&self) -> MsgType {
        self.content.msg_type()
    }

    /// The encoding of the message's CDR (default code sets; set the
    /// negotiated ones with [`Encoding::with_codesets`]).
    pub fn encoding(&self) -> Encoding {
        Encoding::native()
            .with_order(self.order)
            .with_version(self.version)
    }

    /// A decoder over the body of a request, reply or fragment, aligned
    /// relative to the start of `message` (the buffer this message was
    /// decoded from), with the message's byte order and version and the
    /// given code sets.
    pub fn body_decoder(
        &self,
        message: &Bytes,
        codesets: rtorb_cdr::TransmissionCodeSets,
    ) -> Option<Decoder> {
        let offset = match &self.content {
            Content::Request(r) => r.body_offset,
            Content::Reply(r) => r.body_offset,
            Content::Fragment(f) => f.body_offset,
            _ => return None,
        };
        let mut d = Decoder::with_position(
            message.clone(),
            0,
            offset,
            self.encoding().with_codesets(codesets),
        );
        if let Some(r) = &self.realign {
            d.set_realignments(r.clone());
        }
        Some(d)
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

fn not_representable(what: &'static str, version: Version) -> GiopError {
    GiopError::NotRepresentable {
        what,
        protocol: match version.minor {
            0 => "GIOP 1.0",
            1 => "GIOP 1.1",
            _ => "GIOP 1.2",
        },
    }
}

/// Decodes a whole GIOP message (header included) with the default
/// maximum message size.
///
/// The body of a request, reply or fragment is a slice of `bytes`, not a
/// copy; so is an object key.
pub fn decode_message(bytes: Bytes) -> Result<Message, GiopError> {
    decode_message_with_max(bytes, DEFAULT_MAX_MESSAGE_SIZE)
}

/// Checks that a buffer of `total` octets holds exactly one message whose
/// header of `header_len` octets declares a body of `declared` octets.
pub(crate) fn check_whole_message(
    total: usize,
    header_len: usize,
    declared: u32,
) -> Result<(), GiopError> {
    let declared = declared as usize;
    let actual = total - header_len;
    if actual < declared {
        return Err(GiopError::Truncated {
            needed: header_len + declared,
            available: total,
        });
    }
    if actual > declared {
        return Err(GiopError::SizeMismatch { declared, actual });
    }
    Ok(())
}

/// Decodes a whole GIOP message whose size may be at most `max_size`.
///
/// The first fragment of a fragmented message decodes only if its
/// message header is complete; reassemble fragments first
/// ([`crate::fragment::Reassembler`]).
pub fn decode_message_with_max(bytes: Bytes, max_size: u32) -> Result<Message, GiopError> {
    let h = MessageHeader::parse(&bytes, max_size)?;
    check_whole_message(bytes.len(), HEADER_LEN, h.size)?;
    let enc = Encoding::native()
        .with_order(h.order)
        .with_version(h.version);
    let mut d = Decoder::with_position(bytes, 0, HEADER_LEN, enc);
    let content = decode_content(h.msg_type, h.version, &mut d)?;
    Ok(Message {
        version: h.version,
        order: h.order,
        more_fragments: h.more_fragments,
        content,
        realign: None,
    })
}

/// Where a GIOP 1.2 body starts: after padding to 8 when anything but
/// padding follows, else at the end.
fn body_start_12(d: &mut Decoder) -> Result<(), GiopError> {
    let pad = (8 - d.position() % 8) % 8;
    if d.remaining() <= pad {
        d.skip(d.remaining())?;
    } else {
        d.align(8)?;
    }
    Ok(())
}

fn read_reserved(d: &mut Decoder) -> Result<[u8; 3], GiopError> {
    let r = d.read_slice(3)?;
    Ok([r[0], r[1], r[2]])
}

fn decode_content(t: MsgType, v: Version, d: &mut Decoder) -> Result<Content, GiopError> {
    let v12 = has_12_layout(v);
    Ok(match t {
        MsgType::Request => {
            let header = if v12 {
                let request_id = d.read_u32()?;
                let response_flags = d.read_u8()?;
                let reserved = read_reserved(d)?;
                let target = TargetAddress::decode(d)?;
                let operation = Operation::decode(d)?;
                let service_context = ServiceContextList::decode(d)?;
                body_start_12(d)?;
                RequestHeader {
                    request_id,
                    response_flags,
                    target,
                    operation,
                    service_context,
                    requesting_principal: Bytes::new(),
                    reserved,
                }
            } else {
                let service_context = ServiceContextList::decode(d)?;
                let request_id = d.read_u32()?;
                let response_expected = d.read_bool()?;
                let reserved = if v >= Version::V1_1 {
                    read_reserved(d)?
                } else {
                    [0; 3]
                };
                let key = d.read_octet_seq()?;
                let operation = Operation::decode(d)?;
                let requesting_principal = d.read_octet_seq()?;
                RequestHeader {
                    request_id,
                    response_flags: if response_expected {
                        RESPONSE_WITH_TARGET
                    } else {
                        RESPONSE_NONE
                    },
                    target: TargetAddress::Key(key),
                    operation,
                    service_context,
                    requesting_principal,
                    reserved,
                }
            };
            Content::Request(Request {
                header,
                body_offset: d.offset(),
                body: d.rest(),
            })
        }
        MsgType::Reply => {
            let (service_context, request_id, status) = if v12 {
                let request_id = d.read_u32()?;
                let status = d.read_u32()?;
                let sc = ServiceContextList::decode(d)?;
                (sc, request_id, status)
            } else {
                let sc = ServiceContextList::decode(d)?;
                (sc, d.read_u32()?, d.read_u32()?)
            };
            let reply_status = ReplyStatus::from_u32(status, v)
                .ok_or(GiopError::InvalidReplyStatus { status, version: v })?;
            if v12 {
                body_start_12(d)?;
            }
            Content::Reply(Reply {
                header: ReplyHeader {
                    request_id,
                    reply_status,
                    service_context,
                },
                body_offset: d.offset(),
                body: d.rest(),
            })
        }
        MsgType::CancelRequest => Content::CancelRequest(CancelRequest {
            request_id: d.read_u32()?,
        }),
        MsgType::LocateRequest => {
            let request_id = d.read_u32()?;
            let target = if v12 {
                TargetAddress::decode(d)?
            } else {
                TargetAddress::Key(d.read_octet_seq()?)
            };
            Content::LocateRequest(LocateRequest { request_id, target })
        }
        MsgType::LocateReply => {
            let request_id = d.read_u32()?;
            let code = d.read_u32()?;
            let max = if v12 { 5 } else { 2 };
            if code > max {
                return Err(GiopError::InvalidLocateStatus {
                    status: code,
                    version: v,
                });
            }
            if v12 && code >= 2 {
                skip_locate_reply_padding(d)?;
            }
            let status = LocateStatus::decode_body(code, d)?;
            Content::LocateReply(LocateReply { request_id, status })
        }
        MsgType::CloseConnection => Content::CloseConnection,
        MsgType::MessageError => Content::MessageError,
        MsgType::Fragment => {
            let request_id = if v12 { Some(d.read_u32()?) } else { None };
            Content::Fragment(Fragment {
                request_id,
                body_offset: d.offset(),
                body: d.rest(),
            })
        }
    })
}

/// Writes a GIOP message: the header, the message header, then a body the
/// caller appends through [`MessageWriter::body`]; [`MessageWriter::finish`]
/// fills in the message size.
///
/// ```
/// use rtorb_cdr::{ByteOrder, Encoding, Version};
/// use rtorb_giop::message::{MessageWriter, RequestHeader, decode_message, Content};
///
/// let enc = Encoding::native().with_order(ByteOrder::Big).with_version(Version::V1_2);
/// let header = RequestHeader::new(7, "Cubit".into(), "cube_long");
/// let mut w = MessageWriter::request(enc, &header).unwrap();
/// w.body().write_i32(3);
/// let bytes = w.finish().unwrap();
/// let msg = decode_message(bytes.clone()).unwrap();
/// let Content::Request(req) = msg.content else { panic!() };
/// assert_eq!(req.body_offset % 8, 0);
/// assert_eq!(&req.body[..], &[0, 0, 0, 3]);
/// ```
#[derive(Debug)]
pub struct MessageWriter {
    enc: Encoder,
    header_len: usize,
    size_at: usize,
    body_align: usize,
    header_end: usize,
    body_start: Option<usize>,
}

impl MessageWriter {
    /// A writer whose encoder already holds a protocol header of
    /// `header_len` octets with a size field at `size_at`; bodies are
    /// aligned on `body_align`.
    pub(crate) fn from_parts(
        enc: Encoder,
        header_len: usize,
        size_at: usize,
        body_align: usize,
    ) -> MessageWriter {
        let header_end = enc.len();
        MessageWriter {
            enc,
            header_len,
            size_at,
            body_align,
            header_end,
            body_start: None,
        }
    }

    /// Starts a message of type `msg_type` in the version and byte order of
    /// `encoding`: writes the 12-octet header with a placeholder size.
    pub fn new(
        encoding: Encoding,
        msg_type: MsgType,
        more_fragments: bool,
    ) -> Result<MessageWriter, GiopError> {
        MessageWriter::with_buffer(
            BytesMut::with_capacity(256),
            encoding,
            msg_type,
            more_fragments,
        )
    }

    /// As [`MessageWriter::new`], writing into `buf` (cleared first) so
    /// that its capacity is reused. A sender that keeps one `BytesMut`,
    /// hands out `buf.split_off(0)` for each message, and calls
    /// `buf.reserve(n)` once the previous message has been sent and
    /// dropped, writes every message into the same allocation.
    pub fn with_buffer(
        mut buf: BytesMut,
        encoding: Encoding,
        msg_type: MsgType,
        more_fragments: bool,
    ) -> Result<MessageWriter, GiopError> {
        let version = encoding.version;
        if !is_supported_version(version) {
            return Err(GiopError::UnsupportedVersion(version));
        }
        if !msg_type.allowed_in(version) {
            return Err(GiopError::MessageTypeNotInVersion { msg_type, version });
        }
        if more_fragments && version == Version::V1_0 {
            return Err(GiopError::CannotFragment);
        }
        let header = MessageHeader {
            version,
            order: encoding.order,
            more_fragments,
            msg_type,
            size: 0,
        };
        buf.clear();
        buf.extend_from_slice(&header.encode());
        let enc = Encoder::with_buffer(buf, encoding);
        let body_align =
            if has_12_layout(version) && matches!(msg_type, MsgType::Request | MsgType::Reply) {
                8
            } else {
                1
            };
        Ok(MessageWriter::from_parts(enc, HEADER_LEN, 8, body_align))
    }

    /// Starts a `Request`: header and request header.
    pub fn request(encoding: Encoding, header: &RequestHeader) -> Result<MessageWriter, GiopError> {
        MessageWriter::request_with_buffer(BytesMut::with_capacity(256), encoding, header)
    }

    /// As [`MessageWriter::request`], writing into `buf` (see
    /// [`MessageWriter::with_buffer`]).
    pub fn request_with_buffer(
        buf: BytesMut,
        encoding: Encoding,
        header: &RequestHeader,
    ) -> Result<MessageWriter, GiopError> {
        let mut w = MessageWriter::with_buffer(buf, encoding, MsgType::Request, false)?;
        write_request_header(&mut w.enc, encoding.version, header)?;
        w.header_end = w.enc.len();
        Ok(w)
    }

    /// Starts a `Reply`: header and reply header.
    pub fn reply(encoding: Encoding, header: &ReplyHeader) -> Result<MessageWriter, GiopError> {
        MessageWriter::reply_with_buffer(BytesMut::with_capacity(256), encoding, header)
    }

    /// As [`MessageWriter::reply`], writing into `buf` (see
    /// [`MessageWriter::with_buffer`]).
    pub fn reply_with_buffer(
        buf: BytesMut,
        encoding: Encoding,
        header: &ReplyHeader,
    ) -> Result<MessageWriter, GiopError> {
        let version = encoding.version;
        if header.service_context.is_empty()
            && is_supported_version(version)
            && header.reply_status.allowed_in(version)
        {
            return Ok(MessageWriter::reply_without_contexts(
                buf,
                encoding,
                header.request_id,
                header.reply_status,
            ));
        }
        MessageWriter::reply_fields(buf, encoding, header)
    }

    /// The headers of a reply with no service contexts (every reply of
    /// rtorb's servers but the rare one with contexts): 24 octets in every
    /// version, written at once.
    fn reply_without_contexts(
        buf: BytesMut,
        encoding: Encoding,
        request_id: u32,
        status: ReplyStatus,
    ) -> MessageWriter {
        let mut w = MessageWriter::from_parts(Encoder::with_buffer(buf, encoding), 0, 0, 1);
        w.write_reply_without_contexts(encoding, request_id, status);
        w
    }

    /// Writes the 24 octets of [`MessageWriter::reply_without_contexts`]
    /// into this writer, emptied first.
    #[inline]
    fn write_reply_without_contexts(
        &mut self,
        encoding: Encoding,
        request_id: u32,
        status: ReplyStatus,
    ) {
        let version = encoding.version;
        let ulong = |v: u32| match encoding.order {
            ByteOrder::Big => v.to_be_bytes(),
            ByteOrder::Little => v.to_le_bytes(),
        };
        let h = MessageHeader {
            version,
            order: encoding.order,
            more_fragments: false,
            msg_type: MsgType::Reply,
            size: 0,
        }
        .encode();
        let v12 = has_12_layout(version);
        // GIOP 1.2: id, status, no contexts; before: no contexts, id,
        // status.
        let [a, b, c] = if v12 {
            [ulong(request_id), ulong(status as u32), [0; 4]]
        } else {
            [[0; 4], ulong(request_id), ulong(status as u32)]
        };
        let mut octets = [0u8; HEADER_LEN + 12];
        octets[..HEADER_LEN].copy_from_slice(&h);
        octets[HEADER_LEN..HEADER_LEN + 4].copy_from_slice(&a);
        octets[HEADER_LEN + 4..HEADER_LEN + 8].copy_from_slice(&b);
        octets[HEADER_LEN + 8..].copy_from_slice(&c);
        self.restart_with(encoding, &octets, HEADER_LEN, 8, if v12 { 8 } else { 1 });
    }

    /// Starts a message in this writer from its encoded headers
    /// (`headers`: the message header of `header_len` octets, its size at
    /// `size_at`, then the headers of its kind), reusing the buffer; the
    /// body is aligned on `body_align`.
    #[inline]
    pub(crate) fn restart_with(
        &mut self,
        encoding: Encoding,
        headers: &[u8],
        header_len: usize,
        size_at: usize,
        body_align: usize,
    ) {
        self.enc.restart(encoding);
        self.enc.write_raw(headers);
        self.header_len = header_len;
        self.size_at = size_at;
        self.body_align = body_align;
        self.header_end = headers.len();
        self.body_start = None;
    }

    /// Starts a `Reply` with no service contexts in this writer, in place
    /// of what it held, reusing its buffer: what a server that keeps one
    /// writer per connection calls for each reply.
    #[inline]
    pub fn restart_reply(
        &mut self,
        encoding: Encoding,
        request_id: u32,
        status: ReplyStatus,
    ) -> Result<(), GiopError> {
        check_reply(encoding.version, status)?;
        self.write_reply_without_contexts(encoding, request_id, status);
        Ok(())
    }

    /// The writer's buffer, emptied, leaving the writer with none: to
    /// start a message of another kind in the same allocation
    /// (`MessageWriter::request_with_buffer(w.take_buffer(), ..)`).
    pub fn take_buffer(&mut self) -> BytesMut {
        self.body_start = None;
        self.enc.take_buffer()
    }

    /// A writer holding nothing, without a buffer: a placeholder for one
    /// that a sender will start with a [`RequestTemplate`] or
    /// [`MessageWriter::restart_reply`].
    pub fn empty(encoding: Encoding) -> MessageWriter {
        MessageWriter::from_parts(Encoder::new(encoding), 0, 0, 1)
    }

    /// As [`MessageWriter::empty`], with `buf` (cleared) as its buffer.
    pub fn empty_with_buffer(mut buf: BytesMut, encoding: Encoding) -> MessageWriter {
        buf.clear();
        MessageWriter::from_parts(Encoder::with_buffer(buf, encoding), 0, 0, 1)
    }

    /// The headers of a reply, field by field.
    fn reply_fields(
        buf: BytesMut,
        encoding: Encoding,
        header: &ReplyHeader,
    ) -> Result<MessageWriter, GiopError> {
        let mut w = MessageWriter::with_buffer(buf, encoding, MsgType::Reply, false)?;
        write_reply_header(&mut w.enc, encoding.version, header)?;
        w.header_end = w.enc.len();
        Ok(w)
    }

    /// The encoder for the body, positioned at its start (aligned on 8 for a
    /// GIOP 1.2 request or reply). If nothing is written, the padding is
    /// dropped again by [`MessageWriter::finish`].
    #[inline]
    pub fn body(&mut self) -> &mut Encoder {
        if self.body_start.is_none() {
            self.enc.align(self.body_align);
            self.body_start = Some(self.enc.len());
        }
        &mut self.enc
    }

    /// The capacity of the writer's buffer.
    #[inline]
    pub fn capacity(&self) -> usize {
        self.enc.capacity()
    }

    /// The GIOP version written (1.2 for GIOPlite).
    #[inline]
    pub fn version(&self) -> Version {
        self.enc.encoding().version
    }

    /// Octets written so far, headers included.
    #[inline]
    pub fn len(&self) -> usize {
        self.enc.len()
    }

    /// Whether nothing at all has been written (never: the header is).
    pub fn is_empty(&self) -> bool {
        self.enc.is_empty()
    }

    #[inline]
    fn final_len(&self) -> Result<(usize, u32), GiopError> {
        let len = match self.body_start {
            Some(start) if start == self.enc.len() => self.header_end,
            _ => self.enc.len(),
        };
        let size = len - self.header_len;
        let size = u32::try_from(size).map_err(|_| GiopError::SizeOverflow(len))?;
        Ok((len, size))
    }

    fn size_octets(&self, size: u32) -> [u8; 4] {
        match self.enc.order() {
            ByteOrder::Big => size.to_be_bytes(),
            ByteOrder::Little => size.to_le_bytes(),
        }
    }

    /// Fills in the message size and returns the message as a chain of
    /// buffers (more than one when large octet sequences were written by
    /// reference), ready for a gathering write.
    pub fn finish_chunks(mut self) -> Result<Vec<Bytes>, GiopError> {
        let (len, size) = self.final_len()?;
        let size_octets = self.size_octets(size);
        if self.enc.as_contiguous().is_some() {
            self.enc.patch_u32(self.size_at, size);
            return Ok(vec![self.enc.into_bytes().slice(..len)]);
        }
        let (header_len, size_at) = (self.header_len, self.size_at);
        let mut chunks = self.enc.into_chunks();
        let total: usize = chunks.iter().map(Bytes::len).sum();
        let first_ok = chunks.first().is_some_and(|c| c.len() >= header_len);
        if !first_ok || total != len {
            let mut all = BytesMut::with_capacity(total);
            for c in &chunks {
                all.extend_from_slice(c);
            }
            all.truncate(len);
            if let Some(slot) = all.get_mut(size_at..size_at + 4) {
                slot.copy_from_slice(&size_octets);
            }
            return Ok(vec![all.freeze()]);
        }
        let first = chunks.remove(0);
        let mut head = BytesMut::from(&first[..header_len]);
        head[size_at..size_at + 4].copy_from_slice(&size_octets);
        let rest = first.slice(header_len..);
        let mut out = Vec::with_capacity(chunks.len() + 2);
        out.push(head.freeze());
        if !rest.is_empty() {
            out.push(rest);
        }
        out.extend(chunks);
        Ok(out)
    }

    /// Fills in the message size and returns the whole message as one
    /// slice of the writer's buffer, or `None` if it is a chain (octet
    /// sequences were written by reference; use
    /// [`MessageWriter::take_chunks`]). The writer keeps the message, and
    /// its buffer, until it is started again: a sender writes the slice
    /// and reuses the writer, with no reference counting or allocation.
    #[inline]
    pub fn seal(&mut self) -> Result<Option<&[u8]>, GiopError> {
        if self.enc.as_contiguous().is_none() {
            return Ok(None);
        }
        let (len, size) = self.final_len()?;
        self.enc.patch_u32(self.size_at, size);
        Ok(self.enc.as_contiguous().and_then(|m| m.get(..len)))
    }

    /// As [`MessageWriter::finish_chunks`], leaving this writer empty
    /// (as [`MessageWriter::empty`]).
    pub fn take_chunks(&mut self) -> Result<Vec<Bytes>, GiopError> {
        let encoding = self.enc.encoding();
        std::mem::replace(self, MessageWriter::empty(encoding)).finish_chunks()
    }

    /// Fills in the message size and returns the message as one buffer.
    pub fn finish(mut self) -> Result<Bytes, GiopError> {
        if self.enc.as_contiguous().is_some() {
            let (len, size) = self.final_len()?;
            self.enc.patch_u32(self.size_at, size);
            let mut bytes = self.enc.into_bytes();
            if bytes.len() > len {
                bytes.truncate(len);
            }
            return Ok(bytes);
        }
        let mut chunks = self.finish_chunks()?;
        if chunks.len() == 1 {
            return Ok(chunks.pop().unwrap_or_default());
        }
        let total = chunks.iter().map(Bytes::len).sum();
        let mut all = BytesMut::with_capacity(total);
        for c in &chunks {
            all.extend_from_slice(c);
        }
        Ok(all.freeze())
    }
}

/// The encoded headers of requests that differ only in their request id:
/// captured once from a [`MessageWriter`], then copied into each new
/// request with the id patched in, instead of encoding every field again.
///
/// In GIOP 1.0 and 1.1, where the service contexts come before the
/// request id, only requests without service contexts are captured.
#[derive(Debug, Clone)]
pub struct RequestTemplate {
    octets: Vec<u8>,
    request_id_at: usize,
    encoding: Encoding,
    header_len: usize,
    size_at: usize,
    body_align: usize,
}

impl RequestTemplate {
    /// Where the request id is in what `writer` has written, and those
    /// octets, if it holds a request's headers and nothing of its body.
    fn layout(writer: &MessageWriter) -> Option<(usize, &[u8])> {
        if writer.body_start.is_some() {
            return None;
        }
        let octets = writer.enc.as_contiguous()?;
        let version = writer.enc.encoding().version;
        let request_id_at = if writer.header_len != HEADER_LEN || has_12_layout(version) {
            // GIOPlite and GIOP 1.2: the id right after the header.
            writer.header_len
        } else if octets.get(HEADER_LEN..HEADER_LEN + 4)? == [0, 0, 0, 0] {
            // GIOP 1.0 and 1.1: an empty list of contexts, then the id.
            HEADER_LEN + 4
        } else {
            return None;
        };
        let whole = octets.len() == writer.header_end && octets.len() >= request_id_at + 4;
        whole.then_some((request_id_at, octets))
    }

    /// Captures the headers `writer` has written (see
    /// [`RequestTemplate`]); `None` if it holds more or other than a
    /// request's headers.
    pub fn capture(writer: &MessageWriter) -> Option<RequestTemplate> {
        let (request_id_at, octets) = RequestTemplate::layout(writer)?;
        Some(RequestTemplate {
            octets: octets.to_vec(),
            request_id_at,
            encoding: writer.enc.encoding(),
            header_len: writer.header_len,
            size_at: writer.size_at,
            body_align: writer.body_align,
        })
    }

    /// As [`RequestTemplate::capture`], into this template (reusing its
    /// buffer); returns whether it did (else the template is unchanged).
    pub fn recapture(&mut self, writer: &MessageWriter) -> bool {
        let Some((request_id_at, octets)) = RequestTemplate::layout(writer) else {
            return false;
        };
        self.octets.clear();
        self.octets.extend_from_slice(octets);
        self.request_id_at = request_id_at;
        self.encoding = writer.enc.encoding();
        self.header_len = writer.header_len;
        self.size_at = writer.size_at;
        self.body_align = writer.body_align;
        true
    }

    /// The encoding the headers were written in.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Starts, in `writer` (in place of what it held, reusing its
    /// buffer), a request with id `request_id`: its headers copied, ready
    /// for the body.
    #[inline]
    pub fn restart(&self, writer: &mut MessageWriter, request_id: u32) {
        writer.enc.restart(self.encoding);
        writer.enc.write_raw(&self.octets);
        writer.enc.patch_u32(self.request_id_at, request_id);
        writer.header_len = self.header_len;
        writer.size_at = self.size_at;
        writer.body_align = self.body_align;
        writer.header_end = self.octets.len();
        writer.body_start = None;
    }

    /// A writer for a request with id `request_id`, its headers copied
    /// into `buf` (cleared first), ready for the body.
    pub fn writer(&self, mut buf: BytesMut, request_id: u32) -> MessageWriter {
        buf.clear();
        buf.extend_from_slice(&self.octets);
        let id = match self.encoding.order {
            ByteOrder::Big => request_id.to_be_bytes(),
            ByteOrder::Little => request_id.to_le_bytes(),
        };
        if let Some(slot) = buf.get_mut(self.request_id_at..self.request_id_at + 4) {
            slot.copy_from_slice(&id);
        }
        MessageWriter::from_parts(
            Encoder::with_buffer(buf, self.encoding),
            self.header_len,
            self.size_at,
            self.body_align,
        )
    }
}

pub(crate) fn write_request_header(
    e: &mut Encoder,
    v: Version,
    h: &RequestHeader,
) -> Result<(), GiopError> {
    if has_12_layout(v) {
        e.write_u32(h.request_id);
        e.write_u8(h.response_flags);
        e.write_raw(&h.reserved);
        h.target.encode(e)?;
        h.operation.encode(e)?;
        h.service_context.encode(e)?;
    } else {
        let TargetAddress::Key(key) = &h.target else {
            return Err(not_representable("a target other than an object key", v));
        };
        h.service_context.encode(e)?;
        e.write_u32(h.request_id);
        e.write_bool(h.response_expected());
        if v >= Version::V1_1 {
            e.write_raw(&h.reserved);
        }
        e.write_octet_seq(key)?;
        h.operation.encode(e)?;
        e.write_octet_seq(&h.requesting_principal)?;
    }
    Ok(())
}

pub(crate) fn write_reply_header(
    e: &mut Encoder,
    v: Version,
    h: &ReplyHeader,
) -> Result<(), GiopError> {
    if !h.reply_status.allowed_in(v) {
        return Err(not_representable("this reply status", v));
    }
    if has_12_layout(v) {
        e.write_u32(h.request_id);
        e.write_u32(h.reply_status as u32);
        h.service_context.encode(e)?;
    } else {
        h.service_context.encode(e)?;
        e.write_u32(h.request_id);
        e.write_u32(h.reply_status as u32);
    }
    Ok(())
}

/// Encodes a whole message. The `body_offset` fields are ignored (the
/// body goes where the layout puts it).
pub fn encode_message(m: &Message) -> Result<Bytes, GiopError> {
    let v = m.version;
    let encoding = m.encoding();
    match &m.content {
        Content::Request(r) => {
            let mut w = MessageWriter::new(encoding, MsgType::Request, m.more_fragments)?;
            write_request_header(&mut w.enc, v, &r.header)?;
            w.header_end = w.enc.len();
            if !r.body.is_empty() {
                w.body().write_raw(&r.body);
            }
            w.finish()
        }
        Content::Reply(r) => {
            let mut w = MessageWriter::new(encoding, MsgType::Reply, m.more_fragments)?;
            write_reply_header(&mut w.enc, v, &r.header)?;
            w.header_end = w.enc.len();
            if !r.body.is_empty() {
                w.body().write_raw(&r.body);
            }
            w.finish()
        }
        other => {
            let mut w = MessageWriter::new(encoding, other.msg_type(), m.more_fragments)?;
            let e = &mut w.enc;
            match other {
                Content::CancelRequest(c) => e.write_u32(c.request_id),
                Content::LocateRequest(l) => {
                    e.write_u32(l.request_id);
                    if has_12_layout(v) {
                        l.target.encode(e)?;
                    } else {
                        let TargetAddress::Key(key) = &l.target else {
                            return Err(not_representable("a target other than an object key", v));
                        };
                        e.write_octet_seq(key)?;
                    }
                }
                Content::LocateReply(l) => {
                    if !l.status.allowed_in(v) {
                        return Err(not_representable("this locate status", v));
                    }
                    // The body follows the status unaligned, in every
                    // version: see `skip_locate_reply_padding`.
                    e.write_u32(l.request_id);
                    e.write_u32(l.status.code());
                    l.status.encode_body(e)?;
                }
                Content::Fragment(f) => {
                    match (has_12_layout(v), f.request_id) {
                        (true, Some(id)) => e.write_u32(id),
                        (false, None) => {}
                        (true, None) => {
                            return Err(not_representable("a fragment without request id", v));
                        }
                        (false, Some(_)) => {
                            return Err(not_representable("a fragment request id", v));
                        }
                    }
                    e.write_raw(&f.body);
                }
                Content::CloseConnection | Content::MessageError => {}
                Content::Request(_) | Content::Reply(_) => {}
            }
            w.finish()
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn replies_without_contexts_are_written_as_field_by_field() {
        use rtorb_cdr::{ByteOrder, Encoding, Version};
        for version in [
            Version::V1_0,
            Version::V1_1,
            Version::V1_2,
            Version::new(1, 3),
        ] {
            for order in [ByteOrder::Big, ByteOrder::Little] {
                for status in [
                    super::ReplyStatus::NoException,
                    super::ReplyStatus::UserException,
                    super::ReplyStatus::SystemException,
                    super::ReplyStatus::LocationForward,
                ] {
                    for body in [&[][..], &[1, 2, 3][..]] {
                        let encoding = Encoding::native().with_order(order).with_version(version);
                        let header = super::ReplyHeader::new(0x0102_0304, status);
                        let write = |mut w: super::MessageWriter| {
                            if !body.is_empty() {
                                w.body().write_raw(body);
                            }
                            w.finish().unwrap()
                        };
                        let fast = write(super::MessageWriter::reply_without_contexts(
                            bytes::BytesMut::new(),
                            encoding,
                            0x0102_0304,
                            status,
                        ));
                        let fields = write(
                            super::MessageWriter::reply_fields(
                                bytes::BytesMut::new(),
                                encoding,
                                &header,
                            )
                            .unwrap(),
                        );
                        assert_eq!(fast, fields, "{version:?} {order:?} {status:?} {body:?}");
                    }
                }
            }
        }
    }

    use super::*;

    fn cube_long(buf: BytesMut, version: Version) -> Bytes {
        let enc = Encoding::native()
            .with_order(ByteOrder::Big)
            .with_version(version);
        let header = RequestHeader::new(7, Bytes::from_static(b"Cubit"), "cube_long");
        let mut w = MessageWriter::request_with_buffer(buf, enc, &header).unwrap();
        w.body().write_i32(3);
        w.finish().unwrap()
    }

    #[test]
    fn with_buffer_clears_the_buffer_and_writes_the_same_message() {
        for v in [Version::V1_0, Version::V1_1, Version::V1_2] {
            let enc = Encoding::native()
                .with_order(ByteOrder::Big)
                .with_version(v);
            let header = RequestHeader::new(7, Bytes::from_static(b"Cubit"), "cube_long");
            let mut w = MessageWriter::request(enc, &header).unwrap();
            w.body().write_i32(3);
            let plain = w.finish().unwrap();
            let junk = BytesMut::from(&b"leftover octets"[..]);
            assert_eq!(cube_long(junk, v), plain);
        }
    }

    #[test]
    fn with_buffer_reuses_the_allocation_once_the_message_is_dropped() {
        let mut pool = BytesMut::with_capacity(4096);
        let first = cube_long(pool.split_off(0), Version::V1_2);
        let first_ptr = first.as_ptr();
        drop(first);
        pool.reserve(256);
        let second = cube_long(pool.split_off(0), Version::V1_2);
        assert_eq!(second.as_ptr(), first_ptr);
        assert_eq!(&second[..4], b"GIOP");
    }
}
