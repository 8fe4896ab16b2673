//! `CORBA::ORB_init` in Rust: [`Orb::init`] takes the arguments as given
//! and hands back the ones that are not `-ORB` options, a program name
//! first if one was given (as `argv[0]` stays after `ORB_init` in C++);
//! [`Orb::init_from_env`] reads the process's command line and hands back
//! the program's own arguments, without its name.

use rtorb::orb::{CONFIG_ENV, Orb, OrbConfig};

#[test]
fn init_gives_back_what_is_not_an_orb_option_in_order() {
    let argv = [
        "prog",
        "-ORBServerThreads",
        "2",
        "a",
        "-orbsyncscope",
        "server",
        "b",
    ];
    let (orb, rest) = Orb::init(argv).unwrap();
    assert_eq!(rest, ["prog", "a", "b"]);
    assert_eq!(orb.config().server_threads, 2);
    orb.shutdown();
    // Without a program name, only the arguments.
    let (orb, rest) = Orb::init(["-ORBServerThreads", "2", "a"]).unwrap();
    assert_eq!(rest, ["a"]);
    orb.shutdown();
}

/// Runs itself again as a child process with `RTORB_CONFIG` set, so that
/// the command line and the variable are the child's own.
#[test]
fn init_from_env_leaves_the_program_name_out() {
    const NAME: &str = "init_from_env_leaves_the_program_name_out";
    if std::env::var_os(CONFIG_ENV).is_some() {
        // The child: its command line is `PROGRAM --exact NAME --nocapture`.
        let (orb, rest) = Orb::init_from_env().unwrap();
        assert_eq!(rest, ["--exact", NAME, "--nocapture"]);
        assert_eq!(orb.config().server_threads, 5);
        orb.shutdown();
        let (config, again) = OrbConfig::from_env().unwrap();
        assert_eq!(again, rest);
        assert_eq!(config.server_threads, 5);
        println!("child done");
        return;
    }
    let dir = std::env::temp_dir().join(format!("rtorb-init-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = dir.join("rtorb.cfg");
    std::fs::write(&cfg, "ServerThreads = 5\n").unwrap();
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", NAME, "--nocapture"])
        .env(CONFIG_ENV, &cfg)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("child done"),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
