#!/usr/bin/env bash
# Installs Debian's PostgreSQL server for the run store's tests (tests/test_store.py starts a
# throw-away cluster of its own on a Unix socket; nothing listens on the network). Idempotent:
# does nothing when initdb is already there.
set -euo pipefail

found=$(command -v initdb || ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1 || true)
if [ -n "$found" ] && [ -x "$found" ]; then
    echo "install-postgres: $found is present ($("$found" --version 2>/dev/null || echo "version unknown"))"
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    AS_ROOT=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    AS_ROOT=(sudo -n)
else
    echo "install-postgres: PostgreSQL is missing and installing it needs root (apt-get)" >&2
    exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-postgres: PostgreSQL is missing and this system has no apt-get" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
echo "install-postgres: apt-get update"
"${AS_ROOT[@]}" apt-get update -q
echo "install-postgres: apt-get install -y postgresql"
"${AS_ROOT[@]}" apt-get install -y -q --no-install-recommends postgresql
echo "install-postgres: installed $(ls /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)"
