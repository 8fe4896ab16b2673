//! corbaloc and corbaname URLs: every form of the grammar, and its errors.

use std::net::{Ipv4Addr, Ipv6Addr};

use rtorb_cdr::Version;
use rtorb_giop::corbaloc::{
    Corbaloc, Corbaname, Host, IiopAddress, Location, NameComponent, NameError, ObjAddr, ObjectUrl,
    UiopAddress, UrlError, name_to_string, parse_name, parse_object_url,
};
use rtorb_giop::ior::Profile;

fn iiop(version: Option<(u8, u8)>, host: Host, port: Option<u16>) -> ObjAddr {
    ObjAddr::Iiop(IiopAddress {
        version: version.map(|(a, b)| Version::new(a, b)),
        host,
        port,
    })
}

fn name(s: &str) -> Host {
    Host::Name(s.into())
}

#[test]
fn valid_corbaloc_urls() {
    let v4 = |a, b, c, d| Host::Ipv4(Ipv4Addr::new(a, b, c, d));
    let table: Vec<(&str, Location, &[u8])> = vec![
        (
            "corbaloc:iiop:1.2@xyz_host.net/NameService",
            Location::Addresses(vec![iiop(Some((1, 2)), name("xyz_host.net"), None)]),
            b"NameService",
        ),
        ("corbaloc:rir:/NameService", Location::Rir, b"NameService"),
        (
            "corbaloc:rir:/TradingService",
            Location::Rir,
            b"TradingService",
        ),
        ("corbaloc:rir:", Location::Rir, b"NameService"),
        ("corbaloc:rir:/", Location::Rir, b"NameService"),
        (
            "corbaloc::ABC_host.com/ProductZ/TradingService",
            Location::Addresses(vec![iiop(None, name("ABC_host.com"), None)]),
            b"ProductZ/TradingService",
        ),
        (
            "corbaloc::primary.com:110,:1.2@backup.com:120/Dev/NameService",
            Location::Addresses(vec![
                iiop(None, name("primary.com"), Some(110)),
                iiop(Some((1, 2)), name("backup.com"), Some(120)),
            ]),
            b"Dev/NameService",
        ),
        (
            "corbaloc:iiop:127.0.0.1:2809/Cubit",
            Location::Addresses(vec![iiop(None, v4(127, 0, 0, 1), Some(2809))]),
            b"Cubit",
        ),
        (
            "corbaloc:iiop:[::1]:9999/x",
            Location::Addresses(vec![iiop(
                None,
                Host::Ipv6(Ipv6Addr::LOCALHOST),
                Some(9999),
            )]),
            b"x",
        ),
        (
            "corbaloc::1.1@[fe80::1:2]/x",
            Location::Addresses(vec![iiop(
                Some((1, 1)),
                Host::Ipv6("fe80::1:2".parse().unwrap()),
                None,
            )]),
            b"x",
        ),
        (
            "corbaloc::host",
            Location::Addresses(vec![iiop(None, name("host"), None)]),
            b"",
        ),
        (
            "corbaloc::host/",
            Location::Addresses(vec![iiop(None, name("host"), None)]),
            b"",
        ),
        (
            "  CORBALOC:IIOP:host:1/%00%ff%Fe%41;/:?@&=+$,-_.!~*'()  ",
            Location::Addresses(vec![iiop(None, name("host"), Some(1))]),
            b"\x00\xff\xfeA;/:?@&=+$,-_.!~*'()",
        ),
        (
            "corbaloc:uiop:1.2@/tmp/rtorb.sock|MyKey",
            Location::Addresses(vec![ObjAddr::Uiop(UiopAddress {
                version: Some(Version::V1_2),
                path: "/tmp/rtorb.sock".into(),
            })]),
            b"MyKey",
        ),
        (
            "corbaloc:uiop:/tmp/a%2Cb@c,iiop:h/K/2",
            Location::Addresses(vec![
                ObjAddr::Uiop(UiopAddress {
                    version: None,
                    path: "/tmp/a,b@c".into(),
                }),
                iiop(None, name("h"), None),
            ]),
            b"K/2",
        ),
        (
            "corbaloc::h,uiop:/run/x.sock|k",
            Location::Addresses(vec![
                iiop(None, name("h"), None),
                ObjAddr::Uiop(UiopAddress {
                    version: None,
                    path: "/run/x.sock".into(),
                }),
            ]),
            b"k",
        ),
    ];
    for (url, location, key) in table {
        let c = Corbaloc::parse(url).unwrap_or_else(|e| panic!("{url}: {e}"));
        assert_eq!(c.location, location, "{url}");
        assert_eq!(&c.key[..], key, "{url}");
        // Display gives a URL that parses to the same thing.
        let shown = c.to_string();
        assert_eq!(Corbaloc::parse(&shown).unwrap(), c, "{url} -> {shown}");
    }
}

