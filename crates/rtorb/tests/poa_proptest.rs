//! Random object keys, mutated from live and stale keys, never reach a
//! servant other than the one activated under exactly that key.

mod poa_common;

use std::collections::HashMap;

use bytes::Bytes;
use poa_common::{TAGGED_ID, tagged, who};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use rtorb::exception::SystemExceptionKind;
use rtorb::minor::{OBJECT_NOT_EXIST_NO_ADAPTER, OBJECT_NOT_EXIST_NOT_ACTIVE};
use rtorb::object::{Object, Target};
use rtorb::orb::Orb;
use rtorb::poa::{IdAssignmentPolicy, LifespanPolicy, Policy};
use rtorb_test_support::server;

/// Live keys (with the tag of their servant) and stale ones (with the
/// `OBJECT_NOT_EXIST` minor code a call on them gets).
struct World {
    orb: Orb,
    live: HashMap<Vec<u8>, u32>,
    stale: Vec<(Vec<u8>, u32)>,
}

fn world() -> World {
    let orb = server::orb();
    let root = orb.root_poa();
    let manager = root.the_poa_manager();
    let mut live = HashMap::new();
    let mut stale = Vec::new();
    let mut tag = 0;
    let mut next = || {
        tag += 1;
        tag
    };
    // Root POA: system ids, some deactivated, slots reused.
    for round in 0..3 {
        let mut ids = Vec::new();
        for _ in 0..6 {
            let t = next();
            let id = root.activate_object(tagged(t)).unwrap();
            ids.push((id, t));
        }
        for (i, (id, t)) in ids.into_iter().enumerate() {
            let key = root.object_key(&id).to_vec();
            if (i + round) % 2 == 0 {
                root.deactivate_object(&id).unwrap();
                stale.push((key, OBJECT_NOT_EXIST_NOT_ACTIVE));
            } else {
                live.insert(key, t);
            }
        }
    }
    // A user-id child, a persistent user-id child, a persistent
    // system-id child.
    let user = root
        .create_poa(
            "user",
            Some(&manager),
            &[Policy::IdAssignment(IdAssignmentPolicy::UserId)],
        )
        .unwrap();
    let persistent = root
        .create_poa(
            "persistent",
            Some(&manager),
            &[
                Policy::IdAssignment(IdAssignmentPolicy::UserId),
                Policy::Lifespan(LifespanPolicy::Persistent),
            ],
        )
        .unwrap();
    let psystem = root
        .create_poa(
            "psystem",
            Some(&manager),
            &[Policy::Lifespan(LifespanPolicy::Persistent)],
        )
        .unwrap();
    for name in [&b"a"[..], b"b", b"ab", b"", b"\x00\x01"] {
        for poa in [&user, &persistent] {
            let t = next();
            poa.activate_object_with_id(name, tagged(t)).unwrap();
            live.insert(poa.object_key(name).to_vec(), t);
        }
    }
    user.deactivate_object(b"b").unwrap();
    live.remove(&user.object_key(b"b").to_vec());
    stale.push((user.object_key(b"b").to_vec(), OBJECT_NOT_EXIST_NOT_ACTIVE));
    for _ in 0..4 {
        let t = next();
        let id = psystem.activate_object(tagged(t)).unwrap();
        live.insert(psystem.object_key(&id).to_vec(), t);
    }
    // A destroyed POA and a plain key.
    let doomed = root.create_poa("doomed", Some(&manager), &[]).unwrap();
    for _ in 0..3 {
        let id = doomed.activate_object(tagged(next())).unwrap();
        stale.push((doomed.object_key(&id).to_vec(), OBJECT_NOT_EXIST_NO_ADAPTER));
    }
    doomed.destroy(false, true).unwrap();
    let t = next();
    orb.activate_with_key(&b"Plain"[..], tagged(t)).unwrap();
    live.insert(b"Plain".to_vec(), t);
    manager.activate().unwrap();
    World { orb, live, stale }
}

fn object(orb: &Orb, key: &[u8]) -> Object {
    let reference = orb.reference(TAGGED_ID, &Bytes::copy_from_slice(key));
    Object::new(orb.invoker(), Target::from_reference(reference).unwrap())
}

/// How a key is changed.
#[derive(Debug, Clone)]
enum Mutation {
    Flip(usize, u8),
    Truncate(usize),
    Append(Vec<u8>),
    /// Adds to the little-endian u32 at the offset.
    Bump(usize, u32),
    Random(Vec<u8>),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1u8..).prop_map(|(i, x)| Mutation::Flip(i, x)),
        any::<usize>().prop_map(Mutation::Truncate),
        proptest::collection::vec(any::<u8>(), 1..8).prop_map(Mutation::Append),
        (any::<usize>(), 1u32..4).prop_map(|(i, d)| Mutation::Bump(i, d)),
        proptest::collection::vec(any::<u8>(), 0..40).prop_map(Mutation::Random),
    ]
}

fn apply(key: &[u8], m: &Mutation) -> Vec<u8> {
    let mut k = key.to_vec();
    match m {
        Mutation::Flip(i, x) if !k.is_empty() => {
            let i = i % k.len();
            k[i] ^= x;
        }
        Mutation::Truncate(n) if !k.is_empty() => k.truncate(n % k.len()),
        Mutation::Append(more) => k.extend_from_slice(more),
        Mutation::Bump(i, d) if k.len() >= 4 => {
            let i = i % (k.len() - 3);
            let v = u32::from_le_bytes([k[i], k[i + 1], k[i + 2], k[i + 3]]).wrapping_add(*d);
            k[i..i + 4].copy_from_slice(&v.to_le_bytes());
        }
        Mutation::Random(r) => k = r.clone(),
        _ => {}
    }
    k
}

#[test]
fn random_keys_reach_only_the_servant_activated_under_them() {
    let w = world();
    // Every live key reaches its own servant; every stale key nothing.
    for (k, t) in &w.live {
        assert_eq!(who(&object(&w.orb, k)).unwrap(), *t, "{k:?}");
    }
    for (k, minor) in &w.stale {
        let e = who(&object(&w.orb, k)).unwrap_err();
        assert_eq!(
            e.kind(),
            Some(SystemExceptionKind::ObjectNotExist),
            "{k:?}: {e}"
        );
        assert_eq!(e.minor, *minor, "{k:?}: {e}");
    }
    let mut bases: Vec<Vec<u8>> = w.live.keys().cloned().collect();
    bases.extend(w.stale.iter().map(|(k, _)| k.clone()));
    bases.sort();
    let mut runner = TestRunner::new(Config::with_cases(5000));
    let strategy = (0..bases.len(), proptest::collection::vec(mutation(), 1..4));
    let reached = std::cell::Cell::new(0usize);
    runner
        .run(&strategy, |(base, mutations)| {
            let mut k = bases[base].clone();
            for m in &mutations {
                k = apply(&k, m);
            }
            if let Ok(t) = who(&object(&w.orb, &k)) {
                reached.set(reached.get() + 1);
                prop_assert_eq!(w.live.get(&k), Some(&t), "key {:?} reached {}", k, t);
            }
            Ok(())
        })
        .unwrap();
    // Some mutations give live keys back (e.g. user ids); most reach
    // nothing.
    assert!(reached.get() < 5000);
}
