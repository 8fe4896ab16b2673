//! Malformed and malicious TypeCodes, values and Anys: each must give a
//! typed error, without a panic, stopping at a bound (the nesting depth,
//! the expansion of shared parts) rather than walking or expanding all it
//! was sent.

use bytes::Bytes;
use rtorb_cdr::{
    Any, ByteOrder, CdrDecode, CdrError, Decoder, Encoder, Encoding, TCKind, TypeCode, Value,
};

fn be() -> Encoding {
    Encoding::native().with_order(ByteOrder::Big)
}

fn decode_tc(bytes: Vec<u8>) -> Result<TypeCode, CdrError> {
    let mut d = Decoder::new(Bytes::from(bytes), be());
    TypeCode::decode(&mut d)
}

fn bad_indirection(r: Result<TypeCode, CdrError>) {
    match r {
        Err(CdrError::BadIndirection(_)) => {}
        other => panic!("expected BadIndirection, got {other:?}"),
    }
}

/// A struct TypeCode whose single member's type is written by `member`.
fn struct_with(member: impl FnOnce(&mut Encoder)) -> Vec<u8> {
    let mut e = Encoder::new(be());
    e.write_u32(15);
    e.write_encapsulation(|e| {
        e.write_string("IDL:S:1.0")?;
        e.write_string("S")?;
        e.write_u32(1);
        e.write_string("m")?;
        member(e);
        Ok(())
    })
    .unwrap();
    e.into_bytes().to_vec()
}

fn indirection(e: &mut Encoder, target: usize) {
    e.write_u32(0xffff_ffff);
    let at = e.len() as i64;
    e.write_i32((target as i64 - at) as i32);
}

#[test]
fn indirection_at_itself() {
    bad_indirection(decode_tc(vec![
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfc,
    ]));
    // Offset pointing at the offset word itself.
    bad_indirection(decode_tc(vec![0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]));
}

#[test]
fn forward_indirection() {
    let mut v = vec![0xff, 0xff, 0xff, 0xff, 0, 0, 0, 8];
    v.extend_from_slice(&[0, 0, 0, 3, 0, 0, 0, 3]);
    bad_indirection(decode_tc(v));
}

#[test]
fn indirection_outside_the_stream() {
    bad_indirection(decode_tc(vec![0xff, 0xff, 0xff, 0xff, 0x80, 0, 0, 0]));
    let bytes = struct_with(|e| {
        e.write_u32(0xffff_ffff);
        e.write_i32(-100_000);
    });
    bad_indirection(decode_tc(bytes));
}

#[test]
fn indirection_into_the_middle_of_a_typecode() {
    // Points at the length of the struct's repository id.
    bad_indirection(decode_tc(struct_with(|e| indirection(e, 12))));
    // Points at the encapsulation length.
    bad_indirection(decode_tc(struct_with(|e| indirection(e, 4))));
}

#[test]
fn indirection_to_the_enclosing_struct_is_recursion() {
    let tc = decode_tc(struct_with(|e| {
        e.write_u32(19);
        e.write_encapsulation(|e| {
            indirection(e, 0);
            e.write_u32(0);
            Ok(())
        })
        .unwrap();
    }))
    .unwrap();
    let inner = tc.member_type(0).unwrap().content_type().unwrap();
    assert_eq!(inner.id(), Some("IDL:S:1.0"));
}

#[test]
fn indirection_to_an_enclosing_sequence_is_rejected() {
    // sequence<X> where X points back at the sequence: not a legal recursion.
    let mut e = Encoder::new(be());
    e.write_u32(19);
    e.write_encapsulation(|e| {
        indirection(e, 0);
        e.write_u32(0);
        Ok(())
    })
    .unwrap();
    bad_indirection(decode_tc(e.into_bytes().to_vec()));
}

#[test]
fn indirections_pointing_at_each_other() {
    // Two members whose types are indirections to one another.
    let mut e = Encoder::new(be());
    e.write_u32(15);
    e.write_encapsulation(|e| {
        e.write_string("")?;
        e.write_string("")?;
        e.write_u32(2);
        e.write_string("a")?;
        e.align(4);
        let first = e.len();
        // Second member's indirection will be at first + 8 + 8 ("b" string).
        e.write_u32(0xffff_ffff);
        let at = e.len();
        e.write_i32((first as i64 + 16 - at as i64) as i32);
        e.write_string("b")?;
        indirection(e, first);
        Ok(())
    })
    .unwrap();
    bad_indirection(decode_tc(e.into_bytes().to_vec()));
}

