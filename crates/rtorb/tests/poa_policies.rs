//! POA operations and their policy checks: the Root POA, child POAs,
//! every exception of the specification's operations, user and system
//! ids, implicit activation, the default servant; served over IIOP.

mod poa_common;

use std::sync::Arc;

use poa_common::{TAGGED_ID, tagged, who};
use rtorb::exception::SystemExceptionKind;
use rtorb::minor::{
    BAD_PARAM_FOREIGN_ID, OBJ_ADAPTER_NO_DEFAULT_SERVANT, OBJECT_NOT_EXIST_NOT_ACTIVE,
};
use rtorb::poa::{
    IdAssignmentPolicy, IdUniquenessPolicy, ImplicitActivationPolicy, LifespanPolicy, Poa,
    PoaError, Policies, Policy, RequestProcessingPolicy, ServantRetentionPolicy, State,
};
use rtorb::servant::Skeleton;
use rtorb_test_support::server::remote;
use rtorb_test_support::{client, server};

/// The error of `r`, which must be one.
fn err<T>(r: Result<T, PoaError>) -> PoaError {
    match r {
        Err(e) => e,
        Ok(_) => panic!("expected an error"),
    }
}

fn user_ids() -> [Policy; 1] {
    [Policy::IdAssignment(IdAssignmentPolicy::UserId)]
}

#[test]
fn the_root_poa_is_an_initial_reference_with_the_root_policies() {
    let orb = server::orb();
    let root = orb.root_poa();
    assert_eq!(root.the_name(), "RootPOA");
    assert!(root.the_parent().is_none());
    assert_eq!(root.policies(), Policies::root());
    assert_eq!(root.the_poa_manager().get_state(), State::Holding);
    let obj = orb.resolve_initial_references("RootPOA").unwrap();
    let narrowed = Poa::narrow(&obj).expect("a POA");
    assert_eq!(narrowed, root);
    assert!(Poa::narrow(&orb.activate(tagged(1)).unwrap()).is_none());
}

#[test]
fn child_poas_are_created_found_and_destroyed() {
    let orb = server::orb();
    let root = orb.root_poa();
    let a = root.create_poa("A", None, &[]).unwrap();
    assert_eq!(a.the_parent().unwrap(), root);
    assert_eq!(a.the_name(), "A");
    // A new manager of its own, holding.
    assert_ne!(a.the_poa_manager(), root.the_poa_manager());
    assert_eq!(a.the_poa_manager().get_state(), State::Holding);
    let b = a
        .create_poa("B", Some(&root.the_poa_manager()), &[])
        .unwrap();
    assert_eq!(b.the_poa_manager(), root.the_poa_manager());
    assert_eq!(
        root.create_poa("A", None, &[]).unwrap_err(),
        PoaError::AdapterAlreadyExists
    );
    assert_eq!(root.find_poa("A", false).unwrap(), a);
    assert_eq!(a.find_poa("B", true).unwrap(), b);
    assert_eq!(
        root.find_poa("B", false).unwrap_err(),
        PoaError::AdapterNonExistent
    );
    assert_eq!(root.the_children(), vec![a.clone()]);
    a.destroy(false, true).unwrap();
    assert!(a.is_destroyed() && b.is_destroyed());
    assert_eq!(
        root.find_poa("A", false).unwrap_err(),
        PoaError::AdapterNonExistent
    );
    let e = a.activate_object(tagged(1)).unwrap_err();
    assert!(
        matches!(e, PoaError::System(s) if s.kind() == Some(SystemExceptionKind::ObjectNotExist))
    );
    // The name is free again.
    let again = root.create_poa("A", None, &[]).unwrap();
    assert_ne!(again, a);
}

