"""The trend flags the live page shows: read from the store when the watch starts, then
once every `flags_every` seconds, not at every poll (a store read per poll would load the
store, and a flag raised meanwhile waits for the next read)."""

from __future__ import annotations

import threading
import time

from auditor.live.floor import LiveFloor
from auditor.live.watch import Watch, WatchOptions
from auditor.store import open_store, schema


def _flag(unit: str, night: str) -> dict:
    return {"question": "change", "kind": "dealer", "unit": unit, "partner": "",
            "night": night, "since": "2026-11-17", "raised": f"{night}T07:00:00Z"}


def test_the_flags_are_read_at_start_then_once_every_flags_every_seconds(tmp_path) -> None:
    store = tmp_path / "floor.sqlite"
    engine = open_store(str(store), new_store=True)
    with engine.begin() as connection:
        connection.execute(schema.trend_flags.insert(), [_flag("D-1004", "2026-11-19")])
    folder = tmp_path / "floor"
    folder.mkdir()
    floor = LiveFloor()
    watch = Watch(WatchOptions(paths=[str(folder)], store=str(store), state=str(tmp_path / "s"),
                               out=str(tmp_path / "out"), record_days=False, poll=0.02,
                               flags_every=3600, tell=lambda text: None), floor)
    stop = threading.Event()
    thread = threading.Thread(target=watch.run, args=(stop,), daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not floor.snapshot()["flags"] and time.monotonic() < deadline:
            time.sleep(0.05)
        first = [{"night": "2026-11-19", "kind": "dealer", "unit": "D-1004", "partner": None,
                  "question": "change", "since": "2026-11-17"}]
        assert floor.snapshot()["flags"] == first
        # a later night's flag: not read before flags_every has passed
        with engine.begin() as connection:
            connection.execute(schema.trend_flags.insert(), [_flag("D-2002", "2026-11-20")])
        time.sleep(0.6)
        assert floor.snapshot()["flags"] == first
        assert [c.kind for c in floor.changes_after(0)] == ["flags"]
    finally:
        stop.set()
        thread.join(5)
        engine.dispose()
