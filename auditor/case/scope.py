"""What a case covers: one licensee, optionally narrowed to tables, gaming dates and
citations. The same scope picks the inputs and findings when the case is made and when it
is verified (it is written into the manifest)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from auditor.findings import Finding
    from auditor.results import InputSummary


@dataclass(frozen=True)
class Scope:
    licensee: str | None = None  # a licence ID or a casino name, as the header gives them
    tables: tuple[str, ...] = ()  # table IDs; none: every table of the licensee
    date_from: str | None = None  # YYYY-MM-DD, gaming dates, both ends included
    date_until: str | None = None
    citations: tuple[str, ...] = ()  # a citation, or a section that holds it

    def takes_input(self, summary: InputSummary) -> bool:
        """An input is in scope when its header names the licensee (licence or casino), its
        table is one asked for, and its gaming dates meet the dates asked for. An input whose
        header was not read names no licensee: it is in no case."""
        if summary.error or summary.table is None:
            return False
        if self.licensee is not None and self.licensee not in (summary.licence,
                                                               summary.casino):
            return False
        if self.tables and summary.table not in self.tables:
            return False
        if self.date_from or self.date_until:
            if summary.first_date is None:
                return False
            if self.date_from and (summary.last_date or "") < self.date_from:
                return False
            if self.date_until and summary.first_date > self.date_until:
                return False
        return True

    def holds(self, finding: Finding) -> bool:
        """A finding of an input in scope is in scope when its gaming date is in the dates
        asked for (a finding with no date, about the whole record, stays with its record)
        and its citation is one asked for."""
        if finding.date is not None:
            if self.date_from and finding.date < self.date_from:
                return False
            if self.date_until and finding.date > self.date_until:
                return False
        return not self.citations or any(_cites(finding.citation, wanted)
                                         for wanted in self.citations)

    def as_document(self) -> dict[str, Any]:
        return {"licensee": self.licensee, "tables": list(self.tables),
                "from": self.date_from, "until": self.date_until,
                "citations": list(self.citations)}

    @classmethod
    def of_document(cls, document: dict[str, Any]) -> Scope:
        return cls(licensee=document.get("licensee"),
                   tables=tuple(document.get("tables") or ()),
                   date_from=document.get("from"), date_until=document.get("until"),
                   citations=tuple(document.get("citations") or ()))

    def narrowing(self) -> list[str]:
        """The narrowing asked for, in words."""
        said = []
        if self.tables:
            said.append("table " + ", ".join(self.tables))
        if self.date_from or self.date_until:
            said.append(f"gaming dates {self.date_from or 'any'} to {self.date_until or 'any'}")
        if self.citations:
            said.append("citation " + ", ".join(self.citations))
        return said


def _cites(citation: str, wanted: str) -> bool:
    """`20:18:15:30.10` asks for every subsection of 30.10, `20:18:15:30.10(12)` for one."""
    return citation == wanted or citation.startswith(wanted + "(")
