//! Byte order and the encoding parameters shared by encoder and decoder.

use crate::codeset::TransmissionCodeSets;
use crate::error::{CdrError, Result};

/// The byte order of a CDR stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ByteOrder {
    /// Most significant byte first (flag value 0).
    Big,
    /// Least significant byte first (flag value 1).
    Little,
}

impl ByteOrder {
    /// The byte order of the machine rtorb runs on.
    #[cfg(target_endian = "little")]
    pub const NATIVE: ByteOrder = ByteOrder::Little;
    /// The byte order of the machine rtorb runs on.
    #[cfg(target_endian = "big")]
    pub const NATIVE: ByteOrder = ByteOrder::Big;

    /// The byte-order flag as GIOP headers and encapsulations carry it
    /// (0 big-endian, 1 little-endian).
    pub fn flag(self) -> u8 {
        match self {
            ByteOrder::Big => 0,
            ByteOrder::Little => 1,
        }
    }

    /// The byte order a flag octet names; only 0 and 1 are valid.
    pub fn from_flag(flag: u8) -> Result<ByteOrder> {
        match flag {
            0 => Ok(ByteOrder::Big),
            1 => Ok(ByteOrder::Little),
            other => Err(CdrError::InvalidByteOrder(other)),
        }
    }

    /// Whether this is the machine's own order.
    pub fn is_native(self) -> bool {
        self == ByteOrder::NATIVE
    }
}

/// A GIOP protocol version, `major.minor`.
///
/// CDR depends on it for alignment of GIOP 1.2 bodies and for the encoding of
/// `wchar` and `wstring`, which differs between 1.0, 1.1 and 1.2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    /// Major version (1 for every GIOP version rtorb speaks).
    pub major: u8,
    /// Minor version.
    pub minor: u8,
}

impl Version {
    /// GIOP 1.0.
    pub const V1_0: Version = Version { major: 1, minor: 0 };
    /// GIOP 1.1.
    pub const V1_1: Version = Version { major: 1, minor: 1 };
    /// GIOP 1.2.
    pub const V1_2: Version = Version { major: 1, minor: 2 };

    /// A version from its two numbers.
    pub const fn new(major: u8, minor: u8) -> Version {
        Version { major, minor }
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// Everything besides the bytes that decides how values are laid out:
/// byte order, the GIOP version (for `wchar` rules) and the negotiated
/// transmission code sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Encoding {
    /// Byte order of the stream.
    pub order: ByteOrder,
    /// The GIOP version whose rules apply.
    pub version: Version,
    /// Transmission code sets for `char` and `wchar` data.
    pub codesets: TransmissionCodeSets,
    /// The octet an encoder writes into alignment gaps: 0, as every ORB
    /// expects to see, unless a test wants to find where the gaps are (by
    /// encoding twice with different fills). Decoders ignore padding.
    pub padding: u8,
}

impl Encoding {
    /// Native byte order, GIOP 1.2 and the default code sets.
    pub const fn native() -> Encoding {
        Encoding {
            order: ByteOrder::NATIVE,
            version: Version::V1_2,
            codesets: TransmissionCodeSets::DEFAULT,
            padding: 0,
        }
    }

    /// The same encoding with another byte order.
    pub const fn with_order(mut self, order: ByteOrder) -> Encoding {
        self.order = order;
        self
    }

    /// The same encoding with another GIOP version.
    pub const fn with_version(mut self, version: Version) -> Encoding {
        self.version = version;
        self
    }

    /// The same encoding with another octet for alignment gaps.
    pub const fn with_padding(mut self, padding: u8) -> Encoding {
        self.padding = padding;
        self
    }

    /// The same encoding with other transmission code sets.
    pub const fn with_codesets(mut self, codesets: TransmissionCodeSets) -> Encoding {
        self.codesets = codesets;
        self
    }
}

impl Default for Encoding {
    fn default() -> Self {
        Encoding::native()
    }
}
