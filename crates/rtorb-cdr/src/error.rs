//! Errors raised while encoding or decoding CDR.

use thiserror::Error;

/// The vendor minor code id (VMCID) under which rtorb reports its own minor
/// codes: the ASCII letters `RT` in the upper 20 bits, as CORBA 3.x §10.5.2
/// lays minor codes out (`VMCID | n`).
pub const RTORB_VMCID: u32 = 0x5254_0000;

/// The VMCID of minor codes the OMG itself assigns (`OMGVMCID`).
pub const OMG_VMCID: u32 = 0x4f4d_0000;

/// Everything that can go wrong while reading or writing CDR.
///
/// Every decoding error is a property of the input, never of the decoder:
/// a malformed stream yields one of these, never a panic. An ORB reports it
/// to its peer as a `MARSHAL` system exception whose minor code is
/// [`CdrError::minor`].
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum CdrError {
    /// The stream ended before a value was complete.
    #[error("CDR stream ends early: {needed} more bytes needed, {remaining} remain")]
    UnexpectedEnd {
        /// Bytes the value still needed.
        needed: usize,
        /// Bytes that were left in the stream.
        remaining: usize,
    },
    /// A length prefix promises more elements than the rest of the stream can hold.
    #[error("CDR length {length} exceeds what remains in the stream ({remaining} bytes)")]
    LengthTooLarge {
        /// The length read from the stream.
        length: u64,
        /// Bytes that were left in the stream.
        remaining: usize,
    },
    /// A bounded sequence or string is longer than its bound.
    #[error("length {length} exceeds the bound {bound}")]
    BoundExceeded {
        /// The length read or given.
        length: u64,
        /// The declared bound.
        bound: u64,
    },
    /// A boolean octet was neither 0 nor 1.
    #[error("invalid boolean octet {0:#04x}")]
    InvalidBoolean(u8),
    /// An enum value is outside the enumeration.
    #[error("enum value {value} out of range (the enum has {count} members)")]
    InvalidEnum {
        /// The value read.
        value: u32,
        /// Members the enum has.
        count: u32,
    },
    /// A union discriminator selects no member and the union has no default.
    #[error("union discriminator {0} selects no member")]
    InvalidDiscriminator(i64),
    /// A string was not terminated by a single NUL, or had an embedded NUL.
    #[error("malformed string: {0}")]
    MalformedString(&'static str),
    /// Text could not be converted to or from the transmission code set:
    /// a character the code set cannot represent, or octets that are not
    /// text in it. An ORB reports it as `DATA_CONVERSION` (OMG minor 1),
    /// never sending or delivering altered text.
    #[error("character data not representable in code set {}", crate::CodeSetId(*codeset))]
    BadCharacter {
        /// The OSF registry id of the code set.
        codeset: u32,
    },
    /// A code set that rtorb does not convert.
    #[error("unsupported code set {0:#010x}")]
    UnsupportedCodeSet(u32),
    /// wchar data in GIOP 1.0, which has no wchar encoding.
    #[error("wchar and wstring cannot be sent in GIOP 1.0")]
    WcharInGiop10,
    /// wchar data where no transmission code set for `wchar` was
    /// negotiated ([`crate::codeset::CodeSetId::NONE`]).
    #[error("no transmission code set for wchar data was negotiated")]
    NoWcharCodeSet,
    /// A fixed-point value whose digits or sign are malformed.
    #[error("malformed fixed-point value: {0}")]
    MalformedFixed(&'static str),
    /// An encapsulation's byte-order octet was neither 0 nor 1.
    #[error("invalid byte-order octet {0:#04x}")]
    InvalidByteOrder(u8),
    /// Values were nested deeper than the decoder allows.
    #[error("values nested deeper than the limit of {0}")]
    NestingTooDeep(u32),
    /// A malformed TypeCode.
    #[error("malformed TypeCode: {0}")]
    BadTypeCode(&'static str),
    /// A TypeCode indirection that does not point at an enclosing TypeCode.
    #[error("TypeCode indirection offset {0} is invalid")]
    BadIndirection(i64),
    /// A value did not match the TypeCode it was encoded or decoded with.
    #[error("value does not match its TypeCode: {0}")]
    TypeMismatch(&'static str),
    /// A feature of CDR this implementation does not handle.
    #[error("not supported: {0}")]
    Unsupported(&'static str),
    /// A malformed valuetype encoding: a bad value tag, chunk, end tag or
    /// indirection, or an indirection to a value still being decoded (a
    /// cycle, which shared `Arc`s cannot represent).
    #[error("malformed valuetype encoding: {0}")]
    BadValue(&'static str),
    /// A value of a type for which no factory is registered and that
    /// cannot be truncated to a type the receiver knows.
    #[error("no value factory for `{0}`")]
    UnknownValueType(String),
}

impl CdrError {
    /// The minor code that reports this error to a peer, in a `MARSHAL`
    /// exception but for text that does not fit its code set
    /// (`DATA_CONVERSION`) and `wchar` data without a `wchar` code set
    /// (`BAD_PARAM`).
    ///
    /// Errors the OMG assigns a minor code for use it; the others use
    /// rtorb's VMCID ([`RTORB_VMCID`]).
    pub fn minor(&self) -> u32 {
        match self {
            // OMG MARSHAL minor 5: wchar data sent by a client over GIOP
            // 1.0 (a server returning it uses minor 6, which the ORB sets).
            CdrError::WcharInGiop10 => OMG_VMCID | 5,
            // OMG BAD_PARAM minor 23: wchar data without a negotiated wchar
            // transmission code set (the exception is BAD_PARAM, see
            // `rtorb_giop`'s conversion).
            CdrError::NoWcharCodeSet => OMG_VMCID | 23,
            CdrError::UnexpectedEnd { .. } => RTORB_VMCID | 1,
            CdrError::LengthTooLarge { .. } => RTORB_VMCID | 2,
            CdrError::BoundExceeded { .. } => RTORB_VMCID | 3,
            CdrError::InvalidBoolean(_) => RTORB_VMCID | 4,
            CdrError::InvalidEnum { .. } => RTORB_VMCID | 5,
            CdrError::InvalidDiscriminator(_) => RTORB_VMCID | 6,
            CdrError::MalformedString(_) => RTORB_VMCID | 7,
            // OMG DATA_CONVERSION minor 1: a character that does not map
            // to the transmission code set (the exception is
            // DATA_CONVERSION, see `rtorb_giop`'s conversion).
            CdrError::BadCharacter { .. } => OMG_VMCID | 1,
            CdrError::UnsupportedCodeSet(_) => RTORB_VMCID | 9,
            CdrError::MalformedFixed(_) => RTORB_VMCID | 10,
            CdrError::InvalidByteOrder(_) => RTORB_VMCID | 11,
            CdrError::NestingTooDeep(_) => RTORB_VMCID | 12,
            CdrError::BadTypeCode(_) => RTORB_VMCID | 13,
            CdrError::BadIndirection(_) => RTORB_VMCID | 14,
            CdrError::TypeMismatch(_) => RTORB_VMCID | 15,
            CdrError::Unsupported(_) => RTORB_VMCID | 16,
            CdrError::BadValue(_) => RTORB_VMCID | 17,
            // OMG MARSHAL minor 1: unable to locate a value factory.
            CdrError::UnknownValueType(_) => OMG_VMCID | 1,
        }
    }
}

/// The result of a CDR operation.
pub type Result<T, E = CdrError> = std::result::Result<T, E>;
