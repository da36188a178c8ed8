"""A run's findings are never held whole once they are in the store: IDs, waivers and the
baseline are judged a batch at a time in place, and the outputs walk the stored findings.
What comes out must be what the same judging and rendering give on findings held in
memory, across batch boundaries, against SQLite and PostgreSQL."""

from __future__ import annotations

import json
import re
from datetime import date

from auditor import api
from auditor.audit import audit_file
from auditor.baseline import compare
from auditor.identity import apply_identity
from auditor.output import html_report
from auditor.output.html_report import to_html
from auditor.output.json_report import to_json
from auditor.output.tables import summary_csv, to_csv
from auditor.report.frames import run_summary
from auditor.results import AuditResult
from auditor.run import collect_paths, merge
from auditor.store import findings as stored_findings
from auditor.store import load_result, open_store
from auditor.store import runs as stored_runs
from auditor.waivers import apply_waivers, parse_waivers
from tests.helpers import SAMPLES

TODAY = date(2026, 11, 25)
RUN = {"version": "test", "rule_base": "test", "command": "auditor audit sample_logs",
       "started": "2026-11-25T00:00:00+00:00"}
WAIVERS = parse_waivers("""
[[waiver]]
citation = "20:18:15:30.09(13)"
justification = "Layout reprinted"
approved_by = "J. Doe"
expires = 2099-12-31

[[waiver]]
citation = "record:syntax"
justification = "Export glitch"
approved_by = "R. Roe"
expires = 2020-01-01

[[waiver]]
dealer = "nobody"
justification = "Never matches"
approved_by = "R. Roe"
expires = 2099-01-01
""")


def in_memory(results) -> AuditResult:
    merged = merge(results)
    apply_identity(merged)
    return merged


def test_findings_judged_in_the_store_batch_by_batch_are_those_judged_in_memory(
        store_url, monkeypatch):
    paths = collect_paths([str(SAMPLES)])
    results = [audit_file(path) for path in paths]
    identified = in_memory(results)
    # An earlier run: every third finding, and one that is gone since.
    earlier = [f.as_dict() for f in identified.findings[::3]]
    earlier.append({**earlier[0], "id": "BJH-0000000000000000", "line": 1})
    expected = in_memory(results)
    apply_waivers(expected, WAIVERS, TODAY)
    compare(expected, earlier)

    monkeypatch.setattr(stored_findings, "_ANNOTATED_AT_ONCE", 7)  # 47 findings: seven batches
    store = open_store(store_url)
    run_id = api.record_run(store, RUN, {}, paths, enumerate(results))
    judged = api.annotate_run(store, run_id, WAIVERS, earlier, today=TODAY)
    assert [f.as_dict() for f in judged.findings] == [f.as_dict() for f in expected.findings]
    assert len(judged.findings) == 47
    assert [w.model_dump() for w in judged.waivers] == \
        [w.model_dump() for w in expected.waivers]
    assert [(w.status, w.matches) for w in judged.waivers] == \
        [("applied", 2), ("expired", 1), ("unused", 0)]
    assert judged.resolved == expected.resolved and len(judged.resolved) == 1
    marks = [(f.baseline, f.waiver is not None) for f in judged.findings]
    assert marks.count(("persisting", False)) + marks.count(("persisting", True)) == 16
    # Read again from the store, the findings are as judged.
    again, _ = load_result(store, run_id)
    assert [f.id for f in again.findings] == [f.id for f in expected.findings]
    # Every output walks the stored findings as it walks a list.
    listed = AuditResult(again.inputs, list(again.findings), again.applied, again.evidence)
    listed.waivers, listed.resolved = again.waivers, again.resolved
    assert to_json(again, RUN) == to_json(listed, RUN)
    assert "".join(to_csv(again.findings, again.inputs)) == \
        "".join(to_csv(listed.findings, listed.inputs))
    assert summary_csv(run_summary(again.findings, again.inputs)) == \
        summary_csv(run_summary(listed.findings, listed.inputs))
    assert to_html(again, RUN) == to_html(listed, RUN)
    store.dispose()


def page_data(page: str) -> dict:
    text = re.search(r'<script type="application/json" id="report-data">(.*?)</script>',
                     page, re.S).group(1)
    return json.loads(text)


