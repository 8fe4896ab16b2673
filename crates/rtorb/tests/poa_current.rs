//! `PortableServer::Current`: in a servant, the POA, object id, servant
//! and reference of the running request, over IIOP and collocated, for
//! active objects, default servants and nested collocated calls;
//! `NoContext` outside a request.

use std::sync::{Arc, Mutex};

use rtorb::cdr::{CdrDecode, CdrEncode};
use rtorb::exception::{SystemException, bad_operation};
use rtorb::object::Object;
use rtorb::poa::{
    Current, IdAssignmentPolicy, NoContext, Poa, PoaError, Policy, RequestProcessingPolicy,
};
use rtorb::servant::{ServerRequest, Skeleton};
use rtorb_test_support::server::remote;
use rtorb_test_support::{client, server};

const ID: &str = "IDL:Introspect:1.0";

/// What a servant saw of `Current` during a request.
#[derive(Debug, Clone, PartialEq)]
struct Seen {
    poa: String,
    id: Vec<u8>,
    servant_is_self: bool,
    reference_key: Vec<u8>,
}

/// Records what `Current` says in `look`; in `nested`, calls `look` on
/// another object (collocated) and then looks again.
struct Introspect {
    tag: u32,
    seen: Mutex<Vec<Seen>>,
    other: Mutex<Option<Object>>,
    me: Mutex<Option<std::sync::Weak<dyn Skeleton>>>,
}

impl Introspect {
    fn record(&self) -> Result<(), SystemException> {
        let current = Current;
        let poa = current.get_poa().map_err(|_| bad_operation())?;
        let id = current.get_object_id().map_err(|_| bad_operation())?;
        let servant = current.get_servant().map_err(|_| bad_operation())?;
        let me = self.me.lock().unwrap().as_ref().and_then(|w| w.upgrade());
        let servant_is_self = me.is_some_and(|m| Arc::ptr_eq(&m, &servant));
        let reference = current.get_reference().map_err(|_| bad_operation())?;
        self.seen.lock().unwrap().push(Seen {
            poa: poa.the_name().to_owned(),
            id,
            servant_is_self,
            reference_key: reference.target().object_key().to_vec(),
        });
        Ok(())
    }
}

impl Skeleton for Introspect {
    fn repository_ids(&self) -> &'static [&'static str] {
        &[ID]
    }
    fn dispatch(&self, req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
        match req.operation() {
            "look" => {
                self.record()?;
                let tag = self.tag;
                req.write_results(|e| tag.encode(e))
            }
            "nested" => {
                self.record()?;
                let other = self
                    .other
                    .lock()
                    .unwrap()
                    .clone()
                    .ok_or_else(bad_operation)?;
                let inner = look(&other)?;
                // The outer request's context is back.
                self.record()?;
                req.write_results(|e| inner.encode(e))
            }
            _ => Err(bad_operation()),
        }
    }
}

fn introspect(tag: u32) -> Arc<Introspect> {
    Arc::new(Introspect {
        tag,
        seen: Mutex::new(Vec::new()),
        other: Mutex::new(None),
        me: Mutex::new(None),
    })
}

/// `servant` as the skeleton a POA takes, knowing itself.
fn skeleton(servant: &Arc<Introspect>) -> Arc<dyn Skeleton> {
    let s: Arc<dyn Skeleton> = servant.clone();
    *servant.me.lock().unwrap() = Some(Arc::downgrade(&s));
    s
}

fn look(obj: &Object) -> Result<u32, SystemException> {
    obj.invoke("look", |_| Ok(()))?.decode(u32::decode)
}

fn nested(obj: &Object) -> Result<u32, SystemException> {
    obj.invoke("nested", |_| Ok(()))?.decode(u32::decode)
}

fn user_id_poa(root: &Poa, name: &str, extra: &[Policy]) -> Poa {
    let mut policies = vec![Policy::IdAssignment(IdAssignmentPolicy::UserId)];
    policies.extend_from_slice(extra);
    root.create_poa(name, Some(&root.the_poa_manager()), &policies)
        .unwrap()
}

