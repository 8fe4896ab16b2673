//! # rtorb-cdr: the CORBA Common Data Representation
//!
//! CDR is the presentation layer of GIOP: how IDL values become octets.
//! This crate encodes and decodes every IDL type in both byte orders, with
//! the alignment rules of GIOP 1.0, 1.1 and 1.2, encapsulations, the
//! negotiated code sets for `char` and `wchar`, TypeCodes and Anys. It does
//! no I/O: bytes in, values out, and back.
//!
//! The main types:
//! - [`Encoder`] writes values into a growable buffer, optionally keeping
//!   large octet sequences by reference so a transport can gather them.
//! - [`Decoder`] reads values from a [`bytes::Bytes`] buffer; octet
//!   sequences come out as slices of it without a copy, and every length is
//!   checked against what remains before anything is allocated.
//! - [`CdrEncode`] and [`CdrDecode`] are implemented by every Rust type that
//!   maps an IDL type (and by the code the IDL compiler generates).
//! - [`TypeCode`] and [`Any`] describe and carry values of any type; an
//!   `Any` can hold its value still encoded, decoding it only when asked.
//! - [`Encoding`] bundles byte order, GIOP version and [`codeset`]s.
//!
//! ```
//! use rtorb_cdr::{ByteOrder, CdrDecode, CdrEncode, Decoder, Encoder, Encoding};
//!
//! let enc = Encoding::native().with_order(ByteOrder::Big);
//! let mut e = Encoder::new(enc);
//! (7u8, String::from("cube")).encode(&mut e).unwrap();
//! 12345i32.encode(&mut e).unwrap();
//! let bytes = e.into_bytes();
//! // octet, pad to 4, length 5, "cube\0", pad to 4, long
//! assert_eq!(&bytes[..], b"\x07\0\0\0\0\0\0\x05cube\0\0\0\0\0\x00\x30\x39");
//!
//! let mut d = Decoder::new(bytes, enc);
//! let (o, s): (u8, String) = CdrDecode::decode(&mut d).unwrap();
//! assert_eq!((o, s.as_str(), i32::decode(&mut d).unwrap()), (7, "cube", 12345));
//! ```

pub mod any;
mod any_value;
pub mod codeset;
mod decoder;
mod dynamic;
mod encoder;
mod error;
mod order;
mod primitive;
mod traits;
pub mod typecode;
mod types;
pub mod value;
pub mod valuetype;

pub use any::{Any, AnyValue, IdlType};
pub use codeset::{CodeSetId, TransmissionCodeSets};
pub use decoder::{DEFAULT_MAX_DEPTH, Decoder, Realign};
pub use encoder::{DEFAULT_ZERO_COPY_THRESHOLD, Encoder};
pub use error::{CdrError, OMG_VMCID, RTORB_VMCID, Result};
pub use order::{ByteOrder, Encoding, Version};
pub use primitive::Primitive;
pub use traits::{CdrDecode, CdrEncode};
pub use typecode::{TCKind, TypeCode, UnionMember, ValueMember};
pub use types::{FIXED_MAX_DIGITS, Fixed, Ior, LongDouble, TaggedProfile};
pub use value::{PrimSeq, Value};

pub use bytes::Bytes;
