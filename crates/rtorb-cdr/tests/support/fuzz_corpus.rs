//! Replaying a cargo-fuzz target's corpus (`fuzz/corpus/TARGET` at the
//! root of the repository) through its checks on stable Rust, so that a
//! plain `cargo test` runs every input the fuzzer kept. Included by path
//! by the tests of `rtorb-cdr` and `rtorb-giop`.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;

/// Runs `check` on every input of the corpus of fuzz target `target`, and
/// returns how many there were. A corpus that is missing or empty fails,
/// and so does an input that fails `check`, named in the message.
pub(crate) fn replay(target: &str, check: impl Fn(&[u8])) -> usize {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let entries =
        std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("corpus {}: {e}", dir.display()));
    let mut count = 0;
    for entry in entries {
        let path = entry.expect("a corpus entry").path();
        let input = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if catch_unwind(AssertUnwindSafe(|| check(&input))).is_err() {
            panic!("corpus input {} fails the checks", path.display());
        }
        count += 1;
    }
    assert!(count > 0, "corpus {} is empty", dir.display());
    count
}
