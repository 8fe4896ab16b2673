//! The constructs of `idl/values.idl` through the generated code: values,
//! value boxes, sharing, inheritance, abstract valuetypes and interfaces,
//! values in Anys, local interfaces and native types, through the loopback
//! in every GIOP version and byte order; and byte-exact encodings.

use std::sync::{Arc, Mutex};

use rtorb::cdr::IdlType;
use rtorb::exception::{SystemException, SystemExceptionKind};
use rtorb::loopback::Loopback;
use rtorb::object::{Local, Stub};
use rtorb::value::{Abstract, Opaque, downcast_value};
use rtorb_cdr::valuetype::ValueBase;
use rtorb_cdr::{Any, ByteOrder, CdrDecode, CdrEncode, Decoder, Encoder, Encoding, TCKind};
use rtorb_idl_tests::values_idl::PointFactory;
use rtorb_idl_tests::values_idl::vals::*;
use rtorb_test_support::loopback::{VERSIONS, loopbacks};

type Res<T> = Result<T, SystemException>;
type PointRef = Option<Arc<dyn PointValue>>;

struct Impl;

impl NamedServant for Impl {
    fn name(&self) -> Res<String> {
        Ok("thing".into())
    }
}

impl ThingServant for Impl {
    fn id(&self) -> Res<i32> {
        Ok(7)
    }
}

impl ValuesServant for Impl {
    fn echo_point(&self, p: PointRef) -> Res<PointRef> {
        Ok(p)
    }
    fn same(&self, a: PointRef, b: PointRef) -> Res<bool> {
        Ok(match (a, b) {
            (Some(a), Some(b)) => Arc::ptr_eq(&a, &b),
            _ => false,
        })
    }
    fn echo_holder(&self, h: Holder) -> Res<Holder> {
        Ok(h)
    }
    fn echo_points(&self, ps: PointSeq) -> Res<PointSeq> {
        Ok(ps)
    }
    fn echo_box(&self, s: Option<StringBox>) -> Res<Option<StringBox>> {
        Ok(s)
    }
    fn echo_list(&self, n: Option<Arc<dyn NodeValue>>) -> Res<Option<Arc<dyn NodeValue>>> {
        Ok(n)
    }
    fn echo_shape(&self, s: Option<Arc<dyn ShapeValue>>) -> Res<Option<Arc<dyn ShapeValue>>> {
        Ok(s)
    }
    fn echo_named(&self, n: Option<Abstract<Named>>) -> Res<Option<Abstract<Named>>> {
        Ok(n)
    }
    fn echo_any(&self, a: Any) -> Res<Any> {
        Ok(a)
    }
    fn echo_base(&self, v: Option<Arc<dyn ValueBase>>) -> Res<Option<Arc<dyn ValueBase>>> {
        Ok(v)
    }
    fn type_of(&self, p: PointRef) -> Res<String> {
        Ok(p.map(|p| p.repository_id().to_string()).unwrap_or_default())
    }
    fn out_point(&self, q: PointRef) -> Res<(PointRef, PointRef)> {
        Ok((Some(Arc::new(Point { x: 1, y: 2 })), q))
    }
}

fn values(orb: &Arc<Loopback>) -> Values {
    let obj = orb.activate(&b"values"[..], Arc::new(ValuesSkeleton(Impl)));
    Values::narrow(obj).unwrap().expect("a Values")
}

fn point(v: &PointRef) -> &Point {
    downcast_value::<Point, _>(&**v.as_ref().expect("a value")).expect("a Point")
}

fn registered() {
    // Every test registers the same factories; the registry is global.
    Circle::register_factory();
    NamedValue::register_factory();
}

#[test]
fn null_and_plain_values_and_state() {
    registered();
    for orb in loopbacks(&VERSIONS) {
        let v = values(&orb);
        assert!(v.echo_point(&None).unwrap().is_none());
        let p: PointRef = Some(Arc::new(Point { x: 3, y: -4 }));
        let r = v.echo_point(&p).unwrap();
        assert_eq!(point(&r), &Point { x: 3, y: -4 });
        // The state through the trait of the declared type.
        assert_eq!(r.as_ref().map(|p| (*p.x(), *p.y())), Some((3, -4)));
        assert!(!Arc::ptr_eq(r.as_ref().unwrap(), p.as_ref().unwrap()));
        let (made, q) = v.out_point(&p).unwrap();
        assert_eq!(point(&made), &Point { x: 1, y: 2 });
        assert_eq!(point(&q), &Point { x: 3, y: -4 });
        // The operation implemented for the state struct.
        assert_eq!(PointOperations::sum(point(&q)).unwrap(), -1);
        assert_eq!(v.type_of(&p).unwrap(), "IDL:vals/Point:1.0");
    }
}

