//! TypeCode encodings checked octet by octet against layouts worked out
//! from the CDR "Encoding of TypeCodes" rules (big-endian streams).

use rtorb_cdr::typecode::UnionMember;
use rtorb_cdr::{
    ByteOrder, CdrDecode, CdrEncode, CdrError, Decoder, Encoder, Encoding, TCKind, TypeCode, Value,
};

fn be() -> Encoding {
    Encoding::native().with_order(ByteOrder::Big)
}

fn encode(tc: &TypeCode) -> Vec<u8> {
    let mut e = Encoder::new(be());
    tc.encode(&mut e).unwrap();
    e.into_bytes().to_vec()
}

fn decode(bytes: &[u8]) -> TypeCode {
    let mut d = Decoder::new(bytes::Bytes::copy_from_slice(bytes), be());
    let tc = TypeCode::decode(&mut d).unwrap();
    assert!(d.is_empty(), "trailing octets");
    tc
}

#[test]
fn simple_kinds_are_just_the_kind() {
    assert_eq!(encode(&TypeCode::long()), [0, 0, 0, 3]);
    assert_eq!(encode(&TypeCode::ulong()), [0, 0, 0, 5]);
    assert_eq!(encode(&TypeCode::any()), [0, 0, 0, 11]);
    assert_eq!(encode(&TypeCode::wchar()), [0, 0, 0, 26]);
    assert_eq!(decode(&[0, 0, 0, 24]).kind(), TCKind::ULongLong);
}

#[test]
fn kind_numbers() {
    assert_eq!(TCKind::Value.to_u32(), 29);
    assert_eq!(TCKind::ValueBox.to_u32(), 30);
    assert_eq!(TCKind::Event.to_u32(), 36);
    assert_eq!(TCKind::from_u32(33), Some(TCKind::LocalInterface));
    assert_eq!(TCKind::from_u32(37), None);
    assert_eq!(TCKind::from_u32(TCKind::INDIRECTION), None);
}

#[test]
fn string_and_fixed_carry_parameters_inline() {
    assert_eq!(encode(&TypeCode::string(10)), [0, 0, 0, 18, 0, 0, 0, 10]);
    assert_eq!(encode(&TypeCode::wstring(0)), [0, 0, 0, 27, 0, 0, 0, 0]);
    assert_eq!(
        encode(&TypeCode::fixed(5, 2).unwrap()),
        [0, 0, 0, 28, 0, 5, 0, 2]
    );
}

#[test]
fn struct_with_two_members() {
    let tc = TypeCode::struct_tc(
        "IDL:P:1.0",
        "P",
        [("x", TypeCode::long()), ("y", TypeCode::string(0))],
    );
    #[rustfmt::skip]
    let expected: Vec<u8> = vec![
        0, 0, 0, 15,            // tk_struct
        0, 0, 0, 60,            // encapsulation length
        0, 0, 0, 0,             // big-endian, pad
        0, 0, 0, 10, b'I', b'D', b'L', b':', b'P', b':', b'1', b'.', b'0', 0,
        0, 0,                   // pad
        0, 0, 0, 2, b'P', 0,    // name
        0, 0,
        0, 0, 0, 2,             // member count
        0, 0, 0, 2, b'x', 0,
        0, 0,
        0, 0, 0, 3,             // tk_long
        0, 0, 0, 2, b'y', 0,
        0, 0,
        0, 0, 0, 18, 0, 0, 0, 0, // tk_string, unbounded
    ];
    assert_eq!(encode(&tc), expected);
    let back = decode(&expected);
    assert_eq!(back, tc);
    assert_eq!(back.member_name(1), Some("y"));
    assert_eq!(back.member_type(0).unwrap().kind(), TCKind::Long);
}

#[test]
fn union_labels_and_default() {
    let tc = TypeCode::union_tc(
        "IDL:U:1.0",
        "U",
        TypeCode::long(),
        vec![
            UnionMember::new(Value::Long(1), "a", TypeCode::long()),
            UnionMember::default_case("b", TypeCode::string(0)),
        ],
    )
    .unwrap();
    #[rustfmt::skip]
    let expected: Vec<u8> = vec![
        0, 0, 0, 16,
        0, 0, 0, 76,
        0, 0, 0, 0,
        0, 0, 0, 10, b'I', b'D', b'L', b':', b'U', b':', b'1', b'.', b'0', 0,
        0, 0,
        0, 0, 0, 2, b'U', 0,
        0, 0,
        0, 0, 0, 3,             // discriminator tk_long
        0, 0, 0, 1,             // default_used
        0, 0, 0, 2,             // member count
        0, 0, 0, 1,             // label 1
        0, 0, 0, 2, b'a', 0,
        0, 0,
        0, 0, 0, 3,
        0,                      // default label: octet 0
        0, 0, 0,
        0, 0, 0, 2, b'b', 0,
        0, 0,
        0, 0, 0, 18, 0, 0, 0, 0,
    ];
    assert_eq!(encode(&tc), expected);
    let back = decode(&expected);
    assert_eq!(back, tc);
    assert_eq!(back.default_index(), Some(1));
    assert_eq!(back.member_label(0), Some(Value::Long(1)));
    assert_eq!(back.member_label(1), Some(Value::Octet(0)));
}