#[test]
fn conflicting_policies_are_invalid() {
    let orb = server::orb();
    let root = orb.root_poa();
    let cases: [(&[Policy], u16); 3] = [
        (
            &[
                Policy::ServantRetention(ServantRetentionPolicy::NonRetain),
                Policy::RequestProcessing(RequestProcessingPolicy::UseActiveObjectMapOnly),
            ],
            1,
        ),
        (
            &[
                Policy::ImplicitActivation(ImplicitActivationPolicy::ImplicitActivation),
                Policy::IdAssignment(IdAssignmentPolicy::UserId),
            ],
            1,
        ),
        (
            &[
                Policy::IdAssignment(IdAssignmentPolicy::UserId),
                Policy::Lifespan(LifespanPolicy::Persistent),
                Policy::IdAssignment(IdAssignmentPolicy::SystemId),
            ],
            2,
        ),
    ];
    for (policies, index) in cases {
        assert_eq!(
            root.create_poa("X", None, policies).unwrap_err(),
            PoaError::InvalidPolicy { index }
        );
    }
    assert!(root.the_children().is_empty());
}

#[test]
fn operations_the_policies_forbid_are_wrong_policy() {
    let orb = server::orb();
    let root = orb.root_poa();
    let user = root.create_poa("user", None, &user_ids()).unwrap();
    let non_retain = root
        .create_poa(
            "nonretain",
            None,
            &[
                Policy::ServantRetention(ServantRetentionPolicy::NonRetain),
                Policy::RequestProcessing(RequestProcessingPolicy::UseDefaultServant),
            ],
        )
        .unwrap();
    assert_eq!(
        user.activate_object(tagged(1)).unwrap_err(),
        PoaError::WrongPolicy
    );
    assert_eq!(
        user.create_reference(TAGGED_ID).unwrap_err(),
        PoaError::WrongPolicy
    );
    assert_eq!(
        non_retain.activate_object(tagged(1)).unwrap_err(),
        PoaError::WrongPolicy
    );
    assert_eq!(
        non_retain
            .activate_object_with_id(b"x", tagged(1))
            .unwrap_err(),
        PoaError::WrongPolicy
    );
    assert_eq!(
        non_retain.deactivate_object(b"x").unwrap_err(),
        PoaError::WrongPolicy
    );
    assert_eq!(
        non_retain.id_to_reference(b"x").unwrap_err(),
        PoaError::WrongPolicy
    );
    assert_eq!(err(root.get_servant()), PoaError::WrongPolicy);
    assert_eq!(
        root.set_servant(tagged(1)).unwrap_err(),
        PoaError::WrongPolicy
    );
    assert_eq!(
        root.get_servant_manager().unwrap_err(),
        PoaError::WrongPolicy
    );
    assert_eq!(err(non_retain.get_servant()), PoaError::NoServant);
    // NO_IMPLICIT_ACTIVATION, UNIQUE_ID, RETAIN: servant_to_id only finds.
    assert_eq!(
        user.servant_to_id(&tagged(1)).unwrap_err(),
        PoaError::ServantNotActive
    );
    // NON_RETAIN without a default servant to compare with.
    let locator = root
        .create_poa(
            "locator",
            None,
            &[
                Policy::ServantRetention(ServantRetentionPolicy::NonRetain),
                Policy::RequestProcessing(RequestProcessingPolicy::UseServantManager),
            ],
        )
        .unwrap();
    assert_eq!(
        locator.servant_to_id(&tagged(1)).unwrap_err(),
        PoaError::WrongPolicy
    );
    assert_eq!(err(locator.id_to_servant(b"x")), PoaError::WrongPolicy);
}

