//! Hostile input: every malformed stream gives a typed error, never a
//! panic and never an allocation the input does not justify.

use proptest::prelude::*;
use rtorb_cdr::{
    ByteOrder, Bytes, CdrDecode, CdrError, Decoder, Encoding, Ior, LongDouble, Version,
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
    assert!(dec(&[1]).read_u16().is_err());
    assert!(dec(&[0; 7]).read_u64().is_err());
    assert!(dec(&[0; 15]).read_long_double().is_err());
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
    assert!(Vec::<String>::decode(&mut d).is_err());
    let mut d = dec(&[0x10, 0, 0, 0, 0, 0, 0, 0]);
    assert!(Vec::<Vec<u8>>::decode(&mut d).is_err());
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
    assert!(dec(&[0, 0, 0, 0]).read_encapsulation().is_err());
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

proptest! {
    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256), little in any::<bool>()) {
        let order = if little { ByteOrder::Little } else { ByteOrder::Big };
        let enc = Encoding::native().with_order(order);
        let data = Bytes::from(bytes);
        let _ = Ior::decode(&mut Decoder::new(data.clone(), enc));
        let _ = Vec::<String>::decode(&mut Decoder::new(data.clone(), enc));
        let _ = Vec::<Vec<f64>>::decode(&mut Decoder::new(data.clone(), enc));
        let _ = Vec::<LongDouble>::decode(&mut Decoder::new(data.clone(), enc));
        let _ = Decoder::new(data.clone(), enc).read_wstring();
        let _ = Decoder::new(data.clone(), enc.with_version(Version::V1_1)).read_wstring();
        let _ = Decoder::new(data.clone(), enc).read_encapsulation().map(|mut e| e.read_string());
        let _ = rtorb_cdr::codeset::CodeSetComponentInfo::decode(&mut Decoder::new(data, enc));
    }
}
