"""`auditor simulate` against the auditor: clean records audit clean, planted faults are found.

Thousands of rounds of every game, under varied house rules, are dealt by the simulator and
audited. Clean records must give no finding at all. Records with planted faults (one per
faulty round, drawn from every check the auditor has for the game) must give exactly the
planted findings, each with its citation, round and line, and nothing else: a clean round
of a faulty record gives none either. Every check of every game must have been planted.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from auditor.audit import audit_file
from auditor.checks.base import registry
from auditor.cli import main
from auditor.run import merge
from auditor.simulate import SpecError, simulate, table_spec
from auditor.simulate.clauses import clause_table
from auditor.simulate.faults import FILE_LEVEL, INJECTORS, InjectorTable
from auditor.simulate.spec import HEADER_CITATIONS, HEADER_CLAUSES
from tests.helpers import ROOT

# (decks, options) per game: the rules vary so that every injector finds its occasion
# (surrender offered or not, trading allowed or not, a short shoe, peek or no peek ...).
CONFIGS: dict[str, list[tuple[int, dict[str, str]]]] = {
    "standard": [
        (6, {}),
        (1, {"blackjack": "6:5", "surrender": "late", "soft17": "hit", "double": "10-11"}),
        (2, {"peek": "no", "das": "no", "double": "9-11", "splits": "1"}),
        (8, {"surrender": "late", "soft17": "hit"}),
    ],
    "switch": [
        (6, {}),
        (8, {"peek": "no", "surrender": "late", "soft17": "hit", "das": "no"}),
    ],
    "db21": [
        (6, {"db21.paytable": "1"}),
        (8, {"db21.paytable": "4", "peek": "no", "soft17": "hit", "surrender": "late"}),
    ],
    "tensticks": [
        (6, {"tensticks.lights": "4"}),
        (8, {"tensticks.trade": "no", "tensticks.lights": "3", "peek": "no",
             "surrender": "late"}),
    ],
    "ladies": [  # every pay table: A and B with more than one deck, C with one
        (6, {"ladies.paytable": "A"}),
        (8, {"ladies.paytable": "B", "peek": "no", "soft17": "hit", "surrender": "late"}),
        (1, {"ladies.paytable": "C", "blackjack": "6:5", "das": "no"}),
    ],
}
# The header fault of each configuration's faulty record, in order (True: one at random).
HEADER_FAULTS = {
    "standard": ["UnknownHeaderOption", "CasinoAfterTable", "MissingVersionLine", True],
    "switch": ["DeckCountNotSixOrEight", True],
    "db21": ["Db21WithoutPaytable", True],
    "tensticks": [True, "MissingVersionLine"],
    "ladies": ["LadiesWithoutPaytable", True, False],
}
FAULTY_ROUNDS = 1300  # per configuration: 16,900 rounds in all
CLEAN_ROUNDS = 1000  # per configuration: 13,000 rounds in all
FAULT_RATE = 0.3  # high, so that every clause of every citation gets planted

Key = tuple[str, str | None, str, int]  # file, round, citation, line


class Run:
    """One game's simulated records and their audits."""

    def __init__(self) -> None:
        self.planted: set[Key] = set()
        self.found: set[Key] = set()
        self.messages: dict[Key, str] = {}
        self.clauses: Counter = Counter()  # faults planted by clause
        self.round_clauses: dict[tuple[str, str], set[str]] = {}  # the clauses of each round
        self.shapes: Counter = Counter()
        self.declared: list = []  # each table as its header declares it


