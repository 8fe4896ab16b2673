//! Decoding and re-encoding IORs made by omniORB (fixtures in `data/`).

use rtorb_cdr::codeset::CodeSetId;
use rtorb_cdr::{ByteOrder, Version};
use rtorb_giop::ior::{
    Component, ObjectReference, Profile, decode_stringified, encode_stringified, tags,
};

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).unwrap().trim().to_owned()
}

const ALL: &[&str] = &[
    "omniorb_genior_cubit.ior",
    "omniorb_genior_ipv6_hexkey.ior",
    "omniorb_genior_empty_key.ior",
    "omniorb_omninames_endpoints.ior",
    "omniorb_omninames_giop10.ior",
];

#[test]
fn every_fixture_round_trips_byte_exactly() {
    for name in ALL {
        let s = fixture(name);
        let (ior, order) = decode_stringified(&s).unwrap();
        assert_eq!(order, ByteOrder::Little, "{name}");
        let r = ObjectReference::from_ior(&ior).unwrap();
        let again = encode_stringified(&r.to_ior().unwrap(), order).unwrap();
        assert_eq!(again, s, "{name}");
        // omniORB writes little-endian, so does rtorb on this machine
        // (native order).
        if ByteOrder::NATIVE == ByteOrder::Little {
            assert_eq!(r.to_stringified().unwrap(), s, "{name}");
        }
    }
}

#[test]
fn fixtures_round_trip_when_profiles_are_re_encoded_afresh() {
    // Changing and restoring a field drops nothing: a fresh encoding in the
    // profile's own byte order equals omniORB's octets.
    for name in ALL {
        let s = fixture(name);
        let mut r: ObjectReference = s.parse().unwrap();
        for p in &mut r.profiles {
            if let Profile::Iiop(i) = p {
                let mut fresh = rtorb_giop::ior::IiopProfile::new(
                    i.version,
                    i.host.clone(),
                    i.port,
                    i.object_key.clone(),
                );
                fresh.components = i.components.clone();
                fresh.byte_order = i.byte_order;
                fresh.trailing = i.trailing.clone();
                *i = fresh;
            }
        }
        assert_eq!(r.to_stringified_in(ByteOrder::Little).unwrap(), s, "{name}");
    }
}

fn omniorb_components(c: &[rtorb_giop::ior::TaggedComponent]) {
    assert_eq!(c[0].tag, tags::TAG_ORB_TYPE);
    assert_eq!(
        c[0].decode_value().unwrap(),
        Component::OrbType(tags::ORB_TYPE_OMNIORB)
    );
    assert_eq!(c[1].tag, tags::TAG_CODE_SETS);
    let Component::CodeSets(cs) = c[1].decode_value().unwrap() else {
        panic!("not code sets")
    };
    assert_eq!(cs.for_char_data.native_code_set, CodeSetId::ISO_8859_1);
    assert_eq!(
        cs.for_char_data.conversion_code_sets,
        vec![CodeSetId::UTF_8]
    );
    assert_eq!(cs.for_wchar_data.native_code_set, CodeSetId::UTF_16);
    assert_eq!(
        cs.for_wchar_data.conversion_code_sets,
        vec![CodeSetId::UTF_16]
    );
}

#[test]
fn genior_cubit_matches_catior() {
    let r: ObjectReference = fixture("omniorb_genior_cubit.ior").parse().unwrap();
    assert_eq!(r.type_id, "IDL:Cubit:1.0");
    assert_eq!(r.profiles.len(), 1);
    let p = r.first_iiop().unwrap();
    assert_eq!(p.version, Version::V1_2);
    assert_eq!((p.host.as_str(), p.port), ("127.0.0.1", 2809));
    assert_eq!(&p.object_key[..], b"Cubit");
    assert_eq!(p.components.len(), 2);
    omniorb_components(&p.components);
    assert_eq!(r.orb_type(), Some(tags::ORB_TYPE_OMNIORB));
    assert_eq!(
        r.code_sets().unwrap().for_char_data.native_code_set,
        CodeSetId::ISO_8859_1
    );
    assert!(p.trailing.is_empty());
}

#[test]
fn genior_ipv6_and_binary_key() {
    let r: ObjectReference = fixture("omniorb_genior_ipv6_hexkey.ior").parse().unwrap();
    assert_eq!(r.type_id, "IDL:omg.org/CosNaming/NamingContext:1.0");
    assert_eq!(r.first_iiop_endpoint(), Some(("::1", 9999)));
    assert_eq!(&r.object_key().unwrap()[..], &[0x00, 0xff, 0x10]);
    omniorb_components(&r.first_iiop().unwrap().components);
}

#[test]
fn genior_empty_key() {
    let r: ObjectReference = fixture("omniorb_genior_empty_key.ior").parse().unwrap();
    assert_eq!(r.first_iiop_endpoint(), Some(("my.host.example.org", 1)));
    assert!(r.object_key().unwrap().is_empty());
}

