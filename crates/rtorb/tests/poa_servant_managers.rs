//! Servant activators, servant locators (with their cookie) and adapter
//! activators, reached over IIOP.

mod poa_common;

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use poa_common::{TAGGED_ID, tagged, who};
use rtorb::exception::{SystemException, SystemExceptionKind};
use rtorb::minor::{
    BAD_INV_ORDER_SERVANT_MANAGER_SET, OBJ_ADAPTER_NO_SERVANT_MANAGER, UNKNOWN_SERVANT_PANICKED,
};
use rtorb::object::Object;
use rtorb::poa::{
    AdapterActivator, Cookie, ForwardRequest, IdAssignmentPolicy, Poa, PoaError, Policy,
    RequestProcessingPolicy, ServantActivator, ServantLocator, ServantManager, ServantManagerError,
    ServantRetentionPolicy,
};
use rtorb::servant::Skeleton;
use rtorb_test_support::hold::Hold;
use rtorb_test_support::server::remote;
use rtorb_test_support::{TIMEOUT, client, server};

/// Incarnates `Tagged(n)` for the n-th incarnation; records
/// etherealizations.
#[derive(Default)]
struct Activator {
    incarnations: AtomicU32,
    etherealized: Mutex<Vec<(Vec<u8>, bool, bool)>>,
    /// Ids to forward, and where.
    forward: Mutex<Option<(Vec<u8>, Object)>>,
}

impl ServantActivator for Activator {
    fn incarnate(
        &self,
        oid: &[u8],
        _adapter: &Poa,
    ) -> Result<Arc<dyn Skeleton>, ServantManagerError> {
        if let Some((id, to)) = &*self.forward.lock().unwrap() {
            if id == oid {
                return Err(ForwardRequest(to.clone()).into());
            }
        }
        if oid == b"refuse" {
            return Err(SystemException::new(
                SystemExceptionKind::NoPermission,
                7,
                rtorb::exception::CompletionStatus::No,
            )
            .into());
        }
        let n = self.incarnations.fetch_add(1, Ordering::SeqCst) + 1;
        Ok(tagged(n))
    }

    fn etherealize(
        &self,
        oid: &[u8],
        _adapter: &Poa,
        _servant: Arc<dyn Skeleton>,
        cleanup_in_progress: bool,
        remaining_activations: bool,
    ) {
        self.etherealized.lock().unwrap().push((
            oid.to_vec(),
            cleanup_in_progress,
            remaining_activations,
        ));
    }
}

fn activator_poa(orb: &rtorb::orb::Orb, name: &str, user: bool) -> (Poa, Arc<Activator>) {
    let root = orb.root_poa();
    let mut policies = vec![Policy::RequestProcessing(
        RequestProcessingPolicy::UseServantManager,
    )];
    if user {
        policies.push(Policy::IdAssignment(IdAssignmentPolicy::UserId));
    }
    let poa = root
        .create_poa(name, Some(&root.the_poa_manager()), &policies)
        .unwrap();
    let activator = Arc::new(Activator::default());
    poa.set_servant_manager(ServantManager::Activator(activator.clone()))
        .unwrap();
    root.the_poa_manager().activate().unwrap();
    (poa, activator)
}

#[test]
fn an_activator_incarnates_on_the_first_request_and_etherealizes_on_deactivation() {
    let orb = server::orb();
    let c = client::orb();
    let (poa, activator) = activator_poa(&orb, "activated", true);
    let obj = remote(
        &orb,
        &c,
        &poa.create_reference_with_id(b"x", TAGGED_ID).unwrap(),
    );
    assert_eq!(
        poa.id_to_servant(b"x").err(),
        Some(PoaError::ObjectNotActive)
    );
    assert_eq!(who(&obj).unwrap(), 1);
    assert_eq!(who(&obj).unwrap(), 1, "kept in the active object map");
    assert_eq!(activator.incarnations.load(Ordering::SeqCst), 1);
    assert!(poa.id_to_servant(b"x").is_ok());
    poa.deactivate_object(b"x").unwrap();
    assert_eq!(
        *activator.etherealized.lock().unwrap(),
        vec![(b"x".to_vec(), false, false)]
    );
    assert_eq!(who(&obj).unwrap(), 2, "incarnated again");
    // A system exception from incarnate reaches the client.
    let refused = remote(
        &orb,
        &c,
        &poa.create_reference_with_id(b"refuse", TAGGED_ID).unwrap(),
    );
    let e = who(&refused).unwrap_err();
    assert_eq!(
        (e.kind(), e.minor),
        (Some(SystemExceptionKind::NoPermission), 7)
    );
    // Destroying the POA etherealizes, as cleanup.
    poa.destroy(true, true).unwrap();
    assert_eq!(
        activator.etherealized.lock().unwrap().last().unwrap(),
        &(b"x".to_vec(), true, false)
    );
}

