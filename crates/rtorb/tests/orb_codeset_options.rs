//! The code-set settings: native code sets, and the code sets assumed for
//! a reference without code set information (any `corbaloc:` reference),
//! set by `-ORB` options and the builder, between two rtorb ORBs. Text
//! either arrives as it was sent or fails with an exception that says so;
//! it is never altered on the way.

use std::sync::Arc;

use rtorb::codesets::{ClientCodeSets, CodeSetConfig, ServerCodeSets, native_code_sets};
use rtorb::exception::{CompletionStatus, SystemException, SystemExceptionKind};
use rtorb::minor::{
    BAD_PARAM_WCHAR_CODE_SET_NOT_NEGOTIATED, DATA_CONVERSION_CHAR_NOT_IN_CODE_SET,
    INV_OBJREF_WCHAR_CODE_SET_NOT_SPECIFIED,
};
use rtorb::object::Object;
use rtorb::orb::{Orb, OrbError};
use rtorb_cdr::codeset::CodeSetId;
use rtorb_cdr::{CdrError, TransmissionCodeSets, Version};
use rtorb_giop::FrameProtocol;
use rtorb_giop::ObjectReference;
use rtorb_giop::ior::Component;
use rtorb_giop::service_context::ServiceContextList;
use rtorb_test_support::text::Text;
use rtorb_test_support::{TIMEOUT, client, server};

/// Latin-1 text.
const LATIN: &str = "Grüße, café";

/// Text outside ISO 8859-1, with a character beyond the Basic Multilingual
/// Plane.
const WIDE: &str = "Жук, 日本 😀";

/// A server with `args` as its `-ORB` options; the `corbaloc:` URL of its
/// object.
fn serve(args: &[&str]) -> (Orb, String) {
    let (server, url, _) = serve_with_ior(args);
    (server, url)
}

/// [`serve`], and the object's IOR.
fn serve_with_ior(args: &[&str]) -> (Orb, String, String) {
    let mut all = vec!["-ORBListenEndpoints", server::IIOP_LOOPBACK];
    all.extend_from_slice(args);
    let (server, _) = Orb::init(all).unwrap();
    let obj = server
        .activate_with_key(&b"Text"[..], Arc::new(Text::new(WIDE)))
        .unwrap();
    let ior = server.object_to_string(&obj).unwrap();
    let url = format!("corbaloc::1.2@{}/Text", host_port(&server));
    (server, url, ior)
}

/// A client with `args` as its `-ORB` options, whose calls time out at
/// [`TIMEOUT`].
fn client_with_options(args: &[&str]) -> Orb {
    let timeout = TIMEOUT.as_millis().to_string();
    let mut all = vec!["-ORBRoundTripTimeout", timeout.as_str()];
    all.extend_from_slice(args);
    Orb::init(all).unwrap().0
}

fn host_port(orb: &Orb) -> String {
    rtorb_test_support::net::iiop_address(orb)
}

fn echo(obj: &Object, s: &str) -> Result<String, SystemException> {
    obj.invoke("echo", |e| e.write_string(s))?
        .decode::<String, SystemException>(|d| d.read_string())
}

fn get(obj: &Object) -> Result<String, SystemException> {
    obj.invoke("get", |_| Ok(()))?
        .decode::<String, SystemException>(|d| d.read_string())
}

fn wecho(obj: &Object, w: &str) -> Result<String, SystemException> {
    obj.invoke("wecho", |e| e.write_wstring(w))?
        .decode::<String, SystemException>(|d| d.read_wstring())
}

#[track_caller]
fn assert_raises(
    got: Result<String, SystemException>,
    kind: SystemExceptionKind,
    minor: u32,
    completed: CompletionStatus,
) {
    match got {
        Err(e) if e.kind() == Some(kind) && e.minor == minor && e.completed == completed => {}
        other => panic!(
            "expected {} minor {minor:#x} {}, got {other:?}",
            kind.name(),
            completed.name()
        ),
    }
}

#[test]
fn with_assumed_utf8_and_utf16_any_text_crosses_a_corbaloc_reference() {
    let assumed = [
        "-ORBassumedCharCodeSet",
        "UTF-8",
        "-ORBassumedWCharCodeSet",
        "UTF-16",
    ];
    // The server assumes CORBA's defaults, or the same as the client.
    for server_args in [&[][..], &assumed[..]] {
        let (server, url) = serve(server_args);
        let client = client_with_options(&assumed);
        let obj = client.string_to_object(&url).unwrap();
        assert_eq!(echo(&obj, LATIN).unwrap(), format!("{LATIN}!"));
        assert_eq!(echo(&obj, WIDE).unwrap(), format!("{WIDE}!"));
        assert_eq!(get(&obj).unwrap(), WIDE);
        assert_eq!(wecho(&obj, WIDE).unwrap(), format!("{WIDE}!"));
        client.shutdown();
        server.shutdown();
    }
}

