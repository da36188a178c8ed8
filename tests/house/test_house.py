"""The shape of the package: imports go one way (text → events → replay → checks → findings
→ store → outputs), with the pools and the cluster above the audit of one file. Read from
the source (every import, at module level or inside a function; imports only for type
checkers do not count), so a loop fails here before it fails at run time."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.helpers import ROOT

PACKAGE = ROOT / "auditor"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def type_checking_lines(tree: ast.Module) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for inner in node.body:
                lines.update(range(inner.lineno, (inner.end_lineno or inner.lineno) + 1))
    return lines


def import_graph(typing: bool = False) -> dict[str, set[str]]:
    """Module -> the package's modules it imports (a package named by `from p import m`
    stands for its submodule m, the package itself only for its own names); with `typing`,
    the imports for type checkers too."""
    modules = {module_name(path): path for path in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skipped = set() if typing else type_checking_lines(tree)
        for node in ast.walk(tree):
            if getattr(node, "lineno", None) in skipped:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    whole = f"{node.module}.{alias.name}"
                    targets.append(whole if whole in modules else node.module)
            graph[name].update(t for t in targets if t in modules and t != name)
    # The command line imports each command's module by name, when it is asked for.
    graph["auditor.cli"].update(command_modules().values())
    return graph


def command_modules() -> dict[str, str]:
    """The command line's table, command -> module, as auditor/cli.py writes it."""
    tree = ast.parse((PACKAGE / "cli.py").read_text(encoding="utf-8"))
    table = next(node.value for node in tree.body if isinstance(node, ast.Assign)
                 and getattr(node.targets[0], "id", None) == "COMMAND_MODULES")
    return ast.literal_eval(table)


