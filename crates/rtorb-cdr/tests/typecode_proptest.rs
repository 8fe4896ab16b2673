//! Property tests: random TypeCodes with random matching values, encoded
//! and decoded in both byte orders and GIOP 1.0, 1.1 and 1.2.

use bytes::Bytes;
use proptest::prelude::*;
use rtorb_cdr::typecode::{PUBLIC_MEMBER, UnionMember, ValueMember};
use rtorb_cdr::value::PrimSeq;
use rtorb_cdr::{
    Any, ByteOrder, CdrDecode, CdrEncode, Decoder, Encoder, Encoding, Fixed, Ior, LongDouble,
    TCKind, TaggedProfile, TypeCode, Value, Version,
};

fn node() -> TypeCode {
    let me = TypeCode::recursive(TCKind::Struct, "IDL:Node:1.0").unwrap();
    TypeCode::struct_tc(
        "IDL:Node:1.0",
        "Node",
        [("v", TypeCode::long()), ("kids", TypeCode::sequence(me, 0))],
    )
}

fn leaf_tc(wide: bool) -> BoxedStrategy<TypeCode> {
    // No void or null: they occupy no octets, and a sequence of them could
    // claim any length; the decoder rejects counts the stream cannot hold.
    let mut kinds = vec![
        TCKind::Short,
        TCKind::Long,
        TCKind::UShort,
        TCKind::ULong,
        TCKind::Float,
        TCKind::Double,
        TCKind::Boolean,
        TCKind::Char,
        TCKind::Octet,
        TCKind::Any,
        TCKind::TypeCode,
        TCKind::LongLong,
        TCKind::ULongLong,
        TCKind::LongDouble,
    ];
    if wide {
        kinds.push(TCKind::WChar);
    }
    let basic = proptest::sample::select(kinds).prop_map(|k| TypeCode::basic(k).unwrap());
    let mut options: Vec<BoxedStrategy<TypeCode>> = vec![
        basic.clone().boxed(),
        basic.boxed(),
        (0u32..6).prop_map(TypeCode::string).boxed(),
        (1u16..12)
            .prop_flat_map(|d| (Just(d), 0..=d as i16))
            .prop_map(|(d, s)| TypeCode::fixed(d, s).unwrap())
            .boxed(),
        (1usize..5)
            .prop_map(|n| TypeCode::enum_tc("IDL:E:1.0", "E", (0..n).map(|i| format!("e{i}"))))
            .boxed(),
        Just(TypeCode::objref("IDL:Obj:1.0", "Obj")).boxed(),
        Just(node()).boxed(),
    ];
    if wide {
        options.push((0u32..6).prop_map(TypeCode::wstring).boxed());
    }
    proptest::strategy::Union::new(options).boxed()
}

fn union_tc(disc: u8, types: Vec<TypeCode>, with_default: bool) -> TypeCode {
    let n = types.len();
    let (disc_tc, label): (TypeCode, Box<dyn Fn(usize) -> Value>) = match disc {
        0 => (TypeCode::long(), Box::new(|i| Value::Long(i as i32 - 1))),
        1 => (TypeCode::short(), Box::new(|i| Value::Short(i as i16))),
        2 => (
            TypeCode::ulonglong(),
            Box::new(|i| Value::ULongLong(i as u64)),
        ),
        3 => (
            TypeCode::char(),
            Box::new(|i| Value::Char((b'a' + i as u8) as char)),
        ),
        4 => (
            TypeCode::enum_tc("IDL:D:1.0", "D", (0..=n).map(|i| format!("d{i}"))),
            Box::new(|i| Value::Enum(i as u32)),
        ),
        _ => (
            TypeCode::alias("IDL:B:1.0", "B", TypeCode::boolean()),
            Box::new(|i| Value::Boolean(i == 1)),
        ),
    };
    let members = types
        .into_iter()
        .enumerate()
        .map(|(i, t)| {
            if with_default && i == n - 1 {
                UnionMember::default_case(format!("m{i}"), t)
            } else {
                UnionMember::new(label(i), format!("m{i}"), t)
            }
        })
        .collect();
    TypeCode::union_tc("IDL:U:1.0", "U", disc_tc, members).unwrap()
}

