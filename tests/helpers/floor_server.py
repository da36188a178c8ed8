"""A live page served by a process of its own over a floor of many findings, for the tests
that measure what the server holds (its memory, read from /proc, is its own alone).

    python -m tests.helpers.floor_server FINDINGS LINE_LENGTH

prints the port once it serves, and stops when its standard input closes."""

from __future__ import annotations

import sys
import threading

from auditor.live.floor import LiveFloor
from auditor.live.page import serve
from tests.helpers.live_page import finding


def floor_of(findings: int, line_length: int) -> LiveFloor:
    """`findings` findings, each with 20 lines of `line_length` characters."""
    floor = LiveFloor()
    for number in range(1, findings + 1):
        lines = {line: f"{number:05d}:{line:02d} " + "x" * (line_length - 9)
                 for line in range(1, 21)}
        floor.add_finding(finding(id=f"F-{number}"), lines)
    return floor


def main() -> None:
    floor = floor_of(int(sys.argv[1]), int(sys.argv[2]))
    stop = threading.Event()

    def started(port: int) -> None:
        print(port, flush=True)

    server = threading.Thread(target=serve, args=(floor, "127.0.0.1", 0, stop),
                              kwargs={"started": started})
    server.start()
    sys.stdin.read()
    stop.set()
    server.join(10)


if __name__ == "__main__":
    main()
