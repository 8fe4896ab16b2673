//! Code-set negotiation between rtorb ORBs, and the exceptions for wide
//! text where no `wchar` code set can be in force: references without a
//! `TAG_CODE_SETS` component (corbaloc URLs), GIOP 1.0, and requests that
//! arrive without a `CodeSets` service context.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::{Arc, Barrier, Mutex};

use bytes::Bytes;
use rtorb::codesets::native_code_sets;
use rtorb::exception::{CompletionStatus, SystemException, SystemExceptionKind, bad_operation};
use rtorb::minor::{
    BAD_PARAM_WCHAR_CODE_SET_NOT_NEGOTIATED, DATA_CONVERSION_CHAR_NOT_IN_CODE_SET,
    INV_OBJREF_WCHAR_CODE_SET_NOT_SPECIFIED, MARSHAL_WCHAR_RETURNED_BY_SERVER_GIOP_1_0,
    MARSHAL_WCHAR_SENT_BY_CLIENT_GIOP_1_0,
};
use rtorb::object::Object;
use rtorb::orb::{ConnectionStrategy, Orb};
use rtorb::policy::SyncScope;
use rtorb::servant::{ServerRequest, Skeleton};
use rtorb_cdr::codeset::{CodeSetContext, CodeSetId};
use rtorb_cdr::{ByteOrder, Encoding, Version};
use rtorb_giop::message::{Content, Message, ReplyStatus, RequestHeader};
use rtorb_giop::service_context::{ServiceContext, TypedServiceContext};
use rtorb_giop::{MessageWriter, ObjectReference, decode_message};
use rtorb_test_support::net::read_message;
use rtorb_test_support::text::Text;
use rtorb_test_support::wait::eventually;
use rtorb_test_support::{TIMEOUT, client, server};

/// Text outside ISO 8859-1, with a character beyond the Basic Multilingual
/// Plane (a UTF-16 surrogate pair).
const WIDE: &str = "Grüße, Жук, 日本 😀";

fn serve(endpoint: &str) -> (Orb, String) {
    let server = Orb::builder().listen(endpoint).build().unwrap();
    let ior = server::serve(&server, b"Text", Arc::new(Text::new(WIDE)));
    (server, ior)
}

fn wecho(obj: &Object, w: &str) -> Result<String, SystemException> {
    obj.invoke("wecho", |e| e.write_wstring(w))?
        .decode::<String, SystemException>(|d| d.read_wstring())
}

fn wget(obj: &Object) -> Result<String, SystemException> {
    obj.invoke("wget", |_| Ok(()))?
        .decode::<String, SystemException>(|d| d.read_wstring())
}

fn echo(obj: &Object, s: &str) -> Result<String, SystemException> {
    obj.invoke("echo", |e| e.write_string(s))?
        .decode::<String, SystemException>(|d| d.read_string())
}

fn assert_raises(got: Result<String, SystemException>, kind: SystemExceptionKind, minor: u32) {
    match got {
        Err(e) if e.kind() == Some(kind) && e.minor == minor => {}
        other => panic!("expected {} minor {minor:#x}, got {other:?}", kind.name()),
    }
}

fn host_port(orb: &Orb) -> String {
    rtorb_test_support::net::iiop_address(orb)
}

#[test]
fn wide_and_narrow_text_cross_negotiated_connections() {
    let dir = std::env::temp_dir();
    let uiop = format!(
        "uiop://{}/rtorb-codesets-{}.sock",
        dir.display(),
        std::process::id()
    );
    for endpoint in ["iiop://1.1@127.0.0.1:0", "iiop://1.2@127.0.0.1:0", &uiop] {
        let (server, ior) = serve(endpoint);
        let reference = ObjectReference::from_stringified(&ior).unwrap();
        assert_eq!(
            reference.code_sets(),
            Some(native_code_sets()),
            "{endpoint}"
        );
        let client = client::orb();
        let obj = client.string_to_object(&ior).unwrap();
        assert_eq!(wecho(&obj, WIDE).unwrap(), format!("{WIDE}!"), "{endpoint}");
        assert_eq!(wget(&obj).unwrap(), WIDE, "{endpoint}");
        // UTF-8 was negotiated for char data: any text goes.
        assert_eq!(echo(&obj, WIDE).unwrap(), format!("{WIDE}!"), "{endpoint}");
        client.shutdown();
        server.shutdown();
    }
}

