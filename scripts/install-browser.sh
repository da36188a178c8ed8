#!/usr/bin/env bash
# Installs Debian's chromium for tests/test_report_browser.py (the report driven in a real
# headless browser), and poppler-utils for pdftotext. Idempotent: does nothing when both
# are already there.
# Playwright drives this browser; `playwright install` is never used (it downloads a build).
set -euo pipefail

BROWSER=/usr/bin/chromium
# pdftotext (poppler-utils): the browser tests read the text of the report printed to PDF.
PDFTOTEXT=/usr/bin/pdftotext

if [ -x "$BROWSER" ] && [ -x "$PDFTOTEXT" ]; then
    echo "install-browser: $BROWSER is present ($("$BROWSER" --version 2>/dev/null || echo "version unknown")), and $PDFTOTEXT"
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    AS_ROOT=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    AS_ROOT=(sudo -n)
else
    echo "install-browser: $BROWSER is missing and installing it needs root (apt-get)" >&2
    exit 1
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-browser: $BROWSER is missing and this system has no apt-get" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
echo "install-browser: apt-get update"
"${AS_ROOT[@]}" apt-get update -q
# fonts-dejavu-core: the report's screenshots need a font with the glyphs it uses.
echo "install-browser: apt-get install -y chromium fonts-dejavu-core poppler-utils"
"${AS_ROOT[@]}" apt-get install -y -q --no-install-recommends chromium fonts-dejavu-core \
    poppler-utils
echo "install-browser: installed $("$BROWSER" --version 2>/dev/null || echo "$BROWSER")"
