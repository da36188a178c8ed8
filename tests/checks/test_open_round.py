"""`audit` of a record still being written (issue 43, item 5): the round a file without
`close` ends inside is read and not judged, and named in every output; `--finished` and a
later audit judge it; a later recording of a table-night supersedes the earlier one in
`trends` and `incidents`."""

from __future__ import annotations

import csv
import json
from datetime import date, timedelta
from pathlib import Path

from auditor.audit import audit_file
from auditor.cli import main
from auditor.selection import Judging
from auditor.split import audit_split
from tests.helpers.audits import audit
from tests.helpers.open_records import HEADER, TODAY, round_text, write


def found(result) -> list[tuple[str, str | None, int | None]]:
    return [(f.citation, f.round, f.line) for f in result.findings]


# A hostile record: round 2 holds a wrong payout (paid 15 on a 10 win) and is cut before its
# `end`: the file ends inside it, and nothing says the table closed.
HIDING = HEADER + round_text(1) + round_text(2, paid="15").replace("leave s1\nend\n", "")


def test_the_open_round_is_read_not_judged_and_named(tmp_path) -> None:
    result = audit_file(str(write(tmp_path, "open.bjh", HIDING)))
    assert found(result) == []
    summary = result.summary
    assert (summary.rounds, summary.rounds_audited) == (2, 1)
    assert summary.open_round == {"round": "2", "line": 19, "last_line": 28}
    assert summary.unwritten_line is None and summary.finished is False
    # the open round counts as read, not audited, in its dealer's hour
    assert summary.round_counts == [["D1", f"{TODAY} 20", 2, 1]]


def test_finished_and_the_next_audit_judge_what_the_open_round_hid(tmp_path) -> None:
    path = str(write(tmp_path, "open.bjh", HIDING))
    hidden = [("20:18:15:06", "2", 28), ("record:reference", "2", 19)]
    whole = audit_file(path, judging=Judging(finished=True))
    assert sorted(found(whole)) == sorted(hidden)
    assert whole.summary.open_round is None and whole.summary.finished is True
    # the table closes: the same round, no longer at the end of an unfinished record
    closed = audit_file(str(write(tmp_path, "closed.bjh", HIDING + "close\n")))
    assert sorted(found(closed)) == sorted(hidden)
    # a `close` read earlier in the record: the table closed, and the round at the end is
    # judged as the catalog says
    reopened = HEADER + round_text(1) + f"close\nshoe B date={TODAY}\n" + \
        round_text(2, paid="15").replace("leave s1\nend\n", "")
    result = audit_file(str(write(tmp_path, "reopened.bjh", reopened)))
    assert sorted(found(result)) == [("20:18:15:06", "2", 30), ("record:reference", "2", 21)]
    assert result.summary.open_round is None


def test_an_unclosed_round_followed_by_a_statement_is_judged(tmp_path) -> None:
    text = HEADER + round_text(1).replace("end\n", "") + round_text(2)
    result = audit_file(str(write(tmp_path, "unclosed.bjh", text)))
    assert found(result) == [("record:reference", "1", 7)]
    assert result.summary.open_round is None


def test_a_half_written_last_line_is_not_yet_written(tmp_path) -> None:
    cut = HEADER + round_text(1) + "round 2 time=20:02:00 dealer=D1\nsit s1 player=P1\nbet s1h1 ma"
    path = str(write(tmp_path, "cut.bjh", cut))
    result = audit_file(path)
    assert found(result) == []
    assert result.summary.open_round == {"round": "2", "line": 19, "last_line": 20}
    assert result.summary.unwritten_line == 21
    assert result.summary.lines == 21
    # taken as finished, the last line is read as it is: a syntax finding, in the round
    whole = audit_file(path, judging=Judging(finished=True))
    assert sorted(found(whole)) == [("record:reference", "2", 19), ("record:syntax", "2", 21)]
    # half a `round` line after a closed round: not yet written, and no round is open
    after = audit_file(str(write(tmp_path, "after.bjh", HEADER + round_text(1) + "rou")))
    assert found(after) == []
    assert (after.summary.open_round, after.summary.unwritten_line) == (None, 19)
    # a last `end` or `close` with no newline is whole: read
    ended = audit_file(str(write(tmp_path, "ended.bjh", HEADER + round_text(1)[:-1])))
    assert found(ended) == [] and ended.summary.rounds_audited == 1
    assert (ended.summary.open_round, ended.summary.unwritten_line) == (None, None)
    closing = HIDING + "close"
    result = audit_file(str(write(tmp_path, "closing.bjh", closing)))
    assert ("20:18:15:06", "2", 28) in found(result) and result.summary.finished is True
    # a last line that is not even text (cut inside a character) is not yet written either
    text = (HEADER + round_text(1) + "round 2 dealer=D1\nnote \"caf").encode() + "é".encode()[:1]
    broken = audit_file(str(write(tmp_path, "broken.bjh", text)))
    assert found(broken) == [] and broken.summary.unwritten_line == 20


