"""report.html, rendered from small audits: its sections, its marks, its provenance, and that
record text (notes, IDs, player names) is shown as text and never as markup."""

from __future__ import annotations

import base64
import gc
import hashlib
import html
import json
import re
from collections import Counter
from decimal import Decimal
from pathlib import Path

import pytest
from markupsafe import escape

from auditor.findings import Finding
from auditor.output.html_report import (
    display_entity,
    environment,
    load_templates,
    report_context,
    to_html,
)
from auditor.replay.trace import RoundEvidence
from auditor.results import AuditResult, InputSummary
from auditor.rulebase import rule_entries
from auditor.run import audit_paths
from tests.helpers.report_records import ATTRIBUTE, CLEAN, RUN, SCRIPT, faulty_record

# (citation, round, line) of every finding FAULTY must give. In round 2 the dealer draws 3h
# on 18 (20:18:15:28): both wins are wrong with that card and without it.
FAULTY_FINDINGS = {
    ("20:18:15:06", "1", 22), ("20:18:15:03", "2", 30), ("20:18:15:28", "2", 42),
    ("20:18:15:06", "2", 43), ("20:18:15:06", "2", 44), ("record:syntax", "3", 47),
}

def render(tmp_path: Path, records: dict[str, str], extra: list[str] = ()) -> tuple[str,
                                                                                     AuditResult]:
    for name, text in records.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    paths = [str(tmp_path / name) for name in records] + list(extra)
    result = audit_paths(paths, jobs=1)
    return to_html(result, RUN), result


@pytest.fixture
def faulty(tmp_path: Path) -> tuple[str, AuditResult, Path]:
    page, result = render(tmp_path, {"t12.bjh": faulty_record(player=SCRIPT)})
    return page, result, tmp_path / "t12.bjh"


def section(page: str, name: str) -> str:
    """The markup of one top-level section of the report."""
    match = re.search(rf'<section id="{name}".*?</section>', page, re.S)
    assert match, f"no section {name}"
    return match.group(0)


def test_the_audit_under_test_gives_the_known_findings(faulty) -> None:
    _, result, _ = faulty
    assert {(f.citation, f.round, f.line) for f in result.findings} == FAULTY_FINDINGS


def test_findings_are_grouped_under_their_citations_with_the_regulations_words(faulty) -> None:
    page, result, _ = faulty
    findings = section(page, "findings")
    entries = rule_entries()
    groups = re.findall(r'<details class="group[^"]*" id="(c-\d+)".*?<span class="g-cite">'
                        r'([^<]+)</span>\s*<span class="g-title">([^<]*)</span>', findings, re.S)
    citations = [citation for _, citation, _ in groups]
    assert citations == ["20:18:15:03", "20:18:15:06", "20:18:15:28", "record:syntax"]
    for _, citation, title in groups:
        assert html.unescape(title) == entries[citation].title
        assert escape(entries[citation].text.strip()) in findings
    # Each group holds exactly its findings, numbered in the order of the record.
    bodies = re.split(r'<details class="group', findings)[1:]
    for (_, citation, _), body in zip(groups, bodies, strict=True):
        numbers = [int(n) for n in re.findall(r'<li class="finding" id="f-(\d+)"', body)]
        expected = [index + 1 for index, f in enumerate(result.findings) if f.citation == citation]
        assert numbers == expected


def test_a_finding_shows_its_sentence_and_amounts(faulty) -> None:
    page, result, _ = faulty
    blackjack = next(f for f in result.findings if f.line == 22)
    number = result.findings.index(blackjack) + 1
    item = re.search(rf'<li class="finding" id="f-{number}">.*?</li>', page, re.S).group(0)
    assert escape(blackjack.message) in item
    # In its table's currency: this record's header declares none.
    assert re.search(r"Owed by the rules</th><td class=\"num\">\+30\.00 \(undeclared\)<", item)
    assert re.search(r"Recorded</th><td class=\"num\">\+20\.00 \(undeclared\)<", item)
    assert "player under-paid 10.00 (undeclared)" in item
    assert ('<p class="fault-line"><span class="ln">22</span> <span class="tm">10:00:12</span> '
            "<code>settle s1h1 main win 20</code></p>") in item
    assert 'data-line="22"' in item