fn arb_tc(wide: bool) -> BoxedStrategy<TypeCode> {
    leaf_tc(wide)
        .prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                (inner.clone(), 0u32..4).prop_map(|(t, b)| TypeCode::sequence(t, b)),
                (inner.clone(), 1u32..4).prop_map(|(t, n)| TypeCode::array(t, n)),
                proptest::collection::vec(inner.clone(), 1..4).prop_map(|ts| {
                    TypeCode::struct_tc(
                        "IDL:S:1.0",
                        "S",
                        ts.into_iter()
                            .enumerate()
                            .map(|(i, t)| (format!("f{i}"), t)),
                    )
                }),
                proptest::collection::vec(inner.clone(), 1..3).prop_map(|ts| {
                    TypeCode::exception_tc(
                        "IDL:X:1.0",
                        "X",
                        ts.into_iter()
                            .enumerate()
                            .map(|(i, t)| (format!("f{i}"), t)),
                    )
                }),
                inner
                    .clone()
                    .prop_map(|t| TypeCode::alias("IDL:A:1.0", "A", t)),
                (
                    0u8..6,
                    proptest::collection::vec(inner.clone(), 1..4),
                    any::<bool>()
                )
                    .prop_map(|(d, ts, def)| {
                        // A boolean has room for two labels only.
                        let ts = if d >= 5 {
                            ts.into_iter().take(2).collect()
                        } else {
                            ts
                        };
                        union_tc(d, ts, def)
                    }),
                (
                    proptest::collection::vec(inner.clone(), 0..3),
                    any::<bool>()
                )
                    .prop_map(|(ts, with_base)| {
                        let base = with_base.then(|| {
                            TypeCode::value_tc(
                                "IDL:Base:1.0",
                                "Base",
                                0,
                                None,
                                vec![ValueMember {
                                    name: "b".into(),
                                    type_code: TypeCode::long(),
                                    visibility: PUBLIC_MEMBER,
                                }],
                            )
                        });
                        let members = ts
                            .into_iter()
                            .enumerate()
                            .map(|(i, t)| ValueMember {
                                name: format!("v{i}"),
                                type_code: t,
                                visibility: (i % 2) as i16,
                            })
                            .collect();
                        TypeCode::value_tc("IDL:V:1.0", "V", 0, base, members)
                    }),
                inner.prop_map(|t| TypeCode::value_box("IDL:VB:1.0", "VB", t)),
            ]
        })
        .boxed()
}

fn canonical(content: &TypeCode, items: Vec<Value>, array: bool) -> Value {
    macro_rules! prims {
        ($var:ident) => {
            Value::Primitives(PrimSeq::$var(
                items
                    .into_iter()
                    .map(|v| match v {
                        Value::$var(x) => x,
                        _ => unreachable!(),
                    })
                    .collect(),
            ))
        };
    }
    match content.unalias().kind() {
        TCKind::Octet => Value::Octets(Bytes::from(
            items
                .into_iter()
                .map(|v| match v {
                    Value::Octet(x) => x,
                    _ => unreachable!(),
                })
                .collect::<Vec<u8>>(),
        )),
        TCKind::Short => prims!(Short),
        TCKind::UShort => prims!(UShort),
        TCKind::Long => prims!(Long),
        TCKind::ULong => prims!(ULong),
        TCKind::LongLong => prims!(LongLong),
        TCKind::ULongLong => prims!(ULongLong),
        TCKind::Float => prims!(Float),
        TCKind::Double => prims!(Double),
        _ if array => Value::Array(items),
        _ => Value::Sequence(items),
    }
}

fn text(wide: bool, max: usize) -> BoxedStrategy<String> {
    let chars: BoxedStrategy<char> = if wide {
        prop_oneof![
            proptest::char::range('\u{1}', '\u{d7ff}'),
            proptest::char::range('\u{e000}', '\u{fffd}')
        ]
        .boxed()
    } else {
        proptest::char::range('\u{1}', '\u{ff}').boxed()
    };
    proptest::collection::vec(chars, 0..=max)
        .prop_map(|v| v.into_iter().collect())
        .boxed()
}

fn node_value(depth: u32) -> BoxedStrategy<Value> {
    let kids = if depth == 0 {
        Just(Vec::new()).boxed()
    } else {
        proptest::collection::vec(node_value(depth - 1), 0..3).boxed()
    };
    (any::<i32>(), kids)
        .prop_map(|(v, kids)| Value::Struct(vec![Value::Long(v), canonical(&node(), kids, false)]))
        .boxed()
}

