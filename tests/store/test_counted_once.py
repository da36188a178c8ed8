"""A table's night recorded in more than one file counts once in the floor history: the
night split in two files (the recorder rotated its file) and the whole record audited too,
in either order, or the same rounds under another header; `trends` counts each round,
finding and amount once, and names the run it kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from auditor.cli import main
from tests.helpers.audits import audit
from tests.helpers.open_records import HEADER, TODAY, round_text, write

FAULTS = (5, 20)  # rounds paid 15 on a 10 win: 5.00 over-paid each


def _rounds(numbers: range) -> str:
    return "".join("shuffle\ncut\n" + round_text(n, paid="15" if n in FAULTS else "10")
                   for n in numbers)


WHOLE = HEADER + _rounds(range(1, 31)) + "close\n"
FIRST_HALF = HEADER + _rounds(range(1, 16))  # the file rotated after round 15 …
SECOND_HALF = HEADER.replace("shuffle\ncut\n", "") + _rounds(range(16, 31)) + "close\n"


def _trends(tmp_path: Path, store: str) -> dict:
    out = tmp_path / "trends"
    assert main(["trends", "--store", store, "--out", str(out), "--quiet"]) == 0
    document = json.loads((out / "trends.json").read_text(encoding="utf-8"))
    money = document["rates"]["floor"]["money"]
    return {"runs": document["trends"]["runs"], "rounds": document["trends"]["rounds"],
            "findings": document["trends"]["findings"],
            "over_paid": [(row["currency"], row["over_paid"]) for row in money],
            "days": [(row["key"], row["rounds"], row["findings"])
                     for row in document["rates"]["day"]],
            "superseded": [(row["run"], Path(row["file"]).name, row["night"])
                           for row in document["trends"]["superseded"]]}


@pytest.mark.parametrize("whole_first", [True, False], ids=["whole-first", "halves-first"])
def test_a_night_split_in_two_files_and_audited_whole_counts_once(tmp_path, store_url,
                                                                   whole_first) -> None:
    for name, text in (("whole.bjh", WHOLE), ("first.bjh", FIRST_HALF),
                       ("second.bjh", SECOND_HALF)):
        write(tmp_path, name, text)
    audits = [[tmp_path / "whole.bjh"], [tmp_path / "first.bjh", tmp_path / "second.bjh"]]
    if not whole_first:
        audits.reverse()
    for number, files in enumerate(audits, 1):
        assert audit(*files, out=tmp_path / f"out{number}", store=store_url, jobs=1) == 1
    night = json.loads((tmp_path / "out1" / "findings.json").read_text())["findings"][0][
        "gaming_day"]
    # the whole record holds both halves' rounds: it alone counts, whichever came first
    halves = 2 if whole_first else 1
    assert _trends(tmp_path, store_url) == {
        "runs": [1 if whole_first else 2], "rounds": 30, "findings": 2,
        "over_paid": [(None, "10.00")], "days": [(night, 30, 2)],
        "superseded": [(halves, "first.bjh", night), (halves, "second.bjh", night)]}


def test_the_same_rounds_under_another_header_count_once_the_later_kept(tmp_path,
                                                                        capsys) -> None:
    """The same night written again with a note before its first shoe: its rounds begin
    on other lines, the same rounds at the same times; the later recording counts."""
    store = str(tmp_path / "history.sqlite")
    write(tmp_path, "night.bjh", WHOLE)
    write(tmp_path, "again.bjh", WHOLE.replace("shoe A", 'note "copied"\nshoe A', 1))
    assert audit(tmp_path / "night.bjh", out=tmp_path / "a", store=store,
                 more=["--new-store"]) == 1
    assert audit(tmp_path / "again.bjh", out=tmp_path / "b", store=store) == 1
    counted = _trends(tmp_path, store)
    assert (counted["runs"], counted["rounds"], counted["findings"], counted["over_paid"]) \
        == ([2], 30, 2, [(None, "10.00")])
    assert [(run, name) for run, name, _ in counted["superseded"]] == [(1, "night.bjh")]
    capsys.readouterr()
    assert main(["trends", "--store", store, "--out", str(tmp_path / "said")]) == 0
    assert "1 table-night(s) recorded again: those recordings left out, another of the " \
        "same rounds counted (trends.json `superseded`)." in capsys.readouterr().out


def test_a_record_and_its_copy_audited_in_one_run_count_once(tmp_path) -> None:
    """The same content under two names in one run: one input, its rounds and findings
    counted once in `trends` and exported once by `incidents`, from the first name."""
    store = str(tmp_path / "history.sqlite")
    write(tmp_path, "night.bjh", WHOLE)
    write(tmp_path, "copy.bjh", WHOLE)
    assert audit(tmp_path / "night.bjh", tmp_path / "copy.bjh", out=tmp_path / "a",
                 store=store, more=["--new-store"]) == 1
    counted = _trends(tmp_path, store)
    assert (counted["runs"], counted["rounds"], counted["findings"], counted["over_paid"],
            counted["superseded"]) == ([1], 30, 2, [(None, "10.00")], [])
    assert main(["incidents", "--store", store, "--out", str(tmp_path / "x"), "--quiet"]) == 0
    exported = json.loads((tmp_path / "x" / "incidents.json").read_text(encoding="utf-8"))
    assert [(Path(i["record"]["file"]).name, i["record"]["line"], i["record"]["round"])
            for i in exported["incidents"]] == [("night.bjh", 74, "5"), ("night.bjh", 284, "20")]


def test_trends_reads_the_runs_finished_when_it_began(tmp_path) -> None:
    """A run that finishes while `trends` reads (each query its own transaction) is not
    read by the queries after it: the rounds, findings and money of one document come
    from the runs finished when the reading began (`as_of_now`), whichever query comes
    last; and a store where nothing is superseded is read without asking again."""
    from auditor.store import open_store
    from auditor.store.trend_reads import _snapshot, as_of_now
    from auditor.trends.analysis import Settings, trends_document

    store = str(tmp_path / "history.sqlite")
    write(tmp_path, "night.bjh", WHOLE)
    write(tmp_path, "later.bjh", WHOLE.replace("table T4", "table T5", 1))
    assert audit(tmp_path / "night.bjh", out=tmp_path / "a", store=store,
                 more=["--new-store"]) == 1
    engine = open_store(store)
    try:
        reader = as_of_now(engine)
        assert _snapshot(reader) is not None and _snapshot(reader).supersedes is False
        before = trends_document(reader, Settings(), store)
        # another table's night recorded and finished while the reader reads
        assert audit(tmp_path / "later.bjh", out=tmp_path / "b", store=store) == 1
        during = trends_document(reader, Settings(), store)
        after = trends_document(engine, Settings(), store)
    finally:
        engine.dispose()
    assert (during["trends"]["runs"], during["trends"]["rounds"], during["trends"]["findings"]) \
        == (before["trends"]["runs"], before["trends"]["rounds"],
            before["trends"]["findings"]) == ([1], 30, 2)
    assert during["rates"] == before["rates"]
    assert (after["trends"]["runs"], after["trends"]["rounds"], after["trends"]["findings"]) \
        == ([1, 2], 60, 4)


def test_a_store_with_a_superseded_night_is_read_without_it(tmp_path) -> None:
    from auditor.store import open_store
    from auditor.store.trend_reads import _snapshot, as_of_now

    store = str(tmp_path / "history.sqlite")
    write(tmp_path, "whole.bjh", WHOLE)
    write(tmp_path, "second.bjh", SECOND_HALF)
    assert audit(tmp_path / "whole.bjh", out=tmp_path / "a", store=store,
                 more=["--new-store"]) == 1
    assert audit(tmp_path / "second.bjh", out=tmp_path / "b", store=store) == 1
    engine = open_store(store)
    try:
        assert _snapshot(as_of_now(engine)).supersedes is True
    finally:
        engine.dispose()
    assert _trends(tmp_path, store)["rounds"] == 30


def test_times_to_the_millisecond_are_kept_in_a_span(tmp_path, store_url) -> None:
    """A clock to the millisecond (BJH 1 allows it): the span's text is longer than a
    time to the second, on every store; and its order is still the rounds' order."""
    def precise(text: str) -> str:
        return text.replace(":00 dealer=", ":00.250 dealer=")

    write(tmp_path, "whole.bjh", precise(WHOLE))
    write(tmp_path, "second.bjh", precise(SECOND_HALF))
    assert audit(tmp_path / "whole.bjh", out=tmp_path / "a", store=store_url) == 1
    assert audit(tmp_path / "second.bjh", out=tmp_path / "b", store=store_url) == 1
    counted = _trends(tmp_path, store_url)
    assert (counted["runs"], counted["rounds"], counted["findings"]) == ([1], 30, 2)


