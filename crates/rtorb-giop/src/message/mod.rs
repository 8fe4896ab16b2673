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

mod content;
mod decode;
mod encode;
mod locate;
mod reply;
mod request;
mod writer;

pub use content::{Content, Fragment, Message};
pub use decode::{decode_message, decode_message_with_max};
pub use encode::encode_message;
pub use locate::{LocateReply, LocateRequest, LocateStatus};
pub use reply::{Reply, ReplyHeader, ReplyStatus};
pub use request::{
    CancelRequest, RESPONSE_NONE, RESPONSE_WITH_SERVER, RESPONSE_WITH_TARGET, Request,
    RequestHeader,
};
pub use writer::{MessageWriter, RequestTemplate};

pub(crate) use decode::check_whole_message;
pub(crate) use reply::check_reply;
