//! The valuetype encoding: byte-exact vectors computed by hand from the
//! GIOP "Value Types" rules, sharing, truncation, and hostile input.

use std::any::{Any, TypeId};
use std::sync::Arc;

use rtorb_cdr::valuetype::{
    StateReader, ValueBase, read_value, register_value_factory, write_value,
};
use rtorb_cdr::{
    ByteOrder, CdrError, Decoder, Encoder, Encoding, OMG_VMCID, Result, TypeCode, Value,
    ValueMember,
};

fn enc() -> Encoding {
    Encoding::native().with_order(ByteOrder::Big)
}

/// `valuetype P { public long x; };`
#[derive(Debug, PartialEq)]
struct P {
    x: i32,
}

impl ValueBase for P {
    fn repository_id(&self) -> &'static str {
        "IDL:P:1.0"
    }
    fn write_state(&self, e: &mut Encoder) -> Result<()> {
        e.write_i32(self.x);
        Ok(())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn upcast(self: Arc<Self>, to: TypeId) -> Option<Box<dyn Any>> {
        (to == TypeId::of::<P>()).then(|| Box::new(self) as Box<dyn Any>)
    }
}

fn read_p(d: &mut Decoder) -> Result<Arc<dyn ValueBase>> {
    Ok(Arc::new(P { x: d.read_i32()? }))
}

const OWN_P: Option<(&str, StateReader)> = Some(("IDL:P:1.0", read_p));

/// `valuetype D : truncatable P { public long y; };`
#[derive(Debug, PartialEq)]
struct D {
    x: i32,
    y: i32,
}

impl ValueBase for D {
    fn repository_id(&self) -> &'static str {
        "IDL:D:1.0"
    }
    fn truncatable_ids(&self) -> &'static [&'static str] {
        &["IDL:P:1.0"]
    }
    fn write_state(&self, e: &mut Encoder) -> Result<()> {
        e.write_i32(self.x);
        e.write_i32(self.y);
        Ok(())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn upcast(self: Arc<Self>, to: TypeId) -> Option<Box<dyn Any>> {
        (to == TypeId::of::<D>()).then(|| Box::new(self) as Box<dyn Any>)
    }
}

/// `valuetype O : truncatable B { public long w; public P inner; public long z; };`
#[derive(Debug)]
struct O {
    w: i32,
    inner: Option<Arc<P>>,
    z: i32,
}

impl ValueBase for O {
    fn repository_id(&self) -> &'static str {
        "IDL:O:1.0"
    }
    fn truncatable_ids(&self) -> &'static [&'static str] {
        &["IDL:B:1.0"]
    }
    fn write_state(&self, e: &mut Encoder) -> Result<()> {
        e.write_i32(self.w);
        write_value(e, self.inner.as_ref())?;
        e.write_i32(self.z);
        Ok(())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn upcast(self: Arc<Self>, to: TypeId) -> Option<Box<dyn Any>> {
        (to == TypeId::of::<O>()).then(|| Box::new(self) as Box<dyn Any>)
    }
}

fn read_o(d: &mut Decoder) -> Result<Arc<dyn ValueBase>> {
    let w = d.read_i32()?;
    let inner = read_value::<P>(d, OWN_P)?;
    let z = d.read_i32()?;
    Ok(Arc::new(O { w, inner, z }))
}

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.split_whitespace().collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn ascii(s: &str) -> String {
    s.bytes().map(|b| format!("{b:02x}")).collect()
}

fn written(f: impl FnOnce(&mut Encoder) -> Result<()>) -> Vec<u8> {
    let mut e = Encoder::new(enc());
    f(&mut e).unwrap();
    e.into_bytes().to_vec()
}

fn decoder(bytes: &[u8]) -> Decoder {
    Decoder::new(bytes.to_vec().into(), enc())
}

