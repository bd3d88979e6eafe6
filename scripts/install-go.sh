#!/usr/bin/env bash
# Installs the Go toolchain (golang-1.23 from bookworm-backports) and gopls (0.16 from trixie)
# for lspgate's Go support. Idempotent: does nothing when both are already present.
# Pinning: trixie and bookworm-backports get priority 100 by default only for the packages we
# name with -t; a preferences file keeps every other package on bookworm.
set -euo pipefail

GO_BIN=/usr/lib/go-1.23/bin/go
if [ -x "$GO_BIN" ] && command -v gopls >/dev/null 2>&1; then
  echo "install-go: go $("$GO_BIN" version | awk '{print $3}') and $(gopls version 2>/dev/null | head -1) already installed" >&2
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  SUDO=sudo
else
  SUDO=
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-go: apt-get not found; install Go >= 1.21 and gopls >= 0.15 by hand" >&2
  exit 1
fi

SRC=/etc/apt/sources.list.d/lspgate-go.sources
PREF=/etc/apt/preferences.d/lspgate-go
DEBIAN_URI=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
[ -n "$DEBIAN_URI" ] || DEBIAN_URI=http://deb.debian.org/debian

cleanup() {
  $SUDO rm -f "$SRC" "$PREF"
  $SUDO apt-get update -qq >/dev/null 2>&1 || true
}
trap cleanup EXIT

$SUDO tee "$SRC" >/dev/null <<SRCEOF
Types: deb
URIs: $DEBIAN_URI
Suites: trixie bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRCEOF
$SUDO tee "$PREF" >/dev/null <<'PREFEOF'
Package: *
Pin: release n=trixie
Pin-Priority: 50

Package: *
Pin: release n=bookworm-backports
Pin-Priority: 50
PREFEOF

$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends -t bookworm-backports golang-1.23-go
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends -t trixie gopls
echo "install-go: installed $("$GO_BIN" version) and $(gopls version | head -1)" >&2