def test_a_report_past_the_lazy_size_holds_the_records_of_a_small_one(monkeypatch):
    result = in_memory([audit_file(path) for path in collect_paths([str(SAMPLES)])])
    small = page_data(to_html(result, RUN))
    monkeypatch.setattr(html_report, "LAZY_OVER", 10)  # the same 47 findings, drawn lazily
    lazy = page_data(to_html(result, RUN))
    assert (small["lazy"], lazy["lazy"]) == (False, True)
    for part in ("findings", "groups", "files", "texts"):
        assert lazy[part] == small[part], part
    assert [f["n"] for f in lazy["findings"]] == list(range(1, 48))
    # Each record's text of why it has no replay is the one its finding has.
    said = {f["n"]: lazy["texts"][f["nr"]] for f in lazy["findings"] if "nr" in f}
    assert said and all(text.startswith(("This", "No replay")) for text in said.values())


def test_a_finding_read_back_is_the_finding_stored_whatever_its_statement():
    """A stored finding is read as its JSON text with its statement put in (one validation
    of text, `runs._finding_of`): quotes, backslashes, a line break, a `"statement":` in its
    message, text that is not UTF-8, no statement at all, a store from before currencies."""
    from types import SimpleNamespace

    from auditor.findings import Finding

    base = Finding(citation="20:18:15:26", rule="standard.payouts", severity="high",
                   file="T1.bjh", line=12, round="4", message='paid "3:2"\\ "statement": x',
                   expected="15.00", actual="10.00", difference="-5.00", currency="USD",
                   evidence=[11, 12])
    for statement in (None, "", 'settle s1h1 win 10 "quoted" \\ back', "line\nbreak",
                      "naïve ♠", "lone \udc80 surrogate"):
        finding = base.model_copy(update={"statement": statement})
        row = stored_runs._finding_row(1, 0, finding, 0)
        read = stored_runs._finding_of(SimpleNamespace(document=row["document"],
                                                       statement=row["statement"]))
        assert read == finding, statement
        assert read.model_dump() == finding.model_dump()
    old = json.loads(stored_runs._finding_row(1, 0, base, 0)["document"])
    del old["currency"]  # a finding stored before findings carried their currency
    read = stored_runs._finding_of(SimpleNamespace(document=json.dumps(old), statement="s"),
                                   {"T1.bjh": "EUR"})
    assert (read.currency, read.statement, read.expected) == ("EUR", "s", base.expected)


def test_a_night_s_judged_findings_are_held_as_the_store_gives_them_back(store_url,
                                                                           monkeypatch):
    """A run of up to HELD_AT_MOST findings keeps them as judged (`StoredFindings.hold`):
    each is what reading its row again gives (statement and all, in the run's order), and
    every output is the one written from the store; a run of more is read from the store."""
    paths = collect_paths([str(SAMPLES)])
    results = [audit_file(path) for path in paths]
    store = open_store(store_url)
    held_run = api.record_run(store, RUN, {}, paths, enumerate(results))
    held = api.annotate_run(store, held_run, WAIVERS, today=TODAY)
    assert held.findings.held is not None and len(held.findings.held) == 47
    again, _ = load_result(store, held_run)
    assert again.findings.held is None
    read = list(again.findings)
    assert [(f.model_dump(), f.statement) for f in held.findings] == \
        [(f.model_dump(), f.statement) for f in read]
    assert any(f.waiver is not None for f in read) and all(f.id for f in read)
    again.waivers = held.waivers
    assert to_json(held, RUN) == to_json(again, RUN)
    assert "".join(to_csv(held.findings, held.inputs)) == \
        "".join(to_csv(again.findings, again.inputs))
    assert to_html(held, RUN) == to_html(again, RUN)

    monkeypatch.setattr(stored_findings, "HELD_AT_MOST", 46)  # one finding too many
    walked_run = api.record_run(store, RUN, {}, paths, enumerate(results))
    walked = api.annotate_run(store, walked_run, WAIVERS, today=TODAY)
    assert walked.findings.held is None
    assert [f.model_dump() for f in walked.findings] == [f.model_dump() for f in read]
    store.dispose()


def test_holding_findings_of_another_count_is_refused(tmp_path):
    """`hold` takes the run's findings whole or not at all: a list of another length (a
    batch lost on the way) would be walked as the run."""
    import pytest

    paths = collect_paths([str(SAMPLES)])[:1]
    store = open_store(str(tmp_path / "store.sqlite"))
    run_id = api.record_run(store, RUN, {}, paths, enumerate([audit_file(paths[0])]))
    result, _ = load_result(store, run_id)
    findings = list(result.findings)
    assert findings
    with pytest.raises(ValueError, match="findings held for a run of"):
        result.findings.hold(findings[:-1])
    assert result.findings.held is None
    store.dispose()
