//! The constructs of `idl/everything.idl` through the generated code:
//! constants, CDR and Any round trips of every type, and every operation
//! of the interfaces through the loopback.

use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, Mutex};

use rtorb::cdr::IdlType;
use rtorb::exception::{SystemException, SystemExceptionKind};
use rtorb::loopback::Loopback;
use rtorb::object::{Object, Stub};
use rtorb_cdr::{
    Any, AnyValue, ByteOrder, Bytes, CdrDecode, CdrEncode, CdrError, Decoder, Encoder, Encoding,
    TCKind, Version,
};
use rtorb_idl_tests::everything_idl::common::Point;
use rtorb_idl_tests::everything_idl::test::{self, *};
use rtorb_test_support::loopback::loopbacks;

fn cdr<T: CdrEncode + CdrDecode>(v: &T, enc: Encoding) -> Result<T, CdrError> {
    let mut e = Encoder::new(enc);
    v.encode(&mut e)?;
    let mut d = Decoder::new(e.into_bytes(), enc);
    T::decode(&mut d)
}

fn round_trip<T: CdrEncode + CdrDecode + IdlType + AnyValue + PartialEq + std::fmt::Debug>(v: T) {
    for order in [ByteOrder::Big, ByteOrder::Little] {
        let enc = Encoding::native().with_order(order);
        assert_eq!(cdr(&v, enc).unwrap(), v);
    }
    let any = Any::new(&v).unwrap();
    assert!(any.type_code().equivalent(&<T as IdlType>::type_code()));
    assert_eq!(any.get::<T>().unwrap(), v);
}

fn record() -> Record {
    Record {
        s: -2,
        ul: 7,
        ll: -9,
        ull: 10,
        f: 1.5,
        d: -2.25,
        ch: 'c',
        wc: 'λ',
        b: true,
        o: 255,
        str: "text".into(),
        wstr: "wide ✓".into(),
        short_name: "eight ch".into(),
        three: vec![1, 2, 3],
        bytes: Bytes::from_static(b"blob"),
        pts: vec![Point { x: 1, y: 2 }],
        mat: [[1, 2, 3], [4, 5, 6]],
        deep: inner::Deep {
            c: Color::Blue,
            text: "deep".into(),
        },
        colour: Color::Green,
        colors: vec![Color::Red, Color::Blue],
        tiny: vec!["abcd".into(), "".into()],
    }
}

#[test]
fn constants() {
    assert_eq!(ANSWER, 42);
    assert_eq!(SMALL, 7u16);
    assert_eq!(BIG, -5_000_000_000);
    assert_eq!(PI, 3.25);
    assert_eq!(HALF, 0.5f32);
    assert_eq!(LETTER, 'x');
    const { assert!(YES) };
    assert_eq!(GREETING, "hello \"idl\"");
    assert_eq!(MASK, 0xf0);
    assert_eq!(PRICE, "12.5");
    assert_eq!(FAVOURITE, Color::Green);
}

#[test]
fn every_type_round_trips_through_cdr_and_any() {
    round_trip(Point { x: -1, y: 1 });
    round_trip(record());
    round_trip(Record::default());
    round_trip(inner::Deep::default());
    round_trip(Color::Blue);
    round_trip(Shape::Radius(5));
    round_trip(Shape::Corner(Point { x: 3, y: 4 }));
    round_trip(Shape::Label(99, "other".into()));
    round_trip(Maybe::Text("t".into()));
    round_trip(Maybe::Number(0.5));
    round_trip(Maybe::NoMember(7));
    round_trip(ByColor::R(1));
    round_trip(ByColor::G("g".into()));
    round_trip(ByColor::B(false));
    round_trip(Flag::On(3));
    round_trip(Flag::NoMember(false));
    round_trip(TooBig {
        limit: 3,
        why: "because".into(),
    });
    round_trip(Empty {});
}

#[test]
fn type_codes_describe_the_idl() {
    let tc = Record::type_code();
    assert_eq!(tc.kind(), TCKind::Struct);
    assert_eq!(tc.id(), Some("IDL:Test/Record:1.0"));
    assert_eq!(tc.member_count(), Some(21));
    assert_eq!(Color::type_code().member_count(), Some(3));
    assert_eq!(Shape::type_code().kind(), TCKind::Union);
    assert_eq!(Shape::type_code().default_index(), Some(3));
    assert_eq!(TooBig::type_code().kind(), TCKind::Except);
    assert_eq!(short_name_type_code().kind(), TCKind::Alias);
    assert_eq!(
        short_name_type_code().content_type().unwrap().length(),
        Some(8)
    );
    assert_eq!(Derived::type_code().kind(), TCKind::ObjRef);
    assert_eq!(matrix_type_code().content_type().unwrap().length(), Some(2));
}

