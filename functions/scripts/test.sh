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
echo "== the console (console-web): install, typecheck, build"
bash scripts/buildConsole.sh
npm --prefix ../console-web run --silent typecheck
echo "== typed clients: openapi-typescript over both served documents, the smoke test's calls type-checked against them"
node scripts/generateClients.mjs
echo "== lint"
npm run lint
node scripts/checkLayering.mjs
echo "== docs: the error catalogue is the code's (docs/errors.md), the integrator guides name nothing repository-only"
node scripts/errorCatalogue.mjs --check
node scripts/checkGuides.mjs
echo "== OpenAPI documents (redocly lint)"
node scripts/writeOpenapi.mjs "$results/openapi"
npx redocly lint --format=stylish "$results"/openapi/*.json
echo "== the deployed package: exactly the uploaded files, npm ci --omit=dev, the bundles load"
DEPLOY_REPORT="$results/deploy.json" node scripts/deployPackage.mjs
echo "== reference pages (GET /v1/docs) in headless Chromium"
DOCS_REPORT="$results/docs.json" node scripts/docsBrowserTest.mjs
echo "== unit tests"
npx jest --selectProjects unit --json --outputFile="$results/unit.json"
echo "== emulator tests (Firestore emulator from the harness, Auth emulator through firebase emulators:exec)"
# --forceExit: the SDKs' connections (gRPC, HTTP keep-alive) once kept jest alive after every
# result was written, stalling the run; the results are complete by then, failures still fail.
node scripts/emulators.mjs exec -- node_modules/.bin/firebase emulators:exec --only auth --project demo-safety-apis \
  "npx jest --selectProjects emulator --silent --forceExit --json --outputFile=$results/emulator.json"
echo "== stack tests: the built functions in the Functions emulator, Firestore triggers firing (emulators.mjs stack)"
node scripts/emulators.mjs stack -- \
  npx jest --selectProjects stack --silent --forceExit --json --outputFile="$results/stack.json"
echo "== the console in headless Chromium against the local stack, as each demo account (emulators.mjs start)"
CONSOLE_REPORT="$results/console.json" node scripts/consoleBrowserTest.mjs
echo "== smoke test: the stack on the README's ports, through the Functions emulator (firebase emulators:exec)"
FIRESTORE_PORT="${FIRESTORE_PORT:-8080}" SMOKE_REPORT="$results/smoke.json" node scripts/emulators.mjs exec -- node scripts/smoke.mjs
echo "== quickstarts (examples/): TypeScript and Python against the local stack on the demo data, newman over the generated collections"
FIRESTORE_PORT="${FIRESTORE_PORT:-8080}" QUICKSTARTS_REPORT="$results/quickstarts.json" node scripts/quickstarts.mjs
node scripts/summarize.mjs "$results"/*.json
