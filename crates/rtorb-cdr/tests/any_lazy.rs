//! Any: lazy (still encoded) against eager (decoded) values, zero-copy
//! slices, pass-through re-encoding, and the insertion/extraction helpers.

use bytes::Bytes;
use rtorb_cdr::{
    Any, ByteOrder, CdrDecode, CdrEncode, CdrError, Decoder, Encoder, Encoding, TypeCode, Value,
};

fn be() -> Encoding {
    Encoding::native().with_order(ByteOrder::Big)
}

#[test]
fn any_of_long_octets() {
    let mut e = Encoder::new(be());
    Any::from(42i32).encode(&mut e).unwrap();
    assert_eq!(&e.into_bytes()[..], [0, 0, 0, 3, 0, 0, 0, 42]);
    let mut e = Encoder::new(be());
    Any::from("hi").encode(&mut e).unwrap();
    assert_eq!(
        &e.into_bytes()[..],
        [0, 0, 0, 18, 0, 0, 0, 0, 0, 0, 0, 3, b'h', b'i', 0]
    );
}

fn message_with_any() -> (Bytes, TypeCode, Value) {
    let tc = TypeCode::struct_tc(
        "IDL:M:1.0",
        "M",
        [
            ("d", TypeCode::double()),
            ("blob", TypeCode::sequence(TypeCode::octet(), 0)),
            ("inner", TypeCode::any()),
        ],
    );
    let v = Value::Struct(vec![
        Value::Double(2.5),
        Value::Octets(Bytes::from_static(b"payload")),
        Value::Any(Box::new(Any::from(7u16))),
    ]);
    let mut e = Encoder::new(be());
    e.write_u8(0xaa); // the Any starts unaligned
    Any::from_value(tc.clone(), v.clone())
        .encode(&mut e)
        .unwrap();
    (e.into_bytes(), tc, v)
}

#[test]
fn decoded_any_keeps_a_slice_of_the_message() {
    let (msg, tc, v) = message_with_any();
    let mut d = Decoder::new(msg.clone(), be());
    d.read_u8().unwrap();
    let any = Any::decode(&mut d).unwrap();
    assert!(d.is_empty());
    assert!(any.is_encoded());
    assert!(any.type_code().equal(&tc));
    let (slice, enc) = any.encoded().unwrap();
    assert_eq!(enc, be());
    // The slice lies inside the message buffer: no copy was made.
    let start = msg.as_ptr() as usize;
    let at = slice.as_ptr() as usize;
    assert!(at >= start && at + slice.len() <= start + msg.len());
    assert_eq!(at + slice.len(), start + msg.len());
    // Lazy and eager agree.
    let lazy = any.value().unwrap();
    assert_eq!(lazy, v);
    let mut eager = any.clone();
    eager.make_decoded().unwrap();
    assert!(!eager.is_encoded());
    assert_eq!(eager, any);
    assert_eq!(eager.value().unwrap(), v);
    // The octet sequence inside the decoded value is a slice of the message too.
    let Value::Struct(members) = lazy else {
        panic!("not a struct")
    };
    let Value::Octets(blob) = &members[1] else {
        panic!("not octets")
    };
    let b = blob.as_ptr() as usize;
    assert!(b >= start && b < start + msg.len());
    let Value::Any(inner) = &members[2] else {
        panic!("not an any")
    };
    assert!(inner.is_encoded());
    assert_eq!(inner.get::<u16>().unwrap(), 7);
}

#[test]
fn pass_through_copies_the_octets_when_compatible() {
    let (msg, _, v) = message_with_any();
    let mut d = Decoder::new(msg.clone(), be());
    d.read_u8().unwrap();
    let any = Any::decode(&mut d).unwrap();

    // Same encoding, same alignment: identical octets.
    let mut e = Encoder::new(be());
    e.write_u8(0x55);
    any.encode(&mut e).unwrap();
    let out = e.into_bytes();
    assert_eq!(&out[1..], &msg[1..]);

    // Same encoding, another alignment modulo 8: the double must move, so
    // the value is encoded again, and still decodes to the same value.
    let mut e = Encoder::new(be());
    e.write_u32(0);
    e.write_u8(0x55);
    any.encode(&mut e).unwrap();
    let out = e.into_bytes();
    assert_ne!(&out[5..], &msg[1..]);
    let mut d = Decoder::new(out, be());
    d.read_u32().unwrap();
    d.read_u8().unwrap();
    assert_eq!(Any::decode(&mut d).unwrap().value().unwrap(), v);

    // Other byte order: re-encoded.
    let le = Encoding::native().with_order(ByteOrder::Little);
    let mut e = Encoder::new(le);
    e.write_u8(0x55);
    any.encode(&mut e).unwrap();
    let out = e.into_bytes();
    assert_eq!(&out[4..8], [15, 0, 0, 0]);
    let mut d = Decoder::new(out, le);
    d.read_u8().unwrap();
    let again = Any::decode(&mut d).unwrap();
    assert_eq!(again.value().unwrap(), v);
    assert_eq!(again, any);
}

