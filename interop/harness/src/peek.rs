//! A minimal, independent look into GIOP messages: the header, and the ids
//! and operation names of requests and replies.
//!
//! This is deliberately small and separate from `rtorb-giop`, so captures
//! can be labelled and sanity-checked without trusting the decoder under
//! test. Every function returns `None` on malformed input; nothing panics.

use std::ops::Range;

/// GIOP message types (the `message_type` octet of the header).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MsgType {
    /// `Request` (0).
    Request,
    /// `Reply` (1).
    Reply,
    /// `CancelRequest` (2).
    CancelRequest,
    /// `LocateRequest` (3).
    LocateRequest,
    /// `LocateReply` (4).
    LocateReply,
    /// `CloseConnection` (5).
    CloseConnection,
    /// `MessageError` (6).
    MessageError,
    /// `Fragment` (7, GIOP 1.1 and later).
    Fragment,
    /// Any other value.
    Unknown(u8),
}

impl MsgType {
    /// The type for a header octet.
    pub fn from_octet(v: u8) -> Self {
        match v {
            0 => MsgType::Request,
            1 => MsgType::Reply,
            2 => MsgType::CancelRequest,
            3 => MsgType::LocateRequest,
            4 => MsgType::LocateReply,
            5 => MsgType::CloseConnection,
            6 => MsgType::MessageError,
            7 => MsgType::Fragment,
            other => MsgType::Unknown(other),
        }
    }

    /// The header octet of this type.
    pub fn octet(self) -> u8 {
        match self {
            MsgType::Request => 0,
            MsgType::Reply => 1,
            MsgType::CancelRequest => 2,
            MsgType::LocateRequest => 3,
            MsgType::LocateReply => 4,
            MsgType::CloseConnection => 5,
            MsgType::MessageError => 6,
            MsgType::Fragment => 7,
            MsgType::Unknown(v) => v,
        }
    }

    /// A lower-case name for file names (`request`, `reply`, ...).
    pub fn label(self) -> String {
        match self {
            MsgType::Request => "request".into(),
            MsgType::Reply => "reply".into(),
            MsgType::CancelRequest => "cancelrequest".into(),
            MsgType::LocateRequest => "locaterequest".into(),
            MsgType::LocateReply => "locatereply".into(),
            MsgType::CloseConnection => "closeconnection".into(),
            MsgType::MessageError => "messageerror".into(),
            MsgType::Fragment => "fragment".into(),
            MsgType::Unknown(v) => format!("type{v}"),
        }
    }
}

/// The fields of a GIOP message header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// GIOP major version.
    pub major: u8,
    /// GIOP minor version.
    pub minor: u8,
    /// The flags octet (the byte-order boolean in GIOP 1.0).
    pub flags: u8,
    /// The message type.
    pub msg_type: MsgType,
    /// The body size the header declares.
    pub body_len: u32,
}

impl Header {
    /// Whether the message is little-endian (bit 0 of the flags).
    pub fn little_endian(&self) -> bool {
        self.flags & 1 != 0
    }

    /// Whether more fragments follow (bit 1 of the flags, GIOP 1.1+).
    pub fn more_fragments(&self) -> bool {
        (self.major, self.minor) >= (1, 1) && self.flags & 2 != 0
    }
}

/// The body size declared by a 12-byte GIOP header, in the byte order its
/// flags give. `None` if fewer than 12 bytes are given.
pub fn header_body_len(header: &[u8]) -> Option<u32> {
    let flags = *header.get(6)?;
    let size: [u8; 4] = header.get(8..12)?.try_into().ok()?;
    Some(if flags & 1 != 0 {
        u32::from_le_bytes(size)
    } else {
        u32::from_be_bytes(size)
    })
}

/// Parses the GIOP header at the start of `message`.
pub fn header(message: &[u8]) -> Option<Header> {
    if message.get(..4)? != b"GIOP" {
        return None;
    }
    Some(Header {
        major: *message.get(4)?,
        minor: *message.get(5)?,
        flags: *message.get(6)?,
        msg_type: MsgType::from_octet(*message.get(7)?),
        body_len: header_body_len(message)?,
    })
}

/// What [`request`] reads from a Request message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestSummary {
    /// The request id.
    pub request_id: u32,
    /// Whether a reply is expected (for GIOP 1.2, response flags != 0).
    pub response_expected: bool,
    /// The object key (GIOP 1.2: only for KeyAddr targeting).
    pub object_key: Option<Vec<u8>>,
    /// The operation name.
    pub operation: String,
    /// The ids of the service contexts sent.
    pub service_contexts: Vec<u32>,
}