#[test]
fn repeated_typecode_indirection_is_accepted() {
    let mut e = Encoder::new(be());
    e.write_u32(15);
    e.write_encapsulation(|e| {
        e.write_string("IDL:T:1.0")?;
        e.write_string("T")?;
        e.write_u32(2);
        e.write_string("a")?;
        e.align(4);
        let first = e.len();
        e.write_u32(18);
        e.write_u32(7);
        e.write_string("b")?;
        indirection(e, first);
        Ok(())
    })
    .unwrap();
    let tc = decode_tc(e.into_bytes().to_vec()).unwrap();
    assert_eq!(tc.member_type(1), Some(TypeCode::string(7)));
}

/// A struct of two members that both are the struct one level down (the
/// second by an indirection), `levels` deep: tiny on the wire, 2^levels
/// nodes once expanded.
fn write_doubling(e: &mut Encoder, levels: u32) {
    if levels == 0 {
        e.write_u32(3);
        return;
    }
    e.write_u32(15);
    e.write_encapsulation(|e| {
        e.write_string("")?;
        e.write_string("")?;
        e.write_u32(2);
        e.write_string("a")?;
        e.align(4);
        let first = e.len();
        write_doubling(e, levels - 1);
        e.write_string("b")?;
        indirection(e, first);
        Ok(())
    })
    .unwrap();
}

#[test]
fn exponential_expansion_by_repeated_indirections_is_rejected() {
    let mut e = Encoder::new(be());
    write_doubling(&mut e, 50);
    // Rejected for its size once expanded, reckoned without expanding it
    // (2^50 nodes would never be built).
    match decode_tc(e.into_bytes().to_vec()) {
        Err(CdrError::BadTypeCode(reason)) if reason.contains("expand") => {}
        other => panic!("expected BadTypeCode for the expansion, got {other:?}"),
    }
    // A few levels are fine.
    let mut e = Encoder::new(be());
    write_doubling(&mut e, 4);
    let tc = decode_tc(e.into_bytes().to_vec()).unwrap();
    assert_eq!(tc.member_count(), Some(2));
}

#[test]
fn truncated_encapsulation() {
    let full = struct_with(|e| e.write_u32(3));
    for cut in [2, 6, 9, 20, full.len() - 1] {
        let r = decode_tc(full[..cut].to_vec());
        assert!(
            matches!(
                r,
                Err(CdrError::UnexpectedEnd { .. } | CdrError::LengthTooLarge { .. })
            ),
            "cut {cut}: {r:?}"
        );
    }
    // An encapsulation length larger than the stream.
    let r = decode_tc(vec![0, 0, 0, 15, 0, 0, 0x10, 0, 0, 0, 0, 0]);
    assert!(matches!(r, Err(CdrError::LengthTooLarge { .. })), "{r:?}");
    // An empty encapsulation (no byte-order octet).
    let r = decode_tc(vec![0, 0, 0, 15, 0, 0, 0, 0]);
    assert!(matches!(r, Err(CdrError::UnexpectedEnd { .. })), "{r:?}");
}

#[test]
fn absurd_member_count() {
    let mut e = Encoder::new(be());
    e.write_u32(15);
    e.write_encapsulation(|e| {
        e.write_string("")?;
        e.write_string("")?;
        e.write_u32(0xffff_ffff);
        Ok(())
    })
    .unwrap();
    let r = decode_tc(e.into_bytes().to_vec());
    assert!(matches!(r, Err(CdrError::LengthTooLarge { .. })), "{r:?}");
}

#[test]
fn unknown_kind_and_bad_parameters() {
    assert!(matches!(
        decode_tc(vec![0, 0, 0, 37]),
        Err(CdrError::BadTypeCode(_))
    ));
    // fixed<40, 2>
    assert!(matches!(
        decode_tc(vec![0, 0, 0, 28, 0, 40, 0, 2]),
        Err(CdrError::BadTypeCode(_))
    ));
    // A union discriminated by a double.
    let mut e = Encoder::new(be());
    e.write_u32(16);
    e.write_encapsulation(|e| {
        e.write_string("")?;
        e.write_string("")?;
        e.write_u32(7);
        e.write_i32(-1);
        e.write_u32(0);
        Ok(())
    })
    .unwrap();
    assert!(matches!(
        decode_tc(e.into_bytes().to_vec()),
        Err(CdrError::BadTypeCode(_))
    ));
    // A union default index past its members.
    let mut e = Encoder::new(be());
    e.write_u32(16);
    e.write_encapsulation(|e| {
        e.write_string("")?;
        e.write_string("")?;
        e.write_u32(3);
        e.write_i32(5);
        e.write_u32(0);
        Ok(())
    })
    .unwrap();
    assert!(matches!(
        decode_tc(e.into_bytes().to_vec()),
        Err(CdrError::BadTypeCode(_))
    ));
}

