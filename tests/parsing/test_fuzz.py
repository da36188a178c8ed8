"""A seeded mutation fuzzer over the sample logs: corrupted bytes, cut and doubled lines,
numbers made huge, never a crash of the auditor, every line accounted for, and the same
result twice; and over waiver files, settings files and baselines (hypothesis,
derandomized): read or refused in one line, exit 0, 1 or 2, never 3. A few hundred cases
in the normal run; `BJH_SLOW_TESTS=1` for thousands."""

from __future__ import annotations

import json
import random
import tempfile
from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from auditor.audit import audit_file
from auditor.baseline import BaselineError, Comparison, load_baseline
from auditor.cli import main
from auditor.identity import apply_identity
from auditor.output.json_report import to_json
from auditor.run import merge
from auditor.settings import SettingsError, find_settings
from auditor.waivers import WaiverFileError, Waiving, load_waivers
from tests.helpers import ROOT, SAMPLE_FILES

PIECES = [b"9" * 40, b"\x00", b"\xff\xfe", b"=", b"#", b'"', b"\r", b"\n", b"\t", b"25:61:61",
          b"date=2026-02-30", b"game=swatch", b"s9h9", b"dealer", b"end\n", b"round 1\n",
          b"shuffle\n", "é".encode(), b"-1", b"1e26"]


def mutated(data: bytes, chance: random.Random) -> bytes:
    lines = data.split(b"\n")
    for _ in range(chance.randint(1, 6)):
        at = chance.randrange(len(lines))
        action = chance.randrange(5)
        if action == 0:  # a byte replaced
            line = lines[at]
            if line:
                spot = chance.randrange(len(line))
                lines[at] = line[:spot] + bytes([chance.randrange(256)]) + line[spot + 1:]
        elif action == 1:  # a piece inserted
            line = lines[at]
            spot = chance.randrange(len(line) + 1)
            lines[at] = line[:spot] + chance.choice(PIECES) + line[spot:]
        elif action == 2:
            del lines[at]
        elif action == 3:
            lines.insert(at, lines[chance.randrange(len(lines))])
        else:  # a number made huge
            lines[at] = lines[at].replace(b"1", b"1" + b"0" * chance.randint(10, 5000), 1)
    return b"\n".join(lines)


def audited(path: Path) -> str:
    result = merge([audit_file(str(path))])
    apply_identity(result)
    return to_json(result, {"version": "fuzz"})


