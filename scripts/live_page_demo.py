"""The live page played from finished records, to look at it before `auditor watch` runs.

Audits the given records (sample_logs/ by default) into a temporary folder, then plays them
onto a LiveFloor round by round, the tables in turn, one round every PACE seconds: each
round open, then ended with its findings (those `auditor audit` found in it, with the
round's lines), as the watcher would write them. The page is served meanwhile:

    .venv/bin/python scripts/live_page_demo.py [--serve 127.0.0.1:8765] [--pace 1.0] [PATH…]

The figures shown are the audit's; only the pace is made up. Stop it with Ctrl-C.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import threading
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from auditor.cli import main as auditor
from auditor.live.floor import LiveFloor, TableState
from auditor.live.page import serve, serve_address

ROOT = Path(__file__).resolve().parent.parent
LICENCE = re.compile(r"^casino .* licence=(\S+)", re.M)
TABLE = re.compile(r"^table (\S+) game=(\S+)", re.M)
DEALER = re.compile(r"^dealer (\S+)", re.M)


def rounds(text: str) -> list[tuple[str, dict[int, str]]]:
    """Each round of a record: its number and its lines by number (from `round` to `end`)."""
    found: list[tuple[str, dict[int, str]]] = []
    current: dict[int, str] | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("round "):
            current = {}
            found.append((line.split()[1], current))
        if current is not None:
            current[number] = line
            if line.strip() == "end":
                current = None
    return found


def play(floor: LiveFloor, records: list[Path], findings: list[dict], pace: float,
         stop: threading.Event) -> None:
    def now() -> str:
        return datetime.now(UTC).isoformat(timespec="seconds")

    tables = []
    for path in records:
        text = path.read_text(encoding="utf-8", errors="replace")
        licence, table, dealer = LICENCE.search(text), TABLE.search(text), DEALER.search(text)
        key = f"{licence.group(1)}/{table.group(1)}" if licence and table else str(path)
        state = TableState(key, str(path), table.group(2) if table else None,
                           dealer.group(1) if dealer else None, None, None, 0, 0, now())
        mine = [f for f in findings if Path(f["file"]).name == path.name]
        tables.append([state, iter(rounds(text)), mine])
        floor.update_table(state)
    while tables and not stop.is_set():
        for entry in list(tables):
            state, remaining, mine = entry
            played = next(remaining, None)
            if played is None:
                tables.remove(entry)
                continue
            number, lines = played
            state = replace(state, open_round=number, updated=now())
            floor.update_table(state)
            if stop.wait(pace / 2):
                return
            judged = [f for f in mine if f.get("line") in lines]
            for finding in judged:
                floor.add_finding(finding, lines)
            entry[0] = state = replace(state, last_round=number, open_round=None,
                                       rounds=state.rounds + 1,
                                       findings=state.findings + len(judged), updated=now())
            floor.update_table(state)
            if stop.wait(pace / 2):
                return
    floor.notice("the demo has played every round of its records")


def command_line(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, default=[ROOT / "sample_logs"])
    parser.add_argument("--serve", default="127.0.0.1:8765", metavar="HOST:PORT")
    parser.add_argument("--pace", type=float, default=1.0, metavar="SECONDS")
    arguments = parser.parse_args(argv)
    host, port = serve_address(arguments.serve)
    records = sorted(p for path in arguments.paths
                     for p in ([path] if path.is_file() else path.glob("*.bjh")))
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        auditor(["audit", *map(str, records), "--out", str(out / "audit"), "--quiet",
                 "--store", str(out / "history.sqlite"), "--new-store"])
        findings = json.loads((out / "audit" / "findings.json").read_text("utf-8"))["findings"]
    floor, stop = LiveFloor(), threading.Event()
    player = threading.Thread(target=play, args=(floor, records, findings, arguments.pace,
                                                 stop), daemon=True)
    player.start()
    print(f"live page: http://{host if ':' not in host else f'[{host}]'}:{port}/ "
          f"({len(findings)} findings in {len(records)} records); Ctrl-C stops it",
          file=sys.stderr)
    try:
        serve(floor, host, port, stop)
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
    return 0


if __name__ == "__main__":
    sys.exit(command_line())