/// `sequence<sequence<... long ...>>`, `levels` deep, as octets.
fn deep_sequences(levels: usize) -> Vec<u8> {
    // Sizes from the inside out: a level is 12 octets of header (kind,
    // length, byte order and padding), its content, and a 4-octet bound.
    let mut sizes = vec![0u32; levels + 1];
    sizes[0] = 4;
    for i in 1..=levels {
        sizes[i] = sizes[i - 1] + 16;
    }
    let mut out = Vec::with_capacity(sizes[levels] as usize);
    for i in (1..=levels).rev() {
        out.extend_from_slice(&[0, 0, 0, 19]);
        out.extend_from_slice(&(sizes[i] - 8).to_be_bytes());
        out.extend_from_slice(&[0, 0, 0, 0]);
    }
    out.extend_from_slice(&[0, 0, 0, 3]);
    for _ in 0..levels {
        out.extend_from_slice(&[0, 0, 0, 0]);
    }
    out
}

#[test]
fn typecode_nested_a_million_deep() {
    // Sanity: a shallow one decodes.
    let tc = decode_tc(deep_sequences(10)).unwrap();
    assert_eq!(tc.kind(), TCKind::Sequence);
    // Refused at the 65th level, not walked to the millionth.
    let bytes = deep_sequences(1_000_000);
    let r = decode_tc(bytes);
    assert!(matches!(r, Err(CdrError::NestingTooDeep(64))), "{r:?}");
}

#[test]
fn any_nested_a_million_deep() {
    let mut bytes = Vec::with_capacity(4_000_008);
    for _ in 0..1_000_000 {
        bytes.extend_from_slice(&[0, 0, 0, 11]);
    }
    bytes.extend_from_slice(&[0, 0, 0, 3, 0, 0, 0, 42]);
    let bytes = Bytes::from(bytes);
    // Refused at the 65th level, having read no more than its TypeCodes
    // (4 octets each) of the 4 MB.
    let mut d = Decoder::new(bytes.clone(), be());
    let r = Any::decode(&mut d);
    assert!(matches!(r, Err(CdrError::NestingTooDeep(64))), "{r:?}");
    assert!(d.position() <= 65 * 4, "read {} octets", d.position());
    let mut d = Decoder::new(bytes, be());
    let r = Value::decode(&TypeCode::any(), &mut d);
    assert!(matches!(r, Err(CdrError::NestingTooDeep(64))), "{r:?}");
    assert!(d.position() <= 65 * 4, "read {} octets", d.position());
    // A few levels are fine.
    let mut d = Decoder::new(
        Bytes::from_static(&[0, 0, 0, 11, 0, 0, 0, 3, 0, 0, 0, 42]),
        be(),
    );
    let outer = Any::decode(&mut d).unwrap();
    let Value::Any(inner) = outer.value().unwrap() else {
        panic!("not an any")
    };
    assert_eq!(inner.get::<i32>().unwrap(), 42);
}

fn decode_value(tc: &TypeCode, bytes: &'static [u8]) -> Result<Value, CdrError> {
    let mut d = Decoder::new(Bytes::from_static(bytes), be());
    Value::decode(tc, &mut d)
}

fn skip_any(tc: &TypeCode, value: &'static [u8]) -> Result<Any, CdrError> {
    let mut e = Encoder::new(be());
    rtorb_cdr::CdrEncode::encode(tc, &mut e).unwrap();
    if value.len() > 1 {
        // Every multi-octet test value starts with a long.
        e.align(4);
    }
    e.write_raw(value);
    let mut d = Decoder::new(e.into_bytes(), be());
    Any::decode(&mut d)
}

