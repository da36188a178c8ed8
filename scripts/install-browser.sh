#!/usr/bin/env bash
# Installs Debian's chromium for tests/outputs/test_report_browser.py (the report driven in a real
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

. "$(dirname "$0")/apt-install.sh"
# fonts-dejavu-core: the report's screenshots need a font with the glyphs it uses.
apt_install install-browser chromium fonts-dejavu-core poppler-utils
echo "install-browser: installed $("$BROWSER" --version 2>/dev/null || echo "$BROWSER")"
