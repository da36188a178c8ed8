"""What an audit judges: `--select` and `--ignore` terms, resolved to the checks that run.

A term is a citation or a prefix of one, full or short (`20:18:15:30.10`, `30.10(4)`,
`30.02(11)`), a game (`switch`: the rules of that game, the checks named `switch.*`;
`standard`: the chapter's standard sections) or a rule name (`db21.past_posting`). With no
`--select` every check is selected; `--ignore` then takes checks out. Record checks
(`record:*`) are always judged: they say whether the rest of the record could be.

The resolved `Judging` travels with every task (a process pool, the cluster), so a worker
runs exactly the checks the parent chose, and an unselected check does no work.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from auditor.checks.base import GAMES, Check, citation_sort_key
from auditor.fieldwise import Fieldwise


class SelectionError(ValueError):
    """A term that names no citation, game or rule; the message names the nearest."""


def plain(text: str) -> str:
    """A citation as a person may type it: without the chapter, the paragraph sign, spaces
    or case (`30.02(11)` is `20:18:15:30.02(¶11)`), as `auditor rules show` reads them."""
    return text.replace("¶", "").replace(" ", "").removeprefix("20:18:15:").lower()


@dataclass(frozen=True, repr=False)
class Judging(Fieldwise):
    """What is judged in a run: the checks by citation (None: every check) and the
    commission's approved house rules (auditor/approvals.py), if given."""

    citations: frozenset[str] | None = None
    approvals: Any = None  # approvals.Approvals
    # `audit --finished`: every file is a whole record, though it lacks `close`: a round
    # open at its end is judged (record:reference), never set aside as still being dealt.
    finished: bool = False
    # The earliest date (YYYY-MM-DD) a record may still be being written on: a file that
    # ends inside a round dated before it is an old record cut short, judged as the
    # catalog says; None: a round of any date may still be dealt (undated rounds always).
    live_from: str | None = None

    def may_be_live(self, day: str | None) -> bool:
        """Whether a round of `day` may still be being dealt."""
        if self.finished:
            return False
        if self.live_from is None or day is None:
            return True
        # yesterday, today or tomorrow (a clock a time zone ahead): a round dated later is
        # not being dealt tonight, and is judged, so that a date cannot hide a fault
        return self.live_from <= day <= _days_after(self.live_from, 2)

    def judges(self, check: Check) -> bool:
        return (self.citations is None or check.citation in self.citations
                or check.citation.startswith("record:"))


RECORD = "record"
"""The term that selects the record checks alone: a run that judges the record and asks for
nothing of the regulation says so (`--select record`)."""


def _matches(term: str, check: Check) -> bool:
    if term == RECORD:
        return check.citation.startswith("record:")
    if term in GAMES:
        return check.name.startswith(f"{term}.")
    if term == check.name:
        return True
    wanted, citation = plain(term), plain(check.citation)
    # A prefix ends where a part of the citation ends: `30.10` is 30.10(1) to 30.10(12),
    # never 30.1; `20:18:15` is every section of the chapter.
    return (citation == wanted or citation.startswith(wanted + "(")
            or (wanted in ("20:18:15", "") and not check.citation.startswith("record:")))


def _known_terms(citations: Iterable[str], checks: Iterable[Check]) -> list[str]:
    terms = set(GAMES) | {c.name for c in checks} | {RECORD}
    for citation in citations:
        terms.add(citation)
        terms.add(plain(citation))
        if "(" in citation:
            terms.add(citation.split("(")[0])
    return sorted(terms)


def resolve_terms(terms: Iterable[str], checks: dict[str, Check],
                  citations: Iterable[str]) -> set[str]:
    """The citations of the checks the terms name. A term that names a subsection of the
    rule base no check judges (not checkable) selects nothing, and is no error."""
    citations = list(citations)
    known = {plain(c) for c in citations}
    found: set[str] = set()
    for term in terms:
        term = term.strip()
        hits = {c for c, check in checks.items() if _matches(term, check)}
        prefix = plain(term)
        named = (term in GAMES or term == RECORD or prefix in known or prefix == "20:18:15"
                 or any(plain(c).startswith(prefix + "(") for c in citations))
        if not hits and not named:
            from difflib import get_close_matches  # loaded by a term that names nothing

            near = get_close_matches(term, _known_terms(citations, checks.values()),
                                     n=1, cutoff=0.4)
            hint = f"; the nearest is {near[0]}" if near else ""
            raise SelectionError(f"{term!r} names no citation, game or rule{hint} "
                                 "(`auditor rules` lists them)")
        found |= hits
    return found


