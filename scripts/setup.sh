#!/usr/bin/env bash
# One command for a fresh machine: installs Go + gopls and PostgreSQL (for the published-index tests; where
# apt is available and we are root or have sudo), the npm dependencies, builds, and runs lspgate's tour on
# the bundled fixtures.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" = 0 ] || command -v sudo >/dev/null 2>&1; then
  bash scripts/install-go.sh || echo "setup: Go + gopls not installed; Go requests will answer SERVER_NOT_INSTALLED" >&2
  bash scripts/install-postgres.sh || echo "setup: PostgreSQL not installed; the published-index tests will say they were skipped" >&2
else
  echo "setup: not root and no sudo: skipping Go + gopls (Go requests will answer SERVER_NOT_INSTALLED) and PostgreSQL" >&2
fi
npm ci --no-audit --no-fund
npm run build
node dist/src/cli/main.js tour --root fixtures
