"""The live floor's changes: numbered, never missed or repeated, bounded."""

from __future__ import annotations

import dataclasses
import threading

from auditor.live.floor import LiveFloor, TableState


def table(key: str, last_round: str) -> TableState:
    return TableState(key, f"{key}.bjh", "standard", "D-1", last_round, None, 1, 0,
                      "2026-11-28T05:00:00Z")


def test_changes_after_gives_each_change_once_in_order() -> None:
    floor = LiveFloor()
    floor.update_table(table("T1", "1"))
    floor.add_finding({"id": "BJH-1"}, {3: "hit s1 Kd"})
    seen = floor.changes_after(0)
    assert [(c.sequence, c.kind) for c in seen] == [(1, "table"), (2, "finding")]
    assert seen[1].data == {"finding": {"id": "BJH-1"}, "lines": {"3": "hit s1 Kd"}}
    assert floor.changes_after(2) == []
    floor.notice("T1.bjh was truncated; read again from its start", "T1.bjh")
    assert [c.sequence for c in floor.changes_after(2)] == [3]


def test_a_floor_with_no_change_yet_has_nothing_after_zero() -> None:
    floor = LiveFloor()
    assert floor.changes_after(0) == [] and floor.sequence == 0


def test_a_reader_too_far_behind_is_told_to_load_the_snapshot() -> None:
    floor = LiveFloor(keep=3)
    for number in range(5):
        floor.add_finding({"id": f"BJH-{number}"}, {})
    assert floor.changes_after(0) is None
    assert [c.sequence for c in floor.changes_after(2)] == [3, 4, 5]
    snapshot = floor.snapshot()
    assert snapshot["sequence"] == 5 and snapshot["findings_total"] == 5
    assert [entry["finding"]["id"] for entry in snapshot["findings"]] == [
        "BJH-2", "BJH-3", "BJH-4"]


def test_changes_after_with_a_limit_gives_the_oldest_first_from_a_rotated_floor() -> None:
    """The page takes a catch-up piece by piece: each piece starts where the last ended."""
    floor = LiveFloor(keep=4)
    for number in range(6):
        floor.add_finding({"id": f"BJH-{number}"}, {})  # changes 3 to 6 kept
    assert [c.sequence for c in floor.changes_after(2, limit=2)] == [3, 4]
    assert [c.sequence for c in floor.changes_after(4, limit=2)] == [5, 6]
    assert [c.sequence for c in floor.changes_after(5, limit=2)] == [6]
    assert floor.changes_after(6, limit=2) == []
    assert floor.changes_after(1, limit=2) is None


def test_a_long_line_is_shortened_for_the_page_alone_and_its_length_told() -> None:
    floor = LiveFloor()
    finding = {"id": "BJH-1", "message": "paid 30, owed 20"}
    long_line = "09:01:08 settle s2h1 main win 30 " + "y" * 70_000
    floor.add_finding(finding, {12: long_line, 10: "bet s2h1 main 20", 11: "z" * 1000})
    [entry] = floor.snapshot()["findings"]
    assert entry == {"finding": {"id": "BJH-1", "message": "paid 30, owed 20"},
                     "lines": {"10": "bet s2h1 main 20", "11": "z" * 1000,
                               "12": long_line[:1000]},
                     "shortened": {"12": 70_033}}
    assert floor.changes_after(0)[0].data == entry
    assert finding == {"id": "BJH-1", "message": "paid 30, owed 20"}  # the finding whole
    floor.add_finding({"id": "BJH-2"}, {3: "hit s1 Kd"})
    assert "shortened" not in floor.snapshot()["findings"][1]  # only when a line was


def test_a_new_gaming_day_clears_the_findings_and_keeps_the_tables() -> None:
    floor = LiveFloor()
    floor.update_table(dataclasses.replace(table("T1", "9"), findings=2))
    floor.add_finding({"id": "BJH-1"}, {})
    floor.new_gaming_day("2026-11-28")
    snapshot = floor.snapshot()
    assert snapshot["findings"] == [] and snapshot["gaming_day"] == "2026-11-28"
    assert snapshot["findings_total"] == 0
    assert snapshot["tables"][0]["key"] == "T1" and snapshot["tables"][0]["rounds"] == 0
    assert snapshot["tables"][0]["findings"] == 0


def test_writers_on_threads_number_every_change_once() -> None:
    floor = LiveFloor(keep=10_000)

    def write(name: str) -> None:
        for number in range(500):
            floor.add_finding({"id": f"{name}-{number}"}, {})

    threads = [threading.Thread(target=write, args=(name,)) for name in "abcd"]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    changes = floor.changes_after(0)
    assert [c.sequence for c in changes] == list(range(1, 2001))
    assert len({c.data["finding"]["id"] for c in changes}) == 2000