def judging_for(select: Iterable[str], ignore: Iterable[str], approvals: Any = None
                ) -> Judging:
    """The run's `Judging` for the terms given (raises SelectionError)."""
    from auditor import checks as _checks  # noqa: F401  (registers every check)
    from auditor.checks.base import registry
    from auditor.rulebase import rule_entries

    select, ignore = list(select), list(ignore)
    checks = registry()
    citations = list(rule_entries())
    for term in ignore:
        if plain(term).startswith("record"):
            raise SelectionError(f"{term!r}: record findings are always judged (they say "
                                 "whether the rest of the record could be)")
    if not select and not ignore:
        return Judging(None, approvals)
    selected = resolve_terms(select, checks, citations) if select else set(checks)
    chosen = selected - resolve_terms(ignore, checks, citations)
    if (all(c.startswith("record:") for c in chosen)
            and not any(_names_the_record(term, checks, citations) for term in select)):
        raise SelectionError(_judges_nothing(select, ignore, selected))
    chosen |= {c for c in checks if c.startswith("record:")}
    return Judging(frozenset(chosen), approvals)


def _names_the_record(term: str, checks: dict[str, Check], citations: list[str]) -> bool:
    """A term that asks for record checks alone (`record`, `record:header`)."""
    hits = resolve_terms([term], checks, citations)
    return bool(hits) and all(c.startswith("record:") for c in hits)


def _judges_nothing(select: list[str], ignore: list[str], selected: set[str]) -> str:
    """Why a selection judges no subsection of the regulation (a run that judged nothing
    would pass as one that found nothing: refused, unless the record alone is asked for)."""
    named = " ".join(f"--select {t}" for t in select)
    dropped = " ".join(f"--ignore {t}" for t in ignore)
    if select and not any(not c.startswith("record:") for c in selected):
        why = (f"{named} names only subsections that no record can show (not checkable, "
               "see `auditor rules`)")
    elif select:
        why = f"{dropped} takes out every rule that {named} chooses"
    else:
        why = f"{dropped} takes out every rule of the regulation"
    return (f"{why}: no subsection of the regulation would be judged (to judge the record "
            f"alone, --select {RECORD})")


def printable(text: str) -> str:
    """Text for a terminal or a log: a control character (an escape sequence, a newline
    that would forge a line) shown as its code, never acted on."""
    return "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in text)


def judged_text(judged: dict[str, Any]) -> str:
    """The terminal's line on what was judged (summary.csv and findings.csv count only the
    findings of what was judged; findings.json and report.html name it too)."""
    parts = []
    if judged.get("select") or judged.get("ignore"):
        chosen = "; ".join(part for part in (
            "selected " + ", ".join(judged["select"]) if judged.get("select") else "",
            "ignored " + ", ".join(judged["ignore"]) if judged.get("ignore") else "") if part)
        parts.append(f"Judged in part ({chosen}): {len(judged['judged'])} subsection(s) "
                     f"judged, record findings always; not judged: "
                     f"{', '.join(judged['not_judged']) or 'none'}. summary.csv and "
                     "findings.csv count only what was judged.")
    if judged.get("approved"):
        parts.append(f"House rules held to the approvals in {judged['approved']}.")
    return printable(" ".join(parts))


def judged_block(judging: Judging, select: list[str], ignore: list[str]) -> dict[str, Any]:
    """What a run judged and did not, as every output names it (findings.json's `auditor`
    block, the report, the terminal)."""
    from auditor.checks.base import registry

    checks = registry()
    chosen = set(checks) if judging.citations is None else set(judging.citations)
    return {"select": select, "ignore": ignore,
            "judged": sorted(chosen, key=citation_sort_key),
            "not_judged": sorted(set(checks) - chosen, key=citation_sort_key)}


def _days_after(day: str, days: int) -> str:
    """The date `days` after ISO date `day` (`day` itself when it is not one)."""
    from datetime import date, timedelta

    try:
        return (date.fromisoformat(day) + timedelta(days=days)).isoformat()
    except ValueError:
        return day