#[test]
fn a_value_then_the_same_value_then_another() {
    let p = Arc::new(P { x: 7 });
    let q = Arc::new(P { x: 8 });
    let bytes = written(|e| {
        write_value(e, Some(&p))?;
        write_value(e, Some(&p))?;
        write_value(e, Some(&q))?;
        write_value::<P>(e, None)
    });
    let id = ascii("IDL:P:1.0");
    let expected = hex(&format!(
        "7fffff02 0000000a {id}00 0000 00000007 \
         ffffffff ffffffe4 \
         7fffff02 ffffffff ffffffdc 00000008 \
         00000000"
    ));
    assert_eq!(bytes, expected);
    let mut d = decoder(&bytes);
    let a = read_value::<P>(&mut d, OWN_P).unwrap().unwrap();
    let b = read_value::<P>(&mut d, OWN_P).unwrap().unwrap();
    let c = read_value::<P>(&mut d, OWN_P).unwrap().unwrap();
    assert!(read_value::<P>(&mut d, OWN_P).unwrap().is_none());
    assert!(d.is_empty());
    assert!(Arc::ptr_eq(&a, &b));
    assert!(!Arc::ptr_eq(&a, &c));
    assert_eq!((a.x, c.x), (7, 8));
}

#[test]
fn a_truncatable_value_is_chunked_with_its_base_ids() {
    let v = Arc::new(D { x: 1, y: 2 });
    let bytes = written(|e| write_value(e, Some(&v)));
    let expected = hex(&format!(
        "7fffff0e 00000002 0000000a {}00 0000 0000000a {}00 0000 \
         00000008 00000001 00000002 ffffffff",
        ascii("IDL:D:1.0"),
        ascii("IDL:P:1.0")
    ));
    assert_eq!(bytes, expected);
    // A receiver that knows only P truncates.
    let mut tail = bytes.clone();
    tail.extend_from_slice(&hex("0000002a"));
    let mut d = decoder(&tail);
    let p = read_value::<P>(&mut d, OWN_P).unwrap().unwrap();
    assert_eq!(*p, P { x: 1 });
    assert_eq!(
        d.read_i32().unwrap(),
        42,
        "reading resumes after the end tag"
    );
    // A receiver with a factory for D builds a D, also where P is declared
    // (read as `dyn ValueBase`).
    fn read_d(d: &mut Decoder) -> Result<Arc<dyn ValueBase>> {
        Ok(Arc::new(D {
            x: d.read_i32()?,
            y: d.read_i32()?,
        }))
    }
    register_value_factory("IDL:D:1.0", read_d);
    let mut d = decoder(&bytes);
    let any = read_value::<dyn ValueBase>(&mut d, OWN_P).unwrap().unwrap();
    assert_eq!(
        rtorb_cdr::valuetype::downcast_value::<D, _>(&*any),
        Some(&D { x: 1, y: 2 })
    );
    rtorb_cdr::valuetype::unregister_value_factory("IDL:D:1.0");
}

#[test]
fn a_value_nested_in_a_chunked_value_ends_the_chunk() {
    let v = Arc::new(O {
        w: 5,
        inner: Some(Arc::new(P { x: 7 })),
        z: 9,
    });
    let bytes = written(|e| write_value(e, Some(&v)));
    let expected = hex(&format!(
        "7fffff0e 00000002 0000000a {}00 0000 0000000a {}00 0000 \
         00000004 00000005 \
         7fffff0a 0000000a {}00 0000 00000004 00000007 fffffffe \
         00000004 00000009 ffffffff",
        ascii("IDL:O:1.0"),
        ascii("IDL:B:1.0"),
        ascii("IDL:P:1.0")
    ));
    assert_eq!(bytes, expected);
    let mut d = decoder(&bytes);
    let o = read_value::<O>(&mut d, Some(("IDL:O:1.0", read_o)))
        .unwrap()
        .unwrap();
    assert_eq!((o.w, o.inner.as_ref().map(|p| p.x), o.z), (5, Some(7), 9));
    assert!(d.is_empty());
    // Known only as its base B (whose state is empty): the nested value is
    // skipped with the rest.
    fn read_b(_: &mut Decoder) -> Result<Arc<dyn ValueBase>> {
        Ok(Arc::new(P { x: -1 }))
    }
    let mut d = decoder(&bytes);
    let b = read_value::<P>(&mut d, Some(("IDL:B:1.0", read_b)))
        .unwrap()
        .unwrap();
    assert_eq!(b.x, -1);
    assert!(d.is_empty());
}