fn arb_value(tc: &TypeCode) -> BoxedStrategy<Value> {
    if tc.id() == Some("IDL:Node:1.0") {
        return node_value(2);
    }
    let tc = tc.unalias().clone();
    match tc.kind() {
        TCKind::Null => Just(Value::Null).boxed(),
        TCKind::Void => Just(Value::Void).boxed(),
        TCKind::Short => any::<i16>().prop_map(Value::Short).boxed(),
        TCKind::Long => any::<i32>().prop_map(Value::Long).boxed(),
        TCKind::UShort => any::<u16>().prop_map(Value::UShort).boxed(),
        TCKind::ULong => any::<u32>().prop_map(Value::ULong).boxed(),
        TCKind::LongLong => any::<i64>().prop_map(Value::LongLong).boxed(),
        TCKind::ULongLong => any::<u64>().prop_map(Value::ULongLong).boxed(),
        TCKind::Float => (-1e30f32..1e30).prop_map(Value::Float).boxed(),
        TCKind::Double => (-1e300f64..1e300).prop_map(Value::Double).boxed(),
        TCKind::LongDouble => any::<[u8; 16]>()
            .prop_map(|b| Value::LongDouble(LongDouble(b)))
            .boxed(),
        TCKind::Boolean => any::<bool>().prop_map(Value::Boolean).boxed(),
        TCKind::Octet => any::<u8>().prop_map(Value::Octet).boxed(),
        TCKind::Char => proptest::char::range('\u{1}', '\u{ff}')
            .prop_map(Value::Char)
            .boxed(),
        TCKind::WChar => proptest::char::range('\u{1}', '\u{d7ff}')
            .prop_map(Value::WChar)
            .boxed(),
        TCKind::String => {
            let max = match tc.length() {
                Some(0) | None => 8,
                Some(b) => b as usize,
            };
            text(false, max).prop_map(Value::String).boxed()
        }
        TCKind::WString => {
            let max = match tc.length() {
                Some(0) | None => 8,
                Some(b) => b as usize,
            };
            text(true, max).prop_map(Value::WString).boxed()
        }
        TCKind::Fixed => {
            let digits = tc.fixed_digits().unwrap_or(1) as usize;
            let scale = tc.fixed_scale().unwrap_or(0);
            (any::<bool>(), proptest::collection::vec(0u8..10, digits))
                .prop_map(move |(neg, ds)| Value::Fixed(Fixed::new(neg, &ds, scale).unwrap()))
                .boxed()
        }
        TCKind::Enum => (0..tc.member_count().unwrap_or(1) as u32)
            .prop_map(Value::Enum)
            .boxed(),
        TCKind::Any => prop_oneof![
            any::<i32>().prop_map(|v| Value::Any(Box::new(Any::from(v)))),
            "[a-z]{0,6}".prop_map(|s| Value::Any(Box::new(Any::from(s)))),
            Just(Value::Any(Box::new(Any::from_value(
                TypeCode::sequence(TypeCode::octet(), 0),
                Value::Octets(Bytes::from_static(b"\x01\x02\x03")),
            )))),
        ]
        .boxed(),
        TCKind::TypeCode => prop_oneof![
            Just(Value::TypeCode(TypeCode::long())),
            Just(Value::TypeCode(node())),
        ]
        .boxed(),
        TCKind::ObjRef => proptest::collection::vec(any::<u8>(), 0..6)
            .prop_map(|data| {
                Value::ObjRef(Ior {
                    type_id: "IDL:Obj:1.0".into(),
                    profiles: vec![TaggedProfile {
                        tag: 0,
                        data: Bytes::from(data),
                    }],
                })
            })
            .boxed(),
        TCKind::Sequence => {
            let content = tc.content_type().unwrap();
            let max = match tc.length() {
                Some(0) | None => 3,
                Some(b) => b as usize,
            };
            let c2 = content.clone();
            proptest::collection::vec(arb_value(&content), 0..=max)
                .prop_map(move |items| canonical(&c2, items, false))
                .boxed()
        }
        TCKind::Array => {
            let content = tc.content_type().unwrap();
            let n = tc.length().unwrap_or(1) as usize;
            let c2 = content.clone();
            proptest::collection::vec(arb_value(&content), n)
                .prop_map(move |items| canonical(&c2, items, true))
                .boxed()
        }
        TCKind::Struct | TCKind::Except => {
            let members: Vec<_> = (0..tc.member_count().unwrap_or(0))
                .map(|i| arb_value(&tc.member_type(i).unwrap()))
                .collect();
            members.prop_map(Value::Struct).boxed()
        }
        TCKind::Union => arb_union(&tc),
        TCKind::Value => {
            let mut types = Vec::new();
            if let Some(Some(base)) = tc.concrete_base_type() {
                types.extend(
                    (0..base.member_count().unwrap()).map(|i| base.member_type(i).unwrap()),
                );
            }
            types.extend((0..tc.member_count().unwrap()).map(|i| tc.member_type(i).unwrap()));
            let members: Vec<_> = types.iter().map(arb_value).collect();
            prop_oneof![
                1 => Just(Value::Null),
                4 => members.prop_map(Value::ValueType),
            ]
            .boxed()
        }
        TCKind::ValueBox => {
            let content = tc.content_type().unwrap();
            prop_oneof![
                1 => Just(Value::Null),
                4 => arb_value(&content),
            ]
            .boxed()
        }
        k => panic!("no generator for {k:?}"),
    }
}

