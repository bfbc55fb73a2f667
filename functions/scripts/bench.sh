#!/usr/bin/env bash
# npm run bench [-- --memory] | npm run bench:rollup: a benchmark script on the production Node major.
#   bash scripts/bench.sh SCRIPT [ARGS…]   (SCRIPT in scripts/, run under its own Firestore emulator
#   and the Auth emulator: SCIM lookups of an address the roster lacks ask Firebase Auth)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
npm run build >/dev/null
node scripts/buildTestSupport.mjs >/dev/null
script=$1
shift
exec node scripts/emulators.mjs exec -- node_modules/.bin/firebase emulators:exec --only auth \
  --project demo-safety-apis "node scripts/$script $*"
