"""The fixed cost of a process, without a change of output: a store at the head revision
opened without Alembic, a new store made from the models equal to one the migrations made,
the report's templates compiled once per user (auditor/cache.py), the grammar's terminals
derived once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect

from auditor.store import open_store
from auditor.store.engine import HEAD_REVISION, KNOWN_REVISIONS, MIGRATIONS, _upgrade
from tests.helpers import ROOT

SAMPLE = ROOT / "sample_logs" / "db21-t07-2026-11-20.bjh"


def run_python(code: str, **environment: str) -> str:
    """`code` run by a new Python process (so its imports are its own); its output."""
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, env={**os.environ, **environment}, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


# ---- the store ----

def test_the_head_revision_and_the_known_ones_are_the_migration_scripts():
    from alembic.script import ScriptDirectory

    scripts = ScriptDirectory(str(MIGRATIONS))
    assert scripts.get_heads() == [HEAD_REVISION]
    assert {script.revision for script in scripts.walk_revisions()} == KNOWN_REVISIONS


def _sqlalchemy_url(location: str) -> str:
    return location if "://" in location else f"sqlite:///{location}"


def _schema(url: str) -> dict:
    """Every table of a store as the database describes it: columns (type, nullable,
    default), primary key, foreign keys, indexes and unique constraints. Not the order of
    the columns: 0004 adds findings.currency at the end, as a migration must, and nothing
    reads a column by its position."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            found = inspect(connection)
            tables = {}
            for table in sorted(found.get_table_names()):
                columns = {c["name"]: (str(c["type"]), c["nullable"], c.get("default"))
                           for c in found.get_columns(table)}
                primary = found.get_pk_constraint(table)
                foreign = sorted(
                    (tuple(f["constrained_columns"]), f["referred_table"],
                     tuple(f["referred_columns"]), sorted(f.get("options", {}).items()))
                    for f in found.get_foreign_keys(table))
                indexes = sorted((i["name"], tuple(i["column_names"]), bool(i["unique"]))
                                 for i in found.get_indexes(table))
                unique = sorted(tuple(u["column_names"])
                                for u in found.get_unique_constraints(table))
                tables[table] = (columns, tuple(primary["constrained_columns"]),
                                 primary.get("name"), foreign, indexes, unique)
            revision = found.has_table("alembic_version") and sorted(
                connection.exec_driver_sql("SELECT version_num FROM alembic_version")
                .scalars())
    finally:
        engine.dispose()
    return {"tables": tables, "revision": revision}


@pytest.fixture
def second_store_url(store_url, request, tmp_path):
    """Another empty store of the same kind as `store_url`."""
    if "://" not in store_url:
        return str(tmp_path / "migrated.sqlite")
    from tests.helpers.postgres import create_database

    socket = request.getfixturevalue("postgres_socket")
    return create_database(socket, f"bjh_m{abs(hash(request.node.nodeid)) % 10**12}")


def test_a_new_store_made_from_the_models_is_the_store_the_migrations_make(
        store_url, second_store_url):
    """open_store makes a new store from schema.py and stamps it at the head; the
    migrations, run from nothing by Alembic, make the same tables, keys and indexes."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from auditor.store import schema

    open_store(store_url, new_store=True).dispose()
    migrated = create_engine(_sqlalchemy_url(second_store_url))
    with migrated.begin() as connection:
        _upgrade(connection)
    with migrated.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), schema.metadata) == []
    migrated.dispose()
    made, expected = _schema(_sqlalchemy_url(store_url)), _schema(
        _sqlalchemy_url(second_store_url))
    assert made["revision"] == [HEAD_REVISION]
    assert made == expected
    assert {"runs", "findings", "tally_rounds", "incident_exports"} <= set(made["tables"])


def test_a_store_opens_without_alembic_when_new_and_at_the_head(tmp_path):
    store = tmp_path / "floor.sqlite"
    code = ("import sys; from auditor.store import open_store; "
            f"open_store({str(store)!r}).dispose(); "
            f"open_store({str(store)!r}, read_only=True).dispose(); "
            "print('alembic' in sys.modules, "
            "sorted(m for m in sys.modules if m.startswith('alembic'))[:3])")
    assert run_python(code).split()[0] == "False"  # made new, then read
    assert run_python(code).split()[0] == "False"  # opened at the head
    assert not list(tmp_path.glob("*.sqlite-journal"))


def test_an_old_store_is_still_upgraded_by_the_migrations(tmp_path):
    from tests.helpers.old_stores import store_at

    store = tmp_path / "old.sqlite"
    store_at(f"sqlite:///{store}", "0002")
    code = ("import sys; from auditor.store import open_store; "
            "from auditor.store.engine import schema_revision; "
            f"engine = open_store({str(store)!r}); "
            "print(schema_revision(engine), 'alembic' in sys.modules)")
    assert run_python(code).split() == [HEAD_REVISION, "True"]


# ---- the private cache: compiled templates and the grammar's terminals ----

COUNT_COMPILES = """
import jinja2
compiled = []
original = jinja2.Environment.compile
def counted(self, source, name=None, filename=None, *args, **kwargs):
    compiled.append(name)
    return original(self, source, name, filename, *args, **kwargs)
