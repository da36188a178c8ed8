"""The documentation's picture of a case (docs/case-page1.png) is made by
scripts/make_case_picture.py, never by hand: page 1 of the sample case made now must say
what the picture's text (docs/case-page1.txt, written with it) says. A change to page 1
fails here until the script is run again."""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

import pytest

from tests.helpers import ROOT

CHROMIUM = os.environ.get("BJH_CHROMIUM", "/usr/bin/chromium")


def _script():
    spec = importlib.util.spec_from_file_location("make_case_picture",
                                                  ROOT / "scripts" / "make_case_picture.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_case_picture_is_page_one_of_the_sample_case_today(tmp_path: Path) -> None:
    if not os.access(CHROMIUM, os.X_OK) or shutil.which("pdftotext") is None:
        reason = f"needs Chromium at {CHROMIUM} and pdftotext (scripts/install-browser.sh)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    script = _script()
    now = script.page_one_text(script.page_one(tmp_path, pdf=True))
    recorded = (ROOT / "docs" / "case-page1.txt").read_text(encoding="utf-8")
    assert now == recorded, ("page 1 of the sample case changed: run "
                             "`.venv/bin/python scripts/make_case_picture.py` and commit "
                             "docs/case-page1.png and docs/case-page1.txt")
    assert (ROOT / "docs" / "case-page1.png").stat().st_size > 10_000


def test_steady_text_puts_aside_only_what_varies() -> None:
    steady = _script().steady
    assert steady("made 2026-11-28 02:51:14 UTC by bjh-auditor 0.1.dev9+gabc  \n\n x  y\n") \
        == "made <time> by bjh-auditor <version> x y\n"
    assert steady("started 2026-11-28\n03:18:28 UTC, finished") == "started <time>, finished\n"
    assert steady("started 2026-\n11-28 03:18:28 UTC") == "started <time>\n"
    assert steady("fingerprint AA4CF709369FFAA4, rule base be8d463b5c79") == \
        "fingerprint <fingerprint>, rule base <digest>\n"
    assert steady("34 in scope: 33 of the regulation") == "34 in scope: 33 of the regulation\n"
