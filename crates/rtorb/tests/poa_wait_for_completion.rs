//! `wait_for_completion`: `POAManager::hold_requests`,
//! `discard_requests`, `deactivate` and `POA::destroy` return once the
//! requests running when they were called have ended (over IIOP and
//! collocated), and refuse with `BAD_INV_ORDER` (minor 3) to wait from
//! inside a request of the same ORB, servant managers' calls included,
//! while waiting from a request of another ORB is allowed.

mod poa_common;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, mpsc};

use poa_common::{TAGGED_ID, tagged, who};
use rtorb::cdr::CdrEncode;
use rtorb::exception::{SystemException, bad_operation};
use rtorb::minor::BAD_INV_ORDER_WOULD_DEADLOCK;
use rtorb::object::Object;
use rtorb::orb::Orb;
use rtorb::poa::{
    IdAssignmentPolicy, Poa, PoaError, PoaManager, Policy, RequestProcessingPolicy,
    ServantActivator, ServantManager, ServantManagerError, State,
};
use rtorb::servant::{ServerRequest, Skeleton};
use rtorb_test_support::hold::Hold;
use rtorb_test_support::server::remote;
use rtorb_test_support::wait::eventually;
use rtorb_test_support::{TIMEOUT, client, server};

/// Orders events across threads.
static SEQUENCE: AtomicU64 = AtomicU64::new(1);

fn next() -> u64 {
    SEQUENCE.fetch_add(1, Ordering::SeqCst)
}

/// A servant whose `who` enters its hold, waits until the hold opens, and
/// notes when it ends.
#[derive(Default)]
struct Gated {
    hold: Hold,
    ended_at: AtomicU64,
}

impl Skeleton for Gated {
    fn repository_ids(&self) -> &'static [&'static str] {
        &[TAGGED_ID]
    }
    fn dispatch(&self, req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
        match req.operation() {
            "who" => {
                assert!(self.hold.enter(TIMEOUT), "the gate opens");
                self.ended_at.store(next(), Ordering::SeqCst);
                req.write_results(|e| 7u32.encode(e))
            }
            _ => Err(bad_operation()),
        }
    }
}

/// Skeletons are kept by the POA as `Arc<dyn Skeleton>`: this one
/// forwards to a shared `Gated`.
struct GatedSkeleton(Arc<Gated>);

impl Skeleton for GatedSkeleton {
    fn repository_ids(&self) -> &'static [&'static str] {
        self.0.repository_ids()
    }
    fn dispatch(&self, req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
        self.0.dispatch(req)
    }
}

#[derive(Clone, Copy, Debug)]
enum Wait {
    Hold,
    Discard,
    Deactivate,
    Destroy,
}

impl Wait {
    fn run(self, poa: &Poa, manager: &PoaManager) -> Result<(), PoaError> {
        match self {
            Wait::Hold => manager.hold_requests(true),
            Wait::Discard => manager.discard_requests(true),
            Wait::Deactivate => manager.deactivate(false, true),
            Wait::Destroy => poa.destroy(false, true),
        }
    }
}

/// Runs `wait` while a request is blocked in its servant, and checks
/// that it returns only after the request has ended.
fn waits_for_the_running_request(orb: &Orb, c: Option<&Orb>, wait: Wait, name: &str) {
    let poa = orb.root_poa().create_poa(name, None, &[]).unwrap();
    let manager = poa.the_poa_manager();
    manager.activate().unwrap();
    let gated = Arc::new(Gated::default());
    let id = poa
        .activate_object(Arc::new(GatedSkeleton(gated.clone())))
        .unwrap();
    let local = poa.id_to_reference(&id).unwrap();
    let obj = match c {
        Some(c) => remote(orb, c, &local),
        None => local,
    };
    let caller = std::thread::spawn(move || who(&obj));
    assert!(
        gated.hold.wait_entered(TIMEOUT),
        "the request reaches the servant"
    );
    assert_eq!(manager.running_requests(), 1, "{wait:?}");
    let (done_tx, done) = mpsc::channel();
    let waiter = {
        let (poa, manager) = (poa.clone(), manager.clone());
        std::thread::spawn(move || {
            let r = wait.run(&poa, &manager);
            let at = next();
            let _ = done_tx.send(());
            (r, at)
        })
    };
    // The state changes before the wait starts: the waiter has got there.
    assert!(
        eventually(TIMEOUT, || match wait {
            Wait::Hold => manager.get_state() == State::Holding,
            Wait::Discard => manager.get_state() == State::Discarding,
            Wait::Deactivate => manager.get_state() == State::Inactive,
            Wait::Destroy => poa.is_destroyed(),
        }),
        "{wait:?}: the state does not change"
    );
    // The request is still blocked: the waiter cannot have returned.
    assert!(
        matches!(done.try_recv(), Err(mpsc::TryRecvError::Empty)),
        "{wait:?} returned early"
    );
    gated.hold.open();
    let (r, returned_at) = waiter.join().unwrap();
    r.unwrap();
    let ended_at = gated.ended_at.load(Ordering::SeqCst);
    assert!(ended_at > 0);
    assert!(
        ended_at < returned_at,
        "{wait:?} returned before the request ended"
    );
    assert_eq!(manager.running_requests(), 0, "{wait:?} after the wait");
    assert_eq!(caller.join().unwrap().unwrap(), 7, "{wait:?}");
}

#[test]
fn waiting_for_completion_returns_after_the_running_requests_over_iiop() {
    let orb = server::orb();
    let c = client::orb();
    for (i, wait) in [Wait::Hold, Wait::Discard, Wait::Deactivate, Wait::Destroy]
        .into_iter()
        .enumerate()
    {
        waits_for_the_running_request(&orb, Some(&c), wait, &format!("iiop{i}"));
    }
}