@pytest.mark.parametrize("batch", range(8))
@pytest.mark.parametrize("cases", [240, pytest.param(3000, marks=pytest.mark.slow)])
def test_mutated_records_never_crash_and_every_line_is_accounted_for(tmp_path, batch, cases):
    """`cases` records in all, an eighth of them in each batch."""
    chance = random.Random(f"fuzz-{batch}")
    for case in range(cases // 8):
        original = SAMPLE_FILES[chance.randrange(len(SAMPLE_FILES))].read_bytes()
        data = mutated(original, chance)
        path = tmp_path / f"case-{case}.bjh"
        path.write_bytes(data)
        first = audited(path)  # raises on a crash of the auditor
        assert audited(path) == first, f"batch {batch} case {case}: two runs differ"
        summary = audit_file(str(path)).summary
        if summary.error is None:
            expected = data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
            assert summary.lines == expected, f"batch {batch} case {case}"


# ---- the files a person writes beside the records: waivers, settings, baselines ----
# Any bytes in them are exit 0, 1 or 2 (a usable file, or one plain line naming it), never
# exit 3 or a traceback: each loader returns or raises its own error, which the command
# line turns into exit 2; what it returns is then used without a crash.

RECORD = ROOT / "sample_logs" / "standard-t11-2026-11-20.bjh"
WAIVERS = b"""# the compliance office
[[waiver]]
name = "T11 pay"
citation = "20:18:15:26"
table = "RL-0412/T11"
dealer = "D-2207"
file = "standard-t11-2026-11-20.bjh"
from = 2026-11-01
until = 2026-11-30
justification = "reviewed"
approved_by = "J. Doe"
expires = 2099-12-31

[[waiver]]
id = "BJH-0123456789ABCDEF"
citation = "06"
justification = "x"
approved_by = "y"
expires = 2020-01-01
"""
SETTINGS = b"""# nightly
fail-on = "medium"
fail-on-new = false
jobs = 1
waivers = "w.toml"
"""
PYPROJECT = b"""[project]
name = "floor"

[tool.bjh-auditor]
fail_on = "high"
jobs = 2
"""
DEEP_TOML = b"x = " + b"[" * 3000 + b"]" * 3000 + b"\n"
TOML_PIECES = [b"[", b"]", b"[[waiver]]\n", b"[tool.bjh-auditor]\n", b"tool = []\n",
               b'tool = "x"\n', b"=", b'"', b"'", b"\\", b"\\u", b"\n", b"\r", b"\t",
               b"\x00", b"\xff", b"#", b",", b"{", b"}", b"2030-13-01", b"T00:00:00+14:00",
               b"T18:00:00", b"1e400", b"inf", b"nan", b"true", b"-", b"9" * 30, DEEP_TOML,
               b'"""', b"\xe2\x80\xae", b"[/b]", b"\x1b[2J", b"colour = 1\n"]
JSON_PIECES = [b"[", b"]", b"{", b"}", b'"', b"\\", b"\\ud800", b"\\u0000", b":", b",",
               b"null", b"true", b"5", b"-5", b"1e400", b"NaN", b"Infinity", b'"abc"',
               b"[" * 3000, b"]" * 3000, b"\xff", b"\x00", b'{"html": "<b>"}', b'["a"]',
               b'"BJH-0000000000000001"', b'"catastrophic"']


def edited(base: bytes, pieces: list[bytes]) -> st.SearchStrategy[bytes]:
    """The file with a few pieces put in (anywhere, or as a line of their own), bytes
    changed or spans cut; or any bytes at all."""
    edit = st.tuples(st.integers(0, 1 << 16), st.integers(0, 3),
                     st.one_of(st.sampled_from(pieces), st.binary(max_size=6)),
                     st.integers(1, 40))

    def apply(edits: list[tuple[int, int, bytes, int]]) -> bytes:
        data = base
        for where, action, piece, span in edits:
            at = where % (len(data) + 1)
            if action == 0:
                data = data[:at] + piece + data[at:]
            elif action == 1:
                data = data[:at] + piece + data[at + len(piece):]
            elif action == 2:
                data = data[:at] + data[at + span:]
            else:  # a line of its own, at the start of a line
                at = data.rfind(b"\n", 0, at) + 1
                data = data[:at] + piece.rstrip(b"\n") + b"\n" + data[at:]
        return data

    changed = st.lists(edit, min_size=1, max_size=5).map(apply)
    return st.one_of(changed, changed, changed, st.binary(max_size=300))


# Values a person might write, as TOML text: every kind TOML has, and the odd ones.
ODD_TEXT = ["", " ", "06", "20:18:15:6", "NIGHT.bjh", "*", "[/b]", "\x1b[2J", "\u202e",
            "a\x00b", "last", "tcp://nowhere", "../../x", "BJH-0000000000000001"]
TOML_VALUES = st.recursive(
    st.one_of(st.integers(-(1 << 70), 1 << 70).map(str), st.sampled_from(["true", "false"]),
              st.one_of(st.sampled_from(ODD_TEXT), st.text(max_size=12)).map(
                  lambda text: json.dumps(text, ensure_ascii=False)),
              st.sampled_from(["2030-01-01", "2030-01-01T00:00:00+14:00", "2030-01-01T18:00:00",
                               "2030-01-01T00:00:00Z", "00:00:00", "1e400", "inf", "nan",
                               "1.5", "[" * 1100 + "]" * 1100, "{}", "{ a = 1 }"])),
    lambda inner: st.lists(inner, max_size=3).map(lambda items: "[" + ", ".join(items) + "]"),
    max_leaves=6)
WAIVER_KEYS = ["name", "id", "citation", "table", "dealer", "file", "from", "until",
               "justification", "approved_by", "expires", "seat", "waiver"]
SETTING_KEYS = ["waivers", "baseline", "fail-on", "fail_on", "fail-on-new", "jobs", "tool",
                "colour", "bjh-auditor"]


def toml_tables(header: str, keys: list[str], most: int = 3) -> st.SearchStrategy[bytes]:
    """TOML that parses, of tables whose keys and values are anything a person might
    write: the loaders' own checks, not the TOML reader's, are what is tried."""
    table = st.dictionaries(st.sampled_from(keys), TOML_VALUES, max_size=len(keys))
    return st.lists(table, max_size=most).map(lambda tables: "".join(
        header + "".join(f"{key} = {value}\n" for key, value in one.items())
        for one in tables).encode("utf-8"))


def waiver_files() -> st.SearchStrategy[bytes]:
    return st.one_of(edited(WAIVERS, TOML_PIECES), toml_tables("[[waiver]]\n", WAIVER_KEYS))


def settings_files() -> st.SearchStrategy[bytes]:
    return st.one_of(edited(SETTINGS, TOML_PIECES), edited(PYPROJECT, TOML_PIECES),
                     toml_tables("", SETTING_KEYS, most=1),
                     toml_tables("[tool.bjh-auditor]\n", SETTING_KEYS, most=1))


FINDINGS_RESULT = merge([audit_file(str(RECORD))])
apply_identity(FINDINGS_RESULT)
BASELINE = to_json(FINDINGS_RESULT, {"version": "fuzz"}).encode("utf-8")  # the one to edit
JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(1 << 70), 1 << 70), st.floats(),
              st.sampled_from([*ODD_TEXT, "high", "medium", "low", "catastrophic"]),
              st.text(max_size=12)),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.text(max_size=4), inner, max_size=3)),
    max_leaves=6)
