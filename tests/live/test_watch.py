"""`auditor watch` (auditor/live/): a writer appends a simulated record line by line into a
watched folder; every finding of a round is alerted once, within 2 s of its `end` line, as
the audit of the finished file gives it (same ID, same fields); what needs the whole file
comes with the gaming day's run, which is the audit's own, byte for byte."""

from __future__ import annotations

import json
import time
from pathlib import Path

from auditor.live.floor import LiveFloor
from tests.helpers.watch_writer import Writer, audited, end_of_round, of_record, simulated
from tests.helpers.watching import alerts_of, caught_up, planted_between_rounds, watching


def test_each_round_finding_alerted_once_within_two_seconds_as_the_audit_gives_it(tmp_path):
    source = simulated(tmp_path / "sim", rounds=60, seed="7")
    folder = tmp_path / "floor"
    folder.mkdir()
    floor = LiveFloor()
    watch, stop, thread, told, taken = watching(folder, tmp_path, floor)
    # every line in two writes: a half line is never judged
    writer = Writer(source, folder / source.name, pause=0.0005, halves=True)
    writer.start()
    writer.join()
    caught_up(watch, folder / source.name)
    stop.set()
    thread.join(5)
    final = audited(folder / source.name)
    in_rounds = of_record(final, folder / source.name)
    alerts = alerts_of(tmp_path / "alerts.jsonl")
    assert in_rounds, "the record must hold round findings for this test to mean anything"
    assert in_rounds == final  # (no check across files at a standard table)
    # each alerted once, and exactly as findings.json holds it (table_key added)
    assert [a["id"] for a in alerts] == [f["id"] for f in in_rounds]
    for alert, finding in zip(alerts, in_rounds, strict=True):
        assert alert == {**finding, "table_key": "RL-SIM-01/T01"}
    ends = sorted(writer.ends)
    for alert in alerts:
        [when] = taken[alert["id"]]
        assert when - writer.ends[end_of_round(ends, alert["line"])] < 2.0, alert["id"]
    snapshot = floor.snapshot()
    assert [entry["finding"]["id"] for entry in snapshot["findings"]] == \
        [f["id"] for f in in_rounds]
    [table] = snapshot["tables"]
    assert (table["key"], table["rounds"], table["last_round"], table["open_round"]) == \
        ("RL-SIM-01/T01", 60, "60", None)
    # the table is told when what the page shows changes (a round opened, a round ended),
    # not at every line read: 60 rounds, each opened and ended, and the header
    tables = [c for c in floor.changes_after(0) if c.kind == "table"]
    assert 1 <= len(tables) <= 2 * 60 + 2
    assert told == []


def test_a_round_is_never_judged_while_open(tmp_path):
    source = simulated(tmp_path / "sim", rounds=20, seed="11")
    lines = source.read_bytes().splitlines(keepends=True)
    folder = tmp_path / "floor"
    folder.mkdir()
    floor = LiveFloor()
    # the record up to the middle of its last round: that round stays open
    last_round = max(n for n, line in enumerate(lines, 1) if line.startswith(b"round "))
    cut = last_round + 3
    (folder / source.name).write_bytes(b"".join(lines[:cut]))
    watch, stop, thread, _told, _taken = watching(folder, tmp_path, floor)
    caught_up(watch, folder / source.name)
    stop.set()
    thread.join(5)
    [table] = floor.snapshot()["tables"]
    assert (table["rounds"], table["last_round"], table["open_round"]) == (19, "19", "20")
    judged = {entry["finding"]["line"] for entry in floor.snapshot()["findings"]}
    assert all(line < last_round for line in judged)


def _without_run_fields(document: dict) -> dict:
    """findings.json but for what names the run itself: the command line (its --out and
    --store differ), the times it started and finished."""
    auditor = {key: value for key, value in document["auditor"].items()
               if key not in ("command", "started", "finished")}
    return {**document, "auditor": auditor}


def _findings_text(text: str) -> str:
    return text[text.index('  "findings": '):text.index('  "summary": ')]


