//! Forwards between rtorb and JacORB, both ways, with GIOP LocateRequests.
//!
//! JacORB's client, told to bind with a LocateRequest
//! (`jacorb.locate_on_bind=on`), reaches an rtorb Cubit through references
//! rtorb forwards by every path (a plain key, a servant activator, a servant
//! locator): it reads rtorb's forwarding LocateReply and then the
//! LOCATION_FORWARD replies. And rtorb's client binds (a LocateRequest) to
//! an object a JacORB server forwards, reads JacORB's LocateReply and calls
//! the object it forwards to. A missing JDK, Maven or JacORB fails these tests.

mod forwarding;

use std::process::Stdio;
use std::sync::mpsc::RecvTimeoutError;
use std::time::Instant;

use std::net::SocketAddr;
use std::sync::mpsc::Receiver;

use forwarding::{CUBIT_ID, Path, cubit_server, forwarding_server};
use rtorb::object::{Object, Stub, Target};
use rtorb::orb::Orb;
use rtorb_cdr::Version;
use rtorb_giop::ior::{IiopProfile, ObjectReference, Profile};
use rtorb_interop::process::{ChildGuard, Collector, line_channel, run_to_end};
use rtorb_interop::{Direction, RecordingProxy, ensure_jacorb};
use rtorb_test_support::cubit::Cubit;
use rtorb_test_support::{TIMEOUT, client};

const CALLS: u32 = 20;

/// Runs JacORB's DII client through a reference forwarded by `path`; it
/// exits 0 only if every result was right.
fn jacorb_client_follows(path: Path) {
    let peers = ensure_jacorb().unwrap_or_else(|e| panic!("the JacORB peers cannot be built: {e}"));
    let (orb, ior) = forwarding_server(path);
    let mut command = peers.java("CubitDiiClient", &[("jacorb.locate_on_bind", "on")]);
    command.arg(&ior).arg(CALLS.to_string());
    let what = path.describe();
    let (status, output) = run_to_end(&mut command, "CubitDiiClient", TIMEOUT)
        .unwrap_or_else(|e| panic!("JacORB's client ({what}): {e}"));
    assert!(
        status.success() && output.contains(&format!("calls {CALLS} failures 0")),
        "JacORB's client ({what}) failed ({status}): {output}"
    );
    orb.shutdown();
}

#[test]
#[ignore = "needs JacORB (a JDK, Maven and JacORB's jars): scripts/test.sh installs them and runs this"]
fn jacorb_follows_a_forwarded_plain_key() {
    jacorb_client_follows(Path::PlainKey);
}

#[test]
#[ignore = "needs JacORB (a JDK, Maven and JacORB's jars): scripts/test.sh installs them and runs this"]
fn jacorb_follows_a_servant_activator_that_forwards() {
    jacorb_client_follows(Path::Activator);
}

#[test]
#[ignore = "needs JacORB (a JDK, Maven and JacORB's jars): scripts/test.sh installs them and runs this"]
fn jacorb_follows_a_servant_locator_that_forwards() {
    jacorb_client_follows(Path::Locator);
}

/// rtorb's client binds, through a recording proxy, to an object a JacORB
/// server forwards to an rtorb Cubit: JacORB answers its LocateRequest
/// with OBJECT_FORWARD, the forwarded IOR right after the status (JacORB
/// writes no padding there either), and rtorb follows it and calls.
#[test]
#[ignore = "needs JacORB (a JDK, Maven and JacORB's jars): scripts/test.sh installs them and runs this"]
fn rtorb_follows_a_forwarding_locate_reply_from_jacorb() {
    let peers = ensure_jacorb().unwrap_or_else(|e| panic!("the JacORB peers cannot be built: {e}"));
    let (orb, cubit) = cubit_server();
    let target = orb.object_to_string(&cubit).expect("an IOR");

    let child = peers
        .java("ForwardingServer", &[])
        .arg(&target)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start JacORB's ForwardingServer");
    let mut jacorb = ChildGuard::new(child, "ForwardingServer");
    let stderr = jacorb.take_stderr().map(Collector::start);
    let lines = line_channel(jacorb.take_stdout().expect("stdout"));
    let ior = match wait_for_reference(&lines) {
        Ok(ior) => ior,
        Err(e) => {
            jacorb.kill();
            panic!("{e}: {}", stderr.map(Collector::finish).unwrap_or_default());
        }
    };

    let client = client::orb();
    let outcome = locate_through_proxy(&client, &ior);
    jacorb.kill();
    let log = stderr.map(Collector::finish).unwrap_or_default();
    client.shutdown();
    orb.shutdown();
    if let Err(e) = outcome {
        panic!("{e}\nJacORB's ForwardingServer said:\n{log}");
    }
}

