"""Golden finding IDs: the literal IDs of real findings, so that any change to the recipe
(docs/ids-waivers-baselines.md) fails here. An ID change is a decision, made once, in a
commit that says so and updates these literals: waivers and baselines name findings by ID.

Pinned: every finding of the sample logs (one citation with a non-ASCII character, `¶`), a
record whose casino name is not ASCII (its site is that name, written as itself into the
hashed text), and findings made across files (Ten sticks punched cards), whose statements
are read again from their files in the parent.
"""

from __future__ import annotations

from pathlib import Path

from auditor.findings import Finding
from auditor.identity import (
    Identifier,
    apply_identity,
    canonical_text,
    identity_key,
    lines_without_statement,
    normalise_statement,
    read_statements,
    table_identity,
)
from auditor.results import AuditResult
from auditor.run import audit_paths
from tests.helpers import SAMPLES
from tests.helpers.audits import audit_identified
from tests.helpers.punch_cards import FIRST_TABLE, SECOND_TABLE

T11 = SAMPLES / "standard-t11-2026-11-20.bjh"

# (file, line, citation, ID) of every finding of the sample logs, in the run's order.
SAMPLE_IDS = [
    ("db21-t07-2026-11-20.bjh", 239, "20:18:15:30.10(12)", "BJH-5739B967C29202C8"),
    ("db21-t07-2026-11-20.bjh", 555, "20:18:15:30.10(8)", "BJH-8E6C238ADFBE01E3"),
    ("db21-t07-2026-11-20.bjh", 559, "20:18:15:30.10(9)", "BJH-24BA8E12D1CBE54E"),
    ("db21-t08-2026-11-21.bjh", 132, "20:18:15:30.10(10)", "BJH-5AF661CCDF16C008"),
    ("db21-t08-2026-11-21.bjh", 332, "20:18:15:30.10(4)", "BJH-515E9CFDA827B3F4"),
    ("db21-t08-2026-11-21.bjh", 400, "20:18:15:30.10(11)", "BJH-9FB8469311B5890B"),
    ("db21-t08-2026-11-21.bjh", 415, "20:18:15:30.10(2)", "BJH-2F33BF1F57BC4071"),
    ("db21-t08-2026-11-21.bjh", 677, "20:18:15:30.10(5)", "BJH-1D2437100EC02334"),
    ("ladies-t21-2026-11-20.bjh", 251, "20:18:15:30.04(5)", "BJH-6E6B94B1B49ADACB"),
    ("ladies-t21-2026-11-20.bjh", 280, "20:18:15:30.04(4)", "BJH-4F7421D2D3F3A13C"),
    ("ladies-t21-2026-11-20.bjh", 403, "20:18:15:30.04(3)", "BJH-64B1AEF94EC838D3"),
    ("ladies-t21-2026-11-20.bjh", 427, "20:18:15:30.04(2)", "BJH-49440C0CDA52FBCF"),
    ("ladies-t21-2026-11-20.bjh", 572, "20:18:15:30.04(4)", "BJH-518B074CE0015016"),
    ("ladies-t21-2026-11-20.bjh", 710, "20:18:15:03", "BJH-E4A0E09B25822024"),
    ("ladies-t22-2026-11-21.bjh", 178, "20:18:15:30.04(4)", "BJH-AD24F4E405AD8E2B"),
    ("ladies-t22-2026-11-21.bjh", 257, "20:18:15:30.04(3)", "BJH-FA0AF6691D88F58D"),
    ("ladies-t22-2026-11-21.bjh", 407, "20:18:15:30.04(5)", "BJH-DC4920D39CDCC505"),
    ("ladies-t22-2026-11-21.bjh", 485, "20:18:15:30.04(2)", "BJH-8B1C45D8FC4A816E"),
    ("standard-t11-2026-11-20.bjh", 424, "20:18:15:26", "BJH-D0567F3116BA849D"),
    ("standard-t11-2026-11-20.bjh", 455, "20:18:15:30", "BJH-39A8A8B6D909A440"),
    ("standard-t11-2026-11-20.bjh", 524, "20:18:15:06", "BJH-E0EC130B2D5D214E"),
    ("standard-t11-2026-11-20.bjh", 567, "20:18:15:23", "BJH-72CC1CE3317448F1"),
    # A line between rounds: dated, placed in shoe 612 with dealer D-3140 (the ID changed
    # when findings outside rounds took the context in force, issue 42).
    ("standard-t11-2026-11-20.bjh", 720, "record:syntax", "BJH-36C904C2676027C9"),
    ("standard-t12-2026-11-21.bjh", 231, "20:18:15:03", "BJH-9B5692D0289A357D"),
    ("standard-t12-2026-11-21.bjh", 242, "20:18:15:25", "BJH-590B9F34E1A37FD3"),
    ("standard-t12-2026-11-21.bjh", 619, "20:18:15:28", "BJH-C49D4A1AB9F32E13"),
    ("standard-t12-2026-11-21.bjh", 673, "20:18:15:24", "BJH-633C6CC963E09C99"),
    ("standard-t12-2026-11-21.bjh", 716, "20:18:15:10", "BJH-C62B50BA9AB9E8A3"),
    ("switch-bjs2-evening.bjh", 58, "20:18:15:30.09(6)", "BJH-D279214B75299409"),
    ("switch-bjs2-evening.bjh", 173, "20:18:15:30.09(16)", "BJH-34E49B10E208920E"),
    ("switch-bjs2-evening.bjh", 591, "20:18:15:30.09(15)", "BJH-1B8C2ABA0946B3C7"),
    ("switch-bjs2-evening.bjh", 1524, "20:18:15:30.09(13)", "BJH-8EBF48073EAE8D9C"),
    ("switch-bjs2-evening.bjh", 1939, "20:18:15:30.09(9)", "BJH-708A51C41578F3E1"),
    ("switch-bjs2-evening.bjh", 2018, "20:18:15:30.09(8)", "BJH-FB98FC0AD85281D7"),
    ("switch-bjs5-late.bjh", 50, "20:18:15:30.09(18)", "BJH-54C963550BB2A4FB"),
    ("switch-bjs5-late.bjh", 68, "20:18:15:30.09(2)", "BJH-CC617035D1FA676A"),
    ("switch-bjs5-late.bjh", 178, "20:18:15:30.09(14)", "BJH-1A020C09D8BE3BC5"),
    ("switch-bjs5-late.bjh", 266, "20:18:15:30.09(11)", "BJH-475CCB8AA0EE37AF"),
    ("switch-bjs5-late.bjh", 512, "20:18:15:30.09(13)", "BJH-14E80A62391B82A2"),
    ("switch-bjs5-late.bjh", 550, "20:18:15:30.09(4)", "BJH-95AE7EA20F207AA4"),
    ("switch-bjs5-late.bjh", 749, "20:18:15:30.09(7)", "BJH-7BD68AF479326F41"),
    ("tensticks-t31-2026-11-20.bjh", 125, "20:18:15:30.02(5)", "BJH-C42100A146EB135D"),
    ("tensticks-t31-2026-11-20.bjh", 181, "20:18:15:30.02(9)", "BJH-85B906C068FF4826"),
    ("tensticks-t31-2026-11-20.bjh", 204, "20:18:15:30.02(¶11)", "BJH-52C87A2D15BE51FA"),
    ("tensticks-t32-2026-11-21.bjh", 52, "20:18:15:30.02(3)", "BJH-5391F84AB02F229B"),
    ("tensticks-t32-2026-11-21.bjh", 75, "20:18:15:30.02(8)", "BJH-99E41C60F0D7BB4D"),
    ("tensticks-t32-2026-11-21.bjh", 113, "20:18:15:30.02(6)", "BJH-08FFE3CEA2C25A2D"),
]