def test_each_round_is_replayed_once_with_the_fault_and_evidence_lines_marked(faulty) -> None:
    page, result, _ = faulty
    replays = section(page, "replays")
    rounds = {(f.file, f.round) for f in result.findings if f.round}
    assert len(re.findall(r'<details class="replay"', replays)) == len(rounds) == 3
    assert len(re.findall(r'<table class="steps">', page)) == 3  # once per round, not per finding
    for finding in result.findings:
        assert re.search(rf'<tr class="fault" data-l="{finding.line}">', replays), finding
        for line in finding.evidence:
            assert re.search(rf'<tr class="(ev|fault)" data-l="{line}">', replays)
    # The blackjack's cards are its evidence; the row of the fault carries its time stamp,
    # the statement as written and the hand after it.
    assert re.search(r'<tr class="ev" data-l="15"><td>15</td><td>10:00:05</td>'
                     r'<td>deal s1h1 Ah <span class="evtag">evidence · F-0001</span>', replays)
    row = re.search(r'<tr class="fault" data-l="22">.*?</tr>', replays, re.S).group(0)
    assert "<td>22</td><td>10:00:12</td><td>settle s1h1 main win 20</td>" in row
    assert ('<span class="e"><b>s1h1</b> <i class="r">A♥</i> <i class="r">K♦</i> '
            '<strong>soft 21</strong> <em>blackjack</em> '
            '<span class="w">main 20.00 · win 20.00</span></span>') in row
    # Under the fault: the finding it stands for and the whole table at that moment.
    note = re.search(r'<tr class="fault-note" data-for="22">.*?</tbody>\s*</table>',
                     replays, re.S).group(0)
    assert '<a href="#f-1">F-0001</a>' in note
    assert "The table after line 22" in note
    assert re.search(r'<th scope="row">s4h1</th><td class="pl">P-400</td><td class="cards">'
                     r'9♣ 8♠</td>\s*<td>17</td>', note)
    assert re.search(r'<th scope="row">Dealer</th><td class="pl"></td><td class="cards">'
                     r'<i class="r">10♦</i> <i class="d">9♠</i></td>\s*<td>19 <em>hole card down'
                     r'</em>', note)
    # The round's first line shows who was seated when it began; a seat taken or left is a
    # change of the table too.
    assert ('<tr><td>28</td><td></td><td>round 2 time=15:02:00 dealer=D-2002</td><td>'
            '<span class="e"><b>s1</b> <span class="pl">P-100</span></span>'
            '<span class="e"><b>s4</b> <span class="pl">P-400</span></span></td></tr>') in replays
    assert ('<tr><td>29</td><td>15:02:01</td><td>bet s1h1 main 20</td><td><span class="e">'
            '<b>s1h1</b> <span class="w">main 20.00</span></span></td></tr>') in replays
    assert re.search(r'<td>leave s1</td><td><span class="e"><b>s1</b> <span class="pl">P-100'
                     r'</span> <em>left</em></span></td></tr>', replays)
    assert re.search(r'<tr><td>11</td><td>10:00:00</td><td>sit s1 player=P-100</td><td>'
                     r'<span class="e"><b>s1</b> <span class="pl">P-100</span></span></td></tr>',
                     replays)


def test_a_doubled_hand_shows_its_double_beside_its_wager() -> None:
    hand = display_entity("hand:s3h1", (("3d", "6h", "3c"), 12, False, "doubled",
                                        (("main", False, "25", "lose 50"),), "25"))
    assert [card.text for card in hand.cards] == ["3♦", "6♥", "3♣"]
    assert hand.wagers == ["main 25.00 + double 25.00 · lose 50.00"]


def test_a_dealers_tip_on_a_doubled_hand_is_its_own_amount() -> None:
    """The checks hold a tip to its own amount (judging.stake_of): the hand's double is
    the player's main wager's, never the tip's."""
    hand = display_entity("hand:s3h1", (("3d", "6h", "Kc"), 19, False, "doubled",
                                        (("main", False, "75", "win 150"),
                                         ("main", True, "1", "win 1")), "75"))
    assert hand.wagers == ["main 75.00 + double 75.00 · win 150.00", "tip main 1.00 · win 1.00"]


