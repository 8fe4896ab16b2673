//! The Rust code generated from `interop/idl/interop.idl`, and the
//! canonical values of the interoperability tests as the rtorb side builds
//! and compares them. `interop/omniorb/interop_data.hh` defines the same
//! values for the omniORB peers; the two must be kept in step.

#![allow(dead_code, unreachable_pub)]

use rtorb::cdr::IdlType;
use rtorb_cdr::codeset::CodeSetId;
use rtorb_cdr::{
    Any, CdrDecode, CdrEncode, CdrError, Decoder, Encoder, Encoding, TransmissionCodeSets, TypeCode,
};

#[allow(missing_docs, unreachable_pub, clippy::all)]
mod generated {
    include!(concat!(env!("OUT_DIR"), "/interop.rs"));
}

pub use generated::interop::*;

/// Text that is not ASCII but fits ISO 8859-1 (so it works in GIOP 1.0).
pub fn latin(k: usize) -> &'static str {
    [
        "Grüße, café à la crème", // text s
        "Ångström",               // text io in
        "Øresund",                // text io out
        "naïve façade",           // text out
        "¡Olé!",                  // text result
        "posted café",            // post
        "Tester café",            // name
        "text café",              // LongUnion text
        "any café",               // any string
        "bad café",               // Failure reason
    ][k]
}

/// Wide text outside ISO 8859-1 (in the Basic Multilingual Plane: omniORB
/// 4.2 does not transmit characters beyond it as UTF-16 surrogate pairs).
pub fn wide(k: usize) -> &'static str {
    [
        "Привет, 世界 ☺", // wide w
        "Ωμέγα",          // wide io in, wping argument
        "Δέλτα",          // wide io out
        "日本語",         // wide result
        "Ünïcødé ★",      // motto
        "Ωμέγα ✓",        // wping result
    ][k]
}

/// The `wchar` out parameter of `wide`.
pub const WIDE_CHAR: char = 'Ж';

pub fn point(k: i64) -> Point {
    Point {
        x: (k * 3 - 7) as i16,
        y: (k * 100_003 - 5) as i32,
        z: k as f64 * 0.25 - 1.0,
    }
}

pub fn points(k: i64, n: usize) -> PointSeq {
    (0..n as i64).map(|i| point(k + i)).collect()
}

/// Three rows: one point, none, three points.
pub fn grid(k: i64) -> PointGrid {
    [1usize, 0, 3]
        .iter()
        .enumerate()
        .map(|(r, n)| points(k + 10 * r as i64, *n))
        .collect()
}

pub fn longs(k: i64) -> Longs {
    vec![
        k as i32,
        -k as i32,
        (k * 1000) as i32,
        (i32::MIN as i64 + k) as i32,
    ]
}

fn colour(i: i64) -> Colour {
    match i % 3 {
        0 => Colour::Red,
        1 => Colour::Green,
        _ => Colour::Blue,
    }
}

pub fn nested(k: i64) -> Nested {
    Nested {
        name: format!("nested-{k} café"),
        origin: point(k),
        grid: grid(k),
        palette: (0..4).map(|i| colour(k + i % 3)).collect(),
        flag: ((k * 37) & 0xff) as u8,
        bigs: vec![k * 1_000_000_000_000, -k, (1i64 << 62) - k],
        letter: char::from(b'a' + (k % 26) as u8),
        tag: (65535 - k) as u16,
        words: vec![format!("w{k}"), String::new(), "wörd".to_owned()],
    }
}

pub fn prims(k: i64) -> Prims {
    Prims {
        b: k % 2 == 1,
        o: ((k * 31) & 0xff) as u8,
        c: char::from(b'A' + (k % 26) as u8),
        s: (-(k * 1000 + 7)) as i16,
        us: (60000 + k) as u16,
        l: (-(k * 100_000_007)) as i32,
        ul: (4_000_000_000 + k) as u32,
        ll: -(k * 1_000_000_000_007),
        ull: 18_000_000_000_000_000_000 + k as u64,
        f: k as f32 + 0.5,
        d: -(k as f64 + 0.125) * 1024.0,
    }
}

