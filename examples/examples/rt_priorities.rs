//! Real-time CORBA priorities end to end: a client thread's CORBA
//! priority travels with its calls to objects of a `CLIENT_PROPAGATED`
//! POA, and their upcalls run at it; objects of a `SERVER_DECLARED` POA
//! run at the priority their server declared, whatever the caller's.
//!
//! ```text
//! cargo run -p rtorb-examples --example rt_priorities
//! ```
//!
//! The priorities map linearly onto SCHED_FIFO; where the process may not
//! use it (not root, no CAP_SYS_NICE), rtorb says so once and the threads
//! run on under SCHED_OTHER, their CORBA priorities still carried and
//! reported.

use std::sync::Arc;
use std::time::Duration;

use rtorb::exception::SystemException;
use rtorb::orb::Orb;
use rtorb::poa::Policy;
use rtorb::rt::{Priority, PriorityModelPolicy};
use rtorb_examples::account_idl::example::{Account, AccountServant, AccountSkeleton};

/// Answers the CORBA priority its upcall runs at.
struct Teller;

impl AccountServant for Teller {
    fn balance(&self) -> Result<u32, SystemException> {
        Ok(rtorb::rt::thread_priority().map_or(0, |p| p.get() as u32))
    }
}

fn main() -> std::process::ExitCode {
    rtorb_examples::report("rt_priorities", run)
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let orb = Orb::builder().listen("iiop://127.0.0.1:0").build()?;
    let root = orb.root_poa();
    let manager = root.the_poa_manager();
    let propagated = root.create_poa(
        "Propagated",
        Some(&manager),
        &[Policy::PriorityModel(
            PriorityModelPolicy::client_propagated(Priority::MIN),
        )],
    )?;
    let declared = root.create_poa(
        "Declared",
        Some(&manager),
        &[Policy::PriorityModel(PriorityModelPolicy::server_declared(
            Priority::new(20_000)?,
        ))],
    )?;
    manager.activate()?;
    let mut iors = Vec::new();
    for poa in [&propagated, &declared] {
        let id = poa.activate_object(Arc::new(AccountSkeleton(Teller)))?;
        let reference = poa.id_to_reference(&id)?;
        iors.push((
            poa.the_name(),
            orb.object_to_string(&reference).ok_or("no IOR")?,
        ));
    }

    let client = Orb::builder()
        .round_trip_timeout(Duration::from_secs(5))
        .build()?;
    for caller in [100, 30_000] {
        let current = client.rt_current();
        let accounts: Vec<(String, Account)> = iors
            .iter()
            .map(|(name, ior)| {
                Ok((
                    name.to_string(),
                    client.string_to_object(ior)?.unchecked_narrow(),
                ))
            })
            .collect::<Result<_, rtorb::orb::OrbError>>()?;
        let lines = std::thread::spawn(move || -> Result<Vec<String>, SystemException> {
            current.set_priority(Priority::new(caller).map_err(SystemException::from)?)?;
            let mut lines = Vec::new();
            for (name, account) in &accounts {
                let ran_at = account.balance()?;
                lines.push(format!("caller at {caller}: {name} object ran at {ran_at}"));
            }
            Ok(lines)
        })
        .join()
        .map_err(|_| "the caller panicked")??;
        for line in lines {
            println!("{line}");
        }
    }
    client.shutdown();
    orb.shutdown();
    Ok(())
}
