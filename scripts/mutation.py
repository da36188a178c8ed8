"""Mutation testing of the project's own: would the tests of an area go red on a small wrong
change to its code?

For a named area (its modules and the tests that cover them, in AREAS below) every mutation
site is enumerated with the standard library's `ast`: a comparison negated or its boundary
moved, an arithmetic operator swapped, a `not` dropped, `and`/`or` swapped, a numeric or
boolean constant changed, a `return X` made `return None`, an `if` condition forced True or
False. A fixed-seed sample of them (`--sample N --seed S`) is run one at a time against the
area's tests in a private copy of the repository (made once per command, in a temporary
folder): the mutated file is written there, `python -m pytest -x -q` runs with the copy first
on PYTHONPATH, the file is restored. A mutant is killed when the tests fail (a timeout counts
as killed and is said apart), survived when they pass. Mutants listed in
scripts/mutation-equivalents.toml (file, line, change, the line's code and the reason: they
change nothing any test could see) are counted apart and not run.

    .venv/bin/python scripts/mutation.py identity verify checks   # the default samples
    .venv/bin/python scripts/mutation.py identity --sample 10 --seed 7
    .venv/bin/python scripts/mutation.py checks --list             # every mutant, not run
    .venv/bin/python scripts/mutation.py identity verify checks --doc  # table into the doc

`--markdown` prints the table; `--doc` writes it between the marker comments of
docs/development.md (a row per area: an area run again replaces its row, the others stay),
with the equivalents listed under it. Exit status: 0, or 1 when an area stays under AIM
(killed out of the non-equivalent mutants), or 2 when the unmutated tests fail or a test the
area names is not there (`--list` says so too, and names the area's tests).
"""

from __future__ import annotations

import argparse
import ast
import functools
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENTS = ROOT / "scripts" / "mutation-equivalents.toml"
DOC = ROOT / "docs" / "development.md"
SECTION = re.compile(r"(<!-- mutation: begin -->\n).*?(<!-- mutation: end -->)", re.S)
COPIED = ("auditor", "rules", "grammars", "tests", "sample_logs", "docs", "pyproject.toml")
AIM = 0.90


@dataclass(frozen=True)
class Area:
    # globs, relative to the repository; `path::Name.inner` keeps to the lines of one
    # function, class or assigned name (a class's field) of that module
    modules: tuple[str, ...]
    tests: tuple[str, ...]  # the fastest and most telling first: pytest stops at the first red
    sample: int  # the default sample


# the approval tests of tests/checks/test_selection.py (the check held to a file beside the
# record, --approved), run by the checks area and by the calendar area
APPROVAL_TESTS = (
    "test_an_unapproved_paytable_and_maximum_are_one_finding_each",
    "test_a_table_with_no_approval_is_reported_once",
    "test_an_unreadable_line_leaves_the_approval_findings_on_their_statements",
    "test_an_approved_option_of_no_rule_of_the_header_is_declared_as_nothing",
    "test_a_header_as_approved_has_no_approval_finding",
    "test_the_approval_file_from_the_settings_file")

