//! User exceptions, the error type of an operation, and the minor codes
//! the runtime raises system exceptions with.

use rtorb_cdr::{CdrDecode, CdrEncode, CdrError, Decoder, OMG_VMCID, RTORB_VMCID};
use rtorb_giop::{CompletionStatus, SystemException, SystemExceptionKind};

/// `BAD_OPERATION` minor code for an operation the target does not have
/// (OMG minor 2, "operation or attribute not known to target object").
pub const BAD_OPERATION_UNKNOWN_OPERATION: u32 = OMG_VMCID | 2;

/// `OBJECT_NOT_EXIST` minor code for an object key no servant is
/// registered under: OMG minor 1, the code omniORB answers with when no
/// object matches a key.
pub const OBJECT_NOT_EXIST_NO_SERVANT: u32 = OMG_VMCID | 1;

/// `UNKNOWN` minor code for a user exception the operation does not
/// declare (OMG minor 1, "unlisted user exception received by client").
pub const UNKNOWN_UNLISTED_USER_EXCEPTION: u32 = OMG_VMCID | 1;

/// `INV_OBJREF` minor code for a reference with no profile that carries
/// an object key (rtorb).
pub const INV_OBJREF_NO_OBJECT_KEY: u32 = RTORB_VMCID | 0x201;

/// `TRANSIENT` minor code for a request forwarded more times than the
/// invoker follows (rtorb).
pub const TRANSIENT_TOO_MANY_FORWARDS: u32 = RTORB_VMCID | 0x202;

/// `MARSHAL` minor code for a reply that does not answer the request
/// sent: another message type or request id (rtorb).
pub const MARSHAL_UNEXPECTED_REPLY: u32 = RTORB_VMCID | 0x203;

/// `NO_IMPLEMENT` minor code for a standard object operation the runtime
/// does not provide yet, such as `_interface` (rtorb).
pub const NO_IMPLEMENT_OBJECT_OPERATION: u32 = RTORB_VMCID | 0x204;

/// `MARSHAL` minor code for a GIOP 1.2 request that addresses its target
/// by profile or reference where only object keys are served (rtorb).
pub const MARSHAL_TARGET_NOT_A_KEY: u32 = RTORB_VMCID | 0x205;

/// `TRANSIENT` minor code of a call through an ORB's invoker before the
/// invoker exists or once the ORB is gone (rtorb).
pub const TRANSIENT_NOT_READY: u32 = RTORB_VMCID | 0x322;

/// An IDL user exception, as generated code defines it: a struct whose
/// members [`CdrEncode`] and [`CdrDecode`] write and read (without the
/// repository id, which the runtime writes and reads).
///
/// ```
/// use rtorb::runtime::UserException;
/// use rtorb_cdr::{CdrDecode, CdrEncode, Decoder, Encoder};
///
/// /// `exception Overflow { long limit; };`
/// #[derive(Debug, Clone, PartialEq)]
/// pub struct Overflow { pub limit: i32 }
///
/// impl UserException for Overflow {
///     const REPOSITORY_ID: &'static str = "IDL:Overflow:1.0";
/// }
/// impl CdrEncode for Overflow {
///     fn encode(&self, e: &mut Encoder) -> rtorb_cdr::Result<()> { self.limit.encode(e) }
/// }
/// impl CdrDecode for Overflow {
///     const MIN_WIRE_SIZE: usize = 4;
///     fn decode(d: &mut Decoder) -> rtorb_cdr::Result<Self> {
///         Ok(Overflow { limit: i32::decode(d)? })
///     }
/// }
/// ```
pub trait UserException: CdrEncode + CdrDecode + std::fmt::Debug {
    /// The exception's repository id (`IDL:Module/Name:1.0`).
    const REPOSITORY_ID: &'static str;
}

