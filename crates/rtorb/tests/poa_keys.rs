//! Object keys of the POA: stale keys (deactivated objects, reused
//! slots, destroyed POAs, earlier ORBs on the same endpoint) get
//! `OBJECT_NOT_EXIST` over IIOP, never another servant; plain keys keep
//! working and come first.

mod poa_common;

use bytes::Bytes;
use poa_common::{TAGGED_ID, tagged, who};
use rtorb::orb::Orb;
use rtorb_test_support::net::free_port;
use rtorb_test_support::server::remote;
use rtorb_test_support::{TIMEOUT, client, server};

use rtorb::exception::SystemExceptionKind;
use rtorb::minor::{OBJECT_NOT_EXIST_NO_ADAPTER, OBJECT_NOT_EXIST_NOT_ACTIVE};

/// The object slot and generation of a system-id key of a transient POA
/// (see the key layout in `rtorb::poa`).
fn object_slot(key: &[u8]) -> (u32, u32) {
    assert_eq!(&key[..4], b"RTKT", "a transient POA key");
    assert_eq!(key.len(), 28, "a system id");
    let n = |at: usize| u32::from_le_bytes([key[at], key[at + 1], key[at + 2], key[at + 3]]);
    (n(20), n(24))
}

#[test]
fn a_reused_slot_does_not_reach_the_new_servant_through_an_old_key() {
    let orb = server::orb();
    let c = client::orb();
    let old = orb.activate(tagged(1)).unwrap();
    let old_remote = remote(&orb, &c, &old);
    assert_eq!(who(&old_remote).unwrap(), 1);
    assert!(orb.deactivate(old.target().object_key()));
    let new = orb.activate(tagged(2)).unwrap();
    let (old_slot, old_gen) = object_slot(old.target().object_key());
    let (new_slot, new_gen) = object_slot(new.target().object_key());
    assert_eq!(old_slot, new_slot, "the slot is reused");
    assert_ne!(old_gen, new_gen, "with a new generation");
    let e = who(&old_remote).unwrap_err();
    assert_eq!(e.kind(), Some(SystemExceptionKind::ObjectNotExist));
    assert_eq!(e.minor, OBJECT_NOT_EXIST_NOT_ACTIVE);
    assert_eq!(who(&remote(&orb, &c, &new)).unwrap(), 2);
    // Collocated, the same.
    assert_eq!(
        who(&old).unwrap_err().kind(),
        Some(SystemExceptionKind::ObjectNotExist)
    );
    assert_eq!(who(&new).unwrap(), 2);
}

#[test]
fn a_destroyed_poa_does_not_serve_its_keys_even_when_made_again() {
    let orb = server::orb();
    let root = orb.root_poa();
    let c = client::orb();
    let poa = root
        .create_poa("gone", Some(&root.the_poa_manager()), &[])
        .unwrap();
    root.the_poa_manager().activate().unwrap();
    let id = poa.activate_object(tagged(1)).unwrap();
    let obj = remote(&orb, &c, &poa.id_to_reference(&id).unwrap());
    assert_eq!(who(&obj).unwrap(), 1);
    poa.destroy(false, true).unwrap();
    let e = who(&obj).unwrap_err();
    assert_eq!(e.kind(), Some(SystemExceptionKind::ObjectNotExist));
    assert_eq!(e.minor, OBJECT_NOT_EXIST_NO_ADAPTER);
    // Same name, same slot in the ORB's POA table, same object slot.
    let again = root
        .create_poa("gone", Some(&root.the_poa_manager()), &[])
        .unwrap();
    let id2 = again.activate_object(tagged(2)).unwrap();
    assert_eq!(id, id2, "the same object id in the new POA");
    assert_eq!(
        who(&obj).unwrap_err().kind(),
        Some(SystemExceptionKind::ObjectNotExist)
    );
    let fresh = remote(&orb, &c, &again.id_to_reference(&id2).unwrap());
    assert_eq!(who(&fresh).unwrap(), 2);
}

#[test]
fn a_transient_key_of_an_earlier_orb_on_the_same_endpoint_is_not_served() {
    let endpoint = format!("iiop://127.0.0.1:{}", free_port());
    let first = Orb::builder().listen(endpoint.as_str()).build().unwrap();
    let old = first
        .object_to_string(&first.activate(tagged(1)).unwrap())
        .unwrap();
    first.shutdown();
    drop(first);
    let second = Orb::builder().listen(endpoint.as_str()).build().unwrap();
    // The same POA slot, object slot and generation as before.
    let new = second.activate(tagged(2)).unwrap();
    let c = client::orb();
    let old = c.string_to_object(&old).unwrap();
    assert_eq!(
        object_slot(old.target().object_key()),
        object_slot(new.target().object_key())
    );
    let e = who(&old).unwrap_err();
    assert_eq!(e.kind(), Some(SystemExceptionKind::ObjectNotExist));
    assert_eq!(e.minor, OBJECT_NOT_EXIST_NO_ADAPTER);
    assert_eq!(who(&remote(&second, &c, &new)).unwrap(), 2);
}

