//! The checks of the `cdr_value` cargo-fuzz target (which includes this
//! file by path), shared with `tests/cdr_value_fuzz.rs`, which replays the
//! target's corpus and the inputs that found bugs: an Any (a TypeCode,
//! then a value of that type) read from arbitrary bytes in every GIOP
//! version and byte order. Nothing may panic, and where an Any decodes:
//!
//! - its value decodes, and encodes again, in either byte order, to octets
//!   that decode to a value that encodes to the same octets (values are
//!   compared by their encoding: a float may be NaN);
//! - where the type has one encoding of each value ([`one_encoding`]),
//!   the value encodes to the octets it was read from, but for alignment
//!   padding, which the encoder writes as zeros and a peer may fill with
//!   anything (types with several encodings of a value are listed there),
//!   and those octets decode to the same value (compared by its `Debug`
//!   text, which no NaN upsets), so that what differs carried nothing;
//! - its TypeCode encodes and decodes to an equal TypeCode;
//! - the Any encodes, and decodes to an Any of the same encoding.

use rtorb_cdr::{
    Any, ByteOrder, Bytes, CdrDecode, CdrEncode, Decoder, Encoder, Encoding, TCKind, TypeCode,
    Value, Version,
};

/// One input of the `cdr_value` fuzz target: its first octet picks the
/// byte order (bit 0: little-endian) and the GIOP version (the rest,
/// modulo 3: 1.0, 1.1, 1.2); the Any is read from the octets after it.
pub(crate) fn check_fuzz_input(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let order = if selector & 1 == 0 {
        ByteOrder::Big
    } else {
        ByteOrder::Little
    };
    let version = match (selector >> 1) % 3 {
        0 => Version::V1_0,
        1 => Version::V1_1,
        _ => Version::V1_2,
    };
    let encoding = Encoding::native().with_order(order).with_version(version);
    let mut d = Decoder::new(Bytes::copy_from_slice(rest), encoding);
    let Ok(any) = Any::decode(&mut d) else {
        return;
    };
    let tc = any.type_code().clone();
    let value = any
        .value()
        .expect("the value of a decoded Any decodes: reading the Any checked it");
    for order in [ByteOrder::Big, ByteOrder::Little] {
        check_value_round_trip(&tc, &value, encoding.with_order(order));
        check_type_code_round_trip(&tc, encoding.with_order(order));
        check_any_round_trip(&any, encoding.with_order(order));
    }
    if let Some((read, _)) = any.encoded()
        && one_encoding(&tc, &mut Vec::new())
    {
        // The value's octets started at `start` of the input, aligned
        // relative to its first octet.
        let at = (d.offset() - read.len()) % 8;
        let written = encode_value_at(&tc, &value, encoding, at);
        assert_same_but_zeros(&read, &written);
        let mut aligned = vec![0; at];
        aligned.extend_from_slice(&written);
        let mut d = Decoder::with_position(Bytes::from(aligned), 0, at, encoding);
        let again = Value::decode(&tc, &mut d).expect("an encoded value decodes");
        assert_eq!(d.remaining(), 0, "decoding reads the whole encoding");
        assert_eq!(
            format!("{again:?}"),
            format!("{value:?}"),
            "the octets written decode to the value read"
        );
    }
}

/// `value` of type `tc` encodes in `encoding`, and its encoding decodes,
/// exactly, to a value that encodes to the same octets.
fn check_value_round_trip(tc: &TypeCode, value: &Value, encoding: Encoding) {
    let first = encode_value_at(tc, value, encoding, 0);
    let mut d = Decoder::new(first.clone(), encoding);
    let again = Value::decode(tc, &mut d).expect("an encoded value decodes");
    assert_eq!(d.remaining(), 0, "decoding reads the whole encoding");
    assert_eq!(
        encode_value_at(tc, &again, encoding, 0),
        first,
        "a value encodes as the value it decodes to"
    );
}

/// `tc` encodes in `encoding` and decodes to an equal TypeCode, which
/// encodes to the same octets.
fn check_type_code_round_trip(tc: &TypeCode, encoding: Encoding) {
    let mut e = Encoder::new(encoding);
    tc.encode(&mut e).expect("a decoded TypeCode encodes");
    let first = e.into_bytes();
    let mut d = Decoder::new(first.clone(), encoding);
    let again = TypeCode::decode(&mut d).expect("an encoded TypeCode decodes");
    assert_eq!(d.remaining(), 0, "decoding reads the whole TypeCode");
    assert!(again.equal(tc), "{again:?} is {tc:?}");
    let mut e = Encoder::new(encoding);
    again.encode(&mut e).expect("a decoded TypeCode encodes");
    assert_eq!(
        e.into_bytes(),
        first,
        "a TypeCode encodes as the one it decodes to"
    );
}