def test_a_large_audit_replays_each_round_as_aligned_text(tmp_path: Path) -> None:
    (tmp_path / "t12.bjh").write_text(faulty_record(), encoding="utf-8")
    result = audit_paths([str(tmp_path / "t12.bjh")], jobs=1)
    page = to_html(result, RUN, lean_replays_over=1)  # 2 rounds replayed: lean
    replays = section(page, "replays")
    assert "<table class=\"steps\">" not in page
    assert len(re.findall(r'<pre class="lean">', replays)) == 2
    block = re.search(r'<pre class="lean">\n(.*?)</pre>', replays, re.S).group(1)
    lines = block.splitlines()
    assert lines[0] == "10            round 1 time=10:00:00 dealer=D-2001"
    assert lines[5] == ('<span class="ev" data-l="15">15  10:00:05  deal s1h1 Ah'
                        + " " * 34 + "s1h1 A♥ soft 11 [main 20.00]  ← evidence, F-0001</span>")
    fault = lines.index(next(line for line in lines if 'data-l="22"' in line))
    assert lines[fault].startswith('<span class="fault" data-l="22">22  10:00:12  settle s1h1')
    assert lines[fault + 1].startswith('    ▲ <a href="#f-1">F-0001</a> high 20:18:15:06: ')
    assert lines[fault + 2:fault + 6] == [
        "      the table after line 22:", "        Dealer  10♦ (9♠) 19 hole card down",
        "        s1h1    (P-100) A♥ K♦ soft 21 blackjack [main 20.00 · win 20.00]",
        "        s4h1    (P-400) 9♣ 8♠ 17 [main 50.00]"]
    assert lines[1] == "11  10:00:00  sit s1 player=P-100" + " " * 27 + "s1 P-100"
    assert escape('note "<script>alert(1)</script> \\"><img src=x onerror=alert(1)>"') in block


def test_provenance_names_the_auditor_rules_inputs_and_times(faulty) -> None:
    page, result, path = faulty
    provenance = section(page, "provenance")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    assert result.inputs[0].sha256 == digest
    assert f"<code>{digest}</code>" in provenance
    assert escape(str(path)) in provenance
    assert "bjh-auditor 9.9.9" in provenance and "abcdef012345" in provenance
    assert "<code class=\"command\">auditor audit logs --out r</code>" in provenance
    assert "2026-11-21 23:00:00 UTC" in provenance and "2026-11-21 23:00:07 UTC" in provenance
    assert "(7 s)" in provenance


def test_rounds_not_audited_are_listed(faulty) -> None:
    page, _, path = faulty
    provenance = section(page, "provenance")
    gaps = provenance[provenance.index('id="not-audited"'):]
    assert "1 round of 3 not audited" in gaps
    assert re.search(rf"<td class=\"path\">{re.escape(escape(str(path)))}</td><td>3</td>"
                     r"<td class=\"num\">47</td>", gaps)
    assert "Not everything was audited" in section(page, "summary")


def test_an_unreadable_file_is_named_with_its_error(tmp_path: Path) -> None:
    missing = str(tmp_path / "gone.bjh")
    page, _ = render(tmp_path, {"clean.bjh": CLEAN}, extra=[missing])
    gaps = section(page, "provenance").split('id="not-audited"')[1]
    assert f'<span class="path">{escape(missing)}</span>: no such file</li>' in gaps
    assert "1 file could not be read at all" in gaps


def test_an_audit_of_nothing_readable_is_not_called_clean(tmp_path: Path) -> None:
    (tmp_path / "binary.bjh").write_bytes(b"\x00\x01 not a record")
    page, result = render(tmp_path, {}, extra=[str(tmp_path / "binary.bjh")])
    summary = section(page, "summary")
    assert result.findings == [] and result.inputs[0].error
    assert "Nothing was audited." in summary and "No findings." not in summary
    assert "not because the records comply" in summary


def test_a_clean_audit_says_so_and_what_it_covered(tmp_path: Path) -> None:
    page, result = render(tmp_path, {"clean.bjh": CLEAN})
    assert result.findings == []
    summary = section(page, "summary")
    assert "No findings." in summary
    assert ('<p class="complete" data-scope="complete-words">Every file given was read and '
            "every round read was audited (1 round).</p>") in summary
    assert '<p class="gap" hidden>' in summary  # shown by a filtered view with gaps only
    assert "Nothing was left out" in section(page, "provenance")
    assert '<section id="replays"' not in page


def test_coverage_lists_every_subsection_with_its_rounds(faulty) -> None:
    page, result, _ = faulty
    coverage = section(page, "coverage")
    for citation, entry in rule_entries().items():
        cell = re.search(rf'<th scope="row">(?:<a[^>]*>)?{re.escape(citation)}(?:</a>)?</th>'
                         r'.*?</tr>', coverage, re.S)
        assert cell, citation
        if entry.check:
            assert f"<code>{entry.check}</code>" in cell.group(0)
            applied = result.applied.get(citation, 0)
            assert f'<td class="num cv-rounds">{applied:,}</td>' in cell.group(0)
        else:
            assert escape(entry.not_checkable) in cell.group(0)
            assert "not checkable" in cell.group(0)
    assert result.applied["20:18:15:06"] == 2  # rounds 1 and 2; round 3 was not audited


