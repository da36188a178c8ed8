"""Hostile review of the live floor (issue 43): two watches on one state folder, a store's
password on a process's command line, a round dated in the future left open to hide a
fault, a FIFO and a link loop in the watched folder."""

from __future__ import annotations

import os
import threading
from datetime import date, timedelta
from pathlib import Path

import pytest

from auditor.live.watch import Watch, WatchError, WatchOptions
from auditor.selection import Judging
from tests.helpers.open_records import round_text


def _options(tmp: Path, folder: Path, **more) -> WatchOptions:
    return WatchOptions(paths=[str(folder)], state=str(tmp / "state"), out=str(tmp / "out"),
                        alert_jsonl=str(tmp / "alerts.jsonl"), record_days=False,
                        poll=0.05, rescan=0.1, tell=lambda _: None, **more)


def test_a_second_watch_on_the_same_state_folder_refuses(tmp_path) -> None:
    """Two watches on one state folder would each alert every finding (each sent-log read
    only at start) and each record the day: the second refuses, in one line."""
    folder = tmp_path / "floor"
    folder.mkdir()
    first = Watch(_options(tmp_path, folder))
    with pytest.raises(WatchError) as refused:
        Watch(_options(tmp_path, folder))
    assert str(refused.value) == (f"another watch uses the state folder {tmp_path / 'state'}"
                                  " (two would alert every finding twice)")
    # once the first has run and stopped, a watch may begin again on its state
    stop = threading.Event()
    stop.set()
    first.run(stop)
    Watch(_options(tmp_path, folder))


def test_the_day_run_is_not_given_the_store_password_on_its_command_line(tmp_path) -> None:
    """A command line is public on the machine (ps, /proc/PID/cmdline): the day's audit
    is given the store in its environment, as `BJH_STORE`, never as `--store URL`."""
    from auditor.live.watch import day_command

    url = "postgresql://auditor:s3cret-pw@db.example:5432/runs"
    argv, environment = day_command(["a.bjh"], tmp_path / "out", url, None)
    assert not any("s3cret" in part for part in argv)
    assert "--store" not in argv
    assert environment["BJH_STORE"] == url
    # no store given: the watch's own environment (its BJH_STORE, if any) goes on as it is
    argv, environment = day_command(["a.bjh"], tmp_path / "out", None, "settings.toml")
    assert argv[-2:] == ["--config", "settings.toml"]
    assert environment.get("BJH_STORE") == os.environ.get("BJH_STORE")


def _far(days: int) -> str:
    return (date.today() + timedelta(days=days)).isoformat()


@pytest.mark.parametrize("days", [30, 3650])
def test_a_round_dated_days_ahead_cannot_be_left_open_to_hide_a_fault(days) -> None:
    """A round the file ends inside is set aside as open only when it may be being dealt
    now: dated yesterday, today or tomorrow (a clock a zone ahead). A record dated weeks
    ahead is not being written tonight: its cut round is judged as the catalog says."""
    live_from = (date.today() - timedelta(days=1)).isoformat()
    judging = Judging(live_from=live_from)
    assert judging.may_be_live(live_from)
    assert judging.may_be_live(_far(0)) and judging.may_be_live(_far(1))
    assert not judging.may_be_live(_far(days))
    assert not judging.may_be_live((date.today() - timedelta(days=2)).isoformat())


def test_audit_judges_a_cut_round_dated_a_year_ahead(tmp_path) -> None:
    from auditor.audit import audit_file

    ahead = _far(365)
    text = (f'bjh 1\ncasino "Test" licence=RL-9\ntable T4 game=standard decks=6 min=5 '
            f'max=500\nshoe A date={ahead}\nshuffle\ncut\n' + round_text(1)
            + round_text(2, paid="15").replace("leave s1\nend\n", ""))
    path = tmp_path / "ahead.bjh"
    path.write_text(text, encoding="utf-8")
    judging = Judging(live_from=(date.today() - timedelta(days=1)).isoformat())
    result = audit_file(str(path), judging=judging)
    assert sorted((f.citation, f.round, f.line) for f in result.findings) == [
        ("20:18:15:06", "2", 28), ("record:reference", "2", 19)]
    assert result.summary.open_round is None