def _run(base: Path, rounds: int, faults: float, seed: str) -> dict[str, Run]:
    """Simulate and audit every configuration, by game."""
    runs: dict[str, Run] = {}
    for game, configs in CONFIGS.items():
        run = runs[game] = Run()
        planted, found, messages = run.planted, run.found, run.messages
        for number, (decks, options) in enumerate(configs, start=1):
            spec = table_spec(game, table_id=f"T{number}", decks=decks, options=options)
            header_fault = HEADER_FAULTS[game][number - 1] if faults > 0 else False
            result = simulate(base / game, spec, rounds=rounds, seed=seed, faults=faults,
                              header_fault=header_fault)
            assert result.rounds == rounds
            run.declared += result.declared
            for path in result.files:
                truth = json.loads(path.with_suffix(".truth.json").read_text())
                planted |= {(f["file"], f["round"], f["citation"], f["line"])
                            for f in truth["faults"]}
                run.clauses.update(f["clause"] for f in truth["faults"])
                for fault in truth["faults"]:
                    run.round_clauses.setdefault((fault["file"], fault["round"]),
                                                 set()).add(fault["clause"])
                run.shapes.update(shapes_of(path.read_bytes()))
                audited = merge([audit_file(str(path), keep_evidence=False)])
                for finding in audited.findings:
                    key = (Path(finding.file).name, finding.round, finding.citation,
                           finding.line)
                    found.add(key)
                    messages[key] = finding.message
    return runs


@pytest.fixture(scope="module")
def faulty(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Run]:
    return _run(tmp_path_factory.mktemp("faulty"), FAULTY_ROUNDS, FAULT_RATE, "faults")


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Run]:
    return _run(tmp_path_factory.mktemp("clean"), CLEAN_ROUNDS, 0.0, "clean")


# The forms of a record the format allows (bjh-format.md §1) that the simulator writes on
# some tables: each must occur, in clean records and in faulty ones.
SHAPES = {
    "CRLF line endings": re.compile(rb"\r\n"),
    "fractional time stamps": re.compile(rb"^[0-9:]{8}\.[0-9]{3} ", re.M),
    "comment lines": re.compile(rb"^# ", re.M),
    "blank lines": re.compile(rb"\n\r?\n"),
    "notes between rounds": re.compile(rb"^end\r?\n[0-9:.]+ note ", re.M),
    "notes inside rounds": re.compile(rb" note \"[^\"]*\"\r?\nend\r?$", re.M),
    "currency other than USD": re.compile(rb" currency=(?!USD)"),
    "amounts with cents": re.compile(rb" bet s[0-9]h[0-9] main [0-9]+\.50\b"),
    "options left at their defaults": lambda record: not re.search(
        rb"^option (soft17=stand|peek=yes|double=any|das=yes|splits=3|surrender=no)\r?$",
        record, re.M),
    "a dealer misdeal": re.compile(rb" misdeal dealer\r?$", re.M),
    "tips on DB21 wagers": re.compile(rb" bet s[0-9] db21 [0-9.]+ tip\r?$", re.M),
    "tips on insurance": re.compile(rb" bet s[0-9]h[0-9] insurance [0-9.]+ tip\r?$", re.M),
    "burns inside a round": re.compile(rb" bet [^\n]*\n[0-9:.]+ burn ", re.M),
    "cut cards between rounds": re.compile(
        rb"^end\r?\n(?:(?!round )[^\n]*\n)*?[0-9:.]+ cutcard\r?$", re.M),
    "a seat misdealt outside Blackjack Switch": lambda record: (
        b" game=switch " not in record and re.search(rb" misdeal s[0-9]\r?$", record, re.M)),
}


def shapes_of(record: bytes) -> set[str]:
    return {name for name, shape in SHAPES.items()
            if (shape.search(record) if isinstance(shape, re.Pattern) else shape(record))}


def _explain(keys: set[Key], messages: dict[Key, str]) -> str:
    return "\n".join(f"{k[0]} round {k[1]} line {k[3]} {k[2]}: {messages.get(k, '')}"
                     for k in sorted(keys, key=lambda k: (k[0], k[3]))[:20])


@pytest.mark.parametrize("game", list(CONFIGS))
def test_clean_records_give_no_finding(clean: dict[str, Run], game: str) -> None:
    run = clean[game]
    planted, found, messages = run.planted, run.found, run.messages
    assert not planted
    assert not found, _explain(found, messages)


