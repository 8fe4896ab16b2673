//! The rtorb side of the Real-time CORBA tests with omniORB: a Cubit that
//! notes where each upcall runs, and omniORB's `cubit_client` run on a
//! reference to it.

#![allow(dead_code, unreachable_pub)]

use std::process::Command;
use std::sync::{Arc, Mutex};

use rtorb::exception::SystemException;
use rtorb::orb::Orb;
use rtorb::rt::{LaneConfig, Priority, PriorityModelPolicy, ThreadpoolConfig};
use rtorb::servant::{ServerRequest, Skeleton};
use rtorb_interop::ensure_peers;
use rtorb_interop::process::run_to_end;
use rtorb_test_support::TIMEOUT;
use rtorb_test_support::cubit::{CubitImpl, CubitSkeleton};
use rtorb_test_support::net::iiop_address;
use rtorb_test_support::priority::{activate_in_poa, nice_server};

/// Where an upcall ran: the thread's name and its CORBA priority.
pub type Upcall = (String, Option<i16>);

/// A Cubit that notes the thread and CORBA priority of each upcall.
pub struct Noting {
    cubit: Arc<dyn Skeleton>,
    seen: Mutex<Vec<Upcall>>,
}

impl Noting {
    /// A Cubit that has noted nothing yet.
    pub fn new() -> Arc<Noting> {
        Arc::new(Noting {
            cubit: Arc::new(CubitSkeleton(CubitImpl::default())),
            seen: Mutex::new(Vec::new()),
        })
    }

    /// The upcalls noted so far, in order.
    pub fn seen(&self) -> Vec<Upcall> {
        self.seen.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

impl Skeleton for Noting {
    fn repository_ids(&self) -> &'static [&'static str] {
        self.cubit.repository_ids()
    }

    fn dispatch(&self, req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
        let thread = std::thread::current().name().unwrap_or("").to_owned();
        let priority = rtorb::rt::thread_priority().map(Priority::get);
        self.seen
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((thread, priority));
        self.cubit.dispatch(req)
    }
}

/// Runs omniORB's `cubit_client` on `target` (an IOR or a `corbaloc`),
/// which must succeed; its output. A missing omniORB fails the test.
pub fn cubit_client(target: &str) -> String {
    let peers = ensure_peers().unwrap_or_else(|e| panic!("the omniORB peers cannot be built: {e}"));
    let mut command = Command::new(&peers.cubit_client);
    command
        .arg("-ORBclientCallTimeOutPeriod")
        .arg(TIMEOUT.as_millis().to_string())
        .arg(target);
    let (status, output) = run_to_end(&mut command, "cubit_client", TIMEOUT)
        .unwrap_or_else(|e| panic!("cubit_client: {e}"));
    assert!(status.success(), "cubit_client failed ({status}): {output}");
    output
}

/// Runs JacORB's `CubitDiiClient` on `target` (an IOR or a `corbaloc`)
/// for `calls` calls, which must all succeed; its output. A missing JDK,
/// Maven or JacORB fails the test.
pub fn jacorb_client(target: &str, calls: u32) -> String {
    let peers = rtorb_interop::ensure_jacorb()
        .unwrap_or_else(|e| panic!("the JacORB peers cannot be built: {e}"));
    let mut command = peers.java("CubitDiiClient", &[]);
    command.arg(target).arg(calls.to_string());
    // The first run of a JVM on a loaded machine is slow.
    let (status, output) = run_to_end(&mut command, "CubitDiiClient", 3 * TIMEOUT)
        .unwrap_or_else(|e| panic!("CubitDiiClient: {e}"));
    assert!(
        status.success() && output.contains(&format!("calls {calls} failures 0")),
        "JacORB's client failed ({status}): {output}"
    );
    output
}

/// A server with a noting Cubit in a POA of `model`: the ORB, the servant
/// and the object's IOR. The priorities are nice values, so no privilege
/// is needed.
pub fn noting_in_poa(model: PriorityModelPolicy) -> (Orb, Arc<Noting>, String) {
    let orb = nice_server().build().unwrap();
    let noting = Noting::new();
    let object = activate_in_poa(&orb, "rt", Some(model), noting.clone());
    let ior = orb.object_to_string(&object).unwrap();
    (orb, noting, ior)
}

/// A server on a port of its own with a thread pool of two lanes, at
/// `low` (lane 0) and `high` (lane 1), nice values (no privilege needed);
/// its main endpoint as `HOST:PORT`.
pub fn two_lane_server(low: Priority, high: Priority) -> (Orb, String) {
    let orb = nice_server()
        .threadpool(
            ThreadpoolConfig::new()
                .lane(LaneConfig::new(low))
                .lane(LaneConfig::new(high)),
        )
        .build()
        .unwrap();
    let main = iiop_address(&orb);
    (orb, main)
}