def test_summary_counts_by_citation_table_dealer_shift_and_money(faulty) -> None:
    page, result, _ = faulty
    summary = section(page, "summary")
    assert '6 findings</span> in <span data-figure="rounds">3 rounds</span>.' in summary
    assert ("under-paid <strong>10.00 (undeclared)</strong> and over-paid <strong>1,240.00 "
            "(undeclared)</strong>") in summary

    def counted(heading: str) -> dict[str, int]:
        block = summary.split(f"<h3>{heading}</h3>")[1].split("</table>")[0]
        return {html.unescape(label): int(number) for label, number in re.findall(
            r'<th scope="row">(?:<a[^>]*>)?([^<]+)(?:</a>)?</th>.*?<td class="num strong">(\d+)',
            block, re.S)}

    assert counted("Findings by citation") == dict(Counter(f.citation for f in result.findings))
    assert counted("Findings by dealer") == {"D-2001": 1, "D-2002": 5}
    assert counted("Findings by shift") == {"day": 1, "swing": 5}
    assert counted("Findings by table") == {"RL-0042/T12": 6}  # licence and table ID


def test_record_text_is_escaped_everywhere(faulty) -> None:
    page, _, _ = faulty
    for payload in (SCRIPT, ATTRIBUTE):
        assert payload not in page
        assert escape(payload) in page
    assert page.count("<script") == 2  # the report's data and its own script, nothing else
    assert "onerror=alert" not in page.replace("onerror=alert(1)&gt;", "")
    assert "<img" not in page


def synthetic_result(payload: str) -> AuditResult:
    """Findings whose table, dealer, round, seat and file carry a payload: what a reader
    might not have rejected must still never become markup, in HTML or in the JSON."""
    evidence = RoundEvidence(file=f"logs/{payload}.bjh", round_id=payload, start_line=5,
                             lines=[(5, f"round {payload}"), (6, f'note "{payload}"'),
                                    (7, "settle s1h1 main win 10")],
                             steps={7: {"hands": [{"hand": "s1h1", "cards": ["Ah", "9c"],
                                                   "total": 20, "soft": True,
                                                   "status": payload}],
                                        "dealer": {"cards": ["Td", "7c"], "total": 17,
                                                   "revealed": True},
                                        "wagers": [{"wager": "main wager on s1h1",
                                                    "amount": "10", "settled": "win 10",
                                                    "target": "s1h1", "kind": "main",
                                                    "tip": False}]}})
    finding = Finding(citation="20:18:15:06", rule="standard.main_payout", severity="high",
                      file=f"logs/{payload}.bjh", line=7, round=payload, table=payload,
                      seat="s1", hand="s1h1", message=f"Paid {payload}.",
                      expected=Decimal(10), actual=Decimal(5), difference=Decimal(-5),
                      game="standard", dealer=payload, date="2026-11-21", time="10:00:00")
    summary = InputSummary(path=f"logs/{payload}.bjh", sha256="0" * 64, lines=7, rounds=1,
                           rounds_audited=1, table=payload, game="standard",
                           first_date="2026-11-21", last_date="2026-11-21", dealers=[payload])
    return AuditResult([summary], [finding], Counter({"20:18:15:06": 1}),
                       {"k": evidence})


@pytest.mark.parametrize("payload", [SCRIPT, ATTRIBUTE, "</script><script>alert(1)</script>"])
def test_ids_and_names_from_a_record_never_become_markup(payload: str) -> None:
    run = {**RUN, "command": f"auditor audit {payload}"}
    page = to_html(synthetic_result(payload), run)
    assert payload not in page
    assert "<img" not in page and page.count("<script") == 2
    data = re.search(r'<script type="application/json" id="report-data">(.*?)</script>',
                     page, re.S).group(1)
    assert "<" not in data and ">" not in data and "&" not in data  # \u003c etc.
    record = json.loads(data)["findings"][0]
    assert {key: record[key] for key in ("g", "s", "k", "d", "m", "a", "r", "msg", "x")} == {
        "g": 0, "s": "high", "k": payload, "d": payload, "m": "standard", "a": "2026-11-21",
        "r": payload, "msg": f"Paid {payload}.", "x": "-5"}
    assert json.loads(data)["files"] == [f"logs/{payload}.bjh"]
    escaped = escape(payload)
    assert escaped in section(page, "findings")  # table, dealer, round and message
    assert escaped in section(page, "provenance")  # the file and the command