#[test]
fn an_activator_with_system_ids_incarnates_into_the_reserved_slot() {
    let orb = server::orb();
    let c = client::orb();
    let (poa, activator) = activator_poa(&orb, "system", false);
    let local = poa.create_reference(TAGGED_ID).unwrap();
    let id = poa.reference_to_id(&local).unwrap();
    let obj = remote(&orb, &c, &local);
    assert_eq!(who(&obj).unwrap(), 1);
    assert!(poa.id_to_servant(&id).is_ok());
    assert_eq!(
        poa.id_to_reference(&id).unwrap().target().object_key(),
        local.target().object_key()
    );
    // Deactivated: the id stays valid for the activator.
    poa.deactivate_object(&id).unwrap();
    assert_eq!(who(&obj).unwrap(), 2);
    assert_eq!(activator.incarnations.load(Ordering::SeqCst), 2);
    // An id naming a slot never assigned, or with another generation, is
    // not incarnated.
    let mut forged = local.target().object_key().to_vec();
    let n = forged.len();
    forged[n - 4] ^= 1;
    let e = who(&remote(&orb, &c, &object_with_key(&orb, &forged))).unwrap_err();
    assert_eq!(e.kind(), Some(SystemExceptionKind::ObjectNotExist));
    forged[n - 4] ^= 1;
    forged[n - 8] ^= 0x40;
    let e = who(&remote(&orb, &c, &object_with_key(&orb, &forged))).unwrap_err();
    assert_eq!(e.kind(), Some(SystemExceptionKind::ObjectNotExist));
    assert_eq!(activator.incarnations.load(Ordering::SeqCst), 2);
}

fn object_with_key(orb: &rtorb::orb::Orb, key: &[u8]) -> Object {
    let r = orb.reference(TAGGED_ID, &bytes::Bytes::copy_from_slice(key));
    Object::new(
        orb.invoker(),
        rtorb::object::Target::from_reference(r).unwrap(),
    )
}

#[test]
fn a_forward_request_from_incarnate_forwards_the_client() {
    let orb = server::orb();
    let c = client::orb();
    let (poa, activator) = activator_poa(&orb, "forwarding", true);
    let elsewhere = orb.activate(tagged(42)).unwrap();
    *activator.forward.lock().unwrap() = Some((b"moved".to_vec(), elsewhere));
    let obj = remote(
        &orb,
        &c,
        &poa.create_reference_with_id(b"moved", TAGGED_ID).unwrap(),
    );
    assert_eq!(who(&obj).unwrap(), 42);
    let local = poa.create_reference_with_id(b"moved", TAGGED_ID).unwrap();
    assert_eq!(who(&local).unwrap(), 42, "collocated");
}

/// Serves `Tagged(id length)`, counting calls; the cookie carries a
/// number from preinvoke to postinvoke.
#[derive(Default)]
struct Locator {
    next: AtomicU32,
    log: Mutex<Vec<String>>,
}

impl ServantLocator for Locator {
    fn preinvoke(
        &self,
        oid: &[u8],
        _adapter: &Poa,
        operation: &str,
    ) -> Result<(Arc<dyn Skeleton>, Cookie), ServantManagerError> {
        if oid == b"nobody" {
            return Err(SystemException::new(
                SystemExceptionKind::ObjectNotExist,
                99,
                rtorb::exception::CompletionStatus::No,
            )
            .into());
        }
        let n = self.next.fetch_add(1, Ordering::SeqCst);
        self.log.lock().unwrap().push(format!(
            "pre {} {operation} {n}",
            String::from_utf8_lossy(oid)
        ));
        Ok((tagged(oid.len() as u32), Some(Box::new(n))))
    }

    fn postinvoke(
        &self,
        oid: &[u8],
        _adapter: &Poa,
        operation: &str,
        cookie: Cookie,
        _servant: Arc<dyn Skeleton>,
    ) {
        let n = cookie
            .and_then(|c| c.downcast::<u32>().ok())
            .map(|b| *b)
            .unwrap_or(u32::MAX);
        self.log.lock().unwrap().push(format!(
            "post {} {operation} {n}",
            String::from_utf8_lossy(oid)
        ));
    }
}