#[test]
fn a_reference_without_code_sets_gives_inv_objref_for_wide_text() {
    let (server, _) = serve("iiop://1.2@127.0.0.1:0");
    let url = format!("corbaloc::1.2@{}/Text", host_port(&server));
    let client = client::orb();
    let obj = client.string_to_object(&url).unwrap();
    let e = wecho(&obj, "x").unwrap_err();
    assert_eq!(e.kind(), Some(SystemExceptionKind::InvObjref));
    assert_eq!(e.minor, INV_OBJREF_WCHAR_CODE_SET_NOT_SPECIFIED);
    assert_eq!(e.completed, CompletionStatus::No);
    // Nothing negotiated: the server has no wchar code set for its reply.
    assert_raises(
        wget(&obj),
        SystemExceptionKind::BadParam,
        BAD_PARAM_WCHAR_CODE_SET_NOT_NEGOTIATED,
    );
    // char data is ISO 8859-1: Latin-1 text goes, other text does not.
    assert_eq!(echo(&obj, "café").unwrap(), "café!");
    // Never sent altered: DATA_CONVERSION minor 1, before anything is sent.
    let e = echo(&obj, "日本").unwrap_err();
    assert_eq!(e.kind(), Some(SystemExceptionKind::DataConversion));
    assert_eq!(e.minor, DATA_CONVERSION_CHAR_NOT_IN_CODE_SET);
    assert_eq!(e.completed, CompletionStatus::No);
    client.shutdown();
    server.shutdown();
}

#[test]
fn giop_1_0_carries_no_wide_text() {
    let (server, ior) = serve("iiop://1.0@127.0.0.1:0");
    let reference = ObjectReference::from_stringified(&ior).unwrap();
    assert_eq!(
        reference.code_sets(),
        None,
        "a 1.0 profile has no components"
    );
    let client = client::orb();
    let obj = client.string_to_object(&ior).unwrap();
    assert_raises(
        wecho(&obj, "x"),
        SystemExceptionKind::InvObjref,
        INV_OBJREF_WCHAR_CODE_SET_NOT_SPECIFIED,
    );
    assert_raises(
        wget(&obj),
        SystemExceptionKind::Marshal,
        MARSHAL_WCHAR_RETURNED_BY_SERVER_GIOP_1_0,
    );
    assert_eq!(echo(&obj, "café").unwrap(), "café!");
    client.shutdown();
    server.shutdown();
}

/// Sends one request and reads the reply.
fn exchange(stream: &mut TcpStream, request: &Bytes) -> Message {
    stream.write_all(request).unwrap();
    let mut header = [0u8; 12];
    stream.read_exact(&mut header).unwrap();
    let b = [header[8], header[9], header[10], header[11]];
    let size = if header[6] & 1 == 1 {
        u32::from_le_bytes(b)
    } else {
        u32::from_be_bytes(b)
    };
    let mut body = vec![0u8; size as usize];
    stream.read_exact(&mut body).unwrap();
    let mut whole = header.to_vec();
    whole.extend_from_slice(&body);
    decode_message(whole.into()).unwrap()
}

/// A `wecho` request for "ok" in `version`, with the given service
/// contexts; in GIOP 1.0 the wstring is written as GIOP 1.1 would.
fn wecho_request(version: Version, contexts: Vec<ServiceContext>) -> Bytes {
    let enc = Encoding::native()
        .with_order(ByteOrder::Big)
        .with_version(version);
    let mut header = RequestHeader::new(5, Bytes::from_static(b"Text"), "wecho");
    header.service_context.0 = contexts;
    let mut w = MessageWriter::request(enc, &header).unwrap();
    if version == Version::V1_0 {
        let e = w.body();
        e.write_u32(3);
        for u in "ok".encode_utf16().chain([0]) {
            e.write_u16(u);
        }
    } else {
        w.body().write_wstring("ok").unwrap();
    }
    w.finish().unwrap()
}

fn system_exception(reply: &Message) -> SystemException {
    let Content::Reply(r) = &reply.content else {
        panic!("{reply:?}")
    };
    assert_eq!(r.header.reply_status, ReplyStatus::SystemException);
    r.system_exception(reply.order).unwrap()
}