#[test]
fn insertion_and_extraction() {
    assert!(Any::from(true).get::<bool>().unwrap());
    assert_eq!(Any::from(-3i64).get::<i64>().unwrap(), -3);
    assert_eq!(Any::from(1.5f64).get::<f64>().unwrap(), 1.5);
    assert_eq!(Any::from('x').get::<char>().unwrap(), 'x');
    assert_eq!(Any::from("text").get::<String>().unwrap(), "text");
    let blob = Bytes::from_static(b"\x00\x01");
    assert_eq!(Any::from(blob.clone()).get::<Bytes>().unwrap(), blob);
    assert!(matches!(
        Any::from(5i32).get::<u32>(),
        Err(CdrError::TypeMismatch(_))
    ));
    // Extraction sees through aliases.
    let alias = TypeCode::alias("IDL:Count:1.0", "Count", TypeCode::long());
    assert_eq!(
        Any::from_value(alias, Value::Long(9)).get::<i32>().unwrap(),
        9
    );
    let mut a = Any::null();
    a.set(&8u8).unwrap();
    assert_eq!(a.get::<u8>().unwrap(), 8);
    assert_eq!(a.type_code(), &TypeCode::octet());
}

#[test]
fn equality_is_by_value() {
    let mut e = Encoder::new(be());
    Any::from(5i32).encode(&mut e).unwrap();
    let mut d = Decoder::new(e.into_bytes(), be());
    let decoded = Any::decode(&mut d).unwrap();
    assert_eq!(decoded, Any::from(5i32));
    assert_ne!(decoded, Any::from(6i32));
    assert_ne!(decoded, Any::from(5u32));
    // Encoded in different byte orders, still equal.
    let mut e = Encoder::new(Encoding::native().with_order(ByteOrder::Little));
    Any::from(5i32).encode(&mut e).unwrap();
    let mut d = Decoder::new(
        e.into_bytes(),
        Encoding::native().with_order(ByteOrder::Little),
    );
    assert_eq!(Any::decode(&mut d).unwrap(), decoded);
}

#[test]
fn mismatched_value_fails_on_encode() {
    let any = Any::from_value(TypeCode::long(), Value::String("no".into()));
    let mut e = Encoder::new(be());
    assert!(matches!(any.encode(&mut e), Err(CdrError::TypeMismatch(_))));
}

#[test]
fn union_without_default_may_select_nothing() {
    use rtorb_cdr::typecode::UnionMember;
    let u = TypeCode::union_tc(
        "IDL:U:1.0",
        "U",
        TypeCode::boolean(),
        vec![UnionMember::new(
            Value::Boolean(true),
            "x",
            TypeCode::long(),
        )],
    )
    .unwrap();
    let v = Value::Union {
        discriminator: Box::new(Value::Boolean(false)),
        member: None,
        value: None,
    };
    let mut e = Encoder::new(be());
    v.encode(&u, &mut e).unwrap();
    let bytes = e.into_bytes();
    assert_eq!(&bytes[..], [0]);
    let mut d = Decoder::new(bytes, be());
    assert_eq!(Value::decode(&u, &mut d).unwrap(), v);
}

#[test]
fn valuetypes_and_boxes() {
    use rtorb_cdr::typecode::{PUBLIC_MEMBER, ValueMember};
    let vt = TypeCode::value_tc(
        "IDL:P:1.0",
        "P",
        0,
        None,
        vec![ValueMember {
            name: "n".into(),
            type_code: TypeCode::long(),
            visibility: PUBLIC_MEMBER,
        }],
    );
    let mut e = Encoder::new(be());
    Value::ValueType(vec![Value::Long(3)])
        .encode(&vt, &mut e)
        .unwrap();
    Value::Null.encode(&vt, &mut e).unwrap();
    let bytes = e.into_bytes();
    #[rustfmt::skip]
    let expected = [
        0x7f, 0xff, 0xff, 0x02, // value tag: one repository id
        0, 0, 0, 10, b'I', b'D', b'L', b':', b'P', b':', b'1', b'.', b'0', 0,
        0, 0,
        0, 0, 0, 3,
        0, 0, 0, 0,             // null value
    ];
    assert_eq!(&bytes[..], expected);
    let mut d = Decoder::new(bytes, be());
    assert_eq!(
        Value::decode(&vt, &mut d).unwrap(),
        Value::ValueType(vec![Value::Long(3)])
    );
    assert_eq!(Value::decode(&vt, &mut d).unwrap(), Value::Null);
    // A chunked header cut short: a typed error.
    let mut d = Decoder::new(Bytes::from_static(&[0x7f, 0xff, 0xff, 0x0a]), be());
    assert!(matches!(
        Value::decode(&vt, &mut d),
        Err(CdrError::UnexpectedEnd { .. })
    ));
}