AREAS = {
    "identity": Area(("auditor/identity.py",),
                     ("tests/evidence/test_golden_ids.py",
                      "tests/evidence/test_finding_ids.py"), 40),
    "verify": Area(("auditor/verify.py", "auditor/manifest.py", "auditor/build.py",
                    "auditor/reproduce.py"),
                   ("tests/evidence/test_reproduce.py", "tests/evidence/test_verify.py",
                    "tests/evidence/test_case.py"),
                   40),
    "checks": Area(("auditor/checks/*.py", "auditor/checks/*/*.py"),
                   ("tests/checks/test_cases.py", "tests/checks/test_check_messages.py",
                    "tests/checks/test_check_registration.py",
                    "tests/checks/test_check_helpers.py",
                    "tests/checks/test_switch_paytable.py", "tests/checks/test_check_needs.py",
                    "tests/checks/test_paytables.py", "tests/checks/test_tensticks_cross_file.py",
                    "tests/checks/test_sample_logs.py",
                    # the runner (which rules are in force) and the registry of games
                    "tests/checks/test_runner_in_force.py", "tests/checks/test_check_registry.py",
                    # the check held to a file beside the record (--approved)
                    *(f"tests/checks/test_selection.py::{name}" for name in APPROVAL_TESTS)),
                   60),
    # the evidence of a run: the case file, the build it names, reproducing it, its clock
    "case": Area(("auditor/case/*.py", "auditor/build.py", "auditor/reproduce.py",
                  "auditor/clock.py"),
                 ("tests/evidence/test_case_parts.py", "tests/evidence/test_clock.py",
                  "tests/evidence/test_case_exhibits.py", "tests/evidence/test_case_money.py",
                  "tests/evidence/test_case_copies.py",
                  "tests/evidence/test_case_atomic.py", "tests/evidence/test_case_gaming_days.py",
                  "tests/evidence/test_reproduce.py", "tests/evidence/test_case.py",
                  "tests/evidence/test_verify.py", "tests/evidence/test_case_killed.py",
                  "tests/evidence/test_case_judged.py"),
                 50),
    # the floor: what changed between nights, the store's reads for trends, the patterns
    "floor": Area(("auditor/trends/changes.py", "auditor/store/trend_reads.py",
                   "auditor/patterns.py"),
                  ("tests/floor/test_floor_parts.py", "tests/floor/test_trends_changes.py",
                   "tests/floor/test_patterns.py",
                   "tests/floor/test_patterns_evidence.py", "tests/floor/test_trends.py"), 50),
    # incidents: exported exactly once, their links, a table-night superseded
    "incidents": Area(("auditor/incidents.py", "auditor/store/incidents.py"),
                      ("tests/floor/test_incidents_parts.py", "tests/floor/test_incidents_links.py",
                       "tests/floor/test_incidents.py",
                       "tests/checks/test_open_round.py"), 30),
    # the live floor: a record judged piece by piece, followed, alerted once, the watch's
    # state (its days, its tables on the floor) and the page's data (not its server loop)
    "live": Area(("auditor/live/piece_audit.py", "auditor/live/follow.py",
                  "auditor/live/alerts.py", "auditor/live/floor.py", "auditor/live/watch.py",
                  *(f"auditor/live/page.py::{name}" for name in (
                      "_after", "_event", "_dumps", "_shown_text", "serve_address",
                      "is_loopback", "hosts_for", "_Guard._refusal"))),
                 ("tests/live/test_live_parts.py", "tests/live/test_live_floor.py",
                  "tests/live/test_live_page.py", "tests/live/test_watch.py",
                  "tests/live/test_live_attacks.py", "tests/live/test_watch_faults.py",
                  "tests/live/test_watch_flags.py", "tests/live/test_watch_serve.py",
                  "tests/live/test_watch_stop.py", "tests/live/test_live_hostile.py"), 40),
    # the open round: a round the file ends inside set aside while its table may still
    # deal it, and a later whole recording of a table-night superseding the earlier one
    "open": Area(("auditor/audit.py::FileAudit._open", "auditor/audit.py::FileAudit._written",
                  "auditor/audit.py::FileAudit._live",
                  "auditor/selection.py::Judging.finished",
                  "auditor/selection.py::Judging.live_from",
                  "auditor/selection.py::Judging.may_be_live",
                  "auditor/selection.py::_days_after",
                  "auditor/commands/audit.py::live_from",
                  "auditor/store/trend_reads.py::superseded_nights",
                  "auditor/store/trend_reads.py::records_nights",
                  "auditor/store/trend_reads.py::_not_superseded",
                  "auditor/incidents.py::_superseded", "auditor/store/tallies.py::_nights",
                  "auditor/store/migrations/versions/0008_table_nights.py"),
                 ("tests/checks/test_open_parts.py", "tests/checks/test_open_round.py"), 30),
    # the replay: the table's state round by round, the facts every check reads
    "replay": Area(("auditor/replay/engine.py", "auditor/replay/outcomes.py",
                    "auditor/replay/round_end.py", "auditor/replay/state.py",
                    "auditor/replay/table_events.py", "auditor/replay/switch.py",
                    "auditor/replay/tensticks.py", "auditor/replay/ladies.py",
                    "auditor/replay/under.py", "auditor/replay/view.py", "auditor/blackjack.py"),
                   ("tests/checks/test_cases.py", "tests/replay/test_replay_exact_facts.py",
                    "tests/checks/test_sample_logs.py",
                    "tests/replay/test_context_outside_rounds.py",
                    "tests/replay/test_decisions_at_every_step.py",
                    "tests/replay/test_ladies_replay.py", "tests/replay/test_lazy_decisions.py",
                    "tests/replay/test_replay_handlers.py", "tests/replay/test_replay_inits.py",
                    "tests/replay/test_round_facts.py", "tests/replay/test_replay_caps.py"), 40),
    # reading: lines into statements and events, events into rounds
    "reading": Area(("auditor/parser/*.py", "auditor/reader.py", "auditor/source.py"),
                    ("tests/parsing/test_parser.py", "tests/parsing/test_reading_mutants.py",
                     "tests/parsing/test_fast_paths.py",
                     "tests/parsing/test_read_batches.py", "tests/parsing/test_batch_edges.py",
                     "tests/parsing/test_burn_and_dealer_lines.py",
                     "tests/parsing/test_malformed.py", "tests/parsing/test_properties.py",
                     "tests/parsing/test_cache_lark.py", "tests/checks/test_cases.py"), 40),
    # the evidence of a round: its steps traced again and the changes between them
    "evidence": Area(("auditor/replay/trace.py", "auditor/replay/changes.py"),
                     ("tests/replay/test_changes_parts.py", "tests/replay/test_trace_parts.py",
                      "tests/replay/test_evidence.py",
                      "tests/replay/test_evidence_speed.py",
                      "tests/replay/test_replay_steps_kept.py",
                      "tests/replay/test_snapshot_entries.py",
                      "tests/evidence/test_pending_trace.py",
                      "tests/evidence/test_trace_made_later.py"), 30),
    # the tally: the denominators and game counts trends reads, counted per round
    "tally": Area(("auditor/tally.py",),
                  ("tests/floor/test_tally_facts.py", "tests/floor/test_tally_lineups.py",
                   "tests/replay/test_round_facts.py",
                   "tests/store/test_pairs_order.py", "tests/house/test_after_speed.py",
                   "tests/floor/test_trends.py"), 30),
    # unknown house rules: what an unknown option or `decks` could hold, and a finding kept
    # only where every table the header could describe gives it
    "unknown": Area(("auditor/unknown_rules.py", "auditor/reader.py::_decks_values",
                     "auditor/reader.py::contradictory",
                     "auditor/reader.py::_option_values"),
                    ("tests/checks/test_unknown_mutants.py", "tests/checks/test_unknown_rules.py",
                     "tests/checks/test_cases.py",
                     "tests/parsing/test_reading_mutants.py"), 40),
    # waivers (by ID, by rule and table, until a date) and their statuses, the baseline
    "waivers": Area(("auditor/waivers.py", "auditor/waiver_status.py", "auditor/baseline.py"),
                    ("tests/floor/test_waiver_mutants.py", "tests/floor/test_waivers.py",
                     "tests/floor/test_baseline_and_fail_on.py"), 40),
    # the calendar: a round's gaming day and shift, the approved house rules (--approved), money
    "calendar": Area(("auditor/gaming_day.py", "auditor/approvals.py", "auditor/money.py"),
                     ("tests/floor/test_gaming_day_parts.py",
                      "tests/checks/test_approvals_parts.py", "tests/outputs/test_money_parts.py",
                      "tests/floor/test_gaming_day.py",
                      *(f"tests/checks/test_selection.py::{name}" for name in (
                          *APPROVAL_TESTS,
                          "test_an_invalid_approval_file_is_exit_2_naming_field_and_line",
                          "test_a_fault_in_the_last_of_many_approvals_names_its_line"))), 40),
    # the split: a large record cut at `shoe` statements, its pieces audited and joined, and
    # the tasks that hand pieces and whole files to the workers (test_split.py's pool run,
    # replays and house-rules tests left out: too slow for what they add here)
    "split": Area(("auditor/split.py", "auditor/tasks.py"),
                  ("tests/cli/test_split_parts.py", "tests/cli/test_split_changed.py",
                   "tests/cli/test_split.py::test_a_wrong_guess_is_audited_again_from_the_state_before_it",
                   "tests/cli/test_split.py::test_the_last_pieces_of_a_file_are_smaller",
                   "tests/cli/test_split.py::test_a_file_in_pieces_gives_the_whole_files_result",
                   "tests/cli/test_split.py::test_a_damaged_record_in_pieces_still_gives_the_whole_files_result",
                   "tests/checks/test_open_round.py::test_the_open_round_is_the_same_whatever_the_pieces",
                   "tests/checks/test_selection.py::test_the_selection_travels_with_pieces_of_a_split_file",
                   "tests/cli/test_many_files.py"), 40),
    # the merge: each file's result merged into the run's (findings in the run's order,
    # inputs, replays kept per citation, tallies, facts judged across files)
    "merge": Area(("auditor/run.py", "auditor/results.py"),
                  ("tests/store/test_merge_mutants.py", "tests/store/test_run_merger.py",
                   "tests/parsing/test_hostile_input.py::test_every_input_is_audited_once_and_none_is_passed_over",
                   "tests/store/test_store_walks.py"), 30),
    # the tables a floor automates on: findings.csv and summary.csv (formula cells marked),
    # findings.json's layout and scalars
    "tables": Area(("auditor/output/tables.py", "auditor/output/json_report.py"),
                   ("tests/outputs/test_json_layout.py", "tests/outputs/test_json_scalars.py",
                    "tests/outputs/test_table_cells_exact.py", "tests/outputs/test_csv_cells.py",
                    "tests/outputs/test_outputs_without_pandas.py"), 30),
}


