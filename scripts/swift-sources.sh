#!/usr/bin/env bash
# The Swift files we write by hand, one per line: every tracked .swift file under Sources,
# Tests, Plugins and the Fuzz and Benchmarks packages' Sources, without generated files
# (those whose first line is a "DO NOT EDIT" stamp: the goldens, the protobuf shapes).
# `make format` and `make lint` read this list, so generated code is never reformatted.
set -euo pipefail
cd "$(dirname "$0")/.."
git ls-files -- 'Sources/*.swift' 'Tests/*.swift' 'Plugins/*.swift' 'Benchmarks/Sources/*.swift' 'Fuzz/Sources/*.swift' |
    while IFS= read -r file; do
        head -n 1 "$file" | grep -q '^// DO NOT EDIT' || printf '%s\n' "$file"
    done
