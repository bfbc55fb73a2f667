# Sourced by start.sh and test.sh (and the benchmarks): the right Node, then the functions
# package installed exactly as locked.
#
# Production runs the `nodejs24` runtime (firebase.json), so everything here runs on Node 24
# too: the machine's node when it is 24, else a pinned Node 24 from the npm registry's `node`
# package, installed once into a per-user cache and put first on PATH (the Functions emulator,
# jest and every script then find it there).
NODE_MAJOR=24
NODE_PIN=24.21.0
if [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null)" != "$NODE_MAJOR" ]; then
  node_cache="${XDG_CACHE_HOME:-$HOME/.cache}/safety-apis/node-$NODE_PIN"
  if [ ! -x "$node_cache/node_modules/.bin/node" ]; then
    echo "Fetching Node $NODE_PIN from the npm registry into $node_cache (once)…"
    mkdir -p "$node_cache"
    npm install --prefix "$node_cache" --no-save --no-audit --no-fund --loglevel=error "node@$NODE_PIN" >/dev/null
  fi
  export PATH="$node_cache/node_modules/.bin:$PATH"
fi
echo "Using Node $(node --version) at $(command -v node) (production runtime: nodejs$NODE_MAJOR)."

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "Installing dependencies (npm ci)…"
  # --ignore-scripts: no package here needs its install script (protobufjs, unrs-resolver and
  # @parcel/watcher only check versions or prebuilt binaries, @firebase/util writes an empty
  # default), and re2's (optional, for the Hosting emulator's superstatic, which falls back without
  # it) tries a download that hangs offline, then compiles C++ for minutes.
  npm ci --no-audit --no-fund --ignore-scripts
fi
# `npx firebase …` from the repository root uses this install (see docs/development.md, "The plain Firebase way").
node scripts/linkFirebaseCli.mjs
