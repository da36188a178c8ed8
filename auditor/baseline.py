"""Comparison with an earlier run: which findings are new, which persist, which are gone.

The earlier run is its `findings.json`. Findings are matched by their stable ID, as many
times as each ID occurs: two findings with one ID now against one earlier make one
persisting and one new (IDs are unique within a file; one ID occurs twice in a run when a
record is given twice, or between runs of different rule bases or recipes).

What the comparison keeps of each earlier finding is checked on reading: a hand-edited
baseline (`"severity": 5`, a list for a citation) is refused, naming the file, the finding
and the field, rather than copied into `resolved` as it is.

**Only what both runs judged is compared.** A run of `--select`/`--ignore` judged part of
the rule base (its `not_judged` citations, auditor/selection.py). A finding of a citation
the earlier run did not judge is `not compared`, never `new` (nothing says it was not there
before); an earlier finding of a citation this run did not judge is neither resolved nor
persisting (nobody looked for it again): it is counted, with its citation, in
`Comparison.not_compared`. A run recorded before runs named what they left out judged
every check. `--fail-on-new` still fails on a finding not compared (auditor/policy.py): it
is not known to be old.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from auditor.findings import Finding, changed

if TYPE_CHECKING:
    from auditor.results import AuditResult

RESOLVED_FIELDS = ("id", "citation", "severity", "file", "line", "round", "table", "seat",
                   "hand", "date", "message")
"""What `resolved` keeps of each earlier finding: enough to recognise it."""


class BaselineError(Exception):
    """A baseline that cannot be used; the message says why."""


class EarlierFinding(BaseModel):
    """What `resolved` shows of an earlier finding, each field of the kind the auditor
    writes (strict: `"line": "12"` or `true` is not a line)."""

    # defer_build: built at first use, not by an audit without a baseline file
    model_config = ConfigDict(extra="ignore", strict=True, defer_build=True)

    id: str = Field(pattern=r"^BJH-[0-9A-F]{16}$")
    citation: str
    severity: Literal["high", "medium", "low"]
    file: str
    line: int | None = Field(default=None, ge=1)
    round: str | None = None
    table: str | None = None
    seat: str | None = None
    hand: str | None = None
    date: str | None = None
    message: str

    @field_validator("*")
    @classmethod
    def _text(cls, value: Any) -> Any:
        """JSON's `\\ud800` is no character: it could not be written out again."""
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as error:
                raise ValueError("holds an escape that is no character (a lone surrogate)"
                                 ) from error
        return value


class EarlierFindings(list):
    """An earlier findings.json's findings (as `resolved_fields` gives them), and the
    citations its run did not judge (`auditor.judging.not_judged`; none if it names none)."""

    not_judged: frozenset[str] = frozenset()


def load_baseline(path: str | Path) -> EarlierFindings:
    """The findings of an earlier findings.json, each with its ID, and what its run left
    unjudged."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, ValueError) as error:  # ValueError: not UTF-8, or a NUL in the path
        raise BaselineError(f"{path}: cannot be read ({error})") from error
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise BaselineError(f"{path}: line {error.lineno}: not JSON ({error.msg})") from error
    except RecursionError as error:  # the decoder recurses once per level of nesting
        raise BaselineError(f"{path}: nested too deeply to be an auditor findings.json "
                            "(arrays or objects inside each other hundreds of levels down)"
                            ) from error
    findings = document.get("findings") if isinstance(document, dict) else None
    if not isinstance(findings, list) or not all(isinstance(f, dict) for f in findings):
        raise BaselineError(f"{path}: not an auditor findings.json (no `findings` list)")
    without = sum(1 for f in findings if not isinstance(f.get("id"), str))
    if without:
        raise BaselineError(f"{path}: {without} finding(s) without an `id`: it was written "
                            "by an auditor older than stable finding IDs")
    for number, finding in enumerate(findings, start=1):
        try:
            EarlierFinding.model_validate(finding)
        except ValidationError as error:
            first = error.errors()[0]
            field = ".".join(str(part) for part in first["loc"]) or "finding"
            raise BaselineError(
                f"{path}: finding {number} ({finding['id']!r}): `{field}`: "
                f"{_problem(first)}; not a findings.json the auditor wrote (edited by "
                "hand?)") from error
    earlier = EarlierFindings(resolved_fields(findings))
    earlier.not_judged = _not_judged(path, document)
    return earlier


def _not_judged(path: str | Path, document: dict[str, Any]) -> frozenset[str]:
    """The citations the baseline's run did not judge, as its `auditor.judging` names them."""
    judging = document.get("auditor")
    judging = judging.get("judging") if isinstance(judging, dict) else None
    named = judging.get("not_judged", []) if isinstance(judging, dict) else []
    if not isinstance(named, list) or not all(isinstance(c, str) for c in named):
        raise BaselineError(f"{path}: `auditor.judging.not_judged` is not a list of "
                            "citations; not a findings.json the auditor wrote (edited by "
                            "hand?)")
    return frozenset(named)


