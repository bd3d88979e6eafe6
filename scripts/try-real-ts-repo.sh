#!/usr/bin/env bash
# Acceptance of issues 2 and 4 on a real TypeScript repository that is not part of lspgate, tried as
# a new user would, through the BUILT CLI only (lspgate mcp / sidecar / repl / one-shot):
#
#   The repository: zod's own TypeScript sources (node_modules/zod/src, ~330 .ts files, shipped in
#   the npm package), copied into $LSPGATE_TRY_DIR/zod-repo with a minimal strict tsconfig.json and
#   package.json, committed to a fresh git repository (so git HEAD exists). Nothing is fetched.
#
#   1. `lspgate mcp` through the real MCP client: tools listed; index_folder with progress;
#      get_repo_outline, get_file_outline, search_symbols, get_symbol (verify); find_type_definition
#      of classes; find_definition / find_references / find_callers compared with what the raw
#      typescript-language-server answers at the same positions (an in-process Gateway's broker
#      session, after waitReady); a file edited on disk, then the answers again.
#   2. `lspgate sidecar` and the one-shot CLI: the same operations, the same structured results.
#   3. Restart on the same LSPGATE_CACHE_DIR (`lspgate repl` with `.trace on`): documentSymbol
#      requests counted — unchanged files are not asked again.
#   4. After each way lspgate exits (MCP stdin EOF, sidecar shutdown+exit, one-shot end, REPL EOF,
#      SIGTERM), no process it started is left.
#
# Usage: scripts/try-real-ts-repo.sh   (builds first unless LSPGATE_NO_BUILD=1)
# Work dir: $LSPGATE_TRY_DIR (default /tmp/lspgate-try-ts). Prints a compact summary table.
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
WORK="${LSPGATE_TRY_DIR:-/tmp/lspgate-try-ts}"
REPO="$WORK/zod-repo"
ZOD_SRC="$HERE/node_modules/zod/src"
[ -d "$ZOD_SRC" ] || { echo "missing $ZOD_SRC: run npm install first" >&2; exit 1; }

cd "$HERE"
if [ "${LSPGATE_NO_BUILD:-}" != "1" ]; then npx tsc -p . >/dev/null || true; fi
[ -f dist/src/cli/main.js ] || { echo "dist/src/cli/main.js missing: the build failed" >&2; exit 1; }

rm -rf "$WORK" && mkdir -p "$REPO"
cp -r "$ZOD_SRC" "$REPO/src"
cat > "$REPO/tsconfig.json" <<'EOF'
{
  "compilerOptions": {
    "target": "ESNext",
    "module": "ESNext",
    "moduleResolution": "bundler",
    "strict": true,
    "skipLibCheck": true,
    "noEmit": true
  },
  "include": ["src"]
}
EOF
echo '{ "name": "zod-repo", "version": "0.0.0", "private": true, "type": "module" }' > "$REPO/package.json"
(cd "$REPO" && git init -q && git add -A && git -c user.email=try@lspgate -c user.name=try commit -qm "zod sources")

LSPGATE_TRY_DIR="$WORK" node scripts/try-real-ts-repo.mjs "$REPO"
