#!/usr/bin/env bash
# Installs what the PostgreSQL tests need (test/helpers/pg-cluster.ts): Debian's `postgresql` package
# (its server binaries in /usr/lib/postgresql/<major>/bin) and pgvector where the distribution packages
# it for that major (trixie: postgresql-17-pgvector; bookworm has none, and the pgvector test then says
# it was skipped and why). No cluster is started here and no system service is relied on: each test
# file starts its own throwaway cluster (initdb into a temp folder, pg_ctl on a free port, as the
# `postgres` user when run as root, since PostgreSQL refuses to run as root). Idempotent.
set -euo pipefail

if [ "$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi

newest_major() {
  ls /usr/lib/postgresql 2>/dev/null | sort -n | tail -1
}

major=$(newest_major)
if [ -z "$major" ] || [ ! -x "/usr/lib/postgresql/$major/bin/initdb" ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-postgres: apt-get not found; install PostgreSQL (initdb, pg_ctl) by hand" >&2
    exit 1
  fi
  $SUDO apt-get update -qq
  # the package's own start of a system cluster is not needed (and may be refused without an init system)
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends postgresql >/dev/null
  major=$(newest_major)
fi
echo "install-postgres: PostgreSQL $major ($("/usr/lib/postgresql/$major/bin/postgres" --version | awk '{print $3}'))" >&2

if [ -f "/usr/share/postgresql/$major/extension/vector.control" ]; then
  echo "install-postgres: pgvector already installed" >&2
elif apt-cache policy "postgresql-$major-pgvector" 2>/dev/null | grep -q 'Candidate: [0-9]'; then
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "postgresql-$major-pgvector" >/dev/null
  echo "install-postgres: pgvector installed (postgresql-$major-pgvector)" >&2
else
  echo "install-postgres: this distribution has no postgresql-$major-pgvector: the pgvector test will say it is skipped (vectors use float4[] with exact cosine)" >&2
fi
if [ "$(id -u)" = 0 ] && ! id -u postgres >/dev/null 2>&1; then
  echo "install-postgres: no 'postgres' user to run the test clusters as (the package creates it)" >&2
  exit 1
fi
