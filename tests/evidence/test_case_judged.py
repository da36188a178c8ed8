"""Page 1 of a case says what the run judged: every subsection, or the run's selection with
the subsections it did not judge named (a case of a run that ignored 20:18:15:26 must not
read as a table clean of it), and the commission's approvals the headers were held to (of
this licensee only)."""

from __future__ import annotations

import html as html_module
import re
from pathlib import Path

import pytest

from auditor.cli import main
from tests.helpers import SAMPLES

T11 = str(SAMPLES / "standard-t11-2026-11-20.bjh")
APPROVALS = """\
[[approval]]
licence = "RL-0412"
table = "T11"
reference = "SDCGC-2026-101"
date = 2026-09-01
game = "standard"
soft17 = "stand"

[[approval]]
licence = "RL-0417"
reference = "SDCGC-2026-417"
date = 2026-09-02
game = "switch"
"""


def page_one_row(case: Path, heading: str) -> str:
    html = (case / "case.html").read_text(encoding="utf-8")
    cell = re.search(rf"<tr><th>{heading}</th><td>(.*?)</td></tr>", html, re.S)
    assert cell is not None, heading
    return html_module.unescape(" ".join(re.sub(r"<[^>]+>", " ", cell.group(1)).split()))


def made(tmp_path: Path, *flags: str) -> Path:
    run, case = tmp_path / "run", tmp_path / "case"
    assert main(["audit", T11, "--out", str(run), "--quiet", "--store",
                 str(tmp_path / "h.sqlite"), *flags]) == 1
    assert main(["case", str(run), "--licensee", "RL-0412", "--out", str(case)]) == 0
    return case


@pytest.mark.parametrize("flags, said", [
    ([], "all 47 subsections the auditor checks, and the record's format"),
    (["--ignore", "20:18:15:26"],
     "in part, by the run's selection (ignored 20:18:15:26): 46 of the 47 subsections the "
     "auditor checks, and the record's format; not judged, so absent from this case "
     "whatever the records show: 20:18:15:26"),
])
def test_page_one_says_what_was_judged(flags: list[str], said: str, tmp_path: Path) -> None:
    case = made(tmp_path, *flags)
    assert page_one_row(case, "Judged") == said


def test_page_one_names_the_approvals_of_its_licensee(tmp_path: Path) -> None:
    approvals = tmp_path / "approved.toml"
    approvals.write_text(APPROVALS, encoding="utf-8")
    case = made(tmp_path, "--approved", str(approvals))
    row = page_one_row(case, "Approved house rules")
    assert re.sub(r"[0-9a-f]{64}", "<sha256>", row) == (
        f"the headers were held to the commission's approvals in {approvals} (SHA-256 "
        "<sha256>): SDCGC-2026-101 of 2026-09-01 (RL-0412/T11)")
    assert "RL-0417" not in (case / "case.html").read_text(encoding="utf-8")
