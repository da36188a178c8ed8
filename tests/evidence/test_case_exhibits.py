"""What a case's exhibits stand on, who made it, and how page 1 indexes them (issue 40).

A small record whose header declares no option is audited for real and made into a signed
case: each exhibit must print the regulation's words where they are on file and always the
auditor's reading (as the basis where the words are not on file: 20:18:15:23, :26, :30);
page 1, the exhibits, report.html and findings.json must tell the options a header declares
from the defaults the auditor assumed; the attestation names the preparer and the signing
key's fingerprint; page 1's index links to every exhibit.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from html.parser import HTMLParser
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization

from auditor.cli import main
from tests.helpers.markup import text

# A table whose header declares no option at all: every house rule is the auditor's default.
PLAIN = """bjh 1
casino "Plain Casino" licence=RL-0101
table T01 game=standard decks=6 seats=7 min=10 max=500 currency=USD
shoe 1 date=2026-11-20
dealer D-1
21:00:00 shuffle
21:00:05 cut
round 1 time=21:01:00 dealer=D-1
21:01:00 sit s2 player=P-1
21:01:01 bet s2h1 main 20
21:01:02 deal s2h1 9c
21:01:03 deal dealer 7d
21:01:04 deal s2h1 7s
21:01:05 deal dealer Kd
21:01:06 surrender s2h1
21:01:07 reveal
21:01:08 settle s2h1 main lose 10
end
round 2 time=21:02:00 dealer=D-1
21:02:01 bet s2h1 main 20
21:02:02 deal s2h1 Tc
21:02:03 deal dealer Th
21:02:04 deal s2h1 9d
21:02:05 deal dealer 6s
21:02:06 stand s2h1
21:02:07 reveal
21:02:08 settle s2h1 main win 20
end
round 3 time=21:03:00 dealer=D-1
21:03:01 bet s2h1 main 20
21:03:02 deal s2h1 Tc
21:03:03 deal dealer Ah
21:03:04 deal s2h1 9d
21:03:05 deal dealer 7s
21:03:06 bet s2h1 insurance 15
21:03:07 stand s2h1
21:03:08 reveal
21:03:09 settle s2h1 insurance lose 15
21:03:10 settle s2h1 main win 20
end
round 4 time=21:04:00 dealer=D-1
21:04:01 frobnicate s2h1
21:04:02 bet s2h1 main 20
21:04:03 deal s2h1 Tc
21:04:04 deal dealer Th
21:04:05 deal s2h1 9d
21:04:06 deal dealer 8s
21:04:07 stand s2h1
21:04:08 reveal
21:04:09 settle s2h1 main win 20
end
round 5 time=21:05:00 dealer=D-1
21:05:01 bet s2h1 main 600
21:05:02 deal s2h1 Tc
21:05:03 deal dealer Th
21:05:04 deal s2h1 9d
21:05:05 deal dealer 8s
21:05:06 stand s2h1
21:05:07 reveal
21:05:08 settle s2h1 main win 600
end
"""
# (citation, round, line) of each finding, in the run's order
FOUND = [("20:18:15:30", "1", 15), ("20:18:15:26", "2", 26), ("20:18:15:23", "3", 35),
         ("record:syntax", "4", 42), ("20:18:15:03", "5", 53)]
PREPARER, AGENCY = "Dana Inspector", "S.D. Commission on Gaming"


@pytest.fixture(scope="module")
def audited(tmp_path_factory) -> Path:
    """The record audited into a real SQLite store: the audit's --out folder."""
    folder = tmp_path_factory.mktemp("plain")
    (folder / "records").mkdir()
    (folder / "records" / "plain-t01.bjh").write_text(PLAIN, encoding="utf-8")
    out = folder / "reports"
    assert main(["audit", str(folder / "records"), "--out", str(out), "--quiet", "--jobs",
                 "1", "--store", str(folder / "floor.sqlite")]) == 1
    found = json.loads((out / "findings.json").read_text(encoding="utf-8"))["findings"]
    assert [(f["citation"], f["round"], f["line"]) for f in found] == FOUND
    return out


