"""Untrusted text shown safely (auditor/shown.py): Rich markup in file names, waiver fields
and record lines is printed as it is; control characters in names never reach a terminal
or forge a line of the log; Unicode bidi controls are shown as markers in the terminal,
report.html and the CSVs, and kept exact in findings.json."""

from __future__ import annotations

import csv
import json
import shutil

from auditor.cli import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, main
from auditor.output.html_report import _script_text
from auditor.shown import neutral, visible
from tests.helpers import SAMPLES

STANDARD = SAMPLES / "standard-t11-2026-11-20.bjh"  # high findings on lines 424, 455, 524, 567
TENSTICKS = SAMPLES / "tensticks-t32-2026-11-21.bjh"
RLO, PDF = "\u202e", "\u202c"


def test_visible_escapes_controls_and_marks_bidi() -> None:
    assert visible("a\x1b[2Jb\nc\td\r\x07\x7f\x9b") == "a\\x1b[2Jb\\nc\\td\\r\\x07\\x7f\\x9b"
    assert visible(f"x{RLO}y\u2066z\u200e\u061c") == \
        "x⟦U+202E⟧y⟦U+2066⟧z⟦U+200E⟧⟦U+061C⟧"
    assert visible("line\u2028sep") == "line\\u2028sep"
    assert visible("T11 [/b] ♠ café") == "T11 [/b] ♠ café"  # the rest as it is
    assert neutral(f"a{RLO}b\nc") == "a⟦U+202E⟧b\nc"  # pages and cells keep their newlines


def test_markup_in_a_file_name_is_printed_as_it_is(tmp_path, capsys) -> None:
    folder = tmp_path / "night["
    folder.mkdir()
    record = folder / "b].bjh"
    shutil.copy(STANDARD, record)
    code = main(["audit", str(record), "--out", str(tmp_path / "out"), "--jobs", "1"])
    assert code == EXIT_FINDINGS
    printed = capsys.readouterr().out
    assert f"{record}:424" in printed and "night[/b].bjh:567" in printed


def test_markup_in_a_missing_path_is_one_line_and_exit_2(tmp_path, capsys,
                                                         floor_history) -> None:
    code = main(["audit", str(tmp_path / "T11 [/].bjh"), "--out", str(tmp_path / "out"),
                 "--jobs", "1"])
    assert code == EXIT_ERROR
    errors = capsys.readouterr().err.splitlines()
    recorded = f"auditor: run 1 recorded in {floor_history / 'bjh-auditor' / 'floor.sqlite'}"
    assert errors == [recorded, f"auditor: cannot audit {tmp_path / 'T11 [/].bjh'}: no such file"]


def test_markup_in_a_waiver_field_is_printed_as_it_is(tmp_path, capsys) -> None:
    waivers = tmp_path / "w.toml"
    waivers.write_text('[[waiver]]\ndealer = "[/x]"\njustification = "[bold]x"\n'
                       'approved_by = "y"\nexpires = 2099-01-01\n', encoding="utf-8")
    code = main(["audit", str(STANDARD), "--out", str(tmp_path / "out"), "--jobs", "1",
                 "--waivers", str(waivers)])
    assert code == EXIT_FINDINGS
    assert "  unused waiver 1 (line 1: dealer [/x]) matched no finding" in \
        capsys.readouterr().out.splitlines()


def test_markup_in_a_record_line_is_printed_by_diff(tmp_path, capsys) -> None:
    record = tmp_path / "t.bjh"
    shutil.copy(TENSTICKS, record)
    store = str(tmp_path / "h.sqlite")
    for _ in range(2):
        main(["audit", str(record), "--out", str(tmp_path / "out"), "--store", store,
              "--quiet", "--jobs", "1"])
        with record.open("a", encoding="utf-8") as stream:
            stream.write("[/note] free text\n")
    capsys.readouterr()
    assert main(["diff", "1", "2", "--store", store]) == EXIT_CLEAN
    printed = capsys.readouterr().out.splitlines()
    new = [line for line in printed if line.startswith("  new") and " BJH-" in line]
    assert len(new) == 1 and "[/note]" in new[0] and f"{record}:" in new[0]
    # beside the finding, its pattern (issue 26): new on run 2
    assert "  new         table RL-0412/T32 × record:syntax  run 1: 0, run 2: 1" in printed


