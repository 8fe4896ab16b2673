//! ORB initialisation from a configuration file (`-ORBConfigFile`,
//! `OrbBuilder::config_file`, `RTORB_CONFIG`), and `file://` references.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use rtorb::minor::{BAD_PARAM_FILE_NO_REFERENCE, BAD_PARAM_FILE_UNREADABLE};
use rtorb::orb::{CONFIG_ENV, MAX_CONFIG_FILE_SIZE, Orb, OrbConfig, OrbError};
use rtorb_giop::SystemExceptionKind;
use rtorb_test_support::echo::{Echo, echo};
use rtorb_test_support::{TIMEOUT, client, server};

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rtorb-cfg-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// Every option, as `-ORB` arguments.
const ARGS: &[&str] = &[
    "-ORBListenEndpoints",
    "iiop://127.0.0.1:0;uiop:///tmp/rtorb-cfg.sock",
    "-ORBEndpoint",
    "iiop://[::1]:0",
    "-ORBInitRef",
    "NameService=corbaloc::127.0.0.1:2809/NameService",
    "-ORBInitRef",
    "Cubit=corbaname::host:2809#a/b",
    "-ORBRoundTripTimeout",
    "250",
    "-ORBConnectTimeout",
    "900",
    "-ORBServerStrategy",
    "leader-followers",
    "-ORBServerThreads",
    "3",
    "-ORBMaxMessageSize",
    "65536",
    "-ORBIncompleteMessageTimeout",
    "1500",
    "-ORBMaxConnections",
    "16",
    "-ORBMaxOutputBuffer",
    "4096",
    "-ORBServerWriteTimeout",
    "700",
    "-ORBClientConnectionStrategy",
    "multiplexed",
    "-ORBConnectionIdleTimeout",
    "1200",
    "-ORBFragmentSize",
    "65536",
    "-ORBSyncScope",
    "target",
    "-ORBClientProtocolPolicy",
    "uiop,iiop+lite,*",
    "-ORBPoaHoldLimit",
    "5",
    "-ORBnativeCharCodeSet",
    "ISO-8859-1",
    "-ORBnativeWCharCodeSet",
    "UCS-2",
    "-ORBassumedCharCodeSet",
    "UTF-8",
    "-ORBassumedWCharCodeSet",
    "0x00010109",
];

/// The same options as a configuration file, in mixed case with comments.
const FILE: &str = "\
# Every option rtorb knows.

ListenEndpoints = iiop://127.0.0.1:0;uiop:///tmp/rtorb-cfg.sock
endpoint=iiop://[::1]:0
  InitRef = NameService=corbaloc::127.0.0.1:2809/NameService
INITREF = Cubit=corbaname::host:2809#a/b
RoundTripTimeout = 250
ConnectTimeout = 900
ServerStrategy = leader-followers
ServerThreads = 3
MaxMessageSize = 65536
IncompleteMessageTimeout = 1500
MaxConnections = 16
MaxOutputBuffer = 4096
ServerWriteTimeout = 700
ClientConnectionStrategy = multiplexed
ConnectionIdleTimeout = 1200
FragmentSize = 65536
SyncScope = target
ClientProtocolPolicy = uiop,iiop+lite,*
	# indented comment
PoaHoldLimit = 5
NativeCharCodeSet = ISO-8859-1
nativeWCharCodeSet = ucs2
AssumedCharCodeSet = utf-8
AssumedWCharCodeSet = UTF-16
";