@pytest.fixture(scope="module")
def key(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("keys") / "inspector.key"
    assert main(["keygen", str(path)]) == 0
    return path


@pytest.fixture(scope="module")
def case(audited: Path, key: Path) -> Path:
    folder = audited.parent / "case"
    assert main(["case", str(audited), "--licensee", "RL-0101", "--out", str(folder),
                 "--sign", str(key), "--preparer", PREPARER, "--agency", AGENCY]) == 0
    return folder


def html_of(case: Path) -> str:
    return (case / "case.html").read_text(encoding="utf-8")


def exhibit(html: str, number: int) -> str:
    start = html.index(f'id="exhibit-{number}"')
    end = html.find('<section class="exhibit"', start)
    return html[start:end if end > 0 else html.index('<section class="provenance"')]


def cover(html: str) -> str:
    return html[:html.index('<section class="exhibit"')]


def test_an_exhibit_under_30_prints_the_reading_as_its_basis(case: Path) -> None:
    words = text(exhibit(html_of(case), 1))
    assert "Exhibit 1 · 20:18:15:30 · Surrender" in words
    assert ("The regulation's words of 20:18:15:30 (Surrender) are not on file. This finding "
            "rests on the auditor's reading alone, printed below as its basis.") in words
    assert ("The basis: the auditor's reading (how the auditor applies the rule; not the "
            "regulation's words): Late surrender as commonly dealt: offered only where the "
            "house says so, as the first decision on the hand's first two cards, and it "
            "collects half the wager") in words
    assert "(*reading*)" not in words and "Text not on file" not in words


def test_the_insurance_exhibit_names_what_the_rule_base_holds_of_it(case: Path) -> None:
    words = text(exhibit(html_of(case), 3))
    assert "The regulation's words of 20:18:15:23 (Insurance wagers) are not on file." in words
    assert ('The rule base notes: 20:18:19:01 requires the layout to show "Insurance pays 2 '
            'to 1".') in words.replace("&#34;", '"')
    assert "The basis: the auditor's reading" in words
    assert "Common dealer procedure: insurance is at most half the original wager" in words


def test_an_exhibit_with_words_on_file_prints_them_and_the_reading_beside(case: Path) -> None:
    words = text(exhibit(html_of(case), 5))
    assert ("The regulation's words, as on file: Before the first card is dealt for a round "
            "of play, a player may make a wager of not more than the posted table limit "
            "against the dealer.") in words
    assert ("The auditor's reading (how the auditor applies the rule; not the regulation's "
            "words): The posted limits are `min`/`max` of the `table`") in words
    assert "not on file" not in words and "reading alone" not in words
    record = text(exhibit(html_of(case), 4))
    assert "The record format's words (BJH 1): A statement that does not parse" in record


def test_page_one_counts_readings_alone_and_record_findings_apart(case: Path) -> None:
    words = text(cover(html_of(case)))
    assert ("Findings 5 in scope: 4 of the regulation (20:18:15), 1 of the record's format "
            "(citations record: …)") in words
    assert ("Resting on a reading alone 3 of the 5 findings rest on the auditor's reading "
            "alone: the regulation's words of 20:18:15:23 (Insurance wagers, 1), 20:18:15:26 "
            "(Drawing of additional cards by players and dealers, 1), 20:18:15:30 (Surrender, "
            "1) are not on file") in words


def test_a_header_with_no_options_is_not_declared_on_page_one_and_in_the_exhibit(
        case: Path) -> None:
    html = html_of(case)
    row = text(re.search(r'<table class="house-rules">.*?</table>', html, re.S).group(0))
    assert ("T01 standard 6 7 10–500 USD none declared soft17=stand · peek=yes · "
            "blackjack=3:2 · double=any · das=yes · splits=3 · surrender=no") in row
    assert "Options declared by the header Not declared: judged under the default" in row
    surrender = text(exhibit(html, 1))
    assert ("House rules applied surrender: not declared, judged under the default "
            "surrender=no") in surrender
    assert ("s2h1 surrendered; the header does not declare surrender, so it is judged under "
            "the default surrender=no (not offered).") in surrender
    assert "a table that does not offer surrender" not in html
    dealer = text(exhibit(html, 2))
    assert "House rules applied soft17: not declared, judged under the default soft17=stand" \
        in dealer


def test_findings_json_tells_declared_rules_from_defaults(audited: Path, case: Path) -> None:
    for folder in (audited, case):
        (summary,) = json.loads((folder / "findings.json").read_text("utf-8"))["inputs"]
        assert summary["declared_rules"] == []
        assert summary["house_rules"]["surrender"] == "no"


def test_report_html_shows_the_options_not_declared(audited: Path) -> None:
    html = (audited / "report.html").read_text(encoding="utf-8")
    cell = re.search(r'<td class="rules">(.*?)</td>', html, re.S).group(1)
    assert text(cell) == ("no option declared not declared, judged under the defaults: "
                          "soft17 stand, peek yes, blackjack 3:2, double any, das yes, "
                          "splits 3, surrender no")


def test_report_html_gives_the_reading_as_the_basis_where_no_words_are_on_file(
        audited: Path) -> None:
    html = (audited / "report.html").read_text(encoding="utf-8")
    opened = re.findall(r'<details class="reading" open><summary>([^<]*)</summary><p>([^<]*)',
                        html)
    assert [summary for summary, _ in opened] == [
        "The basis of these findings: the auditor's reading (the regulation's words "
        "are not on file)"] * 3
    assert any(reading.startswith("Late surrender as commonly dealt") for _, reading in opened)
    assert html.count('<details class="reading"><summary>How the auditor reads this rule') == 2


def test_the_attestation_names_the_preparer_and_the_signing_key(case: Path, key: Path) -> None:
    html = html_of(case)
    page = html[html.index('<section class="attestation"'):]
    raw = serialization.load_pem_public_key(Path(f"{key}.pub").read_bytes()).public_bytes(
        serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    fingerprint = hashlib.sha256(raw).hexdigest()
    manifest = json.loads((case / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["signer"] == fingerprint
    words = text(page)
    assert f"Preparer {PREPARER} Agency {AGENCY}" in words
    assert f"public key's SHA-256 (of its 32 raw bytes) is {fingerprint}" in words
    copy = json.loads((case / "findings.json").read_text("utf-8"))["inputs"][0]
    assert f"{copy['copy']} T01 {copy['sha256']}" in words
    assert "Signature" in words and "Date" in words and f"Name (printed) {PREPARER}" in words
    assert "as audited in the audit written to" in words
    document = json.loads((case / "findings.json").read_text(encoding="utf-8"))["case"]
    assert (document["preparer"], document["agency"], document["signer"]) == (
        PREPARER, AGENCY, fingerprint)
    assert f"Prepared by {PREPARER}, {AGENCY}" in text(cover(html))


def test_without_a_preparer_the_attestation_says_none_was_named(audited: Path,
                                                                tmp_path: Path) -> None:
    folder = tmp_path / "case"
    assert main(["case", str(audited), "--licensee", "RL-0101", "--out", str(folder)]) == 0
    html = html_of(folder)
    words = text(html[html.index('<section class="attestation"'):])
    assert "Preparer not named Agency not named" in words
    assert "not signed: this case was made without --sign" in words
    document = json.loads((folder / "findings.json").read_text(encoding="utf-8"))["case"]
    assert (document["preparer"], document["agency"], document["signer"]) == (None, None, None)
    assert main(["verify", str(folder)]) == 4  # holds; unsigned


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.index: list[str] = []  # the index's links, in order
        self.in_index = False

    def handle_starttag(self, tag: str, attrs: list) -> None:
        attributes = dict(attrs)
        if attributes.get("id"):
            self.ids.add(attributes["id"])
        if tag == "table" and attributes.get("class") == "index":
            self.in_index = True
        if tag == "a" and self.in_index:
            self.index.append(attributes["href"])

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self.in_index = False


def test_the_index_links_each_exhibit_with_its_citation_table_round_and_severity(
        case: Path) -> None:
    html = html_of(case)
    links = _Links()
    links.feed(html)
    wanted = [f"#exhibit-{n}" for n in range(1, len(FOUND) + 1)]
    assert sorted(set(links.index)) == sorted(wanted)
    assert {href[1:] for href in links.index} <= links.ids
    index = re.search(r'<table class="index">.*?</table>', html, re.S).group(0)
    findings = json.loads((case / "findings.json").read_text(encoding="utf-8"))["findings"]
    for number, finding in enumerate(findings, start=1):
        row = text(re.search(rf'<tr><td class="number"><a href="#exhibit-{number}">.*?</tr>',
                             index, re.S).group(0))
        assert row == (f"{number} {finding['citation']} T01 {finding['round']} "
                       f"{finding['severity']}")
    assert index.index('"#exhibit-1"') < html.index('<section class="exhibit"')  # page 1


def test_a_preparer_is_text_never_markup_and_never_empty(audited: Path, tmp_path: Path,
                                                        capsys) -> None:
    hostile = '<script>alert(1)</script>\u202eevil'
    folder = tmp_path / "case"
    assert main(["case", str(audited), "--licensee", "RL-0101", "--out", str(folder),
                 "--preparer", hostile, "--agency", '"><img src=x onerror=alert(1)>']) == 0
    html = html_of(folder)
    assert "<script" not in html and "<img" not in html and "\u202e" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;\\u202eevil" in html
    capsys.readouterr()
    assert main(["case", str(audited), "--licensee", "RL-0101", "--out",
                 str(tmp_path / "none"), "--preparer", "  "]) == 2
    assert capsys.readouterr().err.strip() == "auditor: --preparer names no one"
    assert not (tmp_path / "none").exists()


def test_a_run_recorded_before_declared_rules_says_it_cannot_tell(audited: Path,
                                                                tmp_path: Path) -> None:
    """An older auditor's store holds each input without `declared_rules`: a case and a
    report of that run still read, and say the run did not record which option was
    declared rather than calling every one declared or assumed."""
    store = tmp_path / "old.sqlite"
    store.write_bytes((audited.parent / "floor.sqlite").read_bytes())
    with sqlite3.connect(store) as connection:
        rows = connection.execute("SELECT rowid, document FROM run_inputs").fetchall()
        for rowid, document in rows:
            old = json.loads(document)
            del old["declared_rules"]
            connection.execute("UPDATE run_inputs SET document = ? WHERE rowid = ?",
                               (json.dumps(old), rowid))
    folder = tmp_path / "case"
    assert main(["case", "1", "--store", str(store), "--licensee", "RL-0101", "--out",
                 str(folder)]) == 0
    html = html_of(folder)
    assert "(this run did not record which were declared and which are defaults)" in html
    assert ("surrender=no (declared or default: the run did not record which)"
            in text(exhibit(html, 1)))
    assert json.loads((folder / "findings.json").read_text("utf-8"))["inputs"][0][
        "declared_rules"] is None
    assert main(["report", "1", "--store", str(store), "--out", str(tmp_path / "r")]) == 0
    report = (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
    cell = text(re.search(r'<td class="rules">(.*?)</td>', report, re.S).group(1))
    assert cell.endswith("surrender no (declared or default: this run did not record which)")


def test_an_approval_held_against_a_default_says_it_was_not_declared(tmp_path: Path) -> None:
    """--approved: the header of PLAIN declares no option, so its surrender is the default
    the auditor assumed, never "the header declares surrender=no"; its decks, in the
    `table` statement, are declared."""
    (tmp_path / "plain.bjh").write_text(PLAIN, encoding="utf-8")
    approved = tmp_path / "approved.toml"
    approved.write_text('[[approval]]\nlicence = "RL-0101"\ntable = "T01"\nreference = '
                        '"SDCGC-2026-7"\ndate = 2026-09-01\ngame = "standard"\ndecks = 8\n'
                        'surrender = "late"\n', encoding="utf-8")
    out = tmp_path / "out"
    assert main(["audit", str(tmp_path / "plain.bjh"), "--out", str(out), "--quiet",
                 "--jobs", "1", "--approved", str(approved)]) == 1
    found = json.loads((out / "findings.json").read_text(encoding="utf-8"))["findings"]
    assert sorted((f["line"], f["message"]) for f in found
                  if f["citation"] == "record:approval") == [
        (3, "The header declares decks=6 where approval SDCGC-2026-7 of 2026-09-01 "
            "(RL-0101/T01) approved decks=8."),
        (3, "The header does not declare surrender (judged under the default surrender=no) "
            "where approval SDCGC-2026-7 of 2026-09-01 (RL-0101/T01) approved "
            "surrender=late.")]
