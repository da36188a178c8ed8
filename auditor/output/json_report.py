"""findings.json: one object with the auditor, the inputs, the findings, summaries and coverage."""

from __future__ import annotations

import json
from collections.abc import Iterator
from json.encoder import encode_basestring
from typing import Any

from auditor.checks.base import citation_sort_key
from auditor.report.frames import SUMMARY_DIMENSIONS, RunSummary, identities, run_summary
from auditor.results import AuditResult


def to_json(result: AuditResult, run: dict[str, Any], summary: RunSummary | None = None) -> str:
    """findings.json as one text (`json_parts` writes it in parts)."""
    return "".join(json_parts(result, run, summary))


def json_parts(result: AuditResult, run: dict[str, Any],
               summary: RunSummary | None = None) -> Iterator[str]:
    """findings.json, one finding at a time: the text `json.dumps(document, indent=2)` would
    give, without the whole document or its text in memory at once.

    Each input with its table's identity (casino, licence, game, decks, seats, limits,
    currency, house rules); each finding with `table_key`, its table's identity; the
    findings counted by citation, table, dealer, shift and currency (`summary`, the run's:
    counted here only when none is given)."""
    if summary is None:
        summary = run_summary(result.findings, result.inputs)
    keys = {path: identity["table_key"] for path, identity in identities(result.inputs).items()}
    yield "{\n"
    yield _member("auditor", run) + ",\n"
    yield _member("inputs", [{**summary.model_dump(mode="json"), "table_key": summary.table_key}
                             for summary in result.inputs]) + ",\n"
    if not result.findings:
        yield '  "findings": [],\n'
    else:
        yield '  "findings": [\n'
        last = len(result.findings) - 1
        for number, finding in enumerate(result.findings):
            document = {**finding.as_dict(), "table_key": keys.get(finding.file) or finding.table}
            yield "    " + _indented(document, "    ") + (",\n" if number < last else "\n")
        yield "  ],\n"
    yield _member("summary", {dimension: summary.by(dimension)
                              for dimension in SUMMARY_DIMENSIONS}) + ",\n"
    yield _member("coverage", {citation: result.applied[citation]
                               for citation in sorted(result.applied, key=citation_sort_key)}
                  ) + ",\n"
    # Every waiver of the file with its status (applied, expired, unused) and matches.
    yield _member("waivers", [waiver.model_dump(mode="json") for waiver in result.waivers]) + ",\n"
    # Earlier findings gone since the baseline; null when there was no baseline.
    yield _member("resolved", result.resolved) + ",\n"
    # Patterns (table, dealer, player × citation) new, recurring or gone against the
    # baseline run, as `auditor diff --json` gives them; null without a baseline run.
    yield _member("patterns", result.patterns) + "\n"
    yield "}\n"


def _member(name: str, value: Any) -> str:
    return "  " + json.dumps(name) + ": " + _indented(value, "  ")


def _indented(value: Any, indent: str) -> str:
    """`json.dumps(value, indent=2, ensure_ascii=False)`, each line after the first indented
    by `indent` more: the text the document as a whole would give at that level.

    Laid out here, each string and number encoded by the C encoder: `json.dumps` with an
    indent falls back to the pure-Python encoder, token by token (it took half the time of
    findings.json). A container the layout below does not know (a key that is not a
    string) is left to `json.dumps`."""
    try:
        return _laid_out(value, "\n" + indent)
    except _NotPlain:
        # JSON text holds no raw line break but those of its layout: each is followed by the
        # indentation of the level the value sits at.
        return json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n" + indent)


class _NotPlain(Exception):
    pass


_scalar = json.JSONEncoder(ensure_ascii=False).encode  # C: strings, numbers, null, booleans

# The scalars a finding is made of, each written as `_scalar` writes it, by its exact type:
# `JSONEncoder.encode` makes a new encoder for every value that is not a string, which cost
# more than the rest of findings.json. Any other type (a float, a subclass) goes to it.
_PLAIN = {str: encode_basestring, int: int.__repr__, type(None): lambda _: "null",
          bool: lambda value: "true" if value else "false"}


def _laid_out(value: Any, newline: str) -> str:
    plain = _PLAIN.get(type(value))
    if plain is not None:
        return plain(value)
    if isinstance(value, str):  # a subclass of str: as `_scalar` writes it
        return encode_basestring(value)
    if isinstance(value, (list, tuple)):
        if not value:
            return "[]"
        inner = newline + "  "
        return "[" + inner + ("," + inner).join([_laid_out(item, inner) for item in value]) \
            + newline + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        inner = newline + "  "
        parts = []
        for key, item in value.items():
            if not isinstance(key, str):
                raise _NotPlain
            parts.append(encode_basestring(key) + ": " + _laid_out(item, inner))
        return "{" + inner + ("," + inner).join(parts) + newline + "}"
    return _scalar(value)