def test_a_fifo_and_a_link_loop_in_the_watched_folder_hang_nothing(tmp_path) -> None:
    folder = tmp_path / "floor"
    (folder / "sub").mkdir(parents=True)
    os.mkfifo(folder / "pipe.bjh")
    os.symlink(folder, folder / "sub" / "loop")
    os.symlink(folder / "sub" / "self.bjh", folder / "sub" / "self.bjh")  # a link to itself
    watch = Watch(_options(tmp_path, folder))
    stop = threading.Event()
    thread = threading.Thread(target=watch.run, args=(stop,), daemon=True)
    thread.start()
    thread.join(1.0)
    alive = thread.is_alive()
    stop.set()
    thread.join(5)
    assert alive and not thread.is_alive()
    assert watch.followed == {}


def _watched_alerts(tmp: Path, text: str) -> tuple[list[dict], list[dict], list[str]]:
    """`text` written line by line into a watched folder: (the alerts, the audit's round
    findings of the finished file, what the watch told)."""
    import time

    from tests.helpers.watch_writer import audited, of_record
    from tests.helpers.watching import alerts_of, caught_up, watching

    folder = tmp / "floor"
    folder.mkdir()
    target = folder / "T4.bjh"
    watch, stop, thread, told, _ = watching(folder, tmp)
    with open(target, "wb", buffering=0) as handle:
        for line in text.encode().splitlines(keepends=True):
            handle.write(line)
            time.sleep(0.002)
    caught_up(watch, target)
    stop.set()
    thread.join(5)
    alerts_file = tmp / "alerts.jsonl"
    alerts = alerts_of(alerts_file) if alerts_file.exists() else []
    return alerts, of_record(audited(target), target), told


def _header(day: str) -> str:
    return (f'bjh 1\ncasino "Test" licence=RL-9\ntable T4 game=standard decks=6 min=5 '
            f'max=500\nshoe A date={day}\nshuffle\ncut\n')


@pytest.mark.parametrize("shape", ["close then more", "unended round", "dealt after end"])
def test_hostile_shapes_alert_what_the_audit_of_the_finished_file_gives(tmp_path, shape):
    day = date.today().isoformat()
    if shape == "close then more":
        text = (_header(day) + round_text(1) + f"close\nshoe B date={day}\nshuffle\ncut\n"
                + round_text(2, paid="15") + round_text(3))
    elif shape == "unended round":
        text = _header(day) + round_text(1).replace("end\n", "") + round_text(2, paid="15")
    else:  # a card dealt between rounds, then a round with a wrong payout
        text = _header(day) + round_text(1) + "deal s1h1 Ah\n" + round_text(2, paid="15")
    alerts, audit_findings, told = _watched_alerts(tmp_path, text)
    assert audit_findings, "the shape must hold a round finding to mean anything"
    assert [{k: v for k, v in a.items() if k != "table_key"} for a in alerts] == \
        audit_findings
    assert told == []