/// The `interceptor IOR:...` line JacORB's ForwardingServer prints before
/// `ready`.
fn wait_for_reference(lines: &Receiver<String>) -> Result<String, String> {
    let deadline = Instant::now() + TIMEOUT;
    let mut ior = None;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match lines.recv_timeout(left) {
            Ok(line) if line == "ready" => {
                return ior.ok_or_else(|| "ForwardingServer printed no reference".to_owned());
            }
            Ok(line) => {
                if let Some(rest) = line.strip_prefix("interceptor ") {
                    ior = Some(rest.to_owned());
                }
            }
            Err(RecvTimeoutError::Timeout) => {
                return Err(format!("ForwardingServer was not ready within {TIMEOUT:?}"));
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err("ForwardingServer exited before it was ready".to_owned());
            }
        }
    }
}

/// Binds to JacORB's object through a recording proxy, calls the Cubit
/// it forwards to, and checks JacORB's LocateReply on the wire.
fn locate_through_proxy(client: &Orb, ior: &str) -> Result<(), String> {
    let reference =
        ObjectReference::from_stringified(ior).map_err(|e| format!("JacORB's IOR: {e}"))?;
    let profile = reference
        .first_iiop()
        .ok_or("JacORB's IOR has no IIOP profile")?;
    let jacorb = SocketAddr::from(([127, 0, 0, 1], profile.port));
    let proxy = RecordingProxy::start(jacorb).map_err(|e| format!("proxy: {e}"))?;
    let via_proxy = ObjectReference::new(
        CUBIT_ID,
        vec![Profile::Iiop(IiopProfile::new(
            Version::V1_2,
            "127.0.0.1",
            proxy.local_addr().port(),
            profile.object_key.clone(),
        ))],
    );
    let object = Object::new(
        client.invoker(),
        Target::from_reference(via_proxy).map_err(|e| e.to_string())?,
    );
    let bound = object
        .validate_connection()
        .map_err(|e| format!("binding to JacORB's object: {e}"))?;
    if !bound {
        return Err("binding to JacORB's object found no usable profile".to_owned());
    }
    let stub = Cubit::unchecked_narrow(object);
    for i in 0..CALLS {
        let octet = (i % 7) as u8;
        let cube = stub
            .cube_octet(octet)
            .map_err(|e| format!("cube_octet through JacORB's forward: {e}"))?;
        if cube != octet.wrapping_pow(3) {
            return Err(format!(
                "cube_octet({octet}) through JacORB's forward gave {cube}"
            ));
        }
    }
    drop(stub);
    // Closes the connection through the proxy, which ends the recording.
    client.shutdown();
    let recording = proxy.finish(TIMEOUT)?;
    let requests = recording
        .messages(Direction::ClientToServer)
        .map_err(|e| format!("rtorb's messages: {e}"))?;
    let replies = recording
        .messages(Direction::ServerToClient)
        .map_err(|e| format!("JacORB's messages: {e}"))?;
    let first = requests.first().ok_or("rtorb sent nothing")?;
    if first.get(7) != Some(&LOCATE_REQUEST) {
        return Err(format!(
            "rtorb's first message is not a LocateRequest: {first:02x?}"
        ));
    }
    let reply = replies.first().ok_or("JacORB answered nothing")?;
    check_forwarding_locate_reply(reply)
}

const LOCATE_REQUEST: u8 = 3;
const LOCATE_REPLY: u8 = 4;
const OBJECT_FORWARD: u32 = 2;

/// A GIOP 1.2 LocateReply with OBJECT_FORWARD whose IOR starts right after
/// the status: its type id's length at offset 20, not padded to 24.
fn check_forwarding_locate_reply(reply: &[u8]) -> Result<(), String> {
    let word = |at: usize| -> Option<u32> {
        let b: [u8; 4] = reply.get(at..at + 4)?.try_into().ok()?;
        Some(if reply[6] & 1 == 1 {
            u32::from_le_bytes(b)
        } else {
            u32::from_be_bytes(b)
        })
    };
    if reply.get(..6) != Some(&b"GIOP\x01\x02"[..]) || reply.get(7) != Some(&LOCATE_REPLY) {
        return Err(format!(
            "JacORB's answer is not a GIOP 1.2 LocateReply: {reply:02x?}"
        ));
    }
    if word(16) != Some(OBJECT_FORWARD) {
        return Err(format!(
            "JacORB's LocateReply is not OBJECT_FORWARD: {reply:02x?}"
        ));
    }
    let type_id_len = word(20).ok_or("JacORB's LocateReply ends after the status")? as usize;
    let type_id = reply
        .get(24..24 + type_id_len)
        .ok_or("JacORB's LocateReply: the IOR does not start right after the status")?;
    if type_id != b"IDL:Cubit:1.0\0" {
        return Err(format!(
            "JacORB's LocateReply: the IOR does not start right after the status \
             (type id read there: {type_id:02x?})"
        ));
    }
    Ok(())
}
