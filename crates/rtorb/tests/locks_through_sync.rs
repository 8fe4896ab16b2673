//! Every lock of the ORB goes through `rtorb::sync`, so that the
//! `lock-count` feature counts them all: no module of `src/`, nor of the
//! crate `rtorb-rt` below it, other than `rtorb-rt`'s `sync.rs` names the
//! standard library's (or parking_lot's) locks.

use std::path::Path;

/// The locks `rtorb::sync` wraps.
const LOCKS: [&str; 3] = ["Mutex", "RwLock", "Condvar"];

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The places in `text` that name a lock from `std::sync` or parking_lot.
fn foreign_locks(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (at, _) in text.match_indices("std::sync::") {
        // The path or `use` group up to the end of the item.
        let rest = &text[at..];
        let end = rest.find([';', '\n']).unwrap_or(rest.len());
        let end = if rest[..end].contains('{') {
            rest.find('}').map_or(rest.len(), |e| e + 1)
        } else {
            end
        };
        let item = &rest[..end];
        if LOCKS.iter().any(|l| {
            item.match_indices(l).any(|(i, _)| {
                let after = item[i + l.len()..].chars().next();
                !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
            })
        }) {
            found.push(item.split_whitespace().collect::<Vec<_>>().join(" "));
        }
    }
    if text.contains("parking_lot") {
        found.push("parking_lot".to_owned());
    }
    found
}

#[test]
fn the_scanner_finds_foreign_locks() {
    assert_eq!(
        foreign_locks("use std::sync::{Arc,\n    Mutex};"),
        ["std::sync::{Arc, Mutex}"]
    );
    assert_eq!(
        foreign_locks("let m = std::sync::RwLock::new(1);"),
        ["std::sync::RwLock::new(1)"]
    );
    assert_eq!(foreign_locks("parking_lot::Mutex::new(())").len(), 1);
    assert!(foreign_locks("use std::sync::{Arc, OnceLock};").is_empty());
    assert!(foreign_locks("use std::sync::MutexGuard;").is_empty());
    assert!(foreign_locks("use crate::sync::Mutex;").is_empty());
}

#[test]
fn no_module_but_sync_uses_foreign_locks() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rt = manifest.parent().expect("crates/").join("rtorb-rt/src");
    let sync = rt.join("sync.rs");
    assert!(sync.is_file(), "{}", sync.display());
    let mut files = Vec::new();
    rust_files(&manifest.join("src"), &mut files);
    assert!(files.len() > 10, "{files:?}");
    let ours = files.len();
    rust_files(&rt, &mut files);
    assert!(files.len() > ours + 5, "{files:?}");
    let mut offenders = Vec::new();
    for f in files {
        if f == sync {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        for item in foreign_locks(&text) {
            offenders.push(format!("{}: {item}", f.display()));
        }
    }
    assert!(
        offenders.is_empty(),
        "use rtorb::sync's Mutex, RwLock and Condvar (crate::sync) instead:\n{}",
        offenders.join("\n")
    );
}
