#!/usr/bin/env bash
# Runs the whole test suite N times (default 5) while a CPU load runs beside it, and says
# for each run whether it passed, how long it took and which tests were slowest: the check
# that the suite holds on a busy machine (a second build, an indexer, a browser).
#
#   scripts/test-under-load.sh [N]
#   LOAD=spin  (default) one busy loop per core
#   LOAD=build a release build of the package, over and over, in .build-load
#
# Not part of `make test` or CI: it takes minutes. Everything it starts is stopped by its
# process id when it ends, also on Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${1:-5}
load=${LOAD:-spin}
case "$runs" in ''|*[!0-9]*) echo "test-under-load: N must be a number of runs, not '$runs'" >&2; exit 2 ;; esac
[ "$runs" -ge 1 ] || { echo "test-under-load: N must be at least 1" >&2; exit 2; }

swift=${SWIFT:-swift}
logs=$(mktemp -d)
load_pids=()
stop_load() {
    for pid in "${load_pids[@]}"; do
        kill -- "-$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true
    done
    load_pids=()
}
trap 'stop_load; echo "test-under-load: logs in $logs"' EXIT
trap 'exit 130' INT TERM

echo "test-under-load: building the tests"
$swift build --build-tests >"$logs/build.log" 2>&1 || { tail -n 40 "$logs/build.log" >&2; exit 1; }

cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
case "$load" in
spin)
    for _ in $(seq "$cores"); do
        setsid bash -c 'while :; do :; done' &
        load_pids+=("$!")
    done
    echo "test-under-load: load: $cores busy loops (pids ${load_pids[*]})"
    ;;
build)
    setsid bash -c "while :; do rm -rf .build-load; $swift build -c release --scratch-path .build-load >/dev/null 2>&1; done" &
    load_pids+=("$!")
    echo "test-under-load: load: a release build over and over (pid ${load_pids[*]})"
    ;;
*)
    echo "test-under-load: LOAD must be spin or build, not '$load'" >&2
    exit 2
    ;;
esac

passed=0
for run in $(seq "$runs"); do
    log="$logs/run-$run.log"
    start=$(date +%s)
    if $swift test --skip-build >"$log" 2>&1; then status=passed; passed=$((passed + 1)); else status=FAILED; fi
    seconds=$(( $(date +%s) - start ))
    summary=$(grep -E "Test run with [0-9]+ tests" "$log" | tail -n 1 | sed 's/^[^A-Za-z]*//')
    echo "run $run/$runs: $status in ${seconds}s: ${summary:-no summary line}"
    if [ "$status" = FAILED ]; then
        grep -E "✘ Test .*(recorded an issue|failed)" "$log" | head -n 10 | sed 's/^/    /'
    fi
    # Swift Testing times a test from the moment it could start, so a heavy test's time
    # includes its wait for the heavy lane (Tests/README.md).
    echo "  slowest (seconds, lane wait included):"
    { sed -nE 's/^.*Test (.*) passed after ([0-9.]+) seconds.*$/\2 \1/p' "$log" | grep -v " run with " | sort -rn | head -n 5 | sed 's/^/    /'; } || true
done
stop_load
echo "test-under-load: $passed of $runs runs passed with $load load"
[ "$passed" -eq "$runs" ]
