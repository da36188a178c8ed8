"""`auditor rules`: which citation is checked by what, and one rule's documentation."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from auditor import checks as _checks  # noqa: F401  (registers every check)
from auditor.checks.base import registry
from auditor.refusal import Refused
from auditor.rule_coverage import coverage_rows, resolve_citation
from auditor.rulebase import rule_entries


def markdown_table() -> str:
    """The rule base as a Markdown table, as the README shows it."""
    lines = ["| citation | title | checked by | severity |", "|---|---|---|---|"]
    for row in coverage_rows():
        checked = f"`{row['rule']}`" if row["rule"] else f"not checkable: {row['why']}"
        lines.append(f"| {row['citation']} | {row['title']} | {checked} | {row['severity']} |")
    return "\n".join(lines) + "\n"


def show_rules(action: str, citation: str | None, console: Console,
               markdown: bool = False, as_of: str | None = None) -> int:
    if action == "show":
        return _show(citation, console)
    if as_of is not None:
        return _as_of(as_of, console)
    if markdown:
        for line in markdown_table().splitlines():
            console.print(line, markup=False)
        return 0
    table = Table(title="The rule base")
    for column in ("citation", "title", "status", "rule", "severity"):
        table.add_column(column)
    for row in coverage_rows():
        table.add_row(row["citation"], row["title"],
                      row["status"] if row["rule"] else f"not checkable: {row['why']}",
                      row["rule"], row["severity"])
    console.print(table)
    return 0


def _as_of(as_of: str, console: Console) -> int:
    """The rules in force on a gaming date, and those whose text is in force only later
    (a round of that date is not judged by them)."""
    from datetime import date

    try:
        day = date.fromisoformat(as_of).isoformat()
    except ValueError:
        raise Refused(f"auditor: --as-of {as_of!r} is not a date; write YYYY-MM-DD") from None
    table = Table(title=f"The rule base on {day}")
    for column in ("citation", "title", "in force", "rule", "severity"):
        table.add_column(column)
    for row in coverage_rows(day):
        since = f" (from {row['effective']})" if row["effective"] else ""
        status = ("in force" if row["in_force"] == "yes" else "not yet in force") + since
        if not row["rule"]:
            status += f"; not checkable: {row['why']}"
        table.add_row(row["citation"], row["title"], status, row["rule"], row["severity"])
    console.print(table)
    return 0


def _show(citation: str | None, console: Console) -> int:
    entries = rule_entries()
    if not citation:
        raise Refused("usage: auditor rules show CITATION  (e.g. 20:18:15:06, 30.10(4), "
                      "30.02(11), record:syntax); `auditor rules` lists them")
    known = resolve_citation(citation, entries)
    if known is None:
        raise Refused(f"auditor: no rule {citation}; `auditor rules` lists them")
    entry = entries[known]
    console.print(f"{entry.citation}  {entry.title}", markup=False)
    console.print()
    for line in f"The regulation: \"{entry.text.strip()}\"".splitlines():
        console.print(line, markup=False)
    console.print()
    if entry.effective is not None:  # rounds dated earlier are not judged by it
        console.print(f"In force from {entry.effective.isoformat()}.", markup=False)
        console.print()
    check = next((c for c in registry().values() if c.name == entry.check), None)
    if check is None:
        console.print(f"Not checkable from a hand record: {entry.not_checkable}", markup=False)
        return 0
    console.print(f"Checked by {check.name} (severity {check.severity}; games: "
                  f"{', '.join(sorted(check.games))})", markup=False)
    console.print()
    for line in check.documentation().splitlines():
        console.print(line, markup=False)
    return 0