#[test]
fn a_value_shared_twice_in_one_request_decodes_to_one_arc() {
    for orb in loopbacks(&VERSIONS) {
        let v = values(&orb);
        let p: Arc<dyn PointValue> = Arc::new(Point { x: 1, y: 1 });
        assert!(v.same(&Some(p.clone()), &Some(p.clone())).unwrap());
        assert!(
            !v.same(&Some(p.clone()), &Some(Arc::new(Point { x: 1, y: 1 })))
                .unwrap()
        );
        let h = Holder {
            first: Some(p.clone()),
            second: Some(p.clone()),
            label: Some(StringBox("label".into())),
            pair: Some(PairBox(Pair {
                a: 5,
                b: "five".into(),
            })),
            longs: Some(LongsBox(vec![1, 2, 3])),
        };
        let r = v.echo_holder(&h).unwrap();
        let (a, b) = (r.first.unwrap(), r.second.unwrap());
        assert!(Arc::ptr_eq(&a, &b), "one shared value, one Arc");
        assert_eq!(r.label, Some(StringBox("label".into())));
        assert_eq!(r.pair.unwrap().0.b, "five");
        assert_eq!(r.longs, Some(LongsBox(vec![1, 2, 3])));
        // Sharing across sequence elements, with nulls between.
        let ps: PointSeq = vec![Some(p.clone()), None, Some(p.clone())];
        let r = v.echo_points(&ps).unwrap();
        assert_eq!(r.len(), 3);
        assert!(r[1].is_none());
        assert!(Arc::ptr_eq(r[0].as_ref().unwrap(), r[2].as_ref().unwrap()));
    }
}

#[test]
fn value_boxes_and_null_boxes() {
    for orb in loopbacks(&VERSIONS) {
        let v = values(&orb);
        assert_eq!(v.echo_box(&None).unwrap(), None);
        let s = Some(StringBox("boxed".into()));
        assert_eq!(v.echo_box(&s).unwrap(), s);
        let h = Holder {
            first: None,
            second: None,
            label: None,
            pair: None,
            longs: Some(LongsBox(Vec::new())),
        };
        let r = v.echo_holder(&h).unwrap();
        assert!(r.first.is_none() && r.label.is_none() && r.pair.is_none());
        assert_eq!(r.longs, Some(LongsBox(Vec::new())));
    }
}

#[test]
fn a_linked_list_and_its_shared_tail() {
    for orb in loopbacks(&VERSIONS) {
        let v = values(&orb);
        let tail: Arc<dyn NodeValue> = Arc::new(Node {
            value: 3,
            next: None,
        });
        let mid: Arc<dyn NodeValue> = Arc::new(Node {
            value: 2,
            next: Some(tail.clone()),
        });
        let head: Arc<dyn NodeValue> = Arc::new(Node {
            value: 1,
            next: Some(mid),
        });
        let r = v.echo_list(&Some(head)).unwrap().unwrap();
        let mut values = Vec::new();
        let mut cur = Some(r);
        while let Some(n) = cur {
            let node = downcast_value::<Node, _>(&*n).expect("a Node");
            values.push(node.value);
            cur = node.next.clone();
        }
        assert_eq!(values, [1, 2, 3]);
    }
}

#[test]
fn abstract_valuetypes_carry_a_registered_concrete_value() {
    registered();
    for orb in loopbacks(&VERSIONS) {
        let v = values(&orb);
        let c: Arc<dyn ShapeValue> = Arc::new(Circle { r: 2.0 });
        let r = v.echo_shape(&Some(c)).unwrap().unwrap();
        let circle = downcast_value::<Circle, _>(&*r).expect("a Circle");
        assert_eq!(circle.r, 2.0);
        let area = ShapeOperations::area(circle).unwrap();
        assert!((area - 4.0 * std::f64::consts::PI).abs() < 1e-9);
        assert!(v.echo_shape(&None).unwrap().is_none());
    }
}