@pytest.mark.parametrize("game", list(CONFIGS))
def test_every_planted_fault_is_found_and_nothing_else(faulty: dict[str, Run],
                                                       game: str) -> None:
    run = faulty[game]
    planted, found, messages = run.planted, run.found, run.messages
    missed, extra = planted - found, found - planted
    assert not missed, "planted but not found:\n" + _explain(missed, {})
    assert not extra, "found but not planted:\n" + _explain(extra, messages)
    several = {key: clauses for key, clauses in run.round_clauses.items()
               if key[1] is not None and len(clauses) != 1}
    assert not several, "one fault per faulty round"
    # one finding per fault but for a fault that is two wagers (a Blackjack Switch seat's
    # two main wagers over the limit): two findings, one a wager
    per_round = Counter((f, r) for f, r, _, _ in planted if r is not None)
    doubled = {key for key, count in per_round.items() if count > 1}
    assert all(run.round_clauses[key] <= {"MainWagerOverLimit",
                                                   "MainWagerUnderMinimum"}
               for key in doubled)


@pytest.mark.parametrize("game", list(CONFIGS))
def test_every_check_of_the_game_was_planted(faulty: dict[str, Run], game: str) -> None:
    planted = faulty[game].planted
    counts = Counter(citation for _, _, citation, _ in planted)
    checks = {c for c, check in registry().items()
              if check.applies_to(game) and not check.outside_file}
    assert InjectorTable().missing(game) == [], "checks with no fault injector"
    assert checks - set(counts) == set(), "checks never planted"
    assert set(counts) >= FILE_LEVEL


@pytest.mark.parametrize("game", list(CONFIGS))
def test_every_clause_of_the_game_was_planted(faulty: dict[str, Run], game: str) -> None:
    """Every injector (a clause of its citation) that suits one of the game's tables
    planted at least once, and its faults were found (the test above)."""
    clauses = faulty[game].clauses
    specs = faulty[game].declared  # (a header fault or a terse header changes what suits)
    wanted = {variant.__name__ for variants in INJECTORS.values() for variant in variants
              if game in variant.games and any(variant().suits(spec) for spec in specs)}
    assert ", ".join(sorted(wanted - set(clauses))) == ""


# The clauses issue 18 lists as never planted, and the games whose configurations above
# (das=no, late surrender, posted side-bet limits ...) must see each planted.
ALL = frozenset(CONFIGS)
ISSUE_18_CLAUSES = {
    "MainWagerUnderMinimum": ALL,
    "SideWagerOverLimit": {"switch", "db21", "ladies"},  # super match, DB21, Lucky Ladies
    "SideWagerUnderMinimum": {"switch", "db21", "ladies"},
    "MainWagerOverLimit": ALL,  # Blackjack Switch included (a finding for each hand)
    "CardAfterDouble": ALL - {"switch"},
    "DoubleAfterSplitWithoutDas": {"standard", "switch"},
    "MoreSplitsThanAllowed": ALL,
    "SplitAceDrawsTwice": ALL,
    "SurrenderCollectsAll": ALL,
    "ExtraCardPlayedOn": {"switch"},  # 30.09(4): three cards played on, no misdeal
    "DealerMisdealWagerKept": {"switch"},  # 30.09(4): a misdeal to the dealer
    "UnclosedRound": ALL,
    "SitOnTakenSeat": ALL - {"tensticks"},
    "SettleOfWagerNeverPlaced": ALL,
    "WagerSettledTwice": ALL,
}


