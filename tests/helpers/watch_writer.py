"""What the tests of `auditor watch` share: simulated records, a writer that appends one line
by line as a table would (each `end` line's write time noted), and the audit to compare with."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

from auditor import api
from auditor.gaming_day import DEFAULT
from auditor.identity import apply_identity
from auditor.run import merge

END_WORDS = ("end",)


def simulated(folder: Path, game: str = "standard", rounds: int = 60, seed: str = "7",
              table: str = "T01", day: str = "2026-11-20", faults: float = 0.15) -> Path:
    """A simulated record with planted faults (its bytes are the seed's)."""
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "auditor", "simulate", "--game", game, "--rounds",
                    str(rounds), "--faults", str(faults), "--seed", seed, "--table", table,
                    "--date", day, "--out", str(folder), "--quiet"], check=True)
    return next(folder.glob(f"*{table}.bjh"))


def is_end(line: str) -> bool:
    words = line.split()
    return bool(words) and (words[0] == "end" or (len(words) > 1 and words[1] == "end"
                                                   and words[0][:1].isdigit()))


class Writer(threading.Thread):
    """Appends `source`'s lines to `target` one by one, `pause` seconds apart; with `halves`,
    each line in two writes (its first half flushed alone). `ends`: line number -> the time
    its `end` line was flushed."""

    def __init__(self, source: Path, target: Path, pause: float = 0.001, halves: bool = False,
                 first: int = 1, last: int | None = None, mode: str = "a") -> None:
        super().__init__(daemon=True)
        self.lines = source.read_bytes().splitlines(keepends=True)
        self.target, self.pause, self.halves = target, pause, halves
        self.first, self.last, self.mode = first, last or len(self.lines), mode
        self.ends: dict[int, float] = {}

    def run(self) -> None:
        with open(self.target, self.mode + "b", buffering=0) as handle:
            for number in range(self.first, self.last + 1):
                line = self.lines[number - 1]
                if self.halves and len(line) > 2:
                    handle.write(line[:len(line) // 2])
                    time.sleep(self.pause)
                    handle.write(line[len(line) // 2:])
                else:
                    handle.write(line)
                if is_end(line.decode("utf-8", "replace")):
                    self.ends[number] = time.time()
                time.sleep(self.pause)


def end_of_round(ends: list[int], line: int) -> int:
    """The `end` line of the round holding `line`."""
    return min(end for end in ends if end >= line)


def of_rounds(findings: list[dict], path: Path) -> list[dict]:
    """Of the audit's `findings` of the record at `path`, those a round's `end` alone
    decides: what the file's rounds give before the file's own checks and the checks
    across files (Ten sticks' punched cards handed in) are run."""
    from auditor.audit import FileAudit
    from auditor.source import SourceFile

    audit = FileAudit(str(path))
    audit.read(SourceFile(str(path)))
    rounds = {(f.citation, f.line, f.seat, f.hand, f.message) for f in audit.result.findings}
    return [f for f in findings
            if (f["citation"], f["line"], f["seat"], f["hand"], f["message"]) in rounds]


def of_record(findings: list[dict], path: Path) -> list[dict]:
    """Of the audit's `findings` of the record at `path`, those the watch judges as the
    lines they need are written: the rounds' and the file's own (its header, and what lies
    between rounds), all but those of the checks across files (Ten sticks' punched cards
    handed in), which wait for the gaming day's run."""
    from auditor.audit import audit_file

    own = {(f.citation, f.line, f.seat, f.hand, f.message)
           for f in audit_file(str(path)).findings}
    return [f for f in findings
            if (f["citation"], f["line"], f["seat"], f["hand"], f["message"]) in own]


def audited(path: Path) -> list[dict]:
    """The findings `auditor audit` gives the finished file, with their IDs (as findings.json
    holds them, but for table_key)."""
    result = merge([api.audit_input(str(path))])
    apply_identity(result, DEFAULT)
    return [finding.as_dict() for finding in result.findings]
