"""`auditor case`, manifests, `auditor verify` and signatures, on the sample logs.

The case of one licensee is printed by the real Chromium and read back with `pdftotext`:
it must name none of the other licensee's tables, dealers or inputs, and hold every finding
of its own. `verify` must catch an edited record, an edited output, another rule base and a
changed byte under a signature, each named.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from auditor.cli import main
from tests.helpers import ROOT, SAMPLES
from tests.helpers.verifying import verify

# The eight samples this file's figures were worked out on (the Lucky Ladies ones came later).
CASE_SAMPLES = sorted(str(p) for p in SAMPLES.glob("*.bjh") if not p.name.startswith("ladies-"))
CHROMIUM = "/usr/bin/chromium"
LICENSEE = "RL-0412"  # Deadwood Example Casino: T07, T08, T11, T12, T31, T32
OTHER = "RL-0417"  # Black Hills Grand: BJS-2, BJS-5


@pytest.fixture(scope="module")
def audit(tmp_path_factory) -> Path:
    """The sample logs audited once: the --out folder (its store beside it)."""
    out = tmp_path_factory.mktemp("audit") / "reports"
    assert main(["audit", *CASE_SAMPLES, "--out", str(out), "--quiet", "--store",
                 str(out.parent / "history.sqlite")]) == 1
    return out


@pytest.fixture(scope="module")
def run_document(audit: Path) -> dict:
    return json.loads((audit / "findings.json").read_text(encoding="utf-8"))


def make_case(source: str, out: Path, *more: str) -> int:
    return main(["case", source, "--licensee", LICENSEE, "--out", str(out), *more])


@pytest.fixture(scope="module")
def case(audit: Path, tmp_path_factory) -> Path:
    """The case of one licensee from the audit's folder, without the PDF."""
    folder = tmp_path_factory.mktemp("case") / "case"
    assert make_case(str(audit), folder) == 0
    return folder


