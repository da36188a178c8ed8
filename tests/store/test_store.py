"""The run store, against a real SQLite file and a real PostgreSQL server: runs recorded,
inputs kept once, outputs rendered again byte for byte, unfinished runs, newer schemas,
concurrent writers."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import func, select, text

from auditor.cli import main
from auditor.store import StoreError, latest_run_over, list_runs, open_store, schema
from auditor.store.engine import MIGRATIONS
from tests.helpers import ROOT, SAMPLES
from tests.helpers.audits import audit

OUTPUTS = ("findings.json", "findings.csv", "summary.csv", "report.html")




def test_two_runs_recorded_with_their_counts_and_each_input_kept_once(store_url, tmp_path):
    one_file = SAMPLES / "db21-t07-2026-11-20.bjh"
    assert audit(SAMPLES, out=tmp_path / "night1", store=store_url) == 1
    assert audit(one_file, out=tmp_path / "night2", store=store_url) == 1
    engine = open_store(store_url)
    runs = list_runs(engine)
    assert [(r.id, r.status, r.exit_code, r.inputs, r.rounds, r.findings, r.high, r.medium,
             r.low, r.waived) for r in runs] == [
        (1, "finished", 1, 10, 264, 47, 31, 15, 1, 0),
        (2, "finished", 1, 1, 30, 3, 1, 2, 0, 0)]
    with engine.connect() as connection:
        contents = connection.execute(select(func.count()).select_from(schema.inputs)).scalar()
        places = connection.execute(select(func.count()).select_from(schema.run_inputs)).scalar()
    assert (contents, places) == (10, 11)  # the file audited twice is one input of two runs
    engine.dispose()


def test_a_stored_run_is_rendered_again_byte_for_byte(store_url, tmp_path):
    audit(SAMPLES, out=tmp_path / "first", store=store_url)
    audit(SAMPLES / "switch-t03-2026-11-20.bjh", out=tmp_path / "second", store=store_url)
    assert main(["report", "1", "--store", store_url, "--out", str(tmp_path / "again")]) == 0
    for name in OUTPUTS:
        assert (tmp_path / "again" / name).read_bytes() == \
            (tmp_path / "first" / name).read_bytes(), name


def test_the_cli_lists_and_shows_runs_as_json(store_url, tmp_path, capsys):
    audit(SAMPLES / "switch-t03-2026-11-20.bjh", out=tmp_path / "out", store=store_url)
    capsys.readouterr()
    assert main(["runs", "--store", store_url, "--json"]) == 0
    import json

    listed = json.loads(capsys.readouterr().out)
    assert [(r["id"], r["status"], r["inputs"]) for r in listed] == [(1, "finished", 1)]
    assert main(["runs", "show", "1", "--store", store_url, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert [i["path"] for i in shown["inputs"]] == [str(SAMPLES / "switch-t03-2026-11-20.bjh")]
    assert main(["runs", "show", "7", "--store", store_url]) == 2


def test_a_newer_schema_is_refused_with_a_plain_message(store_url, tmp_path, capsys):
    open_store(store_url).dispose()
    engine = open_store(store_url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    engine.dispose()
    with pytest.raises(StoreError, match=r"written by a newer auditor.*9999"):
        open_store(store_url)
    assert audit(SAMPLES, out=tmp_path / "out", store=store_url) == 2
    assert "newer auditor" in capsys.readouterr().err


def test_the_migrations_build_exactly_the_tables_the_code_uses(store_url):
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    engine = open_store(store_url)
    with engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), schema.metadata)
    engine.dispose()
    assert differences == []
    assert (MIGRATIONS / "versions").is_dir()


def _simulated(tmp_path: Path, rounds: int) -> Path:
    folder = tmp_path / "simulated"
    assert main(["simulate", "--out", str(folder), "--game", "standard", "--tables", "4",
                 "--rounds", str(rounds // 4), "--seed", "7", "--quiet"]) == 0
    return folder


def test_a_killed_run_is_marked_unfinished_and_never_a_baseline(store_url, tmp_path):
    records = _simulated(tmp_path, 20_000)
    assert audit(records, out=tmp_path / "whole", store=store_url) in (0, 1)
    command = [sys.executable, "-m", "auditor", "audit", str(records), "--out",
               str(tmp_path / "killed"), "--store", store_url, "--quiet", "--jobs", "1"]
    process = subprocess.Popen(command, cwd=ROOT)
    engine = open_store(store_url)
    deadline = time.monotonic() + 60
    while len(list_runs(engine)) < 2:  # the second run has begun: kill it mid-audit
        assert time.monotonic() < deadline and process.poll() is None
        time.sleep(0.05)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    runs = list_runs(engine)
    assert [(r.id, r.status, r.finished) for r in runs][1] == (2, "running", None)
    with engine.connect() as connection:
        contents = set(connection.execute(select(schema.inputs.c.sha256)).scalars())
    assert latest_run_over(engine, contents) == 1  # the killed run is passed over
    engine.dispose()


def test_two_audits_write_one_sqlite_store_at_once(tmp_path):
    store = str(tmp_path / "history.sqlite")
    open_store(store).dispose()
    records = _simulated(tmp_path, 4_000)
    shutil.copytree(SAMPLES, tmp_path / "samples")
    commands = [[sys.executable, "-m", "auditor", "audit", str(folder), "--out",
                 str(tmp_path / f"out{index}"), "--store", store, "--quiet", "--jobs", "1"]
                for index, folder in enumerate((records, tmp_path / "samples"))]
    processes = [subprocess.Popen(c, cwd=ROOT, stderr=subprocess.PIPE) for c in commands]
    codes = [p.wait(timeout=300) for p in processes]
    errors = [p.stderr.read().decode() for p in processes]
    assert codes[1] == 1 and codes[0] in (0, 1), errors
    engine = open_store(store)
    runs = sorted(list_runs(engine), key=lambda r: r.inputs)
    assert [(r.status, r.inputs) for r in runs] == [("finished", 4), ("finished", 10)]
    assert [r.findings for r in runs if r.inputs == 10] == [47]
    with engine.connect() as connection:
        assert connection.execute(text("PRAGMA integrity_check")).scalar() == "ok"
    engine.dispose()


def test_findings_come_back_in_the_order_every_output_lists_them():
    """`order_key` compares, byte by byte, as `Finding.sort_key` does within one input."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from auditor.findings import Finding
    from auditor.store.runs import order_key

    texts = st.text(alphabet=st.characters(blacklist_categories=("Cs",),
                                           blacklist_characters="\0"), max_size=6)
    findings = st.builds(
        lambda line, citation, seat, hand: Finding(
            citation=citation, rule="a.b", severity="low", file="f.bjh", line=line,
            seat=seat, hand=hand, message="m"),
        st.one_of(st.none(), st.integers(0, 2**40)), texts,
        st.one_of(st.none(), texts), st.one_of(st.none(), texts))

    @settings(max_examples=300, deadline=None)
    @given(st.lists(findings, max_size=12))
    def same_order(batch):
        assert sorted(batch, key=order_key) == sorted(batch, key=Finding.sort_key)

    same_order()


