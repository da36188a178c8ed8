"""What a finding rests on, as a case prints it: the regulation's words where the rule base
holds them, the auditor's reading of the rule (always, marked as the auditor's), and the
house rules it was judged under, each said as declared by the header or assumed by the
auditor."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from auditor.checks.base import registry
from auditor.config import option_key

if TYPE_CHECKING:
    from auditor.results import InputSummary
    from auditor.rulebase import RuleEntry


_NOT_ON_FILE_NOTE = re.compile(r"\(Text not on file[^.]*\.\s*(.*?)\)?\s*$", re.S)


@dataclass(frozen=True)
class Basis:
    """The basis of the findings of one citation."""

    citation: str
    title: str
    words: str  # the rule base's text: the regulation's words, or why they are not on file
    on_file: bool  # the words are the regulation's (quoted or summarised on file)
    reading: str  # how the auditor reads the rule (the check's `Reading:`), "" if none
    record: bool  # a finding about the record's format (`record:…`), not the regulation

    @property
    def note(self) -> str:
        """What the rule base says beyond "not on file" (:23 names the layout's words)."""
        match = _NOT_ON_FILE_NOTE.match(self.words)
        return match.group(1).strip() if match and not self.on_file else ""

    @property
    def reading_alone(self) -> bool:
        """The finding rests on the auditor's reading alone: no words of its section are
        on file."""
        return not self.on_file and not self.record


def basis_of(citation: str, entry: RuleEntry | None) -> Basis:
    check = registry().get(citation)
    reading = check.reading() if check is not None else ""
    record = citation.startswith("record:")
    if entry is None:
        return Basis(citation, citation, "(not in the rule base)", False, reading, record)
    return Basis(citation, entry.title, entry.text.strip(), entry.on_file, reading, record)


@dataclass(frozen=True)
class HouseRule:
    """One house rule of a table: its value, and whether the header declared it."""

    key: str  # as the format writes it: `soft17`, `db21.paytable`, `decks`
    # None: no value in force (an option with no default left out, or one the header sets
    # twice or wrongly, which record:header names and which is judged under each value)
    value: str | None
    declared: bool | None  # None: the run did not record whether it was declared
    why: str | None = None  # of a rule with no value: why it is unknown, as the run says

    def words(self) -> str:
        if self.value is None and self.why:
            return f"{self.key}: unknown ({self.why}), judged under each value it could hold"
        if self.value is None:
            return f"{self.key}: the header declares no one value for it"
        if self.declared is None:
            return f"{self.key}={self.value} (declared or default: the run did not record which)"
        if self.declared:
            return f"{self.key}={self.value} (declared)"
        return f"{self.key}: not declared, judged under the default {self.key}={self.value}"


def house_rules_of(summary: InputSummary) -> list[HouseRule]:
    """The options of a table, as the audit judged it: declared or assumed."""
    return [HouseRule(key, value, summary.rule_declared(key))
            for key, value in summary.house_rules.items()]


def rules_applied(citation: str, summary: InputSummary | None) -> list[HouseRule] | None:
    """The house rules a finding's verdict depends on (the check's `options`); [] when it
    depends on none; None when the check does not say which (every rule of the table)."""
    check = registry().get(citation)
    if check is None or check.options is None or summary is None:
        return None
    rules = []
    unknown = summary.unknown_rules or {}
    for name in sorted(check.options):
        if name == "decks":  # the `table` statement's, never defaulted (unknown if bad)
            rules.append(HouseRule("decks", None if summary.decks is None
                                   else str(summary.decks), True, unknown.get("decks")))
            continue
        key = option_key(name)
        game = key.split(".", 1)[0]
        if game in ("db21", "tensticks", "ladies") and game != summary.game:
            continue  # another game's option: nothing of this table
        rules.append(HouseRule(key, summary.house_rules.get(key), summary.rule_declared(key),
                               unknown.get(key)))
    return rules
