"""The rule base and the registered checks agree, in both directions."""

from __future__ import annotations

import re

import pytest

from auditor import checks as _checks  # noqa: F401
from auditor.checks.base import (
    CITATION,
    DOC_SECTIONS,
    Check,
    RegistrationError,
    register,
    registry,
)
from auditor.rulebase import rule_entries

CATALOG = "../shared/spec/rule-catalog.md"


def test_every_registered_check_is_in_the_rule_base() -> None:
    entries = rule_entries()
    for citation, check in registry().items():
        assert citation in entries, f"{citation} ({check.name}) has no rule base entry"
        assert entries[citation].check == check.name, citation


def test_every_rule_base_check_is_registered() -> None:
    names = {check.name for check in registry().values()}
    for citation, entry in rule_entries().items():
        if entry.check is not None:
            assert entry.check in names, f"{citation} names {entry.check}, which is not registered"
            assert registry()[citation].name == entry.check


def test_rule_base_citations_are_well_formed() -> None:
    for citation in rule_entries():
        assert CITATION.fullmatch(citation), citation


def test_every_check_is_documented() -> None:
    for check in registry().values():
        doc = check.documentation()
        for section in DOC_SECTIONS:
            assert section in doc, f"{check.name} lacks {section}"


@pytest.mark.parametrize("citation", ["20:18:15:30.10(4)x", "30.10(4)", "record:Bad", ""])
def test_registration_rejects_a_malformed_citation(citation: str) -> None:
    class Bad(Check):
        """x. Regulation: x. Violating: x. Compliant: x. Reading: x."""

        name = "test.bad_citation"
        severity = "low"

    Bad.citation = citation
    with pytest.raises(RegistrationError, match="malformed citation"):
        register(Bad)


def test_registration_rejects_a_duplicate_citation() -> None:
    class Twin(Check):
        """x. Regulation: x. Violating: x. Compliant: x. Reading: x."""

        citation = "20:18:15:06"
        name = "test.twin"
        severity = "low"

    with pytest.raises(RegistrationError, match="already checked"):
        register(Twin)


def test_registration_rejects_an_undocumented_check() -> None:
    class Mute(Check):
        """Nothing more."""

        citation = "20:18:15:99"
        name = "test.mute"
        severity = "low"

    with pytest.raises(RegistrationError, match="docstring lacks"):
        register(Mute)


def catalog_citations(shared_dir) -> set[str]:
    """Every citation the rule catalog's tables name, written out in full."""
    text = (shared_dir / "spec" / "rule-catalog.md").read_text(encoding="utf-8")
    found = set()
    for token in re.findall(r"^\| (30\.\d\d\(¶?\d+\)|20:18:15:\d\d|record:[a-z-]+) \|", text,
                            flags=re.MULTILINE):
        found.add("20:18:15:" + token if token.startswith("30.") else token)
    return found


def test_catalog_citations_are_all_in_the_rule_base(shared_dir) -> None:
    """Every citation the catalog checks has an entry, for each section the rule base has."""
    entries = rule_entries()
    sections = {entry.section for entry in entries.values()}
    missing = sorted(c for c in catalog_citations(shared_dir)
                     if c not in entries and _section(c) in sections)
    assert not missing, f"catalog citations missing from the rule base: {missing}"


def _section(citation: str) -> str:
    if citation.startswith("record:"):
        return "record"
    match = re.match(r"(20:18:15:30\.\d\d)", citation)
    return match.group(1) if match else "20:18:15"
