//! A whole message: its [`Content`], one of the message types, with the
//! version and byte order it is written in.

use std::sync::Arc;

use bytes::Bytes;
use rtorb_cdr::{ByteOrder, Decoder, Encoding, Realign, Version};

use super::locate::{LocateReply, LocateRequest};
use super::reply::Reply;
use super::request::{CancelRequest, Request};
use crate::header::MsgType;

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