def _problem(error: dict[str, Any]) -> str:
    shown = repr(error.get("input"))
    shown = shown if len(shown) <= 40 else shown[:40] + "…"
    if error["type"] == "missing":
        return "missing"
    return f"{error['msg'].removeprefix('Value error, ')}, not {shown}"


NOT_COMPARED = "not compared"  # a finding's mark: its citation one of the runs did not judge


@dataclass(frozen=True)
class Unjudged:
    """The citations each of the two runs compared left unjudged (`not_judged`)."""

    earlier: frozenset[str] = frozenset()
    later: frozenset[str] = frozenset()

    def compared(self, citation: str) -> bool:
        """Whether both runs judged `citation`."""
        return citation not in self.earlier and citation not in self.later


def compare(result: AuditResult, earlier: list[dict[str, Any]],
            unjudged: Unjudged | None = None, earlier_run: int | str | None = None) -> None:
    """Mark each finding of a run held in memory new, persisting or not compared, in place,
    and list the earlier findings now gone (`Comparison`)."""
    comparison = Comparison(earlier, unjudged)
    findings = result.findings
    for place, finding in enumerate(findings):  # in place: each replaced finding freed at once
        findings[place] = comparison(finding)
    result.resolved = comparison.resolved()
    result.not_compared = comparison.not_compared(earlier_run)


class Comparison:
    """Marks findings new, persisting or not compared, one at a time in the run's order,
    against the earlier run's; then says which earlier findings are gone, and what was not
    compared (`unjudged`: the citations either run did not judge)."""

    def __init__(self, earlier: list[dict[str, Any]], unjudged: Unjudged | None = None
                 ) -> None:
        self.unjudged = unjudged or Unjudged()
        compared = self.unjudged.compared
        self.earlier = [f for f in earlier if compared(f["citation"])]
        self.left_out = Counter(f["citation"] for f in earlier if not compared(f["citation"]))
        self.remaining = Counter(f["id"] for f in self.earlier)
        self.unmatched: Counter = Counter()  # this run's findings not compared, by citation

    def __call__(self, finding: Finding) -> Finding:
        if not self.unjudged.compared(finding.citation):
            self.unmatched[finding.citation] += 1
            return changed(finding, baseline=NOT_COMPARED)
        if self.remaining[finding.id] > 0:
            self.remaining[finding.id] -= 1
            return changed(finding, baseline="persisting")
        return changed(finding, baseline="new")

    def resolved(self) -> list[dict[str, Any]]:
        """What is left over of each earlier ID, in the earlier order."""
        remaining, resolved = self.remaining, []
        for finding in self.earlier:
            if remaining[finding["id"]] > 0:
                remaining[finding["id"]] -= 1
                resolved.append(_resolved_form(finding))
        return resolved

    def not_compared(self, earlier_run: int | str | None) -> dict[str, Any] | None:
        """What the comparison left out, as findings.json's `auditor.not_compared` holds it;
        None when both runs judged the same citations. `run`: the earlier run (its number,
        or the baseline file)."""
        unjudged = self.unjudged
        by_baseline, by_this = unjudged.earlier - unjudged.later, unjudged.later - unjudged.earlier
        if not by_baseline and not by_this:
            return None
        from auditor.checks.base import citation_sort_key

        def ordered(citations: Iterable[str]) -> list[str]:
            return sorted(citations, key=citation_sort_key)

        return {"run": earlier_run,
                "findings": sum(self.unmatched.values()),
                "citations": ordered(self.unmatched),
                "earlier_findings": sum(self.left_out.values()),
                "earlier_citations": ordered(self.left_out),
                "not_judged_by_baseline": ordered(by_baseline),
                "not_judged_by_this_run": ordered(by_this)}


def resolved_fields(findings: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """An earlier run's findings as the comparison needs them: what `resolved` shows of each
    (its ID among it), not the whole finding."""
    return [_resolved_form(finding) for finding in findings]


def _resolved_form(finding: dict[str, Any]) -> dict[str, Any]:
    return {key: finding.get(key) for key in RESOLVED_FIELDS}
