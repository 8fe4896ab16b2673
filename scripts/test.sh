#!/usr/bin/env bash
# The project's single test command: system dependencies, formatting, lints,
# and every test of the workspace (including the live omniORB and tshark
# interoperability tests, which fail rather than skip when a peer is missing).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

# The omniORB IDL corpus (crates/rtorb-idl-omniorb) is skipped by a plain
# `cargo build` where Debian's omniorb-idl is absent; here it must compile.
export RTORB_REQUIRE_OMNIORB_IDL=1

if [[ -n "${RTORB_BLESS+set}" ]]; then
    echo "test.sh: RTORB_BLESS is set: the golden-file tests would rewrite their files" >&2
    echo "and pass. Bless with the command a failing golden test prints, review the" >&2
    echo "diff, then run test.sh without RTORB_BLESS." >&2
    exit 2
fi

current_step=""
on_exit() {
    local status=$?
    if [[ $status -ne 0 ]]; then
        echo >&2
        echo "test.sh: FAILED at step: ${current_step} (exit status ${status})" >&2
    fi
}
trap on_exit EXIT

step() {
    current_step="$1"
    echo
    echo "==> $1"
}

step "install system dependencies (scripts/install-deps.sh)"
bash scripts/install-deps.sh

step "formatting (cargo fmt --all --check)"
cargo fmt --all --check

step "lints (cargo clippy --workspace --all-targets -- -D warnings)"
cargo clippy --workspace --all-targets -- -D warnings

step "documentation (cargo doc, warnings denied)"
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --workspace --quiet

step "tests (cargo test --workspace -- --include-ignored)"
# Ignored tests are those that need omniORB's tools, installed above.
cargo test --workspace -- --include-ignored

step "stage probes (cargo test -p rtorb --features probe --test orb_probe)"
# The probe feature is off in the workspace's builds; its test needs it.
cargo test -p rtorb --features probe --test orb_probe

step "bounded fuzzing (scripts/fuzz.sh, ${RTORB_FUZZ_SECONDS:-20} s per target)"
# The tests above already fuzz every decoder on stable Rust and replay each
# fuzz target's corpus; this adds coverage-guided runs with libFuzzer, which
# need a nightly toolchain. fuzz/README.md says how to run one target for
# longer and what to do with what it finds.
bash scripts/fuzz.sh

current_step=""
echo
echo "test.sh: all steps passed"
