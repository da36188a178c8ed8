"""The header against the house rules the commission approved (`--approved FILE`)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from auditor.checks.base import Check, FileView, register
from auditor.config import option_field
from auditor.findings import Finding


def _statement_line(statements: dict[int, str | None], key: str) -> int | None:
    """The header line that declares `key`: its `option` statement, else the `table`
    statement (game, decks, limits, and an option left at the format's default)."""
    table_line = None
    option = re.compile(rf"^\s*option\s+{re.escape(key)}\s*=", re.IGNORECASE)
    for number in sorted(statements):
        text = statements[number]
        if text is None:
            continue
        if option.match(text):
            return number
        if table_line is None and re.match(r"^\s*table\s", text):
            table_line = number
    return table_line


@register
class ApprovedHouseRules(Check):
    """Regulation: none of chapter 20:18:15 directly: the commission approves each
    licensee's house rules, and an inspector holds a table to what was approved.

    Violating: the approval file approves pay table 2 for RL-0412/T07 and the record's
    header says `option db21.paytable=1`; the header's `max=500` where 300 was approved;
    a table of a licence with no approval on file (one low finding for the file).

    Compliant: every game, deck count, limit and option the approval gives is the one the
    header declares (an option the header leaves out has the format's default).

    Reading: one finding per file and house rule, on the header statement that declares it
    (the `table` statement for game, decks and limits, or an option left at its default),
    naming both values and the approval. The rounds are still judged under the header's
    rules, which are what the players were dealt, so one unapproved rule is one finding,
    not one per payout. Without `--approved` this check finds nothing. A table's own
    approval wins over its licence's approval for every table."""

    citation = "record:approval"
    name = "record.approval"
    options = frozenset()  # the header's statements, not a table's rules
    severity = "medium"
    outside_file = "--approved"

    def file(self, view: FileView) -> Iterable[Finding]:
        approvals = view.approvals
        if approvals is None:
            return []
        config = view.config
        table_line = _statement_line(view.statements, "\0")
        approval = approvals.for_table(config.licence, config.table_id)
        if approval is None:
            who = (f"licence {config.licence}, table {config.table_id}" if config.licence
                   else f"table {config.table_id} (the header declares no licence)")
            return [self._finding(view, table_line, f"No approval of the house rules of "
                                  f"{who} is on file in {approvals.path}.", "low")]
        # Loaded by an audit with an approval file only (tests/house/test_startup_imports.py)
        from auditor.approvals import compared, declared

        header = declared(config, view.house_rules)
        unknown = {rule.key for rule in config.unknown}
        findings = []
        for key, approved in approval.rules:
            if key in unknown:
                continue  # record:header says the header does not let it be known
            value = header.get(key)
            if value is None and key not in ("min", "max"):
                if header.get("game") != dict(approval.rules).get("game", header.get("game")):
                    continue  # another game's option: the game's finding says it
                value_text = "nothing"
            else:
                if value is not None and compared(key, value) == approved:
                    continue
                value_text = "no limit" if value is None else f"{key}={value}"
            line = _statement_line(view.statements, key) if key not in (
                "game", "decks", "min", "max") else table_line
            field = option_field(key)
            said = (f"The header declares {value_text}" if field is None or value is None
                    or not config.assumes_default(field) else
                    f"The header does not declare {key} (judged under the default "
                    f"{value_text})")
            findings.append(self._finding(
                view, line, f"{said} where {approval.describe()} approved {key}={approved}.",
                None))
        return findings

    def _finding(self, view: FileView, line: int | None, message: str,
                 severity: str | None) -> Finding:
        config = view.config
        finding = Finding(citation=self.citation, rule=self.name, severity=self.severity,
                          file=view.file, line=line, table=config.table_id, game=config.game,
                          message=message, currency=config.currency)
        return finding.model_copy(update={"severity": severity}) if severity else finding