#[test]
fn activation_errors_follow_the_uniqueness_policy() {
    let orb = server::orb();
    let root = orb.root_poa();
    let unique = root.create_poa("unique", None, &user_ids()).unwrap();
    let s = tagged(1);
    unique.activate_object_with_id(b"a", s.clone()).unwrap();
    assert_eq!(
        unique.activate_object_with_id(b"a", tagged(2)).unwrap_err(),
        PoaError::ObjectAlreadyActive
    );
    assert_eq!(
        unique.activate_object_with_id(b"b", s.clone()).unwrap_err(),
        PoaError::ServantAlreadyActive
    );
    assert_eq!(&unique.servant_to_id(&s).unwrap()[..], b"a");
    let multiple = root
        .create_poa(
            "multiple",
            None,
            &[
                Policy::IdAssignment(IdAssignmentPolicy::UserId),
                Policy::IdUniqueness(IdUniquenessPolicy::MultipleId),
            ],
        )
        .unwrap();
    multiple.activate_object_with_id(b"a", s.clone()).unwrap();
    multiple.activate_object_with_id(b"b", s.clone()).unwrap();
    assert!(Arc::ptr_eq(&multiple.id_to_servant(b"b").unwrap(), &s));
    multiple.deactivate_object(b"a").unwrap();
    assert_eq!(
        multiple.deactivate_object(b"a").unwrap_err(),
        PoaError::ObjectNotActive
    );
    assert_eq!(err(multiple.id_to_servant(b"a")), PoaError::ObjectNotActive);
    assert_eq!(
        multiple.id_to_reference(b"a").unwrap_err(),
        PoaError::ObjectNotActive
    );
    // The root POA (UNIQUE_ID) refuses a servant active in it already.
    let id = root.activate_object(s.clone()).unwrap();
    assert_eq!(
        root.activate_object(s.clone()).unwrap_err(),
        PoaError::ServantAlreadyActive
    );
    assert_eq!(root.servant_to_id(&s).unwrap(), id);
}

#[test]
fn a_system_id_poa_refuses_ids_it_did_not_assign() {
    let orb = server::orb();
    let root = orb.root_poa();
    let e = root
        .activate_object_with_id(b"made up", tagged(1))
        .unwrap_err();
    assert!(
        matches!(&e, PoaError::System(s) if s.kind() == Some(SystemExceptionKind::BadParam) && s.minor == BAD_PARAM_FOREIGN_ID),
        "{e:?}"
    );
    // An id from create_reference may be activated later.
    let obj = root.create_reference(TAGGED_ID).unwrap();
    let id = root.reference_to_id(&obj).unwrap();
    root.activate_object_with_id(&id, tagged(5)).unwrap();
    root.the_poa_manager().activate().unwrap();
    assert_eq!(who(&obj).unwrap(), 5);
}

#[test]
fn implicit_activation_and_the_conversions() {
    let orb = server::orb();
    let root = orb.root_poa();
    let s = tagged(7);
    // The Root POA activates implicitly, once (UNIQUE_ID).
    let obj = root.servant_to_reference(&s).unwrap();
    let id = root.reference_to_id(&obj).unwrap();
    assert_eq!(root.servant_to_id(&s).unwrap(), id);
    assert!(Arc::ptr_eq(&root.reference_to_servant(&obj).unwrap(), &s));
    assert!(Arc::ptr_eq(&root.id_to_servant(&id).unwrap(), &s));
    assert_eq!(obj.type_id(), TAGGED_ID);
    assert_eq!(root.id_to_reference(&id).unwrap().target(), obj.target());
    // Another POA's reference is not this one's.
    let other = root.create_poa("other", None, &user_ids()).unwrap();
    assert_eq!(
        other.reference_to_id(&obj).unwrap_err(),
        PoaError::WrongAdapter
    );
    let o = other.create_reference_with_id(b"x", TAGGED_ID).unwrap();
    assert_eq!(
        root.reference_to_id(&o).unwrap_err(),
        PoaError::WrongAdapter
    );
    assert_eq!(&other.reference_to_id(&o).unwrap()[..], b"x");
}