#[test]
fn waiting_for_completion_returns_after_the_running_requests_collocated() {
    let orb = server::orb();
    for (i, wait) in [Wait::Hold, Wait::Discard, Wait::Deactivate, Wait::Destroy]
        .into_iter()
        .enumerate()
    {
        waits_for_the_running_request(&orb, None, wait, &format!("local{i}"));
    }
}

/// In `who`, waits for completion with `wait` on its own POA and
/// manager (or, with `other`, on another ORB's), and answers the minor
/// code of the exception (0 if none).
struct Waiter {
    wait: Wait,
    mine: OnceLock<(Poa, PoaManager)>,
    other: Option<(Poa, PoaManager)>,
}

impl Skeleton for Waiter {
    fn repository_ids(&self) -> &'static [&'static str] {
        &[TAGGED_ID]
    }
    fn dispatch(&self, req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
        let (poa, manager) = match &self.other {
            Some(o) => o,
            None => self.mine.get().expect("set"),
        };
        let minor = match self.wait.run(poa, manager) {
            Ok(()) => 0,
            Err(PoaError::System(e)) => e.minor,
            Err(e) => panic!("{e:?}"),
        };
        req.write_results(|e| minor.encode(e))
    }
}

#[test]
fn waiting_for_completion_inside_a_request_of_the_same_orb_is_bad_inv_order() {
    let orb = server::orb();
    let c = client::orb();
    for (i, wait) in [Wait::Hold, Wait::Discard, Wait::Deactivate, Wait::Destroy]
        .into_iter()
        .enumerate()
    {
        let poa = orb
            .root_poa()
            .create_poa(&format!("w{i}"), None, &[])
            .unwrap();
        let manager = poa.the_poa_manager();
        manager.activate().unwrap();
        let waiter = Arc::new(Waiter {
            wait,
            mine: OnceLock::new(),
            other: None,
        });
        let _ = waiter.mine.set((poa.clone(), manager.clone()));
        let id = poa.activate_object(waiter).unwrap();
        let local = poa.id_to_reference(&id).unwrap();
        for obj in [remote(&orb, &c, &local), local] {
            assert_eq!(who(&obj).unwrap(), BAD_INV_ORDER_WOULD_DEADLOCK, "{wait:?}");
            // Refused: nothing changed.
            assert_eq!(manager.get_state(), State::Active, "{wait:?}");
            assert!(!poa.is_destroyed(), "{wait:?}");
        }
        // Outside a request, it is done.
        wait.run(&poa, &manager).unwrap();
    }
}

#[test]
fn waiting_for_completion_inside_a_request_of_another_orb_waits() {
    let orb = server::orb();
    let other = server::orb();
    let c = client::orb();
    for (i, wait) in [Wait::Hold, Wait::Discard, Wait::Deactivate, Wait::Destroy]
        .into_iter()
        .enumerate()
    {
        let theirs = other
            .root_poa()
            .create_poa(&format!("t{i}"), None, &[])
            .unwrap();
        let their_manager = theirs.the_poa_manager();
        their_manager.activate().unwrap();
        let obj = orb
            .activate(Arc::new(Waiter {
                wait,
                mine: OnceLock::new(),
                other: Some((theirs.clone(), their_manager.clone())),
            }))
            .unwrap();
        assert_eq!(who(&remote(&orb, &c, &obj)).unwrap(), 0, "{wait:?}");
        match wait {
            Wait::Hold => assert_eq!(their_manager.get_state(), State::Holding),
            Wait::Discard => assert_eq!(their_manager.get_state(), State::Discarding),
            Wait::Deactivate => assert_eq!(their_manager.get_state(), State::Inactive),
            Wait::Destroy => assert!(theirs.is_destroyed()),
        }
    }
}

/// An activator that, in `incarnate`, waits for completion on its POA's
/// manager and notes the outcome.
#[derive(Default)]
struct WaitingActivator {
    outcome: Mutex<Option<Result<(), PoaError>>>,
}

impl ServantActivator for WaitingActivator {
    fn incarnate(
        &self,
        _oid: &[u8],
        adapter: &Poa,
    ) -> Result<Arc<dyn Skeleton>, ServantManagerError> {
        *self.outcome.lock().unwrap() = Some(adapter.the_poa_manager().deactivate(false, true));
        Ok(tagged(3))
    }

    fn etherealize(&self, _: &[u8], _: &Poa, _: Arc<dyn Skeleton>, _: bool, _: bool) {}
}

#[test]
fn waiting_for_completion_inside_a_servant_managers_call_is_bad_inv_order() {
    let orb = server::orb();
    let c = client::orb();
    let root = orb.root_poa();
    let poa = root
        .create_poa(
            "activated",
            None,
            &[
                Policy::IdAssignment(IdAssignmentPolicy::UserId),
                Policy::RequestProcessing(RequestProcessingPolicy::UseServantManager),
            ],
        )
        .unwrap();
    let activator = Arc::new(WaitingActivator::default());
    poa.set_servant_manager(ServantManager::Activator(activator.clone()))
        .unwrap();
    poa.the_poa_manager().activate().unwrap();
    let obj: Object = remote(
        &orb,
        &c,
        &poa.create_reference_with_id(b"x", TAGGED_ID).unwrap(),
    );
    assert_eq!(who(&obj).unwrap(), 3);
    match activator.outcome.lock().unwrap().take() {
        Some(Err(PoaError::System(e))) => assert_eq!(e.minor, BAD_INV_ORDER_WOULD_DEADLOCK),
        other => panic!("{other:?}"),
    }
    assert_eq!(poa.the_poa_manager().get_state(), State::Active);
}