def copy_case(case: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "case"
    shutil.copytree(case, copy)
    return copy


def own_and_other(run_document: dict) -> tuple[list[dict], list[dict]]:
    inputs = run_document["inputs"]
    return ([i for i in inputs if i["licence"] == LICENSEE],
            [i for i in inputs if i["licence"] == OTHER])


def test_case_holds_its_licensee_only(case: Path, run_document: dict) -> None:
    own, other = own_and_other(run_document)
    html = (case / "case.html").read_text(encoding="utf-8")
    document = json.loads((case / "findings.json").read_text(encoding="utf-8"))
    own_paths = {i["path"] for i in own}
    expected = [f["id"] for f in run_document["findings"] if f["file"] in own_paths]
    assert [f["id"] for f in document["findings"]] == expected
    assert len(expected) == 24
    for number, finding_id in enumerate(expected, start=1):
        assert f'id="exhibit-{number}"' in html and finding_id in html
    assert sorted(p.name for p in (case / "inputs").iterdir()) == sorted(
        Path(i["path"]).name for i in own)
    for text in (html, (case / "findings.json").read_text(encoding="utf-8"),
                 (case / "manifest.json").read_text(encoding="utf-8")):
        for summary in other:
            assert summary["table"] not in text
            assert Path(summary["path"]).name not in text
            for dealer in summary["dealers"]:
                assert dealer not in text
        assert "Black Hills" not in text and OTHER not in text
    assert "<script" not in html.lower()  # a static document


def test_exhibit_says_the_regulation_lines_replay_and_money(case: Path) -> None:
    html = (case / "case.html").read_text(encoding="utf-8")
    exhibit = html[html.index('id="exhibit-1"'):html.index('id="exhibit-2"')]
    first = json.loads((case / "findings.json").read_text(encoding="utf-8"))["findings"][0]
    assert first["citation"] == "20:18:15:30.10(12)" and first["line"] == 239
    assert first["id"] in exhibit and "20:18:15:30.10(12)" in exhibit
    assert "DB21 wagers shall be paid in accordance with one of the following pay tables" \
        in exhibit
    assert "settle s5 db21 win 20" in exhibit and "deal dealer 5d" in exhibit
    # the round replayed from its first line up to the fault, and no further
    assert "round 6 time=20:39:04 dealer=D-1188" in exhibit
    assert re.search(r'class="line">240<', exhibit) is None
    assert "owed 10.00 · recorded 20.00 · difference 10.00 (over-paid) USD" in exhibit
    assert "The table as replayed after line 239" in exhibit


def test_totals_per_currency_are_kept_apart(case: Path) -> None:
    html = (case / "case.html").read_text(encoding="utf-8")
    cover = html[:html.index('id="exhibit-1"')]
    rows = re.findall(r"<tr><td>(USD|undeclared)</td>((?:<td class=\"number\">[^<]*</td>\s*)+)",
                      cover)
    cells = {currency: re.findall(r">([^<]*)<", numbers)[::2] for currency, numbers in rows}
    assert cells == {"USD": ["18", "6", "70.00", "30.00"],
                     "undeclared": ["6", "1", "250.00", "0.00"]}
    # a declared currency first, the undeclared money last
    assert [currency for currency, _ in rows] == ["USD", "undeclared"]


def test_case_pdf_names_no_other_licensee(audit: Path, run_document: dict,
                                          tmp_path: Path) -> None:
    if not os.access(CHROMIUM, os.X_OK) or shutil.which("pdftotext") is None:
        pytest.skip(f"needs Chromium at {CHROMIUM} and poppler's pdftotext "
                    "(scripts/install-browser.sh)")
    folder = tmp_path / "case"
    assert make_case(str(audit), folder, "--pdf") == 0
    pdf = folder / "case.pdf"
    pages = int(re.search(r"Pages:\s+(\d+)",
                          subprocess.run(["pdfinfo", str(pdf)], capture_output=True,
                                         text=True, check=True).stdout).group(1))
    assert pages <= 40
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout
    flat = re.sub(r"\s+", "", text)
    own, other = own_and_other(run_document)
    for summary in other:
        for name in (summary["table"], Path(summary["path"]).name, *summary["dealers"]):
            assert name not in text and name.replace(" ", "") not in flat
    assert "Black Hills" not in text and OTHER not in text
    own_paths = {i["path"] for i in own}
    for finding in run_document["findings"]:
        assert (finding["id"] in flat) == (finding["file"] in own_paths)
    fingerprint = json.loads((folder / "manifest.json").read_text())["case"]["fingerprint"]
    for number, page in enumerate(text.split("\f")[:pages], start=1):
        assert f"Page {number} of {pages}" in page
        assert f"Case {fingerprint}" in page
    assert "Totals per citation" in text.split("\f")[0]  # page 1 holds the totals


def test_case_from_the_store_is_the_case_from_the_folder(audit: Path, case: Path,
                                                         tmp_path: Path) -> None:
    folder = tmp_path / "from-store"
    assert make_case("1", folder, "--store", str(audit.parent / "history.sqlite")) == 0
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["case"]["fingerprint"] == json.loads(
        (case / "manifest.json").read_text())["case"]["fingerprint"]
    assert manifest["outputs"]["findings.json"] != ""


def test_narrowed_case(audit: Path, tmp_path: Path, run_document: dict) -> None:
    folder = tmp_path / "narrow"
    assert make_case(str(audit), folder, "--table", "T12", "--citation", "20:18:15:25") == 0
    document = json.loads((folder / "findings.json").read_text())
    assert [(f["citation"], f["line"]) for f in document["findings"]] == [("20:18:15:25", 242)]
    assert [p.name for p in (folder / "inputs").iterdir()] == ["standard-t12-2026-11-21.bjh"]
    html = (folder / "case.html").read_text()
    assert "T07" not in html and "D-2650" not in html  # another table of the same licensee
    # by citation only: the tables that show it, and every finding of it
    folder = tmp_path / "by-citation"
    assert make_case(str(audit), folder, "--citation", "20:18:15:30.10") == 0
    document = json.loads((folder / "findings.json").read_text())
    assert [(f["table"], f["citation"], f["line"]) for f in document["findings"]] == [
        ("T07", "20:18:15:30.10(12)", 239), ("T07", "20:18:15:30.10(8)", 555),
        ("T07", "20:18:15:30.10(9)", 559), ("T08", "20:18:15:30.10(10)", 132),
        ("T08", "20:18:15:30.10(4)", 332), ("T08", "20:18:15:30.10(11)", 400),
        ("T08", "20:18:15:30.10(2)", 415), ("T08", "20:18:15:30.10(5)", 677)]
    assert sorted(p.name for p in (folder / "inputs").iterdir()) == [
        "db21-t07-2026-11-20.bjh", "db21-t08-2026-11-21.bjh"]
    assert main(["verify", str(folder)]) == 4  # holds; unsigned, so not authenticated
    assert make_case(str(audit), tmp_path / "none", "--citation", "20:18:15:30.09") == 2


def test_bound_leaves_exhibits_out_and_says_so(audit: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture) -> None:
    folder = tmp_path / "bounded"
    capsys.readouterr()
    assert make_case(str(audit), folder, "--max-exhibits", "20") == 0
    said = capsys.readouterr().out
    assert "24 finding(s), over the limit of 20 exhibits, are not printed" in said
    html = (folder / "case.html").read_text()
    assert 'id="exhibit-' not in html
    assert "24 of 24 findings have no exhibit" in html
    top = html[:html.index("Who, when, by what")]  # said at the top of page 1
    assert "Summary only: 24 of 24 findings are not printed as exhibits" in top
    assert "--table" in html and "--max-exhibits" in html
    assert "<tr><td>T11</td><td class=\"number\">5</td></tr>" in html  # how to narrow it
    assert len(json.loads((folder / "findings.json").read_text())["findings"]) == 24
    assert main(["verify", str(folder)]) == 4  # holds, not signed
    from auditor.cli import build_parser

    assert build_parser().parse_args(["case", "1", "--licensee", LICENSEE, "--out",
                                      "x"]).max_exhibits == 500


def test_verify_holds_for_a_case_and_a_run_folder(audit: Path, case: Path,
                                                  capsys: pytest.CaptureFixture) -> None:
    status, said = verify(case, capsys=capsys)
    assert status == 4, said  # all holds; without a key, who made it is not proven
    status, said = verify(audit, capsys=capsys)
    assert status == 4, said
    manifest = json.loads((audit / "manifest.json").read_text())
    assert sorted(manifest["outputs"]) == ["findings.csv", "findings.json", "report.html",
                                           "summary.csv"]
    assert len(manifest["inputs"]) == 8


def test_verify_names_an_edited_record(case: Path, tmp_path: Path,
                                       capsys: pytest.CaptureFixture) -> None:
    folder = copy_case(case, tmp_path)
    record = folder / "inputs" / "standard-t11-2026-11-20.bjh"
    text = record.read_text(encoding="utf-8")
    lines = text.split("\n")
    assert lines[523] == "20:22:47 settle s3h1 main win 20"
    lines[523] = "20:22:47 settle s3h1 main win 30"  # the blackjack paid in full: no fault
    record.write_text("\n".join(lines), encoding="utf-8")
    status, said = verify(folder, capsys=capsys)
    assert status == 1
    assert "DIFFERS input inputs/standard-t11-2026-11-20.bjh: SHA-256 differs" in said
    assert "not found now: 20:18:15:06 line 524" in said
    assert "DIFFERS output" not in said


def test_verify_names_an_edited_output(case: Path, audit: Path, tmp_path: Path,
                                       capsys: pytest.CaptureFixture) -> None:
    folder = copy_case(case, tmp_path)
    html = folder / "case.html"
    html.write_text(html.read_text().replace("owed 10.00", "owed 20.00", 1))
    status, said = verify(folder, capsys=capsys)
    assert status == 1
    assert said.count("DIFFERS") == 1 and "DIFFERS output case.html: SHA-256 differs" in said
    run = tmp_path / "run"
    shutil.copytree(audit, run, symlinks=True)
    csv = run / "current" / "findings.csv"
    csv.write_text(csv.read_text().replace("20:18:15:06", "20:18:15:07", 1))
    status, said = verify(run, capsys=capsys)
    assert status == 1 and "DIFFERS output findings.csv: SHA-256 differs" in said


def test_verify_names_another_rule_base(case: Path, tmp_path: Path) -> None:
    """The case verified by an auditor whose rule base differs by one word: a copy of this
    one, run as its own installation."""
    other = tmp_path / "other-auditor"
    for name in ("auditor", "rules", "grammars"):
        shutil.copytree(ROOT / name, other / name,
                        ignore=shutil.ignore_patterns("__pycache__", "_data"))
    rules = other / "rules" / "20-18-15-standard.toml"
    text = rules.read_text(encoding="utf-8")
    assert "must be paid" in text
    rules.write_text(text.replace("must be paid", "shall be paid", 1), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "auditor", "verify", str(case)],
                          cwd=other, env={**os.environ, "PYTHONPATH": str(other)},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "DIFFERS rule base: made under rule base" in done.stdout
    assert "(another rule base)" in done.stdout
    # the same findings: only the rule base differs, with the file that differs
    assert done.stdout.count("DIFFERS") == 1
    assert "(another rule base): rules/20-18-15-standard.toml differs" in done.stdout


def test_signature_holds_and_fails_on_a_changed_byte(audit: Path, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture) -> None:
    key = tmp_path / "inspector.key"
    assert main(["keygen", str(key)]) == 0
    assert oct(key.stat().st_mode & 0o777) == "0o600"
    assert main(["keygen", str(key)]) == 2  # never overwritten
    folder = tmp_path / "signed"
    assert make_case(str(audit), folder, "--sign", str(key)) == 0
    public = f"{key}.pub"
    status, said = verify(folder, "--key", public, capsys=capsys)
    assert status == 0 and "signature: good" in said
    manifest = folder / "manifest.json"
    signed = manifest.read_bytes()
    data = bytearray(signed)
    place = data.index(b'"made": "') + len(b'"made": "') + 3  # a digit of the year
    data[place] = ord("9") if data[place] != ord("9") else ord("8")
    manifest.write_bytes(bytes(data))
    status, said = verify(folder, "--key", public, capsys=capsys)
    assert status == 1
    assert "DIFFERS manifest.sig: the signature does not match manifest.json" in said
    # another key does not vouch for it either
    stranger = tmp_path / "stranger.key"
    assert main(["keygen", str(stranger)]) == 0
    manifest.write_bytes(signed)
    status, said = verify(folder, "--key", f"{stranger}.pub", capsys=capsys)
    assert status == 5 and "signature: made by another key" in said


def test_case_refuses_what_it_cannot_do(audit: Path, case: Path, tmp_path: Path) -> None:
    assert make_case(str(audit), case) == 2  # never written over another case
    assert main(["case", str(audit), "--licensee", "RL-9999", "--out",
                 str(tmp_path / "none")]) == 2
    assert make_case(str(audit), tmp_path / "bad-date", "--from", "20-11-2026") == 2
    assert make_case(str(tmp_path / "nothing"), tmp_path / "x") == 2
    assert main(["verify", str(tmp_path)]) == 2  # no manifest
    assert main(["verify", str(case), "--key", str(case / "case.html")]) == 2


def test_record_text_is_shown_never_run(tmp_path: Path) -> None:
    """A casino name and a note holding markup and a right-to-left override: escaped, the
    override shown as its code point, no script in the case."""
    hostile = '<script>alert(1)</script>\u202eevil'
    record = (SAMPLES / "standard-t12-2026-11-21.bjh").read_text(encoding="utf-8").replace(
        'casino "Deadwood Example Casino" licence=RL-0412', f'casino "{hostile}" licence=RL-1')
    record = record.replace("round 8 ", f'note "{hostile}"\nround 8 ', 1)
    (tmp_path / "records").mkdir()
    (tmp_path / "records" / "t12.bjh").write_text(record, encoding="utf-8")
    out = tmp_path / "reports"
    assert main(["audit", str(tmp_path / "records"), "--out", str(out), "--quiet"]) == 1
    folder = tmp_path / "case"
    assert main(["case", str(out), "--licensee", "RL-1", "--out", str(folder)]) == 0
    html = (folder / "case.html").read_text(encoding="utf-8")
    assert "<script" not in html and "\u202e" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;\\u202eevil" in html
