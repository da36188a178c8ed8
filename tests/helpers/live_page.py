"""What the tests of the live page share: a table's state and a finding as the watch gives
them (hostile text where asked), the lines a finding stands on, and the page served in a
thread."""

from __future__ import annotations

import threading
import time

from auditor.live.floor import LiveFloor, TableState
from auditor.live.page import serve
from tests.helpers.waiting import WITHIN

PWN = "<script>window.__pwned=1</script>"
UPDATED = "2026-11-28T05:00:00+00:00"


def table(key: str = "RL-1/T1", **changed) -> TableState:
    fields = {"key": key, "file": "tables/t1.bjh", "game": "standard", "dealer": "D-7",
              "last_round": "3", "open_round": "4", "rounds": 3, "findings": 1,
              "updated": UPDATED, **changed}
    return TableState(**fields)


def finding(message: str = "paid 30, owed 20", **changed) -> dict:
    return {"id": "F-1", "citation": "20:18:15:09", "rule": "payout", "severity": "high",
            "file": "tables/t1.bjh", "line": 12, "round": "3", "table": "T1", "seat": "s2",
            "message": message, "evidence": [10], **changed}


LINES = {10: "09:01:01 bet s2h1 main 20", 11: "09:01:02 deal s2h1 9c",
         12: "09:01:08 settle s2h1 main win 30"}


class Served:
    """serve(...) in a thread on a free loopback port."""

    def __init__(self, floor: LiveFloor, port: int = 0) -> None:
        self.stop = threading.Event()
        self.ready = threading.Event()
        self.port = port
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, args=(floor,), daemon=True)
        self.thread.start()
        assert self.ready.wait(WITHIN), "the server did not start"
        assert self.error is None, f"the server failed: {self.error!r}"

    def _run(self, floor: LiveFloor) -> None:
        def started(port: int) -> None:
            self.port = port
            self.ready.set()

        try:
            serve(floor, "127.0.0.1", self.port, self.stop, started=started)
        except BaseException as error:  # kept for the test to report
            self.error = error
            self.ready.set()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def close(self, within: float = 5) -> float:
        began = time.monotonic()
        self.stop.set()
        self.thread.join(within)
        assert not self.thread.is_alive(), "serve() did not return after stop was set"
        return time.monotonic() - began
