//! Request templates: a request written from a template is octet for
//! octet the request the writer makes, in every GIOP version and in
//! GIOPlite, whatever the id and body.

use bytes::{Bytes, BytesMut};
use proptest::prelude::*;
use rtorb_cdr::{ByteOrder, Encoding, Version};
use rtorb_giop::lite::lite_request_with_buffer;
use rtorb_giop::message::{MessageWriter, RequestHeader, RequestTemplate};
use rtorb_giop::service_context::{ServiceContext, ServiceContextList};
use rtorb_giop::target::TargetAddress;

fn header(
    request_id: u32,
    flags: u8,
    key: &[u8],
    op: &str,
    contexts: &ServiceContextList,
) -> RequestHeader {
    RequestHeader {
        request_id,
        response_flags: flags,
        target: TargetAddress::Key(Bytes::copy_from_slice(key)),
        operation: op.to_owned().into(),
        service_context: contexts.clone(),
        requesting_principal: Bytes::new(),
        reserved: [0; 3],
    }
}

/// A writer of the request with `h`, GIOP (`lite` false) or GIOPlite.
fn writer(lite: bool, encoding: Encoding, h: &RequestHeader) -> MessageWriter {
    let buf = BytesMut::new();
    if lite {
        lite_request_with_buffer(buf, encoding, h).unwrap()
    } else {
        MessageWriter::request_with_buffer(buf, encoding, h).unwrap()
    }
}

fn with_body(mut w: MessageWriter, body: &[u8], long: Option<u32>) -> Bytes {
    if let Some(l) = long {
        w.body().write_u32(l);
    }
    if !body.is_empty() {
        w.body().write_raw(body);
    }
    w.finish().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn a_request_from_a_template_is_the_request_the_writer_makes(
        version in prop_oneof![Just(None), Just(Some(Version::V1_0)), Just(Some(Version::V1_1)),
                               Just(Some(Version::V1_2))],
        big in any::<bool>(),
        first_id in any::<u32>(),
        id in any::<u32>(),
        flags in prop_oneof![Just(0u8), Just(3u8)],
        key in proptest::collection::vec(any::<u8>(), 0..24),
        op in "[a-z_][a-z0-9_]{0,20}",
        with_contexts in any::<bool>(),
        body in proptest::collection::vec(any::<u8>(), 0..16),
        long in proptest::option::of(any::<u32>()),
    ) {
        let lite = version.is_none();
        let order = if big { ByteOrder::Big } else { ByteOrder::Little };
        let encoding = Encoding::native()
            .with_order(order)
            .with_version(version.unwrap_or(Version::V1_2));
        let contexts = if with_contexts {
            ServiceContextList(vec![ServiceContext { id: 1, data: Bytes::from_static(b"ctx") }])
        } else {
            ServiceContextList::new()
        };
        let first = writer(lite, encoding, &header(first_id, flags, &key, &op, &contexts));
        let template = RequestTemplate::capture(&first);
        let old = matches!(version, Some(v) if v < Version::V1_2);
        if old && with_contexts {
            // The contexts come before the id: not captured.
            prop_assert!(template.is_none());
            return Ok(());
        }
        let template = template.expect("captured");
        let want = with_body(writer(lite, encoding, &header(id, flags, &key, &op, &contexts)), &body, long);
        let got = with_body(template.writer(BytesMut::new(), id), &body, long);
        prop_assert_eq!(got, want);

        // Recapturing into a template of another request gives the same.
        let mut other = RequestTemplate::capture(&writer(lite, encoding, &header(0, 0, b"x", "y", &ServiceContextList::new()))).unwrap();
        prop_assert!(other.recapture(&first));
        let again = with_body(other.writer(BytesMut::with_capacity(8), id), &body, long);
        let want = with_body(writer(lite, encoding, &header(id, flags, &key, &op, &contexts)), &body, long);
        prop_assert_eq!(again, want);
    }
}

#[test]
fn a_writer_with_a_body_started_is_not_captured() {
    let h = header(1, 3, b"key", "op", &ServiceContextList::new());
    let mut w = writer(false, Encoding::native(), &h);
    w.body().write_u32(7);
    assert!(RequestTemplate::capture(&w).is_none());
}