def test_a_file_growing_without_end_is_read_from_where_it_was_left(tmp_path) -> None:
    """A table (or a hostile writer) that writes for hours and never `end`s a round: each
    poll reads what was added, not the whole tail since the last round judged again (it
    was a read and a search of every byte since at each poll: quadratic, a hang)."""
    import time

    from auditor.gaming_day import DEFAULT
    from auditor.live.follow import Followed

    path = tmp_path / "T4.bjh"
    day = date.today().isoformat()
    note = b'note "' + b"x" * 90 + b'"\n'
    with open(path, "wb") as handle:
        handle.write((_header(day) + round_text(1) + "round 2 time=20:02:00 dealer=D1\n")
                     .encode())
        handle.write(note * 40_000)  # about 4 MB, no `end`
    followed = Followed(str(path), DEFAULT, None)
    first = followed.poll()
    assert first is not None and first.open_round == "2"
    assert [j.finding["citation"] for j in first.outcome.judged] == []
    took = []
    for _ in range(7):
        with open(path, "ab") as handle:
            handle.write(note)
        began = time.perf_counter()
        change = followed.poll()
        took.append(time.perf_counter() - began)
        assert change is not None and change.open_round == "2" and change.outcome is None
    # the median poll: a rescan of the 4 MB is slow at every poll, while one poll held up
    # by a busy machine (a shared CI runner) is not the code's doing
    assert sorted(took)[len(took) // 2] < 0.01, took
    # the round's `end` at last: judged from its first line, as the audit would
    with open(path, "ab") as handle:
        handle.write(b"end\n")
    change = followed.poll()
    assert change.outcome is not None and change.outcome.last_round == "2"
    assert change.open_round is None and followed.audit.rounds == 2


def test_an_alert_jsonl_that_is_a_fifo_is_refused_not_waited_on(tmp_path) -> None:
    """Reading the IDs a FIFO took blocked the watch's start for good: refused, one line."""
    folder = tmp_path / "floor"
    folder.mkdir()
    os.mkfifo(tmp_path / "alerts.jsonl")
    with pytest.raises(WatchError) as refused:
        Watch(_options(tmp_path, folder))
    assert str(refused.value) == f"--alert-jsonl {tmp_path / 'alerts.jsonl'} is not a regular file"


def test_a_file_rewritten_in_place_and_longer_between_two_polls_is_read_again(tmp_path):
    """`cat other > T4.bjh` between two polls: the same inode, and larger than what was
    judged, so neither replaced nor truncated by size; reading on from the old offset
    judged the middle of another record from the old one's state."""
    from auditor.gaming_day import DEFAULT
    from auditor.live.follow import Followed

    day = date.today().isoformat()
    path = tmp_path / "T4.bjh"
    path.write_text(_header(day) + round_text(1) + round_text(2), encoding="utf-8")
    followed = Followed(str(path), DEFAULT, None)
    assert followed.poll().outcome.last_round == "2"
    other = _header(day).replace("T4", "T5") + round_text(7, paid="15") + round_text(8) \
        + round_text(9)
    with open(path, "r+b") as handle:  # truncated and written again: one inode
        handle.truncate(0)
        handle.write(other.encode())
    change = followed.poll()
    assert change.restarted == "rewritten"
    assert [(j.finding["citation"], j.finding["round"], j.finding["line"])
            for j in change.outcome.judged] == [("20:18:15:06", "7", 16)]
    assert followed.audit.table_key == "RL-9/T5" and followed.audit.rounds == 3
    from tests.helpers.watch_writer import audited

    assert [j.finding["id"] for j in change.outcome.judged] == [
        f["id"] for f in audited(path) if f["round"] is not None]


def test_a_table_is_shown_once_under_its_key_though_its_header_came_in_pieces(tmp_path):
    """A table first seen with half its header was shown under its file's path, and once
    its first round ended under its key: two rows on the floor for one table."""
    import time

    from auditor.live.floor import LiveFloor
    from tests.helpers.watching import watching

    folder = tmp_path / "floor"
    folder.mkdir()
    floor = LiveFloor()
    watch, stop, thread, told, _ = watching(folder, tmp_path, floor)
    day = date.today().isoformat()
    text = _header(day) + round_text(1) + round_text(2)
    cut = text.index("table T4")

    def until(condition) -> None:
        deadline = time.time() + 30  # the watch's first loop loads the trends' reader
        while not condition():
            assert time.time() < deadline, "waited too long"
            time.sleep(0.05)

    with open(folder / "T4.bjh", "wb", buffering=0) as handle:
        handle.write(text[:cut].encode())  # `bjh 1` and the casino, not the table yet
        until(lambda: any(f.looked for f in watch.followed.values()))
        handle.write(text[cut:text.index("round 1")].encode())  # the header, no round
        until(lambda: floor.snapshot()["tables"])
        handle.write(text[text.index("round 1"):].encode())
        until(lambda: floor.snapshot()["tables"][-1]["rounds"] == 2)
    stop.set()
    thread.join(5)
    tables = floor.snapshot()["tables"]
    assert [(t["key"], t["rounds"], t["last_round"]) for t in tables] == [("RL-9/T4", 2, "2")]
    assert told == []


def test_the_first_rounds_are_judged_while_the_trend_flags_are_loaded(tmp_path) -> None:
    """The page's trend flags were read in the watch's loop, whose first turn loaded the
    trends' reader (over a second, more on a busy machine): no round was judged
    meanwhile. Measured in a process of its own, where nothing is loaded yet."""
    import subprocess
    import sys

    script = tmp_path / "first.py"
    script.write_text(f"""
import sys, threading, time
from pathlib import Path
from auditor.live.floor import LiveFloor
from auditor.live.watch import Watch, WatchOptions
folder = Path({str(tmp_path / 'floor')!r}); folder.mkdir()
floor = LiveFloor()
watch = Watch(WatchOptions(paths=[str(folder)], state={str(tmp_path / 's')!r},
                           out={str(tmp_path / 'o')!r}, record_days=False, poll=0.05,
                           rescan=0.1, tell=lambda _: None), floor)
stop = threading.Event()
threading.Thread(target=watch.run, args=(stop,), daemon=True).start()
time.sleep(0.2)
(folder / "T4.bjh").write_text(sys.stdin.read())
began = time.perf_counter()
while not floor.snapshot()["findings"]:
    time.sleep(0.01)
print(f"{{time.perf_counter() - began:.3f}}", "auditor.trends.flags" in sys.modules)
""", encoding="utf-8")
    text = _header(date.today().isoformat()) + round_text(1, paid="15")
    done = subprocess.run([sys.executable, str(script)], input=text, capture_output=True,
                          text=True, timeout=60, check=True,
                          env={**os.environ, "BJH_STORE": str(tmp_path / "none.sqlite")})
    took, _loaded = done.stdout.split()
    assert float(took) < 1.2, done.stdout  # was 1.8 s, with the reader loaded first


def test_a_round_corrected_far_before_the_end_of_a_growing_record_is_told(tmp_path):
    """A payout corrected in an early round while the table writes on (the file larger at
    the next poll): only the bytes just before the next round were compared, so the
    correction went unseen for the rest of the night. What was judged is compared whole
    every `recheck_every` seconds as the file grows (0 here: at every poll)."""
    from auditor.gaming_day import DEFAULT
    from auditor.live.follow import Followed

    day = date.today().isoformat()
    path = tmp_path / "T4.bjh"
    rounds = "".join(round_text(number) for number in range(1, 5))
    path.write_text(_header(day) + rounds, encoding="utf-8")
    followed, later = (Followed(str(path), DEFAULT, None, recheck_every=seconds)
                       for seconds in (0, 3600))
    assert followed.poll().outcome.last_round == later.poll().outcome.last_round == "4"
    corrected = _header(day) + round_text(1, paid="15") + "".join(
        round_text(number) for number in range(2, 5))
    assert len(corrected) == len(_header(day) + rounds)
    path.write_text(corrected + round_text(5), encoding="utf-8")
    change = followed.poll()
    assert change.restarted == "rewritten"
    assert [(j.finding["citation"], j.finding["round"]) for j in change.outcome.judged] == [
        ("20:18:15:06", "1")]
    # within the hour of the last whole comparison, only the bytes before round 5 are
    # compared: told at the next comparison, and by the day's run meanwhile
    assert later.poll().restarted is None
