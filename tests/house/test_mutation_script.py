"""scripts/mutation.py: the mutants it makes (each one change, every other line where it
was), and the equivalents file never matching a line that changed."""

from __future__ import annotations

import ast
import importlib.util
import sys

import pytest

from tests.helpers import ROOT


@pytest.fixture(scope="module")
def mutation():
    spec = importlib.util.spec_from_file_location("mutation", ROOT / "scripts" / "mutation.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["mutation"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    yield module
    del sys.modules["mutation"]


SOURCE = b'''from typing import TYPE_CHECKING

if TYPE_CHECKING:
    pass


def f(a: int = 1, b=2) -> int:
    if a < b and not a:
        return a + 1
    x = f"{a + 1}"
    total = (a  # the first
             * b)
    total += 0x10
    return (x,
            total)
'''


def test_each_kind_of_mutant_and_nothing_in_annotations_or_f_strings(mutation) -> None:
    made = [(m.line, m.change) for m in mutation.mutants_of("m.py", SOURCE)]
    assert made == [
        (7, "`1` → `2`"),  # a default value; its annotation `int` is left alone
        (7, "`2` → `3`"),
        (8, "`a < b and not a` → `False`"),
        (8, "`a < b and not a` → `True`"),
        (8, "`a < b` → `a <= b`"),
        (8, "`a < b` → `a >= b`"),
        (8, "`a < b and not a` → `a < b or not a`"),
        (8, "`not a` → `a`"),
        (9, "`return a + 1` → `return None`"),
        (9, "`a + 1` → `a - 1`"),
        (9, "`a + 1` → `a + 2`"),
        (12, "`a # the first * b` → `a # the first / b`"),  # the operator's line
        (13, "`total += 0x10` → `total -= 0x10`"),
        (13, "`0x10` → `0x11`"),  # in the base it was written in
        (14, "`return (x, total)` → `return (None)`")]


def test_a_mutant_changes_one_thing_and_keeps_every_line_where_it_was(mutation) -> None:
    original = ast.dump(ast.parse(SOURCE))
    for mutant in mutation.mutants_of("m.py", SOURCE):
        changed = mutant.apply(SOURCE)
        assert ast.dump(ast.parse(changed)) != original, mutant.change
        assert changed.count(b"\n") == SOURCE.count(b"\n"), mutant.change
        # every line but the mutant's own (and those of its expression) reads as before
        before, after = SOURCE.splitlines(), changed.splitlines()
        differing = [n for n, (b, a) in enumerate(zip(before, after, strict=True), 1) if b != a]
        assert differing and differing[0] == mutant.line, mutant.change


def test_a_line_holding_one_change_twice_numbers_them(mutation, tmp_path, monkeypatch) -> None:
    module = tmp_path / "auditor" / "twice.py"
    module.parent.mkdir()
    module.write_text("def g(a, b):\n    return a[0] + b[0]\n", encoding="utf-8")
    monkeypatch.setattr(mutation, "ROOT", tmp_path)
    monkeypatch.setitem(mutation.AREAS, "twice", mutation.Area(("auditor/twice.py",), (), 1))
    changes = [m.change for m in mutation.area_mutants("twice")]
    assert changes.count("`a[0]` → `a[1]`") == 1 and changes.count("`b[0]` → `b[1]`") == 1
    module.write_text("def g(a):\n    return a[0] + a[0]\n", encoding="utf-8")
    changes = [m.change for m in mutation.area_mutants("twice")]
    assert "`a[0]` → `a[1]`" in changes and "`a[0]` → `a[1]` (2)" in changes


def test_the_sample_is_fixed_by_its_seed(mutation) -> None:
    every = mutation.area_mutants("identity")
    first = mutation.sample(every, 10, "45:identity")
    assert first == mutation.sample(every, 10, "45:identity")
    assert first != mutation.sample(every, 10, "46:identity")
    assert len(first) == 10 and set(first) <= set(every)


def test_an_equivalent_follows_its_line_and_goes_stale_when_it_is_edited(
        mutation, tmp_path, monkeypatch) -> None:
    module = tmp_path / "auditor" / "m.py"
    module.parent.mkdir()
    module.write_text("def g(text):\n    if not text:\n        return {}\n    return {1: text}\n",
                      encoding="utf-8")
    monkeypatch.setattr(mutation, "ROOT", tmp_path)
    monkeypatch.setitem(mutation.AREAS, "m", mutation.Area(("auditor/m.py",), (), 1))
    entry = {"file": "auditor/m.py", "line": 2, "change": "`not text` → `False`",
             "code": "if not text:", "reason": "a shortcut"}
    listed = mutation.Equivalents([entry])

    def matched() -> tuple[list, list]:
        mutation._lines_of.cache_clear()
        every = mutation.area_mutants("m")
        return ([(m.line, m.change) for m in every if listed.reason(m)],
                listed.stale({"auditor/m.py": every}))

    assert matched() == ([(2, "`not text` → `False`")], [])
    # lines inserted above: the entry follows its line
    module.write_text("# a comment\n\n" + module.read_text(encoding="utf-8"), encoding="utf-8")
    assert matched() == ([(4, "`not text` → `False`")], [])
    # the line itself edited: stale, matched to nothing
    module.write_text(module.read_text(encoding="utf-8").replace("if not text:",
                                                                 "if not text.strip():"),
                      encoding="utf-8")
    assert matched() == ([], [entry])


def test_the_checked_in_equivalents_are_current(mutation) -> None:
    listed = mutation.Equivalents.load()
    assert listed.entries, "scripts/mutation-equivalents.toml lists the equivalents"
    known: dict = {}
    for area in mutation.AREAS:
        for mutant in mutation.area_mutants(area):
            known.setdefault(mutant.file, []).append(mutant)
    assert listed.stale(known) == []
    assert all(entry["reason"].strip() for entry in listed.entries)


def test_the_doc_table_keeps_the_rows_of_areas_not_run(mutation, tmp_path, monkeypatch) -> None:
    doc = tmp_path / "development.md"
    doc.write_text("# Dev\n\n<!-- mutation: begin -->\nold\n<!-- mutation: end -->\nafter\n",
                   encoding="utf-8")
    monkeypatch.setattr(mutation, "DOC", doc)
    one = mutation.Mutant("auditor/identity.py", 7, "`a | b` → `a`", ((0, 1, b""),))
    two = mutation.Mutant("auditor/identity.py", 9, "`x` → `y`", ((0, 1, b""),))
    three = mutation.Mutant("auditor/identity.py", 11, "`1` → `2`", ((0, 1, b""),))
    outcomes = [mutation.Outcome(one, "survived"), mutation.Outcome(two, "timeout"),
                mutation.Outcome(three, "equivalent"), mutation.Outcome(two, "killed")]
    equivalents = mutation.Equivalents([{"file": "auditor/identity.py", "line": 11,
                                         "change": "`1` → `2`", "code": "n = 1",
                                         "reason": "why"}])
    mutation.write_doc([mutation.Report("identity", 4, "45", outcomes)], equivalents)
    mutation.write_doc([mutation.Report("verify", 2, "45", outcomes[1:2])], equivalents)
    text = doc.read_text(encoding="utf-8")
    assert text == (
        "# Dev\n\n<!-- mutation: begin -->\n" + mutation.HEADER
        + "| `identity` | 4 (seed 45) | 4 | 2 | 1 | 1 | 1 | 67% | auditor/identity.py:7 "
          "`a \\| b` → `a` |\n"
          "| `verify` | 2 (seed 45) | 1 | 1 | 1 | 0 | 0 | 100% | none |\n\n"
          "Equivalent mutants (scripts/mutation-equivalents.toml), not run:\n\n"
          "- `auditor/identity.py:11` `1` → `2`: why\n"
          "<!-- mutation: end -->\nafter\n")


def test_every_area_names_tests_that_are_there(mutation, monkeypatch, capsys) -> None:
    """The tests of each area exist (a file moved, or a test renamed, would leave an area
    measured by fewer tests than it says); a name that is not there stops the command."""
    assert {name: mutation.missing_tests(name) for name in mutation.AREAS} == \
        {name: [] for name in mutation.AREAS}
    gone = ("tests/test_identity_moved.py", "tests/evidence/test_golden_ids.py::test_nothing")
    monkeypatch.setitem(mutation.AREAS, "identity",
                        mutation.Area(("auditor/identity.py",), gone, 1))
    assert mutation.missing_tests("identity") == list(gone)
    assert mutation.main(["identity", "--list"]) == 2
    assert capsys.readouterr().err == ("identity: tests named in AREAS that are not there: "
                                       f"{gone[0]}, {gone[1]}\n")


def test_an_area_may_keep_to_one_function_class_or_field(mutation, tmp_path, monkeypatch) -> None:
    module = tmp_path / "auditor" / "parts.py"
    module.parent.mkdir()
    module.write_text("def f(a):\n    return a + 1\n\n\nclass C:\n    kept: bool = False\n\n"
                      "    def g(self, b):\n        return b - 1\n", encoding="utf-8")
    monkeypatch.setattr(mutation, "ROOT", tmp_path)
    monkeypatch.setitem(mutation.AREAS, "parts", mutation.Area(
        ("auditor/parts.py::C.g", "auditor/parts.py::C.kept"), (), 1))
    assert mutation.area_lines("parts") == {"auditor/parts.py": {6, 8, 9}}
    assert [(m.line, m.change) for m in mutation.area_mutants("parts")] == [
        (6, "`False` → `True`"),
        (9, "`return b - 1` → `return None`"), (9, "`b - 1` → `b + 1`"),
        (9, "`b - 1` → `b - 2`")]
    # the whole module named too: every mutant
    monkeypatch.setitem(mutation.AREAS, "parts", mutation.Area(
        ("auditor/parts.py::C.g", "auditor/parts.py"), (), 1))
    assert mutation.area_lines("parts") == {"auditor/parts.py": None}
    monkeypatch.setitem(mutation.AREAS, "parts", mutation.Area(("auditor/parts.py::C.h",), (), 1))
    with pytest.raises(SystemExit, match=r"no C\.h"):
        mutation.area_lines("parts")
