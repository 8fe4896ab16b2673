//! Code sets: the OSF registry ids, conversion of `char` and `wchar` data,
//! and the code set negotiation of CORBA 3.x §13.10.
//!
//! A server advertises its native and conversion code sets in the
//! `TAG_CODE_SETS` component of its IOR ([`CodeSetComponentInfo`]); the
//! client picks transmission code sets with [`negotiate`] and tells the
//! server in the `CodeSets` service context ([`CodeSetContext`]) of its
//! first request. The ids are named by the [`registry`].

pub mod registry;
mod wire;

pub use registry::{REGISTRY, RegisteredCodeSet, UnknownCodeSet};

use crate::error::{CdrError, Result};

/// An OSF character and code set registry id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CodeSetId(pub u32);

impl CodeSetId {
    /// ISO 8859-1:1987, Latin alphabet no. 1 (the default for `char`).
    pub const ISO_8859_1: CodeSetId = CodeSetId(0x0001_0001);
    /// ISO/IEC 10646-1:1993 UCS-2, level 1.
    pub const UCS_2: CodeSetId = CodeSetId(0x0001_0100);
    /// ISO/IEC 10646-1:1993 UTF-16 (the default for `wchar`).
    pub const UTF_16: CodeSetId = CodeSetId(0x0001_0109);
    /// X/Open UTF-8.
    pub const UTF_8: CodeSetId = CodeSetId(0x0501_0001);
    /// ISO 646:1991 IRV (US-ASCII), 7-bit.
    pub const ISO_646: CodeSetId = CodeSetId(0x0001_0020);
    /// No code set: what a connection has for `wchar` data when none was
    /// negotiated (the peer's IOR named none, or no `CodeSets` service
    /// context arrived). `wchar` and `wstring` cannot be sent or received
    /// with it ([`CdrError::NoWcharCodeSet`]).
    pub const NONE: CodeSetId = CodeSetId(0);

    /// Whether rtorb converts `char` data to and from this code set (one
    /// of [`CHAR_CODE_SETS`]).
    pub fn is_char_supported(self) -> bool {
        CHAR_CODE_SETS.contains(&self)
    }

    /// Whether rtorb converts `wchar` data to and from this code set (one
    /// of [`WCHAR_CODE_SETS`]).
    pub fn is_wchar_supported(self) -> bool {
        WCHAR_CODE_SETS.contains(&self)
    }
}

/// The code sets rtorb converts `char` and `string` data to and from, in
/// its order of preference.
pub const CHAR_CODE_SETS: [CodeSetId; 2] = [CodeSetId::UTF_8, CodeSetId::ISO_8859_1];

/// The code sets rtorb converts `wchar` and `wstring` data to and from, in
/// its order of preference.
pub const WCHAR_CODE_SETS: [CodeSetId; 2] = [CodeSetId::UTF_16, CodeSetId::UCS_2];

/// The code sets in force on a connection for `char` and `wchar` data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TransmissionCodeSets {
    /// Transmission code set for `char` and `string`.
    pub char_data: CodeSetId,
    /// Transmission code set for `wchar` and `wstring`.
    pub wchar_data: CodeSetId,
}

impl TransmissionCodeSets {
    /// What applies before (or without) negotiation: ISO 8859-1 for `char`
    /// as GIOP specifies, UTF-16 for `wchar` as ORBs commonly assume.
    pub const DEFAULT: TransmissionCodeSets = TransmissionCodeSets {
        char_data: CodeSetId::ISO_8859_1,
        wchar_data: CodeSetId::UTF_16,
    };
}

impl TransmissionCodeSets {
    /// What GIOP prescribes when no code sets were negotiated: ISO 8859-1
    /// for `char` and no `wchar` code set at all (CORBA 3.x §13.10.2.6:
    /// there is no default for `wchar`).
    pub const UNNEGOTIATED: TransmissionCodeSets = TransmissionCodeSets {
        char_data: CodeSetId::ISO_8859_1,
        wchar_data: CodeSetId::NONE,
    };
}

impl Default for TransmissionCodeSets {
    fn default() -> Self {
        TransmissionCodeSets::DEFAULT
    }
}

/// Encodes one `char` as the single octet the code set gives it.
pub fn encode_char(cs: CodeSetId, c: char) -> Result<u8> {
    let v = c as u32;
    let ok = match cs {
        CodeSetId::ISO_8859_1 => v <= 0xff,
        CodeSetId::UTF_8 | CodeSetId::ISO_646 => v <= 0x7f,
        other => return Err(CdrError::UnsupportedCodeSet(other.0)),
    };
    if ok {
        Ok(v as u8)
    } else {
        Err(CdrError::BadCharacter { codeset: cs.0 })
    }
}

/// Decodes one `char` octet in the code set.
pub fn decode_char(cs: CodeSetId, b: u8) -> Result<char> {
    match cs {
        CodeSetId::ISO_8859_1 => Ok(b as char),
        CodeSetId::UTF_8 | CodeSetId::ISO_646 if b <= 0x7f => Ok(b as char),
        CodeSetId::UTF_8 | CodeSetId::ISO_646 => Err(CdrError::BadCharacter { codeset: cs.0 }),
        other => Err(CdrError::UnsupportedCodeSet(other.0)),
    }
}

