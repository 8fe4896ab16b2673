//! `wait_for_completion` sleeps until the last running request ends and
//! is woken by it: the waiting thread makes no periodic wake-ups (counted
//! from its voluntary context switches), for the POA manager's state
//! changes and for `destroy`.

mod poa_common;

use std::sync::{Arc, mpsc};

use poa_common::{sleep, tagged_announcing};
use rtorb::object::Object;
use rtorb_test_support::server::remote;
use rtorb_test_support::wait::Latch;
use rtorb_test_support::{TIMEOUT, client, server};

/// The calling thread's voluntary context switches.
fn switches() -> u64 {
    std::fs::read_to_string("/proc/thread-self/status")
        .expect("/proc/thread-self/status")
        .lines()
        .find_map(|l| l.strip_prefix("voluntary_ctxt_switches:"))
        .and_then(|v| v.trim().parse().ok())
        .expect("voluntary_ctxt_switches")
}

/// Calls `sleep(ms)` on another thread.
fn sleep_in_background(obj: &Object, ms: u32) -> mpsc::Receiver<u32> {
    let (tx, rx) = mpsc::channel();
    let obj = obj.clone();
    std::thread::spawn(move || {
        let _ = tx.send(sleep(&obj, ms).expect("the sleep call"));
    });
    rx
}

#[test]
fn waiting_for_completion_is_woken_by_the_last_request() {
    let orb = server::orb();
    let c = client::orb();
    let root = orb.root_poa();
    let poa = root.create_poa("waited", None, &[]).unwrap();
    let manager = poa.the_poa_manager();
    manager.activate().unwrap();
    let first = Arc::new(Latch::new(2));
    let id = poa
        .activate_object(tagged_announcing(1, Arc::clone(&first)))
        .unwrap();
    let obj = remote(&orb, &c, &poa.id_to_reference(&id).unwrap());
    assert_eq!(sleep(&obj, 0).unwrap(), 0, "connected");

    // The manager: hold_requests(wait_for_completion) while a request of
    // 500 ms runs.
    let done = sleep_in_background(&obj, 500);
    assert!(first.wait(TIMEOUT), "the request started");
    let before = switches();
    manager.hold_requests(true).unwrap();
    let woken = switches() - before;
    // Polling every millisecond would have switched about 400 times.
    assert!(woken <= 5, "the waiting thread woke {woken} times");
    assert_eq!(done.recv_timeout(TIMEOUT), Ok(500));
    manager.activate().unwrap();

    // destroy(wait_for_completion) likewise.
    let second = Arc::new(Latch::new(1));
    let id = poa
        .activate_object(tagged_announcing(2, Arc::clone(&second)))
        .unwrap();
    let obj = remote(&orb, &c, &poa.id_to_reference(&id).unwrap());
    let done = sleep_in_background(&obj, 500);
    assert!(second.wait(TIMEOUT), "the request started");
    let before = switches();
    poa.destroy(true, true).unwrap();
    let woken = switches() - before;
    assert!(woken <= 5, "the destroying thread woke {woken} times");
    assert_eq!(done.recv_timeout(TIMEOUT), Ok(500));
}