#[test]
fn a_locator_is_asked_around_every_request_and_gets_its_cookie_back() {
    let orb = server::orb();
    let c = client::orb();
    let root = orb.root_poa();
    let poa = root
        .create_poa(
            "located",
            Some(&root.the_poa_manager()),
            &[
                Policy::IdAssignment(IdAssignmentPolicy::UserId),
                Policy::ServantRetention(ServantRetentionPolicy::NonRetain),
                Policy::RequestProcessing(RequestProcessingPolicy::UseServantManager),
            ],
        )
        .unwrap();
    root.the_poa_manager().activate().unwrap();
    let none = remote(
        &orb,
        &c,
        &poa.create_reference_with_id(b"abc", TAGGED_ID).unwrap(),
    );
    let e = who(&none).unwrap_err();
    assert_eq!(e.kind(), Some(SystemExceptionKind::ObjAdapter));
    assert_eq!(e.minor, OBJ_ADAPTER_NO_SERVANT_MANAGER);
    let locator = Arc::new(Locator::default());
    assert!(matches!(
        poa.set_servant_manager(ServantManager::Activator(Arc::new(Activator::default()))),
        Err(PoaError::System(e)) if e.minor == OBJ_ADAPTER_NO_SERVANT_MANAGER
    ));
    poa.set_servant_manager(ServantManager::Locator(locator.clone()))
        .unwrap();
    assert!(matches!(
        poa.set_servant_manager(ServantManager::Locator(locator.clone())),
        Err(PoaError::System(e)) if e.minor == BAD_INV_ORDER_SERVANT_MANAGER_SET
    ));
    assert!(matches!(
        poa.get_servant_manager(),
        Ok(Some(ServantManager::Locator(_)))
    ));
    assert_eq!(who(&none).unwrap(), 3);
    let other = remote(
        &orb,
        &c,
        &poa.create_reference_with_id(b"de", TAGGED_ID).unwrap(),
    );
    assert_eq!(who(&other).unwrap(), 2);
    assert!(other.is_a(TAGGED_ID).unwrap());
    assert_eq!(
        *locator.log.lock().unwrap(),
        [
            "pre abc who 0",
            "post abc who 0",
            "pre de who 1",
            "post de who 1",
            "pre de _is_a 2",
            "post de _is_a 2",
        ]
    );
    let nobody = remote(
        &orb,
        &c,
        &poa.create_reference_with_id(b"nobody", TAGGED_ID).unwrap(),
    );
    let e = who(&nobody).unwrap_err();
    assert_eq!(
        (e.kind(), e.minor),
        (Some(SystemExceptionKind::ObjectNotExist), 99)
    );
    assert_eq!(
        locator.log.lock().unwrap().len(),
        6,
        "no postinvoke without preinvoke"
    );
}

/// Makes the child it is asked for, with a user-id object `obj` in it.
struct Maker(AtomicU32);

impl AdapterActivator for Maker {
    fn unknown_adapter(&self, parent: &Poa, name: &str) -> bool {
        if name == "never" {
            return false;
        }
        self.0.fetch_add(1, Ordering::SeqCst);
        let poa = parent
            .create_poa(
                name,
                Some(&parent.the_poa_manager()),
                &[Policy::IdAssignment(IdAssignmentPolicy::UserId)],
            )
            .unwrap();
        poa.activate_object_with_id(b"obj", tagged(5)).unwrap();
        true
    }
}

#[test]
fn an_adapter_activator_makes_children_on_demand() {
    let orb = server::orb();
    let root = orb.root_poa();
    let maker = Arc::new(Maker(AtomicU32::new(0)));
    root.set_the_activator(Some(maker.clone()));
    assert!(root.the_activator().is_some());
    assert_eq!(
        root.find_poa("made", false).err(),
        Some(PoaError::AdapterNonExistent)
    );
    let made = root.find_poa("made", true).unwrap();
    assert_eq!(made.the_name(), "made");
    assert_eq!(root.find_poa("made", true).unwrap(), made);
    assert_eq!(maker.0.load(Ordering::SeqCst), 1);
    assert_eq!(
        root.find_poa("never", true).err(),
        Some(PoaError::AdapterNonExistent)
    );
}

/// A servant whose `who` waits until the gate opens.
struct Gate {
    hold: Arc<Hold>,
}

impl Skeleton for Gate {
    fn repository_ids(&self) -> &'static [&'static str] {
        &[TAGGED_ID]
    }
    fn dispatch(&self, req: &mut rtorb::servant::ServerRequest<'_>) -> Result<(), SystemException> {
        use rtorb::cdr::CdrEncode;
        assert!(self.hold.enter(TIMEOUT), "the gate opens");
        req.write_results(|e| 77u32.encode(e))
    }
}

