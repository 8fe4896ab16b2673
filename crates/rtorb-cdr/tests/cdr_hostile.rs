//! Hostile input: every malformed stream gives a typed error, never a
//! panic and never an allocation the input does not justify.

use proptest::prelude::*;
use rtorb_cdr::codeset::CodeSetComponentInfo;
use rtorb_cdr::{
    ByteOrder, Bytes, CdrDecode, CdrEncode, CdrError, CodeSetId, Decoder, Encoder, Encoding, Ior,
    LongDouble, Version,
};

fn dec(bytes: &[u8]) -> Decoder {
    Decoder::new(
        Bytes::copy_from_slice(bytes),
        Encoding::native().with_order(ByteOrder::Big),
    )
}

#[test]
fn truncated_primitives() {
    assert!(matches!(
        dec(&[0, 0, 1]).read_u32(),
        Err(CdrError::UnexpectedEnd {
            needed: 4,
            remaining: 3
        })
    ));
    assert_eq!(
        dec(&[1]).read_u16(),
        Err(CdrError::UnexpectedEnd {
            needed: 2,
            remaining: 1
        })
    );
    assert_eq!(
        dec(&[0; 7]).read_u64(),
        Err(CdrError::UnexpectedEnd {
            needed: 8,
            remaining: 7
        })
    );
    assert_eq!(
        dec(&[0; 15]).read_long_double(),
        Err(CdrError::UnexpectedEnd {
            needed: 16,
            remaining: 15
        })
    );
}