def test_the_clauses_issue_18_lists_were_planted(faulty: dict[str, Run]) -> None:
    """Each clause the issue lists, at each game it names, and every `record:*` citation
    in more than one way at every game (the header's: across the games' records); the
    30.09(1) deck count is a header clause (`DeckCountNotSixOrEight`, HEADER_FAULTS)."""
    unplanted = sorted(f"{clause} at {game}" for clause, games in ISSUE_18_CLAUSES.items()
                       for game in games if not faulty[game].clauses[clause])
    assert unplanted == []
    assert faulty["switch"].clauses["DeckCountNotSixOrEight"]
    ways: dict[tuple[str, str], set[str]] = {}
    for game, run in faulty.items():
        for clause in run.clauses:
            citation = next((c for c, vs in INJECTORS.items()
                             if clause in {v.__name__ for v in vs}),
                            HEADER_CITATIONS.get(clause, "record:header"))
            if citation.startswith("record:"):
                where = "all" if citation == "record:header" else game
                ways.setdefault((citation, where), set()).add(clause)
    citations = {c for c, check in registry().items()
                 if c.startswith("record:") and not check.outside_file}
    assert {c for c, _ in ways} == citations
    assert {key: len(clauses) for key, clauses in ways.items() if len(clauses) < 2} == {}
    assert len(ways) == len(CONFIGS) * (len(citations) - 1) + 1


def test_every_header_clause_was_planted(faulty: dict[str, Run]) -> None:
    """The header's faults (one a file) across the games' records."""
    clauses = set().union(*(set(run.clauses) for run in faulty.values()))
    assert set(HEADER_CLAUSES) <= clauses


def test_every_shape_of_record_is_written(faulty: dict[str, Run],
                                          clean: dict[str, Run]) -> None:
    """Each shape occurs in the faulty records and in the clean ones, whose audits (the
    tests above) find every planted fault and nothing else."""
    for runs in (faulty, clean):
        written = set().union(*(set(run.shapes) for run in runs.values()))
        assert ", ".join(sorted(set(SHAPES) - written)) == ""


def test_at_least_ten_thousand_rounds_with_faults() -> None:
    assert sum(len(c) for c in CONFIGS.values()) * FAULTY_ROUNDS >= 10_000


def test_same_seed_same_bytes(tmp_path: Path) -> None:
    spec = table_spec("switch", options={"surrender": "late"})
    first = simulate(tmp_path / "a", spec, rounds=300, seed=42, faults=0.1)
    again = simulate(tmp_path / "b", spec, rounds=300, seed=42, faults=0.1)
    other = simulate(tmp_path / "c", spec, rounds=300, seed=43, faults=0.1)
    for one, two, three in zip(first.files, again.files, other.files, strict=True):
        assert one.read_bytes() == two.read_bytes()
        assert (one.with_suffix(".truth.json").read_text()
                == two.with_suffix(".truth.json").read_text().replace("/b/", "/a/"))
        assert one.read_bytes() != three.read_bytes()


def test_tables_times_hours(tmp_path: Path) -> None:
    result = simulate(tmp_path, table_spec("db21"), tables=3, hours=2, seed=5)
    assert [p.name for p in result.files] == [
        "db21-T01-01.bjh", "db21-T01-02.bjh", "db21-T01-03.bjh"]
    for path in result.files:
        text = path.read_text()
        rounds = text.count("\nround ")
        assert 60 <= rounds <= 400, rounds  # 30 to 200 rounds an hour, as players come and go
        assert "\nend\n" in text and text.rstrip().endswith("close")
        assert " dealer D-" in text and " shuffle\n" in text and " cut\n" in text
        assert " sit s" in text and " leave s" in text
    assert merge([audit_file(str(p), keep_evidence=False) for p in result.files]).findings == []