def test_the_replays_a_run_keeps_do_not_depend_on_the_order_files_finish(tmp_path):
    from auditor.audit import audit_file
    from auditor.run import REPLAYS_PER_CITATION_IN_RUN, ReplaySelection

    assert main(["simulate", "--out", str(tmp_path), "--game", "switch", "--tables", "6",
                 "--rounds", "1000", "--seed", "11", "--faults", "0.2", "--quiet"]) == 0
    results = [audit_file(str(path)) for path in sorted(tmp_path.glob("*.bjh"))]
    kept_by_order = []
    for order in (range(6), reversed(range(6)), (3, 0, 5, 1, 4, 2)):
        selection = ReplaySelection()
        kept: set[str] = set()
        for place in order:
            new, dropped = selection.offer(place, results[place])
            kept = (kept | set(new)) - dropped
        assert kept == selection.kept()
        kept_by_order.append(kept)
    assert kept_by_order[0] == kept_by_order[1] == kept_by_order[2]
    # every citation holds its first rounds in input order, and no more than the limit
    held = ReplaySelection()
    for place in range(6):
        held.offer(place, results[place])
    for rounds in held.held.values():
        assert len(rounds) <= REPLAYS_PER_CITATION_IN_RUN
    assert sum(len(r.evidence) for r in results) > len(kept_by_order[0])


