"""The parts of auditor/approvals.py with exact values: a file of approvals read (each
approval's licence, table, reference, date, line and rules as compared), which approval a
table is held to, values compared as approvals and headers are, and each fault of a file
named by its field and line (the line of that approval's key, never another's)."""

from __future__ import annotations

import hashlib
from dataclasses import FrozenInstanceError
from decimal import Decimal
from pathlib import Path

import pytest

from auditor.approvals import (
    Approval,
    ApprovalFileError,
    Approvals,
    _Lines,
    compared,
    declared,
    load_approvals,
    option_keys,
)
from auditor.config import TableConfig
from auditor.reproduce import approvals_document, approvals_of

# Three approvals: a licence's for every table, one table of that licence, and a table of
# a licence with no approval for every table (its [[approval]] indented, its last key the
# file's last line).
FILE = """\
# the commission's approvals
[[approval]]
licence = "RL-1"
reference = "A-1"
date = 2026-01-10
game = "standard"
decks = 6
min = "10.00"
max = 500
soft17 = "hit"

[[approval]]
licence = "RL-1"
table = "T1"
reference = "A-2"
date = 2026-02-20
db21.paytable = 2
sidebet.min = 5.0
  [[approval]]
licence = "RL-3"
table = "T5"
reference = "A-3"
date = 2026-03-30
"""


def written(tmp_path: Path, text: str, name: str = "approved.toml") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


def refusal(tmp_path: Path, text: str) -> str:
    """The sentence an approval file `text` is refused with, its folder written "D"."""
    path = written(tmp_path, text)
    with pytest.raises(ApprovalFileError) as error:
        load_approvals(path)
    return str(error.value).replace(str(path), "D")


def test_a_file_of_approvals_read_whole(tmp_path: Path) -> None:
    path = written(tmp_path, FILE)
    approvals = load_approvals(path)
    assert approvals.path == str(path)
    assert approvals.sha256 == hashlib.sha256(FILE.encode("utf-8")).hexdigest()
    assert [(a.licence, a.table, a.reference, a.day, a.line, a.rules)
            for a in approvals.entries] == [
        ("RL-1", None, "A-1", "2026-01-10", 2,
         (("game", "standard"), ("decks", "6"), ("min", "10"), ("max", "500"),
          ("soft17", "hit"))),
        ("RL-1", "T1", "A-2", "2026-02-20", 12, (("db21.paytable", "2"), ("sidebet.min", "5"))),
        ("RL-3", "T5", "A-3", "2026-03-30", 19, ())]
    # Windows line ends: the same lines, as an editor numbers them.
    (tmp_path / "crlf").mkdir()
    crlf = load_approvals(written(tmp_path / "crlf", FILE.replace("\n", "\r\n")))
    assert [a.line for a in crlf.entries] == [2, 12, 19]
    assert crlf.entries == approvals.entries
    assert crlf.sha256 != approvals.sha256


def test_approvals_written_inline_have_no_line(tmp_path: Path) -> None:
    approvals = load_approvals(written(tmp_path, (
        'approval = [{licence = "RL-1", reference = "R", date = 2026-01-01, max = 300}]\n')))
    assert [(a.licence, a.line, a.rules) for a in approvals.entries] == [
        ("RL-1", 0, (("max", "300"),))]
    assert refusal(tmp_path, 'approval = [{licence = "RL-1", reference = "R", '
                             'date = 2026-01-01, max = -3}]\n') == (
        "D: line ?: `max`: must be an amount (a number, 0 or more)")


def test_the_approval_a_table_is_held_to(tmp_path: Path) -> None:
    approvals = load_approvals(written(tmp_path, FILE))
    licence, table, other = approvals.entries
    assert approvals.for_table("RL-1", "T1") is table  # its own wins over its licence's
    assert approvals.for_table("RL-1", "T2") is licence
    assert approvals.for_table("RL-1", None) is licence
    assert approvals.for_table("RL-3", "T5") is other
    assert approvals.for_table("RL-3", "T6") is None  # no approval for every table
    assert approvals.for_table("RL-2", "T1") is None
    assert approvals.for_table(None, "T1") is None
    assert approvals.for_table(None, None) is None
    assert licence.describe() == "approval A-1 of 2026-01-10 (RL-1, every table)"
    assert table.describe() == "approval A-2 of 2026-02-20 (RL-1/T1)"


