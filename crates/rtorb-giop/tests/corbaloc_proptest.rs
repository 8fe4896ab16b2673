//! Property tests: the URL parsers never panic, and what they print they
//! parse back.

use proptest::prelude::*;
use rtorb_giop::corbaloc::{Corbaloc, Corbaname, name_to_string, parse_name, parse_object_url};

proptest! {
    #[test]
    fn random_strings_never_panic(s in ".{0,80}") {
        let _ = parse_object_url(&s);
        for prefix in ["corbaloc:", "corbaname:", "corbaloc::", "corbaloc:iiop:", "corbaloc:uiop:", "corbaname::h#"] {
            let _ = parse_object_url(&format!("{prefix}{s}"));
        }
        let _ = parse_name(&s);
    }

    #[test]
    fn url_alphabet_strings_never_panic(s in "[a-z0-9:/.,@\\[\\]%|#\\\\]{0,40}") {
        for prefix in ["corbaloc:", "corbaname:"] {
            if let Ok(u) = parse_object_url(&format!("{prefix}{s}")) {
                let _ = format!("{u:?}");
            }
        }
    }

    #[test]
    fn printed_urls_parse_back(
        hosts in proptest::collection::vec(("[a-z][a-z0-9.-]{0,10}", proptest::option::of(any::<u16>()), proptest::option::of((0u8..3, 0u8..3))), 1..4),
        key in proptest::collection::vec(any::<u8>(), 0..20),
        uiop_path in proptest::option::of("/[ -~]{0,20}"),
    ) {
        let mut url = String::from("corbaloc:");
        let mut first = true;
        for (h, port, v) in &hosts {
            if !first { url.push(','); }
            first = false;
            url.push_str("iiop:");
            if let Some((a, b)) = v { url.push_str(&format!("{a}.{b}@")); }
            url.push_str(h);
            if let Some(p) = port { url.push_str(&format!(":{p}")); }
        }
        let delim = if let Some(p) = &uiop_path {
            let esc: String = p.bytes().map(|b| if b.is_ascii_alphanumeric() || b == b'/' { (b as char).to_string() } else { format!("%{b:02x}") }).collect();
            url.push_str(&format!(",uiop:{esc}"));
            '|'
        } else { '/' };
        url.push(delim);
        for b in &key { url.push_str(&format!("%{b:02X}")); }
        let c = Corbaloc::parse(&url).unwrap();
        prop_assert_eq!(&c.key[..], &key[..]);
        prop_assert_eq!(Corbaloc::parse(&c.to_string()).unwrap(), c.clone());
        let r = c.to_ior("IDL:X:1.0").unwrap();
        prop_assert_eq!(r.profiles.len(), hosts.len() + usize::from(uiop_path.is_some()));
    }

    #[test]
    fn names_round_trip(parts in proptest::collection::vec(("[a-z./\\\\ ]{0,6}", "[a-z./\\\\]{0,4}"), 0..4)) {
        let name: Vec<_> = parts.iter().map(|(i, k)| rtorb_giop::corbaloc::NameComponent::new(i.clone(), k.clone())).collect();
        let s = name_to_string(&name);
        prop_assert_eq!(parse_name(&s).unwrap(), name.clone());
        let url = Corbaname { location: rtorb_giop::corbaloc::Location::Rir, key: "NameService".into(), name };
        prop_assert_eq!(Corbaname::parse(&url.to_string()).unwrap(), url);
    }
}
