#!/usr/bin/env bash
# npm run bench [-- --memory]: the findings-export benchmark on the production Node major.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
npm run build >/dev/null
exec node scripts/emulators.mjs exec -- node scripts/bench.mjs "$@"
