//! # rtorb-giop: GIOP and GIOPlite messages, IORs and corbaloc
//!
//! The ORB messaging protocol of rtorb, sans I/O: message headers and
//! bodies of GIOP 1.0, 1.1 and 1.2 and of GIOPlite, service contexts,
//! fragmentation and reassembly, a framing API for transports, and object
//! references (IORs, IIOP profiles, tagged components, `corbaloc:` and
//! `corbaname:` URLs).
//!
//! # Messages
//!
//! - [`header`]: the 12-octet GIOP header, [`MsgType`], and [`GiopError`],
//!   whose [`GiopError::is_protocol_error`] tells a connection whether to
//!   answer with a `MessageError` or a `MARSHAL` system exception.
//! - [`message`]: the [`Message`] model of every message of GIOP 1.0, 1.1
//!   and 1.2, [`decode_message`], [`encode_message`], and
//!   [`MessageWriter`], which writes the headers and lets the caller append
//!   the body before it fills in the size. Request and reply bodies stay
//!   undecoded slices of the message buffer.
//! - [`service_context`], [`target`], [`exception`]: service contexts
//!   (raw and typed), GIOP 1.2 target addresses, and system exceptions.
//! - [`fragment`]: splitting outgoing messages into fragments and a bounded
//!   [`Reassembler`] for incoming ones.
//! - [`framing`]: [`FrameDecoder`] turns a byte stream into whole
//!   messages, checking each header before buffering its body.
//!
//! # GIOPlite
//!
//! [`lite`] is rtorb's compact variant of GIOP for links between rtorb
//! endsystems. It carries the GIOP 1.2 messages with the same meaning and
//! CDR, and decodes into the same [`Message`] model; what it drops is
//! what two rtorb peers never need: the magic and version, the principal,
//! reserved octets, addressing by anything but object key, body padding,
//! and empty service context lists. Its 8-octet header is
//!
//! ```text
//! octet 0     flags: bit 0 little endian, bit 1 more fragments,
//!             bit 2 service contexts present (Request, Reply); others 0
//! octet 1     message type (GIOP numbering)
//! octet 2     response_flags (Request), reply_status (Reply),
//!             locate_status (LocateReply), else 0
//! octet 3     0
//! octets 4-7  message size after the header (ulong, in the byte order
//!             of bit 0)
//! ```
//!
//! followed, with alignment relative to octet 0 and no body padding, by
//!
//! ```text
//! Request        request_id, object_key, operation, [service_context], body
//! Reply          request_id, [service_context], body
//! CancelRequest  request_id
//! LocateRequest  request_id, object_key
//! LocateReply    request_id, status body (IOR, system exception, short)
//! Fragment       request_id, continuation octets
//! ```
//!
//! A Cubit `cube_octet` request is 40 octets instead of GIOP 1.2's 57, its
//! reply 13 instead of 25 (`cargo run --example giop_sizes` prints the
//! table for every Cubit operation).
//!
//! # Modules
//!
//! Each module uses only the rows below its own (doc links aside):
//!
//! ```text
//! ior, corbaloc         object references, and URLs that name them
//! framing, view         whole messages out of a byte stream; reading them in place
//! fragment, lite        fragmentation and reassembly; the GIOPlite encoding
//! message               the model of every GIOP message, encoded and decoded
//! header                the 12-octet header and GiopError
//! exception, minor      system exceptions and the registry of minor codes
//! operation, op_hash,   operation names, service contexts, target addresses
//! service_context,
//! target
//! ```

pub mod corbaloc;
pub mod exception;
pub mod fragment;
pub mod framing;
pub mod header;
pub mod ior;
pub mod lite;
pub mod message;
pub mod minor;
pub mod op_hash;
pub mod operation;
mod reply_priority;
pub mod service_context;
pub mod target;
pub mod view;

pub use corbaloc::{Corbaloc, Corbaname, ObjectUrl, UrlError, parse_object_url};
pub use exception::{CompletionStatus, SystemException, SystemExceptionId, SystemExceptionKind};
pub use fragment::{BlockPool, Reassembler, ReassemblyLimits, fragment_chunks, fragment_message};
pub use framing::{FrameDecoder, FrameHeader, FrameProtocol};
pub use header::{GiopError, MessageHeader, MsgType};
pub use ior::{IorError, ObjectReference};
pub use lite::{decode_lite, encode_lite};
pub use message::{
    Content, Message, MessageWriter, Reply, ReplyHeader, ReplyStatus, Request, RequestHeader,
    RequestTemplate, decode_message, encode_message,
};
pub use operation::Operation;
pub use service_context::{ServiceContext, ServiceContextList, TypedServiceContext};
pub use target::{AddressingDisposition, TargetAddress};
pub use view::{
    ReplyView, RequestView, reply_view, reply_view_framed, request_view, request_view_framed,
};
