"""Step-by-step replays are kept for the first rounds of each citation in a file, and every
finding is still reported: memory follows the kinds of fault, not how often they recur."""

from __future__ import annotations

import re
from pathlib import Path

from auditor.audit import REPLAYS_PER_CITATION, audit_file
from auditor.output.html_report import to_html
from auditor.run import audit_paths

HEADER = """\
bjh 1
casino "Evidence Casino" licence=RL-0042
table T12 game=standard decks=6 min=10 max=500
option soft17=stand
option blackjack=3:2
shoe 7 date=2026-11-21
09:58:00 shuffle
09:58:30 cut
dealer D-2001
"""

# A compliant round but for its wager: `amount` over the table's 500 maximum is a finding.
# The shoe is shuffled before each round, as the same cards are dealt every time.
ROUND = """\
shuffle
cut
round {number} time=10:{number:02d}:00 dealer=D-2001
10:{number:02d}:01 bet s1h1 main {amount}
10:{number:02d}:02 deal s1h1 Th
10:{number:02d}:03 deal dealer 6d
10:{number:02d}:04 deal s1h1 Qd
10:{number:02d}:05 deal dealer Ts
10:{number:02d}:06 peek
10:{number:02d}:07 stand s1h1
10:{number:02d}:08 reveal
10:{number:02d}:09 draw 2c
10:{number:02d}:11 settle s1h1 main win {amount}
end
"""
ROUND_LINES = ROUND.count("\n")


def record(tmp_path: Path, rounds: int, late_draw_in: int) -> Path:
    """`rounds` rounds with a wager over the maximum; in round `late_draw_in` the dealer
    also draws on 18 (a second citation)."""
    text = HEADER
    for number in range(1, rounds + 1):
        round_text = ROUND.format(number=number, amount=600)
        if number == late_draw_in:
            round_text = round_text.replace("end\n", "")
            round_text = round_text.replace(f"10:{number:02d}:11 settle",
                                            f"10:{number:02d}:10 draw 4s\n"
                                            f"10:{number:02d}:11 settle")
            round_text += "end\n"
        text += round_text
    path = tmp_path / "evidence.bjh"
    path.write_text(text, encoding="utf-8")
    return path


def first_line(number: int, late_draw_in: int) -> int:
    """The `round` line of round `number`, after its shuffle and cut (the round with the
    extra draw is a line longer)."""
    extra = 1 if late_draw_in < number else 0
    return HEADER.count("\n") + (number - 1) * ROUND_LINES + extra + 3


def test_replays_are_kept_for_the_first_rounds_of_each_citation(tmp_path: Path) -> None:
    rounds = REPLAYS_PER_CITATION + 4
    late = REPLAYS_PER_CITATION + 3  # past the cap of the wager's citation
    result = audit_file(str(record(tmp_path, rounds, late)))
    over_maximum = [f for f in result.findings if f.citation == "20:18:15:03"]
    assert [f.round for f in over_maximum] == [str(n) for n in range(1, rounds + 1)]
    replayed = sorted(int(e.round_id) for e in result.evidence.values())
    # The wager's citation is replayed in its first rounds only; the round with a second
    # citation is replayed too, since that citation has had no replay yet.
    assert replayed == [*range(1, REPLAYS_PER_CITATION + 1), late]
    for evidence in result.evidence.values():
        start = first_line(int(evidence.round_id), late)
        assert evidence.start_line == start
        assert evidence.lines[0] == (start, f"round {evidence.round_id} time="
                                            f"10:{int(evidence.round_id):02d}:00 dealer=D-2001")


def test_the_report_says_why_a_round_is_not_replayed(tmp_path: Path) -> None:
    rounds = REPLAYS_PER_CITATION + 4
    late = REPLAYS_PER_CITATION + 3
    result = audit_paths([str(record(tmp_path, rounds, late))], jobs=1)
    run = {"version": "9.9.9", "rule_base": "abcdef012345", "command": "auditor audit",
           "started": "2026-11-21T10:00:00+00:00", "finished": "2026-11-21T10:00:01+00:00"}
    page = to_html(result, run)
    items = re.findall(r'<li class="finding" id="f-\d+">.*?</li>', page, re.DOTALL)
    assert len(items) == len(result.findings)
    not_replayed = sorted(int(re.search(r"round <b>(\d+)</b>", item).group(1))
                          for item in items if "This round is not replayed" in item)
    # The wager's citation past its first rounds; round `late` is replayed for its draw.
    assert not_replayed == [n for n in range(REPLAYS_PER_CITATION + 1, rounds + 1)
                            if n != late]
    assert "No replay of this round was recorded" not in page