def test_the_approvals_a_run_keeps_are_those_read(tmp_path: Path) -> None:
    approvals = load_approvals(written(tmp_path, FILE))
    kept = approvals_of(approvals_document(approvals, approvals.sha256))
    assert kept == approvals and kept.sha256 is None
    assert kept.for_table("RL-1", "T1") == approvals.entries[1]
    assert repr(Approvals("a.toml", approvals.entries[2:])) == (
        "Approvals(path='a.toml', entries=(Approval(licence='RL-3', table='T5', "
        "reference='A-3', day='2026-03-30', line=19, rules=()),), sha256=None)")
    # What a run was held to cannot be changed after it was read.
    with pytest.raises(FrozenInstanceError):
        approvals.path = "other.toml"  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        approvals.entries[0].rules = ()  # type: ignore[misc]
    assert Approval("RL-1", None, "A-1", "2026-01-10", 2, ()) != Approval(
        "RL-1", None, "A-1", "2026-01-10", 3, ())


def test_values_as_approvals_and_headers_are_compared() -> None:
    assert [compared("max", value) for value in ("300.00", 300, 300.0, "3E+2")] == ["300"] * 4
    assert compared("min", "2.50") == "2.5"
    assert compared("min", Decimal("0.00")) == "0"
    assert compared("sidebet.max", "100") == "100"
    assert compared("sidebet.min", 5.0) == "5"
    assert compared("tensticks.prize", "1E+3") == "1000"
    assert compared("max", "Lots") == "Lots"  # no amount: as written
    assert compared("soft17", "HIT") == "hit"
    assert compared("game", "DB21") == "db21"
    assert compared("decks", 6) == "6"
    assert compared("db21.paytable", 2) == "2"
    assert compared("blackjack", "6:5") == "6:5"


def test_what_a_header_declares_by_approval_key() -> None:
    limited = TableConfig(table_id="T1", game="db21", decks=8, minimum=Decimal("10.00"),
                          maximum=Decimal("500"))
    assert declared(limited, {"soft17": "hit"}) == {
        "game": "db21", "decks": "8", "min": "10.00", "max": "500", "soft17": "hit"}
    unlimited = TableConfig(table_id="T2", game="standard", decks=1)
    assert declared(unlimited, {}) == {"game": "standard", "decks": "1", "min": None,
                                       "max": None}
    assert declared(TableConfig(minimum=Decimal(0)), {})["min"] == "0"


def test_the_options_as_the_header_writes_them() -> None:
    assert option_keys() == {
        "soft17": "soft17", "peek": "peek", "blackjack": "blackjack", "double": "double",
        "das": "das", "splits": "splits", "surrender": "surrender",
        "db21.paytable": "db21_paytable", "ladies.paytable": "ladies_paytable",
        "sidebet.min": "sidebet_min", "sidebet.max": "sidebet_max",
        "tensticks.trade": "tensticks_trade", "tensticks.lights": "tensticks_lights",
        "tensticks.prize": "tensticks_prize"}


HEAD = '[[approval]]\nlicence = "RL-1"\nreference = "R"\ndate = 2026-01-01\n'


