"""Stable finding IDs: unchanged when a record's lines shift, never shared by two findings."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from auditor.audit import AuditResult, audit_paths
from auditor.identity import RECIPE, apply_identity, finding_id, normalise_statement
from auditor.simulate import simulate, table_spec

SAMPLES = sorted(Path(__file__).parent.parent.glob("sample_logs/*.bjh"))
ID = re.compile(r"^BJH-[0-9A-F]{16}$")


def audited(paths: list[str]) -> AuditResult:
    result = audit_paths(paths, jobs=1)
    apply_identity(result)
    return result


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


def test_normalised_statement_drops_time_stamp_comment_and_spacing() -> None:
    assert normalise_statement('20:32:23\tsit  s1   player=P-5521  # late') == \
        "sit s1 player=P-5521"
    assert normalise_statement('note "a # is not a comment here"  # but this is') == \
        'note "a # is not a comment here"'
    assert normalise_statement("20:32:23.125 settle s1h1 main win 25") == \
        "settle s1h1 main win 25"


def test_the_recipe_is_the_documented_one() -> None:
    """The README's recipe, worked by hand: an inspector can recompute an ID."""
    import hashlib

    key = ("RL-0412/T07", "2026-11-20", "6", "20:18:15:30.10(12)", "s5", "",
           "settle s5 db21 win 20")
    canonical = "bjh-finding-id/1|RL-0412/T07|2026-11-20|6|20:18:15:30.10(12)|s5||" \
                "settle s5 db21 win 20|1"
    assert RECIPE == "bjh-finding-id/1"
    assert finding_id(key, 1) == \
        "BJH-" + hashlib.sha256(canonical.encode()).hexdigest()[:16].upper()


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_ids_survive_inserted_blank_lines_comments_and_notes(tmp_path, sample: Path) -> None:
    moved = tmp_path / sample.name  # the same name: the finding's file is not in the ID anyway
    moved.write_text(shifted(sample.read_text(encoding="utf-8")), encoding="utf-8")
    before = audited([str(sample)]).findings
    after = audited([str(moved)]).findings
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
    sample = next(p for p in SAMPLES if p.name.startswith("db21-t07"))
    text = sample.read_text(encoding="utf-8")
    other_table = tmp_path / "t09.bjh"
    other_table.write_text(text.replace("table T07 ", "table T09 "), encoding="utf-8")
    other_casino = tmp_path / "licence.bjh"
    other_casino.write_text(text.replace("licence=RL-0412", "licence=RL-0999"),
                            encoding="utf-8")
    ids = {path: {f.id for f in audited([str(path)]).findings}
           for path in (sample, other_table, other_casino)}
    assert len(ids[sample]) == 3
    assert not ids[sample] & ids[other_table]
    assert not ids[sample] & ids[other_casino]


def test_ids_are_unique_over_the_sample_logs() -> None:
    findings = audited([str(p) for p in SAMPLES]).findings
    assert len(findings) == 47
    repeated = [i for i, n in Counter(f.id for f in findings).items() if n > 1]
    assert repeated == []


def test_ids_are_unique_over_a_simulated_run_with_repeated_faults(tmp_path) -> None:
    paths: list[str] = []
    for game in ("standard", "switch", "db21", "tensticks", "ladies"):
        spec = table_spec(game, table_id="T1")
        made = simulate(tmp_path / game, spec, rounds=300, seed="ids", faults=0.3, tables=2)
        paths.extend(str(p) for p in made.files)
    # The same record twice (a table's file exported twice): every finding repeats exactly,
    # and the occurrence number keeps the IDs apart.
    copy = tmp_path / "copy.bjh"
    copy.write_text(Path(paths[0]).read_text(encoding="utf-8"), encoding="utf-8")
    findings = audited([*paths, str(copy)]).findings
    assert len(findings) > 300
    counts = Counter(f.id for f in findings)
    assert [i for i, n in counts.items() if n > 1] == []
    first = [f for f in findings if f.file == paths[0]]
    again = [f for f in findings if f.file == str(copy)]
    assert len(first) == len(again) > 0
    assert {f.id for f in first}.isdisjoint(f.id for f in again)