def test_the_open_round_is_the_same_whatever_the_pieces(tmp_path) -> None:
    """A file cut into pieces at `shoe` statements (auditor/split.py): only the piece that
    reaches the file's end may hold the open round; one that a `shoe` ends never does."""
    body = "".join(f"shoe S{n} date={TODAY}\n" + round_text(n) for n in range(1, 40))
    text = HEADER + body.replace("leave s1\nend\nshoe S20", "leave s1\nshoe S20") + \
        round_text(40, paid="15").replace("end\n", "")
    path = str(write(tmp_path, "pieces.bjh", text))
    whole = audit_file(path)
    split = audit_split(path, piece_bytes=400)
    assert found(split) == found(whole) == [("record:reference", "19", 242)]
    assert split.summary.open_round == whole.summary.open_round == {
        "round": "40", "line": 513, "last_line": 523}
    assert split.summary.rounds == whole.summary.rounds == 40
    assert split.summary.rounds_audited == whole.summary.rounds_audited == 39


def _audit(tmp_path: Path, record: Path, out: str, store: str, *extra: str) -> int:
    return audit(record, out=tmp_path / out, store=store, jobs=None, more=extra)


def test_every_output_names_the_open_round(tmp_path, capsys) -> None:
    record = write(tmp_path, "open\x1b[31m.bjh", HIDING + "hit s1h1 7")
    store = str(tmp_path / "history.sqlite")
    assert _audit(tmp_path, record, "out", store, "--new-store") == 0  # nothing found
    err = capsys.readouterr().err
    warning = [line for line in err.splitlines() if "no `close` yet" in line]
    assert warning == [
        f"auditor: {tmp_path}/open\\u001b[31m.bjh has no `close` yet: round 2 (line 19) is "
        "still open: read, not judged; line 29 is not yet written (no newline): not read; "
        "audit it again once finished, or with --finished if it is whole"]
    document = json.loads((tmp_path / "out" / "findings.json").read_text(encoding="utf-8"))
    [summary] = document["inputs"]
    assert (summary["open_round"], summary["unwritten_line"], summary["finished"]) == (
        {"round": "2", "line": 19, "last_line": 28}, 29, False)
    assert document["findings"] == []
    assert document["auditor"]["conditions"]["finished"] is False
    page = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert 'round <span class="open-round-id">2</span> (lines 19–28) still open, not judged; ' \
           "line 29 not yet written (no newline), not read</li>" in page
    assert main(["runs", "show", "1", "--store", store]) == 0
    assert "; no `close` yet: round 2 (line 19) still open, not judged" in capsys.readouterr().out
    # --finished: the open round judged, and no warning
    assert _audit(tmp_path, record, "whole", store, "--finished") == 1
    assert "no `close` yet" not in capsys.readouterr().err
    document = json.loads((tmp_path / "whole" / "findings.json").read_text(encoding="utf-8"))
    # (its unreadable last line keeps the round's rules from being judged: record:syntax)
    assert sorted((f["citation"], f["line"]) for f in document["findings"]) == [
        ("record:reference", 19), ("record:syntax", 29)]
    assert document["auditor"]["conditions"]["finished"] is True


def test_a_run_with_an_open_round_verifies(tmp_path, capsys) -> None:
    """`verify` audits the inputs again under the run's conditions: the open round stays
    open (and under --finished, judged)."""
    record = write(tmp_path, "open.bjh", HIDING)
    store = str(tmp_path / "history.sqlite")
    same = "and the inputs audited again give the same findings"
    assert _audit(tmp_path, record, "out", store, "--new-store") == 0
    capsys.readouterr()
    main(["verify", str(tmp_path / "out")])  # (not signed: exit 4, "not proven")
    printed = capsys.readouterr().out
    assert same in printed and "0 finding(s) in scope" in printed
    assert _audit(tmp_path, record, "whole", store, "--finished") == 1
    capsys.readouterr()
    main(["verify", str(tmp_path / "whole")])
    printed = capsys.readouterr().out
    assert same in printed and "2 finding(s) in scope" in printed
    assert "every file taken as finished: 2 finding(s)" in printed


