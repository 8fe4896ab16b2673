//! Any: a value of any IDL type with its TypeCode.
//!
//! Every Rust type of an IDL type goes in and out the same way, through
//! [`AnyValue`]: primitives, strings, sequences, arrays, and every type
//! `rtorb-idl` generates (structs, unions, enums, exceptions, valuetypes
//! and value boxes): [`Any::new`] and [`Any::get`]. A value of the wrong
//! type is [`CdrError::TypeMismatch`].
//!
//! ```
//! use rtorb_cdr::{Any, CdrError};
//!
//! let any = Any::new(&vec![1i32, 2, 3]).unwrap();
//! assert_eq!(any.get::<Vec<i32>>().unwrap(), [1, 2, 3]);
//! assert!(matches!(any.get::<String>(), Err(CdrError::TypeMismatch(_))));
//! ```
//!
//! An [`Any`] read from a message keeps its value *encoded*: a slice of the
//! message buffer (reference-counted, never copied) with the encoding it
//! was written in. Decoding happens only when the value is asked for, and
//! an Any passed on unchanged to a stream with the same encoding and
//! alignment is written out by copying those octets, without decoding.
//!
//! ```
//! use rtorb_cdr::{Any, CdrDecode, CdrEncode, Decoder, Encoder, Encoding};
//!
//! let mut e = Encoder::new(Encoding::native());
//! Any::from(42i32).encode(&mut e).unwrap();
//! let mut d = Decoder::new(e.into_bytes(), Encoding::native());
//! let any = Any::decode(&mut d).unwrap();
//! assert!(any.is_encoded());
//! assert_eq!(any.get::<i32>().unwrap(), 42);
//! ```

use bytes::Bytes;

use crate::codeset::{CodeSetId, TransmissionCodeSets};
use crate::decoder::Decoder;
use crate::dynamic::{AnyContent, TypeCode, Value};
use crate::encoder::Encoder;
use crate::error::{CdrError, Result};
use crate::order::Encoding;
use crate::traits::{CdrDecode, CdrEncode};
use crate::value::skip::skip;
use crate::valuetype::read::reading_value;
use crate::valuetype::write::writing_value;

pub use crate::any_value::{AnyValue, IdlType};
pub use crate::dynamic::Any;

impl Any {
    /// An Any holding `value` of type `tc`. The value is checked against
    /// the TypeCode when the Any is encoded.
    pub fn from_value(tc: TypeCode, value: Value) -> Any {
        Any {
            tc,
            content: AnyContent::Decoded(value),
        }
    }

    /// An Any holding a copy of `value`, with its type's TypeCode: the one
    /// way in for every type ([`AnyValue`]).
    pub fn new<T: AnyValue>(value: &T) -> Result<Any> {
        value.to_any()
    }

    /// An Any of type `tc` holding `value` encoded, for implementations of
    /// [`AnyValue::to_any`]. The octets are checked against `tc`: a value
    /// that does not fit it is [`CdrError::TypeMismatch`] or the decoding
    /// error. `char` and `wchar` data are held as UTF-8 and UTF-16, which
    /// carry any Rust text; an Any is converted to a connection's code
    /// sets when it is sent.
    pub fn from_cdr<T: CdrEncode + ?Sized>(tc: TypeCode, value: &T) -> Result<Any> {
        let encoding = held_encoding();
        let mut e = Encoder::new(encoding);
        value.encode(&mut e)?;
        let data = e.into_bytes();
        let mut check = Decoder::new(data.clone(), encoding);
        skip(&tc, &mut check)?;
        if check.remaining() != 0 {
            return Err(CdrError::TypeMismatch("value longer than its TypeCode"));
        }
        Ok(Any {
            tc,
            content: AnyContent::Encoded {
                data,
                pad: 0,
                encoding,
            },
        })
    }

    /// The value decoded as `T` from the octets of the Any, whatever its
    /// TypeCode, for implementations of [`AnyValue::from_any`]; [`get`]
    /// checks the TypeCode first.
    ///
    /// [`get`]: Any::get
    pub fn decode_cdr<T: CdrDecode>(&self) -> Result<T> {
        match &self.content {
            AnyContent::Encoded {
                data,
                pad,
                encoding,
            } => {
                let mut d = Decoder::with_position(data.clone(), 0, *pad, *encoding);
                T::decode(&mut d)
            }
            AnyContent::Decoded(v) => {
                let encoding = held_encoding();
                let mut e = Encoder::new(encoding);
                v.encode(&self.tc, &mut e)?;
                let mut d = Decoder::new(e.into_bytes(), encoding);
                T::decode(&mut d)
            }
        }
    }

    /// An Any of type `tk_null` (the value of a default-constructed CORBA
    /// `any`).
    pub fn null() -> Any {
        Any::from_value(TypeCode::null(), Value::Null)
    }

    /// The TypeCode of the value.
    pub fn type_code(&self) -> &TypeCode {
        &self.tc
    }

    /// Whether the value is still held encoded.
    pub fn is_encoded(&self) -> bool {
        matches!(self.content, AnyContent::Encoded { .. })
    }