#[test]
fn coalesced_end_tags_and_chunks_split_between_members() {
    // O written by another ORB: w and the nested value, z in its own
    // chunk, and one end tag (-1) closing both levels when z is empty.
    let bytes = hex(&format!(
        "7fffff0a 0000000a {}00 0000 \
         00000004 00000005 \
         7fffff0a 0000000a {}00 0000 00000004 00000007 \
         fffffffe 00000002 0000 0000 00000004 00000009 ffffffff",
        ascii("IDL:O:1.0"),
        ascii("IDL:P:1.0")
    ));
    let mut d = decoder(&bytes);
    let o = read_value::<O>(&mut d, Some(("IDL:O:1.0", read_o)));
    // The reader of O expects z right after the nested value, but the
    // sender put a 2-octet chunk there: a clear error, not a misread.
    assert!(
        matches!(o, Err(CdrError::BadValue("a chunk ends inside a member"))),
        "{o:?}"
    );
}

#[test]
fn unknown_types_that_cannot_be_truncated_are_marshal_minor_1() {
    let p = Arc::new(P { x: 1 });
    let bytes = written(|e| write_value(e, Some(&p)));
    let mut d = decoder(&bytes);
    fn never(_: &mut Decoder) -> Result<Arc<dyn ValueBase>> {
        unreachable!()
    }
    let err = read_value::<P>(&mut d, Some(("IDL:Other:1.0", never))).unwrap_err();
    assert_eq!(err, CdrError::UnknownValueType("IDL:P:1.0".into()));
    assert_eq!(err.minor(), OMG_VMCID | 1);
}

fn bad(bytes: &[u8]) -> CdrError {
    let mut d = decoder(bytes);
    read_value::<P>(&mut d, OWN_P).unwrap_err()
}

#[test]
fn hostile_indirections_are_errors() {
    // Pointing at itself, forwards, at nothing, at the null tag.
    for off in ["fffffffc", "00000000", "00000004", "fffffff0", "80000000"] {
        let e = bad(&hex(&format!("ffffffff {off}")));
        assert!(matches!(e, CdrError::BadValue(_)), "{off}: {e:?}");
    }
    // An indirection to a null value (nulls are not values to share).
    let mut d = decoder(&hex("00000000 ffffffff fffffff8"));
    assert!(read_value::<P>(&mut d, OWN_P).unwrap().is_none());
    assert!(matches!(
        read_value::<P>(&mut d, OWN_P),
        Err(CdrError::BadValue(_))
    ));
    // A repository id indirection to nowhere.
    let e = bad(&hex("7fffff02 ffffffff fffffff0"));
    assert!(matches!(e, CdrError::BadValue(_)), "{e:?}");
}

#[test]
fn a_value_referring_to_itself_is_a_cycle_error() {
    // O whose nested value is an indirection to O itself.
    let bytes = hex(&format!(
        "7fffff02 0000000a {}00 0000 00000005 ffffffff ffffffe4 00000009",
        ascii("IDL:O:1.0")
    ));
    let mut d = decoder(&bytes);
    let e = read_value::<O>(&mut d, Some(("IDL:O:1.0", read_o))).unwrap_err();
    assert_eq!(
        e,
        CdrError::BadValue("indirection to a value still being decoded (a cycle)")
    );
}