# ---- a later recording of a table-night supersedes the earlier one ----

def _record(rounds: int, faults: tuple[int, ...] = ()) -> str:
    """Rounds each after a shuffle (the same cards every round): round n on line 14n - 5,
    its settlement on 14n + 4."""
    return HEADER + "".join("shuffle\ncut\n" + round_text(n, paid="15" if n in faults else "10")
                            for n in range(1, rounds + 1))


def _trends(tmp_path: Path, store: str, name: str) -> dict:
    assert main(["trends", "--store", store, "--out", str(tmp_path / name), "--quiet"]) == 0
    document = json.loads((tmp_path / name / "trends.json").read_text(encoding="utf-8"))
    return {"rounds": document["trends"]["rounds"], "findings": document["trends"]["findings"],
            "rates": document["rates"]}


def _incidents(tmp_path: Path, store: str, name: str) -> list[tuple[str, str]]:
    assert main(["incidents", "--store", store, "--out", str(tmp_path / name), "--quiet"]) == 0
    with (tmp_path / name / "incidents.csv").open(encoding="utf-8", newline="") as handle:
        return [(row["round"], row["line"]) for row in csv.DictReader(handle)]


def test_the_whole_record_supersedes_the_half_written_one(tmp_path, store_url) -> None:
    """The issue's night: audited mid-shift (an open round holding a fault), then whole."""
    whole = _record(30, faults=(5, 12, 25)) + "close\n"
    cut = whole.index("round 12 ") + 170  # round 12 open, its wrong payout written
    record = tmp_path / "night.bjh"
    record.write_text(whole[:cut], encoding="utf-8")
    assert _audit(tmp_path, record, "first", store_url) == 1  # round 5's fault alone
    assert _incidents(tmp_path, store_url, "x1") == [("5", "74")]
    record.write_text(whole, encoding="utf-8")
    assert _audit(tmp_path, record, "second", store_url) == 1
    assert _incidents(tmp_path, store_url, "x2") == [("12", "172"), ("25", "354")]
    alone = str(tmp_path / "alone.sqlite")
    assert _audit(tmp_path, record, "third", alone, "--new-store") == 1
    assert _trends(tmp_path, store_url, "t1") == _trends(tmp_path, alone, "t2")
    assert _trends(tmp_path, alone, "t2")["rounds"] == 30
    assert _trends(tmp_path, alone, "t2")["findings"] == 3


def test_an_older_partial_audited_later_never_supersedes_the_whole(tmp_path) -> None:
    store = str(tmp_path / "history.sqlite")
    whole = _record(30, faults=(5,)) + "close\n"
    partial = whole[:whole.index("round 12 ") + 200]
    write(tmp_path, "whole.bjh", whole)
    write(tmp_path, "partial.bjh", partial)
    write(tmp_path, "longer.bjh", whole[:whole.index("round 20 ") + 200])
    assert _audit(tmp_path, tmp_path / "whole.bjh", "a", store, "--new-store") == 1
    assert _audit(tmp_path, tmp_path / "partial.bjh", "b", store) == 1
    assert _trends(tmp_path, store, "t")["rounds"] == 30
    # two partials: the one with more rounds of the night counts, whichever came last
    other = str(tmp_path / "other.sqlite")
    assert _audit(tmp_path, tmp_path / "longer.bjh", "c", other, "--new-store") == 1
    assert _audit(tmp_path, tmp_path / "partial.bjh", "d", other) == 1
    assert _trends(tmp_path, other, "u")["rounds"] == 20  # rounds 1-20 (21 open: not counted)
    # the older partial's run exports nothing of the superseded night
    assert _incidents(tmp_path, store, "x") == []


