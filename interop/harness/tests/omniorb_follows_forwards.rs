//! omniORB's `cubit_client` reaches an rtorb Cubit through references that
//! rtorb forwards, by every path a server forwards with: a plain key
//! forwarded with `Orb::forward`, a servant activator and a servant
//! locator that raise `ForwardRequest`. Given an IOR, omniORB asks with a
//! GIOP 1.2 LocateRequest first, so the forwarding LocateReply (its body
//! right after the status, as omniORB reads it) is exercised along with
//! the LOCATION_FORWARD replies. A missing omniORB fails these tests.

use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use rtorb::orb::Orb;
use rtorb::poa::{
    Cookie, ForwardRequest, IdAssignmentPolicy, Poa, Policy, RequestProcessingPolicy,
    ServantActivator, ServantLocator, ServantManager, ServantManagerError, ServantRetentionPolicy,
};
use rtorb::runtime::{Object, Skeleton};
use rtorb_interop::ensure_peers;
use rtorb_interop::process::run_to_end;
use rtorb_test_support::cubit::{CubitImpl, CubitSkeleton};

const TIMEOUT: Duration = Duration::from_secs(20);
const CUBIT_ID: &str = "IDL:Cubit:1.0";

/// Runs omniORB's `cubit_client` on `target`; it exits 0 only if every
/// result was right.
fn run_omniorb_client(target: &str, what: &str) {
    let peers = ensure_peers().unwrap_or_else(|e| panic!("the omniORB peers cannot be built: {e}"));
    let mut command = Command::new(&peers.cubit_client);
    command
        .arg("-ORBclientCallTimeOutPeriod")
        .arg(TIMEOUT.as_millis().to_string())
        .arg(target);
    let (status, output) = run_to_end(&mut command, "cubit_client", TIMEOUT)
        .unwrap_or_else(|e| panic!("cubit_client ({what}): {e}"));
    assert!(
        status.success(),
        "cubit_client ({what}) failed ({status}): {output}"
    );
}

/// A server with the Cubit under the plain key `Cubit`, and the object.
fn server() -> (Orb, Object) {
    let orb = Orb::builder()
        .listen("iiop://127.0.0.1:0")
        .build()
        .expect("server ORB");
    let cubit = orb.activate_with_key(&b"Cubit"[..], Arc::new(CubitSkeleton(CubitImpl::default())));
    (orb, cubit)
}

/// Forwards every object it is asked to incarnate to `to`.
struct ForwardingActivator {
    to: Object,
}

impl ServantActivator for ForwardingActivator {
    fn incarnate(
        &self,
        _oid: &[u8],
        _adapter: &Poa,
    ) -> Result<Arc<dyn Skeleton>, ServantManagerError> {
        Err(ForwardRequest(self.to.clone()).into())
    }

    fn etherealize(
        &self,
        _oid: &[u8],
        _adapter: &Poa,
        _servant: Arc<dyn Skeleton>,
        _cleanup_in_progress: bool,
        _remaining_activations: bool,
    ) {
    }
}

/// Forwards every request to `to`.
struct ForwardingLocator {
    to: Object,
}

impl ServantLocator for ForwardingLocator {
    fn preinvoke(
        &self,
        _oid: &[u8],
        _adapter: &Poa,
        _operation: &str,
    ) -> Result<(Arc<dyn Skeleton>, Cookie), ServantManagerError> {
        Err(ForwardRequest(self.to.clone()).into())
    }

    fn postinvoke(
        &self,
        _oid: &[u8],
        _adapter: &Poa,
        _operation: &str,
        _cookie: Cookie,
        _servant: Arc<dyn Skeleton>,
    ) {
    }
}

/// A child POA of `orb` with user ids and `manager`.
fn managed_poa(orb: &Orb, name: &str, retain: bool, manager: ServantManager) -> Poa {
    let root = orb.root_poa();
    let mut policies = vec![
        Policy::RequestProcessing(RequestProcessingPolicy::UseServantManager),
        Policy::IdAssignment(IdAssignmentPolicy::UserId),
    ];
    if !retain {
        policies.push(Policy::ServantRetention(ServantRetentionPolicy::NonRetain));
    }
    let poa = root
        .create_poa(name, Some(&root.the_poa_manager()), &policies)
        .expect("child POA");
    poa.set_servant_manager(manager).expect("servant manager");
    root.the_poa_manager().activate().expect("POA manager");
    poa
}

#[test]
fn omniorb_follows_a_forwarded_plain_key() {
    let (orb, cubit) = server();
    let reference = cubit.target().reference().expect("a reference").clone();
    let forwarded = orb.forward(&b"Elsewhere"[..], reference);
    let ior = orb.object_to_string(&forwarded).expect("an IOR");
    run_omniorb_client(&ior, "a plain key forwarded with Orb::forward");
    orb.shutdown();
}

#[test]
fn omniorb_follows_a_servant_activator_that_forwards() {
    let (orb, cubit) = server();
    let poa = managed_poa(
        &orb,
        "activated",
        true,
        ServantManager::Activator(Arc::new(ForwardingActivator { to: cubit })),
    );
    let obj = poa
        .create_reference_with_id(b"c", CUBIT_ID)
        .expect("a reference");
    let ior = orb.object_to_string(&obj).expect("an IOR");
    run_omniorb_client(&ior, "a servant activator raising ForwardRequest");
    orb.shutdown();
}

#[test]
fn omniorb_follows_a_servant_locator_that_forwards() {
    let (orb, cubit) = server();
    let poa = managed_poa(
        &orb,
        "located",
        false,
        ServantManager::Locator(Arc::new(ForwardingLocator { to: cubit })),
    );
    let obj = poa
        .create_reference_with_id(b"c", CUBIT_ID)
        .expect("a reference");
    let ior = orb.object_to_string(&obj).expect("an IOR");
    run_omniorb_client(&ior, "a servant locator raising ForwardRequest");
    orb.shutdown();
}
