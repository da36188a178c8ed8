"""The replays of a run shown from what this process recorded (issue 27, pass six): the
report gives what it gives when it reads them back from the store."""

from __future__ import annotations

from pathlib import Path

from auditor import api
from auditor.gaming_day import DEFAULT as DEFAULT_CALENDAR
from auditor.output.render import write_outputs
from auditor.run import ReplaySelection, RunRecorder
from auditor.store import begin_run, load_result
from tests.helpers import SAMPLES
from tests.helpers.hostile_entities import hostile_entities

RUN = {"version": "test", "rule_base": "test", "command": "audit sample_logs",
       "started": "2026-11-26T00:00:00+00:00", "finished": "2026-11-26T00:00:01+00:00",
       "calendar": DEFAULT_CALENDAR.described(), "fail_on": "low"}


def _recorded_run(tmp_path: Path, limit: int) -> tuple:
    """The sample logs recorded with `limit` replays per citation (a small one drops
    replays kept by earlier files), and what the recorder gave `recorded`."""
    paths = sorted(str(path) for path in SAMPLES.glob("*.bjh"))
    store = api.open_store(str(tmp_path / "runs.db"), new_store=True)
    run_id = begin_run(store, RUN, {})
    recorded: dict = {}
    recorder = RunRecorder(store, run_id, paths, recorded=recorded)
    recorder.replays = ReplaySelection(limit)
    for place, path in enumerate(paths):
        recorder.add(place, api.audit_input(path))
    recorder.close()
    return store, run_id, recorded


def _outputs(folder: Path) -> dict[str, bytes]:
    return {name: (folder / name).read_bytes()
            for name in ("findings.json", "findings.csv", "summary.csv", "report.html")}


def test_replays_shown_from_memory_give_the_outputs_read_back_gives(tmp_path: Path) -> None:
    store, run_id, recorded = _recorded_run(tmp_path, limit=2)
    from_memory, _ = load_result(store, run_id, recorded)
    read_back, _ = load_result(store, run_id)
    # exactly the replays the store keeps: those a later file pushed out are gone
    assert list(from_memory.evidence) == list(read_back.evidence)
    assert set(recorded) == set(read_back.evidence)
    assert len(recorded) >= 4
    for key, stored in read_back.evidence.items():
        shown, known = stored.shown(), from_memory.evidence[key].shown()
        assert known is recorded[key]
        assert (known.file, known.round_id, known.start_line, known.lines) == (
            shown.file, shown.round_id, shown.start_line, shown.lines)
        assert known.changes() == shown.changes()
        assert from_memory.evidence[key].last_line == stored.last_line
    write_outputs(from_memory, RUN, tmp_path / "memory")
    write_outputs(read_back, RUN, tmp_path / "store")
    memory, stored_outputs = _outputs(tmp_path / "memory"), _outputs(tmp_path / "store")
    assert b"Replay of round" in memory["report.html"] or b"replay" in memory["report.html"]
    assert memory == stored_outputs
    store.dispose()


def test_a_replay_not_recorded_here_is_read_back(tmp_path: Path) -> None:
    store, run_id, recorded = _recorded_run(tmp_path, limit=25)
    missing = sorted(recorded)[0]
    partial = {key: value for key, value in recorded.items() if key != missing}
    result, _ = load_result(store, run_id, partial)
    assert set(result.evidence) == set(recorded)
    assert result.evidence[missing].known is None
    assert result.evidence[missing].shown().changes() == recorded[missing].changes()
    store.dispose()


def test_a_stored_row_decompresses_to_the_replays_json(tmp_path: Path) -> None:
    import zlib

    from auditor.store.runs import _compressed, _evidence_document, _evidence_json

    path = str(SAMPLES / "switch-bjs2-evening.bjh")
    result = api.audit_input(path)
    assert result.evidence
    for evidence in result.evidence.values():
        document = _evidence_document(evidence)
        stored = _compressed(document)
        text = _evidence_json(document).encode("utf-8")
        assert zlib.decompress(stored) == text  # what any reader of any version reads
        assert len(stored) < len(text) / 4


# The macros report.html drew the whole table at a fault with, before
# `replay_view.table_state` (issue 27, pass six): what it must print.
TABLE_STATE_MACROS = """\
{% macro cards(items) -%}
{% for c in items %}{% if c.css %}<i class="{{ c.css }}">{{ c.text }}</i>{% else %}\
{{ c.text }}{% endif %}{% if not loop.last %} {% endif %}{% endfor %}
{%- endmacro %}
{% macro table_state(items) -%}
{% if items %}
<table class="state">
<thead><tr><th scope="col">Hand</th><th scope="col">Player</th><th scope="col">Cards</th>\
<th scope="col">Total</th><th scope="col">Wagers</th></tr></thead>
<tbody>
{% for e in items %}
<tr><th scope="row">{{ e.name }}</th><td class="pl">{{ e.player }}</td><td class="cards">\
{{ cards(e.cards) }}</td>
<td>{% if e.total is not none %}{% if e.soft %}soft {% endif %}{{ e.total }}{% endif %}\
{% if e.status %} <em>{{ e.status }}</em>{% endif %}</td>
<td>{% for w in e.wagers %}<span class="w">{{ w }}</span> {% endfor %}</td></tr>
{% endfor %}
</tbody>
</table>
{% else %}
<p class="muted">Nothing on the table yet.</p>
{% endif %}
{%- endmacro %}
{{ table_state(items) }}"""


def test_the_table_at_a_fault_prints_what_the_macro_printed() -> None:
    from auditor.output.html_report import environment
    from auditor.output.replay_view import Card, Entity, table_state

    entities = hostile_entities()
    entities.insert(2, Entity("s1h2", False, [Card("A♦", "r")], 11, True, "", [], ""))
    entities.append(Entity("s3h1", False, [], 0, False, "", ["tip main 5.00"]))
    macro = environment().from_string(TABLE_STATE_MACROS)
    for items in (entities, entities[1:2], []):
        expected = macro.render(items=items)
        assert str(table_state(items)) == expected
    assert "&lt;b&gt;&#34;1&#34;" in str(table_state(entities))
    assert "⟦U+202E⟧" in str(table_state(entities))  # a bidi control marked, as `{{ }}` does


def test_a_replays_rows_run_together_up_to_each_fault() -> None:
    from auditor.output.replay_view import ReplayRow, replay_row, row_blocks

    def row(line: int, faults: list) -> ReplayRow:
        return ReplayRow(line, "12:00:0" + str(line), f"hit s1h1 <{line}>", [], faults, [],
                         None)

    fault = {"ref": "F-0001", "id": "f-1", "citation": "x", "severity": "high",
             "message": "m"}
    rows = [row(1, []), row(2, [fault]), row(3, []), row(4, []), row(5, [fault])]
    blocks = row_blocks(rows)
    assert [found for _, found in blocks] == [rows[1], rows[4]]
    assert [str(text) for text, _ in blocks] == [
        replay_row(rows[0]) + "\n" + replay_row(rows[1]),
        replay_row(rows[2]) + "\n" + replay_row(rows[3]) + "\n" + replay_row(rows[4])]
    assert "&lt;3&gt;" in blocks[1][0]
    tail = row_blocks(rows[:3])
    assert [(str(text), found) for text, found in tail][-1] == (str(replay_row(rows[2])), None)
    assert row_blocks([]) == []