/// Incarnates one `Gate`, records etherealizations.
struct GateActivator {
    gate: Mutex<Option<Gate>>,
    etherealized: Mutex<Vec<(Vec<u8>, bool)>>,
}

impl ServantActivator for GateActivator {
    fn incarnate(&self, _: &[u8], _: &Poa) -> Result<Arc<dyn Skeleton>, ServantManagerError> {
        let gate = self.gate.lock().unwrap().take().expect("one incarnation");
        Ok(Arc::new(gate))
    }
    fn etherealize(&self, oid: &[u8], _: &Poa, _: Arc<dyn Skeleton>, cleanup: bool, _: bool) {
        self.etherealized
            .lock()
            .unwrap()
            .push((oid.to_vec(), cleanup));
    }
}

#[test]
fn an_object_with_a_running_request_is_etherealized_when_the_request_ends() {
    let orb = server::orb();
    let c = client::orb();
    let root = orb.root_poa();
    let poa = root
        .create_poa(
            "gated",
            Some(&root.the_poa_manager()),
            &[
                Policy::IdAssignment(IdAssignmentPolicy::UserId),
                Policy::RequestProcessing(RequestProcessingPolicy::UseServantManager),
            ],
        )
        .unwrap();
    let hold = Arc::new(Hold::new());
    let activator = Arc::new(GateActivator {
        gate: Mutex::new(Some(Gate { hold: hold.clone() })),
        etherealized: Mutex::new(Vec::new()),
    });
    poa.set_servant_manager(ServantManager::Activator(activator.clone()))
        .unwrap();
    root.the_poa_manager().activate().unwrap();
    let obj = remote(
        &orb,
        &c,
        &poa.create_reference_with_id(b"g", TAGGED_ID).unwrap(),
    );
    let call = std::thread::spawn(move || who(&obj));
    assert!(
        hold.wait_entered(TIMEOUT),
        "the request reaches the servant"
    );
    poa.destroy(true, false).unwrap();
    assert!(
        activator.etherealized.lock().unwrap().is_empty(),
        "not while its request runs"
    );
    hold.open();
    assert_eq!(call.join().unwrap().unwrap(), 77);
    assert_eq!(
        *activator.etherealized.lock().unwrap(),
        vec![(b"g".to_vec(), true)]
    );
}

/// A `LocateRequest` (what `_validate_connection` sends) finds its object
/// as a request would: through the servant activator, which incarnates
/// it (or forwards it, or refuses it), and through the POA manager.
#[test]
fn a_locate_request_goes_through_the_activator_and_the_manager() {
    let orb = server::orb();
    let c = client::orb();
    let (poa, activator) = activator_poa(&orb, "locating", true);

    // Not yet incarnated: the locate incarnates it, once.
    let obj = remote(
        &orb,
        &c,
        &poa.create_reference_with_id(b"x", TAGGED_ID).unwrap(),
    );
    assert_eq!(obj.validate_connection(), Ok(true));
    assert_eq!(activator.incarnations.load(Ordering::SeqCst), 1);
    assert!(poa.id_to_servant(b"x").is_ok(), "incarnated by the locate");
    assert_eq!(who(&obj).unwrap(), 1, "the request finds it");
    assert_eq!(activator.incarnations.load(Ordering::SeqCst), 1);

    // Refused by the activator: the exception, in GIOP 1.2.
    let refused = remote(
        &orb,
        &c,
        &poa.create_reference_with_id(b"refuse", TAGGED_ID).unwrap(),
    );
    let e = refused.validate_connection().unwrap_err();
    assert_eq!(
        (e.kind(), e.minor),
        (Some(SystemExceptionKind::NoPermission), 7)
    );

    // Forwarded by the activator: the locate follows the forward.
    let elsewhere = orb.activate(tagged(42)).unwrap();
    *activator.forward.lock().unwrap() = Some((b"moved".to_vec(), elsewhere));
    let moved = remote(
        &orb,
        &c,
        &poa.create_reference_with_id(b"moved", TAGGED_ID).unwrap(),
    );
    assert_eq!(moved.validate_connection(), Ok(true));
    assert_eq!(who(&moved).unwrap(), 42);

    // A discarding manager: TRANSIENT, as for a request.
    poa.the_poa_manager().discard_requests(false).unwrap();
    let e = obj.validate_connection().unwrap_err();
    assert_eq!(e.kind(), Some(SystemExceptionKind::Transient));
    poa.the_poa_manager().activate().unwrap();
    assert_eq!(obj.validate_connection(), Ok(true));
}

