//! Requests and replies read in place: the fast path of message decoding.
//!
//! [`decode_message`](crate::message::decode_message) builds a whole
//! [`Message`](crate::message::Message): every header field owned, the
//! object key, operation name and body as reference-counted slices of the
//! message buffer. That is what most of the ORB wants, and it costs a few
//! atomic reference-count updates per message, which on a small request
//! are most of its decoding time.
//!
//! The views here read the commonest shapes without owning anything: a
//! whole (unfragmented) Request addressed by object key, and a whole Reply
//! with `NO_EXCEPTION` or `USER_EXCEPTION`, in GIOP 1.0, 1.1, 1.2 or
//! GIOPlite, without service contexts (a GIOP request or reply may carry
//! one: the `RTCorbaPriority` context of Real-time CORBA, whose priority
//! the view reads). The header fields are copied out or
//! borrowed from the message, and the body is given as an offset into it.
//! Anything else (other service contexts, other addressing, other statuses,
//! fragments, and every malformed message) gives `None`, and the caller
//! decodes the message in full, which also reports what is wrong with it.
//! A view therefore never accepts a message the full decoder rejects, and
//! agrees with it field by field where it accepts one (a property test
//! checks both).

use rtorb_cdr::{ByteOrder, Version};

use crate::framing::{FrameHeader, FrameProtocol};
use crate::header::{HEADER_LEN, MsgType};
use crate::lite::LITE_HEADER_LEN;
use crate::message::{RESPONSE_NONE, RESPONSE_WITH_TARGET, ReplyStatus};
use crate::service_context::RT_CORBA_PRIORITY;

/// A whole Request addressed by object key, with no service contexts but
/// an `RTCorbaPriority` one, read in place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RequestView<'a> {
    /// The GIOP version (1.2 for GIOPlite).
    pub version: Version,
    /// The message's byte order.
    pub order: ByteOrder,
    /// The request id.
    pub request_id: u32,
    /// The response flags (GIOP 1.0 and 1.1: `RESPONSE_WITH_TARGET` when
    /// a response is expected, else `RESPONSE_NONE`).
    pub response_flags: u8,
    /// The object key.
    pub object_key: &'a [u8],
    /// The operation name's octets (ASCII, without the terminating NUL).
    pub operation: &'a [u8],
    /// Where the body starts in the message.
    pub body_offset: usize,
    /// The CORBA priority of its `RTCorbaPriority` service context, its
    /// only one, if it has it.
    pub priority: Option<i16>,
}

impl RequestView<'_> {
    /// Whether the client waits for a reply.
    pub fn response_expected(&self) -> bool {
        self.response_flags & 0x01 != 0
    }
}

/// A whole `NO_EXCEPTION` or `USER_EXCEPTION` Reply with no service
/// contexts but an `RTCorbaPriority` one, read in place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplyView {
    /// The GIOP version (1.2 for GIOPlite).
    pub version: Version,
    /// The message's byte order.
    pub order: ByteOrder,
    /// The id of the request it answers.
    pub request_id: u32,
    /// `NoException` or `UserException`.
    pub reply_status: ReplyStatus,
    /// Where the body starts in the message.
    pub body_offset: usize,
    /// The CORBA priority of its `RTCorbaPriority` service context, its
    /// only one, if it has it (a server of the `CLIENT_PROPAGATED` model
    /// sends back the priority the request carried).
    pub priority: Option<i16>,
}

/// Reads CDR primitives from a message in place, aligned relative to its
/// first octet.
struct Cursor<'a> {
    buf: &'a [u8],
    pos: usize,
    order: ByteOrder,
}

impl<'a> Cursor<'a> {
    #[inline(always)]
    fn align(&mut self, n: usize) -> Option<()> {
        let pos = self.pos.next_multiple_of(n);
        (pos <= self.buf.len()).then(|| self.pos = pos)
    }

