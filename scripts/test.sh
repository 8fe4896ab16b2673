#!/usr/bin/env bash
# The project's single test command: system dependencies, formatting, lints,
# and every test of the workspace (including the live omniORB and tshark
# interoperability tests, which fail rather than skip when a peer is missing).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

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

step "tests (cargo test --workspace)"
cargo test --workspace

# Bounded fuzzing goes here, once fuzz targets exist, e.g.:
#   step "fuzz (60 s per target)"
#   for target in $(cargo fuzz list); do
#       cargo fuzz run "$target" -- -max_total_time=60
#   done

current_step=""
echo
echo "test.sh: all steps passed"
