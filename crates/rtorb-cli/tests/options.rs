//! `rtorb options` lists every ORB option of the table, and `--check`
//! reads a configuration file as an ORB does: the settings it makes, or
//! the file and line of what is wrong.

use std::process::{Command, Output};

fn rtorb(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rtorb"))
        .args(args)
        .output()
        .expect("run rtorb")
}

/// A file of this test process under the system's temporary directory.
fn scratch_file(name: &str, contents: &str) -> std::path::PathBuf {
    let path =
        std::env::temp_dir().join(format!("rtorb-cli-options-{}-{name}", std::process::id()));
    std::fs::write(&path, contents).unwrap();
    path
}

fn text(out: &[u8]) -> String {
    String::from_utf8_lossy(out).into_owned()
}

#[test]
fn lists_every_option_of_the_table() {
    let out = rtorb(&["options"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let listing = text(&out.stdout);
    assert_eq!(listing, rtorb::orb::options::help());
    for option in rtorb::orb::options::ORB_OPTIONS {
        assert!(
            listing.contains(&format!("-ORB{}\n", option.name))
                || listing.contains(&format!("-ORB{} (", option.name)),
            "-ORB{} missing from:\n{listing}",
            option.name
        );
    }
    let out = rtorb(&["options", "--markdown"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), rtorb::orb::options::markdown_table());
}

#[test]
fn check_prints_the_settings_a_file_and_options_make() {
    let file = scratch_file(
        "server.conf",
        "# a server\nListenEndpoints = iiop://127.0.0.1:2809\nServerThreads = 8\n",
    );
    let path = file.to_str().unwrap();
    let out = rtorb(&["options", "--check", path, "--", "-ORBServerThreads", "3"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let settings = text(&out.stdout);
    assert!(settings.contains("iiop://127.0.0.1:2809"), "{settings}");
    // The option on the command line comes after the file, and wins.
    let mut config = rtorb::OrbConfig::default();
    config.apply_file(&file).unwrap();
    config.apply_args(["-ORBServerThreads", "3"]).unwrap();
    assert_eq!(settings, format!("{config:#?}\n"));
    std::fs::remove_file(file).unwrap();
}

#[test]
fn check_names_the_line_that_is_wrong() {
    let file = scratch_file("bad.conf", "ServerThreads = 8\nNoSuchOption = 1\n");
    let out = rtorb(&["options", "--check", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.starts_with(&format!("rtorb: {}:2: ", file.display())),
        "{err}"
    );
    assert!(err.contains("NoSuchOption"), "{err}");
    std::fs::remove_file(file).unwrap();

    let out = rtorb(&["options", "--check", "--", "-ORBServerThreads", "many"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("ServerThreads"),
        "{}",
        text(&out.stderr)
    );

    let out = rtorb(&[
        "options",
        "--check",
        "--",
        "-ORBServerThreads",
        "2",
        "stray",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stderr), "rtorb: not an ORB option: \"stray\"\n");
}
