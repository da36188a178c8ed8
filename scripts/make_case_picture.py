"""Make docs/case-page1.png (page 1 of the sample case, as printed) and docs/case-page1.txt
(its text), so the documentation's picture of a case is never drawn by hand and never goes
stale: tests/house/test_docs_figures.py makes page 1's text again and compares it with the .txt.

    .venv/bin/python scripts/make_case_picture.py

Needs Chromium (scripts/install-browser.sh) and poppler's pdftoppm and pdftotext.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted(str(p) for p in (ROOT / "sample_logs").glob("*.bjh"))
LICENSEE = "RL-0412"
PREPARER = ("--preparer", "A. Inspector", "--agency", "South Dakota Commission on Gaming")
# What changes from one making to the next (times, paths, digests, the version), put aside
# so that the text compared is what the page says of the case.
_VARYING = [
    (re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC"), "<time>"),
    (re.compile(r"\b[0-9a-f]{12,64}\b"), "<digest>"),
    (re.compile(r"\b[0-9A-F]{16}\b"), "<fingerprint>"),
    (re.compile(r"bjh-auditor \S+"), "bjh-auditor <version>"),
]


def steady(text: str) -> str:
    """Page 1's words with what varies put aside, laid out again in lines of at most 96
    characters: where the printed page breaks a line (after a date's hyphen, say) depends
    on the fonts, not on what the page says."""
    text = re.sub(r"(?<=\d)-\s+(?=\d)", "-", " ".join(text.split()))  # a date broken at '-'
    for pattern, said in _VARYING:
        text = pattern.sub(said, text)
    return "\n".join(textwrap.wrap(text, 96, break_on_hyphens=False)) + "\n"


def page_one(work: Path, pdf: bool) -> Path:
    """The sample case of RL-0412 made in `work` (with case.pdf if `pdf`); its folder."""
    env = {**os.environ, "XDG_DATA_HOME": str(work / "data"), "XDG_CACHE_HOME": str(work / "cache")}
    env.pop("BJH_STORE", None)
    auditor = [sys.executable, "-m", "auditor"]
    # Run in `work`, the folders named relative to it: the page names the audit's folder.
    subprocess.run([*auditor, "audit", *SAMPLES, "--out", "run", "--quiet"],
                   env=env, cwd=work, check=False)
    subprocess.run([*auditor, "case", "run", "--licensee", LICENSEE, "--out", "case",
                    *PREPARER, *(["--pdf"] if pdf else [])],
                   env=env, cwd=work, check=True, stdout=subprocess.DEVNULL)
    return work / "case"


def page_one_text(case: Path) -> str:
    """Page 1's text, from case.pdf (pdftotext, first page)."""
    done = subprocess.run(["pdftotext", "-f", "1", "-l", "1", "-layout", str(case / "case.pdf"),
                           "-"], capture_output=True, text=True, check=True)
    return steady(done.stdout)


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        case = page_one(Path(folder), pdf=True)
        (ROOT / "docs" / "case-page1.txt").write_text(page_one_text(case), encoding="utf-8")
        subprocess.run(["pdftoppm", "-f", "1", "-l", "1", "-png", "-r", "80", "-singlefile",
                        str(case / "case.pdf"), str(ROOT / "docs" / "case-page1")], check=True)
    print("wrote docs/case-page1.png and docs/case-page1.txt")
    return 0


if __name__ == "__main__":
    sys.exit(main())