#[test]
fn defaults_and_display() {
    let c: Corbaloc = "corbaloc::h/k".parse().unwrap();
    let Location::Addresses(a) = &c.location else {
        panic!()
    };
    let ObjAddr::Iiop(i) = &a[0] else { panic!() };
    assert_eq!(i.effective_port(), 2809);
    assert_eq!(i.effective_version(), Version::V1_0);
    assert_eq!(c.to_string(), "corbaloc:iiop:h/k");
    let c: Corbaloc = "corbaloc:iiop:1.2@[::1]:5/a%20b%0A".parse().unwrap();
    assert_eq!(c.to_string(), "corbaloc:iiop:1.2@[::1]:5/a%20b%0A");
    let c: Corbaloc = "corbaloc:uiop:/tmp/a%7Cb|k".parse().unwrap();
    assert_eq!(c.to_string(), "corbaloc:uiop:/tmp/a%7Cb|k");
    assert_eq!(
        Corbaloc::parse("corbaloc:rir:").unwrap().to_string(),
        "corbaloc:rir:/NameService"
    );
    assert_eq!(
        Corbaloc::parse("corbaloc:rir:/X").unwrap().key_str(),
        Some("X")
    );
}

#[test]
fn errors_carry_the_spec_minor_codes() {
    const SCHEME: u32 = 0x4f4d_0007;
    const ADDRESS: u32 = 0x4f4d_0008;
    const SSP: u32 = 0x4f4d_0009;
    let table: &[(&str, u32)] = &[
        ("corbalo:iiop:h/k", SCHEME),
        ("http://h/k", SCHEME),
        ("", SCHEME),
        ("corbaloc:", ADDRESS),
        ("corbaloc:h/k", ADDRESS),
        ("corbaloc:foo:h/k", ADDRESS),
        ("corbaloc::/k", ADDRESS),
        ("corbaloc:iiop:", ADDRESS),
        ("corbaloc::h:/k", ADDRESS),
        ("corbaloc::h:65536/k", ADDRESS),
        ("corbaloc::h:-1/k", ADDRESS),
        ("corbaloc::h:12a/k", ADDRESS),
        ("corbaloc::1.x@h/k", ADDRESS),
        ("corbaloc::1@h/k", ADDRESS),
        ("corbaloc::256.0@h/k", ADDRESS),
        ("corbaloc::[::1/k", ADDRESS),
        ("corbaloc::[zz::1]/k", ADDRESS),
        ("corbaloc::[::1]x/k", ADDRESS),
        ("corbaloc::h h/k", ADDRESS),
        ("corbaloc::h,/k", ADDRESS),
        ("corbaloc:rir:host/k", ADDRESS),
        ("corbaloc:rir:,:h/k", ADDRESS),
        ("corbaloc::h,rir:/k", ADDRESS),
        ("corbaloc:uiop:tmp/sock|k", ADDRESS),
        ("corbaloc:uiop:/tmp/%zz|k", ADDRESS),
        ("corbaloc::h|k", ADDRESS),
        ("corbaloc::h/%", SSP),
        ("corbaloc::h/%4", SSP),
        ("corbaloc::h/%g0", SSP),
        ("corbaloc::h/a b", SSP),
        ("corbaloc::h/a#b", SSP),
        ("corbaloc::h/é", SSP),
        ("corbaname::h#a//b", SSP),
        ("corbaname::h#a.b.c", SSP),
        ("corbaname::h#a%5C", SSP),
        ("corbaname::h#%FF", SSP),
        ("IOR:0", SSP),
        ("IOR:xx", SSP),
    ];
    for (url, minor) in table {
        let e = parse_object_url(url).expect_err(url);
        assert_eq!(e.minor(), *minor, "{url}: {e}");
    }
    let other = Corbaloc::parse("corbaloc:rir:/X")
        .unwrap()
        .to_ior("")
        .unwrap_err();
    assert!(matches!(other, UrlError::Other(_)));
    assert_eq!(other.minor(), 0x4f4d_000a);
}

