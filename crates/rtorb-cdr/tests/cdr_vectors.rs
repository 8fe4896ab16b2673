//! Byte-exact encodings worked out from the CDR rules of CORBA 3.x §9.3.

use rtorb_cdr::codeset::{CodeSetComponentInfo, CodeSetContext};
use rtorb_cdr::{
    ByteOrder, Bytes, CdrDecode, CdrEncode, CdrError, CodeSetId, Decoder, Encoder, Encoding, Fixed,
    LongDouble, TransmissionCodeSets, Version,
};

fn be() -> Encoding {
    Encoding::native().with_order(ByteOrder::Big)
}

fn le() -> Encoding {
    Encoding::native().with_order(ByteOrder::Little)
}

fn encode<T: CdrEncode + ?Sized>(v: &T, enc: Encoding) -> Vec<u8> {
    let mut e = Encoder::new(enc);
    v.encode(&mut e).unwrap();
    e.into_bytes().to_vec()
}

#[test]
fn primitives_align_to_their_size() {
    let mut e = Encoder::new(be());
    e.write_u8(1);
    e.write_u16(0x0203);
    e.write_u8(4);
    e.write_u32(0x05060708);
    e.write_u8(9);
    e.write_u64(0x0a0b0c0d0e0f1011);
    assert_eq!(
        &e.into_bytes()[..],
        &[
            1, 0, 2, 3, 4, 0, 0, 0, 5, 6, 7, 8, 9, 0, 0, 0, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
            0x10, 0x11
        ]
    );
}

