//! The `Request` message and the `CancelRequest` that withdraws one.

use bytes::Bytes;

use crate::operation::Operation;
use crate::service_context::ServiceContextList;
use crate::target::TargetAddress;

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

/// A `CancelRequest` message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CancelRequest {
    /// The id of the request the client no longer waits for.
    pub request_id: u32,
}
