//! Endpoint strings, the protocol registry, and endpoint <-> profile
//! conversions (no sockets).

use std::net::{Ipv4Addr, Ipv6Addr};
use std::sync::Arc;

use bytes::Bytes;
use rtorb_cdr::Version;
use rtorb_giop::FrameProtocol;
use rtorb_giop::corbaloc::{Corbaloc, Host};
use rtorb_giop::ior::tags::{TAG_INTERNET_IOP, TAG_ORB_TYPE, TAG_RTORB_UIOP};
use rtorb_giop::ior::{ObjectReference, Profile, TaggedComponent};
use rtorb_transport::iiop::IiopEndpoint;
use rtorb_transport::uiop::UiopEndpoint;
use rtorb_transport::{
    EndpointError, IiopFactory, ProtocolRegistry, TAG_RTORB_GIOP_LITE, TransportError, UiopFactory,
};

fn registry() -> ProtocolRegistry {
    ProtocolRegistry::with_default_protocols()
}

fn iiop(s: &str) -> IiopEndpoint {
    let ep = registry()
        .parse_endpoint(s)
        .unwrap_or_else(|e| panic!("{s}: {e}"));
    ep.downcast_ref::<IiopEndpoint>()
        .expect("an IIOP endpoint")
        .clone()
}

fn uiop(s: &str) -> UiopEndpoint {
    let ep = registry()
        .parse_endpoint(s)
        .unwrap_or_else(|e| panic!("{s}: {e}"));
    ep.downcast_ref::<UiopEndpoint>()
        .expect("a UIOP endpoint")
        .clone()
}

/// Input, canonical form, host, first port, last port, version, lite.
type IiopCase = (
    &'static str,
    &'static str,
    Host,
    u16,
    Option<u16>,
    Version,
    bool,
);

#[test]
fn good_iiop_endpoints() {
    let table: &[IiopCase] = &[
        (
            "iiop://127.0.0.1:2809",
            "iiop://127.0.0.1:2809",
            Host::Ipv4(Ipv4Addr::LOCALHOST),
            2809,
            None,
            Version::V1_2,
            false,
        ),
        (
            "IIOP://1.0@example.com:1",
            "iiop://1.0@example.com:1",
            Host::Name("example.com".into()),
            1,
            None,
            Version::V1_0,
            false,
        ),
        (
            "iiop://1.1@[::1]:65535/",
            "iiop://1.1@[::1]:65535",
            Host::Ipv6(Ipv6Addr::LOCALHOST),
            65535,
            None,
            Version::V1_1,
            false,
        ),
        (
            "iiop://[fe80::1:2]",
            "iiop://[fe80::1:2]:0",
            Host::Ipv6("fe80::1:2".parse().unwrap()),
            0,
            None,
            Version::V1_2,
            false,
        ),
        (
            "iiop://my-host_1:9000-9010",
            "iiop://my-host_1:9000-9010",
            Host::Name("my-host_1".into()),
            9000,
            Some(9010),
            Version::V1_2,
            false,
        ),
        (
            // A one-port range is a port.
            "iiop://h:7-7",
            "iiop://h:7",
            Host::Name("h".into()),
            7,
            None,
            Version::V1_2,
            false,
        ),
        (
            "iiop://0.0.0.0:0/?giop=lite",
            "iiop://0.0.0.0:0/?giop=lite",
            Host::Ipv4(Ipv4Addr::UNSPECIFIED),
            0,
            None,
            Version::V1_2,
            true,
        ),
        (
            "iiop://1.2@localhost:5?GIOP=lite&hostname_in_ior=pub.example",
            "iiop://localhost:5/?giop=lite&hostname_in_ior=pub.example",
            Host::Name("localhost".into()),
            5,
            None,
            Version::V1_2,
            true,
        ),
        (
            "iiop://h:5/?giop=standard",
            "iiop://h:5",
            Host::Name("h".into()),
            5,
            None,
            Version::V1_2,
            false,
        ),
    ];
    for (input, canonical, host, port, last, version, lite) in table {
        let ep = iiop(input);
        assert_eq!(&ep.host, host, "{input}");
        assert_eq!(ep.port, *port, "{input}");
        assert_eq!(ep.port_last, *last, "{input}");
        assert_eq!(ep.version, *version, "{input}");
        let want = if *lite {
            FrameProtocol::Lite
        } else {
            FrameProtocol::Giop
        };
        assert_eq!(ep.messaging, want, "{input}");
        assert_eq!(ep.to_string(), *canonical, "{input}");
        // The canonical form parses back to the same endpoint.
        assert_eq!(iiop(canonical), ep, "{canonical}");
    }
    assert_eq!(
        iiop("iiop://h:1/?hostname_in_ior=[::2]")
            .host_in_ior
            .as_deref(),
        Some("::2")
    );
}

