#!/usr/bin/env bash
# Installs the Debian packages GroupWire needs when they are missing:
# libzstd-dev (the compression layer links libzstd), zstd (interop tests run the CLI),
# pkg-config (SwiftPM finds libzstd with it) and tshark (the dissector tests).
set -euo pipefail
missing=()
for pkg in libzstd-dev zstd pkg-config tshark; do
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
