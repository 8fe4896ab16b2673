//! The names of system exceptions: the standard kinds, an id that may
//! be another ORB's, and the completion status a reply carries.

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