def test_the_gaming_days_run_is_the_audit_of_the_finished_files(tmp_path):
    """Every wait is for the condition meant, never for a time: under load, the writer could
    pause past the 0.5 s grace and the day be recorded from a part of the file (the wall
    clock here is past the day's close), so the clock holds the day open until the record is
    written; the first watch's tell is waited for, not the days' set it follows; and the
    watch started again is watched until it has looked at the day, quiet, twice."""
    import subprocess
    import sys
    import threading
    from datetime import UTC, datetime

    source = simulated(tmp_path / "sim", rounds=40, seed="5", day="2026-11-20")
    folder = tmp_path / "floor"
    folder.mkdir()
    floor = LiveFloor()
    store = tmp_path / "watch.sqlite"
    written = threading.Event()

    def clock() -> datetime:  # the day open until the whole record is written
        return datetime.now(UTC) if written.is_set() else datetime(2026, 11, 20, 12, tzinfo=UTC)

    watch, stop, thread, told, _taken = watching(
        folder, tmp_path, floor, record_days=True, close_grace=0.5, store=str(store),
        clock=clock)
    writer = Writer(source, folder / source.name, pause=0.0005)
    writer.start()
    writer.join()
    written.set()
    _wait(lambda: told, "the day recorded")  # the recording's last act
    assert watch.drain(timeout=60)
    stop.set()
    thread.join(60)
    assert not thread.is_alive()
    assert told == [f"auditor: watch: gaming day 2026-11-20 recorded (1 records; outputs in "
                    f"{tmp_path / 'out' / '2026-11-20'})"]
    direct = tmp_path / "direct"
    subprocess.run([sys.executable, "-m", "auditor", "audit", str(folder / source.name),
                    "--out", str(direct), "--store", str(tmp_path / "direct.sqlite"),
                    "--quiet"], check=False)
    ours = (tmp_path / "out" / "2026-11-20" / "findings.json").read_text(encoding="utf-8")
    theirs = (direct / "findings.json").read_text(encoding="utf-8")
    assert _findings_text(ours) == _findings_text(theirs)  # byte for byte
    assert _without_run_fields(json.loads(ours)) == _without_run_fields(json.loads(theirs))
    # every finding alerted once: the rounds' at their end, the whole file's with the run
    final = json.loads(theirs)["findings"]
    alerts = alerts_of(tmp_path / "alerts.jsonl")
    assert sorted(a["id"] for a in alerts) == sorted(f["id"] for f in final)
    assert any(f["round"] is None for f in final), "a finding of the whole file is wanted"
    assert (tmp_path / "state" / "days.log").read_text() == "2026-11-20\n"
    assert floor.snapshot()["gaming_day"] == "2026-11-21"
    # started again, the day is not recorded twice: watched until it has read the record to
    # its end and looked at the day twice after the grace (the first look would have begun
    # its run, the second comes only once that run has ended and told)
    looked: list[float] = []

    def counted() -> datetime:
        looked.append(time.monotonic())
        return datetime.now(UTC)

    size = (folder / source.name).stat().st_size
    watch, stop, thread, told, _taken = watching(
        folder, tmp_path, None, record_days=True, close_grace=0.2, store=str(store),
        clock=counted)

    def quiet_looks() -> int:
        grew = watch.last_growth.get("2026-11-20")
        read = any(followed.size == size for followed in list(watch.followed.values()))
        return 0 if grew is None or not read else sum(1 for at in looked if at > grew + 0.2)

    _wait(lambda: quiet_looks() >= 2, "the day looked at again")
    stop.set()
    thread.join(60)
    assert not thread.is_alive()
    assert told == []
    import sqlite3

    with sqlite3.connect(store) as connection:
        assert connection.execute("SELECT count(*) FROM runs").fetchone() == (1,)


def _wait(condition, what: str, bound: float = 120.0) -> None:
    """Until `condition()` holds; the bound only ends a test that would hang."""
    deadline = time.monotonic() + bound
    while not condition():
        assert time.monotonic() < deadline, f"waited {bound:g} s for {what}"
        time.sleep(0.05)


def _fed_in_random_pieces(path: Path, seed: int) -> list[dict]:
    """The findings GrowingFileAudit gives a record that grows by random amounts (cut anywhere,
    mid-line too), as the watch reads it."""
    import random

    from auditor.gaming_day import DEFAULT
    from auditor.live.piece_audit import GrowingFileAudit

    data = path.read_bytes()
    rng = random.Random(seed)
    growing = GrowingFileAudit(str(path), DEFAULT)
    found: list[dict] = []
    size = 0
    while size < len(data):
        size = min(len(data), size + rng.randint(1, 3000))
        chunk = data[growing.offset:size]
        chunk = chunk[:chunk.rfind(b"\n") + 1]
        outcome = growing.audit_piece(chunk) if chunk else None
        if outcome is not None:
            found.extend(judged.finding for judged in outcome.judged)
    return found


