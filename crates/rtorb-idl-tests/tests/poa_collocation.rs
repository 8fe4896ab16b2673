//! Collocated calls through generated stubs: the servant is called
//! directly through its servant trait, after the POA has found it and
//! its manager has admitted the call; no connection is opened and
//! nothing is marshaled. Skeletons without the direct path are called
//! with in-memory GIOP.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, mpsc};

use rtorb::exception::{SystemException, SystemExceptionKind, bad_operation};
use rtorb::minor::TRANSIENT_DISCARDED;
use rtorb::object::Stub;
use rtorb::orb::Orb;
use rtorb::poa::{
    IdAssignmentPolicy, Poa, Policy, RequestProcessingPolicy, ServantActivator, ServantManager,
    ServantManagerError,
};
use rtorb::servant::{ServerRequest, Skeleton};
use rtorb_test_support::cubit::{Cubit, CubitImpl, CubitSkeleton, cubit};
use rtorb_test_support::wait::eventually;
use rtorb_test_support::{TIMEOUT, client, server};

fn cube_everything(c: &Cubit) {
    c.cube_void().unwrap();
    assert_eq!(c.cube_octet(3).unwrap(), 27);
    assert_eq!(c.cube_short(-7).unwrap(), -343);
    assert_eq!(c.cube_long(1234).unwrap(), 1_879_080_904);
    let m = cubit::Many { o: 2, l: -3, s: 5 };
    assert_eq!(
        c.cube_struct(&m).unwrap(),
        cubit::Many {
            o: 8,
            l: -27,
            s: 125
        }
    );
    assert_eq!(c.cube_long_sequence(&[1, 2, -3]).unwrap(), vec![1, 8, -27]);
    assert_eq!(&c.cube_octet_sequence(&[2, 3]).unwrap()[..], &[8, 27]);
}

/// A server ORB, whose calls of objects of other ORBs time out as a
/// client's.
fn orb() -> Orb {
    server::builder()
        .round_trip_timeout(TIMEOUT)
        .build()
        .unwrap()
}

#[test]
fn collocated_cubit_calls_run_the_servant_directly() {
    let server = orb();
    let servant = Arc::new(CubitSkeleton(CubitImpl::default()));
    let obj = server.activate(servant.clone()).unwrap();
    let by_reference = Cubit::unchecked_narrow(obj.clone());
    cube_everything(&by_reference);
    // Through the stringified reference too (collocated by endpoint).
    let ior = server.object_to_string(&obj).unwrap();
    let by_ior = Cubit::narrow(server.string_to_object(&ior).unwrap())
        .unwrap()
        .expect("a Cubit");
    cube_everything(&by_ior);
    by_ior.shutdown().unwrap();
    // 9 servant calls per round (cube_struct makes 3), then shutdown.
    assert_eq!(servant.0.calls.load(Ordering::SeqCst), 2 * 9);
    assert!(servant.0.shut_down.load(Ordering::SeqCst));
    let stats = server.stats().collocation;
    assert_eq!(stats.direct_calls, 2 * 7 + 1);
    // The checked narrow needed no call: the type id is Cubit's.
    assert_eq!(stats.marshaled_calls, 0);
    assert_eq!(stats.marshaled_bytes, 0);
    assert_eq!(
        server.stats().idle_client_connections,
        0,
        "no connection was opened"
    );
}

#[test]
fn a_remote_client_gets_the_same_results_over_iiop() {
    let server = orb();
    let obj = server
        .activate(Arc::new(CubitSkeleton(CubitImpl::default())))
        .unwrap();
    let client = client::orb();
    let ior = server.object_to_string(&obj).unwrap();
    let remote = Cubit::unchecked_narrow(client.string_to_object(&ior).unwrap());
    cube_everything(&remote);
    assert_eq!(client.stats().collocation.direct_calls, 0);
    assert_eq!(server.stats().collocation.direct_calls, 0);
    assert!(
        client.stats().idle_client_connections >= 1,
        "the call went over a connection"
    );
}

#[test]
fn collocated_calls_honour_holding_and_discarding_managers() {
    let server = orb();
    let poa = server.root_poa().create_poa("held", None, &[]).unwrap();
    let manager = poa.the_poa_manager();
    let id = poa
        .activate_object(Arc::new(CubitSkeleton(CubitImpl::default())))
        .unwrap();
    let cubit = Cubit::unchecked_narrow(poa.id_to_reference(&id).unwrap());
    let (tx, rx) = mpsc::channel();
    let c = cubit.clone();
    std::thread::spawn(move || {
        let _ = tx.send(c.cube_long(2));
    });
    let _ = eventually(TIMEOUT, || manager.held_requests() == 1);
    assert_eq!(manager.held_requests(), 1, "the collocated call is held");
    // Not answered, and the calling thread still waits.
    assert!(matches!(rx.try_recv(), Err(mpsc::TryRecvError::Empty)));
    manager.activate().unwrap();
    assert_eq!(rx.recv().unwrap().unwrap(), 8);
    manager.discard_requests(false).unwrap();
    let e = cubit.cube_long(2).unwrap_err();
    assert_eq!(e.kind(), Some(SystemExceptionKind::Transient));
    assert_eq!(e.minor, TRANSIENT_DISCARDED);
    // A oneway's failure is not reported, and the servant does not run.
    cubit.shutdown().unwrap();
    assert_eq!(server.stats().collocation.direct_calls, 1);
    assert_eq!(server.stats().idle_client_connections, 0);
}

