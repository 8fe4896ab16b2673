//! `rtorb ior decode` names the code sets of a `TAG_CODE_SETS` component
//! from the OSF registry, and shows an id it does not hold in hexadecimal,
//! marked unregistered.

use std::process::Command;

use rtorb_cdr::Version;
use rtorb_cdr::codeset::{CodeSetComponent, CodeSetComponentInfo, CodeSetId};
use rtorb_giop::ior::{Component, IiopProfile, ObjectReference, Profile};
use serde_json::Value;

fn rtorb(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_rtorb"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "rtorb {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A reference whose component names ISO 8859-15 natively, UTF-8, an
/// unregistered id and ISO 8859-1 as conversions for `char`, and UCS-4
/// level 3 and UTF-16 for `wchar`.
fn reference() -> String {
    let info = CodeSetComponentInfo {
        for_char_data: CodeSetComponent {
            native_code_set: CodeSetId(0x0001_000f),
            conversion_code_sets: vec![
                CodeSetId::UTF_8,
                CodeSetId(0x0abc_0001),
                CodeSetId::ISO_8859_1,
            ],
        },
        for_wchar_data: CodeSetComponent {
            native_code_set: CodeSetId(0x0001_0106),
            conversion_code_sets: vec![CodeSetId::UTF_16, CodeSetId::UCS_2],
        },
    };
    let mut p = IiopProfile::new(Version::V1_2, "127.0.0.1", 2809, &b"Text"[..]);
    p.push_component(&Component::CodeSets(info)).unwrap();
    ObjectReference::new("IDL:Text:1.0", vec![Profile::Iiop(p)])
        .to_stringified()
        .unwrap()
}

#[test]
fn every_code_set_is_named() {
    let text = rtorb(&["ior", "decode", &reference()]);
    for line in [
        "native_name: ISO-8859-15",
        "[1] UTF-8",
        "[2] 0x0abc0001 (unregistered)",
        "[3] ISO-8859-1",
        "native_name: UCS-4-level-3",
        "[1] UTF-16",
        "[2] UCS-2",
    ] {
        assert!(
            text.lines().any(|l| l.trim() == line),
            "no line {line:?} in\n{text}"
        );
    }
}

#[test]
fn the_json_has_ids_and_names() {
    let json: Value =
        serde_json::from_str(&rtorb(&["ior", "decode", "--json", &reference()])).unwrap();
    let component = &json["profiles"][0]["components"][0];
    let char_data = &component["char"];
    assert_eq!(char_data["native"], 0x0001_000f, "{component}");
    assert_eq!(char_data["native_name"], "ISO-8859-15");
    assert_eq!(
        char_data["conversion_names"],
        serde_json::json!(["UTF-8", "0x0abc0001 (unregistered)", "ISO-8859-1"])
    );
    assert_eq!(component["wchar"]["native_name"], "UCS-4-level-3");
}
