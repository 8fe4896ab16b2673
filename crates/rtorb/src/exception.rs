//! CORBA exceptions: the [`SystemException`] every operation may raise
//! (its kind, its minor code, whether the operation completed), the
//! [`UserException`]s an IDL operation `raises`, and [`OperationError`],
//! the error type of an operation that gives either.
//!
//! An operation without `raises` returns `Result<T, SystemException>`.
//! One with `raises` returns `Result<T, E>` for an enum `E` that
//! `rtorb-idl` generates, with a variant per user exception and
//! `System(SystemException)`. A system exception reply arrives as `Err`
//! from the call; a user exception the operation does not declare
//! becomes `UNKNOWN`. The minor codes rtorb raises are in
//! [`crate::minor`], each with its name and meaning.

use crate::minor::{BAD_OPERATION_UNKNOWN_OPERATION, OBJECT_NOT_EXIST_NO_SERVANT};
use rtorb_cdr::{CdrDecode, CdrEncode, CdrError, Decoder};

pub use rtorb_giop::{CompletionStatus, SystemException, SystemExceptionKind};

/// An IDL user exception, as generated code defines it: a struct whose
/// members [`CdrEncode`] and [`CdrDecode`] write and read (without the
/// repository id, which [`ServerRequest::write_user_exception`](crate::servant::ServerRequest::write_user_exception)
/// writes and [`Reply::decode`](crate::object::Reply::decode) reads).
///
/// ```
/// use rtorb::exception::UserException;
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
/// # use rtorb::exception::{OperationError, UserException};
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
    /// system exception ([`UNKNOWN_UNLISTED_USER_EXCEPTION`](crate::minor::UNKNOWN_UNLISTED_USER_EXCEPTION)).
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