#[test]
fn a_server_rejects_wide_text_it_cannot_have_been_sent() {
    let (server, _) = serve("iiop://127.0.0.1:0");
    let mut raw = TcpStream::connect(host_port(&server)).unwrap();
    raw.set_read_timeout(Some(TIMEOUT)).unwrap();

    // GIOP 1.0 has no wchar encoding: MARSHAL minor 5.
    let e = system_exception(&exchange(&mut raw, &wecho_request(Version::V1_0, vec![])));
    assert_eq!(e.kind(), Some(SystemExceptionKind::Marshal));
    assert_eq!(e.minor, MARSHAL_WCHAR_SENT_BY_CLIENT_GIOP_1_0);

    // GIOP 1.2 before any CodeSets context: BAD_PARAM minor 23.
    let e = system_exception(&exchange(&mut raw, &wecho_request(Version::V1_2, vec![])));
    assert_eq!(e.kind(), Some(SystemExceptionKind::BadParam));
    assert_eq!(e.minor, BAD_PARAM_WCHAR_CODE_SET_NOT_NEGOTIATED);

    // With the context, the connection has UTF-16 for wchar data.
    let context = ServiceContext::from_typed(
        &TypedServiceContext::CodeSets(CodeSetContext {
            char_data: CodeSetId::UTF_8,
            wchar_data: CodeSetId::UTF_16,
        }),
        ByteOrder::Big,
    )
    .unwrap();
    let reply = exchange(&mut raw, &wecho_request(Version::V1_2, vec![context]));
    let Content::Reply(r) = &reply.content else {
        panic!("{reply:?}")
    };
    assert_eq!(r.header.reply_status, ReplyStatus::NoException);
    let whole = rtorb_giop::encode_message(&reply).unwrap();
    let mut d = reply
        .body_decoder(
            &whole,
            rtorb_cdr::TransmissionCodeSets {
                char_data: CodeSetId::UTF_8,
                wchar_data: CodeSetId::UTF_16,
            },
        )
        .unwrap();
    assert_eq!(d.read_wstring().unwrap(), "ok!");

    // The code sets hold for the connection: no context needed any more.
    let reply = exchange(&mut raw, &wecho_request(Version::V1_2, vec![]));
    let Content::Reply(r) = &reply.content else {
        panic!("{reply:?}")
    };
    assert_eq!(r.header.reply_status, ReplyStatus::NoException);
    server.shutdown();
}

/// An rtorb client against a peer that advertises omniORB's code sets
/// (ISO 8859-1 native for char, converting to UTF-8; UTF-16 for wchar):
/// it negotiates UTF-8 and UTF-16, says so in the CodeSets context of the
/// first request on the connection only, and writes its text in them.
#[test]
fn the_first_request_of_a_connection_carries_the_negotiated_code_sets() {
    first_request_carries_the_code_sets(ConnectionStrategy::Exclusive);
}

/// As above, on a connection shared by the multiplexed strategy.
#[test]
fn the_first_request_of_a_multiplexed_connection_carries_the_negotiated_code_sets() {
    first_request_carries_the_code_sets(ConnectionStrategy::Multiplexed);
}

fn first_request_carries_the_code_sets(strategy: ConnectionStrategy) {
    use rtorb_cdr::codeset::{CodeSetComponent, CodeSetComponentInfo};
    use rtorb_giop::ior::{Component, IiopProfile, Profile};
    use rtorb_giop::message::ReplyHeader;

    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let peer_sets = CodeSetComponentInfo {
        for_char_data: CodeSetComponent {
            native_code_set: CodeSetId::ISO_8859_1,
            conversion_code_sets: vec![CodeSetId::UTF_8],
        },
        for_wchar_data: CodeSetComponent {
            native_code_set: CodeSetId::UTF_16,
            conversion_code_sets: vec![],
        },
    };
    let mut profile = IiopProfile::new(Version::V1_2, "127.0.0.1", port, &b"Peer"[..]);
    profile
        .push_component(&Component::CodeSets(peer_sets))
        .unwrap();
    let reference = ObjectReference::new("IDL:Text:1.0", vec![Profile::Iiop(profile)]);

    let peer = std::thread::spawn(move || {
        let (mut s, _) = listener.accept().unwrap();
        s.set_read_timeout(Some(TIMEOUT)).unwrap();
        let negotiated = rtorb_cdr::TransmissionCodeSets {
            char_data: CodeSetId::UTF_8,
            wchar_data: CodeSetId::UTF_16,
        };
        let mut contexts = Vec::new();
        for _ in 0..2 {
            let m = read_message(&mut s);
            let Content::Request(r) = &m.content else {
                panic!("{m:?}")
            };
            contexts.push(r.header.service_context.code_sets().map(|c| c.unwrap()));
            let whole = rtorb_giop::encode_message(&m).unwrap();
            let mut d = m.body_decoder(&whole, negotiated).unwrap();
            let text = match r.header.operation.as_str() {
                "wecho" => d.read_wstring().unwrap(),
                _ => d.read_string().unwrap(),
            };
            let enc = m.encoding().with_codesets(negotiated);
            let header = ReplyHeader::new(r.header.request_id, ReplyStatus::NoException);
            let mut w = MessageWriter::reply(enc, &header).unwrap();
            match r.header.operation.as_str() {
                "wecho" => w.body().write_wstring(&format!("{text}?")).unwrap(),
                _ => w.body().write_string(&format!("{text}?")).unwrap(),
            }
            s.write_all(&w.finish().unwrap()).unwrap();
        }
        contexts
    });

    let client = client::with_strategy(strategy);
    let obj = client
        .string_to_object(&reference.to_stringified().unwrap())
        .unwrap();
    assert_eq!(wecho(&obj, WIDE).unwrap(), format!("{WIDE}?"));
    assert_eq!(echo(&obj, "日本").unwrap(), "日本?");
    let contexts = peer.join().unwrap();
    assert_eq!(
        contexts,
        vec![
            Some(CodeSetContext {
                char_data: CodeSetId::UTF_8,
                wchar_data: CodeSetId::UTF_16,
            }),
            None,
        ]
    );
    client.shutdown();
}