#[test]
fn abstract_interfaces_carry_an_object_or_a_value() {
    registered();
    for orb in loopbacks(&VERSIONS) {
        let v = values(&orb);
        let thing = orb.activate(&b"thing"[..], Arc::new(ThingSkeleton(Impl)));
        let named = Named::from_object(thing);
        match v.echo_named(&Some(Abstract::Object(named))).unwrap() {
            Some(Abstract::Object(n)) => assert_eq!(n.name().unwrap(), "thing"),
            other => panic!("expected an object, got {other:?}"),
        }
        let value: Arc<dyn ValueBase> = Arc::new(NamedValue {
            text: "value".into(),
        });
        match v.echo_named(&Some(Abstract::Value(value))).unwrap() {
            Some(Abstract::Value(x)) => {
                let nv = downcast_value::<NamedValue, _>(&*x).expect("a NamedValue");
                assert_eq!(nv.text, "value");
            }
            other => panic!("expected a value, got {other:?}"),
        }
        assert!(v.echo_named(&None).unwrap().is_none());
    }
}

#[test]
fn values_in_anys_and_as_value_base() {
    registered();
    let p = Point { x: 9, y: 8 };
    let any = Any::new(&p).unwrap();
    assert_eq!(any.type_code().kind(), TCKind::Value);
    assert!(any.type_code().equivalent(&Point::type_code()));
    assert_eq!(any.get::<Point>().unwrap(), p);
    let b = StringBox("in an any".into());
    let bany = Any::new(&b).unwrap();
    assert_eq!(bany.type_code().kind(), TCKind::ValueBox);
    assert_eq!(bany.get::<StringBox>().unwrap(), b);
    for orb in loopbacks(&VERSIONS) {
        let v = values(&orb);
        let r = v.echo_any(&any).unwrap();
        assert_eq!(r.get::<Point>().unwrap(), p);
        // The dynamic view of the same any.
        assert_eq!(
            r.value().unwrap(),
            rtorb_cdr::Value::ValueType(vec![rtorb_cdr::Value::Long(9), rtorb_cdr::Value::Long(8)])
        );
        let r = v.echo_any(&bany).unwrap();
        assert_eq!(r.get::<StringBox>().unwrap(), b);
        let vb: Arc<dyn ValueBase> = Arc::new(Circle { r: 1.5 });
        let r = v.echo_base(&Some(vb)).unwrap().unwrap();
        assert_eq!(downcast_value::<Circle, _>(&*r).map(|c| c.r), Some(1.5));
    }
}

#[test]
fn type_codes_of_values() {
    let tc = <dyn Point3Value as IdlType>::type_code();
    assert_eq!(tc.kind(), TCKind::Value);
    assert_eq!(tc.id(), Some("IDL:vals/Point3:1.0"));
    assert_eq!(
        tc.type_modifier(),
        Some(rtorb_cdr::typecode::VM_TRUNCATABLE)
    );
    let base = tc.concrete_base_type().flatten().expect("a base");
    assert_eq!(base.id(), Some("IDL:vals/Point:1.0"));
    assert_eq!(base.member_count(), Some(2));
    let shape = <dyn ShapeValue as IdlType>::type_code();
    assert_eq!(
        shape.type_modifier(),
        Some(rtorb_cdr::typecode::VM_ABSTRACT)
    );
    assert_eq!(
        <dyn Adder as IdlType>::type_code().kind(),
        TCKind::LocalInterface
    );
    assert_eq!(Named::type_code().kind(), TCKind::AbstractInterface);
    // A value's TypeCode travels in an Any and reads back equivalent.
    let node = <dyn NodeValue as IdlType>::type_code();
    let mut e = Encoder::new(Encoding::native());
    node.encode(&mut e).unwrap();
    let mut d = Decoder::new(e.into_bytes(), Encoding::native());
    assert!(
        rtorb_cdr::TypeCode::decode(&mut d)
            .unwrap()
            .equivalent(&node)
    );
}

/// A local interface implemented in the program, with a native type.
#[derive(Default)]
struct Counter {
    total: Mutex<i32>,
}

impl Adder for Counter {
    fn add(&self, a: i32, b: i32) -> Result<i32, adder::AddError> {
        let sum = a
            .checked_add(b)
            .ok_or(adder::AddError::Overflow(adder::Overflow { at: a }))?;
        *self.total.lock().unwrap() += 1;
        Ok(sum)
    }
    fn total(&self) -> Res<i32> {
        Ok(*self.total.lock().unwrap())
    }
    fn set_total(&self, value: i32) -> Res<()> {
        *self.total.lock().unwrap() = value;
        Ok(())
    }
}

impl HandleUser for Counter {
    fn make_handle(&self, n: i32) -> Res<Handle> {
        Ok(Handle(Opaque::new(n)))
    }
    fn read_handle(&self, h: Handle) -> Res<i32> {
        h.0.get::<i32>().copied().ok_or(SystemException::new(
            SystemExceptionKind::BadParam,
            0,
            rtorb::exception::CompletionStatus::No,
        ))
    }
}

