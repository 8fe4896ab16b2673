//! omniORB programs in the pull model against an rtorb channel: a pull
//! consumer that pulls what rtorb's suppliers push, and a pull supplier
//! the channel pulls from (`tests/omniorb/pull_client.cc`, built here
//! against the stubs omniidl makes of the crate's own IDL). The tests
//! need omniORB's development files, omniidl, g++ and pkg-config, and
//! fail, saying how to install them, where they are missing.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use rtorb_events::ChannelConfig;
use rtorb_test_support::TIMEOUT;
use rtorb_test_support::omnievents::Peer;
use rtorb_test_support::wait::eventually;
use support::{
    Recorder, channel, connect_consumer, connect_supplier, orb, push_all, serve_consumer,
};

const HINT: &str = "run scripts/install-deps.sh (Debian libomniorb4-dev omniidl g++ pkg-config)";

/// Runs `command`, which must succeed; its standard output.
fn run(command: &mut Command) -> Result<String, String> {
    let out = command
        .output()
        .map_err(|e| format!("{command:?} does not start: {e}: {HINT}"))?;
    if !out.status.success() {
        return Err(format!(
            "{command:?} failed ({}): {}{}\n{HINT}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn build() -> Result<PathBuf, String> {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let idl = crate_dir.join("idl");
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("omniorb-pull-client");
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    // The C++ back end takes one file at a time.
    for file in ["CosEventComm.idl", "CosEventChannelAdmin.idl"] {
        run(Command::new("omniidl")
            .arg("-bcxx")
            .arg("-C")
            .arg(&out)
            .arg("-I")
            .arg(&idl)
            .arg(idl.join(file)))?;
    }
    let flags = run(Command::new("pkg-config").args(["--cflags", "--libs", "omniDynamic4"]))?;
    let program = out.join("pull_client");
    run(Command::new("g++")
        .arg("-o")
        .arg(&program)
        .arg("-I")
        .arg(&out)
        .arg(crate_dir.join("tests/omniorb/pull_client.cc"))
        .arg(out.join("CosEventCommSK.cc"))
        .arg(out.join("CosEventChannelAdminSK.cc"))
        .args(flags.split_whitespace()))?;
    Ok(program)
}

/// The omniORB pull client, built once per run of these tests.
fn pull_client() -> PathBuf {
    static BUILT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    BUILT
        .get_or_init(build)
        .clone()
        .unwrap_or_else(|e| panic!("cannot build the omniORB pull client: {e}"))
}

#[test]
#[ignore = "needs omniORB (Debian libomniorb4-dev, omniidl): scripts/test.sh installs it and runs this"]
fn an_omniorb_pull_consumer_pulls_from_an_rtorb_channel() {
    let server = orb();
    let chan = channel(&server, "OmniPulls", ChannelConfig::default());
    let ior = server.object_to_string(chan.reference()).expect("an IOR");
    let mut consumer = Peer::spawn(
        Command::new(pull_client()).args(["consume", &ior, "2"]),
        "pull_client consume",
    );
    consumer
        .line(|l| l == "connected")
        .unwrap_or_else(|e| panic!("{e}"));
    push_all(&connect_supplier(chan.reference()), &["one", "two"]);
    consumer
        .line(|l| l == "event: one")
        .unwrap_or_else(|e| panic!("{e}"));
    consumer
        .line(|l| l == "event: two")
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        consumer.wait().unwrap().success(),
        "{:?}",
        consumer.lines_so_far()
    );
    // It disconnected its proxy at the end.
    assert!(eventually(TIMEOUT, || chan.stats().proxies[1] == 0));
    chan.destroy();
}

#[test]
#[ignore = "needs omniORB (Debian libomniorb4-dev, omniidl): scripts/test.sh installs it and runs this"]
fn an_rtorb_channel_pulls_from_an_omniorb_pull_supplier() {
    let server = orb();
    let config = ChannelConfig {
        pull_retry: std::time::Duration::from_millis(10),
        ..ChannelConfig::default()
    };
    let chan = channel(&server, "OmniSupplies", config);
    let recorder = Recorder::new();
    let _consumer = connect_consumer(chan.reference(), serve_consumer(&server, &recorder));
    let ior = server.object_to_string(chan.reference()).expect("an IOR");
    let mut supplier = Peer::spawn(
        Command::new(pull_client()).args([
            "-ORBendPoint",
            "giop:tcp:127.0.0.1:",
            "supply",
            &ior,
            "alpha",
            "beta",
        ]),
        "pull_client supply",
    );
    supplier
        .line(|l| l == "connected")
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(recorder.wait_events(2), ["alpha", "beta"]);
    // Destroying the channel tells the supplier, which then ends.
    chan.destroy();
    supplier
        .line(|l| l == "disconnected")
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(supplier.wait().unwrap().success());
}