def test_every_game_judged_in_pieces_as_the_audit_judges_the_whole_file(tmp_path):
    """Ten sticks carries lights and punched cards across rounds, Switch its pairs of
    hands, the side wagers their paytables: the state handed from piece to piece must be
    the table's own for each round's findings and IDs to be the audit's."""
    for number, game in enumerate(("standard", "switch", "db21", "tensticks", "ladies")):
        path = simulated(tmp_path / game, game=game, rounds=150, seed=str(number + 20),
                         table=f"G{number}", faults=0.2)
        final = of_record(audited(path), path)
        live = [{k: v for k, v in f.items() if k != "table_key"}
                for f in _fed_in_random_pieces(path, seed=number)]
        assert len(final) > 10, game
        assert live == final, game


def test_a_records_judging_holds_the_tables_state_not_the_night(tmp_path):
    """Memory is bounded by the open round: what a record's judging keeps after 600 rounds
    is what it kept after 100 (no findings here: those are kept, a few bytes each)."""
    import pickle

    from auditor.gaming_day import DEFAULT
    from auditor.live.piece_audit import GrowingFileAudit

    path = simulated(tmp_path / "long", rounds=600, seed="9", faults=0.0)
    data = path.read_bytes()
    growing = GrowingFileAudit(str(path), DEFAULT)
    sizes = []
    for size in range(20_000, len(data) + 20_000, 20_000):
        chunk = data[growing.offset:min(size, len(data))]
        chunk = chunk[:chunk.rfind(b"\n") + 1]
        growing.audit_piece(chunk)
        sizes.append((growing.rounds, len(pickle.dumps(growing.__dict__))))
    assert growing.rounds == 600
    # what is kept rises and falls with the shoe and the seats taken, never with the rounds
    first_half = max(kept for rounds, kept in sizes if rounds <= 300)
    second_half = max(kept for rounds, kept in sizes if rounds > 300)
    assert second_half < first_half * 1.25, sizes
    assert first_half < 20_000, sizes


def test_the_settings_waivers_mark_live_findings_and_a_waived_one_is_not_alerted(tmp_path):
    import subprocess
    import sys

    source = simulated(tmp_path / "sim", rounds=40, seed="7")
    waived_citation = of_record(audited(source), source)[0]["citation"]
    (tmp_path / "waivers.toml").write_text(
        f'[[waiver]]\ncitation = "{waived_citation}"\njustification = "Known layout"\n'
        'approved_by = "J. Doe"\nexpires = 2099-12-31\n', encoding="utf-8")
    config = tmp_path / "bjh-auditor.toml"
    config.write_text('waivers = "waivers.toml"\n', encoding="utf-8")
    folder = tmp_path / "floor"
    folder.mkdir()
    floor = LiveFloor()
    watch, stop, thread, told, _ = watching(folder, tmp_path, floor, config=str(config))
    try:
        Writer(source, folder / source.name, pause=0.0003).run()
        caught_up(watch, folder / source.name)
    finally:
        stop.set()
        thread.join(5)
    assert told == []
    subprocess.run([sys.executable, "-m", "auditor", "audit", str(folder / source.name),
                    "--config", str(config), "--out", str(tmp_path / "direct"), "--store",
                    str(tmp_path / "direct.sqlite"), "--quiet"], check=False)
    document = json.loads((tmp_path / "direct" / "findings.json").read_text(encoding="utf-8"))
    final = of_record(document["findings"], folder / source.name)
    shown = [entry["finding"] for entry in floor.snapshot()["findings"]]
    assert shown == final  # the waiver marks included
    assert any(f["waiver"] is not None for f in final)
    assert [a["id"] for a in alerts_of(tmp_path / "alerts.jsonl")] == \
        [f["id"] for f in final if f["waiver"] is None]


def test_only_findings_at_or_above_the_alert_level_are_alerted(tmp_path):
    source = simulated(tmp_path / "sim", rounds=60, seed="7")
    folder = tmp_path / "floor"
    folder.mkdir()
    floor = LiveFloor()
    watch, stop, thread, _told, _ = watching(folder, tmp_path, floor, alert_on="high")
    try:
        Writer(source, folder / source.name, pause=0.0002).run()
        caught_up(watch, folder / source.name)
    finally:
        stop.set()
        thread.join(5)
    final = of_record(audited(folder / source.name), folder / source.name)
    high = [f["id"] for f in final if f["severity"] == "high"]
    assert high and len(high) < len(final)
    assert [a["id"] for a in alerts_of(tmp_path / "alerts.jsonl")] == high
    # the floor shows every finding, whatever its severity
    assert len(floor.snapshot()["findings"]) == len(final)


