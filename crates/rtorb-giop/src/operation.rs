//! Operation names, carried without allocation.

use std::fmt;

use bytes::Bytes;
use rtorb_cdr::{CdrError, Decoder, Encoder};

/// The name of the operation a request invokes (`cube_long`, or
/// `_get_x`/`_set_x` for attributes, `_is_a`, `_non_existent`, ...).
///
/// It costs no allocation on the hot path: a name given as a `&'static
/// str` is referenced, and a name decoded from a request is a slice of the
/// message buffer. Names are IDL identifiers, so they are ASCII; anything
/// else that arrives is converted from ISO 8859-1 into an owned copy.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Operation(Bytes);

impl Operation {
    /// A name that lives for the whole program (no allocation).
    pub const fn from_static(name: &'static str) -> Operation {
        Operation(Bytes::from_static(name.as_bytes()))
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        // The bytes are UTF-8 by construction; the empty fallback is never
        // taken.
        std::str::from_utf8(&self.0).unwrap_or_default()
    }

    /// The name's octets.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// Writes the name as a CDR `string` (ISO 8859-1, as GIOP headers are).
    pub fn encode(&self, e: &mut Encoder) -> Result<(), CdrError> {
        if self.0.is_ascii() {
            e.write_len(self.0.len() + 1)?;
            e.write_raw(&self.0);
            e.write_u8(0);
            return Ok(());
        }
        let name = self.as_str();
        if name.contains('\0') {
            return Err(CdrError::MalformedString("embedded NUL"));
        }
        e.write_len(name.chars().count() + 1)?;
        for c in name.chars() {
            let b = u8::try_from(u32::from(c)).map_err(|_| CdrError::BadCharacter {
                codeset: rtorb_cdr::CodeSetId::ISO_8859_1.0,
            })?;
            e.write_u8(b);
        }
        e.write_u8(0);
        Ok(())
    }

    /// Reads a CDR `string` as an operation name, without copying it when
    /// it is ASCII.
    pub fn decode(d: &mut Decoder) -> Result<Operation, CdrError> {
        let len = d.read_len(1)?;
        if len == 0 {
            return Err(CdrError::MalformedString(
                "zero length (no terminating NUL)",
            ));
        }
        let raw = d.read_bytes(len)?;
        let (body, nul) = raw.split_at(len - 1);
        if nul != [0] {
            return Err(CdrError::MalformedString("not terminated by NUL"));
        }
        if body.contains(&0) {
            return Err(CdrError::MalformedString("embedded NUL"));
        }
        if body.is_ascii() {
            return Ok(Operation(raw.slice(..len - 1)));
        }
        let latin1: String = body.iter().map(|&b| b as char).collect();
        Ok(Operation(Bytes::from(latin1)))
    }
}

impl Default for Operation {
    fn default() -> Self {
        Operation::from_static("")
    }
}

impl From<&'static str> for Operation {
    fn from(s: &'static str) -> Self {
        Operation::from_static(s)
    }
}

impl From<String> for Operation {
    fn from(s: String) -> Self {
        Operation(Bytes::from(s))
    }
}

impl AsRef<str> for Operation {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl std::ops::Deref for Operation {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq<str> for Operation {
    fn eq(&self, other: &str) -> bool {
        self.0 == other.as_bytes()
    }
}

impl PartialEq<&str> for Operation {
    fn eq(&self, other: &&str) -> bool {
        self.0 == other.as_bytes()
    }
}

impl PartialEq<Operation> for &str {
    fn eq(&self, other: &Operation) -> bool {
        other == self
    }
}

impl fmt::Debug for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rtorb_cdr::Encoding;

    #[test]
    fn decoded_ascii_name_is_a_slice_of_the_message() {
        let mut e = Encoder::new(Encoding::native());
        Operation::from_static("cube_long").encode(&mut e).unwrap();
        let bytes = e.into_bytes();
        let mut d = Decoder::new(bytes.clone(), Encoding::native());
        let op = Operation::decode(&mut d).unwrap();
        assert_eq!(op, "cube_long");
        assert_eq!(op.as_bytes().as_ptr(), bytes[4..].as_ptr());
        assert!(d.is_empty());
    }

    #[test]
    fn latin1_name_is_converted_both_ways() {
        let bytes = Bytes::from_static(&[3, 0, 0, 0, b'a', 0xe9, 0]);
        let enc = Encoding::native().with_order(rtorb_cdr::ByteOrder::Little);
        let op = Operation::decode(&mut Decoder::new(bytes.clone(), enc)).unwrap();
        assert_eq!(op, "aé");
        let mut e = Encoder::new(enc);
        op.encode(&mut e).unwrap();
        assert_eq!(e.into_bytes(), bytes);
        let mut e = Encoder::new(enc);
        assert_eq!(
            Operation::from("€".to_owned()).encode(&mut e),
            Err(CdrError::BadCharacter {
                codeset: rtorb_cdr::CodeSetId::ISO_8859_1.0
            })
        );
    }

    #[test]
    fn malformed_names_are_errors() {
        let enc = Encoding::native().with_order(rtorb_cdr::ByteOrder::Big);
        let cases: [(&[u8], CdrError); 4] = [
            (
                &[0, 0, 0, 0],
                CdrError::MalformedString("zero length (no terminating NUL)"),
            ),
            (
                &[0, 0, 0, 2, b'a', b'b'],
                CdrError::MalformedString("not terminated by NUL"),
            ),
            (
                &[0, 0, 0, 3, b'a', 0, 0],
                CdrError::MalformedString("embedded NUL"),
            ),
            (
                &[0, 0, 0, 9, b'a'],
                CdrError::LengthTooLarge {
                    length: 9,
                    remaining: 1,
                },
            ),
        ];
        for (raw, expected) in cases {
            let r = Operation::decode(&mut Decoder::new(Bytes::copy_from_slice(raw), enc));
            assert_eq!(r, Err(expected), "{raw:?}");
        }
    }
}
