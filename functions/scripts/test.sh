#!/usr/bin/env bash
# Everything CI checks: bash functions/scripts/test.sh (see README; .ci/run calls it).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT

echo "== build and typecheck"
npm run build
npm run typecheck
echo "== lint"
npm run lint
echo "== unit tests"
npx jest --selectProjects unit --json --outputFile="$results/unit.json"
echo "== emulator tests (Firestore emulator started and stopped by the harness)"
node scripts/emulators.mjs exec -- npx jest --selectProjects emulator --json --outputFile="$results/emulator.json"
node scripts/summarize.mjs "$results/unit.json" "$results/emulator.json"
