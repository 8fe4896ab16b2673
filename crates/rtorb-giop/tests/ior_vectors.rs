//! Byte vectors worked out from the IOP/IIOP definitions, and errors.

use rtorb_cdr::{ByteOrder, Bytes, CdrError, TaggedProfile, Version};
use rtorb_giop::ior::{
    Component, IiopProfile, IorError, MultipleComponentProfile, ObjectReference, Policy,
    PolicyValue, PriorityBand, PriorityModel, Profile, SslSecTrans, TaggedComponent, UiopProfile,
    decode_stringified, tags,
};

/// Octets from hex with spaces.
fn h(s: &str) -> Vec<u8> {
    let s: String = s.split_whitespace().collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn big_endian_iiop_1_2_profile_with_rt_policies() {
    let model = Policy::PriorityModel {
        model: PriorityModel::ServerDeclared,
        server_priority: 10,
    };
    let bands = Policy::PriorityBandedConnection(vec![
        PriorityBand { low: 0, high: 10 },
        PriorityBand { low: 11, high: 20 },
    ]);
    let pv1 = model.to_value(ByteOrder::Big).unwrap();
    assert_eq!(pv1.ptype, 40);
    // flag, pad, enum SERVER_DECLARED, short 10
    assert_eq!(&pv1.pvalue[..], &h("00 000000 00000001 000a")[..]);
    let pv2 = bands.to_value(ByteOrder::Big).unwrap();
    assert_eq!(pv2.ptype, 45);
    assert_eq!(
        &pv2.pvalue[..],
        &h("00 000000 00000002 0000 000a 000b 0014")[..]
    );

    let mut p = IiopProfile::new(Version::V1_2, "rt", 0x1234, &b"K"[..]);
    p.byte_order = ByteOrder::Big;
    p.push_component(&Component::OrbType(tags::ORB_TYPE_RTORB))
        .unwrap();
    p.push_component(&Component::Policies(vec![pv1, pv2]))
        .unwrap();
    let body = p.encode().unwrap();
    let expected = h("00 01 02 00 \
         00000003 727400 00 1234 0000 00000001 4b 000000 \
         00000002 \
         00000000 00000008 00 000000 52544f00 \
         00000002 00000034 00 000000 00000002 \
             00000028 0000000a 00 000000 00000001 000a 0000 \
             0000002d 00000010 00 000000 00000002 0000 000a 000b 0014");
    assert_eq!(&body[..], &expected[..]);

    let back = IiopProfile::decode(&body).unwrap();
    assert_eq!(back, p);
    let Component::Policies(ps) = back.components[1].decode_value().unwrap() else {
        panic!()
    };
    assert_eq!(ps[0].decode_value().unwrap(), model);
    assert_eq!(ps[1].decode_value().unwrap(), bands);
}

#[test]
fn little_endian_alternate_address_and_ssl() {
    let c = Component::AlternateIiopAddress {
        host: "::1".into(),
        port: 21235,
    }
    .to_tagged(ByteOrder::Little)
    .unwrap();
    // The octets omniORB writes (see data/omniorb_omninames_endpoints.ior).
    assert_eq!(c.tag, 3);
    assert_eq!(
        &c.component_data[..],
        &h("01 000000 04000000 3a3a3100 f352")[..]
    );

    let ssl = Component::SslSecTrans(SslSecTrans {
        target_supports: 0x66,
        target_requires: 0x60,
        port: 2810,
    });
    let t = ssl.to_tagged(ByteOrder::Big).unwrap();
    assert_eq!(t.tag, 20);
    assert_eq!(&t.component_data[..], &h("00 00 0066 0060 0afa")[..]);
    assert_eq!(t.decode_value().unwrap(), ssl);
}

#[test]
fn java_codebase_and_unknown_component() {
    let j = Component::JavaCodebase("http://x/".into());
    let t = j.to_tagged(ByteOrder::Big).unwrap();
    assert_eq!(
        &t.component_data[..],
        &h("00 000000 0000000a 687474703a2f2f782f00")[..]
    );
    assert_eq!(t.decode_value().unwrap(), j);
    let odd = TaggedComponent::new(0x7777, vec![9u8, 8, 7]);
    assert_eq!(odd.decode_value().unwrap(), Component::Other(odd.clone()));
    assert_eq!(odd.name(), None);
}

#[test]
fn uiop_profile_layout() {
    let mut u = UiopProfile::new(Version::V1_2, "/s", &b"ab"[..]);
    u.byte_order = ByteOrder::Big;
    let body = u.encode().unwrap();
    assert_eq!(
        &body[..],
        &h("00 01 02 00 00000003 2f7300 00 00000002 6162 0000 00000000")[..]
    );
    let tp = Profile::Uiop(u.clone()).to_tagged().unwrap();
    assert_eq!(tp.tag, tags::TAG_RTORB_UIOP);
    assert_eq!(tp.tag, 0x5254_4f01);
    assert_eq!(Profile::decode(&tp).unwrap(), Profile::Uiop(u));
}

#[test]
fn multiple_components_and_unknown_profiles_are_kept() {
    let mc = MultipleComponentProfile::new(vec![TaggedComponent::new(
        tags::TAG_ORB_TYPE,
        h("00 000000 54414f00"),
    )]);
    let tp = Profile::MultipleComponents(mc).to_tagged().unwrap();
    let unknown = TaggedProfile {
        tag: 0xdead,
        data: Bytes::from(h("01 02 03")),
    };
    let ior = rtorb_cdr::Ior {
        type_id: "IDL:T:1.0".into(),
        profiles: vec![tp.clone(), unknown.clone()],
    };
    let r = ObjectReference::from_ior(&ior).unwrap();
    assert_eq!(r.orb_type(), Some(tags::ORB_TYPE_TAO));
    assert_eq!(r.profiles[1].protocol(), "unknown");
    assert_eq!(r.to_ior().unwrap(), ior);
    assert_eq!(r.object_key(), None);
}

#[test]
fn non_canonical_octets_are_kept_when_unchanged() {
    // Nonzero padding octets and trailing data: re-emitted as received.
    let body = Bytes::from(h("00 01 00 ee 00000002 6800 1111 00000000 cafe"));
    let p = IiopProfile::decode(&body).unwrap();
    assert_eq!(p.host, "h");
    assert_eq!(p.port, 0x1111);
    assert_eq!(&p.trailing[..], &h("cafe")[..]);
    assert_eq!(p.encode().unwrap(), body);
    // Once changed, the profile is written afresh (zero padding), trailing
    // data still appended.
    let mut q = p.clone();
    q.port = 1;
    assert_eq!(
        &q.encode().unwrap()[..],
        &h("00 01 00 00 00000002 6800 0001 00000000 cafe")[..]
    );
}

#[test]
fn components_in_a_1_0_profile_are_refused() {
    let mut p = IiopProfile::new(Version::V1_0, "h", 1, Bytes::new());
    p.components.push(TaggedComponent::new(1, vec![0u8]));
    assert!(matches!(p.encode(), Err(CdrError::Unsupported(_))));
}

#[test]
fn nil_reference() {
    let nil = ObjectReference::nil();
    assert!(nil.is_nil());
    let s = nil.to_stringified_in(ByteOrder::Big).unwrap();
    // flag, pad, type id "" (length 1, NUL), pad, no profiles
    assert_eq!(s, "IOR:00000000000000010000000000000000");
    let back: ObjectReference = s.parse().unwrap();
    assert!(back.is_nil());
    assert_eq!(back.first_iiop_endpoint(), None);
}

#[test]
fn stringified_input_is_case_insensitive_and_trimmed() {
    let s = "  ior:00000000000000010000000000000000\n";
    assert!(ObjectReference::from_stringified(s).unwrap().is_nil());
    let upper = "IoR:01000000010000000000000000000000Ab";
    // Last octet is trailing data inside the encapsulation: ignored.
    assert!(ObjectReference::from_stringified(upper).unwrap().is_nil());
    let (_, order) = decode_stringified(upper).unwrap();
    assert_eq!(order, ByteOrder::Little);
}

#[test]
fn stringified_errors_are_typed() {
    assert_eq!(
        ObjectReference::from_stringified("IOX:00"),
        Err(IorError::BadPrefix)
    );
    assert_eq!(
        ObjectReference::from_stringified("IO"),
        Err(IorError::BadPrefix)
    );
    assert_eq!(
        ObjectReference::from_stringified("IOR:"),
        Err(IorError::Empty)
    );
    assert_eq!(
        ObjectReference::from_stringified("IOR:000"),
        Err(IorError::OddLength(3))
    );
    assert_eq!(
        ObjectReference::from_stringified("IOR:00g0"),
        Err(IorError::BadHexDigit {
            offset: 2,
            found: 'g'
        })
    );
    assert_eq!(
        ObjectReference::from_stringified("IOR:00 00"),
        Err(IorError::BadHexDigit {
            offset: 2,
            found: ' '
        })
    );
    assert!(matches!(
        ObjectReference::from_stringified("IOR:02"),
        Err(IorError::Cdr(CdrError::InvalidByteOrder(2)))
    ));
    // Truncated: the type id promises 0x10 octets.
    let e = ObjectReference::from_stringified("IOR:0000000000000010414243").unwrap_err();
    assert!(
        matches!(e, IorError::Cdr(CdrError::LengthTooLarge { .. })),
        "{e:?}"
    );
    assert_eq!(e.exception_name(), "MARSHAL");
    assert_eq!(IorError::BadPrefix.minor(), 0x4f4d_0007);
    assert_eq!(IorError::OddLength(1).minor(), 0x4f4d_0009);
}

#[test]
fn hostile_component_count_is_rejected_without_allocating() {
    // IIOP 1.2 profile whose component sequence claims 0xffffffff entries.
    let body = Bytes::from(h("00 01 02 00 00000002 6800 0001 00000000 ffffffff"));
    assert!(matches!(
        IiopProfile::decode(&body),
        Err(CdrError::LengthTooLarge {
            length: 0xffff_ffff,
            ..
        })
    ));
    // Profile count 0xffffffff in a stringified IOR.
    let e = ObjectReference::from_stringified(
        "IOR:0000000000000001000000 00ffffffff"
            .replace(' ', "")
            .as_str(),
    )
    .unwrap_err();
    assert!(
        matches!(e, IorError::Cdr(CdrError::LengthTooLarge { .. })),
        "{e:?}"
    );
    // Empty profile body (no byte-order octet).
    let tp = TaggedProfile {
        tag: 0,
        data: Bytes::new(),
    };
    assert_eq!(
        Profile::decode(&tp),
        Err(CdrError::UnexpectedEnd {
            needed: 1,
            remaining: 0
        })
    );
    // A malformed component decodes to an error, not a panic.
    let c = TaggedComponent::new(tags::TAG_CODE_SETS, h("00 000000 00010001 ffffffff"));
    assert_eq!(
        c.decode_value(),
        Err(CdrError::LengthTooLarge {
            length: 0xffff_ffff,
            remaining: 0
        })
    );
    let pv = PolicyValue {
        ptype: 40,
        pvalue: Bytes::from(h("00 000000 00000007 0000")),
    };
    assert!(matches!(
        pv.decode_value(),
        Err(CdrError::InvalidEnum { value: 7, .. })
    ));
}
