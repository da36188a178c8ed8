"""The registry of games (auditor/checks/games.py) and the check runner that reads it
(auditor/checks/runner.py): every game of the rule catalogue is registered, every module of
checks is reachable from the registry, nothing is derived or registered behind its back,
and the runner returns what it judged."""

from __future__ import annotations

import ast
import inspect
import re

import pytest

from auditor.checks import games
from auditor.checks.base import GAMES, FileView, registry
from auditor.checks.runner import RoundRunner, checks_for, runner_for
from auditor.config import Game
from auditor.parser import parse_lines
from auditor.reader import Header, RoundRecord, read_structure
from auditor.replay.engine import replay_round
from auditor.replay.state import TableState
from auditor.results import FileResult, InputSummary
from auditor.rulebase import load_rule_base
from auditor.source import SourceFile
from tests.helpers import ROOT, SAMPLES
from tests.helpers.casefiles import load_cases

CHECKS = ROOT / "auditor" / "checks"


def test_every_game_the_format_knows_is_registered_once() -> None:
    names = [each.name for each in games.GAMES]
    assert sorted(names) == sorted(set(names)) == sorted(GAMES) == sorted(Game.__args__)


def test_every_section_of_the_rule_catalogue_is_a_registered_games_own() -> None:
    """rules/*.toml: the chapter, the record and one section per game variation."""
    sections = {section.section for section in load_rule_base()}
    own = {each.section for each in games.GAMES if each.section is not None}
    assert sections - own == {"20:18:15", "record"}
    assert own <= sections


def test_each_catalogued_check_lives_in_its_games_modules() -> None:
    """A subsection of a game's section is judged by a check of that game's own modules."""
    for each in (g for g in games.GAMES if g.section is not None):
        [section] = [s for s in load_rule_base() if s.section == each.section]
        names = {c.name for c in registry().values()
                 if type(c).__module__ in listed(each.checks)}
        wanted = {entry.check for entry in section.entries if entry.check is not None}
        assert wanted and wanted <= names, each.name


def modules_with_checks() -> set[str]:
    """The modules under auditor/checks/ that declare a check (a class under @register)."""
    found = set()
    for path in CHECKS.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if any(isinstance(node, ast.ClassDef) and any(
                getattr(d, "id", None) == "register" for d in node.decorator_list)
               for node in ast.walk(tree)):
            parts = path.relative_to(CHECKS.parent.parent).with_suffix("").parts
            found.add(".".join(parts).removesuffix(".__init__"))
    return found


def listed(modules) -> set[str]:
    return {module.__name__ for module in modules}


def unreachable(declaring: set[str], reachable: set[str]) -> list[str]:
    return sorted(declaring - reachable)


def test_every_check_module_is_reachable_from_the_registry() -> None:
    declaring = modules_with_checks()
    assert "auditor.checks.record" in declaring
    assert unreachable(declaring, listed(games.check_modules())) == []
    # and every registered check came from a module the registry lists
    assert {type(c).__module__ for c in registry().values()} <= listed(games.check_modules())


def test_a_module_left_out_of_the_registry_would_be_seen() -> None:
    """The test above can fail: a module of checks not listed is named."""
    listing = listed(m for m in games.check_modules() if not m.__name__.endswith(".db21"))
    assert unreachable(modules_with_checks(), listing) == ["auditor.checks.db21"]


def test_a_games_own_checks_judge_that_game_alone() -> None:
    for each in games.GAMES:
        for check in registry().values():
            if type(check).__module__ in listed(each.checks):
                assert check.games == {each.name}, check.name


def test_every_module_the_registry_lists_declares_checks() -> None:
    assert listed(games.check_modules()) <= modules_with_checks()


def replayed(text_lines) -> tuple[list, object]:
    """The rounds of a record replayed, and its header's table."""
    state, views = None, []
    for item in read_structure(parse_lines(text_lines)):
        if isinstance(item, Header):
            state = TableState(item.config)
        elif isinstance(item, RoundRecord):
            views.append(replay_round(state, item, "runner.bjh"))
    assert state is not None
    return views, state.config


@pytest.mark.parametrize("name", [g.name for g in games.GAMES if g.facts is not None])
def test_a_games_facts_are_derived_on_first_use_by_the_registered_function(name: str) -> None:
    """The replay derives nothing of a game by itself (no hook registered out of sight)."""
    [path] = [p for p in SAMPLES.glob("*.bjh") if p.name.startswith(f"{name}-")][:1]
    views, _ = replayed(SourceFile(str(path)).lines())
    view = views[0]
    assert view.derived == {}
    facts = games.game(name).facts(view)
    assert view.derived == {name: facts}
    assert games.game(name).facts(view) is facts  # derived once