def test_the_page_names_the_recording_left_out_as_text(tmp_path) -> None:
    """trends.html names each recording left out by its file: a file name is record text,
    escaped, never markup."""
    store = str(tmp_path / "history.sqlite")
    hostile = "<img src=x onerror=alert(1)>.bjh"
    write(tmp_path, hostile, WHOLE)
    write(tmp_path, "again.bjh", WHOLE.replace("shoe A", 'note "copied"\nshoe A', 1))
    assert audit(tmp_path / hostile, out=tmp_path / "a", store=store,
                 more=["--new-store"]) == 1
    assert audit(tmp_path / "again.bjh", out=tmp_path / "b", store=store) == 1
    night = json.loads((tmp_path / "a" / "findings.json").read_text())["findings"][0][
        "gaming_day"]
    assert main(["trends", "--store", store, "--out", str(tmp_path / "t"), "--quiet"]) == 0
    page = (tmp_path / "t" / "trends.html").read_text(encoding="utf-8")
    assert "<img src=x" not in page
    assert ("1 table-night(s) recorded again, left out for another recording of the same "
            f"rounds: {tmp_path}/&lt;img src=x onerror=alert(1)&gt;.bjh "
            f"({night}, run 1)</p>") in page


# A re-export that cut the night differently: 1-22 and 16-30, rounds 16-22 in both.
EARLY_CUT = HEADER + _rounds(range(1, 23)) + "close\n"
LATE_CUT = HEADER + _rounds(range(16, 31)) + "close\n"


