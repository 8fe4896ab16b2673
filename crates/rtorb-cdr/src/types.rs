//! IDL types that have no exact Rust primitive: `long double`, `fixed`,
//! and the raw form of an object reference.

use bytes::Bytes;

use crate::error::{CdrError, Result};
use crate::order::ByteOrder;

/// An IDL `long double`: 16 octets in IEEE 754 binary128 layout, carried
/// intact. Rust has no 128-bit float, so rtorb never computes with it; it
/// keeps the octets in big-endian order and converts only the byte order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct LongDouble(pub [u8; 16]);

impl LongDouble {
    /// The value from 16 octets in the given byte order.
    pub fn from_order(mut bytes: [u8; 16], order: ByteOrder) -> LongDouble {
        if order == ByteOrder::Little {
            bytes.reverse();
        }
        LongDouble(bytes)
    }

    /// The 16 octets in the given byte order.
    pub fn to_order(&self, order: ByteOrder) -> [u8; 16] {
        let mut bytes = self.0;
        if order == ByteOrder::Little {
            bytes.reverse();
        }
        bytes
    }

    /// The value as an `f64`, the fraction truncated to 52 bits (exact for
    /// every value that came from an `f64`).
    pub fn to_f64(&self) -> f64 {
        let word = u128::from_be_bytes(self.0);
        let sign = ((word >> 127) as u64) << 63;
        let exp = ((word >> 112) & 0x7fff) as i32;
        // The top 52 bits of the 112-bit fraction.
        let frac = ((word >> 60) as u64) & ((1u64 << 52) - 1);
        let bits = match exp {
            0x7fff if frac == 0 => 0x7ffu64 << 52,
            0x7fff => (0x7ffu64 << 52) | frac | 1,
            0 => 0,
            _ => {
                let e = exp - 16383;
                if e > 1023 {
                    0x7ffu64 << 52
                } else if e >= -1022 {
                    (((e + 1023) as u64) << 52) | frac
                } else if e >= -1074 {
                    // Subnormal f64: shift the implicit bit into the fraction.
                    ((1u64 << 52) | frac) >> (-1022 - e)
                } else {
                    0
                }
            }
        };
        f64::from_bits(sign | bits)
    }

    /// The binary128 value nearest to an `f64` (exact: every `f64` is one).
    pub fn from_f64(v: f64) -> LongDouble {
        let bits = v.to_bits();
        let sign = (bits >> 63) as u8;
        let exp = ((bits >> 52) & 0x7ff) as u32;
        let frac = bits & ((1u64 << 52) - 1);
        let mut out = [0u8; 16];
        let (e128, f128): (u32, u128) = if exp == 0 && frac == 0 {
            (0, 0)
        } else if exp == 0x7ff {
            (0x7fff, (frac as u128) << 60)
        } else if exp == 0 {
            // Subnormal f64: normalise.
            let shift = frac.leading_zeros() - 11;
            let f = (frac << shift) & ((1u64 << 52) - 1);
            ((1 - 1023 - shift as i32 + 16383) as u32, (f as u128) << 60)
        } else {
            (exp + 16383 - 1023, (frac as u128) << 60)
        };
        let word: u128 = ((sign as u128) << 127) | ((e128 as u128) << 112) | f128;
        out.copy_from_slice(&word.to_be_bytes());
        LongDouble(out)
    }
}

/// The most digits an IDL `fixed` may have.
pub const FIXED_MAX_DIGITS: u16 = 31;

/// An IDL `fixed<digits, scale>` decimal: up to 31 decimal digits, `scale`
/// of them after the decimal point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fixed {
    negative: bool,
    digits: u16,
    scale: i16,
    /// Decimal digits, most significant first; only `digits` are used.
    value: [u8; FIXED_MAX_DIGITS as usize],
}

impl Fixed {
    /// Octets a `fixed` of `digits` digits occupies on the wire.
    pub fn wire_len(digits: u16) -> usize {
        (digits as usize + 2) / 2
    }

    /// A fixed value from its digits (most significant first), scale and
    /// sign.
    pub fn new(negative: bool, digits: &[u8], scale: i16) -> Result<Fixed> {
        if digits.len() > FIXED_MAX_DIGITS as usize {
            return Err(CdrError::MalformedFixed("more than 31 digits"));
        }
        if digits.iter().any(|d| *d > 9) {
            return Err(CdrError::MalformedFixed("digit out of range"));
        }
        if scale < 0 || scale as usize > digits.len() {
            return Err(CdrError::MalformedFixed("scale out of range"));
        }
        let mut value = [0u8; FIXED_MAX_DIGITS as usize];
        value[..digits.len()].copy_from_slice(digits);
        Ok(Fixed {
            negative,
            digits: digits.len() as u16,
            scale,
            value,
        })
    }

    /// Total digits.
    pub fn digits(&self) -> u16 {
        self.digits
    }

