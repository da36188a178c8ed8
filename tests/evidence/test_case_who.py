"""What a case names of who was audited and the house rules in force: every house rule of
its tables, those the header leaves unknown included (a rule given a value it cannot take,
judged under each value it could hold, is on page 1 and in its exhibits with the header's
words, never left out as if the table had no such rule); and a hostile casino name printed
escaped and whole."""

from __future__ import annotations

import re
from pathlib import Path

from auditor.cli import main
from tests.helpers.gaming_day_records import record
from tests.helpers.markup import text

# Two rounds that each pay a blackjack even money, under a header whose blackjack odds are
# a value the format does not know, written as markup.
BAD_ODDS = "option blackjack=<b>7:5</b>"


def test_an_unknown_house_rule_is_named_on_page_one(tmp_path: Path) -> None:
    records = tmp_path / "records"
    records.mkdir()
    night = record([("2026-11-20", "21:00"), ("2026-11-20", "22:00")])
    (records / "night.bjh").write_text(night.replace("option soft17=hit\n",
                                                     f"option soft17=hit\n{BAD_ODDS}\n"),
                                       encoding="utf-8")
    run, case = tmp_path / "run", tmp_path / "case"
    assert main(["audit", str(records), "--out", str(run), "--quiet", "--store",
                 str(tmp_path / "h.sqlite")]) == 1
    assert main(["case", str(run), "--licensee", "RL-0412", "--out", str(case)]) == 0
    html = (case / "case.html").read_text(encoding="utf-8")
    rules = re.search(r'<table class="house-rules">.*?</table>', html, re.S).group(0)
    assert "<b>7:5</b>" not in html  # the header's words are text, never markup
    assert text(rules).replace("&lt;", "<").replace("&gt;", ">") == (
        "Table Game Decks Seats Limits Currency Options declared by the header Not "
        "declared: judged under the default T11 standard 6 7 10–500 USD soft17=hit · "
        "surrender=late · blackjack unknown (set to <b>7:5</b> at line 5, a value it cannot "
        "take): judged under each value it could hold peek=yes · double=any · das=yes · "
        "splits=3")
    exhibits = re.findall(r"<tr><th>House rules applied</th><td>(.*?)</td>", html, re.S)
    assert [text(e).replace("&lt;", "<").replace("&gt;", ">") for e in exhibits] == [
        "blackjack: unknown (set to <b>7:5</b> at line 5, a value it cannot take), judged "
        "under each value it could hold ; decks=6 (declared); soft17=hit (declared)"] * 2


def test_a_hostile_casino_name_is_printed_escaped_and_whole(tmp_path: Path, capsys) -> None:
    """A casino name (the case asked for by it) holding an escape sequence, a bell, a
    template's braces, markup and a right-to-left mark: every part printed, as text, the
    control characters as their code points; nothing run, nothing dropped."""
    name = "A\x1b[31mRED\x07 {{ 7*7 }} {% if 1 %}X{% endif %} \u200f<i>x</i>"
    records = tmp_path / "records"
    records.mkdir()
    night = record([("2026-11-20", "21:00")]).replace(
        '"Deadwood Example Casino" licence=RL-0412', f'"{name}"')
    (records / "night.bjh").write_text(night, encoding="utf-8")
    run, case = tmp_path / "run", tmp_path / "case"
    assert main(["audit", str(records), "--out", str(run), "--quiet", "--store",
                 str(tmp_path / "h.sqlite")]) == 1
    assert main(["case", str(run), "--licensee", name, "--out", str(case)]) == 0
    html = (case / "case.html").read_text(encoding="utf-8")
    shown = ("A\\u001b[31mRED\\u0007 {{ 7*7 }} {% if 1 %}X{% endif %} "
             "\\u200f&lt;i&gt;x&lt;/i&gt;")
    assert re.findall(r"<h1>Case file: (.*?)</h1>", html) == [shown]
    assert not set("\x1b\x07\u200f") & set(html) and "<i>" not in html
    capsys.readouterr()
    assert main(["verify", str(case)]) == 4
    said = capsys.readouterr()
    assert not set("\x1b\x07\u200f") & set(said.out + said.err)
