#!/usr/bin/env bash
# Instructions per operation of the hot paths, counted by callgrind, against the baselines
# committed in Benchmarks/Baselines/instructions.tsv: fails when a path costs more than 10%
# above its baseline, so a change that slows one says so before it lands. Instruction
# counts do not move with the machine's load (timed ratios drift by a quarter on this
# machine), but they do move with the toolchain and the C library: re-record after
# upgrading either, and after a change that makes a path faster (the check says so).
#
# Usage: Benchmarks/bench-check.sh            compare with the baselines
#        Benchmarks/bench-check.sh --record   write the baselines from this build
#
# Each case runs once uncounted, then N times inside `profiledRun`, which is all callgrind
# counts (`--toggle-collect`), with one dump per case (`--dump-after`). The binary is a
# stripped copy: valgrind 3.19 cannot read the DWARF 5 that Swift 6.3 writes. Then
# `validate/strokes/frame` and `validate/snapshots/message`: ValidateBenchmark's validator
# on two strokes captures and two compressed snapshots captures (below).
set -euo pipefail
cd "$(dirname "$0")"
command -v valgrind >/dev/null || { echo "bench-check: valgrind is needed (apt-get install valgrind)" >&2; exit 2; }
record=false
[ "${1:-}" = "--record" ] && record=true
baseline=Baselines/instructions.tsv
tolerance=10

# name@iterations: enough that start-up effects vanish, few enough for valgrind's pace.
cases=(
    "UpsertStroke/GroupWire/encode@20000"
    "UpsertStroke/GroupWire/decode@20000"
    "PlaybackState/GroupWire/encode@5000"
    "PlaybackState/GroupWire/decode@5000"
    "CanvasSnapshot/GroupWire/encode@10"
    "CanvasSnapshot/GroupWire/decode@10"
    "UpsertStroke/GroupWire pipeline/round trip@20000"
)

swift build -c release --product GeneratedCodeBenchmark >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp .build/release/GeneratedCodeBenchmark "$work/bench"
strip -g "$work/bench"
list=$(IFS=,; echo "${cases[*]}")
valgrind --tool=callgrind --toggle-collect='*profiledRun*' --dump-after='*profiledRun_*' \
    --callgrind-out-file="$work/cg.out" "$work/bench" --profile "$list" > "$work/names" 2> "$work/valgrind.log" ||
    { cat "$work/valgrind.log" "$work/names" >&2; exit 1; }

# One dump per case, numbered in the order the cases ran (the order of the names printed).
: > "$work/counts"
index=0
while read -r _ rest; do
    index=$((index + 1))
    name=${rest% × *}
    iterations=${rest##* × }
    total=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p; s/^summary: *\([0-9]*\).*/\1/p' "$work/cg.out.$index" | head -n 1)
    printf '%s\t%d\n' "$name" "$((total / iterations))" >> "$work/counts"
done < <(grep '^profiled ' "$work/names")
[ "$(wc -l < "$work/counts")" -eq "${#cases[@]}" ] ||
    { echo "bench-check: expected ${#cases[@]} counts, got:" >&2; cat "$work/counts" >&2; exit 1; }

# `groupwire validate`'s path per frame of a strokes capture and per message of a snapshots
# capture (800 KB canvases, compressed and fragmented): the whole validator process on a
# 4 MB and an 8 MB capture, the difference divided by the difference in frames or
# messages, so that start-up (loading the spec, the dynamic linker) cancels.
swift build -c release --product ValidateBenchmark >/dev/null
cp .build/release/ValidateBenchmark "$work/validate"
strip -g "$work/validate"
for kind in strokes snapshots; do
    for size in 4 8; do
        "$work/validate" --write "$kind" "$work/$kind$size.pcapng" --megabytes "$size" > /dev/null
        valgrind --tool=callgrind --callgrind-out-file="$work/$kind$size.out" "$work/validate" --validate "$work/$kind$size.pcapng" \
            > "$work/$kind$size.txt" 2> "$work/$kind$size.log" ||
            { cat "$work/$kind$size.log" "$work/$kind$size.txt" >&2; exit 1; }
    done
done
# The count after `frames` or `messages` in the validator's summary line.
count() { sed -n "s/.*$2 \\([0-9]*\\).*/\\1/p" "$work/$1.txt"; }
total() { sed -n 's/^totals: *\([0-9]*\).*/\1/p; s/^summary: *\([0-9]*\).*/\1/p' "$work/$1.out" | head -n 1; }
printf '%s\t%d\n' "validate/strokes/frame" \
    "$(( ($(total strokes8) - $(total strokes4)) / ($(count strokes8 frames) - $(count strokes4 frames)) ))" >> "$work/counts"
printf '%s\t%d\n' "validate/snapshots/message" \
    "$(( ($(total snapshots8) - $(total snapshots4)) / ($(count snapshots8 messages) - $(count snapshots4 messages)) ))" \
    >> "$work/counts"

if $record; then
    {
        echo "# Instructions per operation (callgrind), written by Benchmarks/bench-check.sh --record."
        echo "# Toolchain: $(swift --version 2>&1 | head -n 1)"
        cat "$work/counts"
    } > "$baseline"
    echo "recorded $baseline:"
    cat "$work/counts"
    exit 0
fi

[ -f "$baseline" ] || { echo "bench-check: no $baseline (run with --record)" >&2; exit 2; }
awk -F'\t' -v tolerance="$tolerance" '
    FNR == NR { if ($0 !~ /^#/) base[$1] = $2; next }
    {
        name = $1; now = $2
        if (!(name in base)) { printf "%-45s %12d   (no baseline)\n", name, now; missing++; next }
        change = (now / base[name] - 1) * 100
        verdict = change > tolerance ? "SLOWER" : (change < -tolerance ? "faster: re-record" : "ok")
        printf "%-45s %12d  baseline %12d  %+6.1f%%  %s\n", name, now, base[name], change, verdict
        if (change > tolerance) failed++
    }
    END {
        if (failed) { printf "bench-check: %d path(s) cost more than %d%% above their baseline\n", failed, tolerance; exit 1 }
        if (missing) { print "bench-check: cases without a baseline (run with --record)"; exit 1 }
    }' "$baseline" "$work/counts"
