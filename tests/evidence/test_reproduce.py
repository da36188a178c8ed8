"""The conditions a run was judged under, read back from its record (auditor/reproduce.py):
today's `conditions`, and the `judging` and `calendar` of a run recorded before there were
conditions; approvals kept per licence for a case; records that cannot be read again."""

from __future__ import annotations

import pytest

from auditor.approvals import Approval, Approvals
from auditor.gaming_day import Calendar
from auditor.reproduce import (
    UnknownConditions,
    approvals_document,
    approvals_of,
    calendar_of,
    conditions_of_run,
    for_licences,
    judging_of,
)

DEFAULT_CALENDAR = {"gaming_day_starts": "06:00",
                    "shifts": {"day": "06:00-14:00", "swing": "14:00-22:00",
                               "grave": "22:00-06:00"}}
TWO_SHIFTS = {"day": "08:00-20:00", "night": "20:00-08:00"}
APPROVALS = Approvals("approved.toml", (
    Approval("RL-0412", "T11", "SDCGC-2026-101", "2026-09-01", 1, (("soft17", "stand"),)),
    Approval("RL-0412", None, "SDCGC-2026-102", "2026-09-02", 8, (("peek", "no"),
                                                                  ("das", "yes"))),
    Approval("RL-0417", None, "SDCGC-2026-103", "2026-09-03", 15, (("splits", "4"),))))


def test_approvals_are_kept_and_read_back_as_they_were() -> None:
    document = approvals_document(APPROVALS, "ab" * 32)
    assert document["entries"][:2] == [
        {"licence": "RL-0412", "table": "T11", "reference": "SDCGC-2026-101",
         "date": "2026-09-01", "line": 1, "rules": [["soft17", "stand"]]},
        {"licence": "RL-0412", "table": None, "reference": "SDCGC-2026-102",
         "date": "2026-09-02", "line": 8, "rules": [["peek", "no"], ["das", "yes"]]}]
    assert approvals_of(document) == APPROVALS  # a licence-wide approval keeps no table


@pytest.mark.parametrize("broken", [{"path": "a.toml"}, {"path": "a.toml", "entries": [{}]},
                                    {"path": "a.toml", "entries": [
                                        {"licence": "RL-1", "reference": "R", "date": "d",
                                         "line": "eight", "rules": []}]}])
def test_approvals_that_cannot_be_read_again_are_said_so(broken: dict) -> None:
    with pytest.raises(UnknownConditions, match="the recorded approvals cannot be read"):
        approvals_of(broken)


def test_the_conditions_of_a_run_recorded_with_them_are_those() -> None:
    recorded = {"select": ["standard"], "ignore": [], "citations": ["20:18:15:06"],
                "approvals": None, "calendar": DEFAULT_CALENDAR}
    assert conditions_of_run({"conditions": recorded, "judging": {"approved": "x.toml"}}) \
        is recorded


@pytest.mark.parametrize("run", [{}, {"conditions": None}, {"judging": None},
                                 {"judging": {}}, {"judging": {"judged": ["20:18:15:06"]}}])
def test_an_older_run_with_no_selection_was_judged_on_everything(run: dict) -> None:
    # (every file taken as finished: open rounds were not told apart then)
    assert conditions_of_run(run) == {"select": [], "ignore": [], "citations": None,
                                      "approvals": None, "calendar": DEFAULT_CALENDAR,
                                      "finished": True}


def test_an_older_runs_selection_and_calendar_are_read_from_its_judging() -> None:
    judged = ["20:18:15:06", "20:18:15:24"]
    calendar = {"gaming_day_starts": "08:00", "shifts": TWO_SHIFTS}
    assert conditions_of_run({"judging": {"select": ["standard"], "judged": judged},
                              "calendar": calendar}) == {
        "select": ["standard"], "ignore": [], "citations": judged, "approvals": None,
        "calendar": calendar, "finished": True}
    assert conditions_of_run({"judging": {"ignore": ["20:18:15:26"], "judged": judged}}) == {
        "select": [], "ignore": ["20:18:15:26"], "citations": judged, "approvals": None,
        "calendar": DEFAULT_CALENDAR, "finished": True}


def test_an_older_run_audited_with_approvals_cannot_be_audited_again() -> None:
    with pytest.raises(UnknownConditions, match=r"the approvals in approved\.toml, which its "
                                                r"record does not hold"):
        conditions_of_run({"judging": {"approved": "approved.toml"}})


def test_a_case_keeps_the_approvals_of_its_licensees_only() -> None:
    conditions = {"select": [], "citations": None,
                  "approvals": approvals_document(APPROVALS)}
    kept = for_licences(conditions, {"RL-0412"})
    assert [e["reference"] for e in kept["approvals"]["entries"]] == [
        "SDCGC-2026-101", "SDCGC-2026-102"]
    assert kept["approvals"]["path"] == "approved.toml" and kept["select"] == []
    assert for_licences(conditions, set())["approvals"]["entries"] == []
    bare = {"select": [], "approvals": None}
    assert for_licences(bare, {"RL-0412"}) is bare


def test_what_is_judged_again() -> None:
    assert judging_of({"citations": None, "approvals": None, "finished": False}) is None
    judged = judging_of({"citations": ["20:18:15:06"], "approvals": None, "finished": False})
    assert (judged.citations, judged.approvals, judged.finished) == (
        frozenset({"20:18:15:06"}), None, False)
    judged = judging_of({"citations": None, "approvals": approvals_document(APPROVALS),
                         "finished": True})
    assert (judged.citations, judged.approvals, judged.finished) == (None, APPROVALS, True)
    # conditions recorded before open rounds were told apart: every file was finished
    judged = judging_of({"citations": None, "approvals": None})
    assert (judged.citations, judged.approvals, judged.finished) == (None, None, True)
    for broken in ("20:18:15:06", [6]):
        with pytest.raises(UnknownConditions, match="not a list of citations"):
            judging_of({"citations": broken})


def test_the_calendar_is_read_back() -> None:
    assert calendar_of({}) == Calendar()
    calendar = calendar_of({"calendar": {"gaming_day_starts": "08:00", "shifts": TWO_SHIFTS}})
    assert calendar.described() == {"gaming_day_starts": "08:00", "shifts": TWO_SHIFTS}
    for broken in ({"gaming_day_starts": "noon"}, {"shifts": ["day"]}, "06:00"):
        with pytest.raises(UnknownConditions, match="the recorded calendar cannot be read"):
            calendar_of({"calendar": broken})


def test_a_runs_approvals_are_named_by_the_bytes_read_not_the_file_later(tmp_path) -> None:
    import hashlib

    from auditor.approvals import load_approvals
    from auditor.reproduce import run_conditions
    from auditor.selection import judging_for

    text = ('[[approval]]\r\nlicence = "RL-0412"\r\ntable = "T11"\r\nreference = "A-1"\r\n'
            'date = 2026-09-01\r\nsoft17 = "stand"\r\n')
    path = tmp_path / "approved.toml"
    path.write_bytes(text.encode())
    judging = judging_for([], [], load_approvals(path))
    path.write_text("changed after it was read\n")  # as a rewrite during the run would
    conditions = run_conditions(judging, {}, Calendar())
    assert conditions["approvals"]["sha256"] == hashlib.sha256(text.encode()).hexdigest()
    assert conditions["approvals"]["entries"] == [
        {"licence": "RL-0412", "table": "T11", "reference": "A-1", "date": "2026-09-01",
         "line": 1, "rules": [["soft17", "stand"]]}]
