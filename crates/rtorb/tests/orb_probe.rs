//! The stage probes are wired into every stage of a call on both
//! sides: built with the `probe` feature (`cargo test -p rtorb
//! --features probe --test orb_probe`, a step of
//! `scripts/test.sh`), each cube_long adds one lap to every client stage
//! on the calling thread (demarshal: the reply's header, its body, the
//! stub's results) and one to every server stage on the connection thread.

use std::sync::Arc;

use rtorb::exception::SystemException;
use rtorb::orb::Orb;
use rtorb::probe::{Stage, StageTotals, thread_totals};
use rtorb::servant::{ServerRequest, Skeleton};
use rtorb::sync::Mutex;
use rtorb_test_support::cubit::{Cubit, CubitImpl, CubitSkeleton};

/// Records the connection thread's totals at each dispatch.
struct Recording {
    inner: CubitSkeleton<CubitImpl>,
    seen: Mutex<Vec<StageTotals>>,
}

impl Skeleton for Recording {
    fn repository_ids(&self) -> &'static [&'static str] {
        self.inner.repository_ids()
    }
    fn dispatch(&self, req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
        let totals = thread_totals().expect("built with the probe feature");
        self.seen.lock().push(totals);
        self.inner.dispatch(req)
    }
}

#[test]
fn every_stage_of_a_call_is_timed_on_both_sides() {
    for endpoint in ["iiop://127.0.0.1:0", "iiop://127.0.0.1:0?giop=lite"] {
        let server = Orb::builder().listen(endpoint).build().unwrap();
        let recording = Arc::new(Recording {
            inner: CubitSkeleton(CubitImpl::default()),
            seen: Mutex::new(Vec::new()),
        });
        let obj = server
            .activate_with_key(&b"Cubit"[..], recording.clone())
            .unwrap();
        let ior = server.object_to_string(&obj).unwrap();
        let client = Orb::builder().build().unwrap();
        let cubit: Cubit = client.string_to_object(&ior).unwrap().unchecked_narrow();
        assert_eq!(cubit.cube_long(2).unwrap(), 8);
        const CALLS: u64 = 100;
        let before = thread_totals().expect("built with the probe feature");
        for l in 0..CALLS as i32 {
            assert_eq!(cubit.cube_long(l).unwrap(), l.wrapping_pow(3));
        }
        let client_side = thread_totals().unwrap().since(&before);
        for (stage, laps) in [
            (Stage::ClientMarshal, CALLS),
            (Stage::ClientWrite, CALLS),
            (Stage::ClientWait, CALLS),
            (Stage::ClientDemarshal, 3 * CALLS),
        ] {
            assert_eq!(client_side.laps(stage), laps, "{endpoint}: {stage:?}");
            assert!(client_side.nanos(stage) > 0, "{endpoint}: {stage:?}");
        }
        for stage in Stage::ALL
            .iter()
            .filter(|s| s.name().starts_with("server."))
        {
            assert_eq!(client_side.laps(*stage), 0, "{endpoint}: {stage:?}");
        }
        let seen = recording.seen.lock().clone();
        assert_eq!(seen.len() as u64, CALLS + 1);
        // One whole server turn between two dispatches.
        let turn = seen[seen.len() - 1].since(&seen[seen.len() - 2]);
        for stage in Stage::ALL
            .iter()
            .filter(|s| s.name().starts_with("server."))
        {
            assert_eq!(turn.laps(*stage), 1, "{endpoint}: {stage:?}");
        }
        let all = seen[seen.len() - 1].since(&seen[0]);
        for stage in Stage::ALL
            .iter()
            .filter(|s| s.name().starts_with("server."))
        {
            assert_eq!(all.laps(*stage), CALLS, "{endpoint}: {stage:?}");
            assert!(all.nanos(*stage) > 0, "{endpoint}: {stage:?}");
        }
        client.shutdown();
        server.shutdown();
    }
}
