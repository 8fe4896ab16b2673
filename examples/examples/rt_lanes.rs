//! Thread pools with lanes: a server with a low and a high lane, each
//! listening on its own endpoint with threads fixed at its priority; an
//! object in each, by its declared priority. A client reaches each object
//! through its lane's endpoint, and a `corbaloc` to the server's own port
//! is forwarded to the lane.
//!
//! ```text
//! cargo run -p rtorb-examples --example rt_lanes
//! ```
//!
//! The priorities map onto nice values (SCHED_OTHER), which any process
//! may lower itself to; with `-ORBSchedPolicy SCHED_FIFO` the lanes' threads
//! would run under SCHED_FIFO instead.

use std::sync::Arc;
use std::time::Duration;

use rtorb::exception::SystemException;
use rtorb::orb::Orb;
use rtorb::rt::{LaneConfig, Priority, PriorityModelPolicy, SchedPolicy, ThreadpoolConfig};
use rtorb_examples::account_idl::example::{Account, AccountServant, AccountSkeleton};

/// Answers the CORBA priority of the thread its upcall runs on.
struct Teller;

impl AccountServant for Teller {
    fn balance(&self) -> Result<u32, SystemException> {
        Ok(rtorb::rt::thread_priority().map_or(0, |p| p.get() as u32))
    }
}

fn main() -> std::process::ExitCode {
    rtorb_examples::report("rt_lanes", run)
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let low = Priority::new(0)?;
    let high = Priority::new(8_000)?;
    // The high lane's threads on the last CPU (as a high-priority client
    // thread would be, with `rtorb::rt::set_thread_affinity`): a request
    // and its reply then wake their threads without crossing CPUs.
    let last = *rtorb::rt::available_cpus()?.last().ok_or("no CPU")?;
    let server = Orb::builder()
        .listen("iiop://127.0.0.1:0")
        .sched_policy(SchedPolicy::Other)
        // As `-ORBLane 0:1 -ORBLane 8000:2`.
        .threadpool(
            ThreadpoolConfig::new()
                .lane(LaneConfig::new(low).static_threads(1))
                .lane(LaneConfig::new(high).static_threads(2).cpus([last])),
        )
        .build()?;
    let pool = server.threadpools()[0];
    for (priority, endpoints) in server.lane_endpoints(pool).ok_or("no pool")? {
        println!("lane at {}: {}", priority.get(), endpoints.join(" "));
    }
    let mut iors = Vec::new();
    for (key, priority) in [("Low", low), ("High", high)] {
        let object = server.activate_with_key_at(
            key.as_bytes(),
            Arc::new(AccountSkeleton(Teller)),
            PriorityModelPolicy::server_declared(priority),
        )?;
        iors.push((key, server.object_to_string(&object).ok_or("no IOR")?));
    }

    let client = Orb::builder()
        .round_trip_timeout(Duration::from_secs(5))
        .build()?;
    for (key, ior) in &iors {
        let account: Account = client.string_to_object(ior)?.unchecked_narrow();
        println!("{key} object ran at {}", account.balance()?);
    }
    // A corbaloc names the server's own port: the first call is forwarded
    // to the lane, and the reference remembers where.
    let main = server.endpoints()[0]
        .trim_start_matches("iiop://")
        .to_owned();
    let url = format!("corbaloc::1.2@{main}/High");
    let account: Account = client.string_to_object(&url)?.unchecked_narrow();
    for _ in 0..2 {
        println!("{url} ran at {}", account.balance()?);
    }
    server.shutdown();
    Ok(())
}