def test_two_records_of_one_night_that_begin_apart_both_count(tmp_path) -> None:
    """A swing shift's record and a grave shift's of the same table and gaming day are two
    table-nights: neither supersedes the other."""
    store = str(tmp_path / "history.sqlite")
    swing = _record(10) + "close\n"
    grave = HEADER + "".join("shuffle\ncut\n" + round_text(n).replace("time=20:", "time=23:")
                             for n in range(11, 21)) + "close\n"
    write(tmp_path, "swing.bjh", swing)
    write(tmp_path, "grave.bjh", grave)
    assert _audit(tmp_path, tmp_path / "swing.bjh", "a", store, "--new-store") == 0
    assert _audit(tmp_path, tmp_path / "grave.bjh", "b", store) == 0
    assert _trends(tmp_path, store, "t")["rounds"] == 20


def test_two_runs_at_once_over_one_table_night(tmp_path) -> None:
    """The half-written record and the whole one audited at the same moment into one
    store: whichever run number each gets, the whole recording is the one counted."""
    import subprocess
    import sys

    store = str(tmp_path / "history.sqlite")
    whole = _record(30, faults=(5, 25)) + "close\n"
    write(tmp_path, "whole.bjh", whole)
    write(tmp_path, "partial.bjh", whole[:whole.index("round 25 ") + 170])
    assert _audit(tmp_path, tmp_path / "partial.bjh", "first", store, "--new-store") == 1
    runs = [subprocess.Popen([sys.executable, "-m", "auditor", "audit", str(tmp_path / name),
                              "--out", str(tmp_path / f"at-once-{name}"), "--store", store,
                              "--quiet"]) for name in ("partial.bjh", "whole.bjh")]
    assert [run.wait(timeout=120) for run in runs] == [1, 1]
    assert _trends(tmp_path, store, "t") == _trends_alone(tmp_path, tmp_path / "whole.bjh")


def _trends_alone(tmp_path: Path, record: Path) -> dict:
    alone = str(tmp_path / "alone.sqlite")
    assert _audit(tmp_path, record, "alone", alone, "--new-store") == 1
    return _trends(tmp_path, alone, "t-alone")


def test_a_round_that_never_closes_stays_open_and_cheap(tmp_path) -> None:
    """A table that deals on for hours without ending a round: the round is open at every
    audit, named with its first and last lines, and costs no judging."""
    import time

    hits = "".join(f"2{hour % 4}:{minute:02d}:00 note \"still dealing\"\n"
                   for hour in range(4) for minute in range(60)) * 50
    text = HEADER + round_text(1) + "round 2 time=20:00:00 dealer=D1\nbet s1h1 main 10\n" + hits
    path = str(write(tmp_path, "endless.bjh", text))
    started = time.perf_counter()
    result = audit_file(path)
    assert time.perf_counter() - started < 10
    assert found(result) == []
    assert result.summary.open_round == {"round": "2", "line": 19, "last_line": 20 + 12_000}


def test_a_record_of_an_older_night_cut_inside_a_round_is_judged_as_the_catalog_says(
        tmp_path, capsys) -> None:
    """No table writes an old night any more: such a file is a record cut short, and its
    last round is judged (record:reference, and what it holds), not set aside as open.
    The run keeps the date records may still be written from, so it verifies later."""
    older = (date.today() - timedelta(days=2)).isoformat()
    record = write(tmp_path, "old.bjh", HIDING.replace(TODAY, older))
    store = str(tmp_path / "history.sqlite")
    assert _audit(tmp_path, record, "out", store, "--new-store") == 1
    document = json.loads((tmp_path / "out" / "findings.json").read_text(encoding="utf-8"))
    assert sorted((f["citation"], f["round"], f["line"]) for f in document["findings"]) == [
        ("20:18:15:06", "2", 28), ("record:reference", "2", 19)]
    assert document["inputs"][0]["open_round"] is None
    yesterday = (date.today() - timedelta(days=1)).isoformat()
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["conditions"]["live_from"] == yesterday
    capsys.readouterr()
    assert main(["verify", str(tmp_path / "out")]) == 4  # holds, unsigned
    # yesterday's night is still a night a table may be writing: its round is open
    recent = write(tmp_path, "recent.bjh", HIDING.replace(TODAY, yesterday))
    result = audit_file(str(recent), judging=Judging(live_from=yesterday))
    assert found(result) == [] and result.summary.open_round["round"] == "2"


# ---- a file cut inside its header ----

