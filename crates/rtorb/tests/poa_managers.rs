//! POA manager states over real IIOP connections: held requests wait
//! until the manager is activated (up to the hold limit), discarding
//! gives `TRANSIENT`, inactive gives `OBJ_ADAPTER`, shutdown lets held
//! requests go, and waiting for completion from inside a request is
//! refused.

mod poa_common;

use std::sync::mpsc;
use std::sync::{Arc, OnceLock};

use poa_common::{TAGGED_ID, tagged, who};
use rtorb::cdr::CdrEncode;
use rtorb::exception::{SystemException, SystemExceptionKind, bad_operation};
use rtorb::minor::{BAD_INV_ORDER_WOULD_DEADLOCK, OBJ_ADAPTER_INACTIVE, TRANSIENT_DISCARDED};
use rtorb::object::Object;
use rtorb::orb::Orb;
use rtorb::poa::{Poa, PoaError, PoaManager, State};
use rtorb::servant::{ServerRequest, Skeleton};
use rtorb_test_support::server::remote;
use rtorb_test_support::wait::eventually;
use rtorb_test_support::{TIMEOUT, client, server};

/// A POA with a manager of its own (holding), an object in it, and that
/// object as a client over IIOP sees it.
fn held_object(orb: &Orb, c: &Orb, name: &str) -> (Poa, Object) {
    let poa = orb.root_poa().create_poa(name, None, &[]).unwrap();
    let id = poa.activate_object(tagged(1)).unwrap();
    let obj = remote(orb, c, &poa.id_to_reference(&id).unwrap());
    (poa, obj)
}

/// Calls `who` on another thread; the receiver gets the outcome.
fn call_in_background(obj: &Object) -> mpsc::Receiver<Result<u32, SystemException>> {
    let (tx, rx) = mpsc::channel();
    let obj = obj.clone();
    std::thread::spawn(move || {
        let _ = tx.send(who(&obj));
    });
    rx
}

/// Waits until `manager` holds `n` requests.
fn wait_held(manager: &PoaManager, n: usize) {
    if !eventually(TIMEOUT, || manager.held_requests() == n) {
        panic!("{} requests held, not {n}", manager.held_requests());
    }
}

#[test]
fn held_requests_run_once_the_manager_is_activated() {
    let orb = server::orb();
    let c = client::orb();
    let (poa, obj) = held_object(&orb, &c, "held");
    let manager = poa.the_poa_manager();
    assert_eq!(manager.get_state(), State::Holding);
    let first = call_in_background(&obj);
    let second = call_in_background(&obj);
    wait_held(&manager, 2);
    assert!(
        matches!(first.try_recv(), Err(mpsc::TryRecvError::Empty)),
        "held, not answered"
    );
    manager.activate().unwrap();
    assert_eq!(first.recv().unwrap().unwrap(), 1);
    assert_eq!(second.recv().unwrap().unwrap(), 1);
    assert_eq!(manager.held_requests(), 0);
    // Holding again: held again.
    manager.hold_requests(true).unwrap();
    let third = call_in_background(&obj);
    wait_held(&manager, 1);
    manager.activate().unwrap();
    assert_eq!(third.recv().unwrap().unwrap(), 1);
}

#[test]
fn discarding_gives_transient_to_new_and_held_requests() {
    let orb = server::orb();
    let c = client::orb();
    let (poa, obj) = held_object(&orb, &c, "discard");
    let manager = poa.the_poa_manager();
    let held = call_in_background(&obj);
    wait_held(&manager, 1);
    manager.discard_requests(false).unwrap();
    let e = held.recv().unwrap().unwrap_err();
    assert_eq!(e.kind(), Some(SystemExceptionKind::Transient));
    assert_eq!(e.minor, TRANSIENT_DISCARDED);
    let e = who(&obj).unwrap_err();
    assert_eq!(e.kind(), Some(SystemExceptionKind::Transient));
    assert_eq!(e.minor, TRANSIENT_DISCARDED);
    manager.activate().unwrap();
    assert_eq!(who(&obj).unwrap(), 1);
}

