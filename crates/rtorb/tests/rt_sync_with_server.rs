//! `SYNC_WITH_SERVER` oneways run at their request's priority, like every
//! other upcall: the client's propagated priority under
//! `CLIENT_PROPAGATED`, the declared one under `SERVER_DECLARED`, the
//! thread's own where the POA has no priority model; and the thread is
//! put back after. Both where the upcall is queued behind its
//! acknowledgement (the usual way) and where the memory budget leaves no
//! room to queue it and it runs where it is read.
//!
//! The priorities map onto nice values (SCHED_OTHER).

use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};

use rtorb::exception::{SystemException, SystemExceptionKind, bad_operation};
use rtorb::object::Object;
use rtorb::orb::{Orb, ServerStrategy};
use rtorb::policy::{Policy, SyncScope};
use rtorb::rt::{MappingKind, Priority, PriorityModelPolicy};
use rtorb::servant::{ServerRequest, Skeleton};
use rtorb_test_support::TIMEOUT;
use rtorb_test_support::priority::{activate_in_poa, nice_client, nice_server_mapped};
use rtorb_test_support::sched::thread_nice;

/// Where an upcall ran: the object's tag, the CORBA priority of the
/// thread (`None`: it has none), its nice value and its name.
type Seen = (u32, Option<i16>, i32, String);

/// `note` (a oneway) tells where it runs.
struct Noter {
    tag: u32,
    seen: Mutex<Sender<Seen>>,
}

impl Skeleton for Noter {
    fn repository_ids(&self) -> &'static [&'static str] {
        &["IDL:rtorb/Noter:1.0"]
    }

    fn dispatch(&self, req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
        if req.operation() != "note" {
            return Err(bad_operation());
        }
        let seen = (
            self.tag,
            rtorb::rt::thread_priority().map(Priority::get),
            thread_nice(),
            std::thread::current().name().unwrap_or("").to_owned(),
        );
        let _ = self.seen.lock().unwrap().send(seen);
        Ok(())
    }
}

/// A server of `strategy` and `budget` whose priorities map onto nice
/// values by `kind`, with a noter in a POA of each `models` (tagged by
/// its index; `None`: a POA without a priority model); their references
/// (as strings) and where the upcalls are seen.
fn server(
    strategy: ServerStrategy,
    budget: Option<usize>,
    kind: MappingKind,
    models: &[Option<PriorityModelPolicy>],
) -> (Orb, Vec<String>, Receiver<Seen>) {
    let mut builder = nice_server_mapped(kind).server_strategy(strategy);
    if let Some(octets) = budget {
        builder = builder.memory_budget(octets);
    }
    let orb = builder.build().unwrap();
    let (send, seen) = channel();
    let mut iors = Vec::new();
    for (tag, model) in models.iter().enumerate() {
        let noter = Arc::new(Noter {
            tag: tag as u32,
            seen: Mutex::new(send.clone()),
        });
        let object = activate_in_poa(&orb, &format!("poa{tag}"), *model, noter);
        iors.push(orb.object_to_string(&object).unwrap());
    }
    (orb, iors, seen)
}

/// The `SYNC_WITH_SERVER` reference to `ior`.
fn with_server(client: &Orb, ior: &str) -> Object {
    client
        .string_to_object(ior)
        .unwrap()
        .with_policies(&[Policy::SyncScope(SyncScope::WithServer)])
}

/// Sends `note` to each of `objects` in turn, from a thread at
/// `priority`, and gives what each call returned.
fn notes_at(
    client: &Orb,
    priority: Priority,
    objects: Vec<Object>,
) -> Vec<Result<(), SystemException>> {
    let current = client.rt_current();
    std::thread::spawn(move || {
        current.set_priority(priority).unwrap();
        objects
            .iter()
            .map(|o| o.invoke_oneway("note", |_| Ok(())))
            .collect()
    })
    .join()
    .unwrap()
}

#[test]
fn sync_with_server_upcalls_run_at_the_request_s_priority_and_the_thread_is_put_back() {
    // What the server's threads run at when nothing sets their priority:
    // the process's nice value, which they inherit.
    let resting = thread_nice();
    let propagated = Priority::new(12_000).unwrap();
    let declared = Priority::new(4_096).unwrap();
    let client = nice_client();
    // Deferred (the default budget), and run where read (no budget to
    // queue the request in).
    for (budget, deferred) in [(None, true), (Some(0), false)] {
        for strategy in ServerStrategy::ALL {
            let (orb, iors, seen) = server(
                strategy,
                budget,
                MappingKind::Linear,
                &[
                    Some(PriorityModelPolicy::client_propagated(Priority::MIN)),
                    Some(PriorityModelPolicy::server_declared(declared)),
                    None,
                ],
            );
            let nice = |p: Priority| -i32::from(orb.priority_control().to_native(p).unwrap().get());
            assert!(
                ![nice(propagated), nice(declared)].contains(&resting),
                "the priorities of the test must differ from the threads' at rest"
            );
            let objects: Vec<_> = iors.iter().map(|ior| with_server(&client, ior)).collect();
            // Twice round, so that the plain POA's upcall follows each
            // upcall at a priority on the same thread.
            let mut all = objects.clone();
            all.extend(objects);
            for r in notes_at(&client, propagated, all) {
                r.unwrap();
            }
            let expected = [
                (0, Some(propagated.get()), nice(propagated)),
                (1, Some(declared.get()), nice(declared)),
                (2, None, resting),
            ];
            for round in 0..2 {
                for want in expected {
                    let (tag, corba, nice, thread) = seen.recv_timeout(TIMEOUT).unwrap();
                    let context = format!("{strategy}, deferred {deferred}, round {round}");
                    assert_eq!((tag, corba, nice), want, "{context}, thread {thread}");
                    assert_eq!(thread == "rtorb-deferred", deferred, "{context}: {thread}");
                }
            }
            orb.shutdown();
        }
    }
}

#[test]
fn a_sync_with_server_request_whose_priority_cannot_be_mapped_does_not_run() {
    // The direct mapping onto nice values has native priorities -19 to 20
    // only: CORBA priority 1000 has none.
    let unmappable = Priority::new(1_000).unwrap();
    let client = nice_client();
    for (budget, deferred) in [(None, true), (Some(0), false)] {
        let (orb, iors, seen) = server(
            ServerStrategy::ThreadPerConnection,
            budget,
            MappingKind::Direct,
            &[
                Some(PriorityModelPolicy::client_propagated(Priority::MIN)),
                None,
            ],
        );
        let objects = iors.iter().map(|ior| with_server(&client, ior)).collect();
        let results = notes_at(&client, unmappable, objects);
        if deferred {
            // Acknowledged before its upcall, which then cannot run: it is
            // dropped, as a oneway's failure is.
            assert!(results[0].is_ok(), "{results:?}");
        } else {
            // Not yet acknowledged: answered with the exception instead.
            let e = results[0].as_ref().unwrap_err();
            assert_eq!(e.kind(), Some(SystemExceptionKind::DataConversion), "{e}");
        }
        results[1].as_ref().unwrap();
        // Only the upcall without a priority model ran.
        let (tag, corba, _, _) = seen.recv_timeout(TIMEOUT).unwrap();
        assert_eq!((tag, corba), (1, None), "deferred {deferred}");
        orb.shutdown();
        // Nothing else was seen; the sender may be gone with the servant
        // after the shutdown, so either error of `try_recv` says so.
        assert!(seen.try_recv().is_err(), "deferred {deferred}");
    }
}
