"""Every round of the rule cases (tests/cases/*.toml) and the sample logs replayed into
its view, as the check runner sees it."""

from __future__ import annotations

from auditor import events as ev
from auditor.parser import parse_lines
from auditor.reader import Header, RoundRecord, read_structure
from auditor.replay.engine import replay_round
from auditor.replay.state import TableState
from auditor.source import SourceFile
from tests.helpers import SAMPLE_FILES
from tests.helpers.casefiles import load_cases


def views_of(lines):
    """The view of each round of numbered `lines` (number, text, …), replayed in order."""
    state = None
    for item in read_structure(parse_lines(lines)):
        if isinstance(item, Header):
            state = TableState(item.config)
        elif isinstance(item, RoundRecord) and state is not None:
            yield replay_round(state, item, "needs.bjh")
        elif isinstance(item, ev.Event) and state is not None:
            state.apply(item)


def every_view():
    """Each round's view, of every rule case and then every sample log."""
    for case in load_cases():
        yield from views_of((n, t, None) for n, t in enumerate(case.text.split("\n"), 1))
    for path in SAMPLE_FILES:
        source = SourceFile(str(path))
        source.open_check()
        yield from views_of(source.lines())
