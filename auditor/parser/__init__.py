"""Text to typed events: the BJH grammar (grammars/bjh.lark), read by stage.

The grammar is the reference. Nearly every line is read by a regular expression made to
read exactly as the grammar does; a line none reads goes through Lark itself, which reads
it or says what is wrong: each bad line becomes one `Unreadable` event (with its column
and what was expected) and every good line around it still yields its event. The stages,
each a module, each importing only those above it:

- `grammar`: the grammar's text, its Lark parsers (kept in the user's cache), each
  statement's shape in words;
- `builders`: a statement's text to its typed event, and Lark's one transformer;
- `diagnosis`: why a line is unreadable (a field the grammar rejects, or a value no
  record can mean);
- `fast`: the regular expressions that read the common statements in one step, and the
  builders of their events;
- `batches`: lines to events a block at a time, each line by the cheapest path that reads
  it, and `parse_lines_lark`, every line through Lark (the reference the rest is tested
  against).

This module names what the rest of the auditor uses. Lark (and lark-cython) are imported
only when a line needs them: a record the fast paths read whole never loads them.
"""

from __future__ import annotations

from typing import Any

from auditor.parser.batches import (
    BATCH_LINES,
    CHUNK_LINES,
    EventBatches,
    line_batches,
    line_events,
    parse_batches,
    parse_lines,
    parse_lines_lark,
)
from auditor.parser.builders import _statement_builder_class
from auditor.parser.diagnosis import TOO_LONG_NUMBER, diagnose, implausible
from auditor.parser.fast import (
    ROUND_FIELDS,
    ROUND_STATEMENTS,
    SOUND_AMOUNT,
    SOUND_CLOCK,
    grammar_terminals,
)
from auditor.parser.grammar import STATEMENT_USAGE, cached_lark, grammar_text, lark_parser

__all__ = [
    "BATCH_LINES", "CHUNK_LINES", "ROUND_FIELDS", "ROUND_STATEMENTS", "SOUND_AMOUNT",
    "SOUND_CLOCK", "STATEMENT_USAGE", "TOO_LONG_NUMBER", "EventBatches", "cached_lark",
    "diagnose", "grammar_terminals", "grammar_text", "implausible", "lark_parser",
    "line_batches", "line_events", "parse_batches", "parse_lines", "parse_lines_lark",
]


def __getattr__(name: str) -> Any:
    if name == "StatementBuilder":  # made at its first use: it is Lark's `Transformer`'s
        return _statement_builder_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