#[test]
fn user_ids_are_served_over_iiop_until_deactivated() {
    let orb = server::orb();
    let root = orb.root_poa();
    let poa = root
        .create_poa("users", Some(&root.the_poa_manager()), &user_ids())
        .unwrap();
    poa.activate_object_with_id(b"alice", tagged(1)).unwrap();
    poa.activate_object_with_id(b"bob", tagged(2)).unwrap();
    root.the_poa_manager().activate().unwrap();
    let c = client::orb();
    let alice = remote(&orb, &c, &poa.id_to_reference(b"alice").unwrap());
    let bob = remote(&orb, &c, &poa.id_to_reference(b"bob").unwrap());
    assert_eq!(who(&alice).unwrap(), 1);
    assert_eq!(who(&bob).unwrap(), 2);
    assert!(alice.is_a(TAGGED_ID).unwrap());
    poa.deactivate_object(b"alice").unwrap();
    let e = who(&alice).unwrap_err();
    assert_eq!(e.kind(), Some(SystemExceptionKind::ObjectNotExist));
    assert_eq!(e.minor, OBJECT_NOT_EXIST_NOT_ACTIVE);
    assert!(alice.non_existent().unwrap());
    assert_eq!(who(&bob).unwrap(), 2);
    // Reactivated under the same user id, with another servant.
    poa.activate_object_with_id(b"alice", tagged(3)).unwrap();
    assert_eq!(who(&alice).unwrap(), 3);
}

#[test]
fn a_default_servant_serves_every_id() {
    let orb = server::orb();
    let root = orb.root_poa();
    let poa = root
        .create_poa(
            "default",
            Some(&root.the_poa_manager()),
            &[
                Policy::IdAssignment(IdAssignmentPolicy::UserId),
                Policy::ServantRetention(ServantRetentionPolicy::NonRetain),
                Policy::RequestProcessing(RequestProcessingPolicy::UseDefaultServant),
            ],
        )
        .unwrap();
    root.the_poa_manager().activate().unwrap();
    let c = client::orb();
    let any = remote(
        &orb,
        &c,
        &poa.create_reference_with_id(b"any", TAGGED_ID).unwrap(),
    );
    let e = who(&any).unwrap_err();
    assert_eq!(e.kind(), Some(SystemExceptionKind::ObjAdapter));
    assert_eq!(e.minor, OBJ_ADAPTER_NO_DEFAULT_SERVANT);
    let s: Arc<dyn Skeleton> = tagged(9);
    poa.set_servant(s.clone()).unwrap();
    assert!(Arc::ptr_eq(&poa.get_servant().unwrap(), &s));
    assert_eq!(who(&any).unwrap(), 9);
    let other = remote(
        &orb,
        &c,
        &poa.create_reference_with_id(b"other", TAGGED_ID).unwrap(),
    );
    assert_eq!(who(&other).unwrap(), 9);
    assert!(Arc::ptr_eq(&poa.id_to_servant(b"whatever").unwrap(), &s));
}

#[test]
fn orb_activate_serves_on_the_root_poa_and_deactivate_ends_it() {
    let orb = server::orb();
    let obj = orb.activate(tagged(4)).unwrap();
    let root = orb.root_poa();
    assert_eq!(root.the_poa_manager().get_state(), State::Active);
    let id = root.reference_to_id(&obj).unwrap();
    assert_eq!(obj.target().object_key(), &root.object_key(&id));
    let c = client::orb();
    let r = remote(&orb, &c, &obj);
    assert_eq!(who(&r).unwrap(), 4);
    assert!(orb.deactivate(obj.target().object_key()));
    assert_eq!(
        who(&r).unwrap_err().kind(),
        Some(SystemExceptionKind::ObjectNotExist)
    );
    assert!(!orb.deactivate(obj.target().object_key()));
    // The same servant twice: one object (UNIQUE_ID), one reference.
    let s = tagged(5);
    let first = orb.activate(s.clone()).unwrap();
    let second = orb.activate(s).unwrap();
    assert_eq!(first.target().object_key(), second.target().object_key());
    assert_eq!(who(&second).unwrap(), 5);
}

#[test]
fn orb_activate_leaves_a_manager_the_application_set() {
    let orb = server::orb();
    let root = orb.root_poa();
    root.the_poa_manager().discard_requests(false).unwrap();
    let obj = orb.activate(tagged(1)).unwrap();
    assert_eq!(root.the_poa_manager().get_state(), State::Discarding);
    assert_eq!(
        who(&obj).unwrap_err().kind(),
        Some(SystemExceptionKind::Transient)
    );
}