#[test]
fn hostile_values_are_rejected() {
    let enc = Encoding::native();
    let mut e = Encoder::new(enc);
    e.write_u32(3);
    let mut d = Decoder::new(e.into_bytes(), enc);
    assert!(matches!(
        Color::decode(&mut d),
        Err(CdrError::InvalidEnum { value: 3, count: 3 })
    ));
    let mut long = record();
    long.short_name = "nine char".into();
    assert!(matches!(
        cdr(&long, enc),
        Err(CdrError::BoundExceeded {
            length: 9,
            bound: 8
        })
    ));
    let mut four = record();
    four.three = vec![1, 2, 3, 4];
    assert!(matches!(
        cdr(&four, enc),
        Err(CdrError::BoundExceeded { .. })
    ));
    let mut tiny = record();
    tiny.tiny = vec!["abcde".into()];
    assert!(matches!(
        cdr(&tiny, enc),
        Err(CdrError::BoundExceeded { .. })
    ));
    // A sequence length larger than the data: no allocation, an error.
    let mut e = Encoder::new(enc);
    e.write_u32(0x7fff_ffff);
    let mut d = Decoder::new(e.into_bytes(), enc);
    assert_eq!(
        Points::decode(&mut d),
        Err(CdrError::LengthTooLarge {
            length: 0x7fff_ffff,
            remaining: 0
        })
    );
}

struct Calls;

impl CallbackServant for Calls {
    fn ping(&self, n: i32) -> Result<i32, SystemException> {
        Ok(n + 1)
    }
}

#[derive(Default)]
struct Impl {
    counter: AtomicI32,
    note: Mutex<String>,
}

impl BaseServant for Impl {
    fn twice(&self, v: i32) -> Result<i32, base::TwiceError> {
        v.checked_mul(2).ok_or(base::TwiceError::TooBig(TooBig {
            limit: i32::MAX / 2,
            why: "overflow".into(),
        }))
    }
    fn counter(&self) -> Result<i32, SystemException> {
        Ok(self.counter.load(Ordering::SeqCst))
    }
    fn set_counter(&self, value: i32) -> Result<(), SystemException> {
        self.counter.store(value, Ordering::SeqCst);
        Ok(())
    }
    fn name(&self) -> Result<String, SystemException> {
        Ok("impl".into())
    }
}
impl LeftServant for Impl {
    fn lean_left(&self) -> Result<String, SystemException> {
        Ok("left".into())
    }
}
impl RightServant for Impl {
    fn lean_right(&self, s: String) -> Result<String, SystemException> {
        Ok(format!("right {s}"))
    }
}
impl SingleServant for Impl {
    fn more(&self) -> Result<i32, SystemException> {
        Ok(1)
    }
}
impl DerivedServant for Impl {
    fn echo_record(&self, r: Record) -> Result<Record, SystemException> {
        Ok(r)
    }
    fn echo_shape(&self, s: Shape) -> Result<Shape, SystemException> {
        Ok(s)
    }
    fn echo_maybe(&self, m: Maybe) -> Result<Maybe, SystemException> {
        Ok(m)
    }
    fn echo_by_color(&self, b: ByColor) -> Result<ByColor, SystemException> {
        Ok(b)
    }
    fn echo_flag(&self, f: Flag) -> Result<Flag, SystemException> {
        Ok(f)
    }
    fn swap(&self, a: i32, b: String) -> Result<(i32, String, f64), SystemException> {
        Ok((a + 1, format!("{b}!"), 0.25))
    }
    fn bounded(&self, t: Triple, n: ShortName) -> Result<Triple, SystemException> {
        if n == "long" {
            return Ok(vec![1, 2, 3, 4]);
        }
        Ok(t)
    }
    fn echo_any(&self, a: Any) -> Result<Any, SystemException> {
        Ok(a)
    }
    fn echo_matrix(&self, m: Matrix) -> Result<Matrix, SystemException> {
        Ok(m)
    }
    fn call_back(&self, cb: Option<Callback>, n: i32) -> Result<i32, derived::CallBackError> {
        match cb {
            None => Err(derived::CallBackError::Empty(Empty {})),
            Some(cb) => Ok(cb.ping(n)?),
        }
    }
    fn echo_ref(&self, cb: Option<Callback>) -> Result<Option<Callback>, SystemException> {
        Ok(cb)
    }
    fn echo_object(&self, o: Option<Object>) -> Result<Option<Object>, SystemException> {
        Ok(o)
    }
    fn note(&self, text: String) -> Result<(), SystemException> {
        *self.note.lock().unwrap() = text;
        Ok(())
    }
    fn last_note(&self) -> Result<String, SystemException> {
        Ok(self.note.lock().unwrap().clone())
    }
    fn fail(&self, how: i32) -> Result<(), derived::FailError> {
        match how {
            0 => Ok(()),
            1 => Err(derived::FailError::TooBig(TooBig {
                limit: 1,
                why: "one".into(),
            })),
            2 => Err(derived::FailError::Empty(Empty {})),
            _ => Err(derived::FailError::System(SystemException::new(
                SystemExceptionKind::NoPermission,
                5,
                rtorb::exception::CompletionStatus::No,
            ))),
        }
    }
}

