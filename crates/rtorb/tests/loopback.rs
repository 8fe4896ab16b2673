//! Every Cubit operation, the standard object operations, exceptions and
//! oneways through the loopback, in GIOP 1.0, 1.1 and 1.2 and both byte
//! orders.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use rtorb::cdr::{CdrDecode, CdrEncode};
use rtorb::exception::{CompletionStatus, SystemException, SystemExceptionKind, bad_operation};
use rtorb::loopback::Loopback;
use rtorb::minor::{
    BAD_OPERATION_UNKNOWN_OPERATION, OBJECT_NOT_EXIST_NO_SERVANT, UNKNOWN_UNLISTED_USER_EXCEPTION,
};
use rtorb::object::{Object, Stub};
use rtorb::policy::SyncScope;
use rtorb::servant::{ServerRequest, Skeleton};
use rtorb_cdr::{ByteOrder, Encoding, OMG_VMCID, Version};
use rtorb_giop::ior::{IiopProfile, ObjectReference};
use rtorb_test_support::cubit::guarded::CheckedCubeError;
use rtorb_test_support::cubit::{
    Cubit, CubitImpl, CubitSkeleton, Guarded, GuardedSkeleton, Overflow, cubit,
};

fn configurations() -> Vec<(Version, ByteOrder)> {
    let mut out = Vec::new();
    for v in [Version::V1_0, Version::V1_1, Version::V1_2] {
        for o in [ByteOrder::Big, ByteOrder::Little] {
            out.push((v, o));
        }
    }
    out
}

fn cubit_on(orb: &Arc<Loopback>) -> (Cubit, Arc<AtomicBool>) {
    let servant = CubitImpl::default();
    let flag = servant.shut_down.clone();
    let obj = orb.activate(&b"Cubit"[..], Arc::new(CubitSkeleton(servant)));
    (Cubit::unchecked_narrow(obj), flag)
}

fn kind(e: &SystemException) -> Option<SystemExceptionKind> {
    e.kind()
}

#[test]
fn every_cubit_operation_in_every_version_and_byte_order() {
    for (v, o) in configurations() {
        let orb = Loopback::new(v, o);
        let (c, shut_down) = cubit_on(&orb);
        let ctx = format!("GIOP {v:?} {o:?}");
        c.cube_void().expect(&ctx);
        assert_eq!(c.cube_octet(3).expect(&ctx), 27, "{ctx}");
        assert_eq!(c.cube_octet(7).expect(&ctx), 7u8.wrapping_pow(3), "{ctx}");
        assert_eq!(c.cube_short(-12).expect(&ctx), -1728, "{ctx}");
        assert_eq!(
            c.cube_short(100).expect(&ctx),
            100i16.wrapping_pow(3),
            "{ctx}"
        );
        assert_eq!(c.cube_long(1290).expect(&ctx), 2_146_689_000, "{ctx}");
        assert_eq!(
            c.cube_long(-5000).expect(&ctx),
            (-5000i32).wrapping_pow(3),
            "{ctx}"
        );
        let m = cubit::Many { o: 2, l: -3, s: 4 };
        assert_eq!(
            c.cube_struct(&m).expect(&ctx),
            cubit::Many {
                o: 8,
                l: -27,
                s: 64
            },
            "{ctx}"
        );
        let longs: Vec<i32> = (-600..600).collect();
        let cubed: Vec<i32> = longs.iter().map(|l| l.wrapping_pow(3)).collect();
        assert_eq!(c.cube_long_sequence(&longs).expect(&ctx), cubed, "{ctx}");
        assert_eq!(c.cube_long_sequence(&[]).expect(&ctx), Vec::<i32>::new());
        let octets: Vec<u8> = (0..=255).collect();
        let cubed: Vec<u8> = octets.iter().map(|b| b.wrapping_pow(3)).collect();
        assert_eq!(&c.cube_octet_sequence(&octets).expect(&ctx)[..], &cubed[..]);
        assert!(!shut_down.load(Ordering::SeqCst));
        c.shutdown().expect(&ctx);
        assert!(shut_down.load(Ordering::SeqCst), "{ctx}");
    }
}

/// What the server side saw of a request: operation, argument encoding,
/// response expected, object key.
type Seen = (String, Encoding, bool, Vec<u8>);

/// A skeleton that records what the server side saw of each request.
#[derive(Default)]
struct Recorder {
    seen: Mutex<Vec<Seen>>,
}

impl Skeleton for Recorder {
    fn repository_ids(&self) -> &'static [&'static str] {
        &["IDL:Recorder:1.0"]
    }
    fn dispatch(&self, req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
        let entry = (
            req.operation().to_owned(),
            req.arguments().encoding(),
            req.response_expected(),
            req.object_key().to_vec(),
        );
        self.seen.lock().unwrap().push(entry);
        match req.operation() {
            "echo" => {
                let l = i32::decode(req.arguments())?;
                req.write_results(|e| l.encode(e))
            }
            "ping" => Ok(()),
            _ => Err(bad_operation()),
        }
    }
}

