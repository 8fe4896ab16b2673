//! The event tools of `rtorb`: `rtorb event-channel` serves a channel at
//! `corbaloc::HOST:PORT/NAME` until interrupted, `rtorb events push`
//! supplies each line of its input, `rtorb events listen` prints each
//! event; together, against omniEvents' own channel and tools, and
//! omniEvents' tools against `rtorb event-channel`. The tests with
//! omniEvents need it and fail, saying how to install it, where it is
//! missing.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rtorb_test_support::TIMEOUT;
use rtorb_test_support::net::free_port;
use rtorb_test_support::omnievents::{
    EventService, InputFile, Peer, command, events_tool_input, run_tool,
};

/// How long a test waits for a peer that says nothing when it is ready
/// before it does again what should reach it.
const RETRY: Duration = Duration::from_secs(1);

fn rtorb() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_rtorb"));
    command.stdin(Stdio::null());
    command
}

/// `rtorb event-channel` named `name` on a free port of the loopback
/// interface, once it printed its IOR; its `corbaloc:` URL.
fn event_channel(name: &str, extra: &[&str]) -> (Peer, String) {
    let port = free_port();
    let endpoint = format!("iiop://127.0.0.1:{port}");
    let mut args = vec!["event-channel", "--endpoint", &endpoint, "--name", name];
    args.extend_from_slice(extra);
    let mut peer = Peer::spawn(rtorb().args(&args), "rtorb event-channel");
    peer.line(|l| l.starts_with("IOR:"))
        .unwrap_or_else(|e| panic!("{e}"));
    (peer, format!("corbaloc::127.0.0.1:{port}/{name}"))
}

/// `rtorb events listen` on `url`, once it is connected.
fn listen(url: &str) -> Peer {
    let mut peer = Peer::spawn(
        rtorb().args([
            "events",
            "listen",
            "--channel",
            url,
            "--endpoint",
            "iiop://127.0.0.1:0",
        ]),
        "rtorb events listen",
    );
    peer.line(|l| l.contains("listening to"))
        .unwrap_or_else(|e| panic!("{e}"));
    peer
}

/// `rtorb events push` on `url` of the lines `input`, to its end.
fn push(url: &str, input: &str) {
    let mut child = rtorb()
        .args(["events", "push", "--channel", url])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("rtorb events push starts");
    child
        .stdin
        .take()
        .expect("its input")
        .write_all(input.as_bytes())
        .expect("the lines written");
    let out = child.wait_with_output().expect("rtorb events push ends");
    assert!(
        out.status.success(),
        "rtorb events push: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn push_and_listen_through_rtorb_event_channel() {
    let (mut channel, url) = event_channel("Lines", &["--queue-length", "64"]);
    let mut listener = listen(&url);
    push(&url, "first line\nsecond line\n");
    listener
        .line(|l| l == "first line")
        .unwrap_or_else(|e| panic!("{e}"));
    listener
        .line(|l| l == "second line")
        .unwrap_or_else(|e| panic!("{e}"));
    listener.terminate();
    assert!(listener.wait().unwrap().success());
    channel.terminate();
    assert!(
        channel.wait().unwrap().success(),
        "{:?}",
        channel.lines_so_far()
    );
}

#[test]
fn the_channel_server_refuses_bad_settings_and_arguments() {
    let out = rtorb()
        .args([
            "event-channel",
            "--endpoint",
            "iiop://127.0.0.1:0",
            "--name",
            "X",
            "--overflow",
            "sometimes",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("drop-oldest, drop-newest or disconnect")
    );
    let out = rtorb()
        .args([
            "event-channel",
            "--endpoint",
            "iiop://127.0.0.1:0",
            "--name",
            "X",
            "--",
            "stray",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("\"stray\" is not an ORB option"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = rtorb()
        .args([
            "events",
            "push",
            "--channel",
            "corbaloc::127.0.0.1:1/Nothing",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
}

#[test]
#[ignore = "needs omniEvents (Debian omnievents): scripts/test.sh installs it and runs this"]
fn rtorb_push_and_listen_work_with_an_omnievents_channel() {
    let service = EventService::start();
    let url = service.create_channel("RtorbTools");
    // rtorb events push → omniEvents' channel → rtorb events listen.
    let mut listener = listen(&url);
    push(&url, "through omniEvents\n");
    listener
        .line(|l| l == "through omniEvents")
        .unwrap_or_else(|e| panic!("{e}"));
    // omniEvents' events tool → omniEvents' channel → rtorb events listen.
    let input = InputFile::new("cli-events-supply", &events_tool_input(&["from events -s"]));
    let mut cmd = command(
        "events",
        &["-ORBendPoint", "giop:tcp:127.0.0.1:", "-s", &url],
    );
    cmd.stdin(input.stdin());
    let mut supplier = Peer::spawn(&mut cmd, "events -s");
    listener
        .line(|l| l == "from events -s")
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(supplier.wait().unwrap().success());
    // rtorb events push → omniEvents' channel → omniEvents' events tool.
    let mut consumer = Peer::spawn(
        &mut command("events", &["-ORBendPoint", "giop:tcp:127.0.0.1:", &url]),
        "events",
    );
    // The tool says nothing when it has connected: push again until it
    // shows an event, within the tests' deadline.
    let deadline = Instant::now() + TIMEOUT;
    let seen = loop {
        push(&url, "to events\n");
        if consumer
            .line_within(RETRY, |l| l.contains("to events"))
            .is_ok()
        {
            break true;
        }
        if Instant::now() >= deadline {
            break false;
        }
    };
    assert!(
        seen,
        "events never showed an event: {:?}",
        consumer.lines_so_far()
    );
    listener.terminate();
    assert!(listener.wait().unwrap().success());
}

#[test]
#[ignore = "needs omniEvents (Debian omnievents): scripts/test.sh installs it and runs this"]
fn omnievents_tools_use_rtorb_event_channel() {
    let (mut channel, url) = event_channel("ForOmni", &[]);
    let mut listener = listen(&url);
    let input = InputFile::new("cli-events-to-rtorb", &events_tool_input(&["omni line"]));
    let mut cmd = command(
        "events",
        &["-ORBendPoint", "giop:tcp:127.0.0.1:", "-s", &url],
    );
    cmd.stdin(input.stdin());
    let mut supplier = Peer::spawn(&mut cmd, "events -s");
    listener
        .line(|l| l == "omni line")
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(supplier.wait().unwrap().success());
    // rmeventc destroys the channel: the listener is told, the server ends.
    run_tool("rmeventc", &[&url]);
    listener
        .line(|l| l.contains("the channel disconnected"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(listener.wait().unwrap().success());
    channel
        .line(|l| l.contains("was destroyed"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(channel.wait().unwrap().success());
}
