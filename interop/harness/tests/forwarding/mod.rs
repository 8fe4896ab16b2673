//! The rtorb side of the forwarding tests: a server with a Cubit under a
//! plain key, and the three ways it forwards to it (a plain key forwarded
//! with `Orb::forward`, a servant activator and a servant locator that
//! raise `ForwardRequest`), as stringified references a peer's client is
//! given.

#![allow(dead_code, unreachable_pub)]

use std::sync::Arc;

use rtorb::object::Object;
use rtorb::orb::Orb;
use rtorb::poa::{
    Cookie, ForwardRequest, IdAssignmentPolicy, Poa, Policy, RequestProcessingPolicy,
    ServantActivator, ServantLocator, ServantManager, ServantManagerError, ServantRetentionPolicy,
};
use rtorb::servant::Skeleton;
use rtorb_test_support::cubit::{CubitImpl, CubitSkeleton};
use rtorb_test_support::server;

/// The Cubit's repository id.
pub const CUBIT_ID: &str = "IDL:Cubit:1.0";

/// The ways an rtorb server forwards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Path {
    /// A plain key forwarded with `Orb::forward`.
    PlainKey,
    /// A servant activator raising `ForwardRequest`.
    Activator,
    /// A servant locator raising `ForwardRequest`.
    Locator,
}

impl Path {
    /// Every path.
    pub const ALL: [Path; 3] = [Path::PlainKey, Path::Activator, Path::Locator];

    /// What the path is, for messages.
    pub fn describe(self) -> &'static str {
        match self {
            Path::PlainKey => "a plain key forwarded with Orb::forward",
            Path::Activator => "a servant activator raising ForwardRequest",
            Path::Locator => "a servant locator raising ForwardRequest",
        }
    }
}

/// A server that forwards by `path` to its Cubit, and the IOR a client is
/// given. Shut the ORB down at the end.
pub fn forwarding_server(path: Path) -> (Orb, String) {
    let (orb, cubit) = cubit_server();
    let forwarder = match path {
        Path::PlainKey => {
            let reference = cubit.target().reference().expect("a reference").clone();
            orb.forward(&b"Elsewhere"[..], reference).unwrap()
        }
        Path::Activator => managed_poa(
            &orb,
            "activated",
            true,
            ServantManager::Activator(Arc::new(ForwardingActivator { to: cubit })),
        )
        .create_reference_with_id(b"c", CUBIT_ID)
        .expect("a reference"),
        Path::Locator => managed_poa(
            &orb,
            "located",
            false,
            ServantManager::Locator(Arc::new(ForwardingLocator { to: cubit })),
        )
        .create_reference_with_id(b"c", CUBIT_ID)
        .expect("a reference"),
    };
    let ior = orb.object_to_string(&forwarder).expect("an IOR");
    (orb, ior)
}

/// A server with the Cubit under the plain key `Cubit`, and the object.
pub fn cubit_server() -> (Orb, Object) {
    let orb = server::orb();
    let cubit = orb
        .activate_with_key(&b"Cubit"[..], Arc::new(CubitSkeleton(CubitImpl::default())))
        .unwrap();
    (orb, cubit)
}

/// Forwards every object it is asked to incarnate to `to`.
pub struct ForwardingActivator {
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
pub struct ForwardingLocator {
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
pub fn managed_poa(orb: &Orb, name: &str, retain: bool, manager: ServantManager) -> Poa {
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
