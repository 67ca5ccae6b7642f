#!/usr/bin/env bash
# The README's mpirun launch of `rankscope digest`, run for real: Open MPI starts 4 processes on this machine, each
# digests the rank of the bundled example that $OMPI_COMM_WORLD_RANK names into one folder. The digests must equal,
# byte for byte, those written one process at a time, and `diff --json` of that folder must give the verdict,
# findings and rank figures that `diff --json --at peak` gives on the full files (a job of digests is compared with
# each rank at its own peak; tst_digest proves the same on every scenario in one process).
#   tests/tools/mpirun_digest.sh RANKSCOPE_BINARY        (MPIRUN=… for another mpirun; exit status 77: no mpirun)
set -euo pipefail
bin=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
examples="$root/resources/examples"
mpirun=${MPIRUN:-mpirun}
if ! command -v "$mpirun" >/dev/null; then
    echo "mpirun_digest: no mpirun (Debian: apt-get install openmpi-bin)"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() {
    echo "mpirun_digest: $*" >&2
    exit 1
}

# Open MPI refuses root unless told; CI runs as root in its container.
asRoot=()
if [ "$(id -u)" = 0 ]; then asRoot=(--allow-run-as-root); fi
# The README's command, on 4 processes of one machine (--oversubscribe: this machine may have fewer cores).
# shellcheck disable=SC2016 # expanded by each process's own bash, where mpirun has set the rank
"$mpirun" "${asRoot[@]}" --oversubscribe -np 4 bash -c \
    '"$0" digest --rank $OMPI_COMM_WORLD_RANK "$1/rank${OMPI_COMM_WORLD_RANK}_memory_snapshot.pickle" -o mpi' \
    "$bin" "$examples" >mpirun.log 2>&1 || {
    cat mpirun.log
    fail "mpirun failed"
}

# One process at a time, the same files and ranks.
for rank in 0 1 2 3; do
    "$bin" digest --rank "$rank" "$examples/rank${rank}_memory_snapshot.pickle" -o single >>single.log 2>&1 \
        || { cat single.log; fail "digest of rank $rank failed"; }
done
listing() { (cd "$1" && printf '%s ' *); }
expected="rank0.digest.pickle.gz rank1.digest.pickle.gz rank2.digest.pickle.gz rank3.digest.pickle.gz "
[ "$(listing single)" = "$expected" ] || fail "one at a time wrote $(listing single)"
[ "$(listing mpi)" = "$expected" ] || { cat mpirun.log; fail "under mpirun the folder holds: $(listing mpi)"; }
for rank in 0 1 2 3; do
    cmp "mpi/rank$rank.digest.pickle.gz" "single/rank$rank.digest.pickle.gz" \
        || fail "rank $rank: the digest written under mpirun differs from the one written alone"
done

# The folder of digests gives the full files' answers: all of them at each rank's peak, where a job of digests is
# compared; and on this example the default (aligned) diff's findings and verdict too, but for the words that say
# which moment was compared.
"$bin" diff --json mpi >digests.json || fail "diff --json of the digests failed"
"$bin" diff --json --at peak "$examples" >peak.json || fail "diff --json --at peak of the full files failed"
"$bin" diff --json "$examples" >aligned.json || fail "diff --json of the full files failed"
python3 - digests.json peak.json aligned.json <<'PY'
import json, sys
digests, peak, aligned = (json.load(open(p)) for p in sys.argv[1:4])
def figures(report):
    # Each rank's figures without what names its file (the path, and a note that it is a digest) and without its
    # excess across the aligned trace, which a digest does not keep.
    drop = ("path", "note", "aligned_excess_bytes", "aligned_excess_event")
    return [{k: v for k, v in r.items() if k not in drop} for r in report["ranks"]]
def peak_verdict(report):
    # Without the what-if peaks and the remedies' figures taken from them: they replay the whole trace.
    v = {k: val for k, val in report["verdict"].items() if k not in ("what_if", "remedy")}
    v["remedies"] = [{k: val for k, val in r.items() if k not in ("peak_without_bytes", "saved_bytes")}
                     for r in v.get("remedies", [])]
    return v
def verdict(report):
    # And without the words and the moment that say which moment was compared.
    v = {k: val for k, val in peak_verdict(report).items() if k != "explanation"}
    if "composition" in v:
        v["composition"] = {k: val for k, val in v["composition"].items() if k != "at"}
    return v
checks = (("peak", peak, "verdict", peak_verdict), ("peak", peak, "findings", lambda r: r["findings"]),
          ("peak", peak, "rank figures", figures), ("aligned", aligned, "verdict", verdict),
          ("aligned", aligned, "findings", lambda r: r["findings"]))
for name, full, what, pick in checks:
    if pick(digests) != pick(full):
        sys.exit(f"mpirun_digest: the digests' {what} differ from the full files' ({name}):\n"
                 f"{json.dumps(pick(digests))[:2000]}\n{json.dumps(pick(full))[:2000]}")
if not peak["findings"] or peak["verdict"]["kind"] == "balanced":
    sys.exit("mpirun_digest: the bundled example should give findings and a verdict that names a rank")
print(f"mpirun_digest: 4 digests under mpirun, byte for byte as one at a time; verdict {digests['verdict']['kind']} "
      f"rank {digests['verdict']['rank']}, {len(digests['findings'])} findings, as the full files")
PY
