//! The golden outputs of `rtorb-idl` (`crates/rtorb-idl/tests/codegen/
//! golden/`, generated from the corpus beside it) compile in a crate that
//! depends on `rtorb`, each `include!`d in a module of its own, and work:
//! constants hold the values the IDL computes, values round-trip through
//! CDR and `Any`, interfaces answer through the loopback.
//!
//! `interfaces.rs` and `names.rs` both hold what their shared include
//! (`include/shared.idl`) declares; they are included into two different
//! nested modules, so each generated file stands alone wherever it is
//! included.

use std::sync::Arc;
use std::sync::atomic::AtomicI32;

use rtorb::cdr::IdlType;
use rtorb::object::Stub;
use rtorb_cdr::{
    Any, AnyValue, ByteOrder, CdrDecode, CdrEncode, Decoder, Encoder, Encoding, Version,
};
use rtorb_test_support::loopback::loopbacks;

#[allow(unreachable_pub, dead_code)]
mod small_idl {
    include!("../../rtorb-idl/tests/codegen/golden/small.rs");
}

#[allow(unreachable_pub, dead_code)]
mod constants_idl {
    include!("../../rtorb-idl/tests/codegen/golden/constants.rs");
}

#[allow(unreachable_pub, dead_code)]
mod types_idl {
    include!("../../rtorb-idl/tests/codegen/golden/types.rs");
}

#[allow(unreachable_pub, dead_code)]
mod values_idl {
    include!("../../rtorb-idl/tests/codegen/golden/values.rs");
}

/// Two levels down.
mod nested {
    #[allow(unreachable_pub, dead_code)]
    pub(crate) mod deeper {
        include!("../../rtorb-idl/tests/codegen/golden/interfaces.rs");
    }
}

/// Elsewhere, with the same shared include.
mod elsewhere {
    #[allow(unreachable_pub, dead_code)]
    pub(crate) mod names_idl {
        include!("../../rtorb-idl/tests/codegen/golden/names.rs");
    }
}

/// The goldens included above, by file stem.
const INCLUDED: &[&str] = &[
    "constants",
    "interfaces",
    "names",
    "small",
    "types",
    "values",
];

#[test]
fn every_golden_is_included_here() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rtorb-idl/tests/codegen/golden");
    let mut stems: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            p.file_stem().unwrap().to_string_lossy().into_owned()
        })
        .collect();
    stems.sort();
    assert_eq!(
        stems, INCLUDED,
        "include every golden in a module of this file"
    );
}

fn cdr<T: CdrEncode + CdrDecode>(v: &T, order: ByteOrder) -> Result<T, rtorb_cdr::CdrError> {
    let enc = Encoding::native().with_order(order);
    let mut e = Encoder::new(enc);
    v.encode(&mut e)?;
    let mut d = Decoder::new(e.into_bytes(), enc);
    T::decode(&mut d)
}

fn round_trip<T: CdrEncode + CdrDecode + IdlType + AnyValue + PartialEq + std::fmt::Debug>(v: T) {
    for order in [ByteOrder::Big, ByteOrder::Little] {
        assert_eq!(cdr(&v, order).unwrap(), v);
    }
    let any = Any::new(&v).unwrap();
    assert!(any.type_code().equivalent(&<T as IdlType>::type_code()));
    assert_eq!(any.get::<T>().unwrap(), v);
}