fn node() -> TypeCode {
    let me = TypeCode::recursive(TCKind::Struct, "IDL:Node:1.0").unwrap();
    TypeCode::struct_tc(
        "IDL:Node:1.0",
        "Node",
        [("children", TypeCode::sequence(me, 0))],
    )
}

#[test]
fn recursive_sequence_becomes_an_indirection() {
    #[rustfmt::skip]
    let expected: Vec<u8> = vec![
        0, 0, 0, 15,            // 0: tk_struct, the indirection target
        0, 0, 0, 80,            // 4
        0, 0, 0, 0,             // 8: body
        0, 0, 0, 13, b'I', b'D', b'L', b':', b'N', b'o', b'd', b'e', b':', b'1', b'.', b'0', 0,
        0, 0, 0,
        0, 0, 0, 5, b'N', b'o', b'd', b'e', 0,
        0, 0, 0,
        0, 0, 0, 1,
        0, 0, 0, 9, b'c', b'h', b'i', b'l', b'd', b'r', b'e', b'n', 0,
        0, 0, 0,
        0, 0, 0, 19,            // tk_sequence
        0, 0, 0, 16,            // its encapsulation
        0, 0, 0, 0,             // 72: body
        0xff, 0xff, 0xff, 0xff, // 76: indirection
        0xff, 0xff, 0xff, 0xb0, // 80: offset -80, back to 0
        0, 0, 0, 0,             // bound
    ];
    let tc = node();
    assert_eq!(encode(&tc), expected);
    let back = decode(&expected);
    assert_eq!(back, tc);
    let seq = back.member_type(0).unwrap();
    assert_eq!(seq.kind(), TCKind::Sequence);
    let inner = seq.content_type().unwrap();
    assert_eq!(inner.kind(), TCKind::Struct);
    assert_eq!(inner.name(), Some("Node"));
    assert!(inner.equal(&back));
    // And again, one level further down.
    let deeper = inner.member_type(0).unwrap().content_type().unwrap();
    assert_eq!(deeper.member_name(0), Some("children"));
}

#[test]
fn recursive_value_round_trip_both_orders() {
    let tc = node();
    let leaf = Value::Struct(vec![Value::Sequence(vec![])]);
    let tree = Value::Struct(vec![Value::Sequence(vec![
        leaf.clone(),
        Value::Struct(vec![Value::Sequence(vec![leaf.clone()])]),
    ])]);
    for order in [ByteOrder::Big, ByteOrder::Little] {
        let enc = Encoding::native().with_order(order);
        let mut e = Encoder::new(enc);
        tree.encode(&tc, &mut e).unwrap();
        let mut d = Decoder::new(e.into_bytes(), enc);
        assert_eq!(Value::decode(&tc, &mut d).unwrap(), tree);
        assert!(d.is_empty());
    }
}

#[test]
fn indirection_inside_nested_struct_little_endian_round_trip() {
    // struct Outer { long n; struct Inner { sequence<Inner> kids; Outer? no } inner; }
    // with Inner recursing to itself and a second member recursing to Outer.
    let outer_ph = TypeCode::recursive(TCKind::Struct, "IDL:Outer:1.0").unwrap();
    let inner_ph = TypeCode::recursive(TCKind::Struct, "IDL:Inner:1.0").unwrap();
    let inner = TypeCode::struct_tc(
        "IDL:Inner:1.0",
        "Inner",
        [
            ("kids", TypeCode::sequence(inner_ph, 0)),
            ("up", TypeCode::sequence(outer_ph, 1)),
        ],
    );
    let outer = TypeCode::struct_tc(
        "IDL:Outer:1.0",
        "Outer",
        [("n", TypeCode::long()), ("inner", inner)],
    );
    for order in [ByteOrder::Big, ByteOrder::Little] {
        let enc = Encoding::native().with_order(order);
        let mut e = Encoder::new(enc);
        e.write_u8(7); // start unaligned
        outer.encode(&mut e).unwrap();
        let mut d = Decoder::new(e.into_bytes(), enc);
        d.read_u8().unwrap();
        let back = TypeCode::decode(&mut d).unwrap();
        assert_eq!(back, outer);
        let up = back
            .member_type(1)
            .unwrap()
            .member_type(1)
            .unwrap()
            .content_type()
            .unwrap();
        assert_eq!(up.id(), Some("IDL:Outer:1.0"));
        assert_eq!(up.member_count(), Some(2));
    }
}

