"""A watch run in a thread as the tests of `auditor watch` run it, the alerts it wrote, and
a record planting findings that are of no one round."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

from auditor.live.floor import LiveFloor
from auditor.live.watch import Watch, WatchOptions
from tests.helpers.waiting import WITHIN, until


def watching(folder: Path, tmp: Path, floor: LiveFloor | None = None, **options):
    """A watch of `folder` in a thread; (the watch, its stop event, its thread, what it
    told, when each alert was taken)."""
    told: list[str] = []
    taken: dict[str, list[float]] = {}
    settings = dict(paths=[str(folder)], state=str(tmp / "state"), out=str(tmp / "out"),
                    alert_jsonl=str(tmp / "alerts.jsonl"), alert_on="low", poll=0.05,
                    rescan=0.1, record_days=False, tell=told.append,
                    sent_at=lambda id_, when: taken.setdefault(id_, []).append(when))
    settings.update(options)
    watch = Watch(WatchOptions(**settings), floor)
    stop = threading.Event()
    thread = threading.Thread(target=watch.run, args=(stop,), daemon=True)
    thread.start()
    return watch, stop, thread, told, taken


def caught_up(watch: Watch, *paths: Path, within: float = WITHIN) -> None:
    """Wait until the watch has read each of `paths` to its present size and judged what it
    read (a pass of its loop ended after that read: its findings offered and on the floor),
    then until every sink has sent what it was given. The event itself, not a time: a
    loaded machine takes longer than any guess."""
    def read_whole() -> bool:
        followed = [watch.followed.get(str(path)) for path in paths]
        return all(f is not None and f.size == os.path.getsize(f.path) for f in followed)

    until(read_whole, within, f"the watch to read {', '.join(map(str, paths))}")
    seen = watch.passes
    until(lambda: watch.passes > seen, within, "a pass of the watch's loop to end")
    assert watch.drain(within), "the sinks did not send what they were given"


def alerts_of(path: Path) -> list[dict]:
    """The alerts of an --alert-jsonl file, in the order written."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def planted_between_rounds(folder: Path) -> Path:
    """A record planting findings that are of no one round: a header option the format
    does not know (record:header), a card burned between rounds past the shoe's count
    (simulated), and, written in: three unreadable lines in a row between two rounds (one
    record:syntax finding, whose range grows with each line written), a statement outside
    any round (record:reference), a round whose `end` is missing (known for a fault only
    once the next round begins), and an unreadable line between the last round and
    `close`."""
    folder.mkdir(parents=True, exist_ok=True)
    subprocess_args = [sys.executable, "-m", "auditor", "simulate", "--game", "standard",
                       "--rounds", "60", "--faults", "0.3", "--seed", "3", "--table", "T01",
                       "--date", "2026-11-20", "--out", str(folder / "sim"), "--quiet",
                       "--header-fault", "UnknownHeaderOption"]
    subprocess.run(subprocess_args, check=True)
    source = folder / "sim" / "standard-T01.bjh"
    lines = source.read_text(encoding="utf-8").split("\n")
    ends = [number for number, line in enumerate(lines) if line == "end"]
    assert lines[-2].endswith(" close") and lines[-1] == ""
    planted = {ends[9]: ["@@ scrambled 1", "@@ scrambled 2", "@@ scrambled 3"],
               ends[19]: ["stand s1h1"], len(lines) - 3: ["@@ scrambled before close"]}
    unclosed = ends[29]  # followed by the next round's `round` line, not `end`
    out: list[str] = []
    for number, line in enumerate(lines):
        if number != unclosed:
            out.append(line)
        out.extend(planted.get(number, []))
    path = folder / "planted.bjh"
    path.write_text("\n".join(out), encoding="utf-8")
    return path