def test_the_page_is_self_contained_and_its_own_script_is_the_only_one_allowed(faulty) -> None:
    page, _, _ = faulty
    assert not re.search(r'\b(?:src|href)\s*=\s*["\']?(?:https?:)?//', page)
    assert "<link" not in page and "@import" not in page and "url(" not in page
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page).group(1)
    script = re.search(r"<script>(.*?)</script>", page, re.S).group(1)
    styles = re.findall(r"<style>(.*?)</style>", page, re.S)

    def digest(text: str) -> str:
        return "sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()

    assert f"script-src '{digest(script)}'" in policy
    assert len(styles) == 2
    assert "style-src " + " ".join(f"'{digest(style)}'" for style in styles) in policy
    assert "default-src 'none'" in policy


def test_every_id_is_unique_and_every_link_inside_the_page_has_its_target(faulty) -> None:
    page, _, _ = faulty
    ids = re.findall(r'\sid="([^"]+)"', page)
    assert len(ids) == len(set(ids))
    targets = set(re.findall(r'href="#([^"]+)"', page))
    assert targets and targets <= set(ids)


def test_the_print_stylesheet_expands_and_keeps_tables_whole(faulty) -> None:
    page, _, _ = faulty
    style = re.search(r"<style>(.*?)</style>", page, re.S).group(1)
    printing = style[style.index("@media print"):]
    assert "details::details-content" in printing
    assert "thead { display: table-header-group; }" in printing
    assert ".filters" in printing  # the controls are not printed


def test_large_groups_are_collapsed_and_small_ones_open(tmp_path: Path) -> None:
    result = synthetic_result("T1")
    findings = [result.findings[0].model_copy(update={"line": 7, "round": "T1"})] * 80
    large = AuditResult(result.inputs, findings, result.applied, result.evidence)
    context = report_context(large, RUN)
    assert not context["open_groups"] and len(context["replays"]) == 1
    assert len(context["replays"][0]["findings"]) == 80
    page = to_html(large, RUN)
    assert '<details class="group sevline-high" id="c-0" data-group="0">' in page
    assert re.search(r'<details class="group[^"]*" id="c-0" data-group="0" open>',
                     to_html(result, RUN))


def test_templates_loaded_beforehand_are_not_compiled_again(monkeypatch) -> None:
    environment.cache_clear()
    load_templates()

    def compile_again(*arguments, **keywords):
        raise AssertionError("a template was compiled while the report was rendered")

    monkeypatch.setattr(environment(), "compile", compile_again)
    assert "report-data" in to_html(synthetic_result("T1"), RUN)


@pytest.mark.parametrize("enabled", [True, False])
def test_the_garbage_collector_is_left_as_it_was(enabled: bool) -> None:
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        to_html(synthetic_result("T1"), RUN)
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_replays_are_capped_across_the_run_and_the_report_says_how_to_get_the_others(
        tmp_path: Path, monkeypatch) -> None:
    import auditor.output.html_report as html_report

    monkeypatch.setattr(html_report, "REPLAYS_IN_REPORT", 1)
    (tmp_path / "t12.bjh").write_text(faulty_record(), encoding="utf-8")
    result = audit_paths([str(tmp_path / "t12.bjh")], jobs=1)
    page = to_html(result, RUN)
    replays = section(page, "replays")
    assert replays.count('<details class="replay"') == 1
    recorded = len({(f.file, f.round) for f in result.findings if f.round
                    and f.citation != "record:syntax"})
    assert f"1 round replayed here, of {recorded} rounds whose replay the audit recorded" \
        in " ".join(replays.split())
    findings = html.unescape(section(page, "findings"))
    first = min(result.evidence.values(), key=lambda e: e.start_line)
    replayed = {e.round_id for e in result.evidence.values()}
    assert findings.count("This round's replay is left out of the report") == sum(
        1 for f in result.findings if f.round in replayed and f.round != first.round_id)
    assert f"To replay it, audit its file alone: auditor audit {tmp_path / 't12.bjh'}" \
        in findings


def test_an_undated_finding_says_so_and_is_counted_as_undated(tmp_path: Path) -> None:
    record = faulty_record().replace("shoe 7 date=2026-11-21", "shoe 7")
    page, result = render(tmp_path, {"t12.bjh": record})
    assert all(f.date is None for f in result.findings)
    findings = section(page, "findings")
    assert findings.count("<b>undated</b>") == sum(1 for f in result.findings if f.round)
    summary = section(page, "summary")
    date_table = summary.split('data-dimension="date"')[1].split("</table>")[0]
    assert re.search(r'<th scope="row">undated</th>', date_table)