/// Echoes wide text, and keeps the last `wset` (a oneway) for `wlast`.
#[derive(Default)]
struct Store {
    last: Mutex<Option<String>>,
}

impl Skeleton for Store {
    fn repository_ids(&self) -> &'static [&'static str] {
        &["IDL:Store:1.0"]
    }

    fn dispatch(&self, req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
        match req.operation() {
            "wecho" => {
                let w = req.arguments().read_wstring()?;
                req.write_results(|e| e.write_wstring(&format!("{w}!")))
            }
            "wset" => {
                let w = req.arguments().read_wstring()?;
                *self.last.lock().unwrap() = Some(w);
                Ok(())
            }
            _ => Err(bad_operation()),
        }
    }
}

fn serve_store() -> (Orb, Arc<Store>, String) {
    let server = server::orb();
    let store = Arc::new(Store::default());
    let ior = server::serve(&server, b"Store", store.clone());
    (server, store, ior)
}

fn client_with(strategy: ConnectionStrategy, sync: SyncScope) -> Orb {
    client::builder()
        .connection_strategy(strategy)
        .sync_scope(sync)
        .build()
        .unwrap()
}

/// Wide text needs the code sets the server takes from the first request
/// of the connection: calls from many threads at once, the first on a
/// new client, all get through, whichever writes first (on the shared
/// connection of the multiplexed strategy) or on however many exclusive
/// connections they open.
#[test]
fn concurrent_first_calls_announce_the_code_sets_under_both_strategies() {
    const THREADS: usize = 8;
    for strategy in [
        ConnectionStrategy::Exclusive,
        ConnectionStrategy::Multiplexed,
    ] {
        let (server, _, ior) = serve_store();
        let client = client_with(strategy, SyncScope::WithTransport);
        let obj = client.string_to_object(&ior).unwrap();
        let start = Barrier::new(THREADS);
        std::thread::scope(|scope| {
            let calls: Vec<_> = (0..THREADS)
                .map(|i| {
                    let (obj, start) = (&obj, &start);
                    scope.spawn(move || {
                        start.wait();
                        let text = format!("{WIDE} {i}");
                        (wecho(obj, &text), format!("{text}!"))
                    })
                })
                .collect();
            for call in calls {
                let (got, expected) = call.join().unwrap();
                assert_eq!(got.unwrap(), expected, "{strategy:?}");
            }
        });
        client.shutdown();
        server.shutdown();
    }
}

/// A `LocateRequest` has no service contexts: after one has opened the
/// connection, the first `Request` on it still announces the code sets.
#[test]
fn a_locate_request_first_leaves_the_code_sets_to_the_first_request() {
    for strategy in [
        ConnectionStrategy::Exclusive,
        ConnectionStrategy::Multiplexed,
    ] {
        let (server, _, ior) = serve_store();
        let client = client_with(strategy, SyncScope::WithTransport);
        let obj = client.string_to_object(&ior).unwrap();
        assert!(obj.validate_connection().unwrap(), "{strategy:?}");
        assert_eq!(
            wecho(&obj, WIDE).unwrap(),
            format!("{WIDE}!"),
            "{strategy:?}"
        );
        client.shutdown();
        server.shutdown();
    }
}

/// A `SYNC_NONE` oneway is encoded before the connection that carries it
/// is known: it announces the code sets itself, so wide text in one that
/// is the first request on its connection reaches the servant.
#[test]
fn sync_none_oneways_announce_the_code_sets() {
    for strategy in [
        ConnectionStrategy::Exclusive,
        ConnectionStrategy::Multiplexed,
    ] {
        let (server, store, ior) = serve_store();
        let client = client_with(strategy, SyncScope::None);
        let obj = client.string_to_object(&ior).unwrap();
        obj.invoke_oneway("wset", |e| e.write_wstring(WIDE))
            .unwrap();
        // The oneway is written by a background thread: wait for it.
        let _ = eventually(TIMEOUT, || store.last.lock().unwrap().is_some());
        let last = store.last.lock().unwrap().clone();
        assert_eq!(last.as_deref(), Some(WIDE), "{strategy:?}");
        // Calls after it, on the same connection or another, work too.
        assert_eq!(
            wecho(&obj, WIDE).unwrap(),
            format!("{WIDE}!"),
            "{strategy:?}"
        );
        client.shutdown();
        server.shutdown();
    }
}
