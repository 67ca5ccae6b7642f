#!/usr/bin/env bash
# Writes every answer the command line gives on the bundled example, every test scenario and every test log into
# OUTDIR, one file per command, so two builds can be compared byte for byte (a refactoring must not change them):
#   tests/tools/same_answers.sh OLD_BINARY old/ && tests/tools/same_answers.sh NEW_BINARY new/ && diff -r old new
# Needs python3 (the scenarios are made from the real files in tests/data) and no display. Run both builds on the same
# machine in one sitting: pictures depend on the installed fonts.
set -euo pipefail
bin=$(realpath "$1")
out=$(realpath -m "$2")
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$root/tests/tools/make_scenarios.py" "$root/tests/data" "$work/scenarios" >/dev/null
export QT_QPA_PLATFORM=offscreen
cd "$root" # paths in the answers are relative, so two checkouts give the same bytes
run() { # name, then the command's arguments; records stdout, stderr and the exit status
    local name=$1
    shift
    set +e
    "$bin" "$@" >"$out/$name.out" 2>"$out/$name.err"
    echo "$?" >"$out/$name.rc"
    set -e
}
sets=(resources/examples)
cp -r "$work/scenarios" "$root/.same-answers-scenarios"
trap 'rm -rf "$work" "$root/.same-answers-scenarios"' EXIT
for dir in .same-answers-scenarios/*/; do sets+=("${dir%/}"); done
for set in "${sets[@]}"; do
    name=$(basename "$set")
    run "$name.diff.json" diff --json "$set"
    run "$name.diff.txt" diff "$set"
    run "$name.diff.csv" diff --csv "$set"
    run "$name.diff.snapshot.json" diff --json --at snapshot --my-code "$set"
    run "$name.info.json" info --json "$set"
    run "$name.export" export --force --out "$out/$name.export.png" --size 800x500 --scale 1 "$set"
    run "$name.report" report --force --out "$out/$name.report.md" "$set"
done
run example.export-timelines export --force --out "$out/example.timelines.svg" --view timelines resources/examples
run example.digest digest --force --out .same-answers-scenarios/digests resources/examples
run example.digest.diff.json diff --json .same-answers-scenarios/digests
run before-after.json diff --json --before resources/examples --after .same-answers-scenarios/balanced_8
for log in tests/data/logs/*.log; do
    run "steps.$(basename "$log").json" steps --json "$log"
    run "steps.$(basename "$log").txt" steps "$log"
done
run steps.per_rank.json steps --json tests/data/logs/per_rank/*
echo "$(ls "$out" | wc -l) files in $out"