#[test]
fn hostile_tags_chunks_and_nesting_are_errors() {
    let id = ascii("IDL:P:1.0");
    // Reserved flag bits, a bad id flag, a tag below the range.
    for tag in ["7fffff12", "7fffff04", "12345678", "fffffffe"] {
        let e = bad(&hex(&format!("{tag} 0000000a {id}00 0000 00000001")));
        assert!(matches!(e, CdrError::BadValue(_)), "{tag}: {e:?}");
    }
    // A chunk longer than the message.
    let e = bad(&hex(&format!(
        "7fffff0a 0000000a {id}00 0000 7ffffeff 00000001"
    )));
    assert!(matches!(e, CdrError::LengthTooLarge { .. }), "{e:?}");
    // An end tag deeper than the open values.
    let e = bad(&hex(&format!(
        "7fffff0a 0000000a {id}00 0000 00000004 00000001 fffffffd"
    )));
    assert!(matches!(e, CdrError::BadValue(_)), "{e:?}");
    // A chunk that ends inside the state.
    let e = bad(&hex(&format!(
        "7fffff0a 0000000a {id}00 0000 00000002 00000001 ffffffff"
    )));
    assert!(matches!(e, CdrError::BadValue(_)), "{e:?}");
    // No end tag at all.
    let e = bad(&hex(&format!(
        "7fffff0a 0000000a {id}00 0000 00000004 00000001"
    )));
    assert!(matches!(e, CdrError::UnexpectedEnd { .. }), "{e:?}");
    // A huge id list count.
    let e = bad(&hex("7fffff06 7fffffff"));
    assert!(matches!(e, CdrError::LengthTooLarge { .. }), "{e:?}");
}

/// `valuetype N { public N next; };` nested as deep as the sender likes.
#[derive(Debug)]
struct N(#[allow(dead_code)] Option<Arc<N>>);

impl ValueBase for N {
    fn repository_id(&self) -> &'static str {
        "IDL:N:1.0"
    }
    fn write_state(&self, e: &mut Encoder) -> Result<()> {
        write_value(e, self.0.as_ref())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn upcast(self: Arc<Self>, to: TypeId) -> Option<Box<dyn Any>> {
        (to == TypeId::of::<N>()).then(|| Box::new(self) as Box<dyn Any>)
    }
}

fn read_n(d: &mut Decoder) -> Result<Arc<dyn ValueBase>> {
    Ok(Arc::new(N(read_value::<N>(
        d,
        Some(("IDL:N:1.0", read_n)),
    )?)))
}

#[test]
fn deep_nesting_is_bounded() {
    let mut v = None;
    for _ in 0..1000 {
        v = Some(Arc::new(N(v)));
    }
    let bytes = written(|e| write_value(e, v.as_ref()));
    let mut d = decoder(&bytes);
    let e = read_value::<N>(&mut d, Some(("IDL:N:1.0", read_n))).unwrap_err();
    assert!(matches!(e, CdrError::NestingTooDeep(_)), "{e:?}");
    // Drop the chain iteratively so the test's own stack is not at risk.
    while let Some(n) = v {
        v = Arc::try_unwrap(n).ok().and_then(|n| n.0);
    }
}

fn p_tc() -> TypeCode {
    TypeCode::value_tc(
        "IDL:P:1.0",
        "P",
        rtorb_cdr::typecode::VM_NONE,
        None,
        vec![ValueMember {
            name: "x".into(),
            type_code: TypeCode::long(),
            visibility: rtorb_cdr::typecode::PUBLIC_MEMBER,
        }],
    )
}

#[test]
fn dynamic_values_follow_indirections_and_chunks() {
    let p = Arc::new(P { x: 7 });
    let d_val = Arc::new(D { x: 3, y: 4 });
    let bytes = written(|e| {
        write_value(e, Some(&p))?;
        write_value(e, Some(&p))?;
        write_value(e, Some(&d_val))
    });
    let tc = p_tc();
    let mut d = decoder(&bytes);
    let a = Value::decode(&tc, &mut d).unwrap();
    let b = Value::decode(&tc, &mut d).unwrap();
    let c = Value::decode(&tc, &mut d).unwrap();
    assert_eq!(a, Value::ValueType(vec![Value::Long(7)]));
    assert_eq!(a, b);
    assert_eq!(c, Value::ValueType(vec![Value::Long(3)]), "truncated to P");
    assert!(d.is_empty());
    // And written back dynamically as the same octets as the typed writer.
    let mut e = Encoder::new(enc());
    a.encode(&tc, &mut e).unwrap();
    assert_eq!(
        e.into_bytes().to_vec(),
        written(|e| write_value(e, Some(&p)))
    );
}

/// `valuetype A : truncatable AB { public any a; };`
#[derive(Debug)]
struct A(rtorb_cdr::Any);

impl ValueBase for A {
    fn repository_id(&self) -> &'static str {
        "IDL:A:1.0"
    }
    fn truncatable_ids(&self) -> &'static [&'static str] {
        &["IDL:AB:1.0"]
    }
    fn write_state(&self, e: &mut Encoder) -> Result<()> {
        rtorb_cdr::CdrEncode::encode(&self.0, e)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn upcast(self: Arc<Self>, to: TypeId) -> Option<Box<dyn Any>> {
        (to == TypeId::of::<A>()).then(|| Box::new(self) as Box<dyn Any>)
    }
}