def test_a_header_written_before_any_round_and_each_findings_round_lines(tmp_path):
    """A table writes its header, then its rounds: the header's piece judges no round and
    tells nothing; each finding on the floor carries its own round's lines, first to last."""
    source = simulated(tmp_path / "sim", rounds=20, seed="7")
    text = source.read_text(encoding="utf-8")
    header_end = text.index("\nround ") + 1
    folder = tmp_path / "floor"
    folder.mkdir()
    floor = LiveFloor()
    watch, stop, thread, told, _taken = watching(folder, tmp_path, floor)
    target = folder / source.name
    target.write_text(text[:header_end], encoding="utf-8")
    caught_up(watch, target)  # the header alone read first
    with target.open("a", encoding="utf-8") as handle:
        handle.write(text[header_end:])
    deadline = time.monotonic() + 20
    expected = of_record(audited(source), source)
    while time.monotonic() < deadline and len(floor.snapshot()["findings"]) < len(expected):
        time.sleep(0.1)
    stop.set()
    thread.join(5)
    assert told == []
    entries = floor.snapshot()["findings"]
    assert [e["finding"]["id"] for e in entries] == [f["id"] for f in expected]
    lines = text.split("\n")
    for entry in entries:
        numbers = [int(number) for number in entry["lines"]]
        first, last = numbers[0], numbers[-1]
        assert numbers == list(range(first, last + 1))
        assert lines[first - 1].startswith("round ") and lines[last - 1] == "end"
        assert first <= entry["finding"]["line"] <= last
        assert all(entry["lines"][str(n)] == lines[n - 1] for n in numbers)


def test_a_record_dealt_past_the_days_start_is_recorded_in_each_of_its_gaming_days(tmp_path):
    """A table plays through the hour the gaming day begins: its record's rounds fall in
    two gaming days, and each day's close records it (as `auditor audit` splits it into
    table-nights), the later day's run being the audit of the finished file."""
    import sqlite3
    import subprocess
    import sys

    # 80 rounds from 18:02 to past 19:00 on 2026-11-20; the day begins at 19:00
    source = simulated(tmp_path / "sim", rounds=80, seed="5", day="2026-11-20")
    config = tmp_path / "bjh-auditor.toml"
    config.write_text('gaming-day-starts = "19:00"\n', encoding="utf-8")
    folder = tmp_path / "floor"
    folder.mkdir()
    store = tmp_path / "watch.sqlite"
    watch, stop, thread, told, _taken = watching(
        folder, tmp_path, None, record_days=True, close_grace=0.5, store=str(store),
        config=str(config))
    try:
        Writer(source, folder / source.name, pause=0.0003).run()
        deadline = time.time() + 120
        while len(watch.recorded_days) < 2 and time.time() < deadline:
            time.sleep(0.1)
        assert watch.drain()
    finally:
        stop.set()
        thread.join(5)
    days = ["2026-11-19", "2026-11-20"]
    assert (tmp_path / "state" / "days.log").read_text() == "".join(d + "\n" for d in days)
    assert told == [f"auditor: watch: gaming day {day} recorded (1 records; outputs in "
                    f"{tmp_path / 'out' / day})" for day in days]
    for day in days:
        document = json.loads((tmp_path / "out" / day / "findings.json").read_text("utf-8"))
        assert [i["path"] for i in document["inputs"]] == [str(folder / source.name)]
    direct = tmp_path / "direct"
    subprocess.run([sys.executable, "-m", "auditor", "audit", str(folder / source.name),
                    "--config", str(config), "--out", str(direct), "--store",
                    str(tmp_path / "direct.sqlite"), "--quiet"], check=False)
    ours = (tmp_path / "out" / days[1] / "findings.json").read_text(encoding="utf-8")
    theirs = (direct / "findings.json").read_text(encoding="utf-8")
    assert _findings_text(ours) == _findings_text(theirs)
    assert {f["gaming_day"] for f in json.loads(theirs)["findings"]} == set(days)
    # every finding of the finished record alerted once (live, all of them here)
    alerted = [a["id"] for a in alerts_of(tmp_path / "alerts.jsonl")]
    assert sorted(alerted) == sorted(f["id"] for f in json.loads(theirs)["findings"])
    # the later day's run holds both table-nights of the finished record, all 80 rounds
    with sqlite3.connect(store) as connection:
        nights = connection.execute(
            "SELECT night, rounds, complete FROM table_nights WHERE run_id = "
            "(SELECT max(id) FROM runs) ORDER BY night").fetchall()
        runs = connection.execute("SELECT count(*) FROM runs").fetchone()
    assert [night for night, _, _ in nights] == days
    assert sum(rounds for _, rounds, _ in nights) == 80
    assert runs == (2,)


