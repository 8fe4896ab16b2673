//! Compares the preprocessor with omniORB's own (`omnicpp`) on the IDL that
//! omniORB installs: with comments removed, both must give the same words.

use std::path::{Path, PathBuf};
use std::process::Command;

use rtorb_idl::preprocess::Preprocessor;

const OMNIORB_IDL: &str = "/usr/share/idl/omniORB";

/// Removes `//` and `/* */` comments (not inside literals).
fn strip_comments(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for d in chars.by_ref() {
                    if d == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut star = false;
                for d in chars.by_ref() {
                    if star && d == '/' {
                        break;
                    }
                    star = d == '*';
                }
                out.push(' ');
            }
            '"' | '\'' => {
                out.push(c);
                while let Some(d) = chars.next() {
                    out.push(d);
                    if d == '\\' {
                        out.extend(chars.next());
                    } else if d == c || d == '\n' {
                        break;
                    }
                }
            }
            _ => out.push(c),
        }
    }
    out
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

#[test]
#[ignore = "needs omniORB (Debian omniorb, omniorb-idl): scripts/test.sh installs it and runs this"]
fn same_words_as_omnicpp() {
    let root = Path::new(OMNIORB_IDL);
    assert!(
        root.is_dir(),
        "{OMNIORB_IDL} is missing: install Debian's omniorb-idl package"
    );
    assert!(
        Command::new("omnicpp")
            .arg("-undef")
            .arg("/dev/null")
            .output()
            .is_ok(),
        "omnicpp is not installed: install Debian's omniidl package (scripts/install-deps.sh)"
    );
    let mut files: Vec<PathBuf> = ["", "COS"]
        .iter()
        .flat_map(|sub| {
            std::fs::read_dir(root.join(sub))
                .into_iter()
                .flatten()
                .flatten()
        })
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "idl"))
        .collect();
    files.sort();
    let mut pp = Preprocessor::new();
    pp.include_dir(root).include_dir(root.join("COS"));
    let mut compared = 0;
    for file in &files {
        let Ok(ours) = pp.run_file(file) else {
            continue;
        };
        let theirs = Command::new("omnicpp")
            .arg(format!("-I{}", root.display()))
            .arg(format!("-I{}", root.join("COS").display()))
            .arg(file)
            .output()
            .expect("omnicpp runs");
        assert!(
            theirs.status.success(),
            "omnicpp failed on {}",
            file.display()
        );
        let theirs = String::from_utf8_lossy(&theirs.stdout);
        let theirs: String = theirs
            .lines()
            .filter(|l| !l.trim_start().starts_with("# ") && !l.trim_start().starts_with("#line"))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(
            words(&strip_comments(&ours.text)),
            words(&strip_comments(&theirs)),
            "{}",
            file.display()
        );
        assert!(
            !words(&theirs).is_empty(),
            "omnicpp gave nothing for {}",
            file.display()
        );
        compared += 1;
    }
    assert!(compared >= 50, "only {compared} files compared");
}
