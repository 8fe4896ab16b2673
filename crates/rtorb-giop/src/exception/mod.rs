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

use rtorb_cdr::{CdrDecode, CdrEncode, CdrError, Decoder, Encoder};

/// Whether the operation had completed when the exception was raised.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum CompletionStatus {
    /// `COMPLETED_YES`: the operation ran to completion.
    Yes = 0,
    /// `COMPLETED_NO`: the operation never ran.
    No = 1,
    /// `COMPLETED_MAYBE`: unknown.
    Maybe = 2,
}

impl CompletionStatus {
    /// The status with wire value `v`.
    pub fn from_u32(v: u32) -> Option<CompletionStatus> {
        match v {
            0 => Some(CompletionStatus::Yes),
            1 => Some(CompletionStatus::No),
            2 => Some(CompletionStatus::Maybe),
            _ => None,
        }
    }

    /// The IDL name (`COMPLETED_YES`, ...).
    pub fn name(self) -> &'static str {
        match self {
            CompletionStatus::Yes => "COMPLETED_YES",
            CompletionStatus::No => "COMPLETED_NO",
            CompletionStatus::Maybe => "COMPLETED_MAYBE",
        }
    }
}

macro_rules! system_exceptions {
    ($($variant:ident => $name:literal,)*) => {
        /// The standard CORBA system exceptions.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum SystemExceptionKind {
            $(
                #[doc = concat!("`CORBA::", $name, "`")]
                $variant,
            )*
        }

        impl SystemExceptionKind {
            /// Every standard system exception.
            pub const ALL: &'static [SystemExceptionKind] = &[$(SystemExceptionKind::$variant,)*];

            /// The exception's IDL name (`MARSHAL`).
            pub fn name(self) -> &'static str {
                match self {
                    $(SystemExceptionKind::$variant => $name,)*
                }
            }

            /// The exception's repository id
            /// (`IDL:omg.org/CORBA/MARSHAL:1.0`).
            pub fn repository_id(self) -> &'static str {
                match self {
                    $(SystemExceptionKind::$variant => concat!("IDL:omg.org/CORBA/", $name, ":1.0"),)*
                }
            }

            /// The standard exception with this repository id.
            pub fn from_repository_id(id: &str) -> Option<SystemExceptionKind> {
                let name = id.strip_prefix("IDL:omg.org/CORBA/")?.strip_suffix(":1.0")?;
                SystemExceptionKind::from_name(name)
            }

            /// The standard exception with this IDL name.
            pub fn from_name(name: &str) -> Option<SystemExceptionKind> {
                match name {
                    $($name => Some(SystemExceptionKind::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

system_exceptions! {
    Unknown => "UNKNOWN",
    BadParam => "BAD_PARAM",
    NoMemory => "NO_MEMORY",
    ImpLimit => "IMP_LIMIT",
    CommFailure => "COMM_FAILURE",
    InvObjref => "INV_OBJREF",
    NoPermission => "NO_PERMISSION",
    Internal => "INTERNAL",
    Marshal => "MARSHAL",
    Initialize => "INITIALIZE",
    NoImplement => "NO_IMPLEMENT",
    BadTypecode => "BAD_TYPECODE",
    BadOperation => "BAD_OPERATION",
    NoResources => "NO_RESOURCES",
    NoResponse => "NO_RESPONSE",
    PersistStore => "PERSIST_STORE",
    BadInvOrder => "BAD_INV_ORDER",
    Transient => "TRANSIENT",
    FreeMem => "FREE_MEM",
    InvIdent => "INV_IDENT",
    InvFlag => "INV_FLAG",
    IntfRepos => "INTF_REPOS",
    BadContext => "BAD_CONTEXT",
    ObjAdapter => "OBJ_ADAPTER",
    DataConversion => "DATA_CONVERSION",
    ObjectNotExist => "OBJECT_NOT_EXIST",
    TransactionRequired => "TRANSACTION_REQUIRED",
    TransactionRolledback => "TRANSACTION_ROLLEDBACK",
    InvalidTransaction => "INVALID_TRANSACTION",
    InvPolicy => "INV_POLICY",
    CodesetIncompatible => "CODESET_INCOMPATIBLE",
    Rebind => "REBIND",
    Timeout => "TIMEOUT",
    TransactionUnavailable => "TRANSACTION_UNAVAILABLE",
    TransactionMode => "TRANSACTION_MODE",
    BadQos => "BAD_QOS",
    InvalidActivity => "INVALID_ACTIVITY",
    ActivityCompleted => "ACTIVITY_COMPLETED",
    ActivityRequired => "ACTIVITY_REQUIRED",
    ThreadCancelled => "THREAD_CANCELLED",
}

impl std::fmt::Display for SystemExceptionKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Which system exception: a standard one, or an id rtorb does not know
/// (kept as it was received, so it can be passed on unchanged).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum SystemExceptionId {
    /// A standard CORBA system exception.
    Standard(SystemExceptionKind),
    /// Any other repository id, as received.
    Other(String),
}

impl SystemExceptionId {
    /// The id for a repository id string: standard if it names one.
    pub fn from_repository_id(id: &str) -> SystemExceptionId {
        match SystemExceptionKind::from_repository_id(id) {
            Some(k) => SystemExceptionId::Standard(k),
            None => SystemExceptionId::Other(id.to_owned()),
        }
    }

    /// The repository id string.
    pub fn repository_id(&self) -> &str {
        match self {
            SystemExceptionId::Standard(k) => k.repository_id(),
            SystemExceptionId::Other(s) => s,
        }
    }

    /// The standard kind, if it is one.
    pub fn kind(&self) -> Option<SystemExceptionKind> {
        match self {
            SystemExceptionId::Standard(k) => Some(*k),
            SystemExceptionId::Other(_) => None,
        }
    }
}

/// A CORBA system exception: which one, its minor code and completion
/// status, and, when the ORB that raised it is this one, a detail that
/// says what failed where ("cannot connect to iiop://127.0.0.1:2809:
/// Connection refused").
///
/// The detail never goes on the wire, and two exceptions are equal when
/// their id, minor code and completion status are: the detail is for
/// people. `Display` prints the exception, the detail or else what the
/// minor code means (see [`crate::minor`]), and the code:
///
/// ```text
/// CORBA::TRANSIENT: cannot connect to iiop://127.0.0.1:2809: Connection refused (os error 111) (minor 0x52540301 TRANSIENT_CONNECT_FAILED, COMPLETED_NO)
/// CORBA::OBJECT_NOT_EXIST: no object is registered under the object key (OMG minor 1 OBJECT_NOT_EXIST_NO_SERVANT, COMPLETED_NO)
/// ```
#[derive(Debug, Clone)]
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
    pub fn minor_code(&self) -> Option<&'static crate::minor::MinorCode> {
        crate::minor::describe(self.kind()?, self.minor)
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

impl std::fmt::Display for SystemException {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
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
        let vmcid = self.minor & 0xffff_f000;
        if vmcid == rtorb_cdr::OMG_VMCID {
            write!(f, " (OMG minor {}", self.minor & 0xfff)?;
        } else {
            write!(f, " (minor {:#010x}", self.minor)?;
        }
        if let Some(row) = row {
            write!(f, " {}", row.name)?;
        }
        write!(f, ", {})", self.completed.name())
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

impl CdrEncode for CompletionStatus {
    fn encode(&self, enc: &mut Encoder) -> rtorb_cdr::Result<()> {
        enc.write_u32(*self as u32);
        Ok(())
    }
}

impl CdrDecode for CompletionStatus {
    const MIN_WIRE_SIZE: usize = 4;
    fn decode(dec: &mut Decoder) -> rtorb_cdr::Result<Self> {
        let v = dec.read_u32()?;
        CompletionStatus::from_u32(v).ok_or(CdrError::InvalidEnum { value: v, count: 3 })
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
