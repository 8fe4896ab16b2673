//! Code set negotiation (CORBA 3.x §13.10.2.6).

use rtorb_cdr::CodeSetId;
use rtorb_cdr::codeset::{
    CodeSetComponent, CodeSetComponentInfo, CodeSetIncompatible, negotiate, negotiate_one,
};

fn comp(native: CodeSetId, conv: &[CodeSetId]) -> CodeSetComponent {
    CodeSetComponent {
        native_code_set: native,
        conversion_code_sets: conv.to_vec(),
    }
}

const LATIN1: CodeSetId = CodeSetId::ISO_8859_1;
const UTF8: CodeSetId = CodeSetId::UTF_8;
const EBCDIC: CodeSetId = CodeSetId(0x1001_0025);
const SJIS: CodeSetId = CodeSetId(0x0003_0001);

#[test]
fn same_native_code_set() {
    let r = negotiate_one(&comp(UTF8, &[]), &comp(UTF8, &[]), UTF8, |_| true);
    assert_eq!(r, Ok(UTF8));
}

#[test]
fn server_converts_to_client_native() {
    let r = negotiate_one(&comp(LATIN1, &[]), &comp(UTF8, &[LATIN1]), UTF8, |_| true);
    assert_eq!(r, Ok(LATIN1));
}

#[test]
fn client_converts_to_server_native() {
    let r = negotiate_one(&comp(UTF8, &[EBCDIC]), &comp(EBCDIC, &[]), UTF8, |_| true);
    assert_eq!(r, Ok(EBCDIC));
}

#[test]
fn common_conversion_code_set() {
    let r = negotiate_one(
        &comp(SJIS, &[LATIN1]),
        &comp(EBCDIC, &[LATIN1]),
        UTF8,
        |_| true,
    );
    assert_eq!(r, Ok(LATIN1));
}

#[test]
fn fallback_then_incompatible() {
    let r = negotiate_one(&comp(SJIS, &[]), &comp(EBCDIC, &[UTF8]), UTF8, |_| true);
    assert_eq!(r, Ok(UTF8));
    let r = negotiate_one(&comp(SJIS, &[]), &comp(EBCDIC, &[]), UTF8, |_| true);
    assert_eq!(
        r,
        Err(CodeSetIncompatible {
            client: SJIS.0,
            server: EBCDIC.0
        })
    );
}

#[test]
fn omniorb_default_against_rtorb() {
    // omniORB advertises native ISO-8859-1 for char and UTF-16 for wchar.
    let omni = CodeSetComponentInfo {
        for_char_data: comp(LATIN1, &[UTF8]),
        for_wchar_data: comp(CodeSetId::UTF_16, &[]),
    };
    let tcs = negotiate(&CodeSetComponentInfo::rtorb_default(), &omni).unwrap();
    assert_eq!(tcs.char_data, UTF8);
    assert_eq!(tcs.wchar_data, CodeSetId::UTF_16);
}

#[test]
fn text_outside_the_code_set_is_refused_with_omg_minor_1() {
    let mut e = rtorb_cdr::Encoder::new(
        rtorb_cdr::Encoding::native().with_codesets(rtorb_cdr::TransmissionCodeSets::UNNEGOTIATED),
    );
    let err = e.write_string("Жук").unwrap_err();
    assert_eq!(err, rtorb_cdr::CdrError::BadCharacter { codeset: LATIN1.0 });
    assert_eq!(err.minor(), rtorb_cdr::OMG_VMCID | 1);
    assert_eq!(
        err.to_string(),
        "character data not representable in code set ISO-8859-1 (0x00010001)"
    );
}