@pytest.mark.parametrize("early_first", [True, False], ids=["early-first", "late-first"])
def test_two_cuts_of_a_night_that_overlap_count_one_cut(tmp_path, store_url, capsys,
                                                        early_first) -> None:
    """Neither cut lies within the other, and rounds 16-22 are in both: `trends` counts
    one cut whole (the one with more of the night's rounds), never the shared rounds
    twice, and names the other as left out; `incidents` exports each finding once, the
    rounds only the other cut holds too (their findings are events of the night)."""
    write(tmp_path, "early.bjh", EARLY_CUT)
    write(tmp_path, "late.bjh", LATE_CUT)
    order = ["early.bjh", "late.bjh"] if early_first else ["late.bjh", "early.bjh"]
    for number, name in enumerate(order, 1):
        assert audit(tmp_path / name, out=tmp_path / f"out{number}", store=store_url,
                     jobs=1) == 1
    night = json.loads((tmp_path / "out1" / "findings.json").read_text())["findings"][0][
        "gaming_day"]
    early_run = 1 if early_first else 2
    assert _trends(tmp_path, store_url) == {
        "runs": [early_run], "rounds": 22, "findings": 2, "over_paid": [(None, "10.00")],
        "days": [(night, 22, 2)], "superseded": [(3 - early_run, "late.bjh", night)]}
    exported = []
    for run in (1, 2):
        out = tmp_path / f"incidents{run}"
        assert main(["incidents", "--store", store_url, "--run", str(run), "--out",
                     str(out), "--quiet"]) == 0
        document = json.loads((out / "incidents.json").read_text(encoding="utf-8"))
        exported += [(Path(i["record"]["file"]).name, i["record"]["round"])
                     for i in document["incidents"]]
    assert sorted(exported, key=lambda item: int(item[1])) == [
        ("early.bjh", "5"), ("early.bjh" if early_first else "late.bjh", "20")]
    # said as what it is: a cut whose own rounds (23-30) are not counted
    out = tmp_path / "said"
    assert main(["trends", "--store", store_url, "--out", str(out)]) == 0
    assert "1 table-night(s) cut across another recording of the same night: left out, " \
        "their own rounds not counted; audit the night's whole record to count every " \
        "round once (trends.json `superseded`)." in capsys.readouterr().out
    assert [row["reason"] for row in json.loads((out / "trends.json").read_text(
        encoding="utf-8"))["trends"]["superseded"]] == ["cut across another"]
    assert f"late.bjh ({night}, run {3 - early_run}: a cut across another recording of " \
        "the night, its own rounds not counted)</p>" in (out / "trends.html").read_text(
            encoding="utf-8")