#[test]
fn plain_keys_come_first_and_corbaloc_reaches_them() {
    let orb = server::orb();
    let c = client::orb();
    orb.activate_with_key(&b"Tagged"[..], tagged(10)).unwrap();
    let addr = rtorb_test_support::net::iiop_address(&orb);
    let by_url = c
        .string_to_object(&format!("corbaloc::1.2@{addr}/Tagged"))
        .unwrap();
    assert_eq!(who(&by_url).unwrap(), 10);
    // A POA object, then a plain key equal to its key: the plain key wins.
    let poa_obj = orb.activate(tagged(11)).unwrap();
    let r = remote(&orb, &c, &poa_obj);
    assert_eq!(who(&r).unwrap(), 11);
    let key: Bytes = poa_obj.target().object_key().clone();
    orb.activate_with_key(key.clone(), tagged(12)).unwrap();
    assert_eq!(who(&r).unwrap(), 12);
    assert!(orb.deactivate(&key));
    assert_eq!(who(&r).unwrap(), 11);
    // A forwarded plain key still forwards.
    let fwd = orb
        .forward(&b"Moved"[..], rtorb::object::object_reference(&poa_obj))
        .unwrap();
    assert_eq!(who(&remote(&orb, &c, &fwd)).unwrap(), 11);
    assert_eq!(who(&fwd).unwrap(), 11, "collocated, following the forward");
}

#[test]
fn keys_that_are_not_poa_keys_or_are_cut_short_are_object_not_exist() {
    let orb = server::orb();
    let c = client::orb();
    let good = orb.activate(tagged(1)).unwrap();
    let key = good.target().object_key().clone();
    let reference = |k: &[u8]| {
        let r = orb.reference(TAGGED_ID, &Bytes::copy_from_slice(k));
        let obj = rtorb::object::Object::new(
            orb.invoker(),
            rtorb::object::Target::from_reference(r).unwrap(),
        );
        remote(&orb, &c, &obj)
    };
    for k in [
        &key[..key.len() - 1],
        &key[..4],
        b"RTKP\xff\xff".as_slice(),
        b"RTK".as_slice(),
        b"".as_slice(),
    ] {
        let e = who(&reference(k)).unwrap_err();
        assert_eq!(e.kind(), Some(SystemExceptionKind::ObjectNotExist), "{k:?}");
    }
    assert_eq!(who(&reference(&key)).unwrap(), 1);
}

#[test]
fn a_transient_key_naming_a_persistent_poas_slot_is_object_not_exist() {
    let orb = server::orb();
    let c = client::orb();
    let root = orb.root_poa();
    let transient_key = orb
        .activate(tagged(1))
        .unwrap()
        .target()
        .object_key()
        .clone();
    let persistent = root
        .create_poa(
            "p",
            Some(&root.the_poa_manager()),
            &[
                rtorb::poa::Policy::Lifespan(rtorb::poa::LifespanPolicy::Persistent),
                rtorb::poa::Policy::IdAssignment(rtorb::poa::IdAssignmentPolicy::UserId),
            ],
        )
        .unwrap();
    persistent.activate_object_with_id(b"x", tagged(2)).unwrap();
    // The first child POA has slot 1, generation 0.
    let mut forged = transient_key[..12].to_vec();
    forged.extend_from_slice(&1u32.to_le_bytes());
    forged.extend_from_slice(&0u32.to_le_bytes());
    forged.extend_from_slice(b"x");
    let r = orb.reference(TAGGED_ID, &Bytes::from(forged));
    let obj = rtorb::object::Object::new(
        orb.invoker(),
        rtorb::object::Target::from_reference(r).unwrap(),
    );
    let e = who(&remote(&orb, &c, &obj)).unwrap_err();
    assert_eq!(e.kind(), Some(SystemExceptionKind::ObjectNotExist));
    let real = remote(&orb, &c, &persistent.id_to_reference(b"x").unwrap());
    assert_eq!(who(&real).unwrap(), 2);
}