#[test]
fn good_uiop_endpoints() {
    let table: &[(&str, &str, &str, Version, bool)] = &[
        (
            "uiop:///tmp/a.sock",
            "uiop:///tmp/a.sock",
            "/tmp/a.sock",
            Version::V1_2,
            false,
        ),
        ("UIOP://1.0@/x", "uiop://1.0@/x", "/x", Version::V1_0, false),
        (
            "uiop:///run/user@host/o.sock?giop=lite",
            "uiop:///run/user@host/o.sock?giop=lite",
            "/run/user@host/o.sock",
            Version::V1_2,
            true,
        ),
    ];
    for (input, canonical, path, version, lite) in table {
        let ep = uiop(input);
        assert_eq!(ep.path, *path, "{input}");
        assert_eq!(ep.version, *version, "{input}");
        assert_eq!(ep.messaging == FrameProtocol::Lite, *lite, "{input}");
        assert_eq!(ep.to_string(), *canonical, "{input}");
        assert_eq!(uiop(canonical), ep);
    }
    let longest = format!("uiop:///{}", "p".repeat(106));
    assert_eq!(uiop(&longest).path.len(), 107);
}

#[test]
fn bad_endpoints_give_typed_errors() {
    use EndpointError as E;
    let long_path = format!("uiop:///{}", "p".repeat(107));
    let table: Vec<(&str, EndpointError)> = vec![
        ("127.0.0.1:2809", E::MissingScheme("127.0.0.1:2809".into())),
        ("://h:1", E::MissingScheme("://h:1".into())),
        ("tcp://h:1", E::UnknownProtocol("tcp".into())),
        ("iiop://", E::MissingHost),
        ("iiop://:2809", E::MissingHost),
        ("iiop://1.3@h:1", E::BadVersion("1.3".into())),
        ("iiop://2.0@h:1", E::BadVersion("2.0".into())),
        ("iiop://x@h:1", E::BadVersion("x".into())),
        ("iiop://1.2.3@h:1", E::BadVersion("1.2.3".into())),
        ("iiop://h:65536", E::BadPort("65536".into())),
        ("iiop://h:", E::BadPort("".into())),
        ("iiop://h:+1", E::BadPort("+1".into())),
        ("iiop://h:1:2", E::BadPort("1:2".into())),
        ("iiop://h:9010-9000", E::BadPortRange("9010-9000".into())),
        ("iiop://h:0-5", E::BadPortRange("0-5".into())),
        ("iiop://h:5-", E::BadPort("5-".into())),
        ("iiop://[::1", E::BadHost("[::1".into())),
        ("iiop://[nonsense]:1", E::BadHost("[nonsense]:1".into())),
        ("iiop://[::1]x", E::TrailingText("x".into())),
        ("iiop://::1:80", E::MissingHost),
        ("iiop://1.2.3.256:1", E::BadHost("1.2.3.256".into())),
        ("iiop://bad host:1", E::BadHost("bad host".into())),
        ("iiop://-lead:1", E::BadHost("-lead".into())),
        ("iiop://h:1/key", E::TrailingText("/key".into())),
        ("iiop://h:1/?color=red", E::UnknownOption("color".into())),
        ("iiop://h:1/?giop", E::UnknownOption("giop".into())),
        (
            "iiop://h:1/?giop=heavy",
            E::BadOptionValue {
                key: "giop".into(),
                value: "heavy".into(),
            },
        ),
        (
            "iiop://h:1/?hostname_in_ior=a b",
            E::BadOptionValue {
                key: "hostname_in_ior".into(),
                value: "a b".into(),
            },
        ),
        (
            "iiop://1.0@h:1/?giop=lite",
            E::LiteNeedsGiop12(Version::V1_0),
        ),
        (
            "uiop://relative.sock",
            E::BadPath {
                path: "relative.sock".into(),
                reason: "not absolute",
            },
        ),
        (
            "uiop://",
            E::BadPath {
                path: "".into(),
                reason: "empty",
            },
        ),
        (
            "uiop:///tmp/dir/",
            E::BadPath {
                path: "/tmp/dir/".into(),
                reason: "names a directory",
            },
        ),
        (
            long_path.as_str(),
            E::BadPath {
                path: long_path["uiop://".len()..].into(),
                reason: "longer than a Unix-domain socket address allows",
            },
        ),
        ("uiop://1.1@/x?giop=lite", E::LiteNeedsGiop12(Version::V1_1)),
        ("uiop:///x?port=1", E::UnknownOption("port".into())),
        ("uiop://9.9@/x", E::BadVersion("9.9".into())),
    ];
    let r = registry();
    for (input, want) in table {
        let got = r.parse_endpoint(input).map(|e| e.to_string());
        assert_eq!(got, Err(want), "{input}");
    }
    // A protocol's own parser refuses another scheme.
    assert_eq!(
        IiopEndpoint::parse("uiop:///x"),
        Err(E::WrongScheme {
            expected: "iiop",
            endpoint: "uiop:///x".into()
        })
    );
}