def test_the_records_show_what_a_table_does(tmp_path: Path) -> None:
    spec = table_spec("standard", options={"surrender": "late"})
    text = simulate(tmp_path, spec, rounds=1500, seed=9).files[0].read_text()
    for statement in (" split ", " double ", " surrender ", " insurance ", " cutcard\n",
                      " burn ", " peek\n", " tip\n", " reveal\n", " draw "):
        assert statement in text, statement
    text = simulate(tmp_path / "s", table_spec("switch"), rounds=1500, seed=9).files[0]
    assert " switch s" in text.read_text() and " supermatch " in text.read_text()
    text = simulate(tmp_path / "t", table_spec("tensticks"), rounds=1500, seed=9).files[0]
    for statement in (" trade ", " light ", " prize ", " punchcard="):
        assert statement in text.read_text(), statement
    text = simulate(tmp_path / "l", table_spec("ladies"), rounds=1500, seed=9).files[0]
    for statement in (" ladies 5\n", " ladies win ", " ladies lose ", " ladies.paytable=A"):
        assert statement in text.read_text(), statement


def test_truth_file_names_each_fault(tmp_path: Path) -> None:
    result = simulate(tmp_path, table_spec("standard"), rounds=200, seed=3, faults=0.2)
    truth = json.loads(result.files[0].with_suffix(".truth.json").read_text())
    assert truth["file"] == "standard-T01.bjh" and truth["rounds"] == 200
    assert truth["faults"] and all(
        set(f) == {"file", "round", "citation", "line", "what", "clause"}
        for f in truth["faults"])
    clauses = {v.__name__ for variants in INJECTORS.values() for v in variants}
    assert {f["clause"] for f in truth["faults"]} <= clauses
    lines = result.files[0].read_text().splitlines()
    for fault in truth["faults"]:
        assert 1 <= fault["line"] <= len(lines)


@pytest.mark.parametrize(("game", "decks", "options", "words"), [
    ("switch", 2, {}, "6 or 8 decks"),
    ("db21", 1, {}, "6 or 8 decks"),
    ("ladies", 6, {"ladies.paytable": "C"}, "pay table C"),
    ("ladies", 1, {"ladies.paytable": "B"}, "pay table C"),
    ("standard", 6, {"blackjack": "6:5"}, "one deck"),
    ("switch", 6, {"blackjack": "3:2"}, "1 to 1"),
    ("standard", 6, {"soft17": "sometimes"}, "bad option"),
    ("standard", 6, {"colour": "green"}, "bad option"),
])
def test_tables_the_simulator_refuses(game: str, decks: int, options: dict[str, str],
                                      words: str) -> None:
    with pytest.raises(SpecError, match=words):
        table_spec(game, decks=decks, options=options)


@pytest.mark.parametrize(("where", "why"), [
    ("a-file", "exists and is not a folder"),
    ("a-file/records", "cannot be made (Not a directory)")])