#[test]
fn local_interfaces_and_native_types_are_called_directly() {
    let c: Local<dyn HandleUser> = Local::new(Arc::new(Counter::default()));
    assert_eq!(c.add(2, 3).unwrap(), 5);
    assert!(matches!(
        c.add(i32::MAX, 1),
        Err(adder::AddError::Overflow(adder::Overflow { at: i32::MAX }))
    ));
    assert_eq!(c.total().unwrap(), 1);
    let h = c.make_handle(42).unwrap();
    assert_eq!(c.read_handle(h).unwrap(), 42);
    // Never marshalled: writing one is an error, not a panic.
    let mut e = Encoder::new(Encoding::native());
    assert_eq!(
        rtorb::codegen::not_marshalable(&mut e, "local interface Adder"),
        Err(rtorb_cdr::CdrError::Unsupported("local interface Adder"))
    );
}

#[test]
fn the_factory_trait_builds_values() {
    let p = PointInit::make(&PointFactory, 4, 5).unwrap();
    let v = downcast_value::<Point, _>(&*p).unwrap();
    assert_eq!((v.x, v.y), (4, 5));
}

fn be() -> Encoding {
    Encoding::native().with_order(ByteOrder::Big)
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

#[test]
fn byte_exact_encodings() {
    // A Point: tag with one repository id, the id, then x and y.
    let mut e = Encoder::new(be());
    Point { x: 1, y: 2 }.encode(&mut e).unwrap();
    let id = ascii("IDL:vals/Point:1.0");
    assert_eq!(
        e.into_bytes().to_vec(),
        hex(&format!("7fffff02 00000013 {id}00 00 00000001 00000002"))
    );
    // A Point3: truncatable, so chunked, with its base's id after its own.
    let p3: Arc<dyn Point3Value> = Arc::new(Point3 { x: 1, y: 2, z: 3 });
    let mut e = Encoder::new(be());
    rtorb_cdr::valuetype::write_value(&mut e, Some(&p3)).unwrap();
    let id3 = ascii("IDL:vals/Point3:1.0");
    assert_eq!(
        e.into_bytes().to_vec(),
        hex(&format!(
            "7fffff0e 00000002 00000014 {id3}00 00000013 {id}00 00 \
             0000000c 00000001 00000002 00000003 ffffffff"
        ))
    );
    // A string box: the id then the string.
    let mut e = Encoder::new(be());
    StringBox("hi".into()).encode(&mut e).unwrap();
    let sid = ascii("IDL:vals/StringBox:1.0");
    assert_eq!(
        e.into_bytes().to_vec(),
        hex(&format!("7fffff02 00000017 {sid}00 00 00000003 686900"))
    )
}

#[test]
fn mutually_recursive_values_have_finite_type_codes_and_round_trip() {
    use rtorb_idl_tests::values_idl::trees::*;
    let tree = <dyn TreeValue as IdlType>::type_code();
    assert_eq!(tree.id(), Some("IDL:trees/Tree:1.0"));
    let branch = tree.member_type(0).expect("left");
    assert_eq!(branch.id(), Some("IDL:trees/Branch:1.0"));
    // Branch.rest is Tree again (the placeholder, resolved).
    let rest = branch.member_type(1).expect("rest");
    assert_eq!(rest.id(), Some("IDL:trees/Tree:1.0"));
    assert_eq!(rest.kind(), TCKind::Value);
    // The TypeCode goes on the wire (as an indirection) and back.
    let mut e = Encoder::new(Encoding::native());
    tree.encode(&mut e).unwrap();
    let mut d = Decoder::new(e.into_bytes(), Encoding::native());
    assert!(
        rtorb_cdr::TypeCode::decode(&mut d)
            .unwrap()
            .equivalent(&tree)
    );
    // A value graph with a shared leaf, through an Any.
    let leaf: Arc<dyn TreeValue> = Arc::new(Tree {
        left: None,
        right: None,
    });
    let b: Arc<dyn BranchValue> = Arc::new(Branch {
        weight: 3,
        rest: Some(leaf.clone()),
    });
    let t = Tree {
        left: Some(b.clone()),
        right: Some(b),
    };
    let any = Any::new(&t).unwrap();
    let back = any.get::<Tree>().unwrap();
    let (l, r) = (back.left.unwrap(), back.right.unwrap());
    assert!(Arc::ptr_eq(&l, &r));
    assert_eq!(*l.weight(), 3);
    assert!(l.rest().is_some());
}