@pytest.mark.parametrize(("line", "message"), [
    ("decks = 0", "line 5: `decks`: must be a whole number of decks, 1 or more"),
    ('decks = "6"', "line 5: `decks`: must be a whole number of decks, 1 or more"),
    ("decks = 6.0", "line 5: `decks`: must be a whole number of decks, 1 or more"),
    ("min = -1", "line 5: `min`: must be an amount (a number, 0 or more)"),
    ("max = -0.01", "line 5: `max`: must be an amount (a number, 0 or more)"),
    ('min = "abc"', "line 5: `min`: must be an amount (a number, 0 or more)"),
    ('min = "Infinity"', "line 5: `min`: must be an amount (a number, 0 or more)"),
    ('max = "NaN"', "line 5: `max`: must be an amount (a number, 0 or more)"),
    ("min = [1]", "line 5: `min`: must be text or a number"),
    ("soft17 = true", "line 5: `soft17`: must be text or a number"),
    ('soft17 = "sometimes"', "line 5: `soft17`: Input should be 'hit' or 'stand'"),
    ("db21.paytable = 7", "line 5: `db21.paytable`: Input should be less than or equal to 4"),
    ('game = "poker"', "line 5: `game`: must be one of standard, switch, db21, tensticks, "
                       "ladies"),
    ("deck = 6", "line 5: `deck`: is not a game, limit or option of the format (known: game, "
                 "decks, min, max, soft17, peek, blackjack, double, das, splits, surrender, "
                 "db21.paytable, ladies.paytable, sidebet.min, sidebet.max, tensticks.trade, "
                 "tensticks.lights, tensticks.prize)"),
    ('table = ""', "line 5: `table`: must be text, not empty"),
    ("table = 5", "line 5: `table`: must be text, not empty"),
])
def test_a_value_that_cannot_be_approved(tmp_path: Path, line: str, message: str) -> None:
    assert refusal(tmp_path, HEAD + line + "\n") == f"D: {message}"


@pytest.mark.parametrize("line", [
    "decks = 1", "min = 0", "min = 0.5", 'max = "0.01"', "soft17 = \"stand\"",
    "db21.paytable = 4", 'game = "ladies"', 'table = "T9"'])
def test_a_value_that_can_be_approved(tmp_path: Path, line: str) -> None:
    approvals = load_approvals(written(tmp_path, HEAD + line + "\n"))
    assert len(approvals.entries) == 1


def test_the_smallest_approvable_values_as_kept(tmp_path: Path) -> None:
    approvals = load_approvals(written(tmp_path, HEAD + "decks = 1\nmin = 0\nmax = 0.5\n"))
    assert approvals.entries[0].rules == (("decks", "1"), ("min", "0"), ("max", "0.5"))


@pytest.mark.parametrize(("text", "message"), [
    # A fault names the line of its approval's own key, not an earlier approval's.
    (FILE.replace('date = 2026-02-20\n', 'date = 2026-02-20\nmax = -3\n'),
     "line 17: `max`: must be an amount (a number, 0 or more)"),
    (FILE.replace("db21.paytable = 2", "db21.paytable = 9"),
     "line 17: `db21.paytable`: Input should be less than or equal to 4"),
    # The key on the line after its [[approval]], and on the file's last line.
    (FILE.replace('licence = "RL-1"\ntable = "T1"', 'licence = ""\ntable = "T1"'),
     "line 13: `licence`: must be text, not empty"),
    (FILE.replace("date = 2026-03-30", 'date = "2026-03-30"'),
     "line 23: `date`: must be a date, YYYY-MM-DD"),
    (FILE.replace('reference = "A-2"\n', ""), "line 12: `reference`: is required"),
    (FILE.replace('reference = "A-3"\n', ""), "line 19: `reference`: is required"),
    (FILE.replace('licence = "RL-3"\n', ""), "line 19: `licence`: is required"),
    (FILE.replace("date = 2026-01-10\n", ""), "line 2: `date`: is required"),
    (FILE.replace('reference = "A-1"', 'reference = "  "'),
     "line 4: `reference`: must be text, not empty"),
    (FILE.replace('"RL-3"', '"RL-1"').replace('"T5"', '"T1"'),
     "line 19: a second approval for RL-1/T1 (the first is at line 12)"),
    (FILE + '[[approval]]\nlicence = "RL-1"\nreference = "A-4"\ndate = 2026-04-01\n',
     "line 24: a second approval for RL-1/every table (the first is at line 2)"),
    ('title = "approvals"\n\n' + FILE,
     "line 1: `title` is not part of an approval file (one [[approval]] table per approval)"),
    ("approval = 5\n", "`approval` must be [[approval]] tables"),
    ("approval = [1]\n", "`approval` must be [[approval]] tables"),
    ('approval = [{licence = "RL-1"}, 2]\n', "`approval` must be [[approval]] tables"),
])
def test_a_fault_names_its_field_and_line(tmp_path: Path, text: str, message: str) -> None:
    assert refusal(tmp_path, text) == f"D: {message}"