/// A tree of `depth` levels below the root, two children a node.
pub fn tree(depth: u32, value: i32) -> Tree {
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

pub const LONG_UNIONS: i16 = 4;
pub const COLOUR_UNIONS: i16 = 3;
pub const CHAR_UNIONS: i16 = 3;
pub const BOOL_UNIONS: i16 = 2;
pub const SHORT_UNIONS: i16 = 3;

pub fn long_union(which: i16) -> LongUnion {
    match which {
        0 => LongUnion::Number(-42),
        1 => LongUnion::Text(latin(7).to_owned()),
        2 => LongUnion::Where(point(7)),
        _ => LongUnion::Other(99, 2.5),
    }
}

pub fn colour_union(which: i16) -> ColourUnion {
    match which {
        0 => ColourUnion::R(0xee),
        1 => ColourUnion::G(longs(2)),
        _ => ColourUnion::B(nested(3)),
    }
}

pub fn char_union(which: i16) -> CharUnion {
    match which {
        0 => CharUnion::A(123),
        1 => CharUnion::B("bee".to_owned()),
        _ => CharUnion::D('z', true),
    }
}

pub fn bool_union(which: i16) -> BoolUnion {
    match which {
        0 => BoolUnion::Yes(-5_000_000_000),
        _ => BoolUnion::No(0.75),
    }
}

pub fn short_union(which: i16) -> ShortUnion {
    match which {
        0 => ShortUnion::Big(u64::MAX - 1),
        1 => ShortUnion::Names(vec!["x".into(), "yy".into(), String::new()]),
        _ => ShortUnion::NoMember(3),
    }
}

/// The encoding the test's Anys are built and read in: one that carries
/// any Rust text (UTF-8 `char` data, UTF-16 `wchar` data).
fn lossless() -> Encoding {
    Encoding::native().with_codesets(TransmissionCodeSets {
        char_data: CodeSetId::UTF_8,
        wchar_data: CodeSetId::UTF_16,
    })
}

/// An Any holding `value` with the TypeCode `tc`.
pub fn any_of<T: CdrEncode + ?Sized>(tc: &TypeCode, value: &T) -> Any {
    let mut e = Encoder::new(lossless());
    tc.encode(&mut e).expect("a TypeCode encodes");
    value.encode(&mut e).expect("the value encodes");
    Any::decode(&mut Decoder::new(e.into_bytes(), lossless())).expect("the Any decodes")
}

/// The value an Any holds, if its TypeCode is equivalent to `tc`.
pub fn value_of<T: CdrDecode>(any: &Any, tc: &TypeCode) -> Result<T, CdrError> {
    if !any.type_code().equivalent(tc) {
        return Err(CdrError::TypeMismatch("another type"));
    }
    let mut e = Encoder::new(lossless());
    any.encode(&mut e)?;
    let mut d = Decoder::new(e.into_bytes(), lossless());
    TypeCode::decode(&mut d)?;
    T::decode(&mut d)
}

pub const ANYS: i16 = 14;

/// The TypeCode and an Any of canonical any number `which`.
pub fn any(which: i16) -> Any {
    match which {
        0 => Any::from(-7i16),
        1 => Any::from((1u64 << 40) + 5),
        2 => Any::from(-0.125f64),
        3 => Any::from(true),
        4 => Any::from(latin(8)),
        5 => any_of(&Point::type_code(), &point(11)),
        6 => any_of(&longs_type_code(), &longs(4)),
        7 => {
            let inner = any_of(&Point::type_code(), &point(12));
            let middle = any_of(&TypeCode::any(), &inner);
            any_of(&TypeCode::any(), &middle)
        }
        8 => any_of(&Nested::type_code(), &nested(6)),
        9 => any_of(&LongUnion::type_code(), &long_union(2)),
        10 => any_of(&Colour::type_code(), &Colour::Blue),
        11 => any_of(&Prims::type_code(), &prims(3)),
        12 => any_of(&point_grid_type_code(), &grid(7)),
        _ => any_of(&Tree::type_code(), &tree(2, 1)),
    }
}

/// Whether `a` holds canonical any number `which`, with its type; the
/// error says what differs.
pub fn any_is(a: &Any, which: i16) -> Result<(), String> {
    let want = any(which);
    let tc = want.type_code();
    let differs = |what: String| Err(format!("any {which}: {what}"));
    if !a.type_code().equivalent(tc) {
        return differs(format!(
            "TypeCode {:?}, want {:?}",
            a.type_code(),
            want.type_code()
        ));
    }
    let same = match which {
        0 => value_of::<i16>(a, tc).map(|v| v == -7),
        1 => value_of::<u64>(a, tc).map(|v| v == (1 << 40) + 5),
        2 => value_of::<f64>(a, tc).map(|v| v == -0.125),
        3 => value_of::<bool>(a, tc),
        4 => value_of::<String>(a, tc).map(|v| v == latin(8)),
        5 => value_of::<Point>(a, tc).map(|v| v == point(11)),
        6 => value_of::<Longs>(a, tc).map(|v| v == longs(4)),
        7 => value_of::<Any>(a, tc)
            .and_then(|middle| value_of::<Any>(&middle, &TypeCode::any()))
            .and_then(|inner| value_of::<Point>(&inner, &Point::type_code()))
            .map(|v| v == point(12)),
        8 => value_of::<Nested>(a, tc).map(|v| v == nested(6)),
        9 => value_of::<LongUnion>(a, tc).map(|v| v == long_union(2)),
        10 => value_of::<Colour>(a, tc).map(|v| v == Colour::Blue),
        11 => value_of::<Prims>(a, tc).map(|v| v == prims(3)),
        12 => value_of::<PointGrid>(a, tc).map(|v| v == grid(7)),
        _ => value_of::<Tree>(a, tc).map(|v| v == tree(2, 1)),
    };
    match same {
        Ok(true) => Ok(()),
        Ok(false) => differs("another value".into()),
        Err(e) => differs(format!("does not decode: {e}")),
    }
}

/// The large messages.
pub const BIG_IN: usize = 1_500_000;
pub const BIG_OUT: usize = 1_200_000;
pub const BIG_POINTS_IN: usize = 70_000;
pub const BIG_POINTS_OUT: usize = 66_000;

pub fn big_in(i: usize) -> u8 {
    ((i * 7 + 3) % 251) as u8
}

pub fn big_out(i: usize) -> u8 {
    ((i * 13 + 5) % 251) as u8
}