/// The GIOP versions the loopbacks of these tests speak.
const VERSIONS: [Version; 2] = [Version::V1_1, Version::V1_2];

#[test]
fn operations_attributes_and_exceptions_through_the_loopback() {
    for orb in loopbacks(&VERSIONS) {
        let obj = orb.activate(&b"derived"[..], Arc::new(DerivedSkeleton(Impl::default())));
        let cb_obj = orb.activate(&b"callback"[..], Arc::new(CallbackSkeleton(Calls)));
        exercise(obj, cb_obj);
    }
}

#[test]
fn operations_attributes_and_exceptions_through_a_collocated_orb() {
    let orb = rtorb_test_support::server::orb();
    let obj = orb
        .activate(Arc::new(DerivedSkeleton(Impl::default())))
        .unwrap();
    let cb_obj = orb.activate(Arc::new(CallbackSkeleton(Calls))).unwrap();
    exercise(obj, cb_obj);
    let stats = orb.stats().collocation;
    // Most operations call the servant directly; those with bounded,
    // `char` or `any` values are marshaled in memory, as is `_is_a`.
    assert!(stats.direct_calls > 20, "{stats:?}");
    assert!(stats.marshaled_calls > 0, "{stats:?}");
    assert_eq!(orb.stats().idle_client_connections, 0);
}

