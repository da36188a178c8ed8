"""The settings file refused in one plain line naming the file (and the key and its line
where there is one): exit 2, never a crash."""

from __future__ import annotations

from pathlib import Path

import pytest

from auditor.cli import EXIT_ERROR, main
from auditor.settings import SettingsError, find_settings
from tests.helpers import ROOT

DB21 = str(ROOT / "sample_logs" / "db21-t07-2026-11-20.bjh")


def refused(tmp_path: Path, capsys, content: str, name: str = "job.toml") -> str:
    """The one line `auditor audit --config` prints for this settings file (exit 2, before
    any audit)."""
    config = tmp_path / name
    config.write_text(content, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["audit", DB21, "--config", str(config), "--out", str(out), "--quiet"]) \
        == EXIT_ERROR
    assert not out.exists()
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    return error.removeprefix(f"auditor: settings: {config}: ").rstrip("\n")


@pytest.mark.parametrize(("content", "message"), [
    # Probe P11: AttributeError, exit 3.
    ("tool = []\n", "`tool` must be a table (the settings go in its `bjh-auditor` table), "
                    "not an array"),
    ('tool = "x"\n', "`tool` must be a table (the settings go in its `bjh-auditor` table), "
                     "not a string"),
    ("[tool]\nbjh-auditor = 5\n", "`tool.bjh-auditor` must be a table of settings, not a "
                                  "number"),
    ('[tool]\nbjh-auditor = ["a"]\n', "`tool.bjh-auditor` must be a table of settings, not "
                                      "an array"),
])
def test_a_tool_that_is_not_a_table_is_refused_naming_the_file(tmp_path, capsys, content,
                                                                message) -> None:
    assert refused(tmp_path, capsys, content) == message


SETTINGS = ("settings: approved, baseline, cameras, evidence-root, evidence-url, fail-on, "
            "fail-on-new, gaming-day-starts, ignore, jobs, out, pits, scheduler, select, "
            "shifts, store, time-zone, waivers")


@pytest.mark.parametrize(("content", "message"), [
    ('# nightly\nfail-on = "high"\n\ncolour = "blue"\n',
     f"line 4: `colour` is not a setting ({SETTINGS})"),
    ('[project]\nname = "x"\ncolour = 1\n\n[tool.bjh-auditor]\njobs = 2\n  colour = "red"\n',
     f"line 7: `colour` is not a setting ({SETTINGS})"),
    ('tool.bjh-auditor.jobs = 2\ntool.bjh-auditor.wavers = "w.toml"\n',
     f"line 2: `wavers` is not a setting ({SETTINGS})"),
    ("jobs = true\n", "line 1: `jobs`: Input should be a valid integer"),
    ('jobs = 2\nfail_on_new = 1\n', "line 2: `fail-on-new`: Input should be a valid boolean"),
    ('fail-on = "sometimes"\n', "line 1: `fail-on`: Input should be 'low', 'medium', 'high' "
                                "or 'never'"),
    ("x = " + "[" * 100_000 + "]" * 100_000 + "\n",  # probe P12: RecursionError, exit 3
     "nested too deeply to read (arrays or tables inside each other hundreds of levels "
     "down)"),
    ('out = "a"\nfail-on = \n', "line 2: `fail-on`: not valid TOML: Invalid value (the value "
                                "'')"),
])
def test_a_bad_key_or_value_is_named_with_its_line(tmp_path, capsys, content, message) -> None:
    assert refused(tmp_path, capsys, content) == message


def test_the_working_folders_files_are_checked_as_well(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n[tool]\nbjh-auditor = '
                                             '"x"\n', encoding="utf-8")
    with pytest.raises(SettingsError, match=r"pyproject\.toml: `tool\.bjh-auditor` must be a "
                                            "table of settings, not a string"):
        find_settings(None)
    (tmp_path / "pyproject.toml").write_text("tool = 3\n", encoding="utf-8")
    with pytest.raises(SettingsError, match=r"pyproject\.toml: `tool` must be a table"):
        find_settings(None)
    # A pyproject.toml without the table leaves bjh-auditor.toml to be read.
    (tmp_path / "pyproject.toml").write_text('[tool.other]\nx = 1\n', encoding="utf-8")
    (tmp_path / "bjh-auditor.toml").write_text('jobs = 2\n\n"jbos" = 3\n', encoding="utf-8")
    with pytest.raises(SettingsError, match=r"bjh-auditor.toml: line 3: `jbos` is not a "
                                            "setting"):
        find_settings(None)


def test_good_settings_are_read(tmp_path) -> None:
    config = tmp_path / "pyproject.toml"
    config.write_text('[tool.bjh-auditor]\njobs = 2\nfail_on = "high"\nfail-on-new = true\n'
                      'waivers = "w.toml"\nbaseline = "last"\n', encoding="utf-8")
    settings = find_settings(str(config))
    assert (settings.jobs, settings.fail_on, settings.fail_on_new, settings.waivers,
            settings.baseline, settings.source) == (
        2, "high", True, str(tmp_path / "w.toml"), "last", str(config))


@pytest.mark.parametrize(("content", "message"), [
    ('out = ""\n', "line 1: `out`: must not be empty"),
    ('waivers = "w\\u0000.toml"\n', "line 1: `waivers`: must not hold a NUL character"),
    ('store = "a\\u0000b"\n', "line 1: `store`: must not hold a NUL character"),
])
def test_a_path_that_no_file_system_takes_is_refused(tmp_path, capsys, content,
                                                     message) -> None:
    """A NUL in a path crashed the audit (ValueError, exit 3) after auditing the inputs."""
    assert refused(tmp_path, capsys, content) == message


def test_one_setting_in_both_spellings_is_refused(tmp_path: Path) -> None:
    """`fail-on` and `fail_on` are one setting: given both, the one written last would have
    decided the run's exit status unseen."""
    config = tmp_path / "bjh-auditor.toml"
    config.write_text('jobs = 2\nfail-on = "never"\nfail_on = "high"\n', encoding="utf-8")
    with pytest.raises(SettingsError) as raised:
        find_settings(str(config))
    assert str(raised.value) == (f"{config}: line 2 and line 3: `fail-on` and `fail_on` are "
                                 "one setting, given twice")
