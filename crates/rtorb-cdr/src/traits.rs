//! The traits every CDR-encodable type implements, and their
//! implementations for Rust types that map IDL types directly.

use bytes::Bytes;

use crate::decoder::Decoder;
use crate::encoder::Encoder;
use crate::error::{CdrError, Result};
use crate::types::{Ior, LongDouble, TaggedProfile};

/// A value that can be written as CDR.
pub trait CdrEncode {
    /// Writes the value.
    fn encode(&self, enc: &mut Encoder) -> Result<()>;

    /// Writes a run of values (the elements of a sequence or array). Types
    /// with a fixed layout write the whole run at once.
    fn encode_slice(values: &[Self], enc: &mut Encoder) -> Result<()>
    where
        Self: Sized,
    {
        for v in values {
            v.encode(enc)?;
        }
        Ok(())
    }
}

/// A value that can be read from CDR.
pub trait CdrDecode: Sized {
    /// The fewest octets one value can occupy on the wire (alignment not
    /// counted); bounds how many elements a sequence length may claim.
    const MIN_WIRE_SIZE: usize = 1;

    /// Reads a value.
    fn decode(dec: &mut Decoder) -> Result<Self>;

    /// Reads `n` values (the elements of a sequence or array), `n` already
    /// checked against the bytes that remain. Types with a fixed layout
    /// read the whole run at once.
    fn decode_vec(dec: &mut Decoder, n: usize) -> Result<Vec<Self>> {
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            out.push(Self::decode(dec)?);
        }
        Ok(out)
    }
}

/// The CDR of the primitive types: one value at a time, and runs of them
/// in bulk.
macro_rules! primitive {
    ($($t:ty => $w:ident, $r:ident;)*) => {$(
        impl CdrEncode for $t {
            #[inline]
            fn encode(&self, enc: &mut Encoder) -> Result<()> {
                enc.$w(*self);
                Ok(())
            }
            fn encode_slice(values: &[Self], enc: &mut Encoder) -> Result<()> {
                enc.write_prim_slice(values);
                Ok(())
            }
        }

        impl CdrDecode for $t {
            const MIN_WIRE_SIZE: usize = std::mem::size_of::<$t>();
            #[inline]
            fn decode(dec: &mut Decoder) -> Result<Self> {
                dec.$r()
            }
            fn decode_vec(dec: &mut Decoder, n: usize) -> Result<Vec<Self>> {
                dec.read_prim_array(n)
            }
        }
    )*};
}

primitive! {
    u8 => write_u8, read_u8;
    i8 => write_i8, read_i8;
    u16 => write_u16, read_u16;
    i16 => write_i16, read_i16;
    u32 => write_u32, read_u32;
    i32 => write_i32, read_i32;
    u64 => write_u64, read_u64;
    i64 => write_i64, read_i64;
    f32 => write_f32, read_f32;
    f64 => write_f64, read_f64;
}

impl CdrEncode for bool {
    fn encode(&self, enc: &mut Encoder) -> Result<()> {
        enc.write_bool(*self);
        Ok(())
    }
}

impl CdrDecode for bool {
    fn decode(dec: &mut Decoder) -> Result<Self> {
        dec.read_bool()
    }
}

/// IDL `char`, in the transmission code set for `char` data.
impl CdrEncode for char {
    fn encode(&self, enc: &mut Encoder) -> Result<()> {
        enc.write_char(*self)
    }
}

impl CdrDecode for char {
    fn decode(dec: &mut Decoder) -> Result<Self> {
        dec.read_char()
    }
}

impl CdrEncode for LongDouble {
    fn encode(&self, enc: &mut Encoder) -> Result<()> {
        enc.write_long_double(self);
        Ok(())
    }
}

impl CdrDecode for LongDouble {
    const MIN_WIRE_SIZE: usize = 16;
    fn decode(dec: &mut Decoder) -> Result<Self> {
        dec.read_long_double()
    }
}

/// IDL `string`.
impl CdrEncode for String {
    fn encode(&self, enc: &mut Encoder) -> Result<()> {
        enc.write_string(self)
    }
}