#[test]
fn omninames_endpoint_components() {
    let r: ObjectReference = fixture("omniorb_omninames_endpoints.ior").parse().unwrap();
    assert_eq!(r.type_id, "IDL:omg.org/CosNaming/NamingContextExt:1.0");
    let p = r.first_iiop().unwrap();
    assert_eq!(
        (p.host.as_str(), p.port, p.version),
        ("127.0.0.1", 21234, Version::V1_2)
    );
    assert_eq!(&p.object_key[..], b"NameService");
    assert_eq!(p.components.len(), 5);
    omniorb_components(&p.components);
    assert_eq!(
        p.components[2].decode_value().unwrap(),
        Component::AlternateIiopAddress {
            host: "::1".into(),
            port: 21235
        }
    );
    assert_eq!(
        p.components[3].decode_value().unwrap(),
        Component::OmniOrbUnixTrans {
            host: "vm".into(),
            filename: "/tmp/on/ns.sock".into()
        }
    );
    assert_eq!(p.components[4].tag, tags::TAG_OMNIORB_PERSISTENT_ID);
    let Component::OmniOrbPersistentId(id) = p.components[4].decode_value().unwrap() else {
        panic!("not a persistent id")
    };
    assert_eq!(&id[..], &[0xe8, 0x66, 0x02, 0x6b, 0x01, 0x00, 0x19, 0x15]);
}

#[test]
fn omninames_giop_1_0_profile_has_no_components() {
    let r: ObjectReference = fixture("omniorb_omninames_giop10.ior").parse().unwrap();
    let p = r.first_iiop().unwrap();
    assert_eq!(p.version, Version::V1_0);
    assert_eq!((p.host.as_str(), p.port), ("localhost", 21236));
    assert_eq!(&p.object_key[..], b"NameService");
    assert!(p.components.is_empty());
    assert!(p.trailing.is_empty());
}

#[test]
fn info_exposes_the_fields_the_cli_prints() {
    let r: ObjectReference = fixture("omniorb_omninames_endpoints.ior").parse().unwrap();
    let info = r.info();
    assert_eq!(
        info.get("type_id").and_then(|v| v.as_str()),
        Some("IDL:omg.org/CosNaming/NamingContextExt:1.0")
    );
    let p = &info.get("profiles").unwrap().as_list().unwrap()[0];
    assert_eq!(p.get("protocol").unwrap().as_str(), Some("iiop"));
    assert_eq!(p.get("version").unwrap().as_str(), Some("1.2"));
    assert_eq!(p.get("host").unwrap().as_str(), Some("127.0.0.1"));
    assert_eq!(p.get("port").unwrap().as_int(), Some(21234));
    assert_eq!(
        p.get("object_key").unwrap().as_str(),
        Some("4e616d6553657276696365")
    );
    assert_eq!(
        p.get("object_key_string").unwrap().as_str(),
        Some("NameService")
    );
    let comps = p.get("components").unwrap().as_list().unwrap();
    assert_eq!(comps[0].get("orb_name").unwrap().as_str(), Some("omniORB"));
    assert_eq!(
        comps[3].get("filename").unwrap().as_str(),
        Some("/tmp/on/ns.sock")
    );
    assert_eq!(
        comps[4].get("data").unwrap().as_str(),
        Some("e866026b01001915")
    );
    let json = info.to_json();
    assert!(
        json.starts_with(
            "{\"type_id\":\"IDL:omg.org/CosNaming/NamingContextExt:1.0\",\"nil\":false,"
        )
    );
    assert!(json.contains(
        "\"name\":\"TAG_OMNIORB_UNIX_TRANS\",\"host\":\"vm\",\"filename\":\"/tmp/on/ns.sock\""
    ));
}

/// omniORB's `catior` must read what rtorb writes.
#[test]
#[ignore = "needs omniORB (Debian omniorb, omniorb-idl): scripts/test.sh installs it and runs this"]
fn catior_reads_rtorb_references() {
    use rtorb_giop::ior::{IiopProfile, UiopProfile};
    if let Err(e) = std::process::Command::new("catior").arg("IOR:00").output() {
        panic!("cannot run omniORB's catior ({e}): install it with scripts/install-deps.sh");
    }
    for order in [ByteOrder::Big, ByteOrder::Little] {
        let mut p = IiopProfile::new(Version::V1_2, "example.org", 4242, &b"Key/1"[..]);
        p.byte_order = order;
        p.push_component(&Component::OrbType(tags::ORB_TYPE_RTORB))
            .unwrap();
        p.push_component(&Component::CodeSets(
            rtorb_cdr::codeset::CodeSetComponentInfo::rtorb_default(),
        ))
        .unwrap();
        p.push_component(&Component::AlternateIiopAddress {
            host: "10.0.0.1".into(),
            port: 4343,
        })
        .unwrap();
        let u = UiopProfile::new(Version::V1_2, "/tmp/rtorb.sock", &b"Key/1"[..]);
        let r = ObjectReference::new("IDL:Test:1.0", vec![p.into(), u.into()]);
        let s = r.to_stringified_in(order).unwrap();
        let out = std::process::Command::new("catior")
            .arg(&s)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("Type ID: \"IDL:Test:1.0\""), "{text}");
        assert!(
            text.contains("IIOP 1.2 example.org 4242 \"Key/1\""),
            "{text}"
        );
        assert!(
            text.contains("TAG_ALTERNATE_IIOP_ADDRESS 10.0.0.1 4343"),
            "{text}"
        );
        assert!(text.contains("UTF-8"), "{text}");
    }
}
