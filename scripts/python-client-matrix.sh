#!/usr/bin/env bash
# The MCP client matrix (test/integration/mcp-client-matrix.test.ts) with the Python MCP SDK, where the
# machine's configured Python package index offers `mcp`: a venv under $TMPDIR, `pip install mcp`, then
# scripts/python-client-matrix.py over stdio and over Streamable HTTP against the built lspgate on a copy
# of fixtures/ts-app. Not part of CI. Usage: scripts/python-client-matrix.sh
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
[ -f dist/src/cli/main.js ] || { echo "python-client-matrix: run npm run build first" >&2; exit 1; }
work="${LSPGATE_PYMCP_DIR:-${TMPDIR:-/tmp}/lspgate-pymcp}"
if [ ! -x "$work/venv/bin/python" ]; then
  python3 -m venv "$work/venv"
fi
"$work/venv/bin/python" -c 'import mcp' 2>/dev/null || "$work/venv/bin/pip" install -q mcp ||
  { echo "python-client-matrix: the configured package index does not offer mcp; skipped" >&2; exit 0; }
echo "python mcp $("$work/venv/bin/pip" show mcp | awk '/^Version/{print $2}')"
run="$work/run-$$"
rm -rf "$run" && mkdir -p "$run"
node --input-type=module -e "
  const m = await import('$repo/test/helpers/mcp-matrix-cases.mjs');
  const { operations } = await import('$repo/dist/src/operations/registry.js');
  const { clientMatrix } = await import('$repo/test/helpers/mcp-client-cases.mjs');
  const ws = m.makeMatrixWorkspace('$run');
  const tools = operations.map((o) => o.name).join(',');
  process.stdout.write(JSON.stringify({ root: ws.root, tools, allowed_roots: '$run', calls: clientMatrix(operations, ws) }));
" >"$run/cases.json"
root=$(node -e "process.stdout.write(JSON.parse(require('fs').readFileSync('$run/cases.json','utf8')).root)")
tools=$(node -e "process.stdout.write(JSON.parse(require('fs').readFileSync('$run/cases.json','utf8')).tools)")
token="pymatrix-$RANDOM$RANDOM"
LSPGATE_TOKEN="$token" LSPGATE_CACHE_DIR="$run/cache-http" LSPGATE_ALLOWED_ROOTS="$run" node dist/src/cli/main.js mcp --http --port 0 --root "$root" --tools "$tools" 2>"$run/http.err" &
http_pid=$!
trap 'kill $http_pid 2>/dev/null || true; rm -rf "$run"' EXIT
for _ in $(seq 1 200); do url=$(grep -o 'http://[^ ]*' "$run/http.err" | head -n 1 || true); [ -n "$url" ] && break; sleep 0.1; done
status=0
"$work/venv/bin/python" scripts/python-client-matrix.py "$run/cases.json" stdio "$(command -v node)" "$repo/dist/src/cli/main.js" "$root" "$run/cache-stdio" || status=1
"$work/venv/bin/python" scripts/python-client-matrix.py "$run/cases.json" http "$url" "$token" || status=1
exit $status