#[test]
fn constants_hold_the_values_the_idl_computes() {
    use constants_idl::constants::*;
    assert_eq!(S_MIN, i16::MIN);
    assert_eq!(S_EXPR, 13);
    assert_eq!(US_MAX, u16::MAX);
    assert_eq!(L_SHIFT, 1 << 20);
    assert_eq!(L_RSHIFT, -128);
    assert_eq!(L_MASK, 0x0f00 | (0x000f ^ 0x0003));
    assert_eq!((L_DIV, L_MOD, L_NEG, L_NOT, L_OCTAL), (3, 2, -9, -1, 0o777));
    assert_eq!(UL_MAX, u32::MAX);
    assert_eq!(LL_MIN, i64::MIN);
    assert_eq!(LL_REF, 1 << 40);
    assert_eq!(ULL_MAX, u64::MAX);
    assert_eq!(ULL_SHIFT, 1 << 40);
    assert_eq!(F_HALF, 0.5f32);
    assert_eq!(F_EXP, 1500.0f32);
    assert_eq!(D_RATIO, 1.61803398875);
    assert_eq!(D_EXPR, 1.61803398875 * 2.0 - 0.5);
    assert_eq!(D_SMALL, 1e-300);
    assert_eq!(LD, 2.5);
    assert_eq!(
        [C_PLAIN, C_ESCAPE, C_HEX, C_OCT, C_QUOTE],
        ['a', '\n', 'A', 'A', '\'']
    );
    assert_eq!([WC_PLAIN, WC_UNICODE], ['z', 'λ']);
    assert_eq!(STR_CONCAT, "concat");
    assert_eq!(STR_ESCAPES, "tab\tquote\"backslash\\");
    assert_eq!((STR_BOUNDED, STR_REF), ("bounded", "plain"));
    assert_eq!((WSTR, WSTR_BOUNDED), ("wide é", "short"));
    assert_eq!((FX, FX_EXPR, FX_NEG), ("123.45", "3.375", "-0.5"));
    assert_eq!((TOP_LEVEL, TOP_LEVEL_REF), (Level::High, Level::High));
    assert_eq!((O_MAX, O_EXPR), (255, 0x11));
    assert_eq!((B_TRUE, B_FALSE, B_REF), (true, false, true));
    assert_eq!(TOTAL, 65536);
    assert_eq!(limits::MAXIMUM, 32768);
    assert_eq!(limits::LABEL, "limits");
    let buffer: Buffer = [0; 4];
    assert_eq!(buffer.len(), 4);
    assert_eq!(small_idl::small::LIMIT, 10);
}

#[test]
fn recursive_and_constructed_types_round_trip() {
    use types_idl::types::*;
    let tree = Tree {
        value: 1,
        children: vec![
            Tree {
                value: 2,
                children: vec![],
            },
            Tree {
                value: 3,
                children: vec![Tree {
                    value: 4,
                    children: vec![],
                }],
            },
        ],
    };
    round_trip(tree);
    round_trip(Chain {
        label: "a".into(),
        next: vec![Chain {
            label: "b".into(),
            next: vec![],
        }],
    });
    // The bound of `sequence<Chain, 1>` is checked.
    let too_long = Chain {
        label: "a".into(),
        next: vec![Chain::default(), Chain::default()],
    };
    assert_eq!(
        cdr(&too_long, ByteOrder::Little),
        Err(rtorb_cdr::CdrError::BoundExceeded {
            length: 2,
            bound: 1
        })
    );
    round_trip(Expr::Sum(vec![
        Expr::Literal(1),
        Expr::Sum(vec![Expr::Literal(2)]),
    ]));
    round_trip(Expr::NoMember(9));
    for u in [ByChar::A(1), ByChar::Bc("c".into()), ByChar::Other('z', 7)] {
        round_trip(u);
    }
    round_trip(ByBool::Yes(1));
    round_trip(ByBool::No("no".into()));
    round_trip(ByEnumDefault::Other(Color::Blue, Color::Green));
    round_trip(ByLongLong::Huge(0.5));
    round_trip(Basic {
        s: -1,
        us: 2,
        l: -3,
        ul: 4,
        ll: -5,
        ull: 6,
        f: 7.5,
        d: -8.25,
        ld: rtorb_cdr::LongDouble([9; 16]),
        c: 'c',
        wc: 'λ',
        b: true,
        o: 255,
    });
    let err = Failure {
        code: 3,
        reason: "r".into(),
        data: vec![1, 2],
        hue: Color::Red,
    };
    round_trip(err.clone());
    assert_eq!(
        <Failure as rtorb::exception::UserException>::REPOSITORY_ID,
        "IDL:example.org/Types/Failure:1.0"
    );
}