@dataclass(frozen=True)
class Mutant:
    file: str  # relative to the repository
    line: int
    change: str  # "`old` → `new`", the differing text with a little context
    edits: tuple[tuple[int, int, bytes], ...]  # (start, end, replacement) byte offsets

    def apply(self, data: bytes) -> bytes:
        for start, end, replacement in sorted(self.edits, reverse=True):
            data = data[:start] + replacement + data[end:]
        return data


@dataclass
class Outcome:
    mutant: Mutant
    verdict: str  # killed, timeout, survived, equivalent
    seconds: float = 0.0
    detail: str = ""  # the first failing test, for a killed mutant


# --- finding the mutants ---------------------------------------------------------------

_NEGATED = {ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.GtE, ast.GtE: ast.Lt,
            ast.Gt: ast.LtE, ast.LtE: ast.Gt, ast.In: ast.NotIn, ast.NotIn: ast.In,
            ast.Is: ast.IsNot, ast.IsNot: ast.Is}
_BOUNDARY = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt}
_ARITHMETIC = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult,
               ast.FloorDiv: ast.Div, ast.Mod: ast.FloorDiv, ast.Pow: ast.Mult}
_TOKEN = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">",
          ast.GtE: ">=", ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not",
          ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
          ast.Mod: "%", ast.Pow: "**", ast.And: "and", ast.Or: "or"}
