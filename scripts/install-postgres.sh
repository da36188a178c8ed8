#!/usr/bin/env bash
# Installs Debian's PostgreSQL server for the run store's tests (tests/store/test_store.py starts a
# throw-away cluster of its own on a Unix socket; nothing listens on the network). Idempotent:
# does nothing when initdb is already there.
set -euo pipefail

found=$(command -v initdb || ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1 || true)
if [ -n "$found" ] && [ -x "$found" ]; then
    echo "install-postgres: $found is present ($("$found" --version 2>/dev/null || echo "version unknown"))"
    exit 0
fi

. "$(dirname "$0")/apt-install.sh"
apt_install install-postgres postgresql
echo "install-postgres: installed $(ls /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)"