/// One half of a `TAG_CODE_SETS` component: a native code set and the
/// code sets it can convert to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CodeSetComponent {
    /// The native code set.
    pub native_code_set: CodeSetId,
    /// Conversion code sets, in order of preference.
    pub conversion_code_sets: Vec<CodeSetId>,
}

/// The body of the `TAG_CODE_SETS` IOR component (`CONV_FRAME::
/// CodeSetComponentInfo`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CodeSetComponentInfo {
    /// Code sets for `char` data.
    pub for_char_data: CodeSetComponent,
    /// Code sets for `wchar` data.
    pub for_wchar_data: CodeSetComponent,
}

impl CodeSetComponentInfo {
    /// What rtorb advertises by default: UTF-8 native for `char`
    /// converting to ISO 8859-1, UTF-16 native for `wchar` converting to
    /// UCS-2.
    pub fn rtorb_default() -> CodeSetComponentInfo {
        CodeSetComponentInfo::with_natives(CodeSetId::UTF_8, CodeSetId::UTF_16)
    }

    /// What an rtorb ORB with these native code sets advertises: each
    /// native code set, converting to the other code sets rtorb converts
    /// for its kind of data ([`CHAR_CODE_SETS`], [`WCHAR_CODE_SETS`]).
    pub fn with_natives(char_native: CodeSetId, wchar_native: CodeSetId) -> CodeSetComponentInfo {
        let others =
            |all: &[CodeSetId], native| all.iter().copied().filter(|cs| *cs != native).collect();
        CodeSetComponentInfo {
            for_char_data: CodeSetComponent {
                native_code_set: char_native,
                conversion_code_sets: others(&CHAR_CODE_SETS, char_native),
            },
            for_wchar_data: CodeSetComponent {
                native_code_set: wchar_native,
                conversion_code_sets: others(&WCHAR_CODE_SETS, wchar_native),
            },
        }
    }
}

/// The body of the `CodeSets` service context (`CONV_FRAME::
/// CodeSetContext`): the transmission code sets a client chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CodeSetContext {
    /// Transmission code set for `char` data.
    pub char_data: CodeSetId,
    /// Transmission code set for `wchar` data.
    pub wchar_data: CodeSetId,
}

impl From<CodeSetContext> for TransmissionCodeSets {
    fn from(c: CodeSetContext) -> Self {
        TransmissionCodeSets {
            char_data: c.char_data,
            wchar_data: c.wchar_data,
        }
    }
}

impl From<TransmissionCodeSets> for CodeSetContext {
    fn from(t: TransmissionCodeSets) -> Self {
        CodeSetContext {
            char_data: t.char_data,
            wchar_data: t.wchar_data,
        }
    }
}

/// Why code set negotiation found no transmission code set
/// (`CODESET_INCOMPATIBLE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("no common code set: client native {client:#010x}, server native {server:#010x}")]
pub struct CodeSetIncompatible {
    /// The client's native code set.
    pub client: u32,
    /// The server's native code set.
    pub server: u32,
}

/// Chooses one transmission code set as CORBA 3.x §13.10.2.6 prescribes:
/// the client's native code set if the server's native set equals it or the
/// server converts to it; else the server's native set if the client
/// converts to it; else the first of the client's conversion sets the
/// server also converts to; else `fallback` (UTF-8 for `char`, UTF-16 for
/// `wchar`) when both sides support it.
pub fn negotiate_one(
    client: &CodeSetComponent,
    server: &CodeSetComponent,
    fallback: CodeSetId,
    supported: impl Fn(CodeSetId) -> bool,
) -> std::result::Result<CodeSetId, CodeSetIncompatible> {
    let c = client.native_code_set;
    let s = server.native_code_set;
    if c == s || server.conversion_code_sets.contains(&c) {
        return Ok(c);
    }
    if client.conversion_code_sets.contains(&s) {
        return Ok(s);
    }
    if let Some(common) = client
        .conversion_code_sets
        .iter()
        .find(|cs| server.conversion_code_sets.contains(cs))
    {
        return Ok(*common);
    }
    let server_has_fallback = s == fallback || server.conversion_code_sets.contains(&fallback);
    if supported(fallback) && server_has_fallback {
        return Ok(fallback);
    }
    Err(CodeSetIncompatible {
        client: c.0,
        server: s.0,
    })
}

/// Negotiates both transmission code sets between a client's code set
/// information and the `TAG_CODE_SETS` component of a server's IOR.
pub fn negotiate(
    client: &CodeSetComponentInfo,
    server: &CodeSetComponentInfo,
) -> std::result::Result<TransmissionCodeSets, CodeSetIncompatible> {
    Ok(TransmissionCodeSets {
        char_data: negotiate_one(
            &client.for_char_data,
            &server.for_char_data,
            CodeSetId::UTF_8,
            CodeSetId::is_char_supported,
        )?,
        wchar_data: negotiate_one(
            &client.for_wchar_data,
            &server.for_wchar_data,
            CodeSetId::UTF_16,
            CodeSetId::is_wchar_supported,
        )?,
    })
}