#[test]
fn outside_a_request_there_is_no_context() {
    let orb = server::orb();
    let current = Current::narrow(&orb.resolve_initial_references("POACurrent").unwrap())
        .expect("POACurrent narrows to Current");
    assert_eq!(current, orb.poa_current());
    assert_eq!(current.get_poa().err(), Some(NoContext));
    assert_eq!(current.get_object_id().err(), Some(NoContext));
    assert_eq!(current.get_servant().err(), Some(NoContext));
    assert_eq!(current.get_reference().err(), Some(PoaError::NoContext));
}

#[test]
fn current_names_the_request_over_iiop_and_collocated() {
    let orb = server::orb();
    let c = client::orb();
    let root = orb.root_poa();
    let poa = user_id_poa(&root, "introspected", &[]);
    root.the_poa_manager().activate().unwrap();
    let servant = introspect(7);
    poa.activate_object_with_id(b"obj-1", skeleton(&servant))
        .unwrap();
    let local = poa.id_to_reference(b"obj-1").unwrap();
    let key = local.target().object_key().to_vec();

    assert_eq!(look(&remote(&orb, &c, &local)).unwrap(), 7);
    assert_eq!(look(&local).unwrap(), 7, "collocated");
    let want = Seen {
        poa: "introspected".into(),
        id: b"obj-1".to_vec(),
        servant_is_self: true,
        reference_key: key,
    };
    assert_eq!(*servant.seen.lock().unwrap(), vec![want.clone(), want]);
    // After the requests, the thread (this one ran the collocated call)
    // has no context again.
    assert_eq!(Current.get_poa().err(), Some(NoContext));
}

#[test]
fn a_default_servant_sees_each_request_s_object_id() {
    let orb = server::orb();
    let c = client::orb();
    let root = orb.root_poa();
    let poa = user_id_poa(
        &root,
        "defaulted",
        &[
            Policy::RequestProcessing(RequestProcessingPolicy::UseDefaultServant),
            Policy::ServantRetention(rtorb::poa::ServantRetentionPolicy::NonRetain),
        ],
    );
    root.the_poa_manager().activate().unwrap();
    let servant = introspect(3);
    poa.set_servant(skeleton(&servant)).unwrap();
    for id in [&b"a"[..], b"bb", b"ccc"] {
        let obj = remote(&orb, &c, &poa.create_reference_with_id(id, ID).unwrap());
        assert_eq!(look(&obj).unwrap(), 3);
    }
    let ids: Vec<Vec<u8>> = servant
        .seen
        .lock()
        .unwrap()
        .iter()
        .map(|s| s.id.clone())
        .collect();
    assert_eq!(ids, vec![b"a".to_vec(), b"bb".to_vec(), b"ccc".to_vec()]);
}

#[test]
fn a_nested_collocated_call_has_its_own_context_and_restores_the_outer() {
    let orb = server::orb();
    let c = client::orb();
    let root = orb.root_poa();
    let outer_poa = user_id_poa(&root, "outer", &[]);
    let inner_poa = user_id_poa(&root, "inner", &[]);
    root.the_poa_manager().activate().unwrap();
    let outer = introspect(1);
    let inner = introspect(2);
    outer_poa
        .activate_object_with_id(b"o", skeleton(&outer))
        .unwrap();
    inner_poa
        .activate_object_with_id(b"i", skeleton(&inner))
        .unwrap();
    *outer.other.lock().unwrap() = Some(inner_poa.id_to_reference(b"i").unwrap());
    let obj = remote(&orb, &c, &outer_poa.id_to_reference(b"o").unwrap());
    assert_eq!(nested(&obj).unwrap(), 2);
    let outer_seen: Vec<(String, Vec<u8>)> = outer
        .seen
        .lock()
        .unwrap()
        .iter()
        .map(|s| (s.poa.clone(), s.id.clone()))
        .collect();
    assert_eq!(
        outer_seen,
        vec![
            ("outer".into(), b"o".to_vec()),
            ("outer".into(), b"o".to_vec())
        ]
    );
    let inner_seen = inner.seen.lock().unwrap().clone();
    assert_eq!(inner_seen.len(), 1);
    assert_eq!(
        (inner_seen[0].poa.as_str(), &inner_seen[0].id[..]),
        ("inner", &b"i"[..])
    );
    assert!(inner_seen[0].servant_is_self);
}
