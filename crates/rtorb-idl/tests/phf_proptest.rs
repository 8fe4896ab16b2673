//! Perfect hashes of random operation lists: every name finds its own
//! position, every other name finds nothing, every slot is used once, and
//! the same list gives the same table.

use std::collections::HashSet;

use proptest::prelude::*;
use rtorb_idl::phf::{BUCKET_LOAD, PerfectHash};

/// An operation name as IDL spells them: an identifier, an attribute
/// accessor, or one of the `CORBA::Object` operations.
fn operation_name() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => "[a-z][a-z0-9_]{0,24}",
        2 => "[a-zA-Z][a-zA-Z0-9]{0,12}".prop_map(|s| format!("_get_{s}")),
        2 => "[a-zA-Z][a-zA-Z0-9]{0,12}".prop_map(|s| format!("_set_{s}")),
        1 => Just("_is_a".to_owned()),
        1 => Just("_non_existent".to_owned()),
    ]
}

fn operation_list(max: usize) -> impl Strategy<Value = Vec<String>> {
    proptest::collection::hash_set(operation_name(), 1..max)
        .prop_map(|set| {
            let mut v: Vec<String> = set.into_iter().collect();
            v.sort();
            v
        })
        .prop_shuffle()
}

/// Names close to `name` that are not it: each octet changed, a prefix,
/// an extension, and the other accessor.
fn near_misses(name: &str) -> Vec<Vec<u8>> {
    let b = name.as_bytes();
    let mut out = Vec::new();
    for i in 0..b.len() {
        let mut m = b.to_vec();
        m[i] ^= 1;
        out.push(m);
    }
    out.push(b[..b.len() - 1].to_vec());
    let mut longer = b.to_vec();
    longer.push(b'_');
    out.push(longer);
    if let Some(rest) = name.strip_prefix("_get_") {
        out.push(format!("_set_{rest}").into_bytes());
    }
    out
}

fn check_table(names: &[String]) -> Result<(), TestCaseError> {
    let table = PerfectHash::generate(names).expect("distinct names hash");
    prop_assert_eq!(table.slots().len(), names.len());
    prop_assert_eq!(
        table.displacements().len(),
        names.len().div_ceil(BUCKET_LOAD)
    );
    let used: HashSet<usize> = table.slots().iter().copied().collect();
    prop_assert_eq!(used.len(), names.len(), "a position in two slots");
    prop_assert!(used.iter().all(|&i| i < names.len()));
    for (i, name) in names.iter().enumerate() {
        prop_assert_eq!(table.lookup(name.as_bytes()), Some(i), "{}", name);
    }
    let members: HashSet<&[u8]> = names.iter().map(|s| s.as_bytes()).collect();
    for name in names.iter().take(64) {
        for miss in near_misses(name) {
            if !members.contains(miss.as_slice()) {
                prop_assert_eq!(table.lookup(&miss), None, "{:?}", miss);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn small_interfaces(names in operation_list(40), others in proptest::collection::vec(any::<Vec<u8>>(), 0..40)) {
        check_table(&names)?;
        let table = PerfectHash::generate(&names).unwrap();
        for other in others {
            if !names.iter().any(|n| n.as_bytes() == other.as_slice()) {
                prop_assert_eq!(table.lookup(&other), None);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn large_interfaces(names in operation_list(2000), others in proptest::collection::vec(operation_name(), 0..200)) {
        check_table(&names)?;
        let table = PerfectHash::generate(&names).unwrap();
        for other in others {
            if !names.contains(&other) {
                prop_assert_eq!(table.lookup(other.as_bytes()), None, "{}", other);
            }
        }
    }

    #[test]
    fn generation_is_deterministic(names in operation_list(300)) {
        let a = PerfectHash::generate(&names).unwrap();
        let b = PerfectHash::generate(&names).unwrap();
        prop_assert_eq!(a.render_static("OPS"), b.render_static("OPS"));
        prop_assert_eq!(a, b);
    }
}
