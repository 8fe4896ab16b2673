//! Inheritance and truncation through the loopback. The value factory
//! registry is global, so these steps run in one test, in order.

use std::sync::Arc;

use rtorb::exception::{SystemException, SystemExceptionKind};
use rtorb::object::Stub;
use rtorb::value::{downcast_value, unregister_value_factory};
use rtorb_cdr::OMG_VMCID;
use rtorb_cdr::valuetype::ValueBase;
use rtorb_idl_tests::values_idl::vals::*;
use rtorb_test_support::loopback::{VERSIONS, loopbacks};

type Res<T> = Result<T, SystemException>;
type PointRef = Option<Arc<dyn PointValue>>;

/// Echoes points, and names the type it received.
struct Echo;

impl ValuesServant for Echo {
    fn echo_point(&self, p: PointRef) -> Res<PointRef> {
        Ok(p)
    }
    fn same(&self, _: PointRef, _: PointRef) -> Res<bool> {
        Ok(false)
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
    fn echo_named(
        &self,
        n: Option<rtorb::value::Abstract<Named>>,
    ) -> Res<Option<rtorb::value::Abstract<Named>>> {
        Ok(n)
    }
    fn echo_any(&self, a: rtorb_cdr::Any) -> Res<rtorb_cdr::Any> {
        Ok(a)
    }
    fn echo_base(&self, v: Option<Arc<dyn ValueBase>>) -> Res<Option<Arc<dyn ValueBase>>> {
        Ok(v)
    }
    fn type_of(&self, p: PointRef) -> Res<String> {
        Ok(p.map(|p| p.repository_id().to_string()).unwrap_or_default())
    }
    fn out_point(&self, q: PointRef) -> Res<(PointRef, PointRef)> {
        Ok((None, q))
    }
}

/// A `Values` echoing what it is given, through a loopback in each GIOP
/// version and byte order.
fn orbs() -> Vec<Values> {
    loopbacks(&VERSIONS)
        .into_iter()
        .map(|orb| {
            let obj = orb.activate(&b"values"[..], Arc::new(ValuesSkeleton(Echo)));
            Values::narrow(obj).unwrap().expect("a Values")
        })
        .collect()
}

#[test]
fn unknown_truncatable_values_truncate_and_others_are_marshal_minor_1() {
    for id in [
        Point3::REPOSITORY_ID,
        Labelled::REPOSITORY_ID,
        Strict::REPOSITORY_ID,
    ] {
        unregister_value_factory(id);
    }
    let p3: PointRef = Some(Arc::new(Point3 { x: 1, y: 2, z: 3 }));
    let origin: PointRef = Some(Arc::new(Point { x: 0, y: 0 }));
    let labelled: PointRef = Some(Arc::new(Labelled {
        x: 4,
        y: 5,
        z: 6,
        label: "here".into(),
        origin: origin.clone(),
    }));
    let strict: PointRef = Some(Arc::new(Strict { x: 7, y: 8, w: 9 }));
    for v in orbs() {
        // Only Point is known: Point3 and Labelled truncate to it.
        assert_eq!(v.type_of(&p3).unwrap(), "IDL:vals/Point:1.0");
        assert_eq!(v.type_of(&labelled).unwrap(), "IDL:vals/Point:1.0");
        let r = v.echo_point(&p3).unwrap();
        let p = downcast_value::<Point, _>(&**r.as_ref().unwrap()).expect("truncated");
        assert_eq!((p.x, p.y), (1, 2));
        // Strict is not truncatable: MARSHAL, minor 1 (no value factory).
        let e = v.type_of(&strict).unwrap_err();
        assert_eq!(e.kind(), Some(SystemExceptionKind::Marshal));
        assert_eq!(e.minor, OMG_VMCID | 1);
    }
    Point3::register_factory();
    Strict::register_factory();
    for v in orbs() {
        assert_eq!(v.type_of(&p3).unwrap(), "IDL:vals/Point3:1.0");
        // Labelled still unknown: truncated to Point3, the nearest known
        // base, skipping its label and its nested origin value.
        assert_eq!(v.type_of(&labelled).unwrap(), "IDL:vals/Point3:1.0");
        let r = v.echo_point(&labelled).unwrap();
        let p = downcast_value::<Point3, _>(&**r.as_ref().unwrap()).expect("a Point3");
        assert_eq!((p.x, p.y, p.z), (4, 5, 6));
        // The state of the declared type, whatever the type of the value.
        let r = r.unwrap();
        assert_eq!((*r.x(), *r.y()), (4, 5));
        assert_eq!(v.type_of(&strict).unwrap(), "IDL:vals/Strict:1.0");
    }
    Labelled::register_factory();
    for v in orbs() {
        let r = v.echo_point(&labelled).unwrap();
        let l = downcast_value::<Labelled, _>(&**r.as_ref().unwrap()).expect("a Labelled");
        assert_eq!(l.label, "here");
        let o = l.origin.as_ref().expect("an origin");
        assert_eq!(
            downcast_value::<Point, _>(&**o).map(|p| (p.x, p.y)),
            Some((0, 0))
        );
    }
}
