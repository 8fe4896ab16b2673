//! Helpers for the encapsulations that profile and component bodies are,
//! and the hexadecimal that stringified references write them in.

use std::fmt::Write as _;

use rtorb_cdr::{ByteOrder, Bytes, CdrError, Decoder, Encoder, Encoding};

/// The encoding used for the contents of IOR encapsulations: strings in
/// them (type ids, host names, paths) use ISO 8859-1, the GIOP default.
pub(crate) fn ior_encoding(order: ByteOrder) -> Encoding {
    Encoding::native().with_order(order)
}

/// Decodes `data` as an encapsulation (byte-order octet first) with `f`.
pub(crate) fn decode<T>(
    data: &Bytes,
    f: impl FnOnce(&mut Decoder) -> Result<T, CdrError>,
) -> Result<T, CdrError> {
    let mut d = Decoder::from_encapsulation(data.clone(), ior_encoding(ByteOrder::NATIVE))?;
    f(&mut d)
}

/// Encodes an encapsulation (byte-order octet first, no length) in
/// `order` with `f`.
pub(crate) fn encode(
    order: ByteOrder,
    f: impl FnOnce(&mut Encoder) -> Result<(), CdrError>,
) -> Result<Bytes, CdrError> {
    let mut e = Encoder::new(ior_encoding(order));
    e.write_u8(order.flag());
    f(&mut e)?;
    Ok(e.into_bytes())
}

/// Lowercase hexadecimal of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}