#[test]
fn bad_values() {
    let color = TypeCode::enum_tc("", "", ["r", "g"]);
    assert!(matches!(
        decode_value(&color, &[0, 0, 0, 2]),
        Err(CdrError::InvalidEnum { value: 2, count: 2 })
    ));
    assert!(matches!(
        skip_any(&color, &[0, 0, 0, 2]),
        Err(CdrError::InvalidEnum { .. })
    ));
    assert!(matches!(
        decode_value(&TypeCode::boolean(), &[2]),
        Err(CdrError::InvalidBoolean(2))
    ));
    assert!(matches!(
        skip_any(&TypeCode::boolean(), &[2]),
        Err(CdrError::InvalidBoolean(2))
    ));
    let longs = TypeCode::sequence(TypeCode::long(), 0);
    assert!(matches!(
        decode_value(&longs, &[0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]),
        Err(CdrError::LengthTooLarge { .. })
    ));
    assert!(matches!(
        skip_any(&longs, &[0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]),
        Err(CdrError::LengthTooLarge { .. })
    ));
    let bounded = TypeCode::sequence(TypeCode::octet(), 2);
    assert!(matches!(
        decode_value(&bounded, &[0, 0, 0, 3, 1, 2, 3]),
        Err(CdrError::BoundExceeded { .. })
    ));
    assert!(matches!(
        skip_any(&bounded, &[0, 0, 0, 3, 1, 2, 3]),
        Err(CdrError::BoundExceeded { .. })
    ));
    assert!(matches!(
        skip_any(&TypeCode::string(0), &[0, 0, 0, 3, b'a', b'b', b'c']),
        Err(CdrError::MalformedString(_))
    ));
    // A union discriminated by an enum, with a discriminator out of range.
    let u = TypeCode::union_tc(
        "",
        "",
        color,
        vec![rtorb_cdr::typecode::UnionMember::new(
            Value::Enum(0),
            "x",
            TypeCode::long(),
        )],
    )
    .unwrap();
    assert!(matches!(
        decode_value(&u, &[0, 0, 0, 9, 0, 0, 0, 1]),
        Err(CdrError::InvalidEnum { value: 9, .. })
    ));
    // Native values cannot travel.
    assert!(matches!(
        decode_value(&TypeCode::native("IDL:N:1.0", "N"), &[0, 0, 0, 0]),
        Err(CdrError::Unsupported(_))
    ));
}

#[test]
fn encoding_mismatched_values() {
    let mut e = Encoder::new(be());
    let r = Value::Long(1).encode(&TypeCode::short(), &mut e);
    assert!(matches!(r, Err(CdrError::TypeMismatch(_))));
    let s = TypeCode::struct_tc("", "", [("a", TypeCode::long())]);
    let r = Value::Struct(vec![]).encode(&s, &mut e);
    assert!(matches!(r, Err(CdrError::TypeMismatch(_))));
    let color = TypeCode::enum_tc("", "", ["r"]);
    let r = Value::Enum(1).encode(&color, &mut e);
    assert!(matches!(r, Err(CdrError::InvalidEnum { .. })));
    let u = TypeCode::union_tc(
        "",
        "",
        TypeCode::long(),
        vec![rtorb_cdr::typecode::UnionMember::new(
            Value::Long(1),
            "x",
            TypeCode::long(),
        )],
    )
    .unwrap();
    // Discriminator 2 selects nothing, but the value claims member 0.
    let r = Value::Union {
        discriminator: Box::new(Value::Long(2)),
        member: Some(0),
        value: Some(Box::new(Value::Long(5))),
    }
    .encode(&u, &mut e);
    assert!(matches!(r, Err(CdrError::InvalidDiscriminator(2))));
    let arr = TypeCode::array(TypeCode::long(), 3);
    let r = Value::Array(vec![Value::Long(1)]).encode(&arr, &mut e);
    assert!(matches!(r, Err(CdrError::TypeMismatch(_))));
}

#[test]
fn self_containing_types_fail_with_typed_errors() {
    // valuetype V whose concrete base is V itself, by indirection.
    let mut e = Encoder::new(be());
    e.write_u32(29);
    e.write_encapsulation(|e| {
        e.write_string("IDL:V:1.0")?;
        e.write_string("V")?;
        e.write_i16(0);
        indirection(e, 0);
        e.write_u32(0);
        Ok(())
    })
    .unwrap();
    let v = decode_tc(e.into_bytes().to_vec()).unwrap();
    let mut d = Decoder::new(
        Bytes::from_static(&[0x7f, 0xff, 0xff, 0x00, 0, 0, 0, 0]),
        be(),
    );
    assert!(matches!(
        Value::decode(&v, &mut d),
        Err(CdrError::NestingTooDeep(_))
    ));
    // struct S { S s; }: a value would be infinite.
    let s = decode_tc(struct_with(|e| indirection(e, 0))).unwrap();
    let mut d = Decoder::new(Bytes::from_static(&[0; 64]), be());
    assert!(matches!(
        Value::decode(&s, &mut d),
        Err(CdrError::NestingTooDeep(_))
    ));
    let mut e = Encoder::new(be());
    rtorb_cdr::CdrEncode::encode(&s, &mut e).unwrap();
    let mut d = Decoder::new(e.into_bytes(), be());
    assert!(matches!(
        Any::decode(&mut d),
        Err(CdrError::NestingTooDeep(_))
    ));
}