#[test]
fn an_inactive_manager_gives_obj_adapter_for_good() {
    let orb = server::orb();
    let c = client::orb();
    let (poa, obj) = held_object(&orb, &c, "inactive");
    let manager = poa.the_poa_manager();
    let held = call_in_background(&obj);
    wait_held(&manager, 1);
    manager.deactivate(false, true).unwrap();
    let e = held.recv().unwrap().unwrap_err();
    assert_eq!(e.kind(), Some(SystemExceptionKind::ObjAdapter));
    assert_eq!(e.minor, OBJ_ADAPTER_INACTIVE);
    let e = who(&obj).unwrap_err();
    assert_eq!(e.kind(), Some(SystemExceptionKind::ObjAdapter));
    assert_eq!(manager.activate().unwrap_err(), PoaError::AdapterInactive);
    assert_eq!(
        manager.hold_requests(false).unwrap_err(),
        PoaError::AdapterInactive
    );
    assert_eq!(
        manager.discard_requests(false).unwrap_err(),
        PoaError::AdapterInactive
    );
    assert_eq!(manager.get_state(), State::Inactive);
    // Other managers are not affected.
    let other = orb.activate(tagged(2)).unwrap();
    assert_eq!(who(&remote(&orb, &c, &other)).unwrap(), 2);
}

#[test]
fn requests_beyond_the_hold_limit_are_transient() {
    let orb = server::builder().poa_hold_limit(1).build().unwrap();
    let c = client::orb();
    let (poa, obj) = held_object(&orb, &c, "limited");
    let manager = poa.the_poa_manager();
    assert_eq!(manager.hold_limit(), 1);
    let held = call_in_background(&obj);
    wait_held(&manager, 1);
    let e = who(&obj).unwrap_err();
    assert_eq!(e.kind(), Some(SystemExceptionKind::Transient));
    assert_eq!(e.minor, TRANSIENT_DISCARDED);
    manager.activate().unwrap();
    assert_eq!(held.recv().unwrap().unwrap(), 1);
}

#[test]
fn shutdown_lets_held_requests_go() {
    let orb = server::orb();
    let c = client::orb();
    let (poa, obj) = held_object(&orb, &c, "shutdown");
    let held = call_in_background(&obj);
    wait_held(&poa.the_poa_manager(), 1);
    orb.shutdown();
    let e = held.recv_timeout(TIMEOUT).expect("an answer").unwrap_err();
    assert_eq!(e.kind(), Some(SystemExceptionKind::Transient), "{e:?}");
    assert!(poa.is_destroyed());
}

/// A servant that, in a request, asks its POA's manager to hold
/// requests and wait for completion.
struct Waiter(Arc<OnceLock<PoaManager>>);

impl Skeleton for Waiter {
    fn repository_ids(&self) -> &'static [&'static str] {
        &[TAGGED_ID]
    }
    fn dispatch(&self, req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
        match req.operation() {
            "who" => {
                let m = self.0.get().expect("a manager");
                let minor = match m.hold_requests(true) {
                    Err(PoaError::System(e)) => e.minor,
                    _ => 0,
                };
                // Refused: the state did not change.
                let minor = if m.get_state() == State::Active {
                    minor
                } else {
                    1
                };
                req.write_results(|e| minor.encode(e))
            }
            _ => Err(bad_operation()),
        }
    }
}

#[test]
fn waiting_for_completion_inside_a_request_is_bad_inv_order() {
    let orb = server::orb();
    let c = client::orb();
    let manager = Arc::new(OnceLock::new());
    let root = orb.root_poa();
    let _ = manager.set(root.the_poa_manager());
    let obj = orb.activate(Arc::new(Waiter(manager.clone()))).unwrap();
    assert_eq!(
        who(&remote(&orb, &c, &obj)).unwrap(),
        BAD_INV_ORDER_WOULD_DEADLOCK
    );
    // Collocated, the same.
    assert_eq!(who(&obj).unwrap(), BAD_INV_ORDER_WOULD_DEADLOCK);
    assert_eq!(root.the_poa_manager().get_state(), State::Active);
}

#[test]
fn collocated_calls_honour_the_manager() {
    let orb = server::orb();
    let poa = orb.root_poa().create_poa("local", None, &[]).unwrap();
    let manager = poa.the_poa_manager();
    let id = poa.activate_object(tagged(3)).unwrap();
    let obj = poa.id_to_reference(&id).unwrap();
    let held = call_in_background(&obj);
    wait_held(&manager, 1);
    manager.activate().unwrap();
    assert_eq!(held.recv().unwrap().unwrap(), 3);
    manager.discard_requests(false).unwrap();
    assert_eq!(
        who(&obj).unwrap_err().kind(),
        Some(SystemExceptionKind::Transient)
    );
    assert_eq!(
        orb.stats().idle_client_connections,
        0,
        "no connection was opened"
    );
    assert!(orb.stats().collocation.marshaled_calls >= 1);
}