    /// The encoded octets of the value and the encoding they are in, if it
    /// is held encoded.
    pub fn encoded(&self) -> Option<(Bytes, Encoding)> {
        match &self.content {
            AnyContent::Encoded {
                data,
                pad,
                encoding,
            } => Some((data.slice(*pad..), *encoding)),
            AnyContent::Decoded(_) => None,
        }
    }

    /// The value, decoded now if it is held encoded.
    pub fn value(&self) -> Result<Value> {
        match &self.content {
            AnyContent::Decoded(v) => Ok(v.clone()),
            AnyContent::Encoded {
                data,
                pad,
                encoding,
            } => {
                let mut d = Decoder::with_position(data.clone(), 0, *pad, *encoding);
                Value::decode(&self.tc, &mut d)
            }
        }
    }

    /// The value, consuming the Any.
    pub fn into_value(self) -> Result<Value> {
        match self.content {
            AnyContent::Decoded(v) => Ok(v),
            AnyContent::Encoded { .. } => self.value(),
        }
    }

    /// Decodes the value in place, so later reads need not decode again.
    pub fn make_decoded(&mut self) -> Result<()> {
        if self.is_encoded() {
            self.content = AnyContent::Decoded(self.value()?);
        }
        Ok(())
    }

    /// The value as the Rust type `T`, if the Any's type is equivalent to
    /// `T`'s ([`CdrError::TypeMismatch`] otherwise): the one way out for
    /// every type ([`AnyValue`]).
    pub fn get<T: AnyValue>(&self) -> Result<T> {
        if !self.tc.equivalent(&T::type_code()) {
            return Err(CdrError::TypeMismatch("any holds another type"));
        }
        T::from_any(self)
    }

    /// Stores a copy of a Rust value, replacing the TypeCode by `T`'s; on
    /// an error the Any is unchanged.
    pub fn set<T: AnyValue>(&mut self, v: &T) -> Result<()> {
        *self = v.to_any()?;
        Ok(())
    }
}

/// The encoding of the values [`Any::from_cdr`] holds: UTF-8 for `char`
/// data and UTF-16 for `wchar` data, which carry any Rust text (the
/// default ISO 8859-1 would refuse text outside Latin-1).
fn held_encoding() -> Encoding {
    Encoding::native().with_codesets(TransmissionCodeSets {
        char_data: CodeSetId::UTF_8,
        wchar_data: CodeSetId::UTF_16,
    })
}

/// Reads an Any: its TypeCode, then steps over the value, checking it,
/// and keeps the octets as a slice of the input without building the
/// value. Each Any counts as one level of nesting.
impl CdrDecode for Any {
    const MIN_WIRE_SIZE: usize = 4;

    fn decode(dec: &mut Decoder) -> Result<Any> {
        dec.enter()?;
        let r = decode_any(dec);
        dec.leave();
        r
    }
}

fn decode_any(dec: &mut Decoder) -> Result<Any> {
    let tc = TypeCode::decode(dec)?;
    if reading_value(dec) {
        // Inside a value, the octets of the Any may hold chunk headers and
        // end tags of the enclosing value: decode it now, in this stream.
        let v = Value::decode(&tc, dec)?;
        return Ok(Any::from_value(tc, v));
    }
    let pad = dec.position() % 8;
    let start = dec.offset();
    skip(&tc, dec)?;
    let end = dec.offset();
    if dec.realigns_within(start, end) {
        // The value spans a place where the stream's alignment changes (a
        // GIOP 1.1 fragment boundary): its octets cannot be kept as they
        // are, so read it now, with the stream's alignment.
        let mut again = dec.clone();
        again.seek(start)?;
        let v = Value::decode(&tc, &mut again)?;
        return Ok(Any::from_value(tc, v));
    }
    let from = start
        .checked_sub(pad)
        .ok_or(CdrError::Unsupported("any value before the stream origin"))?;
    Ok(Any {
        tc,
        content: AnyContent::Encoded {
            data: dec.buffer().slice(from..end),
            pad,
            encoding: dec.encoding(),
        },
    })
}

/// Writes the TypeCode and the value. An encoded value is copied as it is
/// when the stream has the same encoding and the same alignment modulo 8
/// and is not inside a valuetype (whose chunks and nesting levels the copy
/// would not follow); otherwise it is decoded and encoded again.
impl CdrEncode for Any {
    fn encode(&self, enc: &mut Encoder) -> Result<()> {
        self.tc.encode(enc)?;
        match &self.content {
            AnyContent::Encoded {
                data,
                pad,
                encoding,
            } if *encoding == enc.encoding()
                && enc.position() % 8 == *pad
                && !writing_value(enc) =>
            {
                enc.write_bytes(&data.slice(*pad..));
                Ok(())
            }
            AnyContent::Encoded { .. } => self.value()?.encode(&self.tc, enc),
            AnyContent::Decoded(v) => v.encode(&self.tc, enc),
        }
    }
}

impl PartialEq for Any {
    fn eq(&self, other: &Any) -> bool {
        if !self.tc.equal(&other.tc) {
            return false;
        }
        if let (
            AnyContent::Encoded {
                data: a,
                pad: pa,
                encoding: ea,
            },
            AnyContent::Encoded {
                data: b,
                pad: pb,
                encoding: eb,
            },
        ) = (&self.content, &other.content)
            && ea == eb
            && pa == pb
            && a == b
        {
            return true;
        }
        match (self.value(), other.value()) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        }
    }
}