    /// Digits after the decimal point.
    pub fn scale(&self) -> i16 {
        self.scale
    }

    /// Whether the value is negative.
    pub fn is_negative(&self) -> bool {
        self.negative
    }

    /// The digits, most significant first.
    pub fn digit_values(&self) -> &[u8] {
        &self.value[..self.digits as usize]
    }

    /// The packed-decimal octets of the wire: two digits an octet, most
    /// significant first, a leading zero half-octet when the digit count is
    /// even, and the sign in the last half-octet (0xC plus, 0xD minus).
    pub fn to_bcd(&self) -> Vec<u8> {
        let n = Fixed::wire_len(self.digits);
        let mut nibbles = Vec::with_capacity(n * 2);
        if self.digits % 2 == 0 {
            nibbles.push(0);
        }
        nibbles.extend_from_slice(self.digit_values());
        nibbles.push(if self.negative { 0xd } else { 0xc });
        nibbles.chunks(2).map(|p| (p[0] << 4) | p[1]).collect()
    }

    /// Parses packed-decimal octets of a `fixed<digits, scale>`.
    pub fn from_bcd(raw: &[u8], digits: u16, scale: i16) -> Result<Fixed> {
        if digits > FIXED_MAX_DIGITS {
            return Err(CdrError::MalformedFixed("more than 31 digits"));
        }
        if raw.len() != Fixed::wire_len(digits) {
            return Err(CdrError::MalformedFixed("wrong octet count"));
        }
        let mut nibbles = Vec::with_capacity(raw.len() * 2);
        for b in raw {
            nibbles.push(b >> 4);
            nibbles.push(b & 0xf);
        }
        let sign = nibbles.pop().unwrap_or(0xc);
        let negative = match sign {
            0xd => true,
            0xc | 0xf => false,
            _ => return Err(CdrError::MalformedFixed("bad sign half-octet")),
        };
        let skip = nibbles.len() - digits as usize;
        if nibbles[..skip].iter().any(|n| *n != 0) {
            return Err(CdrError::MalformedFixed("nonzero pad half-octet"));
        }
        Fixed::new(negative, &nibbles[skip..], scale)
    }
}

impl std::fmt::Display for Fixed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let d = self.digit_values();
        let int_len = d.len() - self.scale as usize;
        if self.negative {
            f.write_str("-")?;
        }
        if int_len == 0 {
            f.write_str("0")?;
        }
        for x in &d[..int_len] {
            write!(f, "{x}")?;
        }
        if self.scale > 0 {
            f.write_str(".")?;
            for x in &d[int_len..] {
                write!(f, "{x}")?;
            }
        }
        Ok(())
    }
}

impl std::str::FromStr for Fixed {
    type Err = CdrError;

    /// Parses `[-]digits[.digits][d|D]`, the IDL fixed literal form.
    fn from_str(s: &str) -> Result<Fixed> {
        let s = s.trim();
        let s = s.strip_suffix(['d', 'D']).unwrap_or(s);
        let (negative, s) = match s.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, s.strip_prefix('+').unwrap_or(s)),
        };
        let (int, frac) = s.split_once('.').unwrap_or((s, ""));
        if int.is_empty() && frac.is_empty() {
            return Err(CdrError::MalformedFixed("no digits"));
        }
        let mut digits = Vec::new();
        for c in int.chars().chain(frac.chars()) {
            let d = c
                .to_digit(10)
                .ok_or(CdrError::MalformedFixed("not a decimal digit"))?;
            digits.push(d as u8);
        }
        // Drop leading zeros of the integer part.
        let lead = digits
            .iter()
            .take(int.len())
            .take_while(|d| **d == 0)
            .count();
        Fixed::new(negative, &digits[lead..], frac.len() as i16)
    }
}

/// A tagged profile of an object reference, undecoded: its tag and the
/// octets of its body (usually an encapsulation).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TaggedProfile {
    /// The profile id (`TAG_INTERNET_IOP` = 0, `TAG_MULTIPLE_COMPONENTS` =
    /// 1, ...).
    pub tag: u32,
    /// The profile body as it was on the wire.
    pub data: Bytes,
}

/// An object reference as CDR carries it: an Interoperable Object Reference
/// (IOR) with a repository type id and a list of tagged profiles.
///
/// This is the presentation-layer form. `rtorb-giop` interprets the
/// profiles (IIOP addresses, object keys, tagged components). A nil
/// reference has an empty type id and no profiles.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Ior {
    /// The most derived repository id known when the reference was made.
    pub type_id: String,
    /// The profiles, in the order they were sent.
    pub profiles: Vec<TaggedProfile>,
}

impl Ior {
    /// The nil object reference.
    pub fn nil() -> Ior {
        Ior::default()
    }

    /// Whether this is the nil reference.
    pub fn is_nil(&self) -> bool {
        self.type_id.is_empty() && self.profiles.is_empty()
    }
}
