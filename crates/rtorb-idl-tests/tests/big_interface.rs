//! A generated interface of a few hundred operations (`big.idl`, written
//! by the build script) through the loopback, with the dispatch
//! `rtorb-idl` chooses for it (a perfect-hash table: it is above
//! `TABLE_THRESHOLD`) and forced to a `match`: every operation and
//! attribute accessor reaches its own servant method, inherited
//! operations too; `_is_a`, `_non_existent` and `_interface` are answered
//! as before; unknown names, including names that land on the slot of a
//! real name in the table, are `BAD_OPERATION`.

use std::sync::Arc;

use rtorb::exception::{SystemException, SystemExceptionKind};
use rtorb::object::{Object, Stub};
use rtorb_cdr::{CdrDecode, Version};
use rtorb_test_support::loopback::loopbacks;

/// `big.idl` with the default dispatch.
#[allow(unreachable_pub, dead_code)]
mod auto {
    include!(concat!(env!("OUT_DIR"), "/big.rs"));
    include!(concat!(env!("OUT_DIR"), "/big_servant.rs"));
}

/// `big.idl` forced to `match` dispatch.
#[allow(unreachable_pub, dead_code)]
mod matched {
    include!(concat!(env!("OUT_DIR"), "/big_match.rs"));
    include!(concat!(env!("OUT_DIR"), "/big_servant.rs"));
}

include!(concat!(env!("OUT_DIR"), "/big_names.rs"));

/// FNV-1a of the name, as the servant's answers use it.
fn tag(name: &str) -> i32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in name.bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h as i32
}

/// Calls `name` with one `long` argument, or none for `_get_`.
fn call(obj: &Object, name: &str, x: i32) -> Result<Option<i32>, SystemException> {
    if name.starts_with("_get_") {
        let reply = obj.invoke(name.to_owned(), |_| Ok(()))?;
        reply.decode(i32::decode).map(Some)
    } else if name.starts_with("_set_") {
        let reply = obj.invoke(name.to_owned(), |e| {
            e.write_i32(x);
            Ok(())
        })?;
        reply.decode(|_| Ok(())).map(|()| None)
    } else {
        let reply = obj.invoke(name.to_owned(), |e| {
            e.write_i32(x);
            Ok(())
        })?;
        reply.decode(i32::decode).map(Some)
    }
}

fn bad_operation(obj: &Object, name: &str) {
    match call(obj, name, 1) {
        Err(e) => assert_eq!(e.kind(), Some(SystemExceptionKind::BadOperation), "{name}"),
        Ok(v) => panic!("`{name}` answered {v:?}"),
    }
}

/// Names the interface lacks: near misses of real names, and names
/// found to land on the table slot of a real name.
fn unknown_names(table: Option<&rtorb::codegen::OpTable<'_>>) -> Vec<String> {
    let mut out: Vec<String> = vec![
        String::new(),
        "_get_".into(),
        "_set_".into(),
        "get_".into(),
        "x".into(),
        "_is_b".into(),
        "_non_existen".into(),
        "narrow_op_".into(),
        "Narrow_op".into(),
        "REFUSE".into(),
        "pokes".into(),
        "a".repeat(300),
    ];
    for name in WIDE_OPERATIONS.iter().take(50) {
        out.push(format!("{name}_"));
        out.push(format!("_{name}"));
        out.push(name[..name.len() - 1].to_string());
        out.push(name.to_uppercase());
        let mut flipped = name.as_bytes().to_vec();
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        out.push(String::from_utf8(flipped).unwrap());
    }
    if let Some(table) = table {
        // A minimal perfect hash sends every name to some occupied slot:
        // these reach the comparison with a real name and must fail it.
        let mut collide = 0;
        for i in 0.. {
            let candidate = format!("get_unknown_{i}");
            let h = rtorb::codegen::op_hash(table.seed, candidate.as_bytes());
            let d = table.disp[rtorb::codegen::op_bucket(h, table.disp.len())];
            let slot = rtorb::codegen::op_slot(h, d, table.names.len());
            assert!(!table.names[slot].is_empty());
            assert_ne!(table.names[slot], candidate);
            out.push(candidate);
            collide += 1;
            if collide == 200 {
                break;
            }
        }
    }
    out.retain(|n| !WIDE_OPERATIONS.contains(&n.as_str()));
    out
}

