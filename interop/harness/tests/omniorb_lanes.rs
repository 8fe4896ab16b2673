//! omniORB, which has no Real-time CORBA, reaches an object served by a
//! thread pool lane through a `corbaloc` to the rtorb server's own port:
//! the server forwards it to the lane's endpoint, omniORB follows the
//! forward, and every request runs in the lane's threads at the lane's
//! priority. A missing omniORB fails this test.

use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rtorb::orb::Orb;
use rtorb::rt::{LaneConfig, Priority, PriorityModelPolicy, SchedPolicy, ThreadpoolConfig};
use rtorb::runtime::{ServerRequest, Skeleton, SystemException};
use rtorb_interop::ensure_peers;
use rtorb_interop::process::run_to_end;
use rtorb_test_support::cubit::{CubitImpl, CubitSkeleton};

const TIMEOUT: Duration = Duration::from_secs(20);

/// A Cubit that notes the thread and CORBA priority of each upcall.
struct Noting {
    cubit: Arc<dyn Skeleton>,
    seen: Mutex<Vec<(String, Option<i16>)>>,
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

#[test]
fn omniorb_reaches_a_lane_object_through_its_forward() {
    let peers = ensure_peers().unwrap_or_else(|e| panic!("the omniORB peers cannot be built: {e}"));
    let (low, high) = (Priority::new(0).unwrap(), Priority::new(8_000).unwrap());
    // Nice values: no privilege needed for the priorities used here.
    let orb = Orb::builder()
        .listen("iiop://127.0.0.1:0")
        .sched_policy(SchedPolicy::Other)
        .threadpool(
            ThreadpoolConfig::new()
                .lane(LaneConfig::new(low))
                .lane(LaneConfig::new(high)),
        )
        .build()
        .unwrap();
    let noting = Arc::new(Noting {
        cubit: Arc::new(CubitSkeleton(CubitImpl::default())),
        seen: Mutex::new(Vec::new()),
    });
    orb.activate_with_key_at(
        &b"High"[..],
        noting.clone(),
        PriorityModelPolicy::server_declared(high),
    )
    .unwrap();
    let main = orb.endpoints()[0].trim_start_matches("iiop://").to_owned();
    let url = format!("corbaloc::1.2@{main}/High");
    let mut command = Command::new(&peers.cubit_client);
    command
        .arg("-ORBclientCallTimeOutPeriod")
        .arg(TIMEOUT.as_millis().to_string())
        .arg(&url);
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
    assert!(
        seen.iter()
            .all(|(thread, p)| thread == "rtorb-lane-0-1" && *p == Some(8_000)),
        "{seen:?}"
    );
}