#[test]
fn a_file_with_every_option_equals_the_arguments() {
    let dir = scratch("every");
    let cfg = write(&dir, "all.cfg", FILE);
    let mut from_args = OrbConfig::default();
    assert!(
        from_args
            .apply_args(ARGS.iter().copied())
            .unwrap()
            .is_empty()
    );
    assert_ne!(from_args, OrbConfig::default());

    let mut from_file = OrbConfig::default();
    from_file.apply_file(&cfg).unwrap();
    assert_eq!(from_file, from_args);

    let (init, rest) =
        OrbConfig::from_init_args(["prog", "-ORBConfigFile", cfg.to_str().unwrap()], None).unwrap();
    assert_eq!(rest, ["prog"]);
    assert_eq!(init, from_args);

    // `-ORBConfigFile` given to apply_args directly applies it in place.
    let mut in_place = OrbConfig::default();
    in_place
        .apply_args(["-ORBconfigfile", cfg.to_str().unwrap()])
        .unwrap();
    assert_eq!(in_place, from_args);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_command_line_overrides_the_file() {
    let dir = scratch("override");
    let cfg = write(
        &dir,
        "o.cfg",
        "ServerThreads = 7\nRoundTripTimeout = 100\nSyncScope = none\n\
         InitRef = Svc=corbaloc::file-host:1/Svc\nEndpoint = iiop://127.0.0.1:0\n",
    );
    // The command-line option comes before -ORBConfigFile and still wins.
    let (c, rest) = OrbConfig::from_init_args(
        [
            "-ORBServerThreads",
            "2",
            "x",
            "-ORBConfigFile",
            cfg.to_str().unwrap(),
            "-ORBInitRef",
            "Svc=corbaloc::arg-host:2/Svc",
            "-ORBEndpoint",
            "uiop:///tmp/x.sock",
        ],
        Some(dir.join("ignored-when-an-argument-names-a-file").into()),
    )
    .unwrap();
    assert_eq!(rest, ["x"]);
    assert_eq!(c.server_threads, 2);
    assert_eq!(c.round_trip_timeout, Some(Duration::from_millis(100)));
    assert_eq!(c.sync_scope, rtorb::policy::SyncScope::None);
    // Repeated options accumulate, the file's first.
    assert_eq!(c.listen, ["iiop://127.0.0.1:0", "uiop:///tmp/x.sock"]);
    assert_eq!(
        c.initial_references.last().unwrap().1,
        "corbaloc::arg-host:2/Svc"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_environment_names_the_file_when_the_arguments_do_not() {
    let dir = scratch("envarg");
    let cfg = write(&dir, "env.cfg", "ServerThreads = 6\n");
    let (c, _) = OrbConfig::from_init_args(["a"], Some(cfg.clone().into())).unwrap();
    assert_eq!(c.server_threads, 6);
    let (c, _) = OrbConfig::from_init_args(["-ORBServerThreads", "1"], Some(cfg.into())).unwrap();
    assert_eq!(c.server_threads, 1);
    let missing = dir.join("missing.cfg");
    let e = OrbConfig::from_init_args(["a"], Some(missing.clone().into())).unwrap_err();
    assert!(e.to_string().contains(missing.to_str().unwrap()), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `Orb::init` reads `RTORB_CONFIG`: this test runs itself again as a
/// child process with the variable set (the variable is the process's, so
/// it is not changed under the other tests' feet).
#[test]
fn orb_init_reads_rtorb_config() {
    if let Some(path) = std::env::var_os(CONFIG_ENV) {
        // The child.
        let (orb, rest) = Orb::init(["child"]).unwrap();
        assert_eq!(rest, ["child"]);
        assert_eq!(orb.config().server_threads, 5);
        assert_eq!(orb.config().poa_hold_limit, 9);
        assert_eq!(orb.endpoints().len(), 1);
        orb.shutdown();
        println!("child saw {}", Path::new(&path).display());
        return;
    }
    let dir = scratch("env");
    let cfg = write(
        &dir,
        "rtorb.cfg",
        "ServerThreads = 5\nPoaHoldLimit = 9\nListenEndpoints = iiop://127.0.0.1:0\n",
    );
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "orb_init_reads_rtorb_config", "--nocapture"])
        .env(CONFIG_ENV, &cfg)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains(&format!("child saw {}", cfg.display())),
        "{stdout}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn configuration_file_errors_name_the_file_and_line() {
    let dir = scratch("errors");
    for (text, line, what) in [
        ("# ok\n\nFrobnicate = 1\n", 3, "unknown option"),
        ("ServerThreads = many\n", 1, "not a whole number"),
        (
            "ServerThreads = 2\nServerStrategy = thread-per-request\n",
            2,
            "ServerStrategy",
        ),
        ("\n\njust words\n", 3, "expected name = value"),
        ("InitRef = NoEquals\n", 1, "Name=URL"),
        ("Endpoint =\n", 1, "needs a value"),
        ("= 3\n", 1, "bad option name"),
        ("Server Threads = 3\n", 1, "bad option name"),
        ("ConfigFile = other.cfg\n", 1, "ConfigFile"),
        ("FragmentSize = 8\n", 1, "FragmentSize"),
    ] {
        let cfg = write(&dir, "bad.cfg", text);
        let e = OrbConfig::default().apply_file(&cfg).unwrap_err();
        assert!(e.line == Some(line), "{text:?}: {e:?}");
        let msg = e.to_string();
        assert!(
            msg.starts_with(&format!("{}:{line}: ", cfg.display())),
            "{msg}"
        );
        assert!(msg.contains(what), "{text:?}: {msg}");
        // The same error through Orb::init and the builder.
        let e = Orb::init(["-ORBConfigFile", cfg.to_str().unwrap()]).unwrap_err();
        assert!(e.to_string().contains(what), "{e}");
        let e = Orb::builder().config_file(&cfg).build().unwrap_err();
        assert!(e.to_string().contains(what), "{e}");
    }

    // Unreadable, too large, not text: the file, no line.
    let missing = dir.join("missing.cfg");
    let big = write(
        &dir,
        "big.cfg",
        &"# padding\n".repeat(MAX_CONFIG_FILE_SIZE as usize / 10 + 1),
    );
    let binary = dir.join("binary.cfg");
    std::fs::write(&binary, [0xff, 0xfe, b'=', 0x80]).unwrap();
    for (path, what) in [
        (missing, "cannot read"),
        (dir.clone(), "cannot read"),
        (big, "larger than the limit"),
        (binary, "not UTF-8"),
    ] {
        let e = OrbConfig::default().apply_file(&path).unwrap_err();
        assert!(e.line.is_none(), "{e:?}");
        let msg = e.to_string();
        assert!(msg.starts_with(&format!("{}: ", path.display())), "{msg}");
        assert!(msg.contains(what), "{msg}");
    }
    // -ORBConfigFile without a path.
    assert!(matches!(
        OrbConfig::from_init_args(["-ORBConfigFile"], None),
        Err(OrbError::Option(_))
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_orb_from_a_config_file_serves_a_call() {
    let dir = scratch("serve");
    let cfg = write(
        &dir,
        "server.cfg",
        "ListenEndpoints = iiop://127.0.0.1:0\nServerStrategy = reactive\n",
    );
    let (server, _) = Orb::init(["-ORBConfigFile", cfg.to_str().unwrap()]).unwrap();
    assert_eq!(
        server.config().server_strategy,
        rtorb::orb::ServerStrategy::Reactive
    );
    let obj = server
        .activate_with_key(&b"Echo"[..], Arc::new(Echo))
        .unwrap();
    let ior = server.object_to_string(&obj).unwrap();

    let client_cfg = write(
        &dir,
        "client.cfg",
        &format!(
            "RoundTripTimeout = {}\nInitRef = Echo={ior}\n",
            TIMEOUT.as_millis()
        ),
    );
    let client = Orb::builder().config_file(&client_cfg).build().unwrap();
    assert_eq!(client.config().round_trip_timeout, Some(TIMEOUT));
    let echo_ref = client.resolve_initial_references("Echo").unwrap();
    assert_eq!(echo(&echo_ref, 41).unwrap(), 41);
    server.shutdown();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn file_references_to_an_ior_and_a_corbaloc() {
    let dir = scratch("fileref");
    let server = server::orb();
    let obj = server
        .activate_with_key(&b"Echo"[..], Arc::new(Echo))
        .unwrap();
    let addr = rtorb_test_support::net::iiop_address(&server);
    let ior_file = write(
        &dir,
        "echo.ior",
        &format!("  {}\n\n", server.object_to_string(&obj).unwrap()),
    );
    let loc_file = write(&dir, "echo.loc", &format!("corbaloc::1.2@{addr}/Echo\n"));

    let client = client::orb();
    let by_ior = client
        .string_to_object(&format!("file://{}", ior_file.display()))
        .unwrap();
    assert_eq!(echo(&by_ior, 7).unwrap(), 7);
    let by_loc = client
        .string_to_object(&format!("FILE://{}", loc_file.display()))
        .unwrap();
    assert_eq!(echo(&by_loc, -3).unwrap(), -3);

    // A relative path (TAO's `file://relative`), from the current directory.
    let cwd = std::env::current_dir().unwrap();
    let rel = pathdiff(&loc_file, &cwd);
    let by_rel = client.string_to_object(&format!("file://{rel}")).unwrap();
    assert_eq!(echo(&by_rel, 11).unwrap(), 11);
    server.shutdown();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `path` relative to `base` (both absolute), through `..` components.
fn pathdiff(path: &Path, base: &Path) -> String {
    let p: Vec<_> = path.components().collect();
    let b: Vec<_> = base.components().collect();
    let common = p.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = vec!["..".into(); b.len() - common];
    parts.extend(
        p[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("/")
}

#[test]
fn bad_file_references_are_bad_param_with_minor_codes() {
    let dir = scratch("badref");
    let client = Orb::builder().build().unwrap();
    let big = write(
        &dir,
        "big.ior",
        &"x".repeat(MAX_CONFIG_FILE_SIZE as usize + 1),
    );
    let binary = dir.join("binary.ior");
    std::fs::write(&binary, [b'I', b'O', b'R', b':', 0xff]).unwrap();
    let cases = [
        (dir.join("missing.ior"), BAD_PARAM_FILE_UNREADABLE),
        (dir.clone(), BAD_PARAM_FILE_UNREADABLE),
        (big, BAD_PARAM_FILE_UNREADABLE),
        (binary, BAD_PARAM_FILE_UNREADABLE),
        (write(&dir, "empty.ior", " \n"), BAD_PARAM_FILE_NO_REFERENCE),
        (
            write(&dir, "words.ior", "hello\n"),
            BAD_PARAM_FILE_NO_REFERENCE,
        ),
        (
            write(&dir, "odd.ior", "IOR:0123zz\n"),
            BAD_PARAM_FILE_NO_REFERENCE,
        ),
        (
            write(&dir, "badloc.ior", "corbaloc::host:notaport/X\n"),
            BAD_PARAM_FILE_NO_REFERENCE,
        ),
        (
            write(&dir, "nested.ior", "file:///etc/hostname\n"),
            BAD_PARAM_FILE_NO_REFERENCE,
        ),
        (
            write(&dir, "rir.ior", "corbaloc:rir:/NoSuchName\n"),
            BAD_PARAM_FILE_NO_REFERENCE,
        ),
    ];
    for (path, minor) in cases {
        let e = client
            .string_to_object(&format!("file://{}", path.display()))
            .unwrap_err();
        assert_eq!(e.kind(), Some(SystemExceptionKind::BadParam), "{path:?}");
        assert_eq!(e.minor, minor, "{path:?}");
    }
    let e = client.string_to_object("file://").unwrap_err();
    assert_eq!(e.minor, BAD_PARAM_FILE_UNREADABLE);
    std::fs::remove_dir_all(&dir).unwrap();
}