# The header cut before its `table` line: a table that has only begun its record.
CUT_HEADER = 'bjh 1\ncasino "Test" licence=RL-9\n'


def _aged(path: Path, days: int) -> Path:
    """`path` last written `days` days ago (a file untouched since an older night)."""
    import os
    import time

    when = time.time() - days * 86400
    os.utime(path, (when, when))
    return path


def test_a_file_cut_inside_its_header_is_open_not_a_header_finding(tmp_path) -> None:
    yesterday = (date.today() - timedelta(days=1)).isoformat()
    live = Judging(live_from=yesterday)
    cases = {  # text: the header's last line read (its lines before the one not yet written)
        CUT_HEADER: 2,
        CUT_HEADER + "table T4 game=stan": 2,  # a `table` line being written
        "bj": 0,  # `bjh 1` being written
        "": 0,  # created, nothing written yet
    }
    for number, (text, last) in enumerate(cases.items()):
        path = str(write(tmp_path, f"cut{number}.bjh", text))
        for judging in (None, live):
            result = audit_file(path, judging=judging)
            assert found(result) == [], repr(text)
            assert result.summary.open_header == last, repr(text)
            assert result.summary.finished is False
    # a whole header, no round yet: nothing to judge, nothing found, still open
    whole = audit_file(str(write(tmp_path, "header.bjh", HEADER)), judging=live)
    assert found(whole) == [] and whole.summary.open_header is None  # (a body: `shoe`)
    only_table = HEADER.split("shoe")[0]
    result = audit_file(str(write(tmp_path, "table.bjh", only_table)), judging=live)
    assert found(result) == [] and result.summary.open_header == 3


def test_a_finished_or_old_file_cut_inside_its_header_keeps_its_finding(tmp_path) -> None:
    yesterday = (date.today() - timedelta(days=1)).isoformat()
    no_table = [("record:header", None, 2)]
    path = write(tmp_path, "cut.bjh", CUT_HEADER)
    # taken as finished: the header is judged as the catalog says
    result = audit_file(str(path), judging=Judging(finished=True))
    assert found(result) == no_table and result.summary.open_header is None
    # untouched since two days before the audit: an old record cut short
    old = str(_aged(path, 3))
    result = audit_file(old, judging=Judging(live_from=yesterday))
    assert found(result) == no_table and result.summary.open_header is None
    # ... but a file of yesterday's may still be written
    result = audit_file(str(_aged(path, 1)), judging=Judging(live_from=yesterday))
    assert found(result) == [] and result.summary.open_header == 2
    empty = str(_aged(write(tmp_path, "empty.bjh", ""), 3))
    result = audit_file(empty, judging=Judging(live_from=yesterday))
    assert [f.message for f in result.findings] == [
        "the file is empty", "the file does not begin with `bjh 1`",
        "the header has no `table` statement"]


def test_every_output_names_a_header_still_being_written(tmp_path, capsys) -> None:
    record = write(tmp_path, "cut\x1b[2J.bjh", CUT_HEADER + "table T4 ga")
    store = str(tmp_path / "history.sqlite")
    assert _audit(tmp_path, record, "out", store, "--new-store") == 0
    warning = [line for line in capsys.readouterr().err.splitlines() if "no `close` yet" in line]
    assert warning == [
        f"auditor: {tmp_path}/cut\\u001b[2J.bjh has no `close` yet: its header is still being "
        "written (no body statement yet): not judged; line 3 is not yet written (no "
        "newline): not read; audit it again once finished, or with --finished if it is whole"]
    document = json.loads((tmp_path / "out" / "findings.json").read_text(encoding="utf-8"))
    [summary] = document["inputs"]
    assert (summary["open_header"], summary["unwritten_line"], summary["finished"]) == (
        2, 3, False)
    assert document["findings"] == []
    page = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert "header (lines 1–2) still being written, not judged; line 3 not yet written " \
           "(no newline), not read</li>" in page
    assert main(["runs", "show", "1", "--store", store]) == 0
    assert "; no `close` yet: its header still being written, not judged" in \
        capsys.readouterr().out
    assert _audit(tmp_path, record, "whole", store, "--finished") == 1
    document = json.loads((tmp_path / "whole" / "findings.json").read_text(encoding="utf-8"))
    assert [(f["citation"], f["line"]) for f in document["findings"]] == [("record:header", 2),
                                                                          ("record:syntax", 3)]
