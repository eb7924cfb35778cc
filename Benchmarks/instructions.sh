#!/usr/bin/env bash
# Instructions per message for CompressionBenchmark's cases, counted by callgrind: the
# same numbers on every run, whatever else the machine is doing, so they back up the
# timed ratios (which drift with load) without replacing them.
#
# Usage: Benchmarks/instructions.sh [SHAPE...]     (default: UpsertStroke PlaybackState CanvasSnapshot)
# Builds CompressionBenchmark in release mode, then runs it once per shape under
# `valgrind --tool=callgrind`, counting only inside each case's loop (one dump per case),
# and prints ours against raw libzstd into a new array, the like-for-like baseline.
set -euo pipefail
cd "$(dirname "$0")"
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is needed (apt-get install valgrind)" >&2; exit 2; }
swift build -c release --product CompressionBenchmark >/dev/null
shapes=("$@")
[ ${#shapes[@]} -gt 0 ] || shapes=(UpsertStroke PlaybackState CanvasSnapshot)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A stripped copy: valgrind 3.19 cannot read the DWARF 5 that Swift 6.3 writes.
binary="$work/CompressionBenchmark"
cp .build/release/CompressionBenchmark "$binary"
strip -g "$binary"

echo "| message | variant | compress ours / raw→array (Δ) | decompress ours / raw→array (Δ) | payload(of: frame) (Δ) |"
echo "|---|---|---|---|---|"
for shape in "${shapes[@]}"; do
    # Enough iterations that start-up effects vanish, few enough for valgrind's pace.
    iterations=2000
    [ "$shape" = CanvasSnapshot ] && iterations=4
    rm -f "$work"/cg.out*
    BENCH_FILTER="$shape/" BENCH_PROFILE_ITERATIONS=$iterations \
        valgrind --tool=callgrind --toggle-collect='*profiledRun*' --dump-after='*profiledRun_*' \
        --callgrind-out-file="$work/cg.out" "$binary" > "$work/names" 2> "$work/valgrind.log" ||
        { cat "$work/valgrind.log" >&2; exit 1; }
    # One dump per case, numbered in the order the cases ran (the order of the names printed).
    index=0
    : > "$work/counts"
    while read -r _ name _; do
        index=$((index + 1))
        total=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p; s/^summary: *\([0-9]*\).*/\1/p' "$work/cg.out.$index" | head -n 1)
        echo "$name $((total / iterations))" >> "$work/counts"
    done < <(grep '^profiled ' "$work/names")
    for variant in default dictionary; do
        awk -v key="$shape/$variant" -v shape="$shape" -v variant="$variant" '
            { count[$1] = $2 }
            function cell(ours, raw) {
                if (!(key "/" ours in count) || !(key "/" raw in count)) return "n/a"
                return sprintf("%d / %d (%+.1f%%)", count[key "/" ours], count[key "/" raw],
                               (count[key "/" ours] / count[key "/" raw] - 1) * 100)
            }
            END {
                printf "| %s | %s | %s | %s | %s |\n", shape, variant == "default" ? "no dictionary" : "dictionary",
                    cell("ours-compress", "raw-array-compress"), cell("ours-decompress", "raw-array-decompress"),
                    cell("ours-payload", "raw-array-decompress")
            }' "$work/counts"
    done
done
