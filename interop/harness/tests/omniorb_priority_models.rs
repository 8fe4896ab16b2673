//! omniORB, which has no Real-time CORBA, calls rtorb objects whose POAs
//! have a priority model: it reads references that carry the
//! `TAG_POLICIES` component, sends no priority, and its requests run at
//! the priority the server declared, or at the POA's default for the
//! `CLIENT_PROPAGATED` model. A missing omniORB fails these tests.

use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rtorb::orb::Orb;
use rtorb::poa::Policy;
use rtorb::rt::{Priority, PriorityModelPolicy, SchedPolicy};
use rtorb::runtime::{ServerRequest, Skeleton, SystemException};
use rtorb_interop::ensure_peers;
use rtorb_interop::process::run_to_end;
use rtorb_test_support::cubit::{CubitImpl, CubitSkeleton};

const TIMEOUT: Duration = Duration::from_secs(20);

/// A Cubit that notes the CORBA priority each upcall runs at.
struct Noting {
    cubit: Arc<dyn Skeleton>,
    seen: Mutex<Vec<Option<i16>>>,
}

impl Skeleton for Noting {
    fn repository_ids(&self) -> &'static [&'static str] {
        self.cubit.repository_ids()
    }

    fn dispatch(&self, req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
        let priority = rtorb::rt::thread_priority().map(Priority::get);
        self.seen
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(priority);
        self.cubit.dispatch(req)
    }
}

/// Runs omniORB's `cubit_client` on a Cubit in a POA of `model`; the
/// priorities its upcalls ran at.
fn omniorb_calls(model: PriorityModelPolicy) -> Vec<Option<i16>> {
    let peers = ensure_peers().unwrap_or_else(|e| panic!("the omniORB peers cannot be built: {e}"));
    // Nice values: no privilege needed for the priorities used here.
    let orb = Orb::builder()
        .listen("iiop://127.0.0.1:0")
        .sched_policy(SchedPolicy::Other)
        .build()
        .unwrap();
    let root = orb.root_poa();
    let poa = root
        .create_poa(
            "rt",
            Some(&root.the_poa_manager()),
            &[Policy::PriorityModel(model)],
        )
        .unwrap();
    root.the_poa_manager().activate().unwrap();
    let noting = Arc::new(Noting {
        cubit: Arc::new(CubitSkeleton(CubitImpl::default())),
        seen: Mutex::new(Vec::new()),
    });
    let id = poa.activate_object(noting.clone()).unwrap();
    let ior = orb
        .object_to_string(&poa.id_to_reference(&id).unwrap())
        .unwrap();
    let mut command = Command::new(&peers.cubit_client);
    command
        .arg("-ORBclientCallTimeOutPeriod")
        .arg(TIMEOUT.as_millis().to_string())
        .arg(&ior);
    let (status, output) = run_to_end(&mut command, "cubit_client", TIMEOUT)
        .unwrap_or_else(|e| panic!("cubit_client: {e}"));
    assert!(status.success(), "cubit_client failed ({status}): {output}");
    orb.shutdown();
    let seen = noting
        .seen
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    assert!(!seen.is_empty(), "no upcall: {output}");
    seen
}

#[test]
fn omniorb_requests_run_at_the_declared_priority() {
    let declared = Priority::new(4567).unwrap();
    let seen = omniorb_calls(PriorityModelPolicy::server_declared(declared));
    assert!(seen.iter().all(|p| *p == Some(4567)), "{seen:?}");
}

#[test]
fn omniorb_requests_run_at_the_client_propagated_default() {
    let default = Priority::new(123).unwrap();
    let seen = omniorb_calls(PriorityModelPolicy::client_propagated(default));
    assert!(seen.iter().all(|p| *p == Some(123)), "{seen:?}");
}