def test_findings_of_no_one_round_are_alerted_once_their_lines_are_written(tmp_path):
    """Nothing waits for the day's run at a standard table: each finding between rounds
    is alerted once the next round's `end` (or `close`) is written, with the ID and fields
    the day's run gives it, each once; the day's run then alerts nothing more."""
    source = planted_between_rounds(tmp_path / "made")
    final = audited(source)
    of_none = [(f["citation"], f["message"]) for f in final if f["round"] is None]
    assert [c for c, _ in of_none] == ["record:header", "record:card-count", "record:syntax",
                                       "record:reference", "record:syntax"], of_none
    assert of_none[2][1].startswith("Lines ") and "(3 lines in a row)" in of_none[2][1]
    assert {f["severity"] for f in final if f["round"] is None} == {"low"}
    assert any(f["citation"] == "record:reference" and "not closed by `end`" in f["message"]
               for f in final)
    folder = tmp_path / "floor"
    folder.mkdir()
    floor = LiveFloor()
    store = tmp_path / "watch.sqlite"
    watch, stop, thread, told, taken = watching(
        folder, tmp_path, floor, alert_on="low", record_days=True, close_grace=3.0,
        store=str(store))
    try:
        writer = Writer(source, folder / source.name, pause=0.001)
        writer.run()
        live_done = time.time()
        every = {f["id"] for f in final}  # (IDs do not depend on the file's name)
        deadline = time.time() + 20
        while set(taken) != every and time.time() < deadline:
            time.sleep(0.05)
        # the floor shows every finding of the record once (before the day's close clears it)
        shown = [e["finding"]["id"] for e in floor.snapshot()["findings"]]
        deadline = time.time() + 60
        while "2026-11-20" not in watch.recorded_days and time.time() < deadline:
            time.sleep(0.1)
        assert watch.drain()
    finally:
        stop.set()
        thread.join(5)
    final = audited(folder / source.name)
    document = json.loads((tmp_path / "out" / "2026-11-20" / "findings.json").read_text(
        encoding="utf-8"))
    assert [{**f, "table_key": None} for f in document["findings"]] == \
        [{**f, "table_key": None} for f in final]
    wanted = [f["id"] for f in final]  # (the record's own findings are all low)
    alerts = alerts_of(tmp_path / "alerts.jsonl")
    assert [a["id"] for a in alerts] == wanted  # each once, in record order
    for alert, finding in zip(alerts, [f for f in final if f["id"] in wanted], strict=True):
        assert alert == {**finding, "table_key": "RL-SIM-01/T01"}
    # all of them alerted live, within 2 s of the `end` after their line (`close` for
    # the last): none left for the day's run
    ends = sorted(writer.ends)
    for alert in alerts:
        [when] = taken[alert["id"]]
        assert when <= live_done + 2.0, alert
        later = [end for end in ends if end >= alert["line"]]
        if later:
            assert when - writer.ends[later[0]] < 2.0, alert["id"]
    assert shown == wanted
    assert told == [f"auditor: watch: gaming day 2026-11-20 recorded (1 records; outputs in "
                    f"{tmp_path / 'out' / '2026-11-20'})"]