#[test]
fn registry_finds_and_refuses() {
    let mut r = registry();
    let names: Vec<_> = r.factories().map(|f| f.name()).collect();
    assert_eq!(names, ["iiop", "uiop"]);
    assert_eq!(r.get("IIOP").unwrap().profile_tag(), TAG_INTERNET_IOP);
    assert_eq!(r.by_tag(TAG_RTORB_UIOP).unwrap().name(), "uiop");
    assert!(r.by_tag(77).is_none());
    assert!(matches!(
        r.register(Arc::new(IiopFactory::new())),
        Err(TransportError::DuplicateProtocol { name: "iiop", .. })
    ));
    // Registering the defaults again is harmless.
    rtorb_transport::iiop::register(&mut r);
    assert_eq!(r.factories().count(), 2);

    let empty = ProtocolRegistry::new();
    assert_eq!(
        empty.parse_endpoint("iiop://h:1").map(|e| e.to_string()),
        Err(EndpointError::UnknownProtocol("iiop".into()))
    );
    let ep = IiopEndpoint::parse("iiop://h:1").unwrap();
    assert!(matches!(
        empty.connect(&ep, None),
        Err(TransportError::NoProtocol("iiop"))
    ));
    let unknown = Profile::Unknown {
        tag: 99,
        data: Bytes::new(),
    };
    assert!(matches!(
        r.endpoint_from_profile(&unknown),
        Err(TransportError::NoProtocolForProfile(99))
    ));

    // A factory given another protocol's endpoint says so.
    let u = UiopEndpoint::parse("uiop:///x").unwrap();
    let f = r.get("iiop").unwrap();
    assert!(matches!(
        f.connector().connect(&u, None),
        Err(TransportError::WrongProtocol {
            expected: "iiop",
            found: "uiop"
        })
    ));
    assert!(matches!(
        f.make_profile(&u, Bytes::new(), &[]),
        Err(TransportError::WrongProtocol { .. })
    ));
}

#[test]
fn iiop_profile_round_trips() {
    let r = registry();
    let orb_type = TaggedComponent::new(TAG_ORB_TYPE, vec![1, 0, 0, 0, 0x00, 0x4f, 0x54, 0x52]);
    for s in [
        "iiop://127.0.0.1:2809",
        "iiop://1.0@example.com:1",
        "iiop://1.1@[::1]:4000",
        "iiop://h:99/?giop=lite",
    ] {
        let ep = r.parse_endpoint(s).unwrap();
        let comps = if ep.version() == Version::V1_0 {
            vec![]
        } else {
            vec![orb_type.clone()]
        };
        let key = Bytes::from_static(b"\x00key\xff");
        let profile = r.make_profile(&*ep, key.clone(), &comps).unwrap();
        let Profile::Iiop(p) = &profile else {
            panic!("{s}: not an IIOP profile")
        };
        assert_eq!(p.object_key, key);
        assert_eq!(p.version, ep.version());
        assert!(!p.host.starts_with('['), "IPv6 hosts go unbracketed");
        let lite = ep.messaging() == FrameProtocol::Lite;
        assert_eq!(p.component(TAG_RTORB_GIOP_LITE).is_some(), lite, "{s}");
        assert_eq!(p.component(TAG_ORB_TYPE).is_some(), !comps.is_empty());

        // Through a stringified IOR and back.
        let ior = ObjectReference::new("IDL:T:1.0", vec![profile]);
        let back: ObjectReference = ior.to_stringified().unwrap().parse().unwrap();
        let eps = r.endpoints_of(&back);
        assert_eq!(eps.len(), 1);
        assert_eq!(eps[0].0, 0);
        assert_eq!(eps[0].1.to_string(), ep.to_string(), "{s}");
    }

    // hostname_in_ior goes into the profile.
    let ep = IiopEndpoint::parse("iiop://0.0.0.0:7/?hostname_in_ior=pub.example").unwrap();
    let p = IiopFactory::profile(&ep, Bytes::new(), &[]).unwrap();
    assert_eq!((p.host.as_str(), p.port), ("pub.example", 7));

    // No profile for an endpoint without a single port.
    for s in ["iiop://h:0", "iiop://h:1-3"] {
        let ep = IiopEndpoint::parse(s).unwrap();
        assert!(matches!(
            IiopFactory::profile(&ep, Bytes::new(), &[]),
            Err(TransportError::NotConnectable { .. })
        ));
    }
    // IIOP 1.0 has no components.
    let ep = IiopEndpoint::parse("iiop://1.0@h:1").unwrap();
    assert!(matches!(
        IiopFactory::profile(&ep, Bytes::new(), &[orb_type]),
        Err(TransportError::Profile(_))
    ));
}