/// What [`reply`] reads from a Reply message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplySummary {
    /// The request id answered.
    pub request_id: u32,
    /// The reply status (0 = NO_EXCEPTION).
    pub reply_status: u32,
    /// How many service contexts were sent.
    pub service_context_count: usize,
}

/// A CDR reader over a whole message; alignment counts from the start of
/// the message, as GIOP requires.
struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
    little: bool,
    /// The alignment gaps skipped so far.
    padding: Vec<Range<usize>>,
}

impl<'a> Cursor<'a> {
    fn new(message: &'a [u8]) -> Option<Self> {
        let h = header(message)?;
        Some(Self {
            data: message,
            pos: 12,
            little: h.little_endian(),
            padding: Vec::new(),
        })
    }

    fn align(&mut self, n: usize) -> Option<()> {
        let rem = self.pos % n;
        if rem != 0 {
            let start = self.pos;
            self.pos = self.pos.checked_add(n - rem)?;
            self.padding.push(start..self.pos);
        }
        (self.pos <= self.data.len()).then_some(())
    }

    fn bytes(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.pos.checked_add(n)?;
        let s = self.data.get(self.pos..end)?;
        self.pos = end;
        Some(s)
    }

    fn octet(&mut self) -> Option<u8> {
        self.bytes(1)?.first().copied()
    }

    fn ushort(&mut self) -> Option<u16> {
        self.align(2)?;
        let b: [u8; 2] = self.bytes(2)?.try_into().ok()?;
        Some(if self.little {
            u16::from_le_bytes(b)
        } else {
            u16::from_be_bytes(b)
        })
    }

    fn ulong(&mut self) -> Option<u32> {
        self.align(4)?;
        let b: [u8; 4] = self.bytes(4)?.try_into().ok()?;
        Some(if self.little {
            u32::from_le_bytes(b)
        } else {
            u32::from_be_bytes(b)
        })
    }

    fn octet_seq(&mut self) -> Option<&'a [u8]> {
        let len = usize::try_from(self.ulong()?).ok()?;
        self.bytes(len)
    }

    fn string(&mut self) -> Option<String> {
        let raw = self.octet_seq()?;
        let (nul, text) = raw.split_last()?;
        if *nul != 0 {
            return None;
        }
        String::from_utf8(text.to_vec()).ok()
    }

    fn service_contexts(&mut self) -> Option<Vec<u32>> {
        let count = self.ulong()?;
        let mut ids = Vec::new();
        for _ in 0..count {
            ids.push(self.ulong()?);
            self.octet_seq()?;
        }
        Some(ids)
    }
}

/// Reads the request header of a GIOP 1.0, 1.1 or 1.2 Request message.
pub fn request(message: &[u8]) -> Option<RequestSummary> {
    request_with_padding(message).map(|(r, _)| r)
}

/// The alignment padding inside the request or reply header of a Request or
/// Reply message (not inside its body), as ranges of message offsets. Empty
/// for other messages or when the header cannot be read.
///
/// Senders need not zero padding octets (omniORB does not), so byte-exact
/// comparisons of captures mask these ranges.
pub fn header_padding(message: &[u8]) -> Vec<Range<usize>> {
    request_with_padding(message)
        .map(|(_, p)| p)
        .or_else(|| reply_with_padding(message).map(|(_, p)| p))
        .unwrap_or_default()
}

fn request_with_padding(message: &[u8]) -> Option<(RequestSummary, Vec<Range<usize>>)> {
    let h = header(message)?;
    if h.msg_type != MsgType::Request {
        return None;
    }
    let mut c = Cursor::new(message)?;
    match (h.major, h.minor) {
        (1, 0 | 1) => {
            let service_contexts = c.service_contexts()?;
            let request_id = c.ulong()?;
            let response_expected = c.octet()? != 0;
            if h.minor == 1 {
                c.bytes(3)?;
            }
            let object_key = Some(c.octet_seq()?.to_vec());
            let operation = c.string()?;
            let summary = RequestSummary {
                request_id,
                response_expected,
                object_key,
                operation,
                service_contexts,
            };
            Some((summary, c.padding))
        }
        (1, 2) => {
            let request_id = c.ulong()?;
            let response_expected = c.octet()? != 0;
            c.bytes(3)?;
            let object_key = match c.ushort()? {
                0 => Some(c.octet_seq()?.to_vec()),
                1 => {
                    // TaggedProfile: tag, profile_data
                    c.ulong()?;
                    c.octet_seq()?;
                    None
                }
                2 => {
                    // IORAddressingInfo: selected_profile_index, IOR
                    c.ulong()?;
                    let _type_id = c.string()?;
                    let profiles = c.ulong()?;
                    for _ in 0..profiles {
                        c.ulong()?;
                        c.octet_seq()?;
                    }
                    None
                }
                _ => return None,
            };
            let operation = c.string()?;
            let service_contexts = c.service_contexts()?;
            let summary = RequestSummary {
                request_id,
                response_expected,
                object_key,
                operation,
                service_contexts,
            };
            Some((summary, c.padding))
        }
        _ => None,
    }
}