/// In a POA without servant manager, an object that is not active is
/// unknown to a locate, and an active one is here.
#[test]
fn a_locate_request_for_an_inactive_object_is_unknown() {
    let orb = server::orb();
    let c = client::orb();
    let root = orb.root_poa();
    let poa = root
        .create_poa(
            "plain",
            Some(&root.the_poa_manager()),
            &[Policy::IdAssignment(IdAssignmentPolicy::UserId)],
        )
        .unwrap();
    root.the_poa_manager().activate().unwrap();
    let absent = remote(
        &orb,
        &c,
        &poa.create_reference_with_id(b"absent", TAGGED_ID).unwrap(),
    );
    let e = absent.validate_connection().unwrap_err();
    assert_eq!(e.kind(), Some(SystemExceptionKind::ObjectNotExist));
    poa.activate_object_with_id(b"absent", tagged(5)).unwrap();
    assert_eq!(absent.validate_connection(), Ok(true));
    assert_eq!(who(&absent).unwrap(), 5);
}

/// A `LocateRequest` to a POA with a servant locator goes through the POA
/// manager as a request does (discarding: `TRANSIENT`), and does not call
/// the locator (no operation runs).
#[test]
fn a_locate_request_to_a_locator_poa_goes_through_the_manager() {
    let orb = server::orb();
    let c = client::orb();
    let root = orb.root_poa();
    let poa = root
        .create_poa(
            "locating-locator",
            None,
            &[
                Policy::IdAssignment(IdAssignmentPolicy::UserId),
                Policy::ServantRetention(ServantRetentionPolicy::NonRetain),
                Policy::RequestProcessing(RequestProcessingPolicy::UseServantManager),
            ],
        )
        .unwrap();
    let locator = Arc::new(Locator::default());
    poa.set_servant_manager(ServantManager::Locator(locator.clone()))
        .unwrap();
    let manager = poa.the_poa_manager();
    manager.activate().unwrap();
    let obj = remote(
        &orb,
        &c,
        &poa.create_reference_with_id(b"abc", TAGGED_ID).unwrap(),
    );
    assert_eq!(obj.validate_connection(), Ok(true));
    assert!(
        locator.log.lock().unwrap().is_empty(),
        "the locator is not asked"
    );
    manager.discard_requests(false).unwrap();
    let e = obj.validate_connection().unwrap_err();
    assert_eq!(e.kind(), Some(SystemExceptionKind::Transient));
    manager.activate().unwrap();
    assert_eq!(obj.validate_connection(), Ok(true));
}

/// Incarnates `Tagged(1)`, but panics for the id `boom`.
struct Panicky;

impl ServantActivator for Panicky {
    fn incarnate(
        &self,
        oid: &[u8],
        _adapter: &Poa,
    ) -> Result<Arc<dyn Skeleton>, ServantManagerError> {
        assert!(oid != b"boom", "an activator that panics");
        Ok(tagged(1))
    }

    fn etherealize(&self, _: &[u8], _: &Poa, _: Arc<dyn Skeleton>, _: bool, _: bool) {}
}

/// A servant manager that panics fails that request (or locate) with
/// `UNKNOWN`; the server goes on serving, in every concurrency strategy.
#[test]
fn a_servant_manager_that_panics_gives_unknown_and_the_server_goes_on() {
    use rtorb::orb::ServerStrategy;
    for strategy in ServerStrategy::ALL {
        let orb = server::with_strategy(strategy);
        let c = client::orb();
        let root = orb.root_poa();
        let poa = root
            .create_poa(
                "panicky",
                Some(&root.the_poa_manager()),
                &[
                    Policy::IdAssignment(IdAssignmentPolicy::UserId),
                    Policy::RequestProcessing(RequestProcessingPolicy::UseServantManager),
                ],
            )
            .unwrap();
        poa.set_servant_manager(ServantManager::Activator(Arc::new(Panicky)))
            .unwrap();
        root.the_poa_manager().activate().unwrap();
        let boom = remote(
            &orb,
            &c,
            &poa.create_reference_with_id(b"boom", TAGGED_ID).unwrap(),
        );
        let fine = remote(
            &orb,
            &c,
            &poa.create_reference_with_id(b"fine", TAGGED_ID).unwrap(),
        );
        for _ in 0..3 {
            let e = who(&boom).unwrap_err();
            assert_eq!(
                (e.kind(), e.minor),
                (Some(SystemExceptionKind::Unknown), UNKNOWN_SERVANT_PANICKED),
                "{strategy:?}"
            );
            let e = boom.validate_connection().unwrap_err();
            assert_eq!(e.kind(), Some(SystemExceptionKind::Unknown), "{strategy:?}");
            assert_eq!(who(&fine).unwrap(), 1, "{strategy:?}: still serving");
        }
    }
}
