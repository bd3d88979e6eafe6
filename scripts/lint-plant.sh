#!/usr/bin/env bash
# Proves that `npm run lint` catches what it claims to, on a copy of this checkout with five planted
# violations:
#   (a) src/lsp/planted.ts imports from src/frontends/   -> dependency-cruiser (layer rules)
#   (b) a console.log in src/util/paths.ts               -> ESLint no-console
#   (c) src/service/planted-watch.ts runs fs.watch twice  -> ESLint no-restricted-imports and
#       (a named import and a namespace call)               no-restricted-syntax (one watcher: the catalog's)
#   (d) src/service/navigation/planted-uri.ts converts a server URI with fileURLToPath itself
#                                                        -> ESLint no-restricted-imports (one location path)
#   (e) a regex reading bases in src/service/relations/  -> ESLint no-restricted-syntax (structure
#       comes from parse trees: eslint.config.js STRUCTURE_MODULES)
# The plants are valid TypeScript (tsc is run on them too), so it is the linters that catch them,
# not a compile error. Prints, per plant, the rules that caught it; exits non-zero if one was missed.
# The checkout itself is never modified. Usage: scripts/lint-plant.sh
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
[ -d "$HERE/node_modules" ] || { echo "lint-plant: run npm ci first" >&2; exit 2; }
WORK="$(mktemp -d "${TMPDIR:-/tmp}/lspgate-lint-plant.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

# The tracked files (and new ones not yet committed), as they are in the working tree.
cd "$HERE"
git ls-files -z --cached --others --exclude-standard \
  | while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done \
  | tar --null -T - -cf - | tar -xf - -C "$WORK"
ln -s "$HERE/node_modules" "$WORK/node_modules"
cd "$WORK"

cat > src/lsp/planted.ts <<'TS'
// Planted by scripts/lint-plant.sh: the LSP layer reaching up into a front-end.
import { packageVersion } from '../frontends/version.js';

export const plantedVersion = packageVersion;
TS
cat >> src/util/paths.ts <<'TS'

// Planted by scripts/lint-plant.sh: a write to stdout, which belongs to the protocol.
export function plantedLog(): void {
  console.log('planted');
}
TS
cat > src/service/navigation/planted-uri.ts <<'TS'
// Planted by scripts/lint-plant.sh: a server URI converted without locate().
import { fileURLToPath } from 'node:url';

export const plantedPath = (uri: string): string => fileURLToPath(uri);
TS

cat > src/service/planted-watch.ts <<'TS'
// Planted by scripts/lint-plant.sh: a watcher of its own beside the catalog's.
import fs, { watch } from 'node:fs';

export const plantedWatchers = [watch('.', () => undefined), fs.watch('.', () => undefined)];
TS

cat > src/service/relations/planted.ts <<'TS'
// Planted by scripts/lint-plant.sh: bases read from a header's text instead of its parse tree.
export const plantedBases = (header: string): string[] => [...header.matchAll(/extends\s+(\w+)/g)].map((m) => m[1]!);
TS

bin=node_modules/.bin
echo "== tsc (the plants compile, so only the linters can catch them)"
if "$bin/tsc" --noEmit -p tsconfig.json; then echo "tsc: plants type-check"; else echo "tsc: FAILED on the plants" >&2; exit 2; fi

echo "== eslint"
"$bin/eslint" -f json . > eslint.json || true
eslint_rules=$(node -e '
  const out = require(process.argv[1]);
  const file = out.find((r) => r.filePath.endsWith("/src/util/paths.ts"));
  const hits = (file ? file.messages : []).filter((m) => m.ruleId === "no-console");
  console.log([...new Set(hits.map((m) => `${m.ruleId} (src/util/paths.ts:${m.line})`))].join(", "));
' "$WORK/eslint.json")
watch_rules=$(node -e '
  const out = require(process.argv[1]);
  const file = out.find((r) => r.filePath.endsWith("/src/service/planted-watch.ts"));
  const hits = (file ? file.messages : []).filter((m) => m.ruleId === "no-restricted-imports" || m.ruleId === "no-restricted-syntax");
  const rules = new Set(hits.map((m) => m.ruleId));
  console.log(rules.size === 2 ? hits.map((m) => `${m.ruleId} (src/service/planted-watch.ts:${m.line}:${m.column})`).join(", ") : "");
' "$WORK/eslint.json")
uri_rules=$(node -e '
  const out = require(process.argv[1]);
  const file = out.find((r) => r.filePath.endsWith("/src/service/navigation/planted-uri.ts"));
  const hits = (file ? file.messages : []).filter((m) => m.ruleId === "no-restricted-imports");
  console.log([...new Set(hits.map((m) => `${m.ruleId} (planted-uri.ts:${m.line})`))].join(", "));
' "$WORK/eslint.json")
structure_rules=$(node -e '
  const out = require(process.argv[1]);
  const file = out.find((r) => r.filePath.endsWith("/src/service/relations/planted.ts"));
  const hits = (file ? file.messages : []).filter((m) => m.ruleId === "no-restricted-syntax");
  console.log([...new Set(hits.map((m) => `${m.ruleId} (src/service/relations/planted.ts:${m.line})`))].join(", "));
' "$WORK/eslint.json")

echo "== dependency-cruiser"
"$bin/depcruise" src bench test --config .dependency-cruiser.cjs --output-type json > depcruise.json || true
depcruise_rules=$(node -e '
  const out = require(process.argv[1]);
  const hits = out.summary.violations.filter((v) => v.from === "src/lsp/planted.ts");
  console.log([...new Set(hits.map((v) => `${v.rule.name} (${v.from} -> ${v.to})`))].join(", "));
' "$WORK/depcruise.json")

missed=0
if [ -n "$depcruise_rules" ]; then
  echo "CAUGHT (a) import from src/frontends/ in src/lsp/planted.ts by dependency-cruiser: $depcruise_rules"
else
  echo "MISSED (a) import from src/frontends/ in src/lsp/planted.ts" >&2; missed=1
fi
if [ -n "$eslint_rules" ]; then
  echo "CAUGHT (b) console.log in src/util/paths.ts by ESLint: $eslint_rules"
else
  echo "MISSED (b) console.log in src/util/paths.ts" >&2; missed=1
fi
if [ -n "$watch_rules" ]; then
  echo "CAUGHT (c) fs.watch in src/service/planted-watch.ts by ESLint: $watch_rules"
else
  echo "MISSED (c) fs.watch (named import and namespace call) in src/service/planted-watch.ts" >&2; missed=1
fi
if [ -n "$uri_rules" ]; then
  echo "CAUGHT (d) fileURLToPath outside the URI and location modules by ESLint: $uri_rules"
else
  echo "MISSED (d) fileURLToPath in src/service/navigation/planted-uri.ts" >&2; missed=1
fi
if [ -n "$structure_rules" ]; then
  echo "CAUGHT (e) regex in src/service/relations/planted.ts by ESLint: $structure_rules"
else
  echo "MISSED (e) regex in src/service/relations/planted.ts" >&2; missed=1
fi
exit "$missed"