/// Incarnates a `CubitImpl`, counting.
#[derive(Default)]
struct Activator(AtomicU32);

impl ServantActivator for Activator {
    fn incarnate(
        &self,
        _oid: &[u8],
        _adapter: &Poa,
    ) -> Result<Arc<dyn Skeleton>, ServantManagerError> {
        self.0.fetch_add(1, Ordering::SeqCst);
        Ok(Arc::new(CubitSkeleton(CubitImpl::default())))
    }
    fn etherealize(&self, _: &[u8], _: &Poa, _: Arc<dyn Skeleton>, _: bool, _: bool) {}
}

#[test]
fn a_collocated_call_reaches_a_servant_activator() {
    let server = orb();
    let root = server.root_poa();
    let poa = root
        .create_poa(
            "activated",
            Some(&root.the_poa_manager()),
            &[
                Policy::IdAssignment(IdAssignmentPolicy::UserId),
                Policy::RequestProcessing(RequestProcessingPolicy::UseServantManager),
            ],
        )
        .unwrap();
    let activator = Arc::new(Activator::default());
    poa.set_servant_manager(ServantManager::Activator(activator.clone()))
        .unwrap();
    root.the_poa_manager().activate().unwrap();
    let cubit = Cubit::unchecked_narrow(
        poa.create_reference_with_id(b"c", <Cubit as Stub>::REPOSITORY_ID)
            .unwrap(),
    );
    assert_eq!(cubit.cube_long(3).unwrap(), 27);
    assert_eq!(cubit.cube_long(4).unwrap(), 64);
    assert_eq!(activator.0.load(Ordering::SeqCst), 1);
    assert_eq!(server.stats().collocation.direct_calls, 2);
    assert_eq!(server.stats().collocation.marshaled_calls, 0);
}

/// A hand-written skeleton of `Cubit` without the direct path.
struct Handwritten;

impl Skeleton for Handwritten {
    fn repository_ids(&self) -> &'static [&'static str] {
        &["IDL:Cubit:1.0"]
    }
    fn dispatch(&self, req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
        use rtorb::cdr::{CdrDecode, CdrEncode};
        match req.operation() {
            "cube_long" => {
                let l = i32::decode(req.arguments())?;
                req.write_results(|e| l.wrapping_mul(l).wrapping_mul(l).encode(e))
            }
            _ => Err(bad_operation()),
        }
    }
}

#[test]
fn a_skeleton_without_the_direct_path_is_called_with_in_memory_giop() {
    let server = orb();
    let cubit = Cubit::unchecked_narrow(server.activate(Arc::new(Handwritten)).unwrap());
    assert_eq!(cubit.cube_long(5).unwrap(), 125);
    let e = cubit.cube_short(5).unwrap_err();
    assert_eq!(e.kind(), Some(SystemExceptionKind::BadOperation));
    let stats = server.stats().collocation;
    assert_eq!(stats.direct_calls, 0);
    assert_eq!(stats.marshaled_calls, 2);
    assert!(stats.marshaled_bytes > 0);
    assert_eq!(server.stats().idle_client_connections, 0);
}

/// Gives a fresh `CubitImpl` per request and counts pre- and postinvokes,
/// checking the cookie.
#[derive(Default)]
struct Locator {
    pre: AtomicU32,
    post: AtomicU32,
}

impl rtorb::poa::ServantLocator for Locator {
    fn preinvoke(
        &self,
        _oid: &[u8],
        _adapter: &Poa,
        operation: &str,
    ) -> Result<(Arc<dyn Skeleton>, rtorb::poa::Cookie), ServantManagerError> {
        assert_eq!(operation, "cube_long");
        let n = self.pre.fetch_add(1, Ordering::SeqCst);
        Ok((
            Arc::new(CubitSkeleton(CubitImpl::default())),
            Some(Box::new(n)),
        ))
    }
    fn postinvoke(
        &self,
        _oid: &[u8],
        _adapter: &Poa,
        _operation: &str,
        cookie: rtorb::poa::Cookie,
        _servant: Arc<dyn Skeleton>,
    ) {
        let n = cookie.and_then(|c| c.downcast::<u32>().ok()).map(|b| *b);
        assert_eq!(n, Some(self.post.fetch_add(1, Ordering::SeqCst)));
    }
}

#[test]
fn a_collocated_call_goes_through_a_servant_locator() {
    let server = orb();
    let root = server.root_poa();
    let poa = root
        .create_poa(
            "located",
            Some(&root.the_poa_manager()),
            &[
                Policy::ServantRetention(rtorb::poa::ServantRetentionPolicy::NonRetain),
                Policy::RequestProcessing(RequestProcessingPolicy::UseServantManager),
            ],
        )
        .unwrap();
    let locator = Arc::new(Locator::default());
    poa.set_servant_manager(ServantManager::Locator(locator.clone()))
        .unwrap();
    root.the_poa_manager().activate().unwrap();
    let cubit = Cubit::unchecked_narrow(
        poa.create_reference(<Cubit as Stub>::REPOSITORY_ID)
            .unwrap(),
    );
    for l in 1..=3 {
        assert_eq!(cubit.cube_long(l).unwrap(), l * l * l);
    }
    assert_eq!(locator.pre.load(Ordering::SeqCst), 3);
    assert_eq!(locator.post.load(Ordering::SeqCst), 3);
    assert_eq!(server.stats().collocation.direct_calls, 3);
    assert_eq!(server.stats().collocation.marshaled_calls, 0);
}