#[test]
fn by_default_latin1_crosses_and_other_text_fails_with_data_conversion() {
    let (server, url) = serve(&[]);
    let client = client_with_options(&[]);
    let obj = client.string_to_object(&url).unwrap();
    assert_eq!(echo(&obj, LATIN).unwrap(), format!("{LATIN}!"));
    // Not representable in ISO 8859-1: refused before it is sent...
    assert_raises(
        echo(&obj, WIDE),
        SystemExceptionKind::DataConversion,
        DATA_CONVERSION_CHAR_NOT_IN_CODE_SET,
        CompletionStatus::No,
    );
    // ...or, in a reply, by the server after the operation ran.
    assert_raises(
        get(&obj),
        SystemExceptionKind::DataConversion,
        DATA_CONVERSION_CHAR_NOT_IN_CODE_SET,
        CompletionStatus::Yes,
    );
    // No wchar code set for a reference that names none.
    assert_raises(
        wecho(&obj, "x"),
        SystemExceptionKind::InvObjref,
        INV_OBJREF_WCHAR_CODE_SET_NOT_SPECIFIED,
        CompletionStatus::No,
    );
    client.shutdown();
    server.shutdown();
}

#[test]
fn a_server_assuming_utf8_refuses_latin1_octets_it_cannot_read() {
    // The client says nothing (CORBA's defaults); the server reads UTF-8.
    let (server, url) = serve(&["-ORBassumedCharCodeSet", "UTF-8"]);
    let client = client_with_options(&[]);
    let obj = client.string_to_object(&url).unwrap();
    assert_eq!(echo(&obj, "plain ASCII").unwrap(), "plain ASCII!");
    // "é" is one octet in ISO 8859-1, which is not UTF-8.
    assert_raises(
        echo(&obj, "café"),
        SystemExceptionKind::DataConversion,
        DATA_CONVERSION_CHAR_NOT_IN_CODE_SET,
        CompletionStatus::No,
    );
    client.shutdown();
    server.shutdown();
}

#[test]
fn an_assumed_char_code_set_alone_leaves_wide_text_without_a_code_set() {
    let (server, url) = serve(&[]);
    let client = client_with_options(&["-ORBassumedCharCodeSet", "0x05010001"]);
    let obj = client.string_to_object(&url).unwrap();
    assert_eq!(echo(&obj, WIDE).unwrap(), format!("{WIDE}!"));
    assert_raises(
        wecho(&obj, "x"),
        SystemExceptionKind::InvObjref,
        INV_OBJREF_WCHAR_CODE_SET_NOT_SPECIFIED,
        CompletionStatus::No,
    );
    client.shutdown();
    server.shutdown();
}

#[test]
fn native_code_sets_are_advertised_and_negotiated_first() {
    let (server, _, ior) = serve_with_ior(&[
        "-ORBnativeCharCodeSet",
        "ISO-8859-1",
        "-ORBnativeWCharCodeSet",
        "UCS-2",
    ]);
    let info = ObjectReference::from_stringified(&ior)
        .unwrap()
        .code_sets()
        .unwrap();
    assert_eq!(info.for_char_data.native_code_set, CodeSetId::ISO_8859_1);
    assert_eq!(info.for_char_data.conversion_code_sets, [CodeSetId::UTF_8]);
    assert_eq!(info.for_wchar_data.native_code_set, CodeSetId::UCS_2);
    assert_eq!(
        info.for_wchar_data.conversion_code_sets,
        [CodeSetId::UTF_16]
    );

    // A default client prefers its native UTF-8, which the server converts
    // to.
    let client = client_with_options(&[]);
    let obj = client.string_to_object(&ior).unwrap();
    assert_eq!(echo(&obj, WIDE).unwrap(), format!("{WIDE}!"));
    assert_eq!(wecho(&obj, WIDE).unwrap(), format!("{WIDE}!"));
    client.shutdown();

    // A client whose native code sets are ISO 8859-1 and UCS-2 uses them:
    // text beyond them fails, never altered.
    let latin = client::builder()
        .native_char_code_set(CodeSetId::ISO_8859_1)
        .native_wchar_code_set(CodeSetId::UCS_2)
        .build()
        .unwrap();
    let obj = latin.string_to_object(&ior).unwrap();
    assert_eq!(echo(&obj, LATIN).unwrap(), format!("{LATIN}!"));
    assert_raises(
        echo(&obj, WIDE),
        SystemExceptionKind::DataConversion,
        DATA_CONVERSION_CHAR_NOT_IN_CODE_SET,
        CompletionStatus::No,
    );
    assert_eq!(wecho(&obj, "Жук").unwrap(), "Жук!");
    assert_raises(
        wecho(&obj, "😀"),
        SystemExceptionKind::DataConversion,
        DATA_CONVERSION_CHAR_NOT_IN_CODE_SET,
        CompletionStatus::No,
    );
    latin.shutdown();
    server.shutdown();
}

