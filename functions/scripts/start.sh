#!/usr/bin/env bash
# The local stack on the seeded demo data: bash functions/scripts/start.sh (see README).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
npm run build
bash scripts/buildConsole.sh
exec node scripts/emulators.mjs start
