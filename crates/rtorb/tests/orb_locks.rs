//! Lock acquisitions per call through the ORB over real connections (IIOP
//! and UIOP), counted by `rtorb::sync` (this test builds the crate with
//! the `lock-count` feature).
//!
//! The client side is counted on the calling thread. The server side is
//! counted on the connection thread, by a skeleton that reads the
//! thread's count at each dispatch: the difference between two dispatches
//! is one whole turn of the server (reply, write, read, parse, lookup,
//! dispatch).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use rtorb::exception::SystemException;
use rtorb::orb::Orb;
use rtorb::rt::{LaneConfig, Priority, PriorityModelPolicy, ThreadpoolConfig};
use rtorb::servant::{ServerRequest, Skeleton};
use rtorb::sync::thread_acquisitions;
use rtorb_test_support::cubit::{Cubit, CubitImpl, CubitSkeleton};
use rtorb_test_support::priority::nice_server;
use rtorb_test_support::server;

/// Wraps the Cubit skeleton, summing the connection thread's lock
/// acquisitions between one dispatch and the next.
struct Counting {
    inner: CubitSkeleton<CubitImpl>,
    last: AtomicU64,
    sum: AtomicU64,
    turns: AtomicU64,
}

impl Skeleton for Counting {
    fn repository_ids(&self) -> &'static [&'static str] {
        self.inner.repository_ids()
    }
    fn dispatch(&self, req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
        let now = thread_acquisitions().expect("built with lock-count");
        let last = self.last.swap(now, Ordering::SeqCst);
        if last != 0 {
            self.sum.fetch_add(now - last, Ordering::SeqCst);
            self.turns.fetch_add(1, Ordering::SeqCst);
        }
        self.inner.dispatch(req)
    }
}

impl Counting {
    fn new() -> Arc<Counting> {
        Arc::new(Counting {
            inner: CubitSkeleton(CubitImpl::default()),
            last: AtomicU64::new(0),
            sum: AtomicU64::new(0),
            turns: AtomicU64::new(0),
        })
    }

    /// Calls `cubit` `calls` times after a warm-up, and gives back the
    /// lock acquisitions per call on the calling thread and per turn of
    /// the server thread.
    fn measure(&self, cubit: &Cubit, calls: u64) -> (f64, f64) {
        for l in 0..50 {
            assert_eq!(cubit.cube_long(l).unwrap(), l * l * l);
        }
        self.sum.store(0, Ordering::SeqCst);
        self.turns.store(0, Ordering::SeqCst);
        let before = thread_acquisitions().unwrap();
        for l in 0..calls as i32 {
            assert_eq!(cubit.cube_long(l).unwrap(), l.wrapping_pow(3));
        }
        let client = (thread_acquisitions().unwrap() - before) as f64 / calls as f64;
        let turns = self.turns.load(Ordering::SeqCst);
        assert_eq!(turns, calls);
        let server = self.sum.load(Ordering::SeqCst) as f64 / turns as f64;
        (client, server)
    }
}

#[test]
fn lock_acquisitions_per_cube_long_through_the_orb() {
    assert!(
        thread_acquisitions().is_some(),
        "the tests build rtorb with lock-count"
    );
    let path = std::env::temp_dir().join(format!("rtorb-orb-locks-{}.sock", std::process::id()));
    for endpoint in [
        "iiop://127.0.0.1:0".to_owned(),
        format!("uiop://{}", path.display()),
    ] {
        let server = Orb::builder().listen(endpoint.clone()).build().unwrap();
        let counting = Counting::new();
        let ior = server::serve(&server, b"Cubit", counting.clone());
        let client = Orb::builder().build().unwrap();
        let cubit: Cubit = client.string_to_object(&ior).unwrap().unchecked_narrow();
        let (client_locks, server_locks) = counting.measure(&cubit, 1000);
        println!("{endpoint}: locks per cube_long: client {client_locks}, server {server_locks}");
        // None on the client (a thread finds the connection it put back
        // in its endpoint's lock-free slot), none on the server: a
        // connection remembers the servant of the plain key it called
        // last, and takes the table's read lock only when the key changes
        // (or the table does). Before the connections' buffer pools were
        // taken without a lock: three and two; before the slot and the
        // connection's memory of its key: two and one.
        assert_eq!(client_locks, 0.0, "{endpoint}: client");
        assert_eq!(server_locks, 0.0, "{endpoint}: server");
        client.shutdown();
        server.shutdown();
    }
    let _ = std::fs::remove_file(path);
}

/// A lane's thread leads its event loop and serves what it reads: per
/// request the leader lock (to wait for events) and the connection (to
/// read and reply), and nothing else; its connection table is the
/// leader's alone. The lane shares no lock with another lane (each has its
/// own event loop), so at most two per request on the server side of a
/// high-priority client's path, as the priority-inversion benchmark asks.
#[test]
fn a_lane_takes_two_locks_per_request() {
    let server = nice_server().build().unwrap();
    let priority = Priority::MIN;
    server
        .create_threadpool(
            ThreadpoolConfig::new().lane(LaneConfig::new(priority).static_threads(1)),
        )
        .unwrap();
    let counting = Counting::new();
    let obj = server
        .activate_with_key_at(
            &b"Cubit"[..],
            counting.clone(),
            PriorityModelPolicy::server_declared(priority),
        )
        .unwrap();
    let ior = server.object_to_string(&obj).expect("a reference");
    let client = Orb::builder().build().unwrap();
    let cubit: Cubit = client.string_to_object(&ior).unwrap().unchecked_narrow();
    let (client_locks, server_locks) = counting.measure(&cubit, 1000);
    println!("lane: locks per cube_long: client {client_locks}, server {server_locks}");
    assert_eq!(client_locks, 0.0, "client");
    // Three before the table moved under the leader lock.
    assert!(server_locks <= 2.0, "server: {server_locks} per request");
    client.shutdown();
    server.shutdown();
}
