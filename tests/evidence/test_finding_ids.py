"""Stable finding IDs: unchanged when a record's lines shift, never shared by two findings."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from auditor.findings import Finding
from auditor.identity import (
    RECIPE,
    Identifier,
    canonical_text,
    finding_id,
    normalise_statement,
)
from auditor.simulate import simulate, table_spec
from tests.helpers import SAMPLE_FILES
from tests.helpers.audits import audit_identified

ID = re.compile(r"^BJH-[0-9A-F]{16}$")


def shifted(text: str) -> str:
    """The record with a blank line, a comment and (in the body) a note inserted after every
    statement: every line number after the header moves, nothing the record says changes."""
    out: list[str] = []
    in_body = False
    for line in text.splitlines():
        out.append(line)
        word = line.split("#")[0].split()
        if word and re.fullmatch(r"\d\d:\d\d:\d\d(\.\d+)?", word[0]):
            word = word[1:]
        keyword = word[0] if word else ""
        in_body = in_body or keyword in ("shoe", "round")
        out.append("")
        out.append("   # inserted by a re-export")
        if in_body and keyword in ("round", "shoe", "deal", "settle", "end"):
            out.append('note "re-exported: a line moved"')
    return "\n".join(out) + "\n"


def test_normalised_statement_drops_comment_and_spacing_and_keeps_the_time_stamp() -> None:
    assert normalise_statement('20:32:23\tsit  s1   player=P-5521  # late') == \
        "20:32:23 sit s1 player=P-5521"
    assert normalise_statement('note "a # is not a comment here"  # but this is') == \
        'note "a # is not a comment here"'
    assert normalise_statement("  20:32:23.125 settle s1h1\tmain win 25 ") == \
        "20:32:23.125 settle s1h1 main win 25"


def test_the_recipe_is_the_documented_one() -> None:
    """The documented recipe (docs/ids-waivers-baselines.md), worked by hand: an inspector
    can recompute an ID."""
    import hashlib

    key = ("RL-0412", "T07", "2026-11-20", "3", "6", "21:04:10", "D-1017",
           "20:18:15:30.10(12)", "s5", None, "21:04:10 settle s5 db21 win 20", None)
    canonical = '["bjh-finding-id/2","RL-0412","T07","2026-11-20","3","6","21:04:10",' \
                '"D-1017","20:18:15:30.10(12)","s5",null,"21:04:10 settle s5 db21 win 20",' \
                'null,1]'
    assert RECIPE == "bjh-finding-id/2"
    assert canonical_text(key, 1) == canonical
    assert finding_id(key, 1) == \
        "BJH-" + hashlib.sha256(canonical.encode()).hexdigest()[:16].upper()


@pytest.mark.parametrize("sample", SAMPLE_FILES, ids=lambda p: p.name)
def test_ids_survive_inserted_blank_lines_comments_and_notes(tmp_path, sample: Path) -> None:
    moved = tmp_path / sample.name  # the same name: the finding's file is not in the ID anyway
    moved.write_text(shifted(sample.read_text(encoding="utf-8")), encoding="utf-8")
    before = audit_identified([str(sample)]).findings
    after = audit_identified([str(moved)]).findings
    assert before, "every sample log has findings"
    what = [(f.citation, f.round, f.seat, f.hand, f.severity) for f in before]
    assert what == [(f.citation, f.round, f.seat, f.hand, f.severity) for f in after]
    # The lines did move (else the test proves nothing), the IDs did not.
    pairs = zip(before, after, strict=True)
    assert all(b.line != a.line for b, a in pairs if b.line and b.line > 1)
    assert [f.id for f in before] == [f.id for f in after]
    assert all(ID.match(f.id) for f in before)
    # Each finding on a line stands on its statement, not on a message.
    assert all(f.statement for f in before if f.line is not None)


def test_a_different_table_date_or_statement_gives_a_different_id(tmp_path) -> None:
    sample = next(p for p in SAMPLE_FILES if p.name.startswith("db21-t07"))
    text = sample.read_text(encoding="utf-8")
    other_table = tmp_path / "t09.bjh"
    other_table.write_text(text.replace("table T07 ", "table T09 "), encoding="utf-8")
    other_casino = tmp_path / "licence.bjh"
    other_casino.write_text(text.replace("licence=RL-0412", "licence=RL-0999"),
                            encoding="utf-8")
    ids = {path: {f.id for f in audit_identified([str(path)]).findings}
           for path in (sample, other_table, other_casino)}
    assert len(ids[sample]) == 3
    assert not ids[sample] & ids[other_table]
    assert not ids[sample] & ids[other_casino]


def test_ids_are_unique_over_the_sample_logs() -> None:
    findings = audit_identified([str(p) for p in SAMPLE_FILES]).findings
    assert len(findings) == 47
    repeated = [i for i, n in Counter(f.id for f in findings).items() if n > 1]
    assert repeated == []


def test_ids_are_unique_over_a_simulated_run_with_repeated_faults(tmp_path) -> None:
    paths: list[str] = []
    for game in ("standard", "switch", "db21", "tensticks", "ladies"):
        spec = table_spec(game, table_id="T1")
        made = simulate(tmp_path / game, spec, rounds=300, seed="ids", faults=0.3, tables=2)
        paths.extend(str(p) for p in made.files)
    findings = audit_identified(paths).findings
    assert len(findings) > 300
    counts = Counter(f.id for f in findings)
    assert [i for i, n in counts.items() if n > 1] == []
    # The same record given twice (a table's file exported twice): the copy's findings are
    # the same findings, with the same IDs; nothing in the record tells them apart.
    copy = tmp_path / "copy.bjh"
    copy.write_text(Path(paths[0]).read_text(encoding="utf-8"), encoding="utf-8")
    again = audit_identified([*paths, str(copy)]).findings
    first = [f.id for f in again if f.file == paths[0]]
    assert first and first == [f.id for f in again if f.file == str(copy)]
    assert [f.id for f in again if f.file != str(copy)] == [f.id for f in findings]


# Two shifts of table T11 on one gaming date (probe P01): the rounds are numbered from the
# same ID and both pay a blackjack even money, on the same statement.
SHIFT = """bjh 1
casino "Deadwood Example Casino" licence=RL-0412
table T11 game=standard decks=6 seats=7 min=10 max=500 currency=USD
dealer {dealer}
shoe {shoe} date=2026-11-20
{h}:58:31 shuffle
{h}:59:07 cut
round 15 time={h}:22:26 dealer={dealer}
{h}:22:30 sit s3 player={player}
{h}:22:31 bet s3h1 main 20
{h}:22:32 deal s3h1 As
{h}:22:33 deal dealer 9h
{h}:22:34 deal s3h1 Kd
{h}:22:35 deal dealer 7c
{h}:22:36 settle s3h1 main win 20
{h}:22:40 reveal
end
"""


def shifts(folder: Path) -> tuple[Path, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    evening = folder / "evening.bjh"
    evening.write_text(SHIFT.format(dealer="D-2207", shoe="611", h="20", player="P-3107"),
                       encoding="utf-8")
    late = folder / "late.bjh"
    late.write_text(SHIFT.format(dealer="D-5150", shoe="640", h="23", player="P-9001"),
                    encoding="utf-8")
    return evening, late


def ids_by_dealer(paths: list[Path]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for finding in audit_identified([str(p) for p in paths]).findings:
        found.setdefault(finding.dealer, []).append(finding.id)
    return found


def test_an_id_never_depends_on_the_other_files_of_the_run_or_their_names(tmp_path) -> None:
    evening, late = shifts(tmp_path / "a")
    together = ids_by_dealer([evening, late])
    assert sorted(together) == ["D-2207", "D-5150"]
    assert len(together["D-2207"]) == len(together["D-5150"]) == 1
    assert together["D-2207"] != together["D-5150"]
    assert ids_by_dealer([late]) == {"D-5150": together["D-5150"]}
    assert ids_by_dealer([evening]) == {"D-2207": together["D-2207"]}
    # Renamed to sort after the other shift, and in another folder: the same IDs.
    renamed = tmp_path / "b" / "z-evening.bjh"
    renamed.parent.mkdir()
    renamed.write_bytes(evening.read_bytes())
    assert ids_by_dealer([late, renamed]) == together
    assert ids_by_dealer([renamed, late]) == together


def test_two_findings_told_apart_by_any_field_of_the_recipe_never_share_an_id() -> None:
    base = Finding(citation="20:18:15:24", rule="standard.payout", severity="high",
                   file="a.bjh", line=15, round="15", table="T11", seat="s3", hand="s3h1",
                   message="paid even money", dealer="D-2207", date="2026-11-20",
                   time="20:22:36", shoe="611", statement="settle s3h1 main win 20")
    variants = [base] + [base.model_copy(update={name: value}) for name, value in (
        ("date", "2026-11-21"), ("shoe", "640"), ("round", "16"), ("time", "23:40:21"),
        ("dealer", "D-5150"), ("seat", "s4"), ("hand", "s3h2"), ("citation", "20:18:15:25"),
        ("statement", "settle s3h1 main win 25"), ("table", "T12"))]
    # The table comes from the file's header when the file is known; here it is not.
    ids = [Identifier({})(finding).id for finding in variants]
    assert len(set(ids)) == len(ids)
    known = Identifier({"a.bjh": ("RL-0412", "T11")})(base).id
    assert known not in ids
    assert Identifier({"a.bjh": ("RL-0999", "T11")})(base).id not in [known, *ids]
    # The message stands in only where there is no statement.
    reworded = base.model_copy(update={"message": "paid 1 to 1"})
    assert Identifier({})(reworded).id == ids[0]
    unread = base.model_copy(update={"statement": ""})
    assert Identifier({})(unread).id != Identifier({})(
        unread.model_copy(update={"message": "paid 1 to 1"})).id


def test_a_pipe_or_slash_in_a_field_cannot_make_two_findings_one_id(tmp_path) -> None:
    """Probe P04: with fields joined by `|`, this casino name and this line collided."""
    one = tmp_path / "c1.bjh"
    one.write_text('bjh 1\ncasino "X"\ntable T1 game=standard decks=6\nshoe S1\n'
                   "P/T2|||record:syntax|||junk\n", encoding="utf-8")
    two = tmp_path / "c2.bjh"
    two.write_text('bjh 1\ncasino "X/T1|||record:syntax|||P"\ntable T2 game=standard '
                   "decks=6\nshoe S1\njunk\n", encoding="utf-8")
    findings = audit_identified([str(one), str(two)]).findings
    assert [(f.file, f.line, f.citation) for f in findings] == [
        (str(one), 5, "record:syntax"), (str(two), 5, "record:syntax")]
    assert findings[0].id != findings[1].id
    # Field by field, a site and table split differently are different keys.
    assert finding_id(("X/T1", "", None), 1) != finding_id(("X", "T1/", None), 1)


def test_identical_findings_in_one_file_are_numbered_by_their_place_in_it(tmp_path) -> None:
    """Two lines that do not parse, alike in everything: told apart by their order in the
    file, whatever else the run holds."""
    record = 'bjh 1\ncasino "X" licence=RL-1\ntable T1 game=standard decks=6\nshoe S1\n' \
             "junk\nshuffle\njunk\n"
    path = tmp_path / "twice.bjh"
    path.write_text(record, encoding="utf-8")
    alone = audit_identified([str(path)]).findings
    assert [(f.line, f.citation) for f in alone] == [(5, "record:syntax"), (7, "record:syntax")]
    assert alone[0].id != alone[1].id
    # Met between rounds in shoe S1: the shoe in force is part of the ID (an undated night's
    # other shoe gives another ID).
    key = ("RL-1", "T1", None, "S1", None, None, None, "record:syntax", None, None, "junk",
           None)
    assert [f.id for f in alone] == [finding_id(key, 1), finding_id(key, 2)]
    other = tmp_path / "other.bjh"
    other.write_text(record.replace("T1", "T2"), encoding="utf-8")
    assert [f.id for f in audit_identified([str(other), str(path)]).findings
            if f.file == str(path)] == [f.id for f in alone]
