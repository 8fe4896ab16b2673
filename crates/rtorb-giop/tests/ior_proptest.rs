//! Property tests: random references round trip in both byte orders, and
//! random input never panics the decoders.

use proptest::prelude::*;
use rtorb_cdr::{ByteOrder, Bytes, Decoder, Encoding, TaggedProfile, Version};
use rtorb_giop::ior::{
    IiopProfile, MultipleComponentProfile, ObjectReference, Profile, TaggedComponent, UiopProfile,
    decode_stringified, encode_stringified,
};

fn order() -> impl Strategy<Value = ByteOrder> {
    prop_oneof![Just(ByteOrder::Big), Just(ByteOrder::Little)]
}

fn latin1(max: usize) -> impl Strategy<Value = String> {
    proptest::collection::vec(1u8..=255, 0..max)
        .prop_map(|v| v.into_iter().map(|b| b as char).collect())
}

fn bytes(max: usize) -> impl Strategy<Value = Bytes> {
    proptest::collection::vec(any::<u8>(), 0..max).prop_map(Bytes::from)
}

fn component() -> impl Strategy<Value = TaggedComponent> {
    (any::<u32>(), bytes(24)).prop_map(|(t, d)| TaggedComponent::new(t, d))
}

fn version() -> impl Strategy<Value = Version> {
    (0u8..3, 0u8..4).prop_map(|(a, b)| Version::new(a, b))
}

fn components_for(v: Version) -> BoxedStrategy<Vec<TaggedComponent>> {
    if v >= Version::V1_1 {
        proptest::collection::vec(component(), 0..4).boxed()
    } else {
        Just(Vec::new()).boxed()
    }
}

fn iiop() -> impl Strategy<Value = IiopProfile> {
    version().prop_flat_map(|v| {
        (
            latin1(20),
            any::<u16>(),
            bytes(20),
            components_for(v),
            order(),
        )
            .prop_map(move |(host, port, key, comps, o)| {
                let mut p = IiopProfile::new(v, host, port, key);
                p.components = comps;
                p.byte_order = o;
                p
            })
    })
}

fn uiop() -> impl Strategy<Value = UiopProfile> {
    version().prop_flat_map(|v| {
        (latin1(20), bytes(20), components_for(v), order()).prop_map(
            move |(path, key, comps, o)| {
                let mut p = UiopProfile::new(v, path, key);
                p.components = comps;
                p.byte_order = o;
                p
            },
        )
    })
}

fn profile() -> impl Strategy<Value = Profile> {
    prop_oneof![
        iiop().prop_map(Profile::Iiop),
        uiop().prop_map(Profile::Uiop),
        (proptest::collection::vec(component(), 0..4), order()).prop_map(|(c, o)| {
            let mut m = MultipleComponentProfile::new(c);
            m.byte_order = o;
            Profile::MultipleComponents(m)
        }),
        (3u32..0x5254_4f00, bytes(16)).prop_map(|(tag, data)| Profile::Unknown { tag, data }),
    ]
}

proptest! {
    #[test]
    fn iiop_profiles_round_trip(p in iiop()) {
        let body = p.encode().unwrap();
        prop_assert_eq!(body[0], p.byte_order.flag());
        let back = IiopProfile::decode(&body).unwrap();
        prop_assert_eq!(&back, &p);
        prop_assert_eq!(back.encode().unwrap(), body);
    }

    #[test]
    fn references_round_trip_through_strings(
        type_id in latin1(30),
        profiles in proptest::collection::vec(profile(), 0..4),
        o in order(),
    ) {
        let r = ObjectReference::new(type_id, profiles);
        let s = r.to_stringified_in(o).unwrap();
        let (ior, got_order) = decode_stringified(&s).unwrap();
        prop_assert_eq!(got_order, o);
        let back = ObjectReference::from_ior(&ior).unwrap();
        prop_assert_eq!(&back, &r);
        prop_assert_eq!(encode_stringified(&back.to_ior().unwrap(), o).unwrap(), s.clone());
        prop_assert_eq!(s.to_uppercase().parse::<ObjectReference>().unwrap(), r);
    }

    #[test]
    fn references_round_trip_inline_in_cdr(r in proptest::collection::vec(profile(), 0..3), o in order()) {
        use rtorb_cdr::{CdrDecode, CdrEncode, Encoder};
        let r = ObjectReference::new("IDL:X:1.0", r);
        let mut e = Encoder::new(Encoding::native().with_order(o));
        r.encode(&mut e).unwrap();
        let mut d = Decoder::new(e.into_bytes(), Encoding::native().with_order(o));
        prop_assert_eq!(ObjectReference::decode(&mut d).unwrap(), r);
    }

    #[test]
    fn random_strings_never_panic(s in ".{0,64}") {
        let _ = ObjectReference::from_stringified(&s);
        let _ = ObjectReference::from_stringified(&format!("IOR:{s}"));
    }

    #[test]
    fn random_octets_never_panic(raw in proptest::collection::vec(any::<u8>(), 0..200)) {
        let hex: String = raw.iter().map(|b| format!("{b:02x}")).collect();
        if let Ok(r) = ObjectReference::from_stringified(&format!("IOR:{hex}")) {
            // Whatever decodes, re-encodes and renders.
            let _ = r.to_ior();
            let _ = r.info().to_json();
        }
        let data = Bytes::from(raw);
        for tag in [0u32, 1, 0x5254_4f01] {
            if let Ok(p) = Profile::decode(&TaggedProfile { tag, data: data.clone() }) {
                prop_assert_eq!(p.to_tagged().unwrap().data, data.clone());
                for c in p.components() {
                    let _ = c.decode_value();
                }
                let _ = rtorb_giop::ior::info::profile_info(&p).to_json();
            }
        }
        for tag in [0u32, 1, 2, 3, 20, 25, 0x4154_5401, 0x4154_5402, 0x4154_5403] {
            let c = TaggedComponent::new(tag, data.clone());
            if let Ok(rtorb_giop::ior::Component::Policies(ps)) = c.decode_value() {
                for p in ps {
                    let _ = p.decode_value();
                }
            }
        }
    }

    #[test]
    fn mutated_valid_profiles_never_panic(p in iiop(), at in any::<prop::sample::Index>(), val in any::<u8>()) {
        let mut body = p.encode().unwrap().to_vec();
        let i = at.index(body.len());
        body[i] = val;
        let cut = at.index(body.len() + 1);
        for data in [Bytes::from(body.clone()), Bytes::from(body[..cut].to_vec())] {
            if let Ok(q) = IiopProfile::decode(&data) {
                prop_assert_eq!(q.encode().unwrap(), data);
            }
        }
    }
}
