//! Decoding across a change of alignment origin ([`Realign`]), as in a
//! GIOP 1.1 message reassembled from fragments that are each aligned
//! relative to their own start.

use std::sync::Arc;

use rtorb_cdr::{
    Any, ByteOrder, CdrDecode, CdrEncode, Decoder, Encoder, Encoding, Realign, TypeCode,
};

fn enc() -> Encoding {
    Encoding::native().with_order(ByteOrder::Big)
}

/// `first` followed by `second`, where `second` was written as if it
/// started 12 octets into a stream of its own (a GIOP 1.1 fragment body),
/// and the decoder that reads them end to end.
fn spliced(first: &[u8], second: &[u8]) -> Decoder {
    let mut data = first.to_vec();
    let at = data.len();
    data.extend_from_slice(second);
    let mut d = Decoder::new(data.into(), enc());
    d.set_realignments(Arc::from(vec![Realign {
        at,
        origin: at - 12,
    }]));
    d
}

/// Encodes with `f` as a stream that starts 12 octets in, and returns
/// what follows those 12 octets.
fn after_header(f: impl FnOnce(&mut Encoder)) -> Vec<u8> {
    let mut e = Encoder::new(enc());
    for _ in 0..3 {
        e.write_u32(0);
    }
    f(&mut e);
    e.into_bytes()[12..].to_vec()
}

#[test]
fn primitives_align_to_the_new_origin() {
    // 14 octets: three longs and a short, then the stream breaks.
    let mut e = Encoder::new(enc());
    e.write_u32(7);
    e.write_u32(8);
    e.write_u32(10);
    e.write_u16(9);
    let first = e.into_bytes().to_vec();
    let second = after_header(|e| {
        e.write_f64(2.5);
        e.write_u32(11);
    });
    let mut d = spliced(&first, &second);
    assert_eq!(d.read_u32().unwrap(), 7);
    assert_eq!(d.read_u32().unwrap(), 8);
    assert_eq!(d.read_u32().unwrap(), 10);
    assert_eq!(d.read_u16().unwrap(), 9);
    assert_eq!(d.read_f64().unwrap(), 2.5);
    assert_eq!(d.read_u32().unwrap(), 11);
    assert!(d.is_empty());
}

#[test]
fn a_primitive_sequence_across_the_change_is_read_element_by_element() {
    let values: Vec<f64> = (0..40).map(|i| i as f64 - 0.5).collect();
    // The whole sequence as one stream, cut after 10 elements.
    let mut e = Encoder::new(enc());
    e.write_prim_seq(&values).unwrap();
    let whole = e.into_bytes().to_vec();
    let cut = 8 + 10 * 8;
    let second = after_header(|e| {
        for v in &values[10..] {
            e.write_f64(*v);
        }
    });
    let mut d = spliced(&whole[..cut], &second);
    assert!(d.read_prim_seq::<f64>().unwrap() == values);
    assert!(d.is_empty());
}

#[test]
fn an_any_across_the_change_is_read_and_kept_right() {
    let values: Vec<f64> = (0..40).map(|i| i as f64 * 3.0).collect();
    let tc = TypeCode::sequence(TypeCode::double(), 0);
    let mut e = Encoder::new(enc());
    tc.encode(&mut e).unwrap();
    values.encode(&mut e).unwrap();
    let whole = e.into_bytes().to_vec();
    // Cut after the length and 5 elements, on an 8-octet boundary.
    let body = whole.len() - 40 * 8;
    let cut = body + 5 * 8;
    assert_eq!(cut % 8, 0);
    let second = after_header(|e| {
        for v in &values[5..] {
            e.write_f64(*v);
        }
    });
    let mut d = spliced(&whole[..cut], &second);
    let any = Any::decode(&mut d).unwrap();
    assert!(d.is_empty());
    // Encoded again (as a stream of its own), it holds the same values.
    let mut e = Encoder::new(enc());
    any.encode(&mut e).unwrap();
    let mut back = Decoder::new(e.into_bytes(), enc());
    let again = Any::decode(&mut back).unwrap();
    let mut e = Encoder::new(enc());
    again.encode(&mut e).unwrap();
    let mut d = Decoder::new(e.into_bytes(), enc());
    TypeCode::decode(&mut d).unwrap();
    assert!(Vec::<f64>::decode(&mut d).unwrap() == values);
}
