#!/usr/bin/env bash
# `npm run lint`: the type checks, ESLint, the layer rules, the language-name check, the generated
# language registry's freshness, the comment citations and the formatter (Prettier, .prettierrc.json),
# in that order. Each runs even when an earlier one failed, so one run shows every finding; the exit
# status is non-zero if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."
failed=()
for check in lint:types lint:eslint lint:deps lint:languages lint:registry lint:citations lint:format; do
  npm run --silent "$check" || failed+=("$check")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "lint: failed: ${failed[*]}" >&2
  exit 1
fi
echo "lint: types, eslint, layer rules, language names, language registry, comment citations and formatting passed"
