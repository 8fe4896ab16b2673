#!/usr/bin/env bash
# Calls through a forwarded reference, side by side with omniORB.
#
# omniORB's cubit_server (interop/omniorb, started with -forward) serves the
# Cubit and a POA whose servant locator forwards every request to it
# (ForwardRequest: a LOCATION_FORWARD reply). Each client calls `void` N
# times through the forwarding reference, and through the Cubit's own
# reference for comparison; the server, restarted for each client, prints
# how often its locator was asked. Server and client share CPU 1.
#
# Usage: scripts/bench-forwarded.sh [RTORB_BENCH_BINARY...]
#   (default: target/release/rtorb-bench, from
#   cargo build --release -p rtorb-bench; give two to compare builds).
# Needs the omniORB peers: make -C interop/omniorb OUT=target/interop, and
# make -C interop/omniorb OUT=target/bench-omniorb bench.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

N=${N:-20000}
ROUNDS=${ROUNDS:-3}
PORT=${PORT:-23999}
SERVER=target/interop/cubit_server
OMNI_CLIENT=target/bench-omniorb/cubit_bench
rtorbs=("$@")
[[ ${#rtorbs[@]} -eq 0 ]] && rtorbs=(target/release/rtorb-bench)
for f in "$SERVER" "$OMNI_CLIENT" "${rtorbs[@]}"; do
    [[ -x $f ]] || { echo "bench-forwarded: $f is missing (see the usage)" >&2; exit 1; }
done
out=$(mktemp)
trap 'rm -f "$out"' EXIT

# run LABEL WHICH(direct|forwarder) CLIENT...: one client against a fresh server.
run() {
    local label=$1 which=$2
    shift 2
    taskset -c 1 "$SERVER" -forward -ORBendPoint "giop:tcp:127.0.0.1:$PORT" > "$out" &
    local server=$!
    local waited=0
    until grep -q '^forwarder ' "$out" 2>/dev/null; do
        kill -0 "$server" 2>/dev/null || { echo "bench-forwarded: the server exited" >&2; exit 1; }
        (( waited++ < 200 )) || { echo "bench-forwarded: the server printed no reference" >&2; exit 1; }
        sleep 0.05
    done
    local direct forwarder target
    direct=$(sed -n 1p "$out")
    forwarder=$(sed -n 's/^forwarder //p' "$out")
    target=$direct
    [[ $which == forwarder ]] && target=$forwarder
    echo "== $label"
    taskset -c 1 "$@" "$target"
    "${rtorbs[0]}" cubit-client --op void -n 100 --shutdown "$direct" > /dev/null
    wait "$server" || true
    grep '^forwarded' "$out" || true
}

for round in $(seq "$ROUNDS"); do
    echo "# round $round"
    for rtorb in "${rtorbs[@]}"; do
        run "$rtorb, forwarded" forwarder "$rtorb" cubit-client --op void -n "$N"
    done
    run "omniORB, forwarded" forwarder "$OMNI_CLIENT" -n "$N"
    run "${rtorbs[-1]}, direct" direct "${rtorbs[-1]}" cubit-client --op void -n "$N"
    run "omniORB, direct" direct "$OMNI_CLIENT" -n "$N"
done