#[test]
fn the_server_reads_the_configured_version_and_byte_order() {
    for (v, o) in configurations() {
        let orb = Loopback::new(v, o);
        let rec = Arc::new(Recorder::default());
        let obj = orb.activate(&b"rec"[..], rec.clone());
        let r: i32 = obj
            .invoke("echo", |e| 0x0102_0304i32.encode(e))
            .unwrap()
            .decode::<_, SystemException>(i32::decode)
            .unwrap();
        assert_eq!(r, 0x0102_0304);
        obj.invoke_oneway("ping", |_| Ok(())).unwrap();
        let seen = rec.seen.lock().unwrap();
        assert_eq!(seen.len(), 2);
        let (op, enc, response, key) = &seen[0];
        assert_eq!((op.as_str(), enc.version, enc.order), ("echo", v, o));
        assert!(*response);
        assert_eq!(key, b"rec");
        let (op, _, response, _) = &seen[1];
        assert_eq!(op, "ping");
        assert!(!*response, "a oneway is sent without response_expected");
    }
}

#[test]
fn is_a_non_existent_and_narrow() {
    for (v, o) in configurations() {
        let orb = Loopback::new(v, o);
        let servant = CubitImpl::default();
        let guarded = orb.activate(&b"G"[..], Arc::new(GuardedSkeleton(servant)));
        assert_eq!(guarded.type_id(), "IDL:Guarded:1.0");
        assert!(guarded.is_a("IDL:Guarded:1.0").unwrap());
        assert!(guarded.is_a("IDL:Cubit:1.0").unwrap());
        assert!(guarded.is_a("IDL:omg.org/CORBA/Object:1.0").unwrap());
        assert!(!guarded.is_a("IDL:Other:1.0").unwrap());
        assert!(!guarded.non_existent().unwrap());

        // A reference with no type id narrows by asking the object.
        let untyped = orb.object("", &b"G"[..]);
        let as_cubit = Cubit::narrow(untyped.clone())
            .unwrap()
            .expect("G is a Cubit");
        assert_eq!(as_cubit.cube_long(3).unwrap(), 27);
        let as_guarded: Guarded = untyped.clone().narrow().unwrap().expect("G is Guarded");
        assert_eq!(as_guarded.checked_cube(2).unwrap(), 8);
        assert_eq!(as_guarded.cube_short(2).unwrap(), 8, "base operation");

        let plain = orb.activate(&b"C"[..], Arc::new(CubitSkeleton(CubitImpl::default())));
        assert!(Guarded::narrow(plain.clone()).unwrap().is_none());
        // Unchecked narrowing to the wrong type: the operation is unknown.
        let wrong = Guarded::unchecked_narrow(plain);
        let err = wrong.checked_cube(2).unwrap_err();
        let CheckedCubeError::System(e) = err else {
            panic!("{err:?}")
        };
        assert_eq!(kind(&e), Some(SystemExceptionKind::BadOperation));
        assert_eq!(e.minor, BAD_OPERATION_UNKNOWN_OPERATION);
        assert_eq!(e.minor, OMG_VMCID | 2);
    }
}

#[test]
fn unknown_operation_is_bad_operation() {
    for (v, o) in configurations() {
        let orb = Loopback::new(v, o);
        let (c, _) = cubit_on(&orb);
        let e = c
            .as_object()
            .invoke("cube_nothing", |_| Ok(()))
            .unwrap_err();
        assert_eq!(kind(&e), Some(SystemExceptionKind::BadOperation));
        assert_eq!(e.minor, OMG_VMCID | 2);
        assert_eq!(e.completed, CompletionStatus::No);
    }
}

#[test]
fn unknown_object_key_is_object_not_exist() {
    for (v, o) in configurations() {
        let orb = Loopback::new(v, o);
        let _ = cubit_on(&orb);
        let ghost = Cubit::unchecked_narrow(orb.object("IDL:Cubit:1.0", &b"nobody"[..]));
        let e = ghost.cube_long(2).unwrap_err();
        assert_eq!(kind(&e), Some(SystemExceptionKind::ObjectNotExist));
        assert_eq!(e.minor, OBJECT_NOT_EXIST_NO_SERVANT);
        assert_eq!(e.completed, CompletionStatus::No);
        assert!(ghost.non_existent().unwrap(), "OBJECT_NOT_EXIST means gone");
        // A oneway to nowhere: no reply, no error, unless it waits.
        ghost.shutdown().unwrap();
        let e = ghost
            .invoke_oneway_with("shutdown", SyncScope::WithTarget, |_| Ok(()))
            .unwrap_err();
        assert_eq!(kind(&e), Some(SystemExceptionKind::ObjectNotExist));
        // Deactivation makes a live object disappear.
        assert!(orb.deactivate(b"Cubit"));
        let gone = Cubit::unchecked_narrow(orb.object("IDL:Cubit:1.0", &b"Cubit"[..]));
        assert!(gone.non_existent().unwrap());
    }
}