fn exercise(obj: Object, table: Option<&rtorb::codegen::OpTable<'_>>) {
    // Every own operation and accessor, with an argument that differs per call.
    for (i, name) in WIDE_OPERATIONS.iter().enumerate() {
        let x = i as i32 * 7919;
        let got = call(&obj, name, x).unwrap_or_else(|e| panic!("{name}: {e}"));
        if name.starts_with("_get_") {
            assert_eq!(got, Some(tag(name)), "{name}");
        } else if let Some(attr) = name.strip_prefix("_set_") {
            assert_eq!(got, None);
            let read = call(&obj, &format!("_get_{attr}"), 0).unwrap();
            assert_eq!(read, Some(x), "{name}");
        } else {
            assert_eq!(got, Some(x ^ tag(name)), "{name}");
        }
    }
    // Inherited operation and attribute.
    assert_eq!(call(&obj, "narrow_op", 41).unwrap(), Some(42));
    assert_eq!(call(&obj, "_get_narrow_attr", 0).unwrap(), Some(-1));
    // The operations of CORBA::Object, answered before dispatch.
    assert!(obj.is_a("IDL:Big/Wide:1.0").unwrap());
    assert!(obj.is_a("IDL:Big/Narrow:1.0").unwrap());
    assert!(obj.is_a("IDL:omg.org/CORBA/Object:1.0").unwrap());
    assert!(!obj.is_a("IDL:Big/Other:1.0").unwrap());
    assert!(!obj.non_existent().unwrap());
    let err = obj.invoke("_interface", |_| Ok(())).unwrap_err();
    assert_eq!(err.kind(), Some(SystemExceptionKind::NoImplement));
    // Unknown names, and names that meet a real one in the table.
    let unknown = unknown_names(table);
    assert!(unknown.len() > 200);
    for name in &unknown {
        bad_operation(&obj, name);
    }
}

/// The GIOP versions the loopbacks of these tests speak.
const VERSIONS: [Version; 2] = [Version::V1_0, Version::V1_2];

#[test]
fn the_large_interface_is_above_the_threshold_and_gets_a_table() {
    let ops = WIDE_OPERATIONS.len() + 5;
    assert!(
        ops > rtorb_idl::codegen::TABLE_THRESHOLD,
        "{ops} operations"
    );
    // The table holds every own and inherited operation and accessor.
    let table = &auto::big::wide::OPERATIONS;
    assert_eq!(table.len(), ops);
    for name in WIDE_OPERATIONS {
        assert!(table.lookup(name.as_bytes()).is_some(), "{name}");
    }
    for name in ["narrow_op", "_get_narrow_attr", "refuse", "poke", "poked"] {
        assert!(table.lookup(name.as_bytes()).is_some(), "{name}");
    }
}

#[test]
fn table_dispatch_routes_every_operation_of_the_large_interface() {
    for orb in loopbacks(&VERSIONS) {
        let obj = orb.activate(
            &b"wide"[..],
            Arc::new(auto::big::WideSkeleton(auto::WideImpl::default())),
        );
        exercise(obj.clone(), Some(&auto::big::wide::OPERATIONS));
        let wide = auto::big::Wide::from_object(obj);
        match wide.refuse(7) {
            Err(auto::big::wide::RefuseError::Refused(r)) => assert_eq!(r.code, 7),
            other => panic!("{other:?}"),
        }
        wide.poke(99).unwrap();
        assert_eq!(wide.poked().unwrap(), 99);
    }
}

#[test]
fn match_dispatch_routes_every_operation_of_the_large_interface() {
    for orb in loopbacks(&VERSIONS) {
        let obj = orb.activate(
            &b"wide"[..],
            Arc::new(matched::big::WideSkeleton(matched::WideImpl::default())),
        );
        exercise(obj.clone(), None);
        let wide = matched::big::Wide::from_object(obj);
        assert!(matches!(
            wide.refuse(3),
            Err(matched::big::wide::RefuseError::Refused(_))
        ));
        wide.poke(5).unwrap();
        assert_eq!(wide.poked().unwrap(), 5);
    }
}
