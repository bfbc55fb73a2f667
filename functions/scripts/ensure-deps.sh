# Sourced by start.sh and test.sh: installs the functions package exactly as locked, once.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "Installing dependencies (npm ci)…"
  npm ci --no-audit --no-fund
fi
# `npx firebase …` from the repository root uses this install too (also for older checkouts).
node scripts/linkFirebaseCli.mjs