def test_every_finding_of_the_sample_logs_keeps_its_id() -> None:
    findings = audit_identified(sorted(SAMPLES.glob("*.bjh"))).findings
    assert [(Path(f.file).name, f.line, f.citation, f.id) for f in findings] == SAMPLE_IDS


def test_a_casino_name_not_in_ascii_is_hashed_as_itself(tmp_path: Path) -> None:
    """T11 with no licence and the casino `Café Zürich`: the site of every ID is that name,
    written into the hashed text as UTF-8 (not as `\\u00e9` escapes)."""
    record = T11.read_text(encoding="utf-8").replace(
        'casino "Deadwood Example Casino" licence=RL-0412', 'casino "Café Zürich"')
    path = tmp_path / "t11.bjh"
    path.write_text(record, encoding="utf-8")
    findings = audit_identified([path]).findings
    assert [(f.line, f.citation, f.id) for f in findings] == [
        (424, "20:18:15:26", "BJH-625FEB03D24CE940"),
        (455, "20:18:15:30", "BJH-90EA19E8384CA742"),
        (524, "20:18:15:06", "BJH-A7F37BB423B5E903"),
        (567, "20:18:15:23", "BJH-DDD27D430B623ED7"),
        (720, "record:syntax", "BJH-3313903C7579FF13")]
    key = identity_key(findings[2], ("Café Zürich", "T11"))
    assert canonical_text(key, 1) == (
        '["bjh-finding-id/2","Café Zürich","T11","2026-11-20","611","15","20:22:47","D-2207",'
        '"20:18:15:06","s3","s3h1","20:22:47 settle s3h1 main win 20",null,1]')