fn arb_union(tc: &TypeCode) -> BoxedStrategy<Value> {
    let n = tc.member_count().unwrap();
    let default = usize::try_from(tc.default_index().unwrap()).ok();
    let disc = tc.discriminator_type().unwrap();
    // A discriminator value no label uses, if the type has one.
    let spare = match disc.unalias().kind() {
        TCKind::Long => Some(Value::Long(1000)),
        TCKind::Short => Some(Value::Short(1000)),
        TCKind::ULongLong => Some(Value::ULongLong(1000)),
        TCKind::Char => Some(Value::Char('z')),
        TCKind::Enum => Some(Value::Enum(n as u32)),
        _ => {
            let used: Vec<Value> = (0..n)
                .filter(|i| Some(*i) != default)
                .map(|i| tc.member_label(i).unwrap())
                .collect();
            [Value::Boolean(false), Value::Boolean(true)]
                .into_iter()
                .find(|b| !used.contains(b))
        }
    };
    let mut choices: Vec<BoxedStrategy<Value>> = Vec::new();
    for i in 0..n {
        if Some(i) == default {
            continue;
        }
        let label = tc.member_label(i).unwrap();
        choices.push(
            arb_value(&tc.member_type(i).unwrap())
                .prop_map(move |v| Value::Union {
                    discriminator: Box::new(label.clone()),
                    member: Some(i),
                    value: Some(Box::new(v)),
                })
                .boxed(),
        );
    }
    if let Some(spare) = spare {
        match default {
            Some(d) => choices.push(
                arb_value(&tc.member_type(d).unwrap())
                    .prop_map(move |v| Value::Union {
                        discriminator: Box::new(spare.clone()),
                        member: Some(d),
                        value: Some(Box::new(v)),
                    })
                    .boxed(),
            ),
            None => choices.push(
                Just(Value::Union {
                    discriminator: Box::new(spare),
                    member: None,
                    value: None,
                })
                .boxed(),
            ),
        }
    }
    proptest::strategy::Union::new(choices).boxed()
}

fn arb_pair(wide: bool) -> impl Strategy<Value = (TypeCode, Value)> {
    arb_tc(wide).prop_flat_map(|tc| {
        let v = arb_value(&tc);
        (Just(tc), v)
    })
}

fn check(tc: &TypeCode, v: &Value, enc: Encoding) {
    // The TypeCode alone.
    let mut e = Encoder::new(enc);
    e.write_u8(1);
    tc.encode(&mut e).unwrap();
    let mut d = Decoder::new(e.into_bytes(), enc);
    d.read_u8().unwrap();
    let back = TypeCode::decode(&mut d).unwrap();
    assert!(d.is_empty());
    assert!(back.equal(tc), "{back:?} != {tc:?}");
    assert!(back.equivalent(tc));
    assert!(back.get_compact_typecode().equivalent(tc));

    // The value against it.
    let mut e = Encoder::new(enc);
    v.encode(tc, &mut e).unwrap();
    let mut d = Decoder::new(e.into_bytes(), enc);
    let got = Value::decode(tc, &mut d).unwrap();
    assert!(d.is_empty());
    assert_eq!(&got, v);

    // Inside an Any, after a misaligning octet.
    let any = Any::from_value(tc.clone(), v.clone());
    let mut e = Encoder::new(enc);
    e.write_u8(9);
    any.encode(&mut e).unwrap();
    let first = e.into_bytes();
    let mut d = Decoder::new(first.clone(), enc);
    d.read_u8().unwrap();
    let lazy = Any::decode(&mut d).unwrap();
    assert!(d.is_empty());
    assert!(lazy.is_encoded());
    assert_eq!(&lazy.value().unwrap(), v);
    assert_eq!(lazy, any);
    // Passed on unchanged: the same octets.
    let mut e = Encoder::new(enc);
    e.write_u8(9);
    lazy.encode(&mut e).unwrap();
    assert_eq!(e.into_bytes(), first);
    // Passed on in the other byte order and another alignment: re-encoded.
    let other = enc.with_order(match enc.order {
        ByteOrder::Big => ByteOrder::Little,
        ByteOrder::Little => ByteOrder::Big,
    });
    let mut e = Encoder::new(other);
    e.write_u32(0);
    lazy.encode(&mut e).unwrap();
    let mut d = Decoder::new(e.into_bytes(), other);
    d.read_u32().unwrap();
    let again = Any::decode(&mut d).unwrap();
    assert_eq!(&again.value().unwrap(), v);
}