#[test]
fn equal_equivalent_and_compact() {
    let a = TypeCode::struct_tc("", "A", [("x", TypeCode::long())]);
    let b = TypeCode::struct_tc("", "B", [("y", TypeCode::long())]);
    assert!(!a.equal(&b));
    assert!(a.equivalent(&b));
    let alias = TypeCode::alias("IDL:L:1.0", "L", TypeCode::long());
    let c = TypeCode::struct_tc("", "C", [("x", alias)]);
    assert!(!a.equal(&c));
    assert!(a.equivalent(&c));
    // Different non-empty ids are never equivalent.
    let d = TypeCode::struct_tc("IDL:D:1.0", "A", [("x", TypeCode::long())]);
    let e = TypeCode::struct_tc("IDL:E:1.0", "A", [("x", TypeCode::long())]);
    assert!(!d.equivalent(&e));
    let compact = d.get_compact_typecode();
    assert_eq!(compact.name(), Some(""));
    assert_eq!(compact.member_name(0), Some(""));
    assert_eq!(compact.id(), Some("IDL:D:1.0"));
    assert!(compact.equivalent(&d));
    assert!(!compact.equal(&d));
    let en = TypeCode::enum_tc("IDL:C:1.0", "Color", ["red", "green"]);
    assert_eq!(en.get_compact_typecode().member_name(1), Some(""));
}

#[test]
fn accessors_follow_the_kind() {
    let s = TypeCode::sequence(TypeCode::octet(), 8);
    assert_eq!(s.length(), Some(8));
    assert_eq!(s.content_type().unwrap().kind(), TCKind::Octet);
    assert_eq!(s.id(), None);
    assert_eq!(s.member_count(), None);
    let f = TypeCode::fixed(9, 3).unwrap();
    assert_eq!((f.fixed_digits(), f.fixed_scale()), (Some(9), Some(3)));
    assert_eq!(
        TypeCode::fixed(32, 0).unwrap_err(),
        CdrError::BadTypeCode("fixed digits or scale out of range")
    );
    let base = TypeCode::value_tc("IDL:B:1.0", "B", 0, None, vec![]);
    let v = TypeCode::value_tc(
        "IDL:V:1.0",
        "V",
        rtorb_cdr::typecode::VM_TRUNCATABLE,
        Some(base.clone()),
        vec![rtorb_cdr::typecode::ValueMember {
            name: "n".into(),
            type_code: TypeCode::long(),
            visibility: rtorb_cdr::typecode::PUBLIC_MEMBER,
        }],
    );
    assert_eq!(v.type_modifier(), Some(3));
    assert_eq!(v.concrete_base_type(), Some(Some(base)));
    assert_eq!(v.member_visibility(0), Some(1));
    let back = decode(&encode(&v));
    assert_eq!(back, v);
    assert!(TypeCode::basic(TCKind::Struct).is_none());
    assert_eq!(
        TypeCode::recursive(TCKind::Sequence, "x").unwrap_err(),
        CdrError::BadTypeCode("only struct, union, value, event and value box types can recurse")
    );
}

#[test]
fn union_constructor_rejects_bad_labels() {
    let dup = TypeCode::union_tc(
        "",
        "",
        TypeCode::short(),
        vec![
            UnionMember::new(Value::Short(1), "a", TypeCode::long()),
            UnionMember::new(Value::Short(1), "b", TypeCode::long()),
        ],
    );
    assert_eq!(
        dup.unwrap_err(),
        CdrError::BadTypeCode("duplicate union label")
    );
    let wrong = TypeCode::union_tc(
        "",
        "",
        TypeCode::short(),
        vec![UnionMember::new(Value::Long(1), "a", TypeCode::long())],
    );
    assert_eq!(
        wrong.unwrap_err(),
        CdrError::TypeMismatch("union label or discriminator type")
    );
    let bad_disc = TypeCode::union_tc("", "", TypeCode::double(), vec![]);
    assert_eq!(
        bad_disc.unwrap_err(),
        CdrError::BadTypeCode("invalid union discriminator type")
    );
}

#[test]
fn stream_offset_counts_across_encapsulations() {
    let mut e = Encoder::new(be());
    e.write_u32(1);
    e.write_encapsulation(|e| {
        e.write_u32(2);
        e.write_encapsulation(|e| {
            e.write_u32(3);
            Ok(())
        })
    })
    .unwrap();
    let mut d = Decoder::new(e.into_bytes(), be());
    d.read_u32().unwrap();
    let mut outer = d.read_encapsulation().unwrap();
    // Length at 4, byte order at 8, padding, then the long at 12.
    assert_eq!(outer.stream_offset(), 9);
    outer.read_u32().unwrap();
    assert_eq!(outer.stream_offset(), 16);
    let mut inner = outer.read_encapsulation().unwrap();
    // Length at 16, byte order at 20, the long at 24.
    assert_eq!(inner.stream_offset(), 21);
    inner.read_u32().unwrap();
    assert_eq!(inner.stream_offset(), 28);
    assert_eq!(inner.offset(), 8);
}