#[test]
fn corbaname_forms() {
    let n: Corbaname = "corbaname::555xyz.com/dev/NContext1#a/b/c".parse().unwrap();
    assert_eq!(
        n.location,
        Location::Addresses(vec![iiop(None, name("555xyz.com"), None)])
    );
    assert_eq!(&n.key[..], b"dev/NContext1");
    assert_eq!(
        n.name,
        vec![
            NameComponent::new("a", ""),
            NameComponent::new("b", ""),
            NameComponent::new("c", "")
        ]
    );

    let n: Corbaname = "corbaname::555xyz.com#a/b.kind/.k/./d.".parse().unwrap();
    assert_eq!(&n.key[..], b"NameService");
    assert_eq!(
        n.name,
        vec![
            NameComponent::new("a", ""),
            NameComponent::new("b", "kind"),
            NameComponent::new("", "k"),
            NameComponent::new("", ""),
            NameComponent::new("d", ""),
        ]
    );

    let n: Corbaname = "corbaname:rir:#a%5C.b%5C/c.x%20y".parse().unwrap();
    assert_eq!(n.location, Location::Rir);
    assert_eq!(&n.key[..], b"NameService");
    assert_eq!(n.name, vec![NameComponent::new("a.b/c", "x y")]);
    assert_eq!(
        n.to_string(),
        "corbaname:rir:/NameService#a%5C.b%5C/c.x%20y"
    );
    assert_eq!(Corbaname::parse(&n.to_string()).unwrap(), n);

    let n: Corbaname = "corbaname:rir:".parse().unwrap();
    assert!(n.name.is_empty());
    let n: Corbaname = "corbaname::h:2809/NameService#".parse().unwrap();
    assert!(n.name.is_empty());
    assert_eq!(n.context().to_string(), "corbaloc:iiop:h:2809/NameService");

    assert!(matches!(
        parse_object_url("corbaname::h#x"),
        Ok(ObjectUrl::Corbaname(_))
    ));
    assert!(matches!(
        parse_object_url("corbaloc::h/x"),
        Ok(ObjectUrl::Corbaloc(_))
    ));
    assert!(matches!(
        parse_object_url("IOR:00000000000000010000000000000000"),
        Ok(ObjectUrl::Ior(r)) if r.is_nil()
    ));
}

#[test]
fn stringified_names() {
    for (s, n) in [
        ("", vec![]),
        ("a", vec![NameComponent::new("a", "")]),
        (".", vec![NameComponent::new("", "")]),
        (
            "a.b/c",
            vec![NameComponent::new("a", "b"), NameComponent::new("c", "")],
        ),
        ("x\\/y.z\\\\", vec![NameComponent::new("x/y", "z\\")]),
    ] {
        assert_eq!(parse_name(s).unwrap(), n, "{s:?}");
        assert_eq!(name_to_string(&n), s);
    }
    assert_eq!(parse_name("/a"), Err(NameError::EmptyComponent));
    assert_eq!(parse_name("a/"), Err(NameError::EmptyComponent));
    assert_eq!(parse_name("a\\"), Err(NameError::TrailingEscape));
}

#[test]
fn to_ior_builds_one_profile_per_address() {
    let c: Corbaloc = "corbaloc::1.2@h1:1000,iiop:[::1],uiop:/tmp/s|Key%00"
        .parse()
        .unwrap();
    let r = c.to_ior("IDL:T:1.0").unwrap();
    assert_eq!(r.type_id, "IDL:T:1.0");
    assert_eq!(r.profiles.len(), 3);
    let Profile::Iiop(p0) = &r.profiles[0] else {
        panic!()
    };
    assert_eq!(
        (p0.version, p0.host.as_str(), p0.port),
        (Version::V1_2, "h1", 1000)
    );
    assert_eq!(&p0.object_key[..], b"Key\0");
    let Profile::Iiop(p1) = &r.profiles[1] else {
        panic!()
    };
    assert_eq!(
        (p1.version, p1.host.as_str(), p1.port),
        (Version::V1_0, "::1", 2809)
    );
    let Profile::Uiop(p2) = &r.profiles[2] else {
        panic!()
    };
    assert_eq!((p2.version, p2.path.as_str()), (Version::V1_2, "/tmp/s"));
    // The reference survives stringification.
    let s = r.to_stringified().unwrap();
    assert_eq!(s.parse::<rtorb_giop::ObjectReference>().unwrap(), r);
}