#[test]
fn little_endian_is_byte_reversed() {
    assert_eq!(encode(&0x01020304u32, le()), [4, 3, 2, 1]);
    assert_eq!(encode(&-2i16, le()), [0xfe, 0xff]);
    assert_eq!(encode(&1.0f64, be()), [0x3f, 0xf0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(encode(&1.0f32, le()), [0, 0, 0x80, 0x3f]);
}

#[test]
fn string_carries_length_with_nul() {
    assert_eq!(encode("Hi", be()), [0, 0, 0, 3, b'H', b'i', 0]);
    assert_eq!(encode("", le()), [1, 0, 0, 0, 0]);
}

#[test]
fn latin1_and_utf8_strings() {
    let latin1 = be();
    assert_eq!(encode("é", latin1), [0, 0, 0, 2, 0xe9, 0]);
    let utf8 = be().with_codesets(TransmissionCodeSets {
        char_data: CodeSetId::UTF_8,
        wchar_data: CodeSetId::UTF_16,
    });
    assert_eq!(encode("é", utf8), [0, 0, 0, 3, 0xc3, 0xa9, 0]);
    let mut e = Encoder::new(latin1);
    assert_eq!(
        e.write_string("€"),
        Err(CdrError::BadCharacter {
            codeset: CodeSetId::ISO_8859_1.0
        }),
        "euro sign is not Latin-1"
    );
}

#[test]
fn wstring_layout_per_giop_version() {
    let mut e = Encoder::new(be().with_version(Version::V1_2));
    e.write_wstring("Aé").unwrap();
    assert_eq!(&e.into_bytes()[..], [0, 0, 0, 4, 0, 0x41, 0, 0xe9]);

    let mut e = Encoder::new(le().with_version(Version::V1_1));
    e.write_wstring("A").unwrap();
    assert_eq!(&e.into_bytes()[..], [2, 0, 0, 0, 0x41, 0, 0, 0]);

    let mut e = Encoder::new(be().with_version(Version::V1_0));
    assert_eq!(e.write_wstring("A"), Err(CdrError::WcharInGiop10));
}

#[test]
fn wchar_layout_per_giop_version() {
    let mut e = Encoder::new(le().with_version(Version::V1_2));
    e.write_wchar('Z').unwrap();
    e.write_wchar('😀').unwrap();
    assert_eq!(&e.into_bytes()[..], [2, 0, 0x5a, 4, 0xd8, 0x3d, 0xde, 0x00]);
}

#[test]
fn giop12_wstring_honours_byte_order_mark() {
    let data = Bytes::from_static(&[0, 0, 0, 6, 0xff, 0xfe, 0x41, 0, 0x42, 0]);
    let mut d = Decoder::new(data, be().with_version(Version::V1_2));
    assert_eq!(d.read_wstring().unwrap(), "AB");
}

#[test]
fn sequences_and_arrays() {
    assert_eq!(
        encode(&vec![1i32, -1], be()),
        [0, 0, 0, 2, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff]
    );
    assert_eq!(encode(&[1u16, 2u16], le()), [1, 0, 2, 0]);
    assert_eq!(
        encode(&Bytes::from_static(b"ab"), le()),
        [2, 0, 0, 0, b'a', b'b']
    );
    assert_eq!(encode(&vec![true, false], be()), [0, 0, 0, 2, 1, 0]);
}

#[test]
fn encapsulation_has_its_own_alignment_and_order() {
    let mut e = Encoder::new(be());
    e.write_u8(0xaa);
    e.write_encapsulation(|e| {
        e.write_u32(7);
        Ok(())
    })
    .unwrap();
    // octet, pad, length 8, order 0, pad 3 (aligned to the encapsulation start), 7
    assert_eq!(
        &e.into_bytes()[..],
        [0xaa, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 7]
    );

    let raw = Bytes::from_static(&[0, 0, 0, 8, 1, 0, 0, 0, 7, 0, 0, 0]);
    let mut d = Decoder::new(raw, be());
    let mut inner = d.read_encapsulation().unwrap();
    assert_eq!(inner.order(), ByteOrder::Little);
    assert_eq!(inner.read_u32().unwrap(), 7);
    assert!(d.is_empty());
}

#[test]
fn long_double_is_kept_intact() {
    let v = LongDouble::from_f64(-2.5);
    let b = encode(&v, be());
    assert_eq!(b.len(), 16);
    assert_eq!(&b[..3], [0xc0, 0x00, 0x40]);
    let l = encode(&v, le());
    let mut rev = b.clone();
    rev.reverse();
    assert_eq!(l, rev);
    assert_eq!(v.to_f64(), -2.5);
    let mut d = Decoder::new(Bytes::from(l), le());
    assert_eq!(LongDouble::decode(&mut d).unwrap(), v);
}

#[test]
fn fixed_is_packed_decimal() {
    let f: Fixed = "-123.45".parse().unwrap();
    assert_eq!((f.digits(), f.scale()), (5, 2));
    assert_eq!(f.to_bcd(), [0x12, 0x34, 0x5d]);
    let g: Fixed = "1.0".parse().unwrap();
    assert_eq!(g.to_bcd(), [0x01, 0x0c]);
    assert_eq!(g.to_string(), "1.0");
    let back = Fixed::from_bcd(&[0x12, 0x34, 0x5d], 5, 2).unwrap();
    assert_eq!(back.to_string(), "-123.45");
    assert_eq!(
        Fixed::from_bcd(&[0x12, 0x34, 0x5a], 5, 2),
        Err(CdrError::MalformedFixed("bad sign half-octet"))
    );
}

#[test]
fn code_set_component_info_layout() {
    let info = CodeSetComponentInfo::rtorb_default();
    let b = encode(&info, be());
    assert_eq!(
        b,
        [
            0x05, 0x01, 0x00, 0x01, 0, 0, 0, 1, 0x00, 0x01, 0x00, 0x01, // char
            0x00, 0x01, 0x01, 0x09, 0, 0, 0, 1, 0x00, 0x01, 0x01, 0x00, // wchar
        ]
    );
    let ctx = CodeSetContext {
        char_data: CodeSetId::UTF_8,
        wchar_data: CodeSetId::UTF_16,
    };
    assert_eq!(
        encode(&ctx, le()),
        [0x01, 0x00, 0x01, 0x05, 0x09, 0x01, 0x01, 0x00]
    );
}

#[test]
fn zero_copy_octet_sequence_becomes_its_own_chunk() {
    let payload = Bytes::from(vec![7u8; 4096]);
    let mut e = Encoder::new(be());
    e.set_zero_copy_threshold(1024);
    e.write_u32(1);
    e.write_octet_seq_bytes(&payload).unwrap();
    e.write_u32(2);
    let chunks = e.into_chunks();
    assert_eq!(chunks.len(), 3);
    assert_eq!(
        chunks[1].as_ptr(),
        payload.as_ptr(),
        "payload is referenced, not copied"
    );
}

#[test]
fn decoded_octet_sequence_shares_the_input_buffer() {
    let input = Bytes::from(vec![0, 0, 0, 3, 9, 8, 7]);
    let mut d = Decoder::new(input.clone(), be());
    let seq = d.read_octet_seq().unwrap();
    assert_eq!(&seq[..], [9, 8, 7]);
    assert_eq!(seq.as_ptr(), input[4..].as_ptr());
}

#[test]
fn leading_bom_character_survives_giop12() {
    let enc = be().with_version(Version::V1_2);
    let mut e = Encoder::new(enc);
    e.write_wstring("\u{feff}x").unwrap();
    e.write_wchar('\u{feff}').unwrap();
    let bytes = e.into_bytes();
    assert_eq!(&bytes[..4], [0, 0, 0, 6], "explicit mark plus two units");
    let mut d = Decoder::new(bytes, enc);
    assert_eq!(d.read_wstring().unwrap(), "\u{feff}x");
    assert_eq!(d.read_wchar().unwrap(), '\u{feff}');
}

#[test]
fn long_double_narrows_small_and_subnormal_values() {
    for v in [1e-300, 5e-324, 0.1, -3.0e200, f64::MIN_POSITIVE] {
        assert_eq!(LongDouble::from_f64(v).to_f64(), v);
    }
}
