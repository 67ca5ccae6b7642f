#!/bin/sh
# Runs every fuzzer for SECONDS (default 60) from the seed corpora; fails on any crash, leak or sanitizer report.
# As many fuzzers run at once as there are cores, so CI spends SECONDS × targets ÷ cores on it.
# Usage: tests/fuzz/run_fuzzers.sh BUILD_DIR [SECONDS]
set -eu
build=$1
seconds=${2:-60}
here=$(cd "$(dirname "$0")" && pwd)
work=$build/fuzz-work
rm -rf "$work"
mkdir -p "$work"
python3 "$here/seeds.py" "$work/seeds"
jobs=$(nproc 2>/dev/null || echo 1)

run_one() {
    target=$1
    mkdir -p "$work/corpus-$target" "$work/artifacts-$target"
    # Inputs up to 64 KiB: enough for whole small snapshots, small enough for many runs a second.
    if "$build/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 \
        -timeout=10 -artifact_prefix="$work/artifacts-$target/" -print_final_stats=1 \
        "$work/corpus-$target" "$work/seeds/$target" > "$work/$target.log" 2>&1; then
        echo 0 > "$work/$target.rc"
    else
        echo 1 > "$work/$target.rc"
    fi
}

running=0
for target in pickle split json gzip rankname; do
    run_one "$target" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait
        running=0
    fi
done
wait

status=0
for target in pickle split json gzip rankname; do
    log=$work/$target.log
    if [ "$(cat "$work/$target.rc")" = 0 ]; then
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        echo "fuzz_$target: $runs executions in $seconds s, no crash, leak or sanitizer report"
    else
        echo "fuzz_$target FAILED; the input is in $work/artifacts-$target:"
        tail -40 "$log"
        status=1
    fi
done
exit $status
