#!/usr/bin/env bash
# Coverage-guided fuzzing with cargo-fuzz (libFuzzer, on a nightly
# toolchain); fuzz/README.md says more.
#
#   scripts/fuzz.sh [TARGET...]
#       Runs each target (all of them by default) for RTORB_FUZZ_SECONDS
#       seconds (default 20), from the committed corpus (fuzz/corpus/TARGET)
#       and what earlier runs on this machine found (fuzz/corpus-local/TARGET,
#       not committed), where it also writes what it finds. Fails if a
#       target does not build, the toolchain fails, a run fails or leaves a
#       crash in fuzz/artifacts/TARGET, or the targets cargo-fuzz lists are
#       not exactly the ones below.
#
#   scripts/fuzz.sh --update-corpus [TARGET...]
#       Folds fuzz/corpus-local/TARGET into fuzz/corpus/TARGET and minimizes
#       the result (cargo fuzz cmin), ready to commit.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Every fuzz target, as `cargo fuzz list` must print them.
all_targets=(cdr_value giop_message object_url)

update_corpus=false
if [[ "${1:-}" == "--update-corpus" ]]; then
    update_corpus=true
    shift
fi
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
    targets=("${all_targets[@]}")
fi
for target in "${targets[@]}"; do
    if [[ " ${all_targets[*]} " != *" $target "* ]]; then
        echo "fuzz.sh: no fuzz target '$target' (targets: ${all_targets[*]})" >&2
        exit 1
    fi
done

fuzz_seconds="${RTORB_FUZZ_SECONDS:-20}"
if ! [[ "$fuzz_seconds" =~ ^[1-9][0-9]*$ ]]; then
    echo "fuzz.sh: RTORB_FUZZ_SECONDS must be a whole number of seconds, not '${fuzz_seconds}'" >&2
    exit 1
fi

if ! rustup run nightly rustc --version >/dev/null 2>&1; then
    echo "fuzz.sh: cargo fuzz needs a nightly toolchain: install one with 'rustup toolchain install nightly'" >&2
    exit 1
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi

if ! listed="$(cd fuzz && cargo +nightly fuzz list)"; then
    echo "fuzz.sh: cargo fuzz list failed" >&2
    exit 1
fi
if [[ "$(sort <<<"$listed" | xargs)" != "${all_targets[*]}" ]]; then
    echo "fuzz.sh: cargo fuzz list printed [$(xargs <<<"$listed")], expected exactly [${all_targets[*]}]:" >&2
    echo "a target was added or removed without updating scripts/fuzz.sh, or the listing failed" >&2
    exit 1
fi

# Debug assertions on (and the same flags for every command, so nothing is
# built twice): an arithmetic overflow on hostile input is a bug.
build_flags=(--debug-assertions)
if ! (cd fuzz && cargo +nightly fuzz build "${build_flags[@]}"); then
    echo "fuzz.sh: the fuzz targets do not build (the compiler's messages are above)" >&2
    exit 1
fi

if $update_corpus; then
    for target in "${targets[@]}"; do
        mkdir -p "fuzz/corpus/$target" "fuzz/corpus-local/$target"
        # Inputs are named by their SHA-1: copying never overwrites another.
        find "fuzz/corpus-local/$target" -type f -exec cp -n -t "fuzz/corpus/$target" {} +
        (cd fuzz && cargo +nightly fuzz cmin "${build_flags[@]}" "$target" "$PWD/corpus/$target")
        find "fuzz/corpus-local/$target" -type f -delete
        echo "fuzz.sh: fuzz/corpus/$target: $(find "fuzz/corpus/$target" -type f | wc -l) inputs," \
            "$(du -sb "fuzz/corpus/$target" | cut -f1) octets"
    done
    exit 0
fi

mkdir -p fuzz/target/logs
for target in "${targets[@]}"; do
    if [[ -z "$(ls -A "fuzz/corpus/$target" 2>/dev/null)" ]]; then
        echo "fuzz.sh: fuzz target $target has no corpus in fuzz/corpus/$target" >&2
        exit 1
    fi
    mkdir -p "fuzz/corpus-local/$target"
    log="fuzz/target/logs/$target.log"
    status=0
    # libFuzzer writes new inputs to the first corpus directory and reads
    # all of them.
    (cd fuzz && cargo +nightly fuzz run "${build_flags[@]}" "$target" \
        "$PWD/corpus-local/$target" "$PWD/corpus/$target" -- \
        -max_total_time="$fuzz_seconds" -rss_limit_mb=2048 -print_final_stats=1) \
        >"$log" 2>&1 || status=$?
    summary="$(grep -E "DONE +cov:|^Done [0-9]+ runs" "$log" | tr -s ' \t' ' ' | paste -sd ' ' -)" ||
        summary="no final statistics"
    echo "$target: ${summary:-no final statistics}"
    if [[ $status -ne 0 ]]; then
        # The panic and libFuzzer's verdict if there are, else the end.
        excerpt="$(awk '/panicked at/ { print; getline; print }
            /(ERROR|SUMMARY): libFuzzer|^[[:space:]]+artifacts\// { print }' "$log")"
        if [[ -n "$excerpt" ]]; then
            echo "$excerpt" >&2
        else
            tail -n 30 "$log" >&2
        fi
        echo "fuzz.sh: fuzz target $target failed (exit status $status); its whole output is in $log" >&2
        exit 1
    fi
    if [[ -n "$(ls -A "fuzz/artifacts/$target" 2>/dev/null)" ]]; then
        echo "fuzz.sh: fuzz target $target left inputs in fuzz/artifacts/$target:" >&2
        ls -A "fuzz/artifacts/$target" >&2
        echo "reproduce, fix, add a regression test and delete them (fuzz/README.md)" >&2
        exit 1
    fi
done