def test_an_unknown_game_is_not_in_the_registry() -> None:
    with pytest.raises(KeyError):
        games.game("swatch")


def case_lines(citation: str, kind: str) -> list[tuple[int, str, None]]:
    case = next(c for c in load_cases() if c.citation == citation and c.kind == kind)
    return [(n, t, None) for n, t in enumerate(case.text.split("\n"), 1)]


def test_the_runner_returns_the_findings_it_adds_to_the_file() -> None:
    """`run` gives back exactly what it adds to the file's result, in order; `run_file`
    the same for the file's own checks."""
    views, config = replayed(case_lines("20:18:15:06", "violating"))
    result = FileResult(InputSummary(path="runner.bjh"))
    runner = runner_for(config, result, None, [])
    returned = [finding for view in views for finding in runner.run(view)]
    assert returned == result.findings
    assert "20:18:15:06" in {f.citation for f in returned}
    assert runner.judged == len(views) and runner.regulation
    assert runner.run_file(FileView("runner.bjh", config)) == result.findings[len(returned):]


def test_the_runner_returns_nothing_for_a_compliant_round() -> None:
    views, config = replayed(case_lines("20:18:15:06", "compliant"))
    result = FileResult(InputSummary(path="runner.bjh"))
    runner = runner_for(config, result, None, [])
    assert [runner.run(view) for view in views] == [[]] * len(views)
    assert result.findings == []


def test_no_game_known_runs_the_record_checks_alone() -> None:
    checks = checks_for(None, games.every_check())
    assert checks and all(c.citation.startswith("record:") for c in checks)
    assert {"20:18:15:30.10(2)", "record:syntax"} <= {
        c.citation for c in checks_for("db21", games.every_check())}
    assert "20:18:15:30.10(2)" not in {
        c.citation for c in checks_for("standard", games.every_check())}


def test_a_runner_over_no_checks_finds_nothing() -> None:
    views, _ = replayed(case_lines("20:18:15:06", "violating"))
    result = FileResult(InputSummary(path="runner.bjh"))
    runner = RoundRunner([], result, regulation=False)
    assert [runner.run(view) for view in views] == [[]] * len(views)
    assert runner.judged == 0 and result.findings == []


def test_no_module_of_the_checks_is_over_600_lines() -> None:
    """A game's checks are split by idea into a package (issue 44), none a long scroll."""
    long = {str(path.relative_to(CHECKS)): lines for path in CHECKS.rglob("*.py")
            if (lines := len(path.read_text(encoding="utf-8").splitlines())) > 600}
    assert long == {}


DEVELOPMENT = CHECKS.parent.parent / "docs" / "development.md"
EXAMPLE = re.compile(r"<!-- example check: begin -->\n```python\n(.*?)```\n"
                     r"<!-- example check: end -->", re.S)


def test_the_example_check_in_the_docs_is_the_real_one_and_runs() -> None:
    """docs/development.md's example is the registered check's source, and the block, run
    as code (its class made again, not registered a second time), finds what it finds."""
    from auditor.checks.switch import table

    [block] = EXAMPLE.findall(DEVELOPMENT.read_text(encoding="utf-8"))
    assert block == inspect.getsource(table.InsuranceOnAce)
    namespace = dict(vars(table), register=lambda cls: cls)
    exec(compile(block, "docs/development.md", "exec"), namespace)
    example, registered = namespace["InsuranceOnAce"](), registry()["20:18:15:30.09(9)"]
    assert type(example) is not type(registered)
    views, _ = replayed(case_lines("20:18:15:30.09(9)", "violating"))
    found = [f for view in views for f in example.round(view)]
    assert found == [f for view in views for f in registered.round(view)]
    assert [(f.citation, f.line) for f in found] == [("20:18:15:30.09(9)", 19)]


def test_the_registry_order_is_by_game_module_then_the_rule_base() -> None:
    """Not the order the modules happen to be imported in: Switch's checks come in the
    order of their subsections though their modules interleave them (the simulator draws
    its faults in this order, so a seed keeps giving the same records)."""
    order = list(registry())
    switch = [c for c in order if c.startswith("20:18:15:30.09")]
    assert switch == sorted(switch, key=lambda c: int(c.split("(")[1].rstrip(")")))
    assert [c for c in order if c.startswith("record:") and c != "record:approval"] == [
        "record:syntax", "record:reference", "record:card-count", "record:unsettled",
        "record:header"]
    groups = [type(registry()[c]).__module__.split(".")[2] for c in order]
    assert groups == sorted(groups)