/// The value of an Any read from octets: `Any::decode` checked it as it
/// stepped over it, so it decodes; and it encodes again against its
/// TypeCode, to octets that decode and encode to the same octets.
///
/// The octets read are not compared with the re-encoding: they may hold
/// padding of any value, and TypeCodes (of nested Anys) that rtorb
/// encodes otherwise (an indirection, another byte order in an
/// encapsulation). Floating-point values can be NaN, so the value is
/// compared by its encoding rather than by `==`.
fn value_encodes_again(any: &Any, enc: Encoding) -> Value {
    let value = any
        .value()
        .expect("an Any that decodes holds a value that decodes");
    let tc = any.type_code();
    let mut e = Encoder::new(enc);
    value
        .encode(tc, &mut e)
        .expect("a decoded value encodes again");
    let first = e.into_bytes();
    let mut d = Decoder::new(first.clone(), enc);
    let back = Value::decode(tc, &mut d).expect("a re-encoded value decodes");
    assert!(d.is_empty(), "a re-encoded value decodes to its end");
    let mut e = Encoder::new(enc);
    back.encode(tc, &mut e).unwrap();
    assert_eq!(e.into_bytes(), first, "encoding is a fixed point");
    value
}

fn encodings(versions: &[Version]) -> Vec<Encoding> {
    let mut out = Vec::new();
    for v in versions {
        for o in [ByteOrder::Big, ByteOrder::Little] {
            out.push(Encoding::native().with_order(o).with_version(*v));
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn narrow_round_trip((tc, v) in arb_pair(false)) {
        for enc in encodings(&[Version::V1_0, Version::V1_1, Version::V1_2]) {
            check(&tc, &v, enc);
        }
    }

    #[test]
    fn wide_round_trip((tc, v) in arb_pair(true)) {
        for enc in encodings(&[Version::V1_1, Version::V1_2]) {
            check(&tc, &v, enc);
        }
    }

    #[test]
    fn decoding_garbage_never_panics(
        kind in 0u32..40,
        rest in proptest::collection::vec(any::<u8>(), 0..64),
        raw in any::<bool>(),
    ) {
        // Random octets, or a TypeCode kind (most of them real ones, which
        // random octets seldom start with) and random octets after it.
        let bytes = if raw {
            Bytes::from(rest)
        } else {
            Bytes::from([&kind.to_ne_bytes()[..], &rest].concat())
        };
        let mut d = Decoder::new(bytes.clone(), Encoding::native());
        let _ = TypeCode::decode(&mut d);
        let mut d = Decoder::new(bytes, Encoding::native());
        if let Ok(any) = Any::decode(&mut d) {
            value_encodes_again(&any, Encoding::native());
        }
    }

    #[test]
    fn corrupted_encodings_never_panic((tc, v) in arb_pair(false), at in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let enc = Encoding::native();
        let mut e = Encoder::new(enc);
        Any::from_value(tc, v.clone()).encode(&mut e).unwrap();
        let mut raw = e.into_bytes().to_vec();
        let i = at.index(raw.len());
        let unchanged = raw[i] == byte;
        raw[i] = byte;
        let mut d = Decoder::new(Bytes::from(raw), enc);
        let decoded = Any::decode(&mut d);
        if let Ok(any) = &decoded {
            let value = value_encodes_again(any, enc);
            if unchanged {
                prop_assert_eq!(value, v);
            }
        }
        prop_assert!(decoded.is_ok() || !unchanged, "{:?}", decoded);
    }
}