# Each operator as it stands in the text between its two operands (which holds nothing else
# but brackets, blanks, line continuations and comments, the comments blanked first).
_PATTERN = {ast.Eq: rb"==", ast.NotEq: rb"!=", ast.Lt: rb"<(?!=)", ast.LtE: rb"<=",
            ast.Gt: rb">(?!=)", ast.GtE: rb">=", ast.In: rb"\bin\b",
            ast.NotIn: rb"\bnot\s+in\b", ast.Is: rb"\bis\b", ast.IsNot: rb"\bis\s+not\b",
            ast.Add: rb"\+", ast.Sub: rb"-", ast.Mult: rb"(?<!\*)\*(?!\*)",
            ast.Div: rb"(?<!/)/(?!/)", ast.FloorDiv: rb"//", ast.Mod: rb"%", ast.Pow: rb"\*\*",
            ast.And: rb"\band\b", ast.Or: rb"\bor\b"}


class _Text:
    """A module's bytes, with ast's (line, UTF-8 column) turned into byte offsets."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.starts = [0] + [i + 1 for i, byte in enumerate(data) if byte == 0x0A]

    def start(self, node: ast.AST) -> int:
        return self.starts[node.lineno - 1] + node.col_offset

    def end(self, node: ast.AST) -> int:
        return self.starts[node.end_lineno - 1] + node.end_col_offset

    def operator(self, before: ast.AST, after: ast.AST, op: type) -> tuple[int, int]:
        """Where `op` stands between two operands."""
        low, high = self.end(before), self.start(after)
        gap = re.sub(rb"#[^\n]*", lambda m: b" " * len(m.group()), self.data[low:high])
        match = re.search(_PATTERN[op], gap)
        if match is None:
            raise ValueError(f"no {_TOKEN[op]} between {low} and {high}")
        return low + match.start(), low + match.end()

    def line_of(self, offset: int) -> int:
        low, high = 0, len(self.starts) - 1
        while low < high:
            middle = (low + high + 1) // 2
            if self.starts[middle] <= offset:
                low = middle
            else:
                high = middle - 1
        return low + 1


def _expression(text: bytes, old: bytes) -> bytes:
    """`text` standing where `old` stood: bracketed and padded to as many lines, so every
    later line keeps its number."""
    lines = old.count(b"\n")
    return b"(" + text + b"\n" * lines + b")" if lines else text


def _describe(data: bytes, edits: tuple[tuple[int, int, bytes], ...], low: int,
              high: int) -> str:
    """`old` → `new`: the text of [low, high) before and after, cut to the changed part with
    up to 30 characters either side, blanks made single."""
    after = Mutant("", 0, "", edits).apply(data)
    shift = sum(len(r) - (e - s) for s, e, r in edits)
    old, new = data[low:high], after[low:high + shift]
    prefix = 0
    while prefix < min(len(old), len(new)) and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while (suffix < min(len(old), len(new)) - prefix
           and old[len(old) - 1 - suffix] == new[len(new) - 1 - suffix]):
        suffix += 1

    def cut(text: bytes) -> str:
        head = text[max(0, prefix - 30):prefix]
        body = text[prefix:len(text) - suffix]
        if len(body) > 60:
            body = body[:45] + b"\xe2\x80\xa6" + body[-12:]
        tail = text[len(text) - suffix:len(text) - suffix + 30]
        shown = (b"\xe2\x80\xa6" if prefix > 30 else b"") + head + body + tail + (
            b"\xe2\x80\xa6" if suffix > 30 else b"")
        words = " ".join(shown.decode("utf-8", "replace").split())
        return words.replace("( ", "(").replace(" )", ")")  # a padded `(None\n)` as `(None)`

    return f"`{cut(old)}` → `{cut(new)}`"


def _skipped_nodes(tree: ast.AST) -> set[int]:
    """Nodes no mutant touches: annotations (they decide nothing at run time), f-strings
    (ast's positions inside them are not to be trusted), `if TYPE_CHECKING` and
    `if __name__ == "__main__"`."""
    skipped: set[int] = set()

    def skip(node: ast.AST | None) -> None:
        if node is not None:
            skipped.update(id(inner) for inner in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            skip(node.returns)
            arguments = node.args
            for argument in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                             arguments.vararg, arguments.kwarg):
                if argument is not None:
                    skip(argument.annotation)
        elif isinstance(node, ast.AnnAssign):
            skip(node.annotation)
        elif isinstance(node, ast.JoinedStr):
            skip(node)
        elif isinstance(node, ast.If) and ast.unparse(node.test) in (
                "TYPE_CHECKING", "__name__ == '__main__'"):
            skipped.add(id(node))
            skip(node.test)
    return skipped


def mutants_of(relative: str, data: bytes | None = None) -> list[Mutant]:
    """Every mutant of one module (its text `data`, else read), in text order (not yet
    checked to parse)."""
    data = (ROOT / relative).read_bytes() if data is None else data
    text = _Text(data)
    tree = ast.parse(data)
    skipped = _skipped_nodes(tree)
    parents = {id(child): parent for parent in ast.walk(tree)
               for child in ast.iter_child_nodes(parent)}
    found: list[Mutant] = []

    def add(node: ast.AST, edits: list[tuple[int, int, bytes]], shown: ast.AST | None = None,
            ) -> None:
        shown = shown or node
        low, high = text.start(shown), text.end(shown)
        line = text.line_of(min(start for start, _, _ in edits))  # where the change is
        found.append(Mutant(relative, line, _describe(data, tuple(edits), low, high),
                            tuple(edits)))

    def swap(node: ast.AST, before: ast.AST, after: ast.AST, op: type, new: type) -> None:
        start, end = text.operator(before, after, op)
        add(node, [(start, end, _TOKEN[new].encode())])

    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for place, op in enumerate(node.ops):
                kind = type(op)
                for table in (_NEGATED, _BOUNDARY):
                    if kind in table:
                        swap(node, operands[place], operands[place + 1], kind, table[kind])
        elif isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
            kind = type(node.op)
            swap(node, node.left, node.right, kind, _ARITHMETIC[kind])
        elif isinstance(node, ast.AugAssign) and type(node.op) in _ARITHMETIC:
            kind = type(node.op)
            start, end = text.operator(node.target, node.value, kind)
            add(node, [(start, end, _TOKEN[_ARITHMETIC[kind]].encode())])
        elif isinstance(node, ast.BoolOp):
            kind = type(node.op)
            new = (ast.Or if kind is ast.And else ast.And)
            edits = []
            for before, after in zip(node.values, node.values[1:], strict=False):
                start, end = text.operator(before, after, kind)
                edits.append((start, end, _TOKEN[new].encode()))
            add(node, edits)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            start = text.start(node)
            add(node, [(start, start + 3, b"")])
        elif isinstance(node, ast.Constant) and type(node.value) in (bool, int, float):
            start, end = text.start(node), text.end(node)
            add(node, [(start, end, _changed_constant(node.value, data[start:end]))],
                shown=_shown_with(parents.get(id(node)), node, text))
        elif isinstance(node, ast.Return) and node.value is not None and not (
                isinstance(node.value, ast.Constant) and node.value.value is None):
            start, end = text.start(node.value), text.end(node.value)
            add(node, [(start, end, _expression(b"None", data[start:end]))])
        elif isinstance(node, ast.If):
            start, end = text.start(node.test), text.end(node.test)
            for forced in (b"True", b"False"):
                add(node, [(start, end, _expression(forced, data[start:end]))],
                    shown=node.test)
    return sorted(found, key=lambda m: (m.edits[0][0], m.change))


def _changed_constant(value: bool | int | float, literal: bytes) -> bytes:
    """True and False swapped, a number one more, written in the base it was written in."""
    if isinstance(value, bool):
        return repr(not value).encode()
    base = {b"0x": hex, b"0o": oct, b"0b": bin}.get(literal[:2].lower())
    return (base(value + 1) if base and isinstance(value, int) else repr(value + 1)).encode()


def _shown_with(parent: ast.AST | None, node: ast.AST, text: _Text) -> ast.AST:
    """What a constant is shown in: its expression when short and on one line, else itself."""
    if isinstance(parent, ast.expr) and parent.lineno == parent.end_lineno and (
            text.end(parent) - text.start(parent) <= 50):
        return parent
    return node


def _parses(mutant: Mutant) -> bool:
    try:
        ast.parse(mutant.apply((ROOT / mutant.file).read_bytes()))
    except SyntaxError:
        return False
    return True


def area_lines(name: str) -> dict[str, set[int] | None]:
    """The area's files, each with the lines its mutants are kept to (None: all)."""
    covered: dict[str, set[int] | None] = {}
    for pattern in AREAS[name].modules:
        glob, _, part = pattern.partition("::")
        for path in ROOT.glob(glob):
            relative = str(path.relative_to(ROOT))
            if not part:
                covered[relative] = None
            elif relative not in covered or covered[relative] is not None:
                covered.setdefault(relative, set())
                covered[relative] |= _lines_of_part(path, part)
    return dict(sorted(covered.items()))


def _lines_of_part(path: Path, dotted: str) -> set[int]:
    """The lines of `Name.inner` in a module: a function, a class or an assigned name."""
    node: ast.AST = ast.parse(path.read_bytes())
    for name in dotted.split("."):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                named = child.name == name
            elif isinstance(child, ast.AnnAssign):
                named = isinstance(child.target, ast.Name) and child.target.id == name
            elif isinstance(child, ast.Assign):
                named = any(isinstance(t, ast.Name) and t.id == name for t in child.targets)
            else:
                named = False
            if named:
                node = child
                break
        else:
            raise SystemExit(f"{path.relative_to(ROOT)}: no {dotted} (scripts/mutation.py AREAS)")
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    return set(range(first, node.end_lineno + 1))


def area_mutants(name: str) -> list[Mutant]:
    """Every mutant of an area, numbered `(2)`, `(3)` … where one line holds one change
    twice, so each has its own (file, line, change)."""
    mutants: list[Mutant] = []
    for relative, lines in area_lines(name).items():
        seen: dict[tuple[int, str], int] = {}
        for mutant in mutants_of(relative):
            if lines is not None and mutant.line not in lines:
                continue
            key = (mutant.line, mutant.change)
            seen[key] = seen.get(key, 0) + 1
            if seen[key] > 1:
                mutant = Mutant(mutant.file, mutant.line, f"{mutant.change} ({seen[key]})",
                                mutant.edits)
            mutants.append(mutant)
    return mutants


def missing_tests(name: str) -> list[str]:
    """The tests an area names that are not there: a file that does not exist, or a
    `file::name` whose file defines no function of that name (a test moved or renamed would
    otherwise run nothing of the area, or fail as if a mutant were killed)."""
    missing = []
    for test in AREAS[name].tests:
        file, _, function = test.partition("::")
        path = ROOT / file
        defined = path.is_file() and (not function or re.search(
            rf"^def {re.escape(function)}\(", path.read_text(encoding="utf-8"), re.M))
        if not defined:
            missing.append(test)
    return missing


def sample(mutants: list[Mutant], count: int, seed: str) -> list[Mutant]:
    """`count` mutants, the same for the same seed and code: shuffled by the seed, taken in
    that order, those that would not parse passed over."""
    order = list(mutants)
    random.Random(seed).shuffle(order)
    chosen = []
    for mutant in order:
        if len(chosen) == count:
            break
        if _parses(mutant):
            chosen.append(mutant)
    return sorted(chosen, key=lambda m: (m.file, m.line, m.change))


# --- the equivalents ---------------------------------------------------------------------

@dataclass
class Equivalents:
    """scripts/mutation-equivalents.toml: each entry's file, line, change, the line's code
    and why the mutant changes nothing a test could see. An entry stands for the mutant of
    its file with its change on a line that reads as its code: lines moved by edits above
    it leave it matched (its `line` says where it was listed), a line edited leaves it
    stale, never matched to another mutant."""
    entries: list[dict] = field(default_factory=list)

    @classmethod
    def load(cls, path: Path = EQUIVALENTS) -> Equivalents:
        if not path.exists():
            return cls()
        return cls(tomllib.loads(path.read_text(encoding="utf-8")).get("equivalent", []))

    def entry_of(self, mutant: Mutant) -> dict | None:
        code = _code_at(mutant.file, mutant.line)
        for entry in self.entries:
            if (entry["file"], entry["change"]) == (mutant.file, mutant.change) and \
                    entry["code"].strip() == code:
                return entry
        return None

    def reason(self, mutant: Mutant) -> str | None:
        entry = self.entry_of(mutant)
        return None if entry is None else entry["reason"]

    def stale(self, known: dict[str, list[Mutant]]) -> list[dict]:
        """Entries of these files that no mutant matches (the line or the change differs)."""
        matched = {id(entry) for mutants in known.values() for mutant in mutants
                   if (entry := self.entry_of(mutant)) is not None}
        return [entry for entry in self.entries
                if entry["file"] in known and id(entry) not in matched]


def _code_at(relative: str, line: int) -> str:
    lines = _lines_of(ROOT / relative)
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""


@functools.lru_cache(maxsize=64)
def _lines_of(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


# --- running them ------------------------------------------------------------------------

class Copy:
    """A private copy of the repository the mutants are written into, one at a time, with
    ../shared beside it when the checkout has it (some tests read the specs there)."""

    def __init__(self) -> None:
        self.top = Path(tempfile.mkdtemp(prefix="bjh-mutation-"))
        self.root = self.top / "repository"
        self.root.mkdir()
        ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis", ".pytest_cache")
        for name in COPIED:
            source = ROOT / name
            if source.is_dir():
                shutil.copytree(source, self.root / name, ignore=ignore)
            elif source.exists():
                shutil.copy2(source, self.root / name)
        for shared in (ROOT.parent / "shared", ROOT.parent.parent / "shared"):
            if (shared / "spec").is_dir():
                (self.top / "shared").symlink_to(shared)
                break

    def environment(self) -> dict[str, str]:
        """The copy first on the path, and no bytecode written: a mutant of the same size
        written within a second of the last would otherwise be run from a stale .pyc."""
        environment = dict(os.environ, PYTHONPATH=str(self.root), PYTHONDONTWRITEBYTECODE="1")
        environment.pop("PYTEST_ADDOPTS", None)
        return environment

    def check_imported(self) -> None:
        """The package the tests import is the copy's (not an installed or editable one):
        else every mutant would survive, unseen."""
        found = subprocess.run([sys.executable, "-c", "import auditor; print(auditor.__file__)"],
                               cwd=self.root, env=self.environment(), capture_output=True,
                               text=True, check=True).stdout.strip()
        if Path(found).resolve() != (self.root / "auditor" / "__init__.py").resolve():
            raise SystemExit(f"the tests would import {found}, not the copy's auditor")

    def run(self, tests: tuple[str, ...], timeout: float) -> tuple[str, float, str]:
        """The tests once: ("passed" | "failed" | "timeout", seconds, first failure)."""
        environment = self.environment()
        began = time.monotonic()
        process = subprocess.Popen(
            [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests],
            cwd=self.root, env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            start_new_session=True)
        try:
            output, _ = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)  # pytest and whatever it started
            process.communicate()
            return "timeout", time.monotonic() - began, ""
        seconds = time.monotonic() - began
        if process.returncode == 0:
            return "passed", seconds, ""
        text = output.decode("utf-8", "replace")
        failed = re.search(r"^(?:FAILED|ERROR) (\S+)", text, re.M)
        return "failed", seconds, failed.group(1) if failed else f"exit {process.returncode}"

    def mutate(self, mutant: Mutant, tests: tuple[str, ...], timeout: float) -> Outcome:
        target = self.root / mutant.file
        original = target.read_bytes()
        try:
            target.write_bytes(mutant.apply(original))
            result, seconds, detail = self.run(tests, timeout)
        finally:
            target.write_bytes(original)
        verdict = {"passed": "survived", "failed": "killed", "timeout": "timeout"}[result]
        return Outcome(mutant, verdict, seconds, detail)

    def remove(self) -> None:
        shutil.rmtree(self.top, ignore_errors=True)


@dataclass
class Report:
    area: str
    sample: int
    seed: str
    outcomes: list[Outcome]

    def count(self, *verdicts: str) -> int:
        return sum(outcome.verdict in verdicts for outcome in self.outcomes)

    @property
    def score(self) -> float | None:
        judged = len(self.outcomes) - self.count("equivalent")
        return self.count("killed", "timeout") / judged if judged else None

    def row(self) -> str:
        score = "–" if self.score is None else f"{self.score:.0%}"
        survivors = "; ".join(f"{o.mutant.file}:{o.mutant.line} {o.mutant.change}"
                              for o in self.outcomes if o.verdict == "survived") or "none"
        return (f"| `{self.area}` | {self.sample} (seed {self.seed}) | {len(self.outcomes)} | "
                f"{self.count('killed', 'timeout')} | {self.count('timeout')} | "
                f"{self.count('equivalent')} | {self.count('survived')} | {score} | "
                f"{survivors.replace('|', chr(92) + '|')} |")


HEADER = ("| area | sample | mutants | killed | of which timeouts | equivalent | survived | "
          "killed of the non-equivalent | surviving mutants |\n"
          "|---|---|---|---|---|---|---|---|---|\n")


def markdown(rows: dict[str, str], equivalents: Equivalents) -> str:
    ordered = [rows[name] for name in AREAS if name in rows]
    listed = "\n".join(
        f"- `{e['file']}:{e['line']}` {e['change']}: {e['reason']}"
        for e in sorted(equivalents.entries, key=lambda e: (e["file"], e["line"], e["change"])))
    return (HEADER + "\n".join(ordered) + "\n\nEquivalent mutants (scripts/"
            "mutation-equivalents.toml), not run:\n\n" + (listed or "- none") + "\n")


def write_doc(reports: list[Report], equivalents: Equivalents) -> None:
    text = DOC.read_text(encoding="utf-8")
    match = SECTION.search(text)
    if match is None:
        raise SystemExit(f"{DOC}: no <!-- mutation: begin --> … <!-- mutation: end --> section")
    rows = {m.group(1): m.group(0) for m in re.finditer(r"^\| `(\w+)` \|.*$", match.group(0),
                                                        re.M)}
    rows.update({report.area: report.row() for report in reports})
    updated = text[:match.start()] + match.group(1) + markdown(rows, equivalents) + \
        match.group(2) + text[match.end():]
    DOC.write_text(updated, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("areas", nargs="+", choices=sorted(AREAS))
    parser.add_argument("--sample", type=int, help="mutants per area (default: the area's)")
    parser.add_argument("--seed", default="45", help="the sample's seed (default 45)")
    parser.add_argument("--timeout", type=float,
                        help="seconds per mutant (default: 60 + 3 times the unmutated run)")
    parser.add_argument("--list", action="store_true",
                        help="list every mutant of the areas (sampled ones marked), run none")
    parser.add_argument("--markdown", action="store_true", help="print the table")
    parser.add_argument("--doc", action="store_true",
                        help="write the table into docs/development.md")
    parser.add_argument("--verbose", action="store_true",
                        help="name the test that killed each mutant")
    options = parser.parse_args(argv)
    equivalents = Equivalents.load()
    reports: list[Report] = []
    status = 0
    copy = None if options.list else Copy()
    try:
        if copy is not None:
            copy.check_imported()
        for name in options.areas:
            area = AREAS[name]
            missing = missing_tests(name)
            if missing:
                print(f"{name}: tests named in AREAS that are not there: {', '.join(missing)}",
                      file=sys.stderr)
                return 2
            every = area_mutants(name)
            count = options.sample or area.sample
            chosen = sample(every, count, f"{options.seed}:{name}")
            by_file: dict[str, list[Mutant]] = {}
            for mutant in every:
                by_file.setdefault(mutant.file, []).append(mutant)
            lines = area_lines(name)
            for entry in equivalents.stale(by_file):
                if lines[entry["file"]] is not None and entry["line"] not in lines[entry["file"]]:
                    continue  # listed for a part of the file this area leaves alone
                print(f"{name}: stale equivalent (its line reads otherwise now, or no such "
                      f"mutant): {entry['file']}:{entry['line']} {entry['change']}",
                      file=sys.stderr)
            if options.list:
                picked = set(chosen)
                for mutant in every:
                    print(f"{'*' if mutant in picked else ' '} {mutant.file}:{mutant.line} "
                          f"{mutant.change}")
                print(f"{name}: {len(every)} mutants, {len(chosen)} sampled (*), against "
                      f"{len(area.tests)} test paths: {' '.join(area.tests)}")
                continue
            assert copy is not None
            result, seconds, detail = copy.run(area.tests, timeout=3600)
            if result != "passed":
                print(f"{name}: the unmutated tests do not pass ({detail}); nothing measured",
                      file=sys.stderr)
                return 2
            timeout = options.timeout or 60 + 3 * seconds
            print(f"{name}: {len(every)} mutants, {len(chosen)} sampled; the unmutated tests "
                  f"take {seconds:.0f} s, a mutant's timeout {timeout:.0f} s", file=sys.stderr)
            outcomes = []
            for number, mutant in enumerate(chosen, start=1):
                reason = equivalents.reason(mutant)
                if reason is not None:
                    outcome = Outcome(mutant, "equivalent", detail=reason)
                else:
                    outcome = copy.mutate(mutant, area.tests, timeout)
                outcomes.append(outcome)
                said = f" by {outcome.detail}" if options.verbose and outcome.detail and \
                    outcome.verdict == "killed" else ""
                print(f"[{number}/{len(chosen)}] {outcome.verdict}{said} ({outcome.seconds:.0f} "
                      f"s) {mutant.file}:{mutant.line} {mutant.change}", file=sys.stderr)
            report = Report(name, count, options.seed, outcomes)
            reports.append(report)
            print(f"\n{name}: {len(outcomes)} mutants, {report.count('killed', 'timeout')} "
                  f"killed ({report.count('timeout')} by timeout), "
                  f"{report.count('equivalent')} equivalent, {report.count('survived')} "
                  f"survived" + ("" if report.score is None else f": {report.score:.0%} of the "
                                 "non-equivalent killed"))
            for outcome in outcomes:
                if outcome.verdict == "survived":
                    print(f"  survived: {outcome.mutant.file}:{outcome.mutant.line} "
                          f"{outcome.mutant.change}")
            if report.score is not None and report.score < AIM:
                status = 1
    finally:
        if copy is not None:
            copy.remove()
    if options.markdown and reports:
        print()
        print(markdown({r.area: r.row() for r in reports}, equivalents), end="")
    if options.doc and reports:
        write_doc(reports, equivalents)
        print(f"{DOC.relative_to(ROOT)}: mutation table updated", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
