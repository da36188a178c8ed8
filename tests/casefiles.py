"""Test cases as data: small records whose faulty lines carry their expected citations.

A case file (tests/cases/*.toml) has an optional shared `header` and a list of `case`
tables, each with `citation`, `name`, `kind` ("violating" or "compliant"), an optional
`header` of its own and a `record`. A line of the record that must yield a finding ends
with a marker comment `#! CITATION` (several are separated by spaces). The test audits the
header followed by the record and requires exactly the marked (citation, round, line)
findings: nothing more, nothing less. A compliant case has no markers.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

CASES = Path(__file__).parent / "cases"
_MARKER = re.compile(r"#!\s*(.+?)\s*$")
_ROUND = re.compile(r"^\s*(?:\d\d:\d\d:\d\d(?:\.\d+)?\s+)?round\s+(\S+)")
_END = re.compile(r"^\s*(?:\d\d:\d\d:\d\d(?:\.\d+)?\s+)?end\b")


@dataclass(frozen=True)
class Case:
    source: str
    citation: str
    name: str
    kind: str
    text: str

    @property
    def test_id(self) -> str:
        return f"{self.citation}-{self.kind}-{self.name}"

    def expected(self) -> Counter:
        """The marked findings, counted: a citation marked twice on a line is two findings."""
        found: Counter = Counter()
        current = None
        for number, line in enumerate(self.text.splitlines(), start=1):
            if match := _ROUND.match(line):
                current = match.group(1)
            marker = _MARKER.search(line)
            if marker:
                for citation in marker.group(1).split():
                    found[(citation, current, number)] += 1
            if _END.match(line):
                current = None
        return found


def load_cases() -> list[Case]:
    cases = []
    for path in sorted(CASES.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        shared = data.get("header", "")
        for entry in data.get("case", []):
            header = entry.get("header", shared)
            text = header.strip("\n") + "\n" + entry["record"].strip("\n") + "\n"
            if entry["kind"] not in ("violating", "compliant"):
                raise ValueError(f"{path.name}: {entry['name']}: kind is violating or compliant")
            cases.append(Case(path.name, entry["citation"], entry["name"], entry["kind"], text))
    return cases