/// `any` encodes in `encoding` and decodes to an Any that encodes to the
/// same octets.
fn check_any_round_trip(any: &Any, encoding: Encoding) {
    let mut e = Encoder::new(encoding);
    any.encode(&mut e).expect("a decoded Any encodes");
    let first = e.into_bytes();
    let mut d = Decoder::new(first.clone(), encoding);
    let again = Any::decode(&mut d).expect("an encoded Any decodes");
    assert_eq!(d.remaining(), 0, "decoding reads the whole Any");
    let mut e = Encoder::new(encoding);
    again.encode(&mut e).expect("a decoded Any encodes");
    assert_eq!(
        e.into_bytes(),
        first,
        "an Any encodes as the Any it decodes to"
    );
}

/// The octets of `value` encoded at stream position `at` (modulo 8).
fn encode_value_at(tc: &TypeCode, value: &Value, encoding: Encoding, at: usize) -> Bytes {
    let mut e = Encoder::new(encoding);
    for _ in 0..at {
        e.write_u8(0);
    }
    value.encode(tc, &mut e).expect("a decoded value encodes");
    e.into_bytes().slice(at..)
}

/// Whether every value of `tc` has one encoding, but for its alignment
/// padding. Not so, and left out of the comparison with the octets read:
///
/// - `any` and `TypeCode`: a TypeCode's complex parameters are an
///   encapsulation in either byte order, and a repeated TypeCode may be
///   written whole or as an indirection;
/// - `wchar` and `wstring`: in GIOP 1.2, UTF-16 with or without a
///   byte-order mark, in either byte order;
/// - `fixed`: a positive sign is the half-octet `0xc` or `0xf`;
/// - valuetypes, value boxes and abstract interfaces: a value may be
///   chunked or not, shared values are indirections, and repository ids
///   may be given, listed or left out.
///
/// `enclosing` holds the repository ids of the types `tc` is inside of: a
/// recursive reference is to one of them, which is being looked at. A type
/// that repeats the id of an enclosing one, which the fuzzer can make, is
/// counted out rather than told from a recursive reference.
fn one_encoding(tc: &TypeCode, enclosing: &mut Vec<String>) -> bool {
    let tc = tc.unalias();
    let enclosed = |id: Option<&str>| id.is_some_and(|id| enclosing.iter().any(|e| e == id));
    if tc.is_recursive_placeholder() {
        return enclosed(tc.id());
    }
    match tc.kind() {
        TCKind::Null
        | TCKind::Void
        | TCKind::Short
        | TCKind::Long
        | TCKind::UShort
        | TCKind::ULong
        | TCKind::Float
        | TCKind::Double
        | TCKind::Boolean
        | TCKind::Char
        | TCKind::Octet
        | TCKind::Principal
        | TCKind::LongLong
        | TCKind::ULongLong
        | TCKind::LongDouble
        | TCKind::String
        | TCKind::Enum
        | TCKind::ObjRef => true,
        TCKind::Sequence | TCKind::Array => tc
            .content_type()
            .is_some_and(|c| one_encoding(&c, enclosing)),
        TCKind::Struct | TCKind::Except | TCKind::Union => {
            let Some(id) = tc.id() else {
                return false;
            };
            if enclosed(Some(id)) {
                return false;
            }
            enclosing.push(id.to_owned());
            let discriminator = tc
                .discriminator_type()
                .is_none_or(|d| one_encoding(&d, enclosing));
            let members = (0..tc.member_count().unwrap_or(0)).all(|i| {
                tc.member_type(i)
                    .is_some_and(|t| one_encoding(&t, enclosing))
            });
            enclosing.pop();
            discriminator && members
        }
        _ => false,
    }
}

/// `written` is `read` but where it holds zeros: the alignment padding a
/// peer may fill with anything.
fn assert_same_but_zeros(read: &[u8], written: &[u8]) {
    assert_eq!(
        read.len(),
        written.len(),
        "a value encodes to as many octets as it was read from"
    );
    for (i, (r, w)) in read.iter().zip(written).enumerate() {
        assert!(
            r == w || *w == 0,
            "octet {i} of the value is written {w:#04x}, was read {r:#04x}"
        );
    }
}
