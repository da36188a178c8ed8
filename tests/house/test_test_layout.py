"""The tests' own house (docs/development.md, "Where the tests are"): every test module in a
folder named for what it tests, each folder a package, and the shared helpers below the
tests, never importing one."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.helpers import ROOT

TESTS = ROOT / "tests"
FOLDERS = {"parsing", "replay", "checks", "simulate", "evidence", "store", "floor", "live",
           "outputs", "cli", "house"}


def misplaced(tests: Path) -> list[str]:
    """The test modules under `tests` that are not directly in one of FOLDERS."""
    return sorted(path.relative_to(tests).as_posix() for path in tests.rglob("test_*.py")
                  if "fixtures" not in path.parts
                  and (path.parent.name not in FOLDERS or path.parent.parent != tests))


def imported(path: Path) -> set[str]:
    """Every module a file imports, at any depth of its code."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_every_test_module_is_in_a_folder_of_what_it_tests() -> None:
    assert misplaced(TESTS) == [], f"move each into one of tests/{{{','.join(sorted(FOLDERS))}}}/"


def test_each_folder_is_a_package() -> None:
    """Without tests/FOLDER/__init__.py a module is imported by its bare name, and another
    folder's `from tests.FOLDER.test_NAME import …` would load it a second time."""
    assert [folder for folder in sorted(FOLDERS | {"helpers"})
            if not (TESTS / folder / "__init__.py").is_file()] == []
    assert (TESTS / "__init__.py").is_file()


def test_the_helpers_import_no_test_module() -> None:
    """Helpers are what tests share: a helper importing a test would make that test's
    module, fixtures and all, a part of every module that uses the helper."""
    reaching = {str(path.relative_to(TESTS)): sorted(name for name in imported(path)
                                                     if name.split(".")[-1].startswith("test_"))
                for path in sorted((TESTS / "helpers").glob("*.py"))}
    assert {path: names for path, names in reaching.items() if names} == {}


def test_the_checks_see_a_test_left_at_the_top(tmp_path: Path) -> None:
    """The first check can fail: a module at the top of a tests folder is found."""
    (tmp_path / "checks").mkdir()
    (tmp_path / "checks" / "test_kept.py").write_text("", encoding="utf-8")
    (tmp_path / "test_left.py").write_text("", encoding="utf-8")
    (tmp_path / "nested" / "checks").mkdir(parents=True)
    (tmp_path / "nested" / "checks" / "test_deeper.py").write_text("", encoding="utf-8")
    assert misplaced(tmp_path) == ["nested/checks/test_deeper.py", "test_left.py"]
    (tmp_path / "helper.py").write_text("from tests.outputs.test_report import RUN\n",
                                        encoding="utf-8")
    assert imported(tmp_path / "helper.py") == {"tests.outputs.test_report"}