LONE_SURROGATE = '"x\\ud800"'  # JSON that decodes to a string no output can write


def baselines() -> st.SearchStrategy[bytes]:
    """An earlier findings.json with some fields of some findings set to anything."""
    document = json.loads(BASELINE)
    fields = sorted({key for finding in document["findings"] for key in finding})
    change = st.tuples(st.integers(0, len(document["findings"]) - 1),
                       st.sampled_from(fields), st.one_of(JSON_VALUES, st.just(LONE_SURROGATE)))

    def apply(changes: list) -> bytes:
        findings = [dict(finding) for finding in document["findings"]]
        marks = {}
        for place, field, value in changes:
            if value == LONE_SURROGATE:
                marks[f"@@{place}{field}@@"] = value
                value = f"@@{place}{field}@@"
            findings[place][field] = value
        text = json.dumps({**document, "findings": findings})
        for mark, raw in marks.items():
            text = text.replace(json.dumps(mark), raw)
        return text.encode("utf-8")

    return st.one_of(edited(BASELINE, JSON_PIECES),
                     st.lists(change, min_size=1, max_size=3).map(apply))


def written(data: bytes, name: str) -> Path:
    path = Path(tempfile.mkdtemp()) / name
    path.write_bytes(data)
    return path


def publishable(value) -> None:
    """What reaches an output can be written as UTF-8 JSON."""
    json.dumps(value, ensure_ascii=False, default=str).encode("utf-8")


LOADER = settings(deadline=None, derandomize=True,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
COMMAND = settings(deadline=None, derandomize=True,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                          HealthCheck.function_scoped_fixture])


# Examples per property: a few hundred in every run, ten times more marked slow.
LOADER_EXAMPLES = [300, pytest.param(3000, marks=pytest.mark.slow)]
COMMAND_EXAMPLES = [25, pytest.param(200, marks=pytest.mark.slow)]