fn read_a(d: &mut Decoder) -> Result<Arc<dyn ValueBase>> {
    Ok(Arc::new(A(
        <rtorb_cdr::Any as rtorb_cdr::CdrDecode>::decode(d)?,
    )))
}

#[test]
fn an_any_holding_a_value_inside_a_chunked_value() {
    let inner = Value::ValueType(vec![Value::Long(5)]);
    let any = rtorb_cdr::Any::from_value(p_tc(), inner.clone());
    let v = Arc::new(A(any));
    let bytes = written(|e| {
        write_value(e, Some(&v))?;
        e.write_i32(77);
        Ok(())
    });
    let mut d = decoder(&bytes);
    let a = read_value::<A>(&mut d, Some(("IDL:A:1.0", read_a)))
        .unwrap()
        .unwrap();
    assert_eq!(d.read_i32().unwrap(), 77);
    assert!(d.is_empty());
    assert_eq!(a.0.value().unwrap(), inner);
    // Written again from the decoded Any: the same octets.
    assert_eq!(
        written(|e| write_value(e, Some(&a))),
        bytes[..bytes.len() - 4]
    );
}

mod random_input {
    use super::*;
    use proptest::prelude::*;

    /// Bytes that look like value encodings: tags, chunk sizes, end tags,
    /// indirections and small numbers, in any order.
    fn words() -> impl Strategy<Value = Vec<u8>> {
        let word = prop_oneof![
            Just(0x7fff_ff00u32),
            Just(0x7fff_ff02),
            Just(0x7fff_ff06),
            Just(0x7fff_ff0a),
            Just(0x7fff_ff0e),
            Just(0xffff_ffff),
            Just(0xffff_fffe),
            Just(0xffff_fffc),
            Just(0),
            0u32..16,
            any::<u32>(),
        ];
        prop::collection::vec(word, 0..40)
            .prop_map(|ws| ws.iter().flat_map(|w| w.to_be_bytes()).collect())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Whatever the bytes, reading values (typed and dynamic) gives a
        /// value or an error, never a panic.
        #[test]
        fn no_input_panics(bytes in words()) {
            let mut d = decoder(&bytes);
            for _ in 0..4 {
                if read_value::<O>(&mut d, Some(("IDL:O:1.0", read_o))).is_err() {
                    break;
                }
            }
            let mut d = decoder(&bytes);
            let _ = read_value::<N>(&mut d, Some(("IDL:N:1.0", read_n)));
            let mut d = decoder(&bytes);
            let _ = Value::decode(&p_tc(), &mut d);
            let mut d = decoder(&bytes);
            let _ = <rtorb_cdr::Any as rtorb_cdr::CdrDecode>::decode(&mut d);
        }

        /// A chain of values written and read back is the same chain.
        #[test]
        fn written_values_read_back(xs in prop::collection::vec(any::<i32>(), 0..8)) {
            let vs: Vec<Arc<P>> = xs.iter().map(|&x| Arc::new(P { x })).collect();
            let bytes = written(|e| {
                for v in &vs {
                    write_value(e, Some(v))?;
                    write_value(e, Some(v))?;
                }
                Ok(())
            });
            let mut d = decoder(&bytes);
            for &x in &xs {
                let a = read_value::<P>(&mut d, OWN_P).unwrap().unwrap();
                let b = read_value::<P>(&mut d, OWN_P).unwrap().unwrap();
                prop_assert_eq!(a.x, x);
                prop_assert!(Arc::ptr_eq(&a, &b));
            }
            prop_assert!(d.is_empty());
        }
    }
}
