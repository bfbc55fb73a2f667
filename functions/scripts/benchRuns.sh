#!/usr/bin/env bash
# Issue 37's acceptance runs (docs/benchmarks.md, "The next runs"): RUNS (default 5) whole
# `npm run bench` runs of one commit, each on a fresh clone of its own, one after another. Before
# each run it waits until the machine's 1-minute load average is under LOAD_GATE (default 2.0).
# Every run's whole output is kept in OUT/runN.log, and OUT/progress records the commit, each
# run's start with its load average, and each run's exit status.
#   bash functions/scripts/benchRuns.sh COMMIT OUT
set -uo pipefail
commit=$(git -C "$(dirname "$0")" rev-parse --verify "$1^{commit}") || exit 2
out=$2
runs=${RUNS:-5}
gate=${LOAD_GATE:-2.0}
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
mkdir -p "$out"
echo "commit $commit, $runs runs, load gate $gate" >> "$out/progress"
for i in $(seq 1 "$runs"); do
  while awk -v gate="$gate" '{ exit !($1 >= gate) }' /proc/loadavg; do sleep 10; done
  clone="$out/clone$i"
  rm -rf "$clone"
  git clone -q "$repo" "$clone" && git -C "$clone" checkout -q "$commit"
  echo "run $i start $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/progress"
  (cd "$clone" && npm --prefix functions run bench) > "$out/run$i.log" 2>&1
  status=$?
  echo "run $i end $(date -u +%FT%TZ) exit $status" >> "$out/progress"
done