#[test]
fn user_exception_round_trip() {
    for (v, o) in configurations() {
        let orb = Loopback::new(v, o);
        let obj = orb.activate(&b"G"[..], Arc::new(GuardedSkeleton(CubitImpl::default())));
        let g = Guarded::unchecked_narrow(obj.clone());
        assert_eq!(g.checked_cube(1290).unwrap(), 2_146_689_000);
        assert_eq!(
            g.checked_cube(1291).unwrap_err(),
            CheckedCubeError::Overflow(Overflow { limit: 1290 })
        );
        // A caller that does not declare the exception sees UNKNOWN.
        let e = obj
            .invoke("checked_cube", |e| 5000i32.encode(e))
            .unwrap()
            .decode::<i32, SystemException>(i32::decode)
            .unwrap_err();
        assert_eq!(kind(&e), Some(SystemExceptionKind::Unknown));
        assert_eq!(e.minor, UNKNOWN_UNLISTED_USER_EXCEPTION);
        assert_eq!(e.completed, CompletionStatus::Yes);
        // The raw reply starts with the repository id.
        let mut reply = obj.invoke("checked_cube", |e| 5000i32.encode(e)).unwrap();
        assert!(reply.is_user_exception());
        assert_eq!(reply.body().read_string().unwrap(), "IDL:Overflow:1.0");
        assert_eq!(i32::decode(reply.body()).unwrap(), 1290);
    }
}

/// A servant whose operations fail with a system exception of their own.
struct Failing;

impl Skeleton for Failing {
    fn repository_ids(&self) -> &'static [&'static str] {
        &["IDL:Failing:1.0"]
    }
    fn dispatch(&self, req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
        // Results written and then abandoned must not reach the client.
        req.write_results(|e| 7i32.encode(e))?;
        Err(SystemException::new(
            SystemExceptionKind::NoResources,
            OMG_VMCID | 1,
            CompletionStatus::Maybe,
        ))
    }
}

#[test]
fn system_exceptions_from_the_servant_reach_the_client_intact() {
    for (v, o) in configurations() {
        let orb = Loopback::new(v, o);
        let obj = orb.activate(&b"F"[..], Arc::new(Failing));
        let e = obj.invoke("anything", |_| Ok(())).unwrap_err();
        assert_eq!(
            e,
            SystemException::new(
                SystemExceptionKind::NoResources,
                OMG_VMCID | 1,
                CompletionStatus::Maybe
            )
        );
    }
}

#[test]
fn marshaling_errors_are_marshal() {
    for (v, o) in configurations() {
        let orb = Loopback::new(v, o);
        let (c, _) = cubit_on(&orb);
        // Arguments missing: the server cannot decode them.
        let e = c.as_object().invoke("cube_long", |_| Ok(())).unwrap_err();
        assert_eq!(kind(&e), Some(SystemExceptionKind::Marshal));
        assert_eq!(e.completed, CompletionStatus::No);
        // Arguments the client cannot encode never leave it.
        let e = c
            .as_object()
            .invoke("cube_long", |e| e.write_string("a\0b"))
            .unwrap_err();
        assert_eq!(kind(&e), Some(SystemExceptionKind::Marshal));
        // Results the client cannot decode as asked.
        let e = c
            .as_object()
            .invoke("cube_octet", |e| 2u8.encode(e))
            .unwrap()
            .decode::<i64, SystemException>(i64::decode)
            .unwrap_err();
        assert_eq!(kind(&e), Some(SystemExceptionKind::Marshal));
        assert_eq!(e.completed, CompletionStatus::Yes);
    }
}

#[test]
fn location_forward_is_followed_by_the_invoker() {
    for (v, o) in configurations() {
        let orb = Loopback::new(v, o);
        let (_, _) = cubit_on(&orb);
        let to = ObjectReference::new(
            "IDL:Cubit:1.0",
            vec![IiopProfile::new(Version::V1_2, "localhost", 2809, &b"Cubit"[..]).into()],
        );
        orb.forward(&b"old"[..], to);
        let old = Cubit::unchecked_narrow(orb.object("IDL:Cubit:1.0", &b"old"[..]));
        assert_eq!(old.cube_long(4).unwrap(), 64);
        // A forward to itself is given up after a bound.
        let me = ObjectReference::new(
            "IDL:Cubit:1.0",
            vec![IiopProfile::new(Version::V1_2, "localhost", 2809, &b"loop"[..]).into()],
        );
        orb.forward(&b"loop"[..], me);
        let looping = Cubit::unchecked_narrow(orb.object("IDL:Cubit:1.0", &b"loop"[..]));
        let e = looping.cube_long(4).unwrap_err();
        assert_eq!(kind(&e), Some(SystemExceptionKind::Transient));
    }
}

#[test]
fn objects_are_shared_between_threads() {
    let orb = Loopback::new(Version::V1_2, ByteOrder::Little);
    let (c, _) = cubit_on(&orb);
    let threads: Vec<_> = (0..4)
        .map(|t| {
            let c = c.clone();
            std::thread::spawn(move || {
                for i in 0..200 {
                    let l = t * 1000 + i;
                    assert_eq!(c.cube_long(l).unwrap(), l.wrapping_pow(3));
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let obj: Object = c.into_object();
    assert_eq!(obj.type_id(), "IDL:Cubit:1.0");
}
