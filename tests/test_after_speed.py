"""The work after the single-file audit (issue 27): start-up loads only what the command
needs, and the faster paths of the tally and the store give what the plain ones gave."""

from __future__ import annotations

import subprocess
import sys

# Modules the command line must not load before it knows the command: each costs tenths of
# a second that `audit --help`, `rules` and every audit's start would pay.
HEAVY = ("sqlalchemy", "alembic", "pandas", "pydantic", "jinja2", "statsmodels", "scipy",
         "cryptography", "auditor.store")


def test_the_command_line_starts_without_the_heavy_modules() -> None:
    probe = ("import sys\nfrom auditor.cli import build_parser\nbuild_parser()\n"
             f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == []


def test_audit_help_prints_without_them() -> None:
    probe = ("import sys\nfrom auditor.cli import main\ntry:\n    main(['audit', '--help'])\n"
             "except SystemExit:\n    pass\n"
             f"print('LOADED', ' '.join(m for m in {HEAVY!r} if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    assert "--jobs N" in done.stdout
    assert done.stdout.rsplit("LOADED", 1)[1].split() == []