#[test]
fn hostile_profiles_are_refused() {
    use rtorb_giop::ior::{IiopProfile, UiopProfile};
    let r = registry();
    let bad_host = IiopProfile::new(Version::V1_2, "no such\0host", 1, Bytes::new());
    assert!(matches!(
        r.endpoint_from_profile(&bad_host.into()),
        Err(TransportError::Endpoint(EndpointError::BadHost(_)))
    ));
    let bad_path = UiopProfile::new(Version::V1_2, "relative", Bytes::new());
    assert!(matches!(
        r.endpoint_from_profile(&bad_path.into()),
        Err(TransportError::Endpoint(EndpointError::BadPath { .. }))
    ));
    // A lite marker on a GIOP 1.0 profile is contradictory.
    let mut p = IiopProfile::new(Version::V1_1, "h", 1, Bytes::new());
    p.components
        .push(TaggedComponent::new(TAG_RTORB_GIOP_LITE, vec![1]));
    assert!(matches!(
        r.endpoint_from_profile(&p.into()),
        Err(TransportError::Endpoint(EndpointError::LiteNeedsGiop12(_)))
    ));
}

#[test]
fn uiop_profile_round_trips() {
    let r = registry();
    for s in [
        "uiop:///tmp/x.sock",
        "uiop://1.0@/a/b",
        "uiop:///l.sock?giop=lite",
    ] {
        let ep = r.parse_endpoint(s).unwrap();
        let profile = r.make_profile(&*ep, Bytes::from_static(b"K"), &[]).unwrap();
        let Profile::Uiop(p) = &profile else {
            panic!("{s}: not a UIOP profile")
        };
        assert_eq!(p.path, ep.downcast_ref::<UiopEndpoint>().unwrap().path);
        let ior = ObjectReference::new("IDL:T:1.0", vec![profile]);
        let back: ObjectReference = ior.to_stringified().unwrap().parse().unwrap();
        let eps = r.endpoints_of(&back);
        assert_eq!(eps.len(), 1);
        assert_eq!(eps[0].1.to_string(), ep.to_string(), "{s}");
    }
    let ep = UiopEndpoint::parse("uiop://1.0@/a").unwrap();
    let comp = TaggedComponent::new(TAG_ORB_TYPE, vec![0]);
    assert!(matches!(
        UiopFactory::profile(&ep, Bytes::new(), &[comp]),
        Err(TransportError::Profile(_))
    ));
}

#[test]
fn corbaloc_addresses_become_endpoints() {
    let r = registry();
    let loc =
        Corbaloc::parse("corbaloc:iiop:1.2@[::1]:2809,uiop:/tmp/n.sock,iiop:host/Key").unwrap();
    let ior = loc.to_ior("IDL:T:1.0").unwrap();
    let eps: Vec<String> = r
        .endpoints_of(&ior)
        .iter()
        .map(|(_, e)| e.to_string())
        .collect();
    assert_eq!(
        eps,
        [
            "iiop://[::1]:2809",
            "uiop:///tmp/n.sock",
            "iiop://1.0@host:2809",
        ]
    );
    // Unknown profiles are skipped, the others keep their index.
    let mut mixed = ior.clone();
    mixed.profiles.insert(
        0,
        Profile::Unknown {
            tag: 1234,
            data: Bytes::from_static(b"x"),
        },
    );
    let idx: Vec<usize> = r.endpoints_of(&mixed).iter().map(|(i, _)| *i).collect();
    assert_eq!(idx, [1, 2, 3]);
}