#[test]
fn keyword_and_clashing_names_are_usable() {
    use elsewhere::names_idl::clashes;
    use elsewhere::names_idl::r#match::*;
    round_trip(Type {
        r#fn: 1,
        r#let: "let".into(),
        r#ref: true,
    });
    round_trip(Loop::Yield);
    round_trip(Where::Trait("t".into()));
    assert_eq!((SELF, SELF_), (1, 2));
    let s: Super = 5;
    assert_eq!(s, 5);
    round_trip(clashes::GetName { value: 1 });
    round_trip(clashes::GetName_ { value: 2 });
    assert_eq!((clashes::MAX_LENGTH, clashes::MAX_LENGTH_), (1, 2));
    assert_ne!(clashes::Lights::RedLight, clashes::Lights::RedLight_);
    round_trip(clashes::Lights::GreenLight);
    round_trip(clashes::cos_naming::NameComponent {
        id: "i".into(),
        kind: "k".into(),
    });
    round_trip(clashes::cos_naming_::Binding { b: 1 });
}

/// A servant of `Outer::Bottom` and its bases.
struct Diamond;

mod diamond {
    use super::nested::deeper::outer::*;
    use rtorb::exception::SystemException;

    impl TopServant for super::Diamond {
        fn apex(&self, x: i32) -> Result<i32, SystemException> {
            Ok(x * 10)
        }
        fn depth(&self) -> Result<i32, SystemException> {
            Ok(3)
        }
    }
    impl LeftSideServant for super::Diamond {
        fn left(&self) -> Result<i32, SystemException> {
            Ok(-1)
        }
    }
    impl RightSideServant for super::Diamond {
        fn right(&self) -> Result<i32, SystemException> {
            Ok(1)
        }
    }
    impl BottomServant for super::Diamond {
        fn floor(&self) -> Result<i32, SystemException> {
            Ok(0)
        }
    }
}

/// The GIOP versions the loopbacks of these tests speak.
const VERSIONS: [Version; 2] = [Version::V1_0, Version::V1_2];

#[test]
fn diamond_inheritance_through_the_loopback() {
    use nested::deeper::outer::*;
    for orb in loopbacks(&VERSIONS) {
        let obj = orb.activate(&b"bottom"[..], Arc::new(BottomSkeleton(Diamond)));
        let b = Bottom::narrow(obj.clone()).unwrap().expect("a Bottom");
        assert_eq!(b.apex(4).unwrap(), 40);
        assert_eq!(b.depth().unwrap(), 3);
        assert_eq!(b.left().unwrap(), -1);
        assert_eq!(b.right().unwrap(), 1);
        assert_eq!(b.floor().unwrap(), 0);
        for id in [
            "IDL:Outer/Bottom:1.0",
            "IDL:Outer/LeftSide:1.0",
            "IDL:Outer/RightSide:1.0",
            "IDL:Outer/Top:1.0",
        ] {
            assert!(obj.is_a(id).unwrap(), "{id}");
        }
        // The top of the diamond appears once among the ids.
        let tops = bottom::REPOSITORY_IDS
            .iter()
            .filter(|id| **id == "IDL:Outer/Top:1.0")
            .count();
        assert_eq!(tops, 1);
        let top = Top::from_object(b.as_object().clone());
        assert_eq!(top.apex(1).unwrap(), 10);
    }
}

/// A servant of `match::mod`, an interface named after Rust keywords.
#[derive(Default)]
struct Keywords {
    r#async: AtomicI32,
    poked: AtomicI32,
}

