//! CORBA system exceptions as a GIOP reply carries them.
//!
//! The body of a `SYSTEM_EXCEPTION` reply (and of a `LOC_SYSTEM_EXCEPTION`
//! locate reply) is
//!
//! ```text
//! string        exception_id   // "IDL:omg.org/CORBA/MARSHAL:1.0"
//! unsigned long minor_code_value
//! unsigned long completion_status  // 0 YES, 1 NO, 2 MAYBE
//! ```

use std::fmt;

use rtorb_cdr::{CdrDecode, CdrEncode, CdrError, Decoder, Encoder};

use crate::minor::{self, MinorCode};

pub(crate) mod kind;

pub use kind::{CompletionStatus, SystemExceptionId, SystemExceptionKind};

/// A CORBA system exception: which one, its minor code and completion
/// status, and, when the ORB that raised it is this one, a detail that
/// says what failed where ("cannot connect to iiop://127.0.0.1:2809:
/// Connection refused").
///
/// The detail never goes on the wire, and two exceptions are equal when
/// their id, minor code and completion status are: the detail is for
/// people. `Display` and `Debug` print the same sentence: the exception,
/// the detail or else what the minor code means (see [`crate::minor`]),
/// the code in hexadecimal with its name where rtorb knows it (and, for a
/// code under the OMG's VMCID, its number as the CORBA specification
/// numbers them), and the completion status:
///
/// ```text
/// CORBA::TRANSIENT: cannot connect to iiop://127.0.0.1:2809: Connection refused (os error 111) (minor 0x52540301 TRANSIENT_CONNECT_FAILED, COMPLETED_NO)
/// CORBA::OBJECT_NOT_EXIST: no object is registered under the object key (minor 0x4f4d0001 OBJECT_NOT_EXIST_NO_SERVANT, OMG minor 1, COMPLETED_NO)
/// ```
///
/// The alternate `Debug` (`{:#?}`) shows the same as fields, the minor
/// code in hexadecimal whatever its VMCID.
#[derive(Clone)]
pub struct SystemException {
    /// Which exception.
    pub id: SystemExceptionId,
    /// The minor code (`VMCID | n`).
    pub minor: u32,
    /// Whether the operation completed.
    pub completed: CompletionStatus,
    /// What failed where, when this ORB raised it.
    detail: Option<std::sync::Arc<str>>,
}

impl SystemException {
    /// A standard system exception.
    pub fn new(kind: SystemExceptionKind, minor: u32, completed: CompletionStatus) -> Self {
        SystemException::with_id(SystemExceptionId::Standard(kind), minor, completed)
    }

    /// A system exception of any id, standard or not.
    pub fn with_id(id: SystemExceptionId, minor: u32, completed: CompletionStatus) -> Self {
        SystemException {
            id,
            minor,
            completed,
            detail: None,
        }
    }

    /// The same exception, with a detail saying what failed where.
    #[cold]
    pub fn with_detail(mut self, detail: impl std::fmt::Display) -> Self {
        self.detail = Some(detail.to_string().into());
        self
    }

    /// What failed where, if this ORB raised the exception and said so.
    pub fn detail(&self) -> Option<&str> {
        self.detail.as_deref()
    }

    /// The standard kind, if it is one.
    pub fn kind(&self) -> Option<SystemExceptionKind> {
        self.id.kind()
    }

    /// The repository id.
    pub fn repository_id(&self) -> &str {
        self.id.repository_id()
    }

    /// The registry's row for this exception's minor code, if rtorb
    /// raises that code (see [`crate::minor`]).
    pub fn minor_code(&self) -> Option<&'static MinorCode> {
        minor::describe(self.kind()?, self.minor)
    }
}

impl PartialEq for SystemException {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id && self.minor == other.minor && self.completed == other.completed
    }
}

impl Eq for SystemException {}

impl std::hash::Hash for SystemException {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.id.hash(state);
        self.minor.hash(state);
        self.completed.hash(state);
    }
}

impl fmt::Display for SystemException {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.id {
            SystemExceptionId::Standard(k) => write!(f, "CORBA::{k}")?,
            SystemExceptionId::Other(s) => f.write_str(s)?,
        }
        let row = self.minor_code();
        match (&self.detail, row) {
            (Some(detail), _) => write!(f, ": {detail}")?,
            (None, Some(row)) => write!(f, ": {}", row.meaning)?,
            (None, None) => {}
        }
        write!(f, " (minor {:#010x}", self.minor)?;
        if let Some(row) = row {
            write!(f, " {}", row.name)?;
        }
        if self.minor & 0xffff_f000 == rtorb_cdr::OMG_VMCID {
            write!(f, ", OMG minor {}", self.minor & 0xfff)?;
        }
        write!(f, ", {})", self.completed.name())
    }
}

/// The sentence `Display` prints; with `{:#?}`, the same as fields.
impl fmt::Debug for SystemException {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !f.alternate() {
            return fmt::Display::fmt(self, f);
        }
        let (scope, id) = match &self.id {
            SystemExceptionId::Standard(k) => ("CORBA::", k.name()),
            SystemExceptionId::Other(s) => ("", s.as_str()),
        };
        let name = self.minor_code().map_or("", |row| row.name);
        let sep = if name.is_empty() { "" } else { " " };
        f.debug_struct("SystemException")
            .field("id", &format_args!("{scope}{id}"))
            .field("minor", &format_args!("{:#010x}{sep}{name}", self.minor))
            .field("completed", &format_args!("{}", self.completed.name()))
            .field("detail", &self.detail.as_deref())
            .finish()
    }
}