#[test]
fn code_sets_rtorb_cannot_use_are_configuration_errors() {
    for (char_data, wchar_data) in [
        (CodeSetId::UTF_16, CodeSetId::UTF_16),
        (CodeSetId::UTF_8, CodeSetId::NONE),
        (CodeSetId(0x0001_000f), CodeSetId::UTF_16),
    ] {
        let built = Orb::builder()
            .native_char_code_set(char_data)
            .native_wchar_code_set(wchar_data)
            .build();
        assert!(matches!(built, Err(OrbError::CodeSet(_))), "{char_data}");
    }
    let built = Orb::builder()
        .assumed_char_code_set(CodeSetId::ISO_8859_1)
        .assumed_wchar_code_set(CodeSetId::UTF_8)
        .build();
    match built {
        Err(OrbError::CodeSet(e)) => assert_eq!(
            e.to_string(),
            "rtorb cannot use UTF-8 (0x05010001) as assumed wchar code set: \
             it converts wchar data to UTF-16 (0x00010109) and UCS-2 (0x00010100)"
        ),
        other => panic!("{other:?}"),
    }
    for args in [
        ["-ORBNativeCharCodeSet", "ISO-8859-15"],
        ["-ORBAssumedCharCodeSet", "none"],
        ["-ORBAssumedWCharCodeSet", "Latin-1"],
    ] {
        assert!(
            matches!(Orb::init(args), Err(OrbError::Option(_))),
            "{args:?}"
        );
    }
}

#[test]
fn native_code_sets_make_the_component_and_lead_negotiation() {
    let latin = CodeSetConfig {
        native_char: CodeSetId::ISO_8859_1,
        native_wchar: CodeSetId::UCS_2,
        ..CodeSetConfig::DEFAULT
    };
    let info = latin.component_info();
    match latin.component().decode_value() {
        Ok(Component::CodeSets(decoded)) => assert_eq!(decoded, info),
        other => panic!("{other:?}"),
    }
    // A default rtorb server converts to ISO 8859-1 and UCS-2.
    let cs = ClientCodeSets::negotiate(Some(&native_code_sets()), Version::V1_2, &latin);
    assert_eq!(cs.transmission().char_data, CodeSetId::ISO_8859_1);
    assert_eq!(cs.transmission().wchar_data, CodeSetId::UCS_2);
}

#[test]
fn assumed_code_sets_are_announced_and_servers_may_assume_them_too() {
    let utf = CodeSetConfig {
        assumed_char: CodeSetId::UTF_8,
        assumed_wchar: CodeSetId::UTF_16,
        ..CodeSetConfig::DEFAULT
    };
    let cs = ClientCodeSets::negotiate(None, Version::V1_2, &utf);
    assert_eq!(cs.transmission(), utf.assumed());
    let ctx = cs.context().expect("a CodeSets context");
    let mut server = ServerCodeSets::new(FrameProtocol::Giop, CodeSetConfig::DEFAULT.assumed());
    assert_eq!(
        server.on_request(&ServiceContextList(vec![ctx])),
        utf.assumed()
    );
    // A server that assumes them reads them without a context.
    let mut server = ServerCodeSets::new(FrameProtocol::Giop, utf.assumed());
    assert_eq!(server.on_request(&ServiceContextList::new()), utf.assumed());
    // CORBA's defaults are not announced (the octets on the wire stay
    // those of every ORB), nor can anything be in GIOP 1.0.
    let cs = ClientCodeSets::negotiate(None, Version::V1_2, &CodeSetConfig::DEFAULT);
    assert!(cs.context().is_none());
    let cs = ClientCodeSets::negotiate(None, Version::V1_0, &utf);
    assert_eq!(cs.transmission(), TransmissionCodeSets::UNNEGOTIATED);
    assert!(cs.context().is_none());
}

#[test]
fn text_outside_the_code_set_is_data_conversion_minor_1() {
    let cs = ClientCodeSets::negotiate(None, Version::V1_2, &CodeSetConfig::DEFAULT);
    let mut e =
        rtorb_cdr::Encoder::new(rtorb_cdr::Encoding::native().with_codesets(cs.transmission()));
    e.write_string(LATIN).unwrap();
    let err = e.write_string("Жук").unwrap_err();
    assert!(matches!(err, CdrError::BadCharacter { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        "character data not representable in code set ISO-8859-1 (0x00010001)"
    );
    let ex = cs.request_error(err);
    assert_eq!(ex.kind(), Some(SystemExceptionKind::DataConversion));
    assert_eq!(ex.minor, DATA_CONVERSION_CHAR_NOT_IN_CODE_SET);
    assert_eq!(ex.completed, CompletionStatus::No);
    let ex = rtorb::exception::marshal_completed(&e.write_char('Ж').unwrap_err());
    assert_eq!(ex.kind(), Some(SystemExceptionKind::DataConversion));
    assert_eq!(ex.completed, CompletionStatus::Yes);
    // wchar data without a wchar code set stays BAD_PARAM minor 23 at the
    // server.
    let ex = SystemException::from(e.write_wstring("x").unwrap_err());
    assert_eq!(ex.kind(), Some(SystemExceptionKind::BadParam));
    assert_eq!(ex.minor, BAD_PARAM_WCHAR_CODE_SET_NOT_NEGOTIATED);
}
