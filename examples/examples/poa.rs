//! The Portable Object Adapter: child POAs with their own policies and
//! managers, a servant activator, a persistent reference, and
//! collocated calls.
//!
//! ```text
//! cargo run -p rtorb-examples --example poa
//! ```
//!
//! Prints what each step does; a client ORB calls the objects over IIOP.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use rtorb::object::Stub;
use rtorb::orb::Orb;
use rtorb::poa::{
    IdAssignmentPolicy, LifespanPolicy, Poa, Policy, RequestProcessingPolicy, ServantActivator,
    ServantManager, ServantManagerError,
};
use rtorb::servant::Skeleton;
use rtorb_examples::Cuber;
use rtorb_examples::cubit_idl::{Cubit, CubitSkeleton};

/// Incarnates a Cubit for any id on its first request.
#[derive(Default)]
struct Activator(AtomicU32);

impl ServantActivator for Activator {
    fn incarnate(
        &self,
        oid: &[u8],
        adapter: &Poa,
    ) -> Result<Arc<dyn Skeleton>, ServantManagerError> {
        let n = self.0.fetch_add(1, Ordering::SeqCst) + 1;
        println!(
            "  incarnate {:?} in {} (incarnation {n})",
            String::from_utf8_lossy(oid),
            adapter.the_name()
        );
        Ok(Arc::new(CubitSkeleton(Cuber::default())))
    }

    fn etherealize(&self, oid: &[u8], _: &Poa, _: Arc<dyn Skeleton>, cleanup: bool, _: bool) {
        println!(
            "  etherealize {:?} (cleanup: {cleanup})",
            String::from_utf8_lossy(oid)
        );
    }
}

fn main() -> std::process::ExitCode {
    rtorb_examples::report("poa", run)
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let orb = Orb::builder().listen("iiop://127.0.0.1:0").build()?;
    let client = Orb::builder()
        .round_trip_timeout(Duration::from_secs(5))
        .build()?;
    let root = Poa::narrow(&orb.resolve_initial_references("RootPOA")?).ok_or("no Root POA")?;
    let manager = root.the_poa_manager();

    // A system-id object on the Root POA: its key indexes the POA and the
    // object directly.
    let id = root.activate_object(Arc::new(CubitSkeleton(Cuber::default())))?;
    let on_root = root.id_to_reference(&id)?;
    println!(
        "Root POA object key: {:02x?}",
        &on_root.target().object_key()[..]
    );

    // A persistent POA with user ids: its references survive restarts on
    // the same endpoint.
    let persistent = root.create_poa(
        "Persistent",
        Some(&manager),
        &[
            Policy::Lifespan(LifespanPolicy::Persistent),
            Policy::IdAssignment(IdAssignmentPolicy::UserId),
        ],
    )?;
    persistent.activate_object_with_id(b"cubit", Arc::new(CubitSkeleton(Cuber::default())))?;
    let stable = persistent.id_to_reference(b"cubit")?;
    println!(
        "persistent key: {:?}",
        String::from_utf8_lossy(stable.target().object_key())
    );

    // A POA whose objects a servant activator incarnates on demand.
    let activated = root.create_poa(
        "Activated",
        Some(&manager),
        &[
            Policy::IdAssignment(IdAssignmentPolicy::UserId),
            Policy::RequestProcessing(RequestProcessingPolicy::UseServantManager),
        ],
    )?;
    activated.set_servant_manager(ServantManager::Activator(Arc::new(Activator::default())))?;
    let lazy = activated.create_reference_with_id(b"lazy", <Cubit as Stub>::REPOSITORY_ID)?;

    println!(
        "manager {} is {:?}; activating",
        manager.get_id(),
        manager.get_state()
    );
    manager.activate()?;

    for (what, obj) in [
        ("root", &on_root),
        ("persistent", &stable),
        ("activated", &lazy),
    ] {
        let remote = Cubit::unchecked_narrow(
            client.string_to_object(&orb.object_to_string(obj).ok_or("no IOR")?)?,
        );
        println!("{what}: cube_long(3) over IIOP = {}", remote.cube_long(3)?);
    }

    // Collocated: the same ORB serves the call without a connection, and
    // the generated stub calls the servant directly through its trait.
    let local = Cubit::unchecked_narrow(lazy.clone());
    println!(
        "activated, collocated: cube_long(4) = {}",
        local.cube_long(4)?
    );
    println!("collocation: {:?}", orb.stats().collocation);

    manager.discard_requests(false)?;
    let e = local.cube_long(5).unwrap_err();
    println!("while discarding: {e}");
    manager.activate()?;

    activated.deactivate_object(b"lazy")?;
    println!("after deactivation: cube_long(2) = {}", local.cube_long(2)?);
    orb.shutdown();
    Ok(())
}
