"""Bad input never crashes the auditor and never hides the rest of the record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from auditor.audit import audit_file
from auditor.cli import EXIT_ERROR, exit_code, main
from auditor.run import audit_paths

HEADER = """bjh 1
table T1 game=standard decks=6 min=5 max=500
shoe A date=2026-11-20
shuffle
cut
"""


def round_text(number: int, *, extra: str = "") -> str:
    return f"""round {number} dealer=D1
sit s1 player=P1
bet s1h1 main 10
deal s1h1 9h
deal dealer 7c
deal s1h1 Kd
deal dealer Ts
{extra}stand s1h1
reveal
settle s1h1 main win 10
leave s1
end
"""


def write(tmp_path: Path, name: str, content: str | bytes) -> str:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return str(path)


def findings(path: str) -> set[tuple[str, str | None, int | None]]:
    return {(f.citation, f.round, f.line) for f in audit_file(path).findings}


def test_a_clean_record_has_no_findings(tmp_path) -> None:
    path = write(tmp_path, "clean.bjh", HEADER + round_text(1) + round_text(2))
    result = audit_file(path)
    assert result.findings == []
    summary = result.summary
    assert (summary.rounds, summary.rounds_audited, summary.lines) == (2, 2, 29)


def test_a_garbage_line_in_a_round_is_reported_and_the_other_rounds_audited(tmp_path) -> None:
    text = HEADER + round_text(1, extra="%%% garbage %%%\n") + round_text(2)
    path = write(tmp_path, "garbage.bjh", text)
    result = audit_file(path)
    assert {(f.citation, f.round, f.line) for f in result.findings} == {
        ("record:syntax", "1", 13)}
    assert (result.summary.rounds, result.summary.rounds_audited) == (2, 1)


def test_a_bad_card_is_a_syntax_finding_with_its_column(tmp_path) -> None:
    text = HEADER + round_text(1).replace("deal s1h1 Kd", "deal s1h1 10d")
    result = audit_file(write(tmp_path, "card.bjh", text))
    [finding] = result.findings
    assert (finding.citation, finding.line, finding.column) == ("record:syntax", 11, 11)
    assert "not a card" in finding.message


def test_an_unknown_statement_outside_a_round(tmp_path) -> None:
    text = HEADER + "fold s1h1\n" + round_text(1)
    assert findings(write(tmp_path, "unknown.bjh", text)) == {("record:syntax", None, 6)}


def test_a_truncated_file_ends_its_open_round(tmp_path) -> None:
    """Taken as finished (`audit --finished`), a file cut inside a round ends it there:
    the round is judged, unclosed. (Without `close` and without --finished, the round is
    still open and not judged: tests/checks/test_open_round.py.)"""
    from auditor.selection import Judging

    text = HEADER + round_text(1) + round_text(2)[:60]
    path = write(tmp_path, "truncated.bjh", text)
    result = audit_file(path, judging=Judging(finished=True))
    found = {(f.citation, f.round, f.line) for f in result.findings}
    assert ("record:reference", "2", 18) in found  # the round line of the unclosed round
    assert all(f.round != "1" for f in result.findings)
    assert result.summary.rounds == 2
    assert result.summary.open_round is None
    open_result = audit_file(path)
    assert open_result.findings == []
    assert open_result.summary.open_round == {"round": "2", "line": 18, "last_line": 20}


def test_an_unclosed_round_ends_at_the_next_round(tmp_path) -> None:
    text = HEADER + round_text(1).replace("end\n", "") + round_text(2)
    assert findings(write(tmp_path, "unclosed.bjh", text)) == {("record:reference", "1", 6)}


def test_binary_bytes_in_a_line_past_the_start_of_the_file(tmp_path) -> None:
    """Past the first 8 KiB (which decide whether the file is text), bad bytes hit one line."""
    rounds = "".join("shuffle\ncut\n" + round_text(n) for n in range(1, 61))
    data = (HEADER + rounds).encode() + b"note \xff\xfe\x00 bad\n" + round_text(61).encode()
    assert len((HEADER + rounds).encode()) > 8192
    result = audit_file(write(tmp_path, "binary-line.bjh", data))
    assert {(f.citation, f.round, f.line) for f in result.findings} == {
        ("record:syntax", None, 846)}
    assert result.summary.rounds_audited == 61


def test_a_one_megabyte_line(tmp_path) -> None:
    data = HEADER + 'note "' + "x" * (1 << 20) + '"\n' + round_text(1)
    result = audit_file(write(tmp_path, "long.bjh", data))
    assert {(f.citation, f.line) for f in result.findings} == {("record:syntax", 6)}
    assert result.summary.lines == 18
    assert result.summary.rounds_audited == 1


def test_an_empty_file(tmp_path) -> None:
    from auditor.selection import Judging

    path = write(tmp_path, "empty.bjh", "")
    # a table may have only just made it: its header, still to be written, is not judged
    result = audit_file(path)
    assert result.findings == [] and result.summary.open_header == 0
    # taken as finished, an empty file is a record without its header
    whole = audit_file(path, judging=Judging(finished=True))
    assert {(f.citation, f.round, f.line) for f in whole.findings} == {
        ("record:header", None, 1)}
    assert whole.findings[0].message == "the file is empty"


def test_a_missing_header(tmp_path) -> None:
    found = findings(write(tmp_path, "headless.bjh", "shoe A\nshuffle\ncut\n" + round_text(1)))
    assert found == {("record:header", None, 1)}


@pytest.mark.parametrize(("name", "content", "reason"), [
    ("binary.bjh", b"\x00\x01\x02\x03" * 100, "binary data"),
    ("latin1.bjh", "bjh 1\nnote \"caf\xe9\"\n".encode("latin-1"), "not UTF-8"),
])
def test_unreadable_files_are_named_and_the_others_still_audited(tmp_path, name, content,
                                                                 reason) -> None:
    bad = write(tmp_path, name, content)
    good = write(tmp_path, "good.bjh", HEADER + round_text(1))
    result = audit_paths([bad, good], jobs=1)
    assert reason in (result.inputs[0].error or "")
    assert bad in result.inputs[0].error
    assert result.inputs[1].error is None and result.inputs[1].rounds_audited == 1
    assert exit_code(result) == EXIT_ERROR


def test_cli_exit_codes_and_outputs(tmp_path) -> None:
    clean = write(tmp_path, "clean.bjh", HEADER + round_text(1))
    out = tmp_path / "out"
    assert main(["audit", clean, "--out", str(out), "--quiet"]) == 0
    document = json.loads((out / "findings.json").read_text())
    assert document["findings"] == []
    assert document["inputs"][0]["rounds"] == 1 and len(document["inputs"][0]["sha256"]) == 64
    faulty = write(tmp_path, "faulty.bjh", HEADER + round_text(1).replace("win 10", "win 15"))
    assert main(["audit", faulty, "--out", str(out), "--quiet"]) == 1
    document = json.loads((out / "findings.json").read_text())
    [finding] = document["findings"]
    assert finding["citation"] == "20:18:15:06" and finding["round"] == "1"
    assert (finding["expected"], finding["actual"], finding["difference"]) == (
        "10.00", "15.00", "5.00")  # exact decimal text, never a float
    header = (out / "findings.csv").read_text().splitlines()[0]
    assert header.startswith("id,citation,rule,severity")
    missing = str(tmp_path / "nowhere.bjh")
    assert main(["audit", missing, clean, "--out", str(out), "--quiet"]) == 2
    document = json.loads((out / "findings.json").read_text())
    assert [i["error"] is not None for i in document["inputs"]] == [True, False]


def test_cli_misuse_exits_2(tmp_path) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["audit"])
    assert exit_info.value.code == 2
    assert main(["audit", str(tmp_path), "--quiet"]) == 2  # a folder with no *.bjh


def test_outputs_are_written_atomically(tmp_path, monkeypatch) -> None:
    """A crash while writing leaves the previous report whole and no temporary file behind."""
    from auditor.output import files

    target = tmp_path / "findings.json"
    target.write_text("previous")

    class Boom(RuntimeError):
        pass

    def explode(*_args):
        raise Boom

    monkeypatch.setattr(files.os, "fsync", explode)
    with pytest.raises(Boom):
        files.write_atomic(target, "new")
    assert target.read_text() == "previous"
    assert [p.name for p in tmp_path.iterdir()] == ["findings.json"]


def test_summaries_by_table_dealer_and_shift(tmp_path) -> None:
    """The surveillance summaries add up findings and money per table, dealer and shift."""
    over = round_text(1).replace("win 10", "win 15").replace("round 1 dealer=D1",
                                                              "round 1 dealer=D1 time=23:10:00")
    under = round_text(2).replace("win 10", "win 5").replace("dealer=D1", "dealer=D2")
    under = under.replace("stand s1h1", "09:00:00 stand s1h1")
    path = write(tmp_path, "money.bjh", HEADER + over + "shuffle\ncut\n" + under)
    out = tmp_path / "out"
    assert main(["audit", path, "--out", str(out), "--quiet"]) == 1
    summary = json.loads((out / "findings.json").read_text())["summary"]
    by_dealer = {row["dealer"]: (row["findings"], row["under_paid"], row["over_paid"])
                 for row in summary["dealer"]}
    assert by_dealer == {"D1": (1, "0.00", "5.00"), "D2": (1, "5.00", "0.00")}
    assert [(r["table"], r["findings"]) for r in summary["table"]] == [("T1", 2)]
    assert {r["shift"]: r["findings"] for r in summary["shift"]} == {"day": 1, "grave": 1}
    lines = (out / "summary.csv").read_text().splitlines()
    assert lines[0] == "dimension,key,currency,findings,high,medium,low,under_paid,over_paid"
    assert "dealer,D2,,1,1,0,0,5.00,0.00" in lines  # the table declares no currency
