"""Each documented exit code reached through the real command line (`main`, as the
`auditor` script runs it) for audit, case, verify, trends, incidents and watch, and the one
guard every command runs under (auditor/commands/guard.py): a refusal is one escaped line
with any password hidden, exit 2; a failure of the auditor itself one line naming only the
error's type, its traceback in a log the line names, exit 3.

A failure of the auditor itself is a bug, so none can be had from the real parts alone:
those tests replace one function of the auditor by one that raises (the watch's, by one
that reads a real store made unreadable), but for memory running out, which a case made
under a real memory limit reaches."""

from __future__ import annotations

import errno
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from auditor.cli import main
from tests.helpers import ROOT

T11 = str(ROOT / "sample_logs" / "standard-t11-2026-11-20.bjh")  # four high findings, one low
SECRET = "s3cret-of-the-floor"
UNREACHABLE = f"postgresql+psycopg://auditor:{SECRET}@127.0.0.1:1/floor"
CRASH_IN_TEMP = re.compile(r"auditor: the auditor itself failed \(RuntimeError\); the "
                           r"traceback is in (?P<log>.+/auditor-crash-[^/]+\.log)\n")


@pytest.fixture(scope="module")
def floor(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Two stores: `quiet`, the sample T11 audited (findings, nothing flagged across
    nights); `flagged`, a clean simulated night whose last table repeats a shoe (no
    finding, one trends flag). The exit codes of their audits."""
    folder = tmp_path_factory.mktemp("floor")
    night = folder / "night"
    assert main(["simulate", "--game", "standard", "--tables", "2", "--rounds", "60",
                 "--seed", "exit-codes", "--repeat-shoe", "--roster", "--out", str(night),
                 "--quiet"]) == 0
    made = {"folder": folder, "run": folder / "run", "quiet": str(folder / "quiet.sqlite"),
            "flagged": str(folder / "flagged.sqlite")}
    made["clean_code"] = main(["audit", str(night), "--out", str(folder / "night-out"),
                               "--store", made["flagged"], "--quiet", "--jobs", "1"])
    made["findings_code"] = main(["audit", T11, "--out", str(made["run"]), "--store",
                                  made["quiet"], "--quiet", "--jobs", "1"])
    return made


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("keys")
    for name in ("inspector", "stranger"):
        assert main(["keygen", str(folder / name)]) == 0
    return {name: str(folder / name) for name in ("inspector", "stranger")}


@pytest.fixture(scope="module")
def signed_case(floor: dict, keys: dict[str, str]) -> Path:
    case = floor["folder"] / "case"
    assert main(["case", str(floor["run"]), "--licensee", "RL-0412", "--out", str(case),
                 "--sign", keys["inspector"]]) == 0
    return case


def said(capsys: pytest.CaptureFixture) -> str:
    return capsys.readouterr().err


@pytest.fixture
def temporary_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The temporary folder, where a crash of a command with no --out of an audit's leaves
    its traceback, made the test's own."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path


def crash_log(error: str) -> str:
    """The one line of a crash told, and the traceback in the log it names."""
    told = CRASH_IN_TEMP.fullmatch(error)
    assert told, error
    return Path(told["log"]).read_text(encoding="utf-8")


def raising(message: str = "a bug"):
    def broken(*arguments, **options):
        raise RuntimeError(message)

    return broken


# audit: 0 nothing fails the run, 1 findings, 2 refused, 3 the auditor itself failed

def test_audit_exits_0_clean_and_1_with_findings(floor: dict) -> None:
    assert (floor["clean_code"], floor["findings_code"]) == (0, 1)


def test_audit_exits_2_for_settings_it_cannot_read_in_one_escaped_line(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """A name that would colour the terminal or forge a second line is escaped."""
    config = tmp_path / "bad\x1b[31m\nauditor: forged.toml"
    assert main(["audit", T11, "--config", str(config), "--out", str(tmp_path / "out"),
                 "--quiet"]) == 2
    shown = str(config).replace("\x1b", "\\x1b").replace("\n", "\\n")
    assert said(capsys) == (f"auditor: settings: {shown}: cannot be read ([Errno 2] No such "
                            f"file or directory: '{shown}')\n")


def test_audit_exits_2_for_a_store_it_cannot_open_never_printing_its_password(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["audit", T11, "--out", str(tmp_path / "out"), "--quiet", "--jobs", "1",
                 "--store", UNREACHABLE]) == 2
    error = said(capsys)
    assert error.startswith("auditor: store postgresql+psycopg://auditor:***@127.0.0.1:1/"
                            "floor: cannot be opened (") and error.count("\n") == 1, error
    assert SECRET not in error


def test_audit_exits_3_when_it_fails_itself_with_the_traceback_in_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    """After the inputs are audited (the outputs' writer fails): one line, the traceback
    in --out's auditor-crash.log, the exception's text (here a URL with a password)
    nowhere on the terminal nor in the log."""
    import auditor.output.render

    monkeypatch.setattr(auditor.output.render, "write_outputs",
                        raising(f"lost {UNREACHABLE}"))
    out = tmp_path / "out"
    assert main(["audit", T11, "--out", str(out), "--quiet", "--jobs", "1", "--store",
                 str(tmp_path / "history.sqlite")]) == 3
    assert said(capsys) == ("auditor: the auditor itself failed after auditing the inputs "
                            f"(RuntimeError); the traceback is in {out}/auditor-crash.log\n")
    log = (out / "auditor-crash.log").read_text(encoding="utf-8")
    assert "Traceback" in log and "RuntimeError: lost postgresql+psycopg://auditor:***@" in log
    assert SECRET not in log


def test_a_crash_whose_log_cannot_be_written_is_still_one_line_exit_3(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    import auditor.output.render

    monkeypatch.setattr(auditor.output.render, "write_outputs", raising())
    out = tmp_path / "out"
    (out / "auditor-crash.log").mkdir(parents=True)  # where the log would go: a folder
    assert main(["audit", T11, "--out", str(out), "--quiet", "--jobs", "1", "--store",
                 str(tmp_path / "history.sqlite")]) == 3
    assert said(capsys) == ("auditor: the auditor itself failed after auditing the inputs "
                            "(RuntimeError); and the traceback could not be written\n")


# case: 0 made, 2 refused, 3 the auditor itself failed

def test_case_exits_0_when_made_and_2_for_a_licensee_not_in_the_run(
        floor: dict, signed_case: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert (signed_case / "manifest.json").is_file()
    assert main(["case", str(floor["run"]), "--licensee", "NOPE", "--out",
                 str(tmp_path / "case")]) == 2
    assert said(capsys) == (f"auditor: no input of the audit written to {floor['run']} is of "
                            "licensee 'NOPE' in the scope asked for\n")
    assert not (tmp_path / "case").exists()


def test_case_exits_3_when_it_fails_itself(floor: dict, tmp_path: Path, temporary_folder,
                                           monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture) -> None:
    import auditor.case.command

    monkeypatch.setattr(auditor.case.command, "make_case", raising())
    assert main(["case", str(floor["run"]), "--licensee", "RL-0412", "--out",
                 str(tmp_path / "case")]) == 3
    assert "RuntimeError: a bug" in crash_log(said(capsys))


# A case made with its memory limited (RLIMIT_AS) to a few MiB above what the process holds
# once every command's module is loaded: the case's own loading and work run out of it.
OUT_OF_MEMORY = """\
import resource, sys
from auditor.cli import build_parser, main
build_parser()
status = open("/proc/self/status", encoding="ascii").read()
held = int(status.split("VmSize:")[1].split()[0]) * 1024
resource.setrlimit(resource.RLIMIT_AS, (held + int(sys.argv[1]) * 2**20,) * 2)
sys.exit(main(sys.argv[2:]))
"""
TOLD_OUT_OF_MEMORY = re.compile(
    r"auditor: (the auditor itself failed \((MemoryError|OSError)\); the traceback is in \S+|the "
    r"auditor itself failed, and so did telling how \(memory exhausted\?\))")


@pytest.mark.parametrize("spare_mib", [4, 8, 16])
def test_case_exits_3_when_memory_runs_out_even_if_telling_it_fails_too(
        floor: dict, tmp_path: Path, spare_mib: int) -> None:
    """A real MemoryError in a real run: the guard decides 3 before it allocates, and tells
    it in one line as far as memory allows (the line made in advance when nothing more
    can be made); never Python's exit 1 with a traceback."""
    process = subprocess.run(
        [sys.executable, "-c", OUT_OF_MEMORY, str(spare_mib), "case", str(floor["run"]),
         "--licensee", "RL-0412", "--out", str(tmp_path / "case")],
        capture_output=True, text=True, timeout=120, cwd=ROOT, env={
            **os.environ, "TMPDIR": str(tmp_path)})
    assert process.returncode == 3, process.stderr
    assert TOLD_OUT_OF_MEMORY.fullmatch(process.stderr.splitlines()[-1]), process.stderr
    assert "Traceback" not in process.stderr


# verify: 0 holds, 1 differs, 2 cannot be checked, 3 failed, 4 no key, 5 another key

def test_verify_exits_0_4_and_5_by_the_key_given(signed_case: Path, keys: dict[str, str],
                                                 capsys: pytest.CaptureFixture) -> None:
    assert main(["verify", str(signed_case), "--key", keys["inspector"] + ".pub"]) == 0
    assert main(["verify", str(signed_case)]) == 4
    assert main(["verify", str(signed_case), "--key", keys["stranger"] + ".pub"]) == 5


def test_verify_exits_1_for_a_changed_file_and_2_for_no_manifest(
        signed_case: Path, keys: dict[str, str], tmp_path: Path,
        capsys: pytest.CaptureFixture) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(signed_case, copy)
    with (copy / "case.html").open("a", encoding="utf-8") as page:
        page.write("<!-- edited -->")
    assert main(["verify", str(copy), "--key", keys["inspector"] + ".pub"]) == 1
    (copy / "manifest.json").unlink()
    said(capsys)
    assert main(["verify", str(copy)]) == 2
    assert said(capsys) == f"auditor: {copy} holds no manifest.json\n"


def test_verify_exits_3_when_it_fails_itself(signed_case: Path, temporary_folder,
                                             monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture) -> None:
    import auditor.verify

    monkeypatch.setattr(auditor.verify, "verify_folder", raising())
    assert main(["verify", str(signed_case)]) == 3
    assert "RuntimeError: a bug" in crash_log(said(capsys))


# trends: 0 nothing flagged, 1 something flagged, 2 refused, 3 failed

def test_trends_exits_0_with_nothing_flagged_and_1_with_a_flag(floor: dict,
                                                               tmp_path: Path) -> None:
    assert main(["trends", "--store", floor["quiet"], "--out", str(tmp_path / "quiet"),
                 "--quiet"]) == 0
    assert main(["trends", "--store", floor["flagged"], "--out", str(tmp_path / "flagged"),
                 "--quiet"]) == 1


def test_trends_exits_2_for_a_store_it_cannot_read_never_printing_its_password(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["trends", "--store", str(tmp_path / "none.sqlite"), "--out",
                 str(tmp_path / "t"), "--quiet"]) == 2
    assert said(capsys) == f"auditor: no run store at {tmp_path / 'none.sqlite'}\n"
    assert main(["trends", "--store", UNREACHABLE, "--out", str(tmp_path / "t"),
                 "--quiet"]) == 2
    error = said(capsys)
    assert error.startswith("auditor: store postgresql+psycopg://auditor:***@127.0.0.1:1/"
                            "floor") and error.count("\n") == 1 and SECRET not in error, error


def test_trends_exits_3_when_it_fails_itself(floor: dict, tmp_path: Path, temporary_folder,
                                             monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture) -> None:
    import auditor.trends.analysis

    monkeypatch.setattr(auditor.trends.analysis, "trends_document", raising())
    assert main(["trends", "--store", floor["quiet"], "--out", str(tmp_path / "t"),
                 "--quiet"]) == 3
    assert "RuntimeError: a bug" in crash_log(said(capsys))


# incidents: 0 exported, 2 refused, 3 failed

def test_incidents_exits_0_when_exported_and_2_for_a_run_not_in_the_store(
        floor: dict, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["incidents", "--store", floor["quiet"], "--out", str(tmp_path / "i"),
                 "--quiet"]) == 0
    assert (tmp_path / "i" / "incidents.json").is_file()
    assert main(["incidents", "--store", floor["quiet"], "--run", "99", "--out",
                 str(tmp_path / "j"), "--quiet"]) == 2
    assert said(capsys) == "auditor: the store has no run 99\n"


def test_incidents_exits_3_when_it_fails_itself(floor: dict, tmp_path: Path,
                                                temporary_folder,
                                                monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture) -> None:
    import auditor.incidents

    monkeypatch.setattr(auditor.incidents, "export_incidents", raising(UNREACHABLE))
    assert main(["incidents", "--store", floor["quiet"], "--out", str(tmp_path / "i"),
                 "--quiet"]) == 3
    log = crash_log(said(capsys))
    assert "RuntimeError: postgresql+psycopg://auditor:***@" in log and SECRET not in log


# watch: 0 stopped, 2 misused, 3 failed (docs/live.md)

def test_watch_exits_3_when_a_store_error_reaches_the_guard(
        floor: dict, tmp_path: Path, temporary_folder, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture) -> None:
    """A store failing while the watch runs is told and tried again, never an exit
    (docs/live.md), and its exit 2 is for misuse alone: a database error that reaches the
    guard is the watch's own failure, exit 3 with its traceback, not "store … cannot be
    read". Here the watch's loop is replaced by one that reads a real store made
    unreadable while it is open (SQLite finds no database in the file)."""
    import auditor.live.watch
    from auditor.store import list_runs, open_store

    store = tmp_path / "floor.sqlite"
    shutil.copyfile(floor["quiet"], store)

    def reading_the_store(options, live_floor, stop) -> int:
        engine = open_store(options.store, read_only=True)
        store.write_bytes(b"not a database, not any more\n" * 4096)
        list_runs(engine)
        return 0

    monkeypatch.setattr(auditor.live.watch, "run_watch", reading_the_store)
    records = tmp_path / "records"
    records.mkdir()
    assert main(["watch", str(records), "--store", str(store), "--out",
                 str(tmp_path / "out")]) == 3
    told = re.fullmatch(r"auditor: the auditor itself failed \(DatabaseError\); the "
                        r"traceback is in (?P<log>.+/auditor-crash-[^/]+\.log)\n", said(capsys))
    assert told, told
    assert "database disk image is malformed" in Path(told["log"]).read_text(encoding="utf-8")


# the guard itself

def test_a_store_command_refused_on_an_os_error_names_the_file_then_why(
        floor: dict, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """`report` into an --out whose findings.json is a folder: the file system's refusal,
    exit 2, in one line as the shell's tools say it (the file, then why)."""
    out = tmp_path / "out"
    (out / "findings.json").mkdir(parents=True)
    assert main(["report", "1", "--store", floor["quiet"], "--out", str(out)]) == 2
    error = said(capsys)
    assert re.fullmatch(rf"auditor: {re.escape(str(out))}/\S+: Is a directory\n", error), error


@pytest.mark.parametrize("code, told", [
    (errno.ENOMEM, r"auditor: the auditor itself failed \(OSError\); the traceback is in \S+\n"),
    (errno.ENOSPC, r"auditor: trends could not keep its temporary files in \S+ \(No space "
                   r"left on device\); set TMPDIR to a folder with room\n")])
def test_memory_the_system_refuses_is_a_failure_where_another_os_error_is_a_refusal(
        floor: dict, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture, code: int, told: str) -> None:
    """An OSError of ENOMEM (a file, thread or child refused memory) is memory running
    out, the auditor's failure: exit 3, never "refused" (2) as if the place named were at
    fault, as a full disk is, even where a command turns the OSError into a refusal of its
    own (trends' temporary files)."""
    import auditor.trends.analysis

    def refused(*arguments, **options):
        raise OSError(code, os.strerror(code), str(tmp_path / "trends.html"))

    monkeypatch.setattr(auditor.trends.analysis, "trends_document", refused)
    assert main(["trends", "--store", floor["quiet"], "--out", str(tmp_path / "t"),
                 "--quiet"]) == (3 if code == errno.ENOMEM else 2)
    error = said(capsys)
    assert re.fullmatch(told, error), error


@pytest.mark.parametrize("code", [errno.ENOMEM, errno.EACCES])
def test_memory_refused_while_opening_an_input_is_a_failure_not_the_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture,
        code: int) -> None:
    """The system refusing memory as an input is opened (ENOMEM) fails the run, exit 3: the
    file is not at fault. A file the system refuses for its own sake (EACCES) is refused
    alone, exit 2, and named in the summary."""
    record = tmp_path / "t11.bjh"
    shutil.copyfile(T11, record)
    opened = Path.open

    def refusing(path: Path, *arguments, **options):
        if path.name == record.name:
            raise OSError(code, os.strerror(code), str(path))
        return opened(path, *arguments, **options)

    monkeypatch.setattr(Path, "open", refusing)
    exit_code = main(["audit", str(record), "--out", str(tmp_path / "o"), "--quiet",
                      "--store", str(tmp_path / "floor.sqlite")])
    error = said(capsys)
    if code == errno.ENOMEM:
        assert exit_code == 3
        assert re.fullmatch(r"auditor: the auditor itself failed while auditing \S+t11\.bjh "
                            r"\(OSError\); the traceback is in \S+\n", error), error
    else:
        assert exit_code == 2
        assert "t11.bjh: cannot be read (Permission denied)" in error, error


def test_an_interrupt_is_never_told_as_a_failure(floor: dict, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture) -> None:
    """Ctrl-C goes through the guard as it came (Python's own exit 130), not as exit 3."""
    import auditor.trends.analysis

    def interrupted(*arguments, **options):
        raise KeyboardInterrupt

    monkeypatch.setattr(auditor.trends.analysis, "trends_document", interrupted)
    with pytest.raises(KeyboardInterrupt):
        main(["trends", "--store", floor["quiet"], "--out", str(tmp_path / "t"), "--quiet"])
    assert said(capsys) == ""


def test_a_reader_gone_away_ends_the_command_quietly() -> None:
    """`auditor rules | head -1`: no traceback, no BrokenPipe message, exit 0."""
    process = subprocess.run(
        f"{sys.executable} -m auditor rules | head -1", shell=True, capture_output=True,
        text=True, timeout=120, cwd=ROOT)
    assert process.stderr == "" and process.stdout.count("\n") == 1