def test_control_characters_in_file_names_never_reach_the_terminal(tmp_path, capsys) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    forged = "t11\nFailing the run (--fail-on low): 0 finding(s).\nReport: ok\n.bjh"
    for name in ("\x1b[2J\x1b[8mhidden.bjh", forged, f"a{RLO}lmth.bjh"):
        shutil.copy(STANDARD, folder / name)
    missing = str(tmp_path / "gone\x1b[31m\n.bjh")
    code = main(["audit", str(folder), missing, "--out", str(tmp_path / "out"), "--jobs", "1"])
    assert code == EXIT_ERROR  # the missing input
    captured = capsys.readouterr()
    lines = captured.out.splitlines() + captured.err.splitlines()
    for line in lines:
        assert not any(ord(c) < 32 or 0x7f <= ord(c) <= 0x9f or c == RLO for c in line), line
    assert [line for line in lines if line.startswith("Failing the run")] == [
        "Failing the run (--fail-on low): 15 finding(s)."]
    assert not [line for line in lines if line.startswith("Report: ok")]
    assert f"  {folder}/\\x1b[2J\\x1b[8mhidden.bjh:424" in " ".join(lines)
    assert "t11\\nFailing the run (--fail-on low): 0 finding(s).\\nReport: ok\\n.bjh:455" in \
        " ".join(lines)
    assert f"{folder}/a⟦U+202E⟧lmth.bjh:524" in " ".join(lines)
    assert f"auditor: cannot audit {tmp_path}/gone\\x1b[31m\\n.bjh: no such file" in lines


def test_control_characters_in_a_stored_run_are_escaped_by_runs_show(tmp_path, capsys) -> None:
    record = tmp_path / "t11\nRun 9: forged.bjh"
    shutil.copy(STANDARD, record)
    store = str(tmp_path / "h.sqlite")
    main(["audit", str(record), "--out", str(tmp_path / "out"), "--store", store, "--quiet",
          "--jobs", "1"])
    capsys.readouterr()
    assert main(["runs", "show", "1", "--store", store]) == EXIT_CLEAN
    lines = capsys.readouterr().out.splitlines()
    assert not [line for line in lines if line.startswith("Run 9")]
    assert any(line.startswith("  - ") and "t11\\nRun 9: forged.bjh: " in line for line in lines)


def test_bidi_controls_are_marked_in_the_report_and_csvs_and_exact_in_json(tmp_path) -> None:
    casino = f"Deadwood {RLO}onisaC elpmaxE{PDF} Casino"
    text = STANDARD.read_text(encoding="utf-8").replace(
        'casino "Deadwood Example Casino" licence=RL-0412', f'casino "{casino}"')
    record = tmp_path / "bidi.bjh"
    record.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["audit", str(record), "--out", str(out), "--quiet", "--jobs", "1"]) == 1
    shown = "Deadwood ⟦U+202E⟧onisaC elpmaxE⟦U+202C⟧ Casino"
    report = (out / "report.html").read_text(encoding="utf-8")
    assert RLO not in report and PDF not in report and shown in report
    with (out / "findings.csv").open(encoding="utf-8") as stream:
        rows = list(csv.DictReader(stream))
    assert {row["casino"] for row in rows} == {shown}
    summary = (out / "summary.csv").read_text(encoding="utf-8")
    assert RLO not in summary and f"table,{shown}/T11," in summary
    document = json.loads((out / "findings.json").read_text(encoding="utf-8"))
    assert document["inputs"][0]["casino"] == casino  # the record's text, exact


def test_bidi_controls_in_the_report_data_drawn_by_its_script_are_marked() -> None:
    """A large report's findings are JSON drawn by the page's script (ASCII escapes)."""
    text = _script_text({"casino": f"a{RLO}b", "literal": "\\u202e", "suit": "♠"})
    assert json.loads(text) == {"casino": "a⟦U+202E⟧b", "literal": "\\u202e", "suit": "♠"}


def test_json_printed_for_scripts_is_exact_with_its_controls_escaped(tmp_path, capsys) -> None:
    record = tmp_path / f"t11{RLO}\x9b2J.bjh"
    shutil.copy(STANDARD, record)
    store = str(tmp_path / "h.sqlite")
    main(["audit", str(record), "--out", str(tmp_path / "out"), "--store", store, "--quiet",
          "--jobs", "1"])
    capsys.readouterr()
    assert main(["runs", "show", "1", "--store", store, "--json"]) == EXIT_CLEAN
    printed = capsys.readouterr().out
    assert RLO not in printed and "\x9b" not in printed and "\\u202e\\u009b2J" in printed
    assert json.loads(printed)["inputs"][0]["path"] == str(record)


def test_trends_json_printed_is_exact_with_its_controls_escaped(tmp_path, capsys) -> None:
    casino = f"Deadwood {RLO}onisaC\x9b2J Casino"
    text = STANDARD.read_text(encoding="utf-8").replace(
        'casino "Deadwood Example Casino" licence=RL-0412', f'casino "{casino}"')
    record = tmp_path / "bidi.bjh"
    record.write_text(text, encoding="utf-8")
    store = str(tmp_path / "h.sqlite")
    main(["audit", str(record), "--out", str(tmp_path / "out"), "--store", store, "--quiet",
          "--jobs", "1"])
    capsys.readouterr()
    assert main(["trends", "--store", store, "--out", str(tmp_path / "trends"),
                 "--json"]) in (EXIT_CLEAN, 1)
    printed = capsys.readouterr().out
    assert RLO not in printed and "\x9b" not in printed and "\\u202e" in printed
    assert casino in json.dumps(json.loads(printed), ensure_ascii=False)