impl std::error::Error for SystemException {}

/// A CDR error becomes `MARSHAL` with the error's minor code,
/// `COMPLETED_NO`.
impl From<CdrError> for SystemException {
    /// `MARSHAL` with the error's minor code, except for wchar data
    /// without a negotiated wchar code set, which CORBA makes `BAD_PARAM`
    /// (OMG minor 23), and text that does not fit its code set,
    /// `DATA_CONVERSION` (OMG minor 1).
    fn from(e: CdrError) -> Self {
        let kind = match e {
            CdrError::NoWcharCodeSet => SystemExceptionKind::BadParam,
            CdrError::BadCharacter { .. } => SystemExceptionKind::DataConversion,
            _ => SystemExceptionKind::Marshal,
        };
        SystemException::new(kind, e.minor(), CompletionStatus::No).with_detail(e)
    }
}

impl CdrEncode for SystemException {
    fn encode(&self, enc: &mut Encoder) -> rtorb_cdr::Result<()> {
        enc.write_string(self.repository_id())?;
        enc.write_u32(self.minor);
        self.completed.encode(enc)
    }
}

impl CdrDecode for SystemException {
    const MIN_WIRE_SIZE: usize = 13;
    fn decode(dec: &mut Decoder) -> rtorb_cdr::Result<Self> {
        let id = dec.read_string()?;
        let minor = dec.read_u32()?;
        let completed = CompletionStatus::decode(dec)?;
        Ok(SystemException::with_id(
            SystemExceptionId::from_repository_id(&id),
            minor,
            completed,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minor::{OBJECT_NOT_EXIST_NO_SERVANT, TRANSIENT_CONNECT_FAILED};

    #[test]
    fn debug_prints_what_display_prints() {
        // The exception of issue 23's report: minor 1381237505.
        let refused = SystemException::new(
            SystemExceptionKind::Transient,
            1_381_237_505,
            CompletionStatus::No,
        )
        .with_detail("cannot connect to iiop://127.0.0.1:9: Connection refused (os error 111)");
        assert_eq!(refused.minor, TRANSIENT_CONNECT_FAILED);
        let cases = [
            (
                refused,
                "CORBA::TRANSIENT: cannot connect to iiop://127.0.0.1:9: Connection refused \
                 (os error 111) (minor 0x52540301 TRANSIENT_CONNECT_FAILED, COMPLETED_NO)",
            ),
            (
                SystemException::new(
                    SystemExceptionKind::ObjectNotExist,
                    OBJECT_NOT_EXIST_NO_SERVANT,
                    CompletionStatus::No,
                ),
                "CORBA::OBJECT_NOT_EXIST: no object is registered under the object key \
                 (minor 0x4f4d0001 OBJECT_NOT_EXIST_NO_SERVANT, OMG minor 1, COMPLETED_NO)",
            ),
            (
                SystemException::new(
                    SystemExceptionKind::Marshal,
                    0x4f4d_0fff,
                    CompletionStatus::Maybe,
                ),
                "CORBA::MARSHAL (minor 0x4f4d0fff, OMG minor 4095, COMPLETED_MAYBE)",
            ),
            (
                SystemException::with_id(
                    SystemExceptionId::Other("IDL:acme.com/Vendor/OOPS:1.0".to_owned()),
                    0x4143_0001,
                    CompletionStatus::Yes,
                ),
                "IDL:acme.com/Vendor/OOPS:1.0 (minor 0x41430001, COMPLETED_YES)",
            ),
        ];
        for (e, text) in cases {
            assert_eq!(format!("{e}"), text);
            assert_eq!(format!("{e:?}"), text);
            // As `fn main() -> Result<(), Box<dyn Error>>` and `unwrap`
            // print it.
            let boxed: Box<dyn std::error::Error> = Box::new(e.clone());
            assert_eq!(format!("{boxed:?}"), text);
            assert_eq!(format!("{:?}", Err::<(), _>(e)), format!("Err({text})"));
        }
    }

    #[test]
    fn alternate_debug_shows_the_fields_with_the_minor_code_in_hex() {
        let e = SystemException::new(
            SystemExceptionKind::ObjectNotExist,
            OBJECT_NOT_EXIST_NO_SERVANT,
            CompletionStatus::No,
        );
        assert_eq!(
            format!("{e:#?}"),
            "SystemException {\n    id: CORBA::OBJECT_NOT_EXIST,\n    \
             minor: 0x4f4d0001 OBJECT_NOT_EXIST_NO_SERVANT,\n    completed: COMPLETED_NO,\n    \
             detail: None,\n}"
        );
        let e = SystemException::new(SystemExceptionKind::Transient, 7, CompletionStatus::Maybe)
            .with_detail("gone");
        assert_eq!(
            format!("{e:#?}"),
            "SystemException {\n    id: CORBA::TRANSIENT,\n    minor: 0x00000007,\n    \
             completed: COMPLETED_MAYBE,\n    detail: Some(\n        \"gone\",\n    ),\n}"
        );
    }
}
