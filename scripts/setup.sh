#!/usr/bin/env bash
# Installs what GroupWire needs to build and test when it is missing:
#   libzstd (the compression layer links it), the zstd CLI (interop tests run it),
#   pkg-config (SwiftPM finds libzstd with it), openssl (the relay's TLS tests make a
#   self-signed certificate with it; macOS has one), tshark (the dissector tests;
#   optional on macOS, where the tests that need it are skipped without it) and
#   nats-server (the relay cluster's bus; its tests start servers on free ports).
# Debian/Ubuntu: apt-get. macOS: Homebrew when present, otherwise it says exactly what to
# install and stops. Anything else: it says what to install.
set -euo pipefail

os=$(uname -s)

case "$os" in
Darwin)
    # Homebrew puts libzstd.pc under its prefix; pkg-config and zstd come from the same place.
    needed=(zstd pkg-config nats-server)
    if ! command -v brew >/dev/null 2>&1; then
        missing=()
        command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
        if ! command -v zstd >/dev/null 2>&1 || ! pkg-config --exists libzstd 2>/dev/null; then
            missing+=(zstd)
        fi
        command -v nats-server >/dev/null 2>&1 || missing+=(nats-server)
        if [ ${#missing[@]} -eq 0 ]; then
            exit 0
        fi
        echo "setup: GroupWire needs ${missing[*]} (libzstd with its pkg-config file, the zstd CLI, pkg-config, nats-server)." >&2
        echo "setup: install Homebrew (https://brew.sh), then run: brew install zstd pkg-config nats-server" >&2
        echo "setup: or with MacPorts: sudo port install zstd pkgconfig nats-server" >&2
        echo "setup: optional, for the dissector tests: brew install --cask wireshark" >&2
        exit 1
    fi
    missing=()
    for pkg in "${needed[@]}"; do
        brew list --formula "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "setup: installing ${missing[*]} with Homebrew"
        brew install "${missing[@]}"
    fi
    if ! command -v tshark >/dev/null 2>&1; then
        echo "setup: tshark not found: the dissector tests will be skipped (optional: brew install --cask wireshark)"
    fi
    ;;
Linux)
    if ! command -v dpkg >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
        echo "setup: no dpkg/apt-get here; install with your package manager: libzstd (with headers and libzstd.pc), zstd, pkg-config, openssl, nats-server, tshark (optional)" >&2
        exit 1
    fi
    missing=()
    for pkg in libzstd-dev zstd pkg-config openssl tshark nats-server; do
        dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
    done
    if [ ${#missing[@]} -eq 0 ]; then
        exit 0
    fi
    echo "setup: installing ${missing[*]}"
    sudo_cmd=()
    if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
    export DEBIAN_FRONTEND=noninteractive
    "${sudo_cmd[@]}" apt-get update -qq
    "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
    ;;
*)
    echo "setup: $os is not supported by this script; install libzstd (with headers and libzstd.pc), zstd, pkg-config and, optionally, tshark" >&2
    exit 1
    ;;
esac
