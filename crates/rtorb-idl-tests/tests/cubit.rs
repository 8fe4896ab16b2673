//! Every Cubit operation through the generated stub and skeleton, over the
//! loopback in each GIOP version and byte order.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rtorb::object::Stub;
use rtorb_test_support::cubit::{Cubit, CubitImpl, CubitSkeleton, cubit};
use rtorb_test_support::loopback::{VERSIONS, loopbacks};

fn each_loopback(f: impl Fn(Cubit, &Arc<AtomicBool>)) {
    for orb in loopbacks(&VERSIONS) {
        let servant = CubitImpl::default();
        let flag = servant.shut_down.clone();
        let obj = orb.activate(&b"Cubit"[..], Arc::new(CubitSkeleton(servant)));
        let cubit = Cubit::narrow(obj).unwrap().expect("a Cubit");
        f(cubit, &flag);
    }
}

#[test]
fn every_operation_in_every_version_and_order() {
    each_loopback(|c, flag| {
        c.cube_void().unwrap();
        assert_eq!(c.cube_octet(3).unwrap(), 27);
        assert_eq!(c.cube_octet(7).unwrap(), 7u8.wrapping_mul(49));
        assert_eq!(c.cube_short(-12).unwrap(), -1728);
        assert_eq!(c.cube_long(1290).unwrap(), 2_146_689_000);
        assert_eq!(c.cube_long(-3).unwrap(), -27);
        let m = c.cube_struct(&cubit::Many { o: 2, l: -5, s: 11 }).unwrap();
        assert_eq!(
            m,
            cubit::Many {
                o: 8,
                l: -125,
                s: 1331
            }
        );
        assert_eq!(
            c.cube_long_sequence(&[1, -2, 3, 1000]).unwrap(),
            vec![1, -8, 27, 1_000_000_000]
        );
        assert!(c.cube_long_sequence(&[]).unwrap().is_empty());
        assert_eq!(
            &c.cube_octet_sequence(&[0, 1, 2, 3]).unwrap()[..],
            &[0, 1, 8, 27]
        );
        assert!(!flag.load(Ordering::SeqCst));
        c.shutdown().unwrap();
        assert!(
            flag.load(Ordering::SeqCst),
            "the oneway reached the servant"
        );
    });
}

#[test]
fn the_skeleton_answers_is_a_and_rejects_unknown_operations() {
    each_loopback(|c, _| {
        assert!(c.as_object().is_a("IDL:Cubit:1.0").unwrap());
        assert!(c.as_object().is_a("IDL:omg.org/CORBA/Object:1.0").unwrap());
        assert!(!c.as_object().is_a("IDL:Other:1.0").unwrap());
        let err = c
            .as_object()
            .invoke("cube_nothing", |_| Ok(()))
            .unwrap_err();
        assert_eq!(err, rtorb::exception::bad_operation());
    });
}

#[test]
fn truncated_arguments_are_marshal() {
    each_loopback(|c, _| {
        let err = c
            .as_object()
            .invoke("cube_long", |e| {
                e.write_u16(1);
                Ok(())
            })
            .unwrap_err();
        assert_eq!(
            err.kind(),
            Some(rtorb::exception::SystemExceptionKind::Marshal)
        );
    });
}

#[test]
fn the_struct_round_trips_through_cdr_and_any() {
    let m = cubit::Many { o: 1, l: 2, s: 3 };
    let any = rtorb_cdr::Any::new(&m).unwrap();
    assert_eq!(any.type_code().id(), Some("IDL:Cubit/Many:1.0"));
    assert_eq!(any.get::<cubit::Many>().unwrap(), m);
}