def _corrected_night(tmp_path: Path) -> Path:
    """The sample logs with one fault corrected: the surrender on line 455 of T11's record
    collects half the wager, as it should."""
    night = tmp_path / "night2"
    shutil.copytree(SAMPLES, night)
    record = night / "standard-t11-2026-11-20.bjh"
    lines = record.read_text().split("\n")
    assert "settle s3h1 main lose 50" in lines[454]
    lines[454] = lines[454].replace("lose 50", "lose 25")
    record.write_text("\n".join(lines))
    return night


def test_baseline_last_and_diff_compare_runs_by_stable_id(store_url, tmp_path, capsys):
    import json

    audit(SAMPLES, out=tmp_path / "out1", store=store_url)
    first = json.loads((tmp_path / "out1" / "findings.json").read_text())["findings"]
    fixed = next(f for f in first if f["file"].endswith("t11-2026-11-20.bjh")
                 and f["line"] == 455)
    night2 = _corrected_night(tmp_path)
    assert main(["audit", str(night2), "--out", str(tmp_path / "out2"), "--store", store_url,
                 "--quiet", "--jobs", "1", "--baseline", "last"]) == 1
    second = json.loads((tmp_path / "out2" / "findings.json").read_text())
    # night 2 has other contents (one file changed): `last` finds no run over the same inputs
    assert second["resolved"] == [] and {f["baseline"] for f in second["findings"]} == {"new"}
    assert main(["audit", str(night2), "--out", str(tmp_path / "out3"), "--store", store_url,
                 "--quiet", "--jobs", "1", "--baseline", "last"]) == 1
    third = json.loads((tmp_path / "out3" / "findings.json").read_text())
    assert {f["baseline"] for f in third["findings"]} == {"persisting"}
    capsys.readouterr()
    assert main(["diff", "1", "3", "--store", store_url, "--json"]) == 0
    difference = json.loads(capsys.readouterr().out)
    assert difference["new"] == []
    assert [f["id"] for f in difference["resolved"]] == [fixed["id"]]
    assert sorted(f["id"] for f in difference["persisting"]) == sorted(
        f["id"] for f in first if f["id"] != fixed["id"])


def test_a_run_with_waivers_is_rendered_again_with_them(store_url, tmp_path):
    waivers = tmp_path / "waivers.toml"
    waivers.write_text('[[waiver]]\ncitation = "20:18:15:30.10(12)"\n'
                       'justification = "pay table 1 misprinted; corrected on 2026-11-22"\n'
                       'approved_by = "Surveillance director"\nexpires = "2099-12-31"\n')
    assert main(["audit", str(SAMPLES), "--out", str(tmp_path / "run"), "--store", store_url,
                 "--quiet", "--jobs", "1", "--waivers", str(waivers)]) == 1
    assert main(["report", "1", "--store", store_url, "--out", str(tmp_path / "again")]) == 0
    for name in OUTPUTS:
        assert (tmp_path / "again" / name).read_bytes() == \
            (tmp_path / "run" / name).read_bytes(), name
    engine = open_store(store_url)
    assert [(r.findings, r.waived) for r in list_runs(engine)] == [(47, 1)]
    engine.dispose()