jinja2.Environment.compile = counted
from auditor.output.html_report import load_templates
load_templates()
print(len(compiled))
"""


def test_the_report_templates_are_compiled_once_then_read_from_the_cache(tmp_path):
    cache = tmp_path / "cache"
    assert int(run_python(COUNT_COMPILES, XDG_CACHE_HOME=str(cache))) >= 7
    assert int(run_python(COUNT_COMPILES, XDG_CACHE_HOME=str(cache))) == 0
    (folder,) = (cache / "bjh-auditor").glob("templates-*")
    assert (cache / "bjh-auditor").stat().st_mode & 0o777 == 0o700
    assert folder.stat().st_mode & 0o777 == 0o700


def _environment(templates: Path):
    from jinja2 import Environment, FileSystemLoader

    from auditor.output.template_cache import use_template_cache

    environment = Environment(loader=FileSystemLoader(templates), autoescape=True)
    use_template_cache(environment)
    compiled: list[str] = []
    original = environment.compile

    def counted(source, name=None, filename=None, *args, **kwargs):
        compiled.append(name)
        return original(source, name, filename, *args, **kwargs)

    environment.compile = counted
    return environment, compiled


def test_a_changed_template_is_compiled_again(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "page.j2").write_text("<p>{{ name }}</p>")
    first, compiled = _environment(templates)
    assert first.get_template("page.j2").render(name="<b>") == "<p>&lt;b&gt;</p>"
    assert compiled == ["page.j2"]
    second, compiled = _environment(templates)
    assert second.get_template("page.j2").render(name="x") == "<p>x</p>"
    assert compiled == []  # from the cache
    (templates / "page.j2").write_text("<div>{{ name }}</div>")
    third, compiled = _environment(templates)
    assert third.get_template("page.j2").render(name="x") == "<div>x</div>"
    assert compiled == ["page.j2"]


def test_other_settings_never_share_compiled_templates(tmp_path, monkeypatch):
    """Autoescaping is compiled into a template: an environment without it has a folder
    of its own."""
    from jinja2 import Environment, FileSystemLoader

    from auditor.output.template_cache import settings_key

    loader = FileSystemLoader(tmp_path)
    assert settings_key(Environment(loader=loader, autoescape=True)) != \
        settings_key(Environment(loader=loader, autoescape=False))
    assert settings_key(Environment(loader=loader, trim_blocks=True)) != \
        settings_key(Environment(loader=loader))


def test_a_filter_changed_in_place_never_meets_its_old_compiled_templates(tmp_path,
                                                                         monkeypatch):
    """Jinja compiles how a filter is called (and constants run through it) into the
    template's code: a filter's module edited in place, or a filter added, gives the
    compiled templates another folder, though no template changed."""
    import importlib.util
    import sys

    from jinja2 import Environment, FileSystemLoader

    from auditor.output import template_cache

    module_file = tmp_path / "house_filters.py"
    module_file.write_text("def money(value):\n    return f'{value} USD'\n", encoding="utf-8")
    spec = importlib.util.spec_from_file_location("house_filters", module_file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setitem(sys.modules, "house_filters", module)
    monkeypatch.setattr(template_cache, "_PACKAGE", str(tmp_path.resolve()))
    environment = Environment(loader=FileSystemLoader(tmp_path), autoescape=True)
    environment.filters["money"] = module.money
    before = template_cache.settings_key(environment)
    assert template_cache.settings_key(environment) == before  # stable while unchanged
    module_file.write_text("from jinja2 import pass_context\n\n\n@pass_context\n"
                           "def money(context, value):\n    return f'${value}'\n",
                           encoding="utf-8")
    edited = template_cache.settings_key(environment)
    assert edited != before
    environment.filters["cents"] = module.money
    assert template_cache.settings_key(environment) not in (before, edited)


def test_the_grammar_terminals_come_from_the_cache_without_building_lark(tmp_path):
    code = ("from auditor import parser; from auditor.events import Deal; "
            "line, empty = parser.fast._line_patterns(); "
            "assert line.match('deal s1h1 Tc').lastgroup == 'DEAL'; "
            "print(parser.lark_parser.cache_info().currsize)")
    cache = str(tmp_path / "cache")
    assert run_python(code, XDG_CACHE_HOME=cache).strip() == "1"  # derived from Lark
    assert run_python(code, XDG_CACHE_HOME=cache).strip() == "0"  # read from the cache
    (found,) = (tmp_path / "cache" / "bjh-auditor" / "grammar").glob("terminals-*.json")
    found.write_text("{not json")  # damaged: derived again, and written again
    assert run_python(code, XDG_CACHE_HOME=cache).strip() == "1"
    assert run_python(code, XDG_CACHE_HOME=cache).strip() == "0"


def _outputs(folder: Path) -> dict[str, bytes]:
    return {name: (folder / name).read_bytes()
            for name in ("findings.csv", "summary.csv")}


@pytest.mark.parametrize("unusable", ["a file in the way", "writable by others"])
def test_an_unusable_cache_folder_still_audits_the_same(tmp_path, unusable):
    blocked = tmp_path / "unusable"
    if unusable == "a file in the way":
        blocked.write_text("not a folder")
        cache = blocked / "cache"
    else:
        (blocked / "bjh-auditor").mkdir(parents=True)
        (blocked / "bjh-auditor").chmod(0o777)
        cache = blocked
    outputs = {}
    for name, cache_home in (("cached", tmp_path / "good"), ("blocked", cache)):
        done = subprocess.run(
            [sys.executable, "-m", "auditor", "audit", str(SAMPLE), "--out",
             str(tmp_path / name), "--quiet", "--store", str(tmp_path / f"{name}.sqlite")],
            cwd=ROOT, capture_output=True, text=True, timeout=300,
            env={**os.environ, "XDG_CACHE_HOME": str(cache_home)})
        assert (done.returncode, done.stderr) == (1, "")
        outputs[name] = _outputs(tmp_path / name)
    assert outputs["cached"] == outputs["blocked"]
    if unusable == "writable by others":
        assert list((blocked / "bjh-auditor").iterdir()) == []  # nothing written there


def test_a_second_audit_of_a_clean_record_neither_imports_alembic_nor_builds_lark(tmp_path):
    """The fixed work of a process, as a user's second run has it: a new store with no
    migration, the templates and the grammar's terminals from the cache."""
    code = ("import sys; from auditor import parser; from auditor.cli import main; "
            f"code = main(['audit', {str(SAMPLE)!r}, '--out', {str(tmp_path / 'out')!r}, "
            f"'--quiet', '--store', {str(tmp_path)!r} + f'/{{sys.argv[-1]}}.sqlite']); "
            "print(code, 'alembic' in sys.modules, parser.lark_parser.cache_info().currsize)")
    cache = str(tmp_path / "cache")
    for run in ("first", "second"):
        done = subprocess.run([sys.executable, "-c", code, run], cwd=ROOT, capture_output=True,
                              text=True, env={**os.environ, "XDG_CACHE_HOME": cache},
                              timeout=300)
        assert done.stderr == ""
        printed = done.stdout.split()
    assert printed == ["1", "False", "0"]


# ---- the exit ----

def test_the_command_and_python_m_end_with_the_objects_out_of_the_collectors_reach(
        tmp_path: Path) -> None:
    """`auditor` and `python -m auditor` run `command_line`: `main`, then `gc.freeze()`, so
    the interpreter's last collections walk nothing; the audit's outputs are whole."""
    import tomllib

    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["scripts"]
    assert scripts["auditor"] == "auditor.cli:command_line"
    assert "command_line()" in (ROOT / "auditor" / "__main__.py").read_text("utf-8")
    out = tmp_path / "out"
    shown = run_python(
        "import gc, sys\n"
        "from auditor.cli import command_line\n"
        f"sys.argv = ['auditor', 'audit', {str(SAMPLE)!r}, '--out', {str(out)!r}, '--quiet']\n"
        "code = command_line()\n"
        "print(code, gc.get_freeze_count() > 0)\n",
        XDG_DATA_HOME=str(tmp_path / "data"))
    assert shown.split() == ["1", "True"]
    assert {"findings.csv", "findings.json", "manifest.json", "report.html",
            "summary.csv"} <= {p.name for p in out.iterdir()}
    assert (out / "report.html").read_text("utf-8").rstrip().endswith("</html>")
