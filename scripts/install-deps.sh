#!/usr/bin/env bash
# Install the Debian packages that the interoperability tests need: the
# omniORB peer (headers, IDL compiler, catior/genior/nameclt, standard IDL
# files), omniORB's naming service omniNames, omniEvents (the event
# service and its eventc/eventf/events/rmeventc tools), tshark for its GIOP
# dissector, a C++ toolchain to build the peers, and a JDK with Maven for
# the JacORB peers, whose jars it then fetches from Maven Central into the
# local Maven repository.
#
# Idempotent: when every package is already installed this only queries dpkg.
set -euo pipefail

packages=(libomniorb4-dev omniidl omniorb omniorb-idl omniorb-nameserver omnievents tshark g++ make pkg-config maven)

missing=()
for pkg in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
    if [[ "$status" != "installed" ]]; then
        missing+=("$pkg")
    fi
done
# Any JDK will do for the JacORB peers; Debian's default one if there is none.
if ! command -v javac >/dev/null 2>&1; then
    missing+=(default-jdk-headless)
fi

# JacORB's jars (interop/jacorb/pom.xml), once Maven is there.
fetch_jacorb() {
    local pom
    pom="$(dirname "${BASH_SOURCE[0]}")/../interop/jacorb/pom.xml"
    if ! mvn --batch-mode --quiet --file "$pom" dependency:resolve; then
        echo "install-deps: ERROR: Maven could not fetch JacORB's jars (see $pom)" >&2
        exit 1
    fi
    echo "install-deps: JacORB's jars are in the local Maven repository"
}

if [[ ${#missing[@]} -eq 0 ]]; then
    echo "install-deps: all packages present (${packages[*]}, a JDK)"
    fetch_jacorb
    exit 0
fi

echo "install-deps: installing missing packages: ${missing[*]}"

if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-deps: ERROR: apt-get not found; install these packages by hand: ${missing[*]}" >&2
    exit 1
fi

sudo_cmd=()
if [[ "$(id -u)" -ne 0 ]]; then
    if command -v sudo >/dev/null 2>&1; then
        sudo_cmd=(sudo)
    else
        echo "install-deps: ERROR: not root and sudo is unavailable; install as root: ${missing[*]}" >&2
        exit 1
    fi
fi

# tshark asks whether non-root users may capture; answer without prompting.
echo "wireshark-common wireshark-common/install-setuid boolean false" \
    | "${sudo_cmd[@]}" debconf-set-selections 2>/dev/null || true

if ! "${sudo_cmd[@]}" apt-get update; then
    echo "install-deps: ERROR: apt-get update failed" >&2
    exit 1
fi
if ! "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"; then
    echo "install-deps: ERROR: apt-get install failed for: ${missing[*]}" >&2
    exit 1
fi

for pkg in "${missing[@]}"; do
    status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
    if [[ "$status" != "installed" ]]; then
        echo "install-deps: ERROR: package $pkg is still not installed after apt-get install" >&2
        exit 1
    fi
done
fetch_jacorb
echo "install-deps: done"