def loops(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in sorted(graph[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def reaches(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        for other in graph[todo.pop()]:
            if other not in seen:
                seen.add(other)
                todo.append(other)
    return seen


def test_no_import_loop_in_the_package() -> None:
    assert loops(import_graph()) == []


def test_a_loop_would_be_seen() -> None:
    """The test above can fail: a made-up loop is found."""
    assert loops({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_audit_of_one_file_knows_nothing_of_pools_runs_or_what_comes_after() -> None:
    below = reaches(import_graph(), "auditor.audit")
    above = {"auditor.tasks", "auditor.split", "auditor.run", "auditor.cluster",
             "auditor.api", "auditor.store", "auditor.output.render", "auditor.cli",
             "auditor.commands"}
    assert below & above == set()


def test_the_shared_results_sit_below_every_layer_that_uses_them() -> None:
    below = reaches(import_graph(), "auditor.results")
    layers_above = ("auditor.audit", "auditor.run", "auditor.tasks", "auditor.split",
                    "auditor.cluster", "auditor.api", "auditor.store", "auditor.output",
                    "auditor.identity", "auditor.waivers", "auditor.baseline", "auditor.case",
                    "auditor.trends", "auditor.cli", "auditor.commands")
    assert [m for m in below if m.startswith(layers_above)] == []


def test_the_report_model_knows_nothing_of_how_it_is_shown_or_asked_for() -> None:
    """auditor/report/ says what the report says; auditor/output/ shows it and the command
    line asks for it: the model reaches neither (lazy imports inside functions count)."""
    graph = import_graph(typing=True)
    model = [m for m in graph if m.startswith("auditor.report")]
    assert model
    reached = set().union(*(reaches(graph, m) for m in model))
    assert sorted(m for m in reached if m.startswith(("auditor.output", "auditor.cli",
                                                      "auditor.commands"))
                  or m.endswith("_cli")) == []


# The parser's stages (auditor/parser/), in order: each imports only stages before it, and
# none the package's façade (auditor/parser/__init__.py), which names what the rest uses.
PARSER_STAGES = ("auditor.parser.grammar", "auditor.parser.builders",
                 "auditor.parser.diagnosis", "auditor.parser.fast", "auditor.parser.batches")


def stages_out_of_order(graph: dict[str, set[str]], stages: tuple[str, ...]) -> list[str]:
    """Each stage's imports of its own package that are not of a stage before it."""
    package = stages[0].rsplit(".", 1)[0]
    return [f"{stage} imports {other}" for index, stage in enumerate(stages)
            for other in sorted(graph[stage])
            if (other == package or other.startswith(package + "."))
            and other not in stages[:index]]


def test_the_parsers_stages_import_only_the_stages_before_them() -> None:
    graph = import_graph(typing=True)
    assert sorted(m for m in graph if m.startswith("auditor.parser.")) == sorted(PARSER_STAGES)
    assert stages_out_of_order(graph, PARSER_STAGES) == []


def test_a_stage_out_of_order_would_be_seen() -> None:
    """The test above can fail: a stage importing a later one, or the façade, is named."""
    graph = {"p": {"p.a", "p.b"}, "p.a": {"p.b", "x"}, "p.b": {"p"}}
    assert stages_out_of_order(graph, ("p.a", "p.b")) == ["p.a imports p.b", "p.b imports p"]


def test_the_parser_reads_text_into_events_and_knows_nothing_after_them() -> None:
    """text → statements → events: the parser reaches the events, the settings' limits and
    the cache it keeps the grammar in; nothing that reads events (lazy imports count)."""
    outside = sorted(m for m in reaches(import_graph(typing=True), "auditor.parser")
                     if not m.startswith("auditor.parser."))
    assert outside == ["auditor.cache", "auditor.config", "auditor.events",
                       "auditor.fieldwise", "auditor.resources"]


# The simulator: the round model (cards, the game's round builder, the table's session and
# the hooks they consult) below, the fault injectors above it, handed to the session.
SIMULATOR_BELOW_FAULTS = ("auditor.simulate.cards", "auditor.simulate.strategy",
                          "auditor.simulate.sampling", "auditor.simulate.pays",
                          "auditor.simulate.round_parts", "auditor.simulate.settling",
                          "auditor.simulate.player_turns", "auditor.simulate.game",
                          "auditor.simulate.spec", "auditor.simulate.table",
                          "auditor.simulate.hooks")


def test_the_simulators_faults_are_in_no_import_loop_even_for_type_checking() -> None:
    """(The package's loops at run time are test_no_import_loop_in_the_package's.)"""
    simulator = {name: {m for m in imported if m.startswith("auditor.simulate")}
                 for name, imported in import_graph(typing=True).items()
                 if name.startswith("auditor.simulate")}
    assert "auditor.simulate.faults.registry" in simulator
    assert [loop for loop in loops(simulator)
            if any(m.startswith("auditor.simulate.faults") for m in loop)] == []


def test_the_simulators_table_and_game_know_nothing_of_the_faults() -> None:
    """Not even for type checking: the injectors sit above the models they bend."""
    graph = import_graph(typing=True)
    knows = {module: sorted(m for m in reaches(graph, module)
                            if m.startswith("auditor.simulate.faults"))
             for module in SIMULATOR_BELOW_FAULTS}
    assert knows == {module: [] for module in SIMULATOR_BELOW_FAULTS}


def test_the_fault_registry_imports_nothing_of_the_table_or_the_game() -> None:
    below = reaches(import_graph(), "auditor.simulate.faults.registry")
    assert below & {"auditor.simulate.game", "auditor.simulate.table", "auditor.simulate.spec",
                    "auditor.simulate.settling", "auditor.simulate.player_turns"} == set()


def live(module: str) -> bool:
    return module == "auditor.live" or module.startswith("auditor.live.")


def test_the_live_floor_is_imported_by_nothing_below_it() -> None:
    """auditor/live/ (watch, its alerts and its page) sits above every layer: only the
    command line may import it."""
    graph = import_graph(typing=True)
    importers = sorted(module for module, imported in graph.items()
                       if not live(module) and module not in ("auditor.cli", "auditor.__main__")
                       and any(live(m) for m in imported))
    assert importers == []


def test_the_live_page_knows_only_the_floor_of_the_watcher() -> None:
    """The page reads the LiveFloor the watcher writes; it imports nothing else of it."""
    graph = import_graph(typing=True)
    assert sorted(m for m in reaches(graph, "auditor.live.page") if live(m)) == [
        "auditor.live.floor"]


def commands_module(module: str) -> bool:
    return module == "auditor.commands" or module.startswith("auditor.commands.")


def test_every_command_is_a_module_of_its_own_that_only_the_command_line_imports() -> None:
    """Each command's module adds its parser and runs it (`add_parser`, `run`); the command
    line names them all, and nothing below it imports one."""
    import importlib

    from auditor.cli import COMMANDS, build_parser

    table = command_modules()
    assert tuple(table) == COMMANDS
    for module in set(table.values()):
        loaded = importlib.import_module(module)
        assert callable(loaded.add_parser) and callable(loaded.run), module
    assert tuple(build_parser()._subparsers._group_actions[0].choices) == COMMANDS
    graph = import_graph(typing=True)
    importers = sorted(module for module, imported in graph.items()
                       if not commands_module(module) and module != "auditor.cli"
                       and any(commands_module(m) for m in imported))
    assert importers == []


def function_sizes(path: Path) -> dict[str, int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name: (node.end_lineno or node.lineno) - node.lineno + 1
            for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}


def test_the_command_line_is_thin() -> None:
    """No function of cli.py or of a command's module over 60 lines (issue 44): the audit
    is its steps, each a function."""
    paths = [PACKAGE / "cli.py", *sorted((PACKAGE / "commands").glob("*.py"))]
    over = {f"{path.name}:{name}": size for path in paths
            for name, size in function_sizes(path).items() if size > 60}
    assert over == {}
    assert len(function_sizes(PACKAGE / "commands" / "audit.py")) >= 10


MODULE_LINES = 600


def modules_over(limit: int) -> dict[str, int]:
    sizes = {path.relative_to(PACKAGE).as_posix():
             len(path.read_text(encoding="utf-8").splitlines())
             for path in PACKAGE.rglob("*.py")}
    return {name: lines for name, lines in sizes.items() if lines > limit}


def test_no_module_of_the_package_is_over_600_lines() -> None:
    """A module is one idea a newcomer can read at a sitting (issue 44)."""
    assert modules_over(MODULE_LINES) == {}


def test_a_module_over_the_limit_would_be_seen() -> None:
    assert "simulate/table.py" in modules_over(400) and "cli.py" not in modules_over(400)


# The run store (issue 44): every statement the auditor sends a database is made in
# auditor/store/, and the store knows nothing of how a run is audited or judged.
DATABASE_LIBRARIES = ("sqlalchemy", "alembic", "sqlite3", "psycopg", "psycopg2")
SQL_STATEMENT = re.compile(
    r"\b(?:SELECT\b.+\bFROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|"
    r"CREATE\s+(?:TABLE|INDEX|VIEW|UNIQUE\s+INDEX)|ALTER\s+TABLE|DROP\s+(?:TABLE|INDEX)|"
    r"PRAGMA\s+\w+|BEGIN\s+(?:IMMEDIATE|EXCLUSIVE))\b", re.DOTALL)
# What audits or runs audits, above the store: the single-file audit, the run and its
# merger, the pools, the pieces of a large file, the cluster, the library's entry points,
# what is judged; and the checks.
RUN_LAYER = ("auditor.audit", "auditor.run", "auditor.tasks", "auditor.split",
             "auditor.cluster", "auditor.api", "auditor.selection")


def in_store(module: str) -> bool:
    return module == "auditor.store" or module.startswith("auditor.store.")


def database_imports(source: str) -> list[str]:
    """The database libraries a module's source imports: anywhere in it, inside a function
    or for type checkers alike."""
    found = []
    for node in ast.walk(ast.parse(source)):
        names = ([alias.name for alias in node.names] if isinstance(node, ast.Import) else
                 [node.module] if isinstance(node, ast.ImportFrom) and node.module
                 and not node.level else [])
        found += [name for name in names if name.split(".")[0] in DATABASE_LIBRARIES]
    return found


def sql_texts(source: str) -> list[str]:
    """The string constants of a module (docstrings too, and the literal parts of
    f-strings) that read as an SQL statement: a statement's opening words in
    capitals, as SQL is written in this house (`SELECT … FROM`, `INSERT INTO`, `UPDATE t
    SET`, `DELETE FROM`, `CREATE TABLE|INDEX|VIEW`, `ALTER TABLE`, `DROP TABLE|INDEX`,
    `PRAGMA x`, `BEGIN IMMEDIATE`). Comments are not strings; SQL in lower case would pass
    here but could not be run without a database library (`database_imports`)."""
    return [node.value for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and SQL_STATEMENT.search(node.value)]


def outside_the_store() -> dict[str, str]:
    return {module_name(path): path.read_text(encoding="utf-8")
            for path in sorted(PACKAGE.rglob("*.py")) if not in_store(module_name(path))}


def test_no_module_outside_the_store_imports_a_database_library() -> None:
    """All SQL lives in auditor/store/: no module outside it imports SQLAlchemy, Alembic or
    a database driver (sqlite3, psycopg), even for type checkers or inside a function; it
    calls the store's named functions with plain values (`store.engine` names the
    `Engine` handle and `DatabaseFault` for the rest)."""
    imports = {module: found for module, source in outside_the_store().items()
               if (found := database_imports(source))}
    assert imports == {}


def test_no_sql_text_outside_the_store() -> None:
    """No string outside auditor/store/ holds an SQL statement (the rule: `sql_texts`)."""
    texts = {module: found for module, source in outside_the_store().items()
             if (found := sql_texts(source))}
    assert texts == {}


def test_the_sql_rules_would_see_sql_outside_the_store() -> None:
    """The two tests above can fail: an import of the database library, and statements in
    strings, are seen; words of prose are not."""
    source = '''
from typing import TYPE_CHECKING
if TYPE_CHECKING:
    from sqlalchemy import Engine
def latest(connection):
    import sqlite3.dbapi2
    return connection.exec_driver_sql(f"SELECT id FROM {TABLE} ORDER BY id")
DOC = "select the run, then update the table; insert into the report"
'''
    assert database_imports(source) == ["sqlalchemy", "sqlite3.dbapi2"]
    assert sql_texts(source) == ["SELECT id FROM "]
    assert sql_texts('x = "INSERT INTO runs VALUES (1)"\ny = "DELETE FROM runs"') == [
        "INSERT INTO runs VALUES (1)", "DELETE FROM runs"]


def test_the_store_imports_nothing_of_the_checks_or_the_run_layer() -> None:
    """The store only stores: it reaches (lazy imports and imports for type checkers
    counted) only the models every layer shares (findings, results, money, gaming days,
    tallies, replays, the waivers' status), never the checks nor what audits and merges
    a run (`RUN_LAYER`: the one merger of a run's results is auditor/run.py's)."""
    graph = import_graph(typing=True)
    store = [module for module in graph if in_store(module)]
    assert "auditor.store.runs" in store
    reached = set().union(*(reaches(graph, module) for module in store))
    assert sorted(m for m in reached if m in RUN_LAYER or m == "auditor.checks"
                  or m.startswith("auditor.checks.")) == []


# The tests' own house: what test modules share is in tests/helpers/ (docs/development.md,
# "Where the tests are"); a test module imported by another would bring its fixtures and
# its module-level work (audits, simulated floors) into every module that imports it.

def other_tests_imported(tests: Path) -> dict[str, list[str]]:
    """Test module (relative path) -> the modules of `tests` it imports other than the
    helpers and conftest: at any depth of its code, relative imports and
    `import_module("…")` of a literal name included."""
    found: dict[str, list[str]] = {}
    for path in sorted(tests.rglob("test_*.py")):
        package = ".".join(("tests", *path.parent.relative_to(tests).parts))
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # `from . import x`, `from ..floor.test_x import y`
                    parent = package.split(".")[:len(package.split(".")) - node.level + 1]
                    base = ".".join([*parent, *([base] if base else [])])
                names.update(f"{base}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(
                    node.func, "id", None)) == "import_module" and node.args and isinstance(
                    node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                names.add(node.args[0].value)
        others = sorted(name for name in names if name.startswith("tests.") and not (
            name + ".").startswith(("tests.helpers.", "tests.conftest.")))
        if others:
            found[path.relative_to(tests).as_posix()] = others
    return found


def test_no_test_module_imports_another() -> None:
    assert other_tests_imported(ROOT / "tests") == {}


def test_a_test_module_importing_another_would_be_seen(tmp_path: Path) -> None:
    (tmp_path / "floor").mkdir()
    (tmp_path / "floor" / "test_kept.py").write_text(
        "from tests.helpers import ROOT\nfrom tests.helpers.audits import audit\n"
        "import tests.conftest\n\n"
        "def test_it():\n    from tests.helpers.views import every_view\n"
        "    return 'from tests.floor.test_trends import record_nights'\n",
        encoding="utf-8")
    (tmp_path / "floor" / "test_importing.py").write_text(
        "from tests.floor.test_trends import record_nights\nimport tests.live.test_watch\n"
        "from . import test_kept\nfrom .test_gaming_day import NIGHT\n"
        "from tests.outputs import test_report\n\n"
        "def test_it():\n    from tests.checks.test_open_round import round_text\n"
        "    importlib.import_module('tests.cli.test_jobs')\n",
        encoding="utf-8")
    assert other_tests_imported(tmp_path) == {"floor/test_importing.py": [
        "tests.checks.test_open_round.round_text", "tests.cli.test_jobs",
        "tests.floor.test_gaming_day.NIGHT", "tests.floor.test_kept",
        "tests.floor.test_trends.record_nights", "tests.live.test_watch",
        "tests.outputs.test_report"]}