def explore(base: settings, examples: int, body, *strategies, **named_strategies) -> None:
    """`body` checked on `examples` examples drawn from the strategies."""
    settings(base, max_examples=examples)(given(*strategies, **named_strategies)(body))()


def waiver_file_read(data: bytes) -> None:
    try:
        waivers = load_waivers(written(data, "w.toml"))
    except WaiverFileError as error:
        assert str(error)
        return
    waive = Waiving(waivers, FINDINGS_RESULT.inputs, date(2026, 11, 25))
    findings = [waive(finding).as_dict() for finding in FINDINGS_RESULT.findings]
    publishable([findings, [status.model_dump(mode="json") for status in waive.statuses()]])


@pytest.mark.parametrize("examples", LOADER_EXAMPLES)
def test_any_waiver_file_is_read_or_refused_and_what_is_read_applies(examples: int) -> None:
    explore(LOADER, examples, waiver_file_read, waiver_files())


def settings_file_read(data: bytes, as_pyproject: bool) -> None:
    path = written(data, "pyproject.toml" if as_pyproject else "job.toml")
    try:
        found = (find_settings(None, path.parent) if as_pyproject
                 else find_settings(str(path)))
    except SettingsError as error:
        assert str(error)
        return
    publishable(found.model_dump(mode="json"))


@pytest.mark.parametrize("examples", LOADER_EXAMPLES)
def test_any_settings_file_is_read_or_refused(examples: int) -> None:
    explore(LOADER, examples, settings_file_read, settings_files(), st.booleans())


SEVERITIES = ("high", "medium", "low")


def baseline_read(data: bytes) -> None:
    try:
        earlier = load_baseline(written(data, "findings.json"))
    except BaselineError as error:
        assert str(error)
        return
    # What is read is of the kinds the auditor writes: it is republished in `resolved`.
    for finding in earlier:
        assert finding["severity"] in SEVERITIES
        assert all(isinstance(finding[key], str) for key in ("id", "citation", "file",
                                                               "message"))
        assert finding["line"] is None or (type(finding["line"]) is int and finding["line"] > 0)
    comparison = Comparison(earlier)
    marked = [comparison(finding).as_dict() for finding in FINDINGS_RESULT.findings]
    publishable([marked, comparison.resolved(), Comparison(earlier).resolved()])


@pytest.mark.parametrize("examples", LOADER_EXAMPLES)
def test_any_baseline_is_read_or_refused_and_what_is_read_compares(examples: int) -> None:
    explore(LOADER, examples, baseline_read, baselines())


def file_given_to_the_audit(kind: str, data, capsys) -> None:
    made = {"--waivers": (waiver_files, "w.toml"), "--config": (settings_files, "job.toml"),
            "--baseline": (baselines, "findings.json")}
    strategy, name = made[kind]
    path = written(data.draw(strategy()), name)
    if kind == "--config":
        try:  # a store or a scheduler the file names is another test's matter
            found = find_settings(str(path))
            if found.store or found.scheduler or found.out:
                return
        except SettingsError:
            pass
    out = path.parent / "out"
    capsys.readouterr()
    code = main(["audit", str(RECORD), kind, str(path), "--out", str(out), "--quiet"])
    error = capsys.readouterr().err
    assert code in (0, 1, 2), error
    assert "Traceback" not in error
    if code == 2:
        assert error.count("\n") == 1 and error.startswith("auditor: "), error


@pytest.mark.parametrize("examples", COMMAND_EXAMPLES)
def test_any_waiver_settings_or_baseline_file_is_exit_0_1_or_2(examples: int, capsys) -> None:
    explore(COMMAND, examples, lambda kind, data: file_given_to_the_audit(kind, data, capsys),
            kind=st.sampled_from(["--waivers", "--config", "--baseline"]), data=st.data())