def test_findings_made_across_files_stand_on_the_statements_read_again(tmp_path: Path) -> None:
    """The punched-card findings are made in the parent, which has no statement for them:
    their lines are read again from the file, and their IDs stand on those statements."""
    first, second = tmp_path / "t31.bjh", tmp_path / "t32.bjh"
    first.write_text(FIRST_TABLE, encoding="utf-8")
    second.write_text(SECOND_TABLE, encoding="utf-8")
    findings = audit_identified([first, second]).findings
    assert [(f.file, f.line, f.statement, f.id) for f in findings] == [
        (str(second), 10, "14:01:00 sit s6 player=P-9 punchcard=PC-9 punches=4",
         "BJH-E40B15C32D76EABC"),
        (str(second), 28, "14:03:00 sit s1 player=P-8 punchcard=PC-7 punches=3",
         "BJH-0F7F32028F93E2DE"),
        (str(second), 40, "14:05:00 sit s4 player=P-7 punchcard=PC-7 punches=5",
         "BJH-CE177077D36D47B2")]
    # The same findings given in the other order, and with the first table renamed, keep them.
    renamed = tmp_path / "a-first.bjh"
    renamed.write_bytes(first.read_bytes())
    assert [f.id for f in audit_identified([second, renamed]).findings] == [f.id for f in findings]


def test_the_player_and_the_gaming_day_are_given_with_the_id() -> None:
    findings = audit_identified([T11]).findings
    assert [(f.line, f.seat, f.player, f.gaming_day, f.shift) for f in findings] == [
        (424, None, None, "2026-11-20", "swing"),
        (455, "s3", "P-3107", "2026-11-20", "swing"),
        (524, "s3", "P-3107", "2026-11-20", "swing"),
        (567, "s4", "P-3137", "2026-11-20", "swing"),
        (720, None, None, "2026-11-20", "swing")]  # between rounds: the shoe's day, 20:33:04


def test_a_hash_only_inside_quotes_is_no_comment() -> None:
    """A statement whose only `#` is quoted is kept whole; an escaped quote does not end the
    quoted text, so a `#` after it is still inside."""
    assert normalise_statement('21:00:08 note "table #3  reopened"') == \
        '21:00:08 note "table #3 reopened"'
    assert normalise_statement('note "a \\" # b"') == 'note "a \\" # b"'
    assert normalise_statement('note "a \\" # b" # c') == 'note "a \\" # b"'
    assert normalise_statement('note "a \\\\" # b') == 'note "a \\\\"'
    assert normalise_statement('note "unclosed # b') == 'note "unclosed # b'
    assert normalise_statement("# only a comment") == ""