def test_simulate_out_in_a_files_place_is_one_line_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture, where: str, why: str) -> None:
    (tmp_path / "a-file").write_text("kept\n", encoding="utf-8")
    out = tmp_path / where
    assert main(["simulate", "--game", "standard", "--rounds", "5", "--out", str(out)]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"auditor: --out {out} {why}\n"
    assert captured.out == ""
    assert (tmp_path / "a-file").read_text(encoding="utf-8") == "kept\n"


def test_command_line(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "records"
    status = main(["simulate", "--game", "tensticks", "--rounds", "120", "--tables", "2",
                   "--option", "tensticks.lights=5", "--faults", "0.1", "--seed", "x",
                   "--out", str(out)])
    assert status == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "tensticks-T01-01.bjh", "tensticks-T01-01.truth.json",
        "tensticks-T01-02.bjh", "tensticks-T01-02.truth.json"]
    assert "option tensticks.lights=5" in (out / "tensticks-T01-01.bjh").read_text()
    assert "240 rounds" in capsys.readouterr().out
    assert main(["simulate", "--game", "switch", "--decks", "1", "--rounds", "5",
                 "--out", str(tmp_path / "no")]) == 2
    assert main(["simulate", "--game", "standard", "--rounds", "5", "--option", "peek",
                 "--out", str(tmp_path / "no")]) == 2
    assert main(["simulate", "--game", "switch", "--rounds", "5", "--faults", "0.1",
                 "--header-fault", "MissingVersionLine", "--out", str(tmp_path / "h")]) == 0
    assert (tmp_path / "h" / "switch-T01.bjh").read_text().startswith("casino ")
    assert main(["simulate", "--game", "switch", "--rounds", "5", "--faults", "0.1",
                 "--header-fault", "Db21WithoutPaytable", "--out", str(tmp_path / "no")]) == 2


def test_the_header_fault_is_a_choice(tmp_path: Path) -> None:
    """--faults plants faults at its rate only; --header-fault adds a header fault, the one
    named or one drawn from those suiting the game, found at its line and nothing else of
    the header's."""
    spec = table_spec("standard")
    without = simulate(tmp_path / "without", spec, rounds=200, seed=3, faults=0.1)
    assert "record:header" not in without.planted
    assert without.files[0].read_text().splitlines()[:2] == [
        "bjh 1", 'casino "Simulated Casino" licence=RL-SIM-01']
    assert "option table.colour=green" not in without.files[0].read_text()
    cases = [("standard", clause) for clause in ("UnknownHeaderOption", "CasinoAfterTable",
                                                 "MissingVersionLine", True, True)]
    cases += [("switch", "DeckCountNotSixOrEight"), ("db21", "Db21WithoutPaytable"),
              ("ladies", "LadiesWithoutPaytable")]
    for number, (game, clause) in enumerate(cases):
        made = simulate(tmp_path / f"with-{number}", table_spec(game), rounds=60, seed=number,
                        faults=0.1, header_fault=clause)
        lines = made.files[0].read_text().splitlines()
        truth = json.loads(made.files[0].with_suffix(".truth.json").read_text())
        # (a card burned between rounds too often is a fault of no round as well)
        [header] = [f for f in truth["faults"] if f["clause"] in HEADER_CLAUSES]
        assert header["clause"] == clause or (clause is True and header["clause"] in {
            "UnknownHeaderOption", "CasinoAfterTable", "MissingVersionLine"})
        text = lines[header["line"] - 1]
        expected_text = {
            "UnknownHeaderOption": text == "option table.colour=green",
            "CasinoAfterTable": text.startswith("casino ")
            and lines[header["line"] - 2].startswith("table "),
            "MissingVersionLine": header["line"] == 1 and text.startswith("casino "),
            "DeckCountNotSixOrEight": text.startswith("table T01 game=switch decks=4 "),
            "Db21WithoutPaytable": text.startswith("table ")
            and "option db21.paytable" not in "\n".join(lines[:20]),
            "LadiesWithoutPaytable": text.startswith("table ")
            and "option ladies.paytable" not in "\n".join(lines[:20]),
        }
        assert expected_text[header["clause"]], (header, text)
        audited = merge([audit_file(str(made.files[0]), keep_evidence=False)])
        assert sorted((f.citation, f.line) for f in audited.findings if f.round is None) == \
            sorted((f["citation"], f["line"]) for f in truth["faults"] if f["round"] is None)
        assert [(f.citation, f.line) for f in audited.findings if f.round is None
                and f.citation != "record:card-count"] == [(header["citation"], header["line"])]
    with pytest.raises(SpecError, match="DeckCountNotSixOrEight is not planted at standard"):
        simulate(tmp_path / "no", spec, rounds=5, faults=0.1,
                 header_fault="DeckCountNotSixOrEight")


def test_the_rule_base_page_lists_every_clause() -> None:
    page = ROOT / "docs" / "rule-base.md"
    assert clause_table() in page.read_text(encoding="utf-8"), "regenerate: make readme"
    row = "| 20:18:15:03 | side wager under minimum | db21, ladies, switch |"
    assert row in clause_table()



def test_punched_cards_travel_between_tables(tmp_path: Path) -> None:
    """At a floor of Ten sticks 21 tables a player may hand in, at a later table, a card
    punched at an earlier one (after it was punched); the tables audited together give
    every planted fault and nothing else."""
    spec = table_spec("tensticks", options={"tensticks.lights": "3"})
    result = simulate(tmp_path, spec, tables=3, rounds=800, seed="floor", faults=0.3)
    planted, found = set(), {}
    for path in result.files:
        truth = json.loads(path.with_suffix(".truth.json").read_text())
        planted |= {(f["file"], f["round"], f["citation"], f["line"]) for f in truth["faults"]}
    audited = merge([audit_file(str(path), keep_evidence=False) for path in result.files])
    for finding in audited.findings:
        found[(Path(finding.file).name, finding.round, finding.citation, finding.line)] = (
            finding.message)
    assert planted - set(found) == set()
    assert set(found) - planted == set(), _explain(set(found) - planted, found)
    carried = [line for path in result.files[1:] for line in path.read_text().splitlines()
               if " sit s" in line and " punchcard=PC-T01-01-" in line]
    assert carried, "no card punched at the first table was handed in at another"


CARD_STATEMENT = re.compile(r"^\S+ (deal \S+|hit \S+|double \S+ \S+|draw|burn|trade \S+) "
                            r"([2-9TJQKA][cdhs])$")


def test_a_one_deck_shoe_is_shuffled_in_a_round_only_when_its_cards_ran_out(
        tmp_path: Path) -> None:
    """A `shuffle` inside a round is lawful when the cards run out (bjh-format.md §5):
    at one deck the simulator shuffles in a round only after the 52 cards of the last
    full shuffle were all dealt or burned."""
    spec = table_spec("standard", decks=1, options={"blackjack": "6:5"})
    text = simulate(tmp_path, spec, rounds=3000, seed="one-deck").files[0].read_text()
    in_round, full_shuffle, cards, counts = False, False, 0, []
    for line in text.splitlines():
        words = line.split()
        if line.startswith("round "):
            in_round = True
        elif line == "end":
            in_round = False
        elif words[1:] == ["shuffle"]:
            if in_round and full_shuffle:
                counts.append(cards)
            full_shuffle, cards = not in_round, 0
        elif CARD_STATEMENT.match(line):
            cards += 1
    assert len(counts) >= 10 and set(counts) == {52}, counts


@pytest.mark.parametrize(("seed", "faults"), [("s2", FAULT_RATE), ("s3", FAULT_RATE),
                                              ("s4", FAULT_RATE), ("c2", 0.0), ("c3", 0.0)])
def test_other_seeds_plant_and_find_the_same(tmp_path: Path, seed: str, faults: float) -> None:
    """The records of other seeds, every clause and shape drawn anew: each planted fault
    found, nothing else (clean seeds: no finding)."""
    rounds = FAULTY_ROUNDS if faults else CLEAN_ROUNDS
    for game, run in _run(tmp_path, rounds, faults, seed).items():
        assert run.planted - run.found == set(), game
        assert run.found - run.planted == set(), _explain(run.found - run.planted, run.messages)


@pytest.mark.parametrize("option, said", [
    (["--careless", "X"], "auditor: --careless is DEALER:MULTIPLE: '' is not a number\n"),
    (["--careless", "D-1001:nan"], "auditor: --careless is DEALER:MULTIPLE: 'nan' is not a "
                                   "number\n"),
    (["--collude", "D-1001:P-1:often"], "auditor: --collude is DEALER:PLAYER:RATE with RATE "
                                        "in (0, 1]: 'often' is not a number\n"),
])
def test_a_floor_option_not_a_number_is_one_line(option: list[str], said: str, tmp_path,
                                                 capsys) -> None:
    capsys.readouterr()
    assert main(["simulate", "--game", "standard", "--rounds", "1", "--faults", "0.1",
                 "--out", str(tmp_path / "s"), *option]) == 2
    assert capsys.readouterr().err == said
