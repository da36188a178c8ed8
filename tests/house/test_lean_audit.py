"""What an audit loads (issue 27, the fixed cost of a process): `auditor audit` imports
what it uses and not what other commands, other job counts or other inputs need. A clean
record with --quiet and --jobs 1 loads neither Lark (the fast paths read it whole), nor
Rich (nothing is printed), nor the pools, nor the other commands' modules; a record with
a line only Lark can judge loads Lark and still reads it; an error line of a quiet audit
is still printed through the escaping console."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

from auditor.cli import COMMANDS, build_parser, main
from tests.helpers.clean_record import CLEAN

# Loaded by no audit of a clean record with --quiet --jobs 1 (a prefix names a package).
NOT_LOADED = ("lark", "lark_cython", "rich", "multiprocessing", "concurrent.futures.process",
              "auditor.tasks", "auditor.split", "auditor.case", "auditor.simulate",
              "auditor.trends", "auditor.incidents", "auditor.store_cli", "auditor.rules_cli",
              "pandas", "numpy", "alembic")


def loaded_by_audit(tmp_path: Path, record: str, *options: str) -> tuple[int, set[str], str]:
    """(exit code, the modules loaded, stderr) of `auditor audit` of `record` in a fresh
    process, with a fresh store; the user's cache is the test's own, warmed by a first run
    (a first run derives the grammar's terminals with Lark)."""
    folder = tmp_path / "records"
    folder.mkdir(exist_ok=True)
    (folder / "night.bjh").write_text(record, encoding="utf-8")
    code = ("import sys\nfrom auditor.cli import main\n"
            f"code = main(['audit', {str(folder)!r}, '--out', {str(tmp_path / 'out')!r}, "
            f"'--store', {str(tmp_path / 'store.sqlite')!r}, '--new-store', '--jobs', '1'"
            f"{''.join(f', {option!r}' for option in options)}])\n"
            "print(code)\nprint(' '.join(sorted(sys.modules)))\n")
    environment = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path),
                   "XDG_CACHE_HOME": str(tmp_path / "cache"),
                   "XDG_DATA_HOME": str(tmp_path / "data")}
    for _ in range(2):  # the second run is measured
        (tmp_path / "store.sqlite").unlink(missing_ok=True)
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              cwd=tmp_path, env=environment, timeout=300)
    lines = done.stdout.splitlines()  # what the audit printed, then the two lines
    assert len(lines) >= 2, done.stderr[-2000:]
    return int(lines[-2]), set(lines[-1].split()), done.stderr


def under(modules: set[str], name: str) -> bool:
    return any(m == name or m.startswith(name + ".") for m in modules)


def test_a_quiet_audit_of_a_clean_record_loads_only_what_it_uses(tmp_path) -> None:
    code, modules, errors = loaded_by_audit(tmp_path, CLEAN, "--quiet")
    assert (code, errors) == (0, "")
    assert [name for name in NOT_LOADED if under(modules, name)] == []
    # what it does use, loaded: the test can fail
    assert {"auditor.parser", "auditor.store", "sqlalchemy", "pydantic", "jinja2"} <= modules
    assert (tmp_path / "out" / "report.html").exists()


def test_a_line_only_lark_can_judge_loads_lark_and_is_read(tmp_path) -> None:
    record = CLEAN.replace("18:03:09 peek", "18:03:09 peek now")
    code, modules, _ = loaded_by_audit(tmp_path, record, "--quiet")
    assert code == 1 and "lark" in modules
    findings = json.loads((tmp_path / "out" / "findings.json").read_text(encoding="utf-8"))
    assert [(f["citation"], f["line"], f["message"]) for f in findings["findings"]] == [
        ("record:syntax", 17, "unexpected 'now' at the end of the statement; expected `peek`")]


def test_an_audit_that_prints_loads_rich(tmp_path) -> None:
    code, modules, _ = loaded_by_audit(tmp_path, CLEAN)
    assert code == 0 and "rich" in modules


def test_a_quiet_audits_error_line_is_escaped(tmp_path, capfd) -> None:
    missing = tmp_path / "no\x1b[31mhere"
    assert main(["audit", str(missing), "--out", str(tmp_path / "out"), "--quiet",
                 "--jobs", "1"]) == 2
    errors = capfd.readouterr().err
    assert "\x1b" not in errors
    assert "no\\x1b[31mhere" in errors


def test_the_audits_parser_alone_parses_and_names_every_command_as_the_whole() -> None:
    whole, audit = build_parser(), build_parser("audit")
    assert tuple(whole._subparsers._group_actions[0].choices) == COMMANDS
    assert audit.format_usage() == whole.format_usage()
    words = ["audit", "a.bjh", "b", "--jobs", "2", "--quiet", "--select", "db21",
             "--fail-on", "high", "--store", "s.sqlite"]
    assert audit.parse_args(words) == whole.parse_args(words)


def test_main_gives_back_the_collectors_threshold(tmp_path) -> None:
    before = gc.get_threshold()
    main(["audit", str(tmp_path / "none"), "--out", str(tmp_path / "out"), "--quiet"])
    assert gc.get_threshold() == before


def fieldwise_classes() -> list[type]:
    """Every dataclass of the package that takes Fieldwise's repr (and, declared with
    eq=False, its equality)."""
    import importlib
    import pkgutil

    import auditor
    from auditor.fieldwise import Fieldwise

    for module in pkgutil.walk_packages(auditor.__path__, "auditor."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)
    found, todo = [], list(Fieldwise.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        found.append(cls)
    return sorted(found, key=lambda c: (c.__module__, c.__qualname__))


def test_fieldwise_repr_and_equality_are_the_dataclass_ones() -> None:
    """Each class against a twin @dataclass compiles its methods for (same fields, same
    repr and compare flags, same name): the same repr, and equal or not alike."""
    from dataclasses import field, fields, make_dataclass

    classes = fieldwise_classes()
    assert len(classes) >= 60  # the events, the views, the results...: the test can fail
    for cls in classes:
        own = fields(cls)
        frozen = cls.__dataclass_params__.frozen  # a frozen one keeps its compiled hash
        twin = make_dataclass(cls.__name__, [(f.name, object, field(repr=f.repr,
                                                                     compare=f.compare))
                                             for f in own], frozen=frozen)
        twin.__qualname__ = cls.__qualname__

        def made(values: dict, cls=cls, twin=twin) -> tuple:
            mine = cls.__new__(cls)
            for name, value in values.items():
                object.__setattr__(mine, name, value)
            return mine, twin(**values)

        # hashable values (a frozen one is hashed), each field's its own
        values = {f.name: (f"value {n}", None, n) for n, f in enumerate(own)}
        first, first_twin = made(values)
        assert repr(first) == repr(first_twin), cls
        again, again_twin = made({k: tuple(list(v)) for k, v in values.items()})
        assert (first == again) is (first_twin == again_twin) is True, cls
        for f in own:
            changed, changed_twin = made({**values, f.name: "other"})
            assert (first == changed) is (first_twin == changed_twin), (cls, f.name)
        assert first.__eq__(object()) is NotImplemented, cls
        assert (type(first).__hash__ is None) is (twin.__hash__ is None) is not frozen, cls
        if frozen:
            assert hash(first) == hash(again) and hash(first_twin) == hash(again_twin), cls
    # a subclass's instance with the same fields is not equal, as with @dataclass
    from auditor import events as ev
    assert ev.Event(1, None) != ev.Shuffle(1, None)
    assert ev.Shuffle(1, None) == ev.Shuffle(1, None) != ev.Cut(1, None)