impl CdrEncode for str {
    fn encode(&self, enc: &mut Encoder) -> Result<()> {
        enc.write_string(self)
    }
}

impl CdrDecode for String {
    const MIN_WIRE_SIZE: usize = 5;
    fn decode(dec: &mut Decoder) -> Result<Self> {
        dec.read_string()
    }
}

/// `sequence<octet>` as a reference-counted buffer: decoded without a copy,
/// encoded by reference when large.
impl CdrEncode for Bytes {
    fn encode(&self, enc: &mut Encoder) -> Result<()> {
        enc.write_octet_seq_bytes(self)
    }
}

impl CdrDecode for Bytes {
    const MIN_WIRE_SIZE: usize = 4;
    fn decode(dec: &mut Decoder) -> Result<Self> {
        dec.read_octet_seq()
    }
}

/// IDL unbounded `sequence<T>`.
impl<T: CdrEncode> CdrEncode for Vec<T> {
    fn encode(&self, enc: &mut Encoder) -> Result<()> {
        enc.write_len(self.len())?;
        T::encode_slice(self, enc)
    }
}

impl<T: CdrEncode> CdrEncode for [T] {
    fn encode(&self, enc: &mut Encoder) -> Result<()> {
        enc.write_len(self.len())?;
        T::encode_slice(self, enc)
    }
}

impl<T: CdrDecode> CdrDecode for Vec<T> {
    const MIN_WIRE_SIZE: usize = 4;
    fn decode(dec: &mut Decoder) -> Result<Self> {
        let n = dec.read_len(T::MIN_WIRE_SIZE)?;
        dec.enter()?;
        let out = T::decode_vec(dec, n);
        dec.leave();
        out
    }
}

/// IDL arrays: `N` elements, no length on the wire.
impl<T: CdrEncode, const N: usize> CdrEncode for [T; N] {
    fn encode(&self, enc: &mut Encoder) -> Result<()> {
        T::encode_slice(self, enc)
    }
}

impl<T: CdrDecode, const N: usize> CdrDecode for [T; N] {
    const MIN_WIRE_SIZE: usize = T::MIN_WIRE_SIZE * N;
    fn decode(dec: &mut Decoder) -> Result<Self> {
        dec.check_len(N as u64, T::MIN_WIRE_SIZE)?;
        let v = T::decode_vec(dec, N)?;
        // decode_vec returns exactly N elements.
        v.try_into()
            .map_err(|_| CdrError::TypeMismatch("array length"))
    }
}

impl CdrEncode for TaggedProfile {
    fn encode(&self, enc: &mut Encoder) -> Result<()> {
        enc.write_u32(self.tag);
        enc.write_octet_seq_bytes(&self.data)
    }
}

impl CdrDecode for TaggedProfile {
    const MIN_WIRE_SIZE: usize = 8;
    fn decode(dec: &mut Decoder) -> Result<Self> {
        Ok(TaggedProfile {
            tag: dec.read_u32()?,
            data: dec.read_octet_seq()?,
        })
    }
}

/// An object reference: its IOR.
impl CdrEncode for Ior {
    fn encode(&self, enc: &mut Encoder) -> Result<()> {
        enc.write_string(&self.type_id)?;
        self.profiles.encode(enc)
    }
}

impl CdrDecode for Ior {
    const MIN_WIRE_SIZE: usize = 9;
    fn decode(dec: &mut Decoder) -> Result<Self> {
        Ok(Ior {
            type_id: dec.read_string()?,
            profiles: Vec::decode(dec)?,
        })
    }
}

impl<A: CdrEncode, B: CdrEncode> CdrEncode for (A, B) {
    fn encode(&self, enc: &mut Encoder) -> Result<()> {
        self.0.encode(enc)?;
        self.1.encode(enc)
    }
}

impl<A: CdrDecode, B: CdrDecode> CdrDecode for (A, B) {
    const MIN_WIRE_SIZE: usize = A::MIN_WIRE_SIZE + B::MIN_WIRE_SIZE;
    fn decode(dec: &mut Decoder) -> Result<Self> {
        Ok((A::decode(dec)?, B::decode(dec)?))
    }
}
