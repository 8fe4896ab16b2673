//! `PortableServer::Current`: a default servant serving many object ids
//! asks `Current` which object each request is for.
//!
//! ```text
//! cargo run -p rtorb-examples --example poa_current
//! ```

use std::sync::Arc;
use std::time::Duration;

use rtorb::exception::{SystemException, bad_operation};
use rtorb::object::Stub;
use rtorb::orb::Orb;
use rtorb::poa::{
    Current, IdAssignmentPolicy, Policy, RequestProcessingPolicy, ServantRetentionPolicy,
};
use rtorb_examples::account_idl::example::{Account, AccountServant, AccountSkeleton};

/// One servant for every account: the balance is the length of the id
/// times 100, worked out from the request's object id.
struct Accounts;

impl AccountServant for Accounts {
    fn balance(&self) -> Result<u32, SystemException> {
        let current = Current;
        let id = current.get_object_id().map_err(|_| bad_operation())?;
        let poa = current.get_poa().map_err(|_| bad_operation())?;
        println!(
            "  request for {:?} in POA {}",
            String::from_utf8_lossy(&id),
            poa.the_name()
        );
        Ok(id.len() as u32 * 100)
    }
}

fn main() -> std::process::ExitCode {
    rtorb_examples::report("poa_current", run)
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let orb = Orb::builder().listen("iiop://127.0.0.1:0").build()?;
    let client = Orb::builder()
        .round_trip_timeout(Duration::from_secs(5))
        .build()?;
    let root = orb.root_poa();
    let accounts = root.create_poa(
        "Accounts",
        Some(&root.the_poa_manager()),
        &[
            Policy::IdAssignment(IdAssignmentPolicy::UserId),
            Policy::ServantRetention(ServantRetentionPolicy::NonRetain),
            Policy::RequestProcessing(RequestProcessingPolicy::UseDefaultServant),
        ],
    )?;
    accounts.set_servant(Arc::new(AccountSkeleton(Accounts)))?;
    root.the_poa_manager().activate()?;

    println!("outside a request: {:?}", orb.poa_current().get_poa().err());
    for id in ["alice", "bob"] {
        let reference =
            accounts.create_reference_with_id(id.as_bytes(), <Account as Stub>::REPOSITORY_ID)?;
        let ior = orb.object_to_string(&reference).ok_or("no IOR")?;
        let account: Account = client.string_to_object(&ior)?.unchecked_narrow();
        println!("{id}: balance {}", account.balance()?);
    }
    client.shutdown();
    orb.shutdown();
    Ok(())
}