mod keywords {
    use super::elsewhere::names_idl::r#match::{ModServant, Type, Unsafe, r#mod::MoveError};
    use super::elsewhere::names_idl::shared::Token;
    use rtorb::exception::SystemException;
    use std::sync::atomic::Ordering;

    impl ModServant for super::Keywords {
        fn r#move(&self, r#box: i32, crate_: i32) -> Result<(i32, i32, i32), MoveError> {
            if r#box < 0 {
                return Err(MoveError::Unsafe(Unsafe {
                    r#static: "negative".into(),
                }));
            }
            Ok((r#box + crate_, r#box * 2, crate_ + 1))
        }
        fn r#macro(&self, r#use: Type) -> Result<(), SystemException> {
            self.poked.store(r#use.r#fn, Ordering::SeqCst);
            Ok(())
        }
        fn token(&self) -> Result<Token, SystemException> {
            Ok(Token {
                value: "t".into(),
                serial: self.poked.load(Ordering::SeqCst) as u32,
            })
        }
        fn r#async(&self) -> Result<i32, SystemException> {
            Ok(self.r#async.load(Ordering::SeqCst))
        }
        fn set_async(&self, value: i32) -> Result<(), SystemException> {
            self.r#async.store(value, Ordering::SeqCst);
            Ok(())
        }
        fn r#await(&self) -> Result<String, SystemException> {
            Ok("await".into())
        }
    }
}