def test_an_empty_file_approves_nothing(tmp_path: Path) -> None:
    approvals = load_approvals(written(tmp_path, "# nothing yet\n"))
    assert approvals.entries == ()
    assert approvals.for_table("RL-1", "T1") is None


def test_a_file_that_cannot_be_read(tmp_path: Path) -> None:
    missing = tmp_path / "missing.toml"
    with pytest.raises(ApprovalFileError, match=r"missing\.toml: cannot be read \("):
        load_approvals(missing)
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b'# caf\xe9\n')
    with pytest.raises(ApprovalFileError, match=r"latin\.toml: cannot be read \("):
        load_approvals(latin)


def test_the_lines_of_each_approval() -> None:
    lines = _Lines(FILE)
    assert lines.starts == [2, 12, 19]
    assert [lines.find(number, None) for number in (0, 1, 2, 3, 4)] == [None, 2, 12, 19, None]
    assert lines.find(0, "the") is None  # a comment is no key
    assert [lines.find(1, key) for key in ("licence", "max", "soft17", "table")] == [
        3, 9, 10, None]
    assert [lines.find(2, key) for key in (
        "licence", "table", "db21.paytable", "sidebet.min", "paytable", "min", "max")] == [
        13, 14, 17, 18, None, None, None]
    assert [lines.find(3, key) for key in ("licence", "date", "soft17")] == [20, 23, None]
    # The line above its [[approval]] is another approval's.
    assert lines.find(3, "min") is None
    assert lines.find(3, "sidebet.min") is None
    assert lines.find(4, "licence") is None
    before = _Lines('title = 1\n"max" = 2\n[[approval]]\nmax = 3\n')
    assert (before.find(0, "title"), before.find(0, "max"), before.find(1, "max")) == (1, 2, 4)
    none = _Lines("max = 1\n")
    assert (none.starts, none.find(0, "max"), none.find(1, "max"), none.find(1, None)) == (
        [], 1, None, None)


@pytest.mark.parametrize(("rules", "message"), [
    # An option's fault names its own line, not that of another key ending alike above it
    # (`min` above `sidebet.min`, `db21.paytable` above `ladies.paytable`), nor the reverse.
    ("min = 10\ndb21.paytable = 2\nsidebet.min = -5\n",
     "line 7: `sidebet.min`: Input should be greater than or equal to 0"),
    ("min = 10\ndb21.paytable = 2\nladies.paytable = 9\n",
     "line 7: `ladies.paytable`: Input should be 'A', 'B' or 'C'"),
    ("sidebet.min = 5\nmin = -1\n", "line 6: `min`: must be an amount (a number, 0 or more)"),
    ('"sidebet" . "min" = -5\n',
     "line 5: `sidebet.min`: Input should be greater than or equal to 0"),
    # Written as a table of the approval: the key's own line still.
    ("min = 10\n[approval.sidebet]\nmin = -5\n",
     "line 7: `sidebet.min`: Input should be greater than or equal to 0"),
    ("min = 10\n[ approval . sidebet ]\nmax = 100\nmin = -5\n",
     "line 8: `sidebet.min`: Input should be greater than or equal to 0"),
    # In an inline table: the line of the table that holds it.
    ("min = 10\nsidebet = {max = 100, min = -5}\n",
     "line 6: `sidebet.min`: Input should be greater than or equal to 0"),
])
def test_a_dotted_options_fault_names_its_own_line(tmp_path: Path, rules: str,
                                                    message: str) -> None:
    assert refusal(tmp_path, HEAD + rules) == f"D: {message}"
