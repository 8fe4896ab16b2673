//! Any: a value of any IDL type with its TypeCode.
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

use crate::decoder::Decoder;
use crate::encoder::Encoder;
use crate::error::{CdrError, Result};
use crate::order::Encoding;
use crate::traits::{CdrDecode, CdrEncode};
use crate::typecode::TypeCode;
use crate::types::LongDouble;
use crate::value::{self, Value};

#[derive(Debug, Clone)]
enum Content {
    /// The value's octets, preceded by `pad` octets so that `data[pad]`
    /// has the same alignment modulo 8 as in the stream it came from.
    Encoded {
        data: Bytes,
        pad: usize,
        encoding: Encoding,
    },
    Decoded(Value),
}

/// A value of any IDL type together with its TypeCode.
///
/// Two Anys are equal when their TypeCodes are equal and their values
/// decode to equal [`Value`]s.
#[derive(Debug, Clone)]
pub struct Any {
    tc: TypeCode,
    content: Content,
}

impl Any {
    /// An Any holding `value` of type `tc`. The value is checked against
    /// the TypeCode when the Any is encoded.
    pub fn from_value(tc: TypeCode, value: Value) -> Any {
        Any {
            tc,
            content: Content::Decoded(value),
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
        matches!(self.content, Content::Encoded { .. })
    }

    /// The encoded octets of the value and the encoding they are in, if it
    /// is held encoded.
    pub fn encoded(&self) -> Option<(Bytes, Encoding)> {
        match &self.content {
            Content::Encoded {
                data,
                pad,
                encoding,
            } => Some((data.slice(*pad..), *encoding)),
            Content::Decoded(_) => None,
        }
    }

    /// The value, decoded now if it is held encoded.
    pub fn value(&self) -> Result<Value> {
        match &self.content {
            Content::Decoded(v) => Ok(v.clone()),
            Content::Encoded {
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
            Content::Decoded(v) => Ok(v),
            Content::Encoded { .. } => self.value(),
        }
    }

    /// Decodes the value in place, so later reads need not decode again.
    pub fn make_decoded(&mut self) -> Result<()> {
        if self.is_encoded() {
            self.content = Content::Decoded(self.value()?);
        }
        Ok(())
    }

    /// The value as the Rust type `T`, if the Any's type is equivalent to
    /// `T`'s ([`CdrError::TypeMismatch`] otherwise).
    pub fn get<T: AnyValue>(&self) -> Result<T> {
        if !self.tc.equivalent(&T::type_code()) {
            return Err(CdrError::TypeMismatch("any holds another type"));
        }
        T::from_value(self.value()?).ok_or(CdrError::TypeMismatch("any holds another type"))
    }

    /// Stores a Rust value, replacing the TypeCode by `T`'s.
    pub fn set<T: AnyValue>(&mut self, v: T) {
        *self = Any::from_value(T::type_code(), v.into_value());
    }
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
    if crate::valuetype::reading_value(dec) {
        // Inside a value, the octets of the Any may hold chunk headers and
        // end tags of the enclosing value: decode it now, in this stream.
        let v = Value::decode(&tc, dec)?;
        return Ok(Any::from_value(tc, v));
    }
    let pad = dec.position() % 8;
    let start = dec.offset();
    value::skip(&tc, dec)?;
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
        content: Content::Encoded {
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
            Content::Encoded {
                data,
                pad,
                encoding,
            } if *encoding == enc.encoding()
                && enc.position() % 8 == *pad
                && !crate::valuetype::writing_value(enc) =>
            {
                enc.write_bytes(&data.slice(*pad..));
                Ok(())
            }
            Content::Encoded { .. } => self.value()?.encode(&self.tc, enc),
            Content::Decoded(v) => v.encode(&self.tc, enc),
        }
    }
}

impl PartialEq for Any {
    fn eq(&self, other: &Any) -> bool {
        if !self.tc.equal(&other.tc) {
            return false;
        }
        if let (
            Content::Encoded {
                data: a,
                pad: pa,
                encoding: ea,
            },
            Content::Encoded {
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

/// Rust types that map an IDL type directly, for inserting into and
/// extracting from an [`Any`] (`Any::from(5i32)`, `any.get::<i32>()`).
pub trait AnyValue: Sized {
    /// The TypeCode of the IDL type.
    fn type_code() -> TypeCode;
    /// The value as a [`Value`].
    fn into_value(self) -> Value;
    /// The Rust value from a [`Value`] of this type.
    fn from_value(v: Value) -> Option<Self>;
}

macro_rules! any_value {
    ($($t:ty => $tc:ident, $var:ident;)*) => {$(
        impl AnyValue for $t {
            fn type_code() -> TypeCode {
                TypeCode::$tc()
            }
            fn into_value(self) -> Value {
                Value::$var(self)
            }
            fn from_value(v: Value) -> Option<Self> {
                match v {
                    Value::$var(x) => Some(x),
                    _ => None,
                }
            }
        }

        impl From<$t> for Any {
            fn from(v: $t) -> Any {
                Any::from_value(<$t as AnyValue>::type_code(), v.into_value())
            }
        }
    )*};
}

any_value! {
    bool => boolean, Boolean;
    u8 => octet, Octet;
    i16 => short, Short;
    u16 => ushort, UShort;
    i32 => long, Long;
    u32 => ulong, ULong;
    i64 => longlong, LongLong;
    u64 => ulonglong, ULongLong;
    f32 => float, Float;
    f64 => double, Double;
    char => char, Char;
    LongDouble => longdouble, LongDouble;
    TypeCode => tc_typecode, TypeCode;
}

/// IDL unbounded `string`.
impl AnyValue for String {
    fn type_code() -> TypeCode {
        TypeCode::string(0)
    }
    fn into_value(self) -> Value {
        Value::String(self)
    }
    fn from_value(v: Value) -> Option<Self> {
        match v {
            Value::String(s) => Some(s),
            _ => None,
        }
    }
}

impl From<String> for Any {
    fn from(v: String) -> Any {
        Any::from_value(TypeCode::string(0), Value::String(v))
    }
}

impl From<&str> for Any {
    fn from(v: &str) -> Any {
        Any::from(v.to_owned())
    }
}

/// IDL `sequence<octet>`.
impl AnyValue for Bytes {
    fn type_code() -> TypeCode {
        TypeCode::sequence(TypeCode::octet(), 0)
    }
    fn into_value(self) -> Value {
        Value::Octets(self)
    }
    fn from_value(v: Value) -> Option<Self> {
        match v {
            Value::Octets(b) => Some(b),
            Value::Sequence(items) => items
                .into_iter()
                .map(|x| match x {
                    Value::Octet(o) => Some(o),
                    _ => None,
                })
                .collect::<Option<Vec<u8>>>()
                .map(Bytes::from),
            _ => None,
        }
    }
}

impl From<Bytes> for Any {
    fn from(v: Bytes) -> Any {
        Any::from_value(<Bytes as AnyValue>::type_code(), Value::Octets(v))
    }
}