/// Reads the reply header of a GIOP 1.0, 1.1 or 1.2 Reply message.
pub fn reply(message: &[u8]) -> Option<ReplySummary> {
    reply_with_padding(message).map(|(r, _)| r)
}

fn reply_with_padding(message: &[u8]) -> Option<(ReplySummary, Vec<Range<usize>>)> {
    let h = header(message)?;
    if h.msg_type != MsgType::Reply {
        return None;
    }
    let mut c = Cursor::new(message)?;
    match (h.major, h.minor) {
        (1, 0 | 1) => {
            let contexts = c.service_contexts()?;
            let summary = ReplySummary {
                request_id: c.ulong()?,
                reply_status: c.ulong()?,
                service_context_count: contexts.len(),
            };
            Some((summary, c.padding))
        }
        (1, 2) => {
            let request_id = c.ulong()?;
            let reply_status = c.ulong()?;
            let contexts = c.service_contexts()?;
            let summary = ReplySummary {
                request_id,
                reply_status,
                service_context_count: contexts.len(),
            };
            Some((summary, c.padding))
        }
        _ => None,
    }
}

/// The request id that a GIOP 1.2 Fragment message carries (`None` for
/// GIOP 1.1 fragments, which carry none, and for other messages).
pub fn fragment_request_id(message: &[u8]) -> Option<u32> {
    let h = header(message)?;
    if h.msg_type != MsgType::Fragment || (h.major, h.minor) < (1, 2) {
        return None;
    }
    Cursor::new(message)?.ulong()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A GIOP 1.2 request, big-endian, worked out by hand:
    /// request_id 5, response_flags 3, reserved, KeyAddr "Cubit",
    /// operation "cube_long", no service contexts, argument 2.
    const REQ12: &[u8] = b"GIOP\x01\x02\x00\x00\x00\x00\x00\x30\
        \x00\x00\x00\x05\x03\x00\x00\x00\
        \x00\x00\x00\x00\x00\x00\x00\x05Cubit\x00\x00\x00\
        \x00\x00\x00\x0acube_long\x00\x00\x00\
        \x00\x00\x00\x00\
        \x00\x00\x00\x02";

    #[test]
    fn reads_a_giop12_request() {
        let h = header(REQ12).expect("header");
        assert_eq!((h.major, h.minor, h.msg_type), (1, 2, MsgType::Request));
        assert_eq!(h.body_len as usize, REQ12.len() - 12);
        let r = request(REQ12).expect("request");
        assert_eq!(r.request_id, 5);
        assert!(r.response_expected);
        assert_eq!(r.object_key.as_deref(), Some(b"Cubit".as_slice()));
        assert_eq!(r.operation, "cube_long");
        assert!(r.service_contexts.is_empty());
        // after the KeyAddr discriminant, after "Cubit", after "cube_long\0"
        assert_eq!(header_padding(REQ12), vec![22..24, 33..36, 50..52]);
    }

    #[test]
    fn reads_a_giop10_reply_little_endian() {
        // one service context (id 1, 4 bytes), request id 9, status 0
        let m = b"GIOP\x01\x00\x01\x01\x18\x00\x00\x00\
            \x01\x00\x00\x00\x01\x00\x00\x00\x04\x00\x00\x00\xaa\xbb\xcc\xdd\
            \x09\x00\x00\x00\x00\x00\x00\x00";
        let r = reply(m).expect("reply");
        assert_eq!(
            r,
            ReplySummary {
                request_id: 9,
                reply_status: 0,
                service_context_count: 1
            }
        );
    }

    #[test]
    fn every_truncation_is_rejected_without_panic() {
        // The request header ends after the service context count, at 56.
        for n in 0..REQ12.len() {
            let cut = REQ12.get(..n).expect("prefix");
            assert_eq!(request(cut).is_some(), n >= 56, "prefix of {n} bytes");
        }
    }

    #[test]
    fn fragment_flags() {
        let h = header(b"GIOP\x01\x01\x02\x07\x00\x00\x00\x00").expect("header");
        assert!(h.more_fragments());
        assert!(!h.little_endian());
        let h = header(b"GIOP\x01\x00\x02\x07\x00\x00\x00\x00").expect("header");
        assert!(!h.more_fragments());
        assert_eq!(
            fragment_request_id(b"GIOP\x01\x02\x01\x07\x04\x00\x00\x00\x2a\x00\x00\x00"),
            Some(42)
        );
    }
}