#[test]
fn max_sequence_length_is_rejected_before_allocating() {
    let mut d = dec(&[0xff, 0xff, 0xff, 0xff, 1, 2, 3]);
    assert!(matches!(
        Vec::<u32>::decode(&mut d),
        Err(CdrError::LengthTooLarge {
            length: 0xffff_ffff,
            ..
        })
    ));
    let mut d = dec(&[0xff, 0xff, 0xff, 0xff]);
    assert!(matches!(
        d.read_octet_seq(),
        Err(CdrError::LengthTooLarge { .. })
    ));
    let mut d = dec(&[0xff, 0xff, 0xff, 0xff]);
    assert!(matches!(
        d.read_string(),
        Err(CdrError::LengthTooLarge { .. })
    ));
    let mut d = dec(&[0xff, 0xff, 0xff, 0xff]);
    assert_eq!(
        Vec::<String>::decode(&mut d),
        Err(CdrError::LengthTooLarge {
            length: 0xffff_ffff,
            remaining: 0
        })
    );
    // 2^28 sequences of at least 4 octets each (their lengths), 4 present.
    let mut d = dec(&[0x10, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(
        Vec::<Vec<u8>>::decode(&mut d),
        Err(CdrError::LengthTooLarge {
            length: 0x1000_0000,
            remaining: 4
        })
    );
}

#[test]
fn element_size_counts_in_the_length_check() {
    // 3 longs claimed, 8 bytes present.
    let mut d = dec(&[0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 2]);
    assert!(matches!(
        Vec::<i32>::decode(&mut d),
        Err(CdrError::LengthTooLarge {
            length: 3,
            remaining: 8
        })
    ));
}

#[test]
fn malformed_strings() {
    assert!(matches!(
        dec(&[0, 0, 0, 0]).read_string(),
        Err(CdrError::MalformedString(_))
    ));
    assert!(matches!(
        dec(&[0, 0, 0, 2, b'a', b'b']).read_string(),
        Err(CdrError::MalformedString(_))
    ));
    assert!(matches!(
        dec(&[0, 0, 0, 3, b'a', 0, 0]).read_string(),
        Err(CdrError::MalformedString(_))
    ));
}

#[test]
fn invalid_boolean_and_byte_order() {
    assert_eq!(dec(&[2]).read_bool(), Err(CdrError::InvalidBoolean(2)));
    assert_eq!(
        dec(&[0, 0, 0, 1, 7]).read_encapsulation().unwrap_err(),
        CdrError::InvalidByteOrder(7)
    );
    // An empty encapsulation lacks even its byte-order octet.
    assert_eq!(
        dec(&[0, 0, 0, 0]).read_encapsulation().unwrap_err(),
        CdrError::UnexpectedEnd {
            needed: 1,
            remaining: 0
        }
    );
}

#[test]
fn wide_text_in_giop10_is_refused() {
    let mut d = Decoder::new(
        Bytes::from_static(&[0, 0, 0, 2, 0, 0x41]),
        Encoding::native().with_version(Version::V1_0),
    );
    assert_eq!(d.read_wstring(), Err(CdrError::WcharInGiop10));
}

#[test]
fn odd_utf16_octets_are_refused() {
    let mut d = dec(&[0, 0, 0, 3, 0, 0x41, 0]);
    assert!(matches!(
        d.read_wstring(),
        Err(CdrError::BadCharacter { .. })
    ));
    let mut d = dec(&[0, 0, 0, 2, 0xd8, 0x00]);
    assert!(matches!(
        d.read_wstring(),
        Err(CdrError::BadCharacter { .. })
    ));
}

#[test]
fn nesting_is_bounded() {
    // sequence<sequence<...>> one element each, far deeper than the limit.
    let mut bytes = Vec::new();
    for _ in 0..100_000 {
        bytes.extend_from_slice(&[0, 0, 0, 1]);
    }
    type Deep = Vec<Vec<Vec<Vec<Vec<Vec<Vec<Vec<u8>>>>>>>>;
    let mut d = dec(&bytes);
    d.set_max_depth(4);
    assert_eq!(Deep::decode(&mut d), Err(CdrError::NestingTooDeep(4)));
}

#[test]
fn every_error_has_a_minor_code_in_a_vendor_range() {
    let errs = [
        CdrError::UnexpectedEnd {
            needed: 1,
            remaining: 0,
        },
        CdrError::InvalidBoolean(9),
        CdrError::NestingTooDeep(1),
        CdrError::WcharInGiop10,
        CdrError::NoWcharCodeSet,
    ];
    for e in errs {
        let vmcid = e.minor() & 0xffff_f000;
        assert!(
            vmcid == rtorb_cdr::RTORB_VMCID || vmcid == rtorb_cdr::OMG_VMCID,
            "{e}"
        );
    }
}

/// Regression: wchar data in GIOP 1.0 reported OMG MARSHAL minor 4
/// ("attempt to marshal a local object"); the OMG minor is 5 ("wchar or
/// wstring data erroneously sent by client over GIOP 1.0"). Without a
/// negotiated wchar code set it is OMG minor 23 (of BAD_PARAM).
#[test]
fn wchar_errors_carry_the_omg_minor_codes() {
    assert_eq!(CdrError::WcharInGiop10.minor(), rtorb_cdr::OMG_VMCID | 5);
    assert_eq!(CdrError::NoWcharCodeSet.minor(), rtorb_cdr::OMG_VMCID | 23);
    // GIOP 1.0 is reported first, whatever the code sets.
    let enc = Encoding::native()
        .with_version(rtorb_cdr::Version::V1_0)
        .with_codesets(rtorb_cdr::TransmissionCodeSets::UNNEGOTIATED);
    let mut e = rtorb_cdr::Encoder::new(enc);
    assert_eq!(e.write_wstring("x"), Err(CdrError::WcharInGiop10));
    assert_eq!(e.write_wchar('x'), Err(CdrError::WcharInGiop10));
    let mut d = Decoder::new(Bytes::from_static(&[0, 0, 0, 2, 0, 120]), enc);
    assert_eq!(d.read_wstring(), Err(CdrError::WcharInGiop10));
    // Later versions without a wchar code set.
    let enc = enc.with_version(rtorb_cdr::Version::V1_2);
    let mut e = rtorb_cdr::Encoder::new(enc);
    assert_eq!(e.write_wstring("x"), Err(CdrError::NoWcharCodeSet));
    assert_eq!(e.write_wchar('x'), Err(CdrError::NoWcharCodeSet));
    let mut d = Decoder::new(Bytes::from_static(&[0, 0, 0, 2, 0, 120]), enc);
    assert_eq!(d.read_wstring(), Err(CdrError::NoWcharCodeSet));
    let mut d = Decoder::new(Bytes::from_static(&[2, 0, 120]), enc);
    assert_eq!(d.read_wchar(), Err(CdrError::NoWcharCodeSet));
}

/// Checks that `value`, decoded from the octets `input` in `enc`, encodes
/// again to those octets, and that decoding its encoding and encoding
/// that again is a fixed point.
///
/// CDR leaves padding octets unspecified (a sender may put anything
/// there) and rtorb writes them as zero, so random input need not be
/// reproduced exactly: the re-encoding may differ from it only in octets
/// that it writes as zero, and it must have the same length.
fn assert_encodes_again<T: CdrEncode + CdrDecode>(input: &[u8], value: &T, enc: Encoding) {
    let mut e = Encoder::new(enc);
    value.encode(&mut e).expect("a decoded value encodes again");
    let again = e.into_bytes();
    assert_same_but_padding(input, &again);
    let mut d = Decoder::new(again.clone(), enc);
    let decoded = T::decode(&mut d).expect("a re-encoding decodes");
    assert!(d.is_empty(), "a re-encoding decodes to its end");
    let mut e = Encoder::new(enc);
    decoded.encode(&mut e).unwrap();
    assert_eq!(e.into_bytes(), again, "encoding is a fixed point");
}

/// `again` has `input`'s length and octets, but for padding octets it
/// writes as zero.
fn assert_same_but_padding(input: &[u8], again: &[u8]) {
    assert_eq!(again.len(), input.len(), "{input:02x?} became {again:02x?}");
    for (i, (a, b)) in input.iter().zip(again).enumerate() {
        assert!(
            a == b || *b == 0,
            "octet {i}: {input:02x?} became {again:02x?}"
        );
    }
}

/// Decodes a `T` from the front of `data` and, where that succeeds,
/// checks that it encodes again to the octets it was read from.
fn decode_and_encode_again<T: CdrEncode + CdrDecode>(
    data: &Bytes,
    enc: Encoding,
) -> Result<(), CdrError> {
    let mut d = Decoder::new(data.clone(), enc);
    let value = T::decode(&mut d)?;
    assert_encodes_again(&data[..d.offset()], &value, enc);
    Ok(())
}

/// A `wstring` read from the front of `data` in `enc` (GIOP 1.1 or 1.2)
/// encodes again to the same octets, but for GIOP 1.2's optional
/// byte-order mark: rtorb writes big-endian text without one (unless the
/// text starts with a character that would read as a mark), so input
/// with a mark is checked by the text its re-encoding decodes to.
fn wstring_encodes_again(data: &Bytes, enc: Encoding) -> Result<(), CdrError> {
    let mut d = Decoder::new(data.clone(), enc);
    let text = d.read_wstring()?;
    let input = &data[..d.offset()];
    let mut e = Encoder::new(enc);
    e.write_wstring(&text)
        .expect("a decoded wstring encodes again");
    let again = e.into_bytes();
    let marked = enc.version >= Version::V1_2
        && matches!(input.get(4..6), Some([0xfe, 0xff] | [0xff, 0xfe]));
    if marked {
        let mut d = Decoder::new(again, enc);
        assert_eq!(d.read_wstring().unwrap(), text);
        assert!(d.is_empty());
    } else {
        assert_eq!(again, input, "wstring {text:?}");
    }
    Ok(())
}

/// A string in an encapsulation encodes again to the same byte-order
/// octet, padding and string. Octets of the encapsulation after the
/// string are not read, so only its body up to the string's end is
/// compared.
fn encapsulated_string_encodes_again(data: &Bytes, enc: Encoding) -> Result<(), CdrError> {
    let mut d = Decoder::new(data.clone(), enc);
    let mut body = d.read_encapsulation()?;
    let text = body.read_string()?;
    let mut e = Encoder::new(enc.with_order(body.order()));
    e.write_u8(body.order().flag());
    e.write_string(&text)
        .expect("a decoded string encodes again");
    assert_same_but_padding(&body.buffer()[..body.offset()], &e.into_bytes());
    Ok(())
}

/// A piece of a stream of octets made to look like CDR, so that the
/// decoders read values out of it and not only errors: random octets,
/// aligned `ulong`s (mostly small, as lengths and counts are), strings
/// and encapsulations, with padding of any value before what is aligned.
#[derive(Debug, Clone)]
enum Piece {
    /// One octet.
    Octet(u8),
    /// A `ulong`, after what padding it needs, taken from the 3 octets.
    ULong(u32, [u8; 3]),
    /// A string of these octets (no NUL), aligned like its length.
    Text(Vec<u8>, [u8; 3]),
    /// An encapsulation (little-endian or not) holding a string.
    Encapsulated(bool, Vec<u8>, [u8; 3]),
}

fn piece() -> impl Strategy<Value = Piece> {
    let text = || proptest::collection::vec(1u8.., 0..6);
    prop_oneof![
        3 => any::<u8>().prop_map(Piece::Octet),
        3 => (0u32..6, any::<[u8; 3]>()).prop_map(|(n, p)| Piece::ULong(n, p)),
        1 => (any::<u32>(), any::<[u8; 3]>()).prop_map(|(n, p)| Piece::ULong(n, p)),
        2 => (text(), any::<[u8; 3]>()).prop_map(|(s, p)| Piece::Text(s, p)),
        1 => (any::<bool>(), text(), any::<[u8; 3]>())
            .prop_map(|(l, s, p)| Piece::Encapsulated(l, s, p)),
    ]
}

/// Appends `v` to `out` aligned on 4, in the byte order `little` says.
fn push_ulong(out: &mut Vec<u8>, v: u32, pad: &[u8; 3], little: bool) {
    let n = (4 - out.len() % 4) % 4;
    out.extend_from_slice(&pad[..n]);
    out.extend_from_slice(&if little {
        v.to_le_bytes()
    } else {
        v.to_be_bytes()
    });
}

fn push_text(out: &mut Vec<u8>, text: &[u8], pad: &[u8; 3], little: bool) {
    push_ulong(out, text.len() as u32 + 1, pad, little);
    out.extend_from_slice(text);
    out.push(0);
}

/// The octets of `pieces`, in the byte order `little` says.
fn stream(pieces: &[Piece], little: bool) -> Vec<u8> {
    let mut out = Vec::new();
    for p in pieces {
        match p {
            Piece::Octet(b) => out.push(*b),
            Piece::ULong(v, pad) => push_ulong(&mut out, *v, pad, little),
            Piece::Text(s, pad) => push_text(&mut out, s, pad, little),
            Piece::Encapsulated(inner, s, pad) => {
                let mut body = vec![u8::from(*inner)];
                push_text(&mut body, s, pad, *inner);
                push_ulong(&mut out, body.len() as u32, pad, little);
                out.extend_from_slice(&body);
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn random_bytes_never_panic(
        bytes in proptest::collection::vec(any::<u8>(), 0..256),
        pieces in proptest::collection::vec(piece(), 0..24),
        made_up in any::<bool>(),
        little in any::<bool>(),
    ) {
        let order = if little { ByteOrder::Little } else { ByteOrder::Big };
        let enc = Encoding::native().with_order(order);
        // Random octets, or octets that look like CDR in places.
        let data = Bytes::from(if made_up { stream(&pieces, little) } else { bytes });
        // Each decoder either reads a value that encodes again to the
        // octets it came from, or fails with one of the errors that its
        // layout allows (Latin-1, the default char code set, accepts
        // every octet; UTF-16 does not).
        use CdrError::{LengthTooLarge, MalformedString, UnexpectedEnd};
        let r = decode_and_encode_again::<Ior>(&data, enc);
        assert!(matches!(r, Ok(()) | Err(UnexpectedEnd { .. } | LengthTooLarge { .. } | MalformedString(_))), "{r:?}");
        let r = decode_and_encode_again::<Vec<String>>(&data, enc);
        assert!(matches!(r, Ok(()) | Err(UnexpectedEnd { .. } | LengthTooLarge { .. } | MalformedString(_))), "{r:?}");
        let r = decode_and_encode_again::<Vec<Vec<f64>>>(&data, enc);
        assert!(matches!(r, Ok(()) | Err(UnexpectedEnd { .. } | LengthTooLarge { .. })), "{r:?}");
        let r = decode_and_encode_again::<Vec<LongDouble>>(&data, enc);
        assert!(matches!(r, Ok(()) | Err(UnexpectedEnd { .. } | LengthTooLarge { .. })), "{r:?}");
        const UTF_16: u32 = CodeSetId::UTF_16.0;
        for version in [Version::V1_2, Version::V1_1] {
            let r = wstring_encodes_again(&data, enc.with_version(version));
            assert!(
                matches!(r, Ok(()) | Err(UnexpectedEnd { .. } | LengthTooLarge { .. } | MalformedString(_)
                    | CdrError::BadCharacter { codeset: UTF_16 })),
                "{version:?}: {r:?}"
            );
        }
        let r = encapsulated_string_encodes_again(&data, enc);
        assert!(
            matches!(r, Ok(()) | Err(UnexpectedEnd { .. } | LengthTooLarge { .. } | MalformedString(_)
                | CdrError::InvalidByteOrder(2..=u8::MAX))),
            "{r:?}"
        );
        let r = decode_and_encode_again::<CodeSetComponentInfo>(&data, enc);
        assert!(matches!(r, Ok(()) | Err(UnexpectedEnd { .. } | LengthTooLarge { .. })), "{r:?}");
    }
}
