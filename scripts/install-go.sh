#!/usr/bin/env bash
# Installs the newest Go toolchain and gopls Debian ships for a bookworm machine: golang-1.26-go from
# trixie-backports (it depends only on golang-1.26-src) and gopls 0.22 from forky (it depends only on
# libc6 >= 2.34). Idempotent: does nothing when Go 1.26 and gopls 0.22 or newer are already there; a
# machine with an older Go (golang-1.23) or gopls gets the new ones beside it (older Go packages stay).
# Pinning: the two suites are added with priority 50, so only the packages named with -t come from
# them; every other package stays on bookworm. The suites are removed again when the script ends.
set -euo pipefail

GO_MINOR=1.26
GOPLS_MIN=22
GO_BIN=/usr/lib/go-$GO_MINOR/bin/go

# 0 when gopls is new enough (v0.22 or later), 1 when it is older or missing.
gopls_current() {
  local v
  v=$(gopls version 2>/dev/null | grep -o 'gopls v[0-9]*\.[0-9]*' | head -1 | cut -c8-) || true
  [ -n "$v" ] || return 1
  [ "${v%%.*}" -gt 0 ] || [ "${v#*.}" -ge "$GOPLS_MIN" ]
}

if [ -x "$GO_BIN" ] && command -v gopls >/dev/null 2>&1 && gopls_current; then
  echo "install-go: $("$GO_BIN" version | awk '{print $3}') and $(gopls version 2>/dev/null | head -1) already installed" >&2
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  SUDO=sudo
else
  SUDO=
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-go: apt-get not found; install Go >= $GO_MINOR and gopls >= 0.$GOPLS_MIN by hand (go install golang.org/x/tools/gopls@latest)" >&2
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
Suites: trixie-backports forky
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRCEOF
$SUDO tee "$PREF" >/dev/null <<'PREFEOF'
Package: *
Pin: release n=trixie-backports
Pin-Priority: 50

Package: *
Pin: release n=forky
Pin-Priority: 50
PREFEOF

$SUDO apt-get update -qq
if [ ! -x "$GO_BIN" ]; then
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends -t trixie-backports "golang-$GO_MINOR-go"
fi
if ! gopls_current; then
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends -t forky gopls
fi
echo "install-go: installed $("$GO_BIN" version) and $(gopls version | head -1)" >&2
