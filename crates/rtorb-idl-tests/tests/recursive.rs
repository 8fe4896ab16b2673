//! A struct that contains itself through a typedef'd sequence.

use rtorb::cdr::IdlType;
use rtorb_cdr::{Any, CdrDecode, CdrEncode, Decoder, Encoder, Encoding, TCKind};
use rtorb_idl_tests::recursive_idl::rec::{Tree, forest_type_code};

fn tree(depth: u32, value: i32) -> Tree {
    Tree {
        value,
        label: format!("node {value}"),
        children: if depth == 0 {
            Vec::new()
        } else {
            (0..2).map(|i| tree(depth - 1, value * 2 + i)).collect()
        },
    }
}

/// Regression: the TypeCode of `Tree` called the typedef's, which called
/// `Tree`'s again, until the stack overflowed.
#[test]
fn the_type_code_of_a_recursive_struct_ends_in_a_recursive_reference() {
    let tc = Tree::type_code();
    assert_eq!(tc.kind(), TCKind::Struct);
    let children = tc.member_type(2).expect("a third member");
    assert_eq!(children.kind(), TCKind::Alias);
    assert_eq!(forest_type_code().kind(), TCKind::Alias);
    // Encoded, it decodes to an equal TypeCode (the recursion as an
    // indirection).
    let mut e = Encoder::new(Encoding::native());
    tc.encode(&mut e).unwrap();
    let back =
        rtorb_cdr::TypeCode::decode(&mut Decoder::new(e.into_bytes(), Encoding::native())).unwrap();
    assert!(back.equivalent(&tc));
}

#[test]
fn a_recursive_value_goes_through_an_any() {
    let t = tree(3, 1);
    let any = Any::new(&t).unwrap();
    assert_eq!(any.get::<Tree>().unwrap(), t);
}