    #[inline(always)]
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.pos.checked_add(n)?;
        let s = self.buf.get(self.pos..end)?;
        self.pos = end;
        Some(s)
    }

    #[inline(always)]
    fn u8(&mut self) -> Option<u8> {
        self.take(1).map(|s| s[0])
    }

    #[inline(always)]
    fn u32(&mut self) -> Option<u32> {
        self.align(4)?;
        let b: [u8; 4] = self.take(4)?.try_into().ok()?;
        Some(match self.order {
            ByteOrder::Big => u32::from_be_bytes(b),
            ByteOrder::Little => u32::from_le_bytes(b),
        })
    }

    #[inline(always)]
    fn u16(&mut self) -> Option<u16> {
        self.align(2)?;
        let b: [u8; 2] = self.take(2)?.try_into().ok()?;
        Some(match self.order {
            ByteOrder::Big => u16::from_be_bytes(b),
            ByteOrder::Little => u16::from_le_bytes(b),
        })
    }

    /// A `sequence<octet>`; its length is checked against what is left
    /// before anything is taken.
    #[inline(always)]
    fn octets(&mut self) -> Option<&'a [u8]> {
        let len = usize::try_from(self.u32()?).ok()?;
        self.take(len)
    }

    /// An operation name: a CDR string of ASCII characters, NUL-terminated
    /// with no other NUL.
    #[inline(always)]
    fn operation(&mut self) -> Option<&'a [u8]> {
        let raw = self.octets()?;
        let (nul, name) = raw.split_last()?;
        // Octets 1 to 0x7f only: ASCII without NUL, in one pass (names
        // are short: no setup for a word-at-a-time scan).
        let plain = name.iter().all(|&b| b.wrapping_sub(1) < 0x7f);
        (*nul == 0 && plain).then_some(name)
    }

    /// A service context list, if it is empty (`Some(None)`) or
    /// holds only a well-formed `RTCorbaPriority` context (its priority).
    #[inline(always)]
    fn priority_contexts(&mut self) -> Option<Option<i16>> {
        match self.u32()? {
            0 => Some(None),
            1 if self.u32()? == RT_CORBA_PRIORITY => {
                encapsulated_priority(self.octets()?).map(Some)
            }
            _ => None,
        }
    }
}

/// The `short` of an `RTCorbaPriority` context's data: an encapsulation
/// (byte-order octet, padding to 2, the priority; more may follow), as
/// [`ServiceContext::typed`](crate::service_context::ServiceContext::typed)
/// reads it.
#[inline(always)]
fn encapsulated_priority(data: &[u8]) -> Option<i16> {
    let b: [u8; 2] = data.get(2..4)?.try_into().ok()?;
    match data.first()? {
        0 => Some(i16::from_be_bytes(b)),
        1 => Some(i16::from_le_bytes(b)),
        _ => None,
    }
}

/// The header of a whole, unfragmented message of type `want`, from its
/// checked `header`, and a cursor after it.
#[inline(always)]
fn start<'m>(
    message: &'m [u8],
    header: &FrameHeader,
    want: MsgType,
) -> Option<(Version, Cursor<'m>, u8, bool)> {
    match header {
        FrameHeader::Giop(h) => {
            let whole = usize::try_from(h.size).ok()?.checked_add(HEADER_LEN)? == message.len();
            if !whole || h.more_fragments || h.msg_type != want {
                return None;
            }
            let cursor = Cursor {
                buf: message,
                pos: HEADER_LEN,
                order: h.order,
            };
            Some((h.version, cursor, 0, true))
        }
        FrameHeader::Lite(h) => {
            let whole =
                usize::try_from(h.size).ok()?.checked_add(LITE_HEADER_LEN)? == message.len();
            if !whole || h.more_fragments || h.msg_type != want || h.service_contexts {
                return None;
            }
            let cursor = Cursor {
                buf: message,
                pos: LITE_HEADER_LEN,
                order: h.order,
            };
            Some((Version::V1_2, cursor, h.info, false))
        }
    }
}

/// Where a GIOP 1.2 body starts: aligned to 8 when anything but padding
/// follows, else at the end.
#[inline(always)]
fn body_start_12(c: &Cursor<'_>) -> usize {
    let aligned = c.pos.next_multiple_of(8);
    if aligned >= c.buf.len() {
        c.buf.len()
    } else {
        aligned
    }
}