/// The error type of an operation, as a stub returns it: a system
/// exception, or one of the user exceptions the operation `raises`.
///
/// [`SystemException`] implements it for operations without `raises`.
/// For an operation with a `raises` clause the code generator emits an
/// enum with one variant per user exception and a `System` variant, and
/// implements this trait by matching the repository id:
///
/// ```
/// # use rtorb::runtime::{OperationError, UserException};
/// # use rtorb_cdr::{CdrDecode, CdrEncode, CdrError, Decoder, Encoder};
/// # use rtorb_giop::SystemException;
/// # #[derive(Debug)] pub struct Overflow { pub limit: i32 }
/// # impl UserException for Overflow { const REPOSITORY_ID: &'static str = "IDL:Overflow:1.0"; }
/// # impl CdrEncode for Overflow { fn encode(&self, e: &mut Encoder) -> rtorb_cdr::Result<()> { self.limit.encode(e) } }
/// # impl CdrDecode for Overflow { fn decode(d: &mut Decoder) -> rtorb_cdr::Result<Self> { Ok(Overflow { limit: i32::decode(d)? }) } }
/// #[derive(Debug)]
/// pub enum CubeError {
///     Overflow(Overflow),
///     System(SystemException),
/// }
///
/// impl From<SystemException> for CubeError {
///     fn from(e: SystemException) -> Self { CubeError::System(e) }
/// }
///
/// impl OperationError for CubeError {
///     fn from_user_exception(id: &str, members: &mut Decoder) -> Option<Result<Self, CdrError>> {
///         match id {
///             Overflow::REPOSITORY_ID => Some(Overflow::decode(members).map(CubeError::Overflow)),
///             _ => None,
///         }
///     }
/// }
/// ```
pub trait OperationError: From<SystemException> {
    /// Decodes the members of the user exception with `repository_id`, if
    /// the operation declares it; `None` makes the reply an `UNKNOWN`
    /// system exception ([`UNKNOWN_UNLISTED_USER_EXCEPTION`]).
    fn from_user_exception(
        repository_id: &str,
        members: &mut Decoder,
    ) -> Option<Result<Self, CdrError>>;
}

impl OperationError for SystemException {
    fn from_user_exception(_: &str, _: &mut Decoder) -> Option<Result<Self, CdrError>> {
        None
    }
}

/// `BAD_OPERATION` for an operation the target does not have, as a
/// skeleton's `dispatch` returns it.
pub fn bad_operation() -> SystemException {
    SystemException::new(
        SystemExceptionKind::BadOperation,
        BAD_OPERATION_UNKNOWN_OPERATION,
        CompletionStatus::No,
    )
}

/// `OBJECT_NOT_EXIST` for an object key nothing is registered under.
pub fn object_not_exist() -> SystemException {
    SystemException::new(
        SystemExceptionKind::ObjectNotExist,
        OBJECT_NOT_EXIST_NO_SERVANT,
        CompletionStatus::No,
    )
}

/// `MARSHAL` for results or exception members that could not be read or
/// written after the operation ran (`COMPLETED_YES`, unlike the
/// `COMPLETED_NO` that `From<CdrError>` gives for arguments).
///
/// `wchar` data in a GIOP 1.0 reply is `MARSHAL` OMG minor 6 ("returned
/// by server"), `wchar` data without a negotiated code set
/// `BAD_PARAM` OMG minor 23, and text that does not fit its code set
/// `DATA_CONVERSION` OMG minor 1.
pub fn marshal_completed(e: &CdrError) -> SystemException {
    let (kind, minor) = match e {
        CdrError::WcharInGiop10 => (SystemExceptionKind::Marshal, rtorb_cdr::OMG_VMCID | 6),
        CdrError::NoWcharCodeSet => (SystemExceptionKind::BadParam, e.minor()),
        CdrError::BadCharacter { .. } => (SystemExceptionKind::DataConversion, e.minor()),
        _ => (SystemExceptionKind::Marshal, e.minor()),
    };
    SystemException::new(kind, minor, CompletionStatus::Yes)
}

/// Reads the repository id that opens a user exception body, without
/// copying it; `None` when it is not valid UTF-8 (so matches no IDL id).
pub(crate) fn read_repository_id(d: &mut Decoder) -> Result<Option<rtorb_cdr::Bytes>, CdrError> {
    let len = d.read_len(1)?;
    if len == 0 {
        return Err(CdrError::MalformedString(
            "zero length (no terminating NUL)",
        ));
    }
    let raw = d.read_bytes(len)?;
    let (body, nul) = raw.split_at(len - 1);
    if nul != [0] || body.contains(&0) {
        return Err(CdrError::MalformedString("not a NUL-terminated string"));
    }
    if std::str::from_utf8(body).is_err() {
        return Ok(None);
    }
    Ok(Some(raw.slice(..len - 1)))
}
