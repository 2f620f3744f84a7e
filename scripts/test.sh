#!/usr/bin/env bash
# Sets up everything the tests need on a fresh Debian machine, then runs every test,
# the browser tests included, on SQLite and on PostgreSQL. Idempotent: a second run only
# starts a new throwaway PostgreSQL cluster and runs the tests.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
APT_UPDATED=""
apt_install() {
  if [ -z "$APT_UPDATED" ]; then
    $SUDO apt-get update -qq
    APT_UPDATED=1
  fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}

if [ ! -x /usr/bin/chromium ]; then
  # Browser tests drive Debian's Chromium; Playwright never downloads a browser of its own.
  apt_install chromium
fi

# tests/test_deploy_proxy.py runs the shipped deploy/nginx.conf and deploy/Caddyfile (with a
# throwaway certificate made by openssl) and scores deploy/companion.service with systemd-analyze.
if [ ! -x /usr/sbin/nginx ] || [ ! -x /usr/bin/caddy ] || ! command -v openssl >/dev/null; then
  apt_install nginx caddy openssl
fi
if ! command -v systemd-analyze >/dev/null; then
  apt_install systemd
fi
# tests/test_install_wheel.py keeps the throttling counters of an installed copy in Redis.
if [ ! -x /usr/bin/redis-server ]; then
  apt_install redis-server
fi

# PostgreSQL's server programs (Debian keeps them out of PATH, in /usr/lib/postgresql/N/bin).
pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
if [ -z "$(pg_bin)" ] || [ ! -x "$(pg_bin)/initdb" ]; then
  apt_install postgresql
fi
PG_BIN="$(pg_bin)"
if [ -z "$PG_BIN" ] || [ ! -x "$PG_BIN/initdb" ] || [ ! -x "$PG_BIN/pg_ctl" ]; then
  echo "scripts/test.sh: PostgreSQL's initdb and pg_ctl are missing after installing postgresql" >&2
  exit 1
fi

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
# Installed again only when pyproject.toml changed since the last install here.
STAMP=".venv/.companion-installed"
WANTED="$(sha256sum pyproject.toml | cut -d' ' -f1) test,postgres"
if [ "$(cat "$STAMP" 2>/dev/null)" != "$WANTED" ]; then
  .venv/bin/pip install -q --disable-pip-version-check -e ".[test,postgres]"
  echo "$WANTED" > "$STAMP"
fi

# A throwaway PostgreSQL cluster in a temporary folder, on a free loopback port, trusted
# from 127.0.0.1 only; stopped and removed on exit, whatever the tests did. initdb refuses
# to run as root, so as root the cluster belongs to the postgres system user.
AS_PG=()
if [ "$(id -u)" -eq 0 ]; then
  id -u postgres >/dev/null 2>&1 || { echo "scripts/test.sh: no postgres system user" >&2; exit 1; }
  PG_DIR="$(mktemp -d /tmp/companion-pg.XXXXXX)"  # /tmp: the postgres user can reach it
  chown postgres: "$PG_DIR"
  AS_PG=(runuser -u postgres --)
else
  PG_DIR="$(mktemp -d "${TMPDIR:-/tmp}/companion-pg.XXXXXX")"
fi
stop_postgres() {
  if [ -f "$PG_DIR/data/postmaster.pid" ]; then
    "${AS_PG[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$PG_DIR"
}
trap stop_postgres EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

PG_PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
if ! "${AS_PG[@]}" "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 \
    --no-sync >"$PG_DIR/initdb.log" 2>&1; then
  cat "$PG_DIR/initdb.log" >&2
  echo "scripts/test.sh: initdb failed; PostgreSQL tests cannot run" >&2
  exit 1
fi
# Durability is pointless for a cluster that lives minutes; connections cover a few servers
# with their pools and the tests' own.
if ! "${AS_PG[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
    -o "-p $PG_PORT -c listen_addresses=127.0.0.1 -c unix_socket_directories=$PG_DIR \
        -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400" \
    start >/dev/null; then
  cat "$PG_DIR/server.log" >&2 || true
  echo "scripts/test.sh: the PostgreSQL test cluster did not start" >&2
  exit 1
fi
export COMPANION_TEST_POSTGRES_URL="postgresql+psycopg://postgres@127.0.0.1:$PG_PORT/postgres"

status=0
# Both cores (pytest-xdist): each worker has its own server and Chromium for the browser tests,
# which wait on what the page shows, so a busy machine makes them slower, not wrong.
.venv/bin/python -m pytest -n 2 "$@" || status=$?
exit "$status"