/// Every operation of `Derived` (on `obj`), with `cb_obj` a `Callback`.
fn exercise(obj: Object, cb_obj: Object) {
    {
        let d = Derived::narrow(obj).unwrap().expect("a Derived");
        // Inherited through both bases (multiple inheritance: generated directly).
        assert_eq!(d.twice(21).unwrap(), 42);
        assert_eq!(d.lean_left().unwrap(), "left");
        assert_eq!(d.lean_right("x").unwrap(), "right x");
        // Attributes.
        assert_eq!(d.counter().unwrap(), 0);
        d.set_counter(5).unwrap();
        assert_eq!(d.counter().unwrap(), 5);
        assert_eq!(d.name().unwrap(), "impl");
        // Every type through an operation.
        assert_eq!(d.echo_record(&record()).unwrap(), record());
        for s in [
            Shape::Radius(1),
            Shape::Corner(Point { x: 1, y: 2 }),
            Shape::Label(-4, "l".into()),
        ] {
            assert_eq!(d.echo_shape(&s).unwrap(), s);
        }
        assert_eq!(
            d.echo_maybe(&Maybe::NoMember(9)).unwrap(),
            Maybe::NoMember(9)
        );
        assert_eq!(
            d.echo_by_color(&ByColor::G("g".into())).unwrap(),
            ByColor::G("g".into())
        );
        assert_eq!(d.echo_flag(&Flag::On(2)).unwrap(), Flag::On(2));
        assert_eq!(
            d.swap(&1, &"b".into()).unwrap(),
            (2, "b!".to_string(), 0.25)
        );
        assert_eq!(
            d.echo_matrix(&[[1, 2, 3], [4, 5, 6]]).unwrap(),
            [[1, 2, 3], [4, 5, 6]]
        );
        let any = Any::new(&Shape::Radius(3)).unwrap();
        let back = d.echo_any(&any).unwrap();
        assert_eq!(back.get::<Shape>().unwrap(), Shape::Radius(3));
        // Bounds: violated by the client (argument) and by the server (result).
        let err = d.bounded(&[1, 2, 3, 4], "ok").unwrap_err();
        assert_eq!(err.kind(), Some(SystemExceptionKind::Marshal));
        let err = d.bounded(&[1], "too long name").unwrap_err();
        assert_eq!(err.kind(), Some(SystemExceptionKind::Marshal));
        let err = d.bounded(&[1], "long").unwrap_err();
        assert_eq!(err.kind(), Some(SystemExceptionKind::Marshal));
        assert_eq!(d.bounded(&[1, 2], "ok").unwrap(), vec![1, 2]);
        // User exceptions.
        d.fail(0).unwrap();
        match d.fail(1) {
            Err(derived::FailError::TooBig(x)) => assert_eq!(x.why, "one"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(d.fail(2), Err(derived::FailError::Empty(_))));
        match d.fail(3) {
            Err(derived::FailError::System(s)) => {
                assert_eq!(s.kind(), Some(SystemExceptionKind::NoPermission))
            }
            other => panic!("{other:?}"),
        }
        match d.twice(i32::MAX) {
            Err(base::TwiceError::TooBig(x)) => {
                assert_eq!((x.limit, x.why.as_str()), (i32::MAX / 2, "overflow"))
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            d.fail(1).unwrap_err().to_string(),
            "user exception Test::TooBig"
        );
        // Oneway.
        d.note("written").unwrap();
        assert_eq!(d.last_note().unwrap(), "written");
        // Object references passed, returned and called back.
        let cb = Callback::narrow(cb_obj.clone()).unwrap().unwrap();
        assert_eq!(d.call_back(&Some(cb.clone()), 41).unwrap(), 42);
        assert!(matches!(
            d.call_back(&None, 1),
            Err(derived::CallBackError::Empty(_))
        ));
        let back = d.echo_ref(&Some(cb.clone())).unwrap().expect("a reference");
        assert_eq!(back.ping(1).unwrap(), 2);
        assert!(d.echo_ref(&None).unwrap().is_none());
        let o = d
            .echo_object(&Some(cb_obj.clone()))
            .unwrap()
            .expect("an object");
        assert!(o.is_a("IDL:Test/Callback:1.0").unwrap());
    }
}

#[test]
fn single_inheritance_derefs_to_the_base_stub() {
    let orb = Loopback::new(Version::V1_2, ByteOrder::Little);
    let obj = orb.activate(&b"single"[..], Arc::new(SingleSkeleton(Impl::default())));
    let s = Single::narrow(obj).unwrap().unwrap();
    assert_eq!(s.more().unwrap(), 1);
    let base: &Base = &s;
    assert_eq!(base.twice(2).unwrap(), 4);
    assert!(s.as_object().is_a("IDL:Test/Base:1.0").unwrap());
    assert_eq!(
        test::single::REPOSITORY_IDS,
        ["IDL:Test/Single:1.0", "IDL:Test/Base:1.0"]
    );
}

/// Regression: `to_any` and `from_any` went through ISO 8859-1 for char
/// data, so a value with text outside Latin-1 could not go into an Any.
#[test]
fn anys_hold_text_outside_latin_1() {
    let mut r = record();
    r.str = "日本語 Жук".into();
    r.tiny = vec!["€".into()];
    let any = Any::new(&r).unwrap();
    assert_eq!(any.get::<Record>().unwrap(), r);
}

/// Regression: the loopback wrote char data in ISO 8859-1, where two rtorb
/// ORBs negotiate UTF-8, so text outside Latin-1 did not go through it.
#[test]
fn the_loopback_carries_text_outside_latin_1() {
    for orb in loopbacks(&VERSIONS) {
        let obj = orb.activate(&b"derived"[..], Arc::new(DerivedSkeleton(Impl::default())));
        let d = Derived::narrow(obj).unwrap().expect("a Derived");
        let mut r = record();
        r.str = "日本語 Жук".into();
        r.wstr = "wide 😀".into();
        assert_eq!(d.echo_record(&r).unwrap(), r);
    }
}
