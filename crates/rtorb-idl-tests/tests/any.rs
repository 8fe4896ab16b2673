//! One way into and out of an `Any` for every type: `Any::new(&v)` and
//! `any.get::<T>()`, the same for primitives, strings, sequences and the
//! structs, unions, enums and exceptions `rtorb-idl` generates; a value
//! asked for as another type is a `TypeMismatch`, whether the Any was
//! built here or read from a message.

use rtorb_cdr::{
    Any, AnyValue, Bytes, CdrDecode, CdrEncode, CdrError, CodeSetId, Decoder, Encoder, Encoding,
    IdlType, TCKind, TransmissionCodeSets,
};
use rtorb_idl_tests::everything_idl::common::Point;
use rtorb_idl_tests::everything_idl::test::{Color, Shape, TooBig};

/// `v` into an Any and out again, also after the Any went through CDR.
fn round_trip<T: AnyValue + PartialEq + std::fmt::Debug>(v: T) {
    let any = Any::new(&v).unwrap();
    assert!(any.type_code().equivalent(&T::type_code()));
    assert_eq!(any.get::<T>().unwrap(), v);

    // A connection whose code sets carry any text.
    let encoding = Encoding::native().with_codesets(TransmissionCodeSets {
        char_data: CodeSetId::UTF_8,
        wchar_data: CodeSetId::UTF_16,
    });
    let mut e = Encoder::new(encoding);
    any.encode(&mut e).unwrap();
    let read = Any::decode(&mut Decoder::new(e.into_bytes(), encoding)).unwrap();
    assert_eq!(read.get::<T>().unwrap(), v);
}

fn mismatch<T: AnyValue + std::fmt::Debug>(any: &Any) {
    match any.get::<T>() {
        Err(CdrError::TypeMismatch(_)) => {}
        other => panic!("expected a type mismatch, got {other:?}"),
    }
}

#[test]
fn primitives_and_strings() {
    round_trip(true);
    round_trip(0xa5u8);
    round_trip(-7i16);
    round_trip(40_000u16);
    round_trip(-123_456i32);
    round_trip(4_000_000_000u32);
    round_trip(-5_000_000_000i64);
    round_trip(u64::MAX);
    round_trip(0.5f32);
    round_trip(-2.25f64);
    round_trip('x');
    round_trip(String::from("grüße, 世界"));
    // The shorthand for the types that cannot fail to go in.
    assert_eq!(Any::from(5i32).get::<i32>().unwrap(), 5);
    assert_eq!(Any::from("text").get::<String>().unwrap(), "text");
}

#[test]
fn sequences_and_arrays() {
    round_trip(vec![1i32, -2, 3]);
    round_trip(Vec::<String>::new());
    round_trip(vec![String::from("a"), String::from("bc")]);
    round_trip(Bytes::from_static(b"\x00\x01\xff"));
    round_trip([[1i32, 2, 3], [4, 5, 6]]);
    round_trip(vec![Point { x: 1, y: 2 }, Point { x: -3, y: 4 }]);
    // `sequence<octet>` as `Bytes` or as `Vec<u8>`: the same IDL type.
    let any = Any::new(&vec![7u8, 8]).unwrap();
    assert_eq!(any.get::<Bytes>().unwrap(), Bytes::from_static(b"\x07\x08"));
}

#[test]
fn generated_struct_union_enum_exception() {
    round_trip(Point { x: 3, y: -4 });
    round_trip(Shape::Radius(5));
    round_trip(Shape::Corner(Point { x: 1, y: 1 }));
    round_trip(Shape::Label(99, "other".into()));
    round_trip(Color::Blue);
    round_trip(TooBig {
        limit: 10,
        why: "too big".into(),
    });
    let any = Any::new(&Color::Green).unwrap();
    assert_eq!(any.type_code().kind(), TCKind::Enum);
    assert_eq!(
        Any::new(&Point { x: 0, y: 0 }).unwrap().type_code(),
        &Point::type_code()
    );
}

#[test]
fn set_replaces_value_and_type() {
    let mut any = Any::null();
    any.set(&Point { x: 5, y: 6 }).unwrap();
    assert_eq!(any.get::<Point>().unwrap(), Point { x: 5, y: 6 });
    any.set(&17u16).unwrap();
    assert_eq!(any.get::<u16>().unwrap(), 17);
    mismatch::<Point>(&any);
}

#[test]
fn the_wrong_type_is_a_type_mismatch() {
    let point = Any::new(&Point { x: 1, y: 2 }).unwrap();
    mismatch::<Shape>(&point);
    mismatch::<Color>(&point);
    mismatch::<i32>(&point);
    mismatch::<Vec<i32>>(&point);
    mismatch::<TooBig>(&point);

    let long = Any::from(5i32);
    mismatch::<u32>(&long);
    mismatch::<String>(&long);
    mismatch::<Point>(&long);
    mismatch::<Color>(&long);

    let seq = Any::new(&vec![1i32, 2]).unwrap();
    mismatch::<Vec<i16>>(&seq);
    mismatch::<Bytes>(&seq);
    mismatch::<[i32; 2]>(&seq);

    mismatch::<i32>(&Any::null());
}

#[test]
fn a_value_that_does_not_fit_its_type_code_is_refused() {
    // Other types' TypeCodes with a struct's octets: the octets are
    // checked when the Any is made, not when it is sent.
    let point = Point { x: 2, y: 0 };
    // Discriminator 2 announces a `Point`, of which only half is there.
    assert_eq!(
        Any::from_cdr(Shape::type_code(), &point).unwrap_err(),
        CdrError::UnexpectedEnd {
            needed: 4,
            remaining: 0
        }
    );
    // An enum takes four of the eight octets.
    assert_eq!(
        Any::from_cdr(Color::type_code(), &point).unwrap_err(),
        CdrError::TypeMismatch("value longer than its TypeCode")
    );
    // A string of two octets, both NUL.
    assert_eq!(
        Any::from_cdr(String::type_code(), &point).unwrap_err(),
        CdrError::MalformedString("not terminated by a single NUL")
    );
    assert!(Any::from_cdr(Point::type_code(), &point).is_ok());
}
