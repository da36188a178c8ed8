"""The outputs made with less work (issue 27) and still the same: a replay row's entities
drawn by one filter as the template's loop drew them, report.html rendered in large chunks,
the summaries of one set of outputs made once, a replay step's unchanged dealer shared."""

from __future__ import annotations

from decimal import Decimal
from itertools import pairwise

import pytest

from auditor.output.html_report import environment, html_parts, to_html
from auditor.output.replay_view import Entity, entity_spans
from auditor.report import frames
from auditor.run import audit_paths
from tests.helpers import ROOT
from tests.helpers.hostile_entities import hostile_entities
from tests.helpers.plain_changes import changes_made_plainly

SAMPLE = ROOT / "sample_logs" / "standard-t11-2026-11-20.bjh"
RUN = {"version": "9.9.9", "rule_base": "abcdef012345", "command": "auditor audit logs --out r",
       "started": "2026-11-21T23:00:00+00:00", "finished": "2026-11-21T23:00:07+00:00"}

# The loop _replays.html.j2 held before `entity_spans`, word for word.
TEMPLATE_LOOP = (
    '{%- for e in row.changes %}<span class="{% if e.dealer %}e dl{% else %}e{% endif %}">'
    '<b>{{ e.name }}</b>{% if e.player %} <span class="pl">{{ e.player }}</span>{% endif %}'
    '{% for c in e.cards %} {% if c.css %}<i class="{{ c.css }}">{{ c.text }}</i>{% else %}'
    '{{ c.text }}{% endif %}{% endfor %}{% if e.total is not none %} <strong>{% if e.soft %}'
    'soft {% endif %}{{ e.total }}</strong>{% endif %}{% if e.status %} <em>{{ e.status }}'
    '</em>{% endif %}{% for w in e.wagers %} <span class="w">{{ w }}</span>{% endfor %}'
    '</span>{% endfor -%}')


def test_entity_spans_print_what_the_templates_loop_printed() -> None:
    entities = hostile_entities()
    entities.append(Entity("s3h1", False, [], 0, False, "", ["tip main 5.00"]))
    expected = environment().from_string(TEMPLATE_LOOP).render(row={"changes": entities})
    assert "&lt;b&gt;&#34;1&#34;" in expected and "⟦U+202E⟧" in expected  # escaped, marked
    assert str(entity_spans(entities)) == expected
    assert str(entity_spans(entities)) == expected  # again, from each entity's kept HTML
    assert str(entity_spans([])) == ""


def test_report_html_is_written_in_a_few_large_chunks() -> None:
    result = audit_paths([str(SAMPLE)], jobs=1)
    assert result.evidence  # the page holds replays: thousands of template pieces
    parts = list(html_parts(result, RUN))
    assert len(parts) <= 12
    assert "".join(parts) == to_html(result, RUN)
    assert '<span class="e dl"><b>Dealer</b>' in "".join(parts)


def test_a_set_of_outputs_counts_the_findings_once(monkeypatch, tmp_path) -> None:
    """findings.json, summary.csv and report.html are handed the run's one summary: the
    findings are walked for it once and counted once by each column (issue 44)."""
    from auditor.output.render import write_outputs

    result = audit_paths([str(SAMPLE)], jobs=1)
    walked: list[int] = []
    counted: list[str] = []
    frame_of, count_by = frames.summary_frame, frames.summary_by

    def walking(findings, inputs=()):
        walked.append(1)
        return frame_of(findings, inputs)

    def counting(frame, column):
        counted.append(column)
        return count_by(frame, column)

    monkeypatch.setattr(frames, "summary_frame", walking)
    monkeypatch.setattr(frames, "summary_by", counting)
    summary = write_outputs(result, RUN, tmp_path / "out")
    assert walked == [1] and counted == list(frames.SUMMARY_BY)
    assert summary.by("citation") == count_by(frame_of(result.findings, result.inputs),
                                              "citation")
    given = write_outputs(result, RUN, tmp_path / "again", summary=summary)
    assert given is summary and walked == [1] and counted == list(frames.SUMMARY_BY)
    for name in ("findings.json", "summary.csv", "report.html"):
        assert (tmp_path / "again" / name).read_bytes() == (tmp_path / "out" / name).read_bytes()


def test_a_replay_step_shares_the_dealers_entry_until_it_changes() -> None:
    result = audit_paths([str(SAMPLE)], jobs=1)
    shared = changed = 0
    for evidence in result.evidence.values():
        steps = [evidence.steps[line] for line in sorted(evidence.steps)]
        for before, after in pairwise(steps):
            if before["dealer"] == after["dealer"]:
                assert after["dealer"] is before["dealer"]
                shared += 1
            else:
                changed += 1
    assert shared > 0 and changed > 0


@pytest.mark.parametrize("level", [1, 6, 9])
def test_a_replay_stored_at_any_zlib_level_reads_back_the_same(level: int) -> None:
    import zlib

    from auditor.store.runs import StoredReplay, _evidence_document, _evidence_json

    result = audit_paths([str(SAMPLE)], jobs=1)
    key, evidence = next(iter(result.evidence.items()))
    text = _evidence_json(_evidence_document(evidence)).encode("utf-8")

    class Reader:
        def document(self, _key: str) -> bytes:
            return zlib.compress(text, level)

    stored = StoredReplay.of(key, zlib.compress(text, level), Reader())
    assert stored.whole().steps == evidence.steps
    assert stored.shown().lines == evidence.lines


def test_a_rounds_changes_are_those_made_afresh_at_every_step() -> None:
    """round_changes keeps each hand's state while a step's wagers are the step before's:
    what it gives must be what making every step's entities again gives."""
    from auditor.replay.changes import round_changes

    folder = SAMPLE.parent
    result = audit_paths(sorted(str(path) for path in folder.glob("*.bjh")), jobs=1)
    kept = 0
    for evidence in result.evidence.values():
        assert round_changes(evidence) == changes_made_plainly(evidence), evidence.round_id
        steps = [evidence.steps[line] for line in sorted(evidence.steps)]
        kept += sum(all(map(lambda a, b: a is b, before["wagers"], after["wagers"]))
                    and before["hands"] != after["hands"] for before, after in pairwise(steps))
    assert len(result.evidence) > 10 and kept > 0  # hands changed under the same wagers


def test_the_stores_json_is_what_json_dumps_writes() -> None:
    """store/runs.py `_json` calls json's C encoder made once: the texts must be those of
    `json.dumps(value, ensure_ascii=False, separators=(",", ":"))`, and a value JSON cannot
    hold must still be refused."""
    import json

    from auditor.store.runs import _evidence_document, _evidence_json, _json

    result = audit_paths([str(SAMPLE)], jobs=1)
    values: list = [f.as_dict() for f in result.findings]
    for evidence in result.evidence.values():
        document = _evidence_document(evidence)
        values += [document, *document["steps"].values()]
        assert _evidence_json(document) == json.dumps(document, ensure_ascii=False,
                                                      separators=(",", ":"))
    values += ["é\u202e\u2028\"\\", "", 0, -2.5, float("inf"), True, None, [], {},
               {"a": [1, {"b": None}], "ü": 10**20}]
    for value in values:
        assert _json(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    with pytest.raises(TypeError):
        _json({"amount": Decimal("1.00")})
