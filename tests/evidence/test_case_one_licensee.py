"""A case is of one licensee: a `--licensee` that names more than one (a casino name two
licences share, or that one licence and another table with no licence bear) is refused,
naming the licences, never made into one case of both; a licence ID asked for is that
licence's alone, even where another casino is named as it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from auditor.cli import main
from tests.helpers import SAMPLES

T11 = SAMPLES / "standard-t11-2026-11-20.bjh"
T12 = SAMPLES / "standard-t12-2026-11-21.bjh"
HEADER = 'casino "Deadwood Example Casino" licence=RL-0412'


@pytest.mark.parametrize("other_header, asked, said", [
    ('casino "Deadwood Example Casino" licence=RL-0999', "Deadwood Example Casino",
     "licences RL-0412, RL-0999"),
    ('casino "Deadwood Example Casino"', "Deadwood Example Casino",
     "licences RL-0412, none (casino 'Deadwood Example Casino')"),
])
def test_a_name_of_two_licensees_is_refused(other_header: str, asked: str, said: str,
                                            tmp_path: Path, capsys) -> None:
    run = _audited(tmp_path, other_header)
    capsys.readouterr()
    assert main(["case", str(run), "--licensee", asked, "--out", str(tmp_path / "case")]) == 2
    assert capsys.readouterr().err == (
        f"auditor: {asked!r} names more than one licensee in the audit written to {run} "
        f"({said}): a case is of one licensee; give its licence with --licensee\n")
    assert not (tmp_path / "case").exists()
    # by its licence, it is a case of its own
    assert main(["case", str(run), "--licensee", "RL-0412", "--out",
                 str(tmp_path / "own")]) == 0


def _audited(tmp_path: Path, other_header: str) -> Path:
    records = tmp_path / "records"
    records.mkdir()
    (records / "t11.bjh").write_bytes(T11.read_bytes())
    (records / "other.bjh").write_text(T12.read_text(encoding="utf-8").replace(
        HEADER, other_header), encoding="utf-8")
    run = tmp_path / "run"
    assert main(["audit", str(records), "--out", str(run), "--quiet", "--store",
                 str(tmp_path / "h.sqlite")]) == 1
    return run


def test_a_licence_asked_for_is_not_a_casino_of_that_name(tmp_path: Path) -> None:
    run = _audited(tmp_path, 'casino "RL-0412" licence=RL-0777')
    assert main(["case", str(run), "--licensee", "RL-0412", "--out",
                 str(tmp_path / "case")]) == 0
    document = json.loads((tmp_path / "case" / "findings.json").read_text(encoding="utf-8"))
    assert [(i["licence"], i["table"]) for i in document["inputs"]] == [("RL-0412", "T11")]
    assert {f["table"] for f in document["findings"]} == {"T11"}


def test_dates_the_wrong_way_round_are_said_so(tmp_path: Path, capsys) -> None:
    run = _audited(tmp_path, HEADER)
    capsys.readouterr()
    assert main(["case", str(run), "--licensee", "RL-0412", "--from", "2026-11-21",
                 "--until", "2026-11-20", "--out", str(tmp_path / "case")]) == 2
    assert capsys.readouterr().err == ("auditor: --from 2026-11-21 is after --until "
                                       "2026-11-20: no gaming date is in between\n")
