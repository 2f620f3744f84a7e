#!/usr/bin/env bash
# Sets up everything the tests need on a fresh Debian machine, then runs every test,
# the browser tests included. Idempotent: a second run only runs the tests.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
  # Browser tests drive Debian's Chromium; Playwright never downloads a browser of its own.
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/pip install -q --disable-pip-version-check -e ".[test]"

exec .venv/bin/python -m pytest "$@"
