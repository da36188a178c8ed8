"""Test cases as data: small records whose faulty lines carry their expected citations.

A case file (tests/cases/*.toml) has an optional shared `header` and a list of `case`
tables, each with `citation`, `name`, `kind` ("violating" or "compliant"), an optional
`header` of its own and a `record`. A line of the record that must yield a finding ends
with a marker comment `#! CITATION` (several are separated by spaces). The test audits the
header followed by the record and requires exactly the marked (citation, round, line)
findings: nothing more, nothing less. A compliant case has no markers.

A citation of a marker may be followed by what its finding must also hold, as `field=value`
words: its `seat`, `hand` and money (`expected`, `actual`, `difference`; `none` for no
amount), e.g. `#! 20:18:15:06 seat=s3 hand=s3h1 expected=30 actual=20`. A finding that
carries money must have its `expected` and `actual` stated.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from dataclasses import dataclass

from tests.helpers import ROOT

CASES = ROOT / "tests" / "cases"
_MARKER = re.compile(r"#!\s*(.+?)\s*$")
_ROUND = re.compile(r"^\s*(?:\d\d:\d\d:\d\d(?:\.\d+)?\s+)?round\s+(\S+)")
_END = re.compile(r"^\s*(?:\d\d:\d\d:\d\d(?:\.\d+)?\s+)?end\b")
STATED_FIELDS = ("seat", "hand", "expected", "actual", "difference")


@dataclass(frozen=True)
class Marked:
    """One finding a marker asks for, with the fields it states (field, value or None)."""
    citation: str
    round: str | None
    line: int
    stated: tuple[tuple[str, str | None], ...] = ()

    @property
    def key(self) -> tuple[str, str | None, int]:
        return (self.citation, self.round, self.line)


def parse_marker(words: list[str], round_id: str | None, line: int) -> list[Marked]:
    """The findings of one marker: each citation with the `field=value` words after it."""
    marked: list[Marked] = []
    for word in words:
        if "=" not in word:
            marked.append(Marked(word, round_id, line))
            continue
        name, _, value = word.partition("=")
        if not marked or name not in STATED_FIELDS or not value:
            raise ValueError(f"line {line}: {word!r} is not a field of a finding after its "
                             f"citation ({', '.join(STATED_FIELDS)})")
        last = marked[-1]
        if name in dict(last.stated):
            raise ValueError(f"line {line}: {name} stated twice for {last.citation}")
        marked[-1] = Marked(last.citation, round_id, line,
                            (*last.stated, (name, None if value == "none" else value)))
    return marked


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

    def marked(self) -> list[Marked]:
        """Every marked finding, in line order: a citation marked twice on a line is two."""
        found: list[Marked] = []
        current = None
        for number, line in enumerate(self.text.splitlines(), start=1):
            if match := _ROUND.match(line):
                current = match.group(1)
            marker = _MARKER.search(line)
            if marker:
                found.extend(parse_marker(marker.group(1).split(), current, number))
            if _END.match(line):
                current = None
        return found

    def expected(self) -> Counter:
        """The marked findings' (citation, round, line), counted."""
        return Counter(marked.key for marked in self.marked())


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