def test_the_checks_across_files_are_alerted_by_the_days_run_once(tmp_path):
    """Ten sticks' punched cards are judged across the day's files, known at its close:
    live, every other finding is alerted; the day's run alerts the card handed in wrong,
    once, and the alerts are then the day's run's findings, each once."""
    source = simulated(tmp_path / "sim", game="tensticks", rounds=80, seed="20", faults=0.3)
    folder = tmp_path / "floor"
    folder.mkdir()
    target = folder / source.name
    watch, stop, thread, _told, taken = watching(
        folder, tmp_path, None, record_days=True, close_grace=3.0,
        store=str(tmp_path / "watch.sqlite"))
    try:
        Writer(source, target, pause=0.0003).run()
        final = audited(target)
        live = of_record(final, target)
        deadline = time.time() + 20
        while set(taken) != {f["id"] for f in live} and time.time() < deadline:
            time.sleep(0.05)
        alerted_live = [a["id"] for a in alerts_of(tmp_path / "alerts.jsonl")]
        deadline = time.time() + 60
        while "2026-11-20" not in watch.recorded_days and time.time() < deadline:
            time.sleep(0.1)
        assert watch.drain()
    finally:
        stop.set()
        thread.join(5)
    across = [f for f in final if f not in live]
    assert [(f["citation"], f["line"]) for f in across] == [("20:18:15:30.02(¶11)", 1065)]
    assert alerted_live == [f["id"] for f in live]
    document = json.loads((tmp_path / "out" / "2026-11-20" / "findings.json").read_text(
        encoding="utf-8"))
    alerts = [a["id"] for a in alerts_of(tmp_path / "alerts.jsonl")]
    assert alerts == [*alerted_live, across[0]["id"]]
    assert sorted(alerts) == sorted(f["id"] for f in document["findings"])


def test_a_days_run_alerts_its_own_days_findings_and_leaves_the_next_days_to_its_run(
        tmp_path):
    """A record written into the next gaming day is in the runs of both days; the earlier
    run read it (and the other records a check across files joins) only in part, so of
    its findings it alerts those of its own day (and those of no day, the header's): the
    next day's are that day's run's to alert."""
    folder = tmp_path / "floor"
    folder.mkdir()
    watch, stop, thread, told, _taken = watching(folder, tmp_path)
    day = "2026-11-19"
    try:
        out = tmp_path / "out" / day
        out.mkdir(parents=True)
        # outputs written by a day's audit begun by a watch before this one (killed since)
        (tmp_path / "state" / f"recording-{day}").write_text(f"999999999 {time.time() - 5}\n")
        findings = [{"id": f"BJH-{n}", "severity": "low", "waiver": None, "gaming_day": of}
                    for n, of in enumerate((day, "2026-11-20", None, day))]
        (out / "findings.json").write_text(json.dumps({"findings": findings}),
                                           encoding="utf-8")
        assert watch.record_day(day, [str(folder / "t.bjh")])
        assert watch.drain()
    finally:
        stop.set()
        thread.join(5)
    assert [a["id"] for a in alerts_of(tmp_path / "alerts.jsonl")] == [
        "BJH-0", "BJH-2", "BJH-3"]
    assert told == [f"auditor: watch: gaming day {day} recorded (1 records; outputs in {out})"]


def test_a_long_line_is_shortened_on_the_floor_alone_the_alert_and_audit_keep_it(tmp_path):
    """The page carries at most 1,000 characters of a line; the finding alerted (as the
    audit of the finished file gives it) is untouched, and the line stays whole on disk."""
    source = simulated(tmp_path / "sim", rounds=5, seed="7")
    lines = source.read_text(encoding="utf-8").split("\n")
    long_line = "@@ " + "q" * 5000
    at = [number for number, line in enumerate(lines) if line.split()[1:2] == ["round"]
          or line.startswith("round")][2] + 1  # inside the third round
    lines.insert(at, long_line)
    folder = tmp_path / "floor"
    folder.mkdir()
    (folder / source.name).write_text("\n".join(lines), encoding="utf-8")
    floor = LiveFloor()
    watch, stop, thread, _told, _taken = watching(folder, tmp_path, floor)
    bound = time.monotonic() + 60
    while not any(str(at + 1) in entry.get("shortened", {})
                  for entry in floor.snapshot()["findings"]):
        assert time.monotonic() < bound, "the long line's finding did not reach the floor"
        time.sleep(0.05)
    assert watch.drain()
    stop.set()
    thread.join(5)
    [entry] = [entry for entry in floor.snapshot()["findings"]
               if str(at + 1) in entry.get("shortened", {})]
    assert entry["shortened"] == {str(at + 1): 5003}
    assert entry["lines"][str(at + 1)] == long_line[:1000]
    final = {f["id"]: f for f in audited(folder / source.name)}
    alerts = {a["id"]: a for a in alerts_of(tmp_path / "alerts.jsonl")}
    finding_id = entry["finding"]["id"]
    assert entry["finding"] == {**final[finding_id], "table_key": "RL-SIM-01/T01"} \
        == alerts[finding_id]
    assert (folder / source.name).read_text(encoding="utf-8").split("\n")[at] == long_line