#[test]
fn keyword_named_interface_through_the_loopback() {
    use elsewhere::names_idl::r#match::*;
    for orb in loopbacks(&VERSIONS) {
        let obj = orb.activate(&b"mod"[..], Arc::new(ModSkeleton(Keywords::default())));
        let m = Mod::narrow(obj).unwrap().expect("a mod");
        assert_eq!(m.r#move(2, &3).unwrap(), (5, 4, 4));
        match m.r#move(-1, &0) {
            Err(r#mod::MoveError::Unsafe(u)) => assert_eq!(u.r#static, "negative"),
            other => panic!("{other:?}"),
        }
        m.set_async(8).unwrap();
        assert_eq!(m.r#async().unwrap(), 8);
        assert_eq!(m.r#await().unwrap(), "await");
        m.r#macro(&Type {
            r#fn: 6,
            r#let: String::new(),
            r#ref: false,
        })
        .unwrap();
        assert_eq!(m.token().unwrap().serial, 6);
    }
}

#[test]
fn the_shared_include_is_declared_in_both_files() {
    let a = nested::deeper::shared::Token {
        value: "v".into(),
        serial: 1,
    };
    let b = elsewhere::names_idl::shared::Token {
        value: "v".into(),
        serial: 1,
    };
    // Distinct Rust types with the same IDL type.
    assert!(
        nested::deeper::shared::Token::type_code()
            .equivalent(&elsewhere::names_idl::shared::Token::type_code())
    );
    round_trip(a);
    round_trip(b);
}

/// A servant of `Outer::Contextual`.
struct Contextual;

mod contextual {
    use super::nested::deeper::outer::ContextualServant;
    use rtorb::exception::SystemException;

    impl ContextualServant for super::Contextual {
        fn scaled(&self, x: i32) -> Result<i32, SystemException> {
            Ok(x * 3)
        }
        fn bare(&self) -> Result<(), SystemException> {
            Ok(())
        }
    }
}

/// An operation with a `context` clause carries a context (an empty
/// `sequence<string>`) after its arguments, as other ORBs send and expect.
#[test]
fn operations_with_a_context_clause_carry_a_context() {
    use nested::deeper::outer::*;
    use rtorb::exception::SystemExceptionKind;
    for orb in loopbacks(&VERSIONS) {
        let obj = orb.activate(&b"ctx"[..], Arc::new(ContextualSkeleton(Contextual)));
        let c = Contextual::from_object(obj.clone());
        assert_eq!(c.scaled(5).unwrap(), 15);
        c.bare().unwrap();
        // The same request written by hand, with two context properties.
        let reply = obj
            .invoke("scaled", |e| {
                e.write_i32(7);
                vec!["user".to_string(), "me".to_string()].encode(e)
            })
            .unwrap();
        let r: Result<i32, rtorb::exception::SystemException> = reply.decode(i32::decode);
        assert_eq!(r.unwrap(), 21);
        // Without the context the request is short: MARSHAL, not a panic.
        let err = obj
            .invoke("scaled", |e| {
                e.write_i32(7);
                Ok(())
            })
            .unwrap_err();
        assert_eq!(err.kind(), Some(SystemExceptionKind::Marshal));
    }
}

/// `Vals::Tally` supports `Vals::Counter`: the value's Rust type implements
/// the interface's servant trait, which `TallyOperations` requires.
mod tally {
    use super::values_idl::vals::*;
    use rtorb::exception::SystemException;

    impl CounterServant for Tally {
        fn count(&self) -> Result<i32, SystemException> {
            Ok(self.total)
        }
        fn scaled(&self, by: i32) -> Result<i32, SystemException> {
            Ok(self.total * by)
        }
    }
    impl TallyOperations for Tally {
        fn doubled(&self) -> Result<i32, SystemException> {
            Ok(self.total * 2)
        }
    }
    impl CounterServant for Tagged {
        fn count(&self) -> Result<i32, SystemException> {
            Ok(self.total + 100)
        }
        fn scaled(&self, by: i32) -> Result<i32, SystemException> {
            Ok((self.total + 100) * by)
        }
    }
    impl TaggedOperations for Tagged {
        fn doubled(&self) -> Result<i32, SystemException> {
            Ok(self.total * 4)
        }
    }
    impl User for Opener {
        fn open(
            &self,
            p: Option<std::sync::Arc<dyn PointValue>>,
        ) -> Result<Handle, SystemException> {
            let y = p.map_or(0, |p| *p.y());
            Ok(Handle(rtorb::value::Opaque::new(self.base + y)))
        }
    }
    impl OpenerOperations for Opener {}
}

/// A value supporting a concrete interface has that interface's operations
/// to implement (as in the C++ and Java mappings): they are called on the
/// value through its operations trait, and the value is a servant of the
/// interface. `Tagged` supports it through its base `Tally`; `Opener`
/// supports a local interface.
#[test]
fn values_implement_the_operations_of_the_interface_they_support() {
    use values_idl::vals::*;
    let tally = Tally { total: 7 };
    // The supported operations are methods of the value's operations trait.
    let ops: &dyn TallyOperations = &tally;
    assert_eq!(ops.count().unwrap(), 7);
    assert_eq!(ops.scaled(3).unwrap(), 21);
    assert_eq!(ops.doubled().unwrap(), 14);
    let tagged = Tagged {
        total: 1,
        tag: "t".into(),
    };
    let ops: &dyn TaggedOperations = &tagged;
    assert_eq!(ops.count().unwrap(), 101);
    assert_eq!(ops.doubled().unwrap(), 4);
    // The value serves the interface through the loopback.
    for orb in loopbacks(&VERSIONS) {
        let obj = orb.activate(&b"tally"[..], Arc::new(CounterSkeleton(Tally { total: 5 })));
        let c = Counter::narrow(obj).unwrap().expect("a Counter");
        assert_eq!(c.count().unwrap(), 5);
        assert_eq!(c.scaled(4).unwrap(), 20);
    }
    // The value still travels as a value.
    round_trip(Tally { total: 9 });
    // A value supporting a local interface implements its trait.
    let opener = Opener { base: 10 };
    let ops: &dyn OpenerOperations = &opener;
    let point: std::sync::Arc<dyn PointValue> = std::sync::Arc::new(Point {
        x: 1,
        label: None,
        y: 5,
    });
    let h = ops.open(Some(point)).unwrap();
    assert_eq!(h.0.get::<i32>(), Some(&15));
}