def test_two_files_that_share_only_the_round_they_hand_over_at_both_count(tmp_path) -> None:
    """The file rotated in round 15, which both files hold: neither file is left out for
    it (each holds 14 rounds the other does not), that one round counted twice."""
    store = str(tmp_path / "history.sqlite")
    write(tmp_path, "first.bjh", HEADER + _rounds(range(1, 16)))
    write(tmp_path, "second.bjh", HEADER + _rounds(range(15, 31)) + "close\n")
    assert audit(tmp_path / "first.bjh", tmp_path / "second.bjh", out=tmp_path / "a",
                 store=store, more=["--new-store"]) == 1
    counted = _trends(tmp_path, store)
    assert (counted["rounds"], counted["findings"], counted["superseded"]) == (31, 2, [])


def test_a_recheck_of_one_citation_does_not_replace_the_whole_audit(tmp_path,
                                                                   store_url) -> None:
    """The night audited whole, then the same record audited again judging one citation
    only (`--select`): trends keeps the whole audit's findings (the re-check judged less,
    it did not find less), in either order."""
    write(tmp_path, "night.bjh", WHOLE)
    assert audit(tmp_path / "night.bjh", out=tmp_path / "a", store=store_url) == 1
    assert audit(tmp_path / "night.bjh", out=tmp_path / "b", store=store_url,
                 more=["--select", "20:18:15:03"]) == 0
    assert _trends(tmp_path, store_url) == {
        "runs": [1], "rounds": 30, "findings": 2, "over_paid": [(None, "10.00")],
        "days": [(json.loads((tmp_path / "a" / "findings.json").read_text())["findings"][0][
            "gaming_day"], 30, 2)], "superseded": []}
    assert audit(tmp_path / "night.bjh", out=tmp_path / "c", store=store_url) == 1
    assert _trends(tmp_path, store_url)["runs"] == [3]  # a whole audit after it: the latest


def test_nights_of_one_table_without_dates_each_count(tmp_path) -> None:
    """Records with no `date=` (optional in BJH 1) of one table on two nights, each audited
    in its own run: no gaming day tells the nights apart, and neither holds the other's
    rounds, so both count."""
    undated = HEADER.replace(f" date={TODAY}", "")
    assert undated != HEADER
    write(tmp_path, "monday.bjh", undated + _rounds(range(1, 11)) + "close\n")
    write(tmp_path, "tuesday.bjh", undated.replace("shoe A", "shoe B")
          + _rounds(range(1, 21)) + "close\n")
    for number, name in enumerate(("monday.bjh", "tuesday.bjh"), 1):
        audit(tmp_path / name, out=tmp_path / f"out{number}", store=str(tmp_path / "h.sqlite"),
              jobs=1)
    counted = _trends(tmp_path, str(tmp_path / "h.sqlite"))
    assert (counted["runs"], counted["rounds"], counted["superseded"]) == ([1, 2], 30, [])