/// Reads `message` (one whole frame of `protocol`) as a request, if it is
/// one of the shape [`RequestView`] covers; `None` means: decode it in
/// full.
pub fn request_view(message: &[u8], protocol: FrameProtocol) -> Option<RequestView<'_>> {
    let header = protocol.parse_header(message, u32::MAX).ok()?;
    request_view_framed(message, &header)
}

/// As [`request_view`], for a message whose `header` a
/// [`FrameDecoder`](crate::FrameDecoder) has checked already
/// ([`FrameDecoder::last_header`](crate::FrameDecoder::last_header)): the
/// header is not parsed again. Given a header that is not `message`'s,
/// the view is wrong, but nothing panics (every read is bounds-checked).
#[inline]
pub fn request_view_framed<'m>(message: &'m [u8], header: &FrameHeader) -> Option<RequestView<'m>> {
    let (version, mut c, info, giop) = start(message, header, MsgType::Request)?;
    if !giop {
        let request_id = c.u32()?;
        let object_key = c.octets()?;
        let operation = c.operation()?;
        return Some(RequestView {
            version,
            order: c.order,
            request_id,
            response_flags: info,
            object_key,
            operation,
            body_offset: c.pos,
            priority: None,
        });
    }
    if version >= Version::V1_2 {
        let request_id = c.u32()?;
        let response_flags = c.u8()?;
        c.take(3)?;
        // KeyAddr (0) only.
        if c.u16()? != 0 {
            return None;
        }
        let object_key = c.octets()?;
        let operation = c.operation()?;
        let priority = c.priority_contexts()?;
        return Some(RequestView {
            version,
            order: c.order,
            request_id,
            response_flags,
            object_key,
            operation,
            body_offset: body_start_12(&c),
            priority,
        });
    }
    let priority = c.priority_contexts()?;
    let request_id = c.u32()?;
    let response_flags = match c.u8()? {
        0 => RESPONSE_NONE,
        1 => RESPONSE_WITH_TARGET,
        _ => return None,
    };
    if version >= Version::V1_1 {
        c.take(3)?;
    }
    let object_key = c.octets()?;
    let operation = c.operation()?;
    // The requesting principal, unused.
    c.octets()?;
    Some(RequestView {
        version,
        order: c.order,
        request_id,
        response_flags,
        object_key,
        operation,
        body_offset: c.pos,
        priority,
    })
}

/// Reads `message` (one whole frame of `protocol`) as a reply, if it is
/// one of the shape [`ReplyView`] covers; `None` means: decode it in full.
pub fn reply_view(message: &[u8], protocol: FrameProtocol) -> Option<ReplyView> {
    let header = protocol.parse_header(message, u32::MAX).ok()?;
    reply_view_framed(message, &header)
}

/// As [`reply_view`], for a message whose `header` a
/// [`FrameDecoder`](crate::FrameDecoder) has checked already (see
/// [`request_view_framed`]).
#[inline]
pub fn reply_view_framed(message: &[u8], header: &FrameHeader) -> Option<ReplyView> {
    let (version, mut c, info, giop) = start(message, header, MsgType::Reply)?;
    let (request_id, status, priority) = if !giop {
        (c.u32()?, u32::from(info), None)
    } else if version >= Version::V1_2 {
        let request_id = c.u32()?;
        let status = c.u32()?;
        let priority = c.priority_contexts()?;
        (request_id, status, priority)
    } else {
        let priority = c.priority_contexts()?;
        (c.u32()?, c.u32()?, priority)
    };
    let reply_status = match status {
        0 => ReplyStatus::NoException,
        1 => ReplyStatus::UserException,
        _ => return None,
    };
    let body_offset = if giop && version >= Version::V1_2 {
        body_start_12(&c)
    } else {
        c.pos
    };
    Some(ReplyView {
        version,
        order: c.order,
        request_id,
        reply_status,
        body_offset,
        priority,
    })
}