def test_a_table_is_named_by_its_licence_else_its_casino() -> None:
    assert table_identity("RL-0412", "Deadwood", "T11") == "RL-0412/T11"
    assert table_identity(None, "Café Zürich", "T11") == "Café Zürich/T11"
    assert table_identity("", "Lodge", None) == "Lodge/"
    assert table_identity(None, None, None) == "/"


BASE = Finding(citation="20:18:15:24", rule="standard.payout", severity="high", file="a.bjh",
               line=15, round="15", table="T11", seat="s3", hand="s3h1",
               message="paid even money", dealer="D-2207", date="2026-11-20",
               time="20:22:36", shoe="611", statement="20:22:36 settle s3h1 main win 20")


def test_a_statement_taken_in_the_worker_is_never_replaced_by_one_read_again() -> None:
    read_again = {("a.bjh", 15): "20:22:36 settle s3h1 main win 25"}
    assert Identifier({}, read_again)(BASE).id == Identifier({})(BASE).id
    # With none taken, the one read again is the statement.
    bare = BASE.model_copy(update={"statement": None})
    assert Identifier({}, read_again)(bare).id == Identifier({})(
        BASE.model_copy(update={"statement": "20:22:36 settle s3h1 main win 25"})).id


def test_a_finding_with_no_statement_and_none_read_again_is_known_by_its_message() -> None:
    bare = BASE.model_copy(update={"statement": None})
    assert Identifier({})(bare).id == Identifier({}, {("b.bjh", 15): "x"})(bare).id == \
        Identifier({})(BASE.model_copy(update={"statement": "", "line": None})).id


def test_only_the_lines_asked_for_are_read_again(tmp_path: Path) -> None:
    """The parent reads again the lines of the findings that came without a statement, and
    keeps those lines only: normalised, and none for a line that cannot be read (a NUL
    byte) or a file that cannot be read."""
    path = tmp_path / "t.bjh"
    padding = b"# " + b"-" * 98 + b"\n"  # 100 comment lines: line 104 is past the sniff
    path.write_bytes(b'bjh 1\ncasino "X"\n20:01:00   sit s1 player=P-1  # seated\n'
                     + padding * 100 + b"bad\x00line\nend\n")
    assert read_statements({str(path): {3, 104}}) == {
        (str(path), 3): "20:01:00 sit s1 player=P-1"}
    assert read_statements({str(path): {1}, str(tmp_path / "gone.bjh"): {1}}) == {
        (str(path), 1): "bjh 1"}
    assert read_statements({}) == {}


def test_the_lines_wanted_are_those_of_findings_with_no_statement() -> None:
    findings = [BASE, BASE.model_copy(update={"statement": None}),
                BASE.model_copy(update={"statement": None, "line": 20}),
                BASE.model_copy(update={"statement": None, "line": None}),
                BASE.model_copy(update={"statement": None, "file": "b.bjh", "line": 3})]
    assert lines_without_statement(findings) == {"a.bjh": {15, 20}, "b.bjh": {3}}
    assert lines_without_statement([BASE]) == {}


def test_a_result_without_tallies_gets_its_ids_and_no_players() -> None:
    """A result put together from its parts (no tallies, so no players known): every
    finding still gets its ID and gaming day, and no player."""
    whole = audit_paths([str(T11)], jobs=1)
    parts = AuditResult(inputs=whole.inputs, findings=list(whole.findings),
                        applied=whole.applied, evidence=whole.evidence)
    apply_identity(parts)
    assert [(f.line, f.id, f.player, f.gaming_day) for f in parts.findings] == [
        (424, "BJH-D0567F3116BA849D", None, "2026-11-20"),
        (455, "BJH-39A8A8B6D909A440", None, "2026-11-20"),
        (524, "BJH-E0EC130B2D5D214E", None, "2026-11-20"),
        (567, "BJH-72CC1CE3317448F1", None, "2026-11-20"),
        (720, "BJH-36C904C2676027C9", None, "2026-11-20")]
