"""What the start-up of `auditor audit` loads (issue 44, the lean core's third pass): the
command line parses without any library the audit runs on, and a plain audit loads no
reader of a file it was not given (approvals, waivers, a baseline) nor the near-match
search of a selection that names nothing; given those files, it loads and uses them.
bench/startup.py measures what each module costs; these hold which ones are loaded (never
a time)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.helpers.clean_record import CLEAN

# Loaded by no plain audit: each is read only for the option that names its file.
NOT_LOADED_BY_A_PLAIN_AUDIT = ("auditor.approvals", "auditor.waivers", "auditor.baseline",
                               "difflib")
# The libraries an audit runs on, loaded only once the audit runs.
LIBRARIES = ("pydantic", "sqlalchemy", "jinja2", "lark", "rich")

APPROVALS = """\
[[approval]]
licence = "RL-SIM-01"
reference = "SD-2026-17"
date = 2026-01-05
max = 500
"""

WAIVERS = """\
[[waiver]]
citation = "20:18:15:24"
table = "T07"
justification = "Nothing like it happened"
approved_by = "J. Doe"
expires = 2099-12-31
"""


def python(tmp_path: Path, code: str) -> list[str]:
    """The lines `code` prints in a fresh interpreter (its imports its own), the user's
    cache and data the test's."""
    environment = {**os.environ, "HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache"),
                   "XDG_DATA_HOME": str(tmp_path / "data")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=tmp_path, env=environment, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.splitlines()


def audited(tmp_path: Path, *options: str) -> tuple[int, set[str], dict]:
    """A quiet audit of the clean record in a fresh process: its exit code, the modules it
    loaded, its findings.json."""
    folder = tmp_path / "records"
    folder.mkdir(exist_ok=True)
    (folder / "night.bjh").write_text(CLEAN, encoding="utf-8")
    out = tmp_path / "out"
    words = ["audit", str(folder), "--out", str(out), "--store", str(tmp_path / "s.sqlite"),
             "--new-store", "--quiet", "--jobs", "1", *options]
    lines = python(tmp_path, "import sys\nfrom auditor.cli import main\n"
                             f"print(main({words!r}))\nprint(' '.join(sorted(sys.modules)))\n")
    findings = json.loads((out / "findings.json").read_text(encoding="utf-8"))
    return int(lines[-2]), set(lines[-1].split()), findings


def under(modules: set[str], name: str) -> bool:
    return any(m == name or m.startswith(name + ".") for m in modules)


def test_the_audits_command_line_parses_without_the_libraries_it_runs_on(tmp_path) -> None:
    lines = python(tmp_path, "import sys\nfrom auditor.cli import build_parser\n"
                             "build_parser('audit').parse_args(['audit', 'x.bjh', '--quiet'])\n"
                             "import auditor.commands.audit\n"
                             "print(' '.join(sorted(sys.modules)))\n")
    modules = set(lines[-1].split())
    assert [name for name in (*LIBRARIES, "auditor.config", "auditor.checks", "auditor.store")
            if under(modules, name)] == []
    assert "auditor.commands.audit" in modules  # the test can fail


def test_a_plain_audit_loads_no_reader_of_a_file_it_was_not_given(tmp_path) -> None:
    code, modules, findings = audited(tmp_path)
    assert (code, findings["findings"]) == (0, [])
    assert [name for name in NOT_LOADED_BY_A_PLAIN_AUDIT if under(modules, name)] == []
    assert {"auditor.checks.approval", "auditor.selection", "auditor.api"} <= modules


def test_an_approval_file_is_loaded_and_judged(tmp_path) -> None:
    approvals = tmp_path / "approved.toml"
    approvals.write_text(APPROVALS, encoding="utf-8")
    code, modules, findings = audited(tmp_path, "--approved", str(approvals))
    assert code == 1 and "auditor.approvals" in modules
    assert [(f["citation"], f["line"], f["message"]) for f in findings["findings"]] == [
        ("record:approval", 3, "The header declares max=1000 where approval SD-2026-17 of "
                               "2026-01-05 (RL-SIM-01, every table) approved max=500.")]


def test_a_waiver_file_is_loaded_and_reported(tmp_path) -> None:
    waivers = tmp_path / "waivers.toml"
    waivers.write_text(WAIVERS, encoding="utf-8")
    code, modules, findings = audited(tmp_path, "--waivers", str(waivers))
    assert code == 0 and "auditor.waivers" in modules
    assert [(w["index"], w["line"], w["status"], w["matches"])
            for w in findings["waivers"]] == [(1, 1, "unused", 0)]


def test_a_selection_that_names_nothing_still_names_the_nearest(tmp_path) -> None:
    lines = python(tmp_path, "import sys\nfrom auditor.selection import SelectionError, "
                             "judging_for\n"
                             "print('difflib' in sys.modules)\n"
                             "try:\n    judging_for(['swich'], [])\n"
                             "except SelectionError as error:\n    print(error)\n")
    assert lines == ["False", "'swich' names no citation, game or rule; the nearest is "
                              "switch (`auditor rules` lists them)"]
