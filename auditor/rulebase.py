"""The rule base: every subsection of the regulation, keyed by citation (rules/*.toml).

Each entry gives the subsection's title and words, and either the check that implements it
or why nothing in a hand record can show it.
"""

from __future__ import annotations

import tomllib
from datetime import date
from functools import cache

from pydantic import BaseModel, ConfigDict, model_validator

from auditor.resources import data_dir

NOT_ON_FILE = "(Text not on file"
"""How a rule file's `text` begins where the regulation's words are not on file."""


class RuleEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    citation: str
    section: str
    title: str
    text: str
    check: str | None = None  # the dotted name of the check
    not_checkable: str | None = None  # why no record can show it
    effective: date | None = None  # in force from this day (its section's, if not given)

    @property
    def on_file(self) -> bool:
        """Whether the regulation's words are on file (summarised counts): an entry whose
        text is not gives its title only, and a finding under it rests on the check's
        reading alone."""
        return not self.text.startswith(NOT_ON_FILE)

    @model_validator(mode="after")
    def _one_of(self) -> RuleEntry:
        if (self.check is None) == (self.not_checkable is None):
            raise ValueError(f"{self.citation}: give either check or not_checkable")
        return self


class RuleSection(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    section: str
    title: str
    source: str
    entries: tuple[RuleEntry, ...]
    # The day the section's text is in force from, as its source line says; None: not known.
    effective: date | None = None


@cache
def load_rule_base() -> tuple[RuleSection, ...]:
    sections = []
    for path in sorted(data_dir("rules").glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        subsections = data.pop("subsections")
        entries = tuple(RuleEntry(citation=citation, section=data["section"],
                                  **{"effective": data.get("effective"), **fields})
                        for citation, fields in subsections.items())
        sections.append(RuleSection(entries=entries, **data))
    return tuple(sections)


def rule_entries() -> dict[str, RuleEntry]:
    return {entry.citation: entry for section in load_rule_base() for entry in section.entries}


@cache
def effective_dates() -> dict[str, str]:
    """Each citation's day in force from (ISO), where one is known: a round dated earlier is
    not judged by it (a later amendment lives beside the old text)."""
    return {entry.citation: entry.effective.isoformat() for entry in rule_entries().values()
            if entry.effective is not None}


def rule_base_version() -> str:
    """A short digest of the rule base files, so a report names the rules it applied."""
    import hashlib

    digest = hashlib.sha256()
    for path in sorted(data_dir("rules").glob("*.toml")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]