/// Sends a LocateRequest for `key` on `stream` and returns the status.
fn locate(stream: &mut std::net::TcpStream, key: &[u8]) -> rtorb_giop::message::LocateStatus {
    use rtorb_giop::message::{Content, LocateRequest, Message};
    use std::io::{Read, Write};
    let msg = Message::new(
        rtorb_cdr::Version::V1_2,
        rtorb_cdr::ByteOrder::Little,
        Content::LocateRequest(LocateRequest {
            request_id: 5,
            target: rtorb_giop::target::TargetAddress::Key(Bytes::copy_from_slice(key)),
        }),
    );
    stream
        .write_all(&rtorb_giop::encode_message(&msg).unwrap())
        .unwrap();
    let mut header = [0u8; 12];
    stream.read_exact(&mut header).unwrap();
    let size = u32::from_le_bytes([header[8], header[9], header[10], header[11]]);
    let mut whole = header.to_vec();
    whole.resize(12 + size as usize, 0);
    stream.read_exact(&mut whole[12..]).unwrap();
    match rtorb_giop::decode_message(whole.into()).unwrap().content {
        Content::LocateReply(l) => l.status,
        other => panic!("{other:?}"),
    }
}

#[test]
fn locate_requests_answer_for_poa_keys() {
    use rtorb_giop::message::LocateStatus;
    let orb = server::orb();
    let root = orb.root_poa();
    let live = orb.activate(tagged(1)).unwrap();
    let dead = orb.activate(tagged(2)).unwrap();
    assert!(orb.deactivate(dead.target().object_key()));
    let user = root
        .create_poa(
            "u",
            Some(&root.the_poa_manager()),
            &[rtorb::poa::Policy::IdAssignment(
                rtorb::poa::IdAssignmentPolicy::UserId,
            )],
        )
        .unwrap();
    user.activate_object_with_id(b"x", tagged(3)).unwrap();
    let addr = rtorb_test_support::net::iiop_address(&orb);
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(TIMEOUT)).unwrap();
    assert_eq!(
        locate(&mut stream, live.target().object_key()),
        LocateStatus::ObjectHere
    );
    assert_eq!(
        locate(&mut stream, dead.target().object_key()),
        LocateStatus::UnknownObject
    );
    assert_eq!(
        locate(&mut stream, &user.object_key(b"x")),
        LocateStatus::ObjectHere
    );
    assert_eq!(
        locate(&mut stream, &user.object_key(b"y")),
        LocateStatus::UnknownObject
    );
    user.destroy(false, false).unwrap();
    assert_eq!(
        locate(&mut stream, &user.object_key(b"x")),
        LocateStatus::UnknownObject
    );
}

/// A system id freed by `deactivate_object` can be activated again with
/// `activate_object_with_id` (the POA assigned it), and its old references
/// reach the new servant, as long as the slot was not given to another
/// object meanwhile; an id this POA never assigned is `BAD_PARAM`.
#[test]
fn a_freed_system_id_can_be_activated_again() {
    let orb = server::orb();
    let c = client::orb();
    let root = orb.root_poa();
    let poa = root
        .create_poa("reactivated", Some(&root.the_poa_manager()), &[])
        .unwrap();
    root.the_poa_manager().activate().unwrap();
    let id = poa.activate_object(tagged(1)).unwrap();
    let reference = remote(&orb, &c, &poa.id_to_reference(&id).unwrap());
    assert_eq!(who(&reference).unwrap(), 1);
    poa.deactivate_object(&id).unwrap();
    assert_eq!(
        who(&reference).unwrap_err().kind(),
        Some(SystemExceptionKind::ObjectNotExist)
    );
    poa.activate_object_with_id(&id, tagged(2)).unwrap();
    assert_eq!(
        who(&reference).unwrap(),
        2,
        "the old reference, the new servant"
    );

    // Freed and taken by another object: the id is stale for good.
    poa.deactivate_object(&id).unwrap();
    let other = poa.activate_object(tagged(3)).unwrap();
    assert_ne!(other, id);
    let e = poa.activate_object_with_id(&id, tagged(4)).unwrap_err();
    assert!(
        matches!(&e, rtorb::poa::PoaError::System(s) if s.kind() == Some(SystemExceptionKind::BadParam) && s.minor == rtorb::minor::BAD_PARAM_STALE_ID),
        "{e:?}"
    );
    assert_eq!(
        who(&reference).unwrap_err().kind(),
        Some(SystemExceptionKind::ObjectNotExist)
    );

    // An id this POA did not assign.
    let e = poa
        .activate_object_with_id(b"made-up", tagged(5))
        .unwrap_err();
    assert!(
        matches!(&e, rtorb::poa::PoaError::System(s) if s.kind() == Some(SystemExceptionKind::BadParam) && s.minor == rtorb::minor::BAD_PARAM_FOREIGN_ID),
        "{e:?}"
    );
}
