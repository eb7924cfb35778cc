#!/usr/bin/env bash
# Builds the fuzz targets once and runs each for a bounded time on its seed corpus.
#
# Usage: Fuzz/run.sh [TARGET|all] [SECONDS]       (defaults: all, 60)
#   TARGET: one of ALL_TARGETS below (FuzzFrameDecoder, FuzzCompression, ...), or all.
# Environment: FUZZ_MAX_LEN (default 4096) caps input size; short inputs run much faster
# and still reach every length check, since lengths are read from varints.
# FUZZ_BUILD_ONLY=1 builds and stops. FUZZ_CONFIG (default debug, which also checks
# `assert`s) may be set to release for about five times the executions per second;
# preconditions and overflow checks stay on.
#
# New interesting inputs go to Fuzz/.build-fuzz/work/TARGET (not committed); the seed
# corpus in Fuzz/corpus/TARGET is only read. A crash fails the run; its input is copied
# to Fuzz/regressions/TARGET/ so it can be fixed, committed, and replayed forever by
# Tests/GroupWireTests/FuzzCorpusReplayTests.swift.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
TARGET="${1:-all}"
SECONDS_PER_TARGET="${2:-60}"
ALL_TARGETS=(FuzzFrameDecoder FuzzPayloadDump FuzzWireDecoder FuzzCompression FuzzReassembler FuzzReceivePipeline FuzzFrameFile FuzzCaptureReader FuzzValidate FuzzSpecCompiler FuzzGeneratedTypes FuzzDynamicCodec
    FuzzSessionControl FuzzDelivery FuzzHello FuzzAgreement FuzzRelayMessage FuzzAccessToken FuzzNATSParser FuzzPlayback)
BUILD_DIR="$HERE/.build-fuzz"

if [[ "$TARGET" == "all" ]]; then
    TARGETS=("${ALL_TARGETS[@]}")
else
    case " ${ALL_TARGETS[*]} " in
        *" $TARGET "*) TARGETS=("$TARGET") ;;
        *) echo "run.sh: error: unknown target '$TARGET' (one of: ${ALL_TARGETS[*]}, all)" >&2; exit 2 ;;
    esac
fi
if ! [[ "$SECONDS_PER_TARGET" =~ ^[0-9]+$ ]]; then
    echo "run.sh: error: SECONDS must be a whole number, not '$SECONDS_PER_TARGET'" >&2
    exit 2
fi

cd "$HERE"
# `-Xswiftc -sanitize=fuzzer,address` as well as SwiftPM's --sanitize flags: SwiftPM
# passes them to swiftc as two -sanitize= options and the driver keeps only the last, so
# Swift code would get AddressSanitizer but no coverage instrumentation.
CONFIG="${FUZZ_CONFIG:-debug}"
FLAGS=(-c "$CONFIG" --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address
       -Xswiftc -parse-as-library --scratch-path "$BUILD_DIR")
# The root package applies no build plugin in this build (see the end of its Package.swift).
export GROUPWIRE_FUZZ=1
# The Swift runtime's crash backtracer fights AddressSanitizer over the crashing process.
export SWIFT_BACKTRACE=enable=no
# SwiftPM does not notice source files added to the path dependency (the root package)
# and would link stale code; dropping the build plan makes it plan again (objects stay).
rm -f "$BUILD_DIR/$CONFIG.yaml"
mkdir -p "$BUILD_DIR"
for target in "${TARGETS[@]}"; do
    echo "== building $target"
    # The linker warns about every ASan helper symbol; keep the log, show only problems.
    if ! swift build "${FLAGS[@]}" --product "$target" > "$BUILD_DIR/build-$target.log" 2>&1; then
        grep -E "error" "$BUILD_DIR/build-$target.log" >&2 || tail -20 "$BUILD_DIR/build-$target.log" >&2
        echo "run.sh: error: $target does not build; log: $BUILD_DIR/build-$target.log" >&2
        exit 1
    fi
done
BIN="$(swift build "${FLAGS[@]}" --show-bin-path)"
if [[ -n "${FUZZ_BUILD_ONLY:-}" ]]; then
    echo "== built ${TARGETS[*]} in $BIN"
    exit 0
fi

status=0
for target in "${TARGETS[@]}"; do
    work="$BUILD_DIR/work/$target"
    artifacts="$BUILD_DIR/artifacts/$target"
    # Start without artifacts of an earlier (perhaps interrupted) run, so only this run's
    # findings are reported.
    rm -rf "$artifacts"
    mkdir -p "$work" "$artifacts" "$HERE/corpus/$target" "$HERE/regressions/$target"
    dict=()
    if [[ -f "$HERE/dictionaries/$target.dict" ]]; then
        dict=(-dict="$HERE/dictionaries/$target.dict")
    fi
    # Fuzz/lsan/TARGET.supp: LeakSanitizer false positives of that target only (each
    # file says why).
    lsan=""
    if [[ -f "$HERE/lsan/$target.supp" ]]; then
        lsan="suppressions=$HERE/lsan/$target.supp"
    fi
    echo "== fuzzing $target for ${SECONDS_PER_TARGET}s"
    set +e
    LSAN_OPTIONS="$lsan" "$BIN/$target" "$work" "$HERE/corpus/$target" "$HERE/regressions/$target" \
        "${dict[@]}" -max_total_time="$SECONDS_PER_TARGET" -max_len="${FUZZ_MAX_LEN:-4096}" -timeout=10 \
        -rss_limit_mb=2048 -artifact_prefix="$artifacts/" -print_final_stats=1 \
        > "$BUILD_DIR/$target.log" 2>&1
    rc=$?
    set -e
    grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::average_exec_per_sec|SUMMARY|.*Precondition failed|.*Fatal error)" \
        "$BUILD_DIR/$target.log" || true
    shopt -s nullglob
    crashes=("$artifacts"/crash-* "$artifacts"/leak-* "$artifacts"/oom-*)
    # A timeout on a busy shared machine may only mean the process was not scheduled:
    # keep it only if the input is slow again when run alone.
    for timeout in "$artifacts"/timeout-*; do
        if LSAN_OPTIONS="$lsan" "$BIN/$target" -timeout=10 "$timeout" > "$BUILD_DIR/$target-recheck.log" 2>&1; then
            echo "run.sh: warning: $(basename "$timeout") ran in time when run alone; not kept (machine load?)" >&2
            rm "$timeout"
        else
            crashes+=("$timeout")
        fi
    done
    shopt -u nullglob
    if [[ $rc -ne 0 || ${#crashes[@]} -gt 0 ]]; then
        echo "run.sh: error: $target failed (exit $rc); log: $BUILD_DIR/$target.log" >&2
        for crash in "${crashes[@]}"; do
            cp "$crash" "$HERE/regressions/$target/"
            echo "run.sh: saved $(basename "$crash") to Fuzz/regressions/$target/" >&2
            rm "$crash"
        done
        status=1
    fi
done
exit $status
