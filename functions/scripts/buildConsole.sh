#!/usr/bin/env bash
# The console (../console-web), installed exactly as locked when needed and built into its
# dist/, which Firebase Hosting (and the Hosting emulator of the local stack) serves. Run by
# start.sh and test.sh after ensure-deps.sh (Node 24 on PATH).
set -euo pipefail
cd "$(dirname "$0")/../../console-web"
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "Installing the console's dependencies (npm ci in console-web)…"
  npm ci --no-audit --no-fund
fi
npm run --silent build
