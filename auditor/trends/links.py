"""From a flag to its evidence: the nights each flag and each pair of `auditor trends` draws
on, each linked to its findings in that night's report.html.

A night is a gaming day of a run (the runs `trends` reads: each input's latest tallied
run). Its report is where that run's audit wrote it (`--out`, recorded in the run's
settings as `out`); the link opens it filtered by its address (docs/outputs.md, "The
report's address"): `report.html#dealer=D-1003&day=2026-11-21`. A link is relative when
the report lies under the folder that holds trends.html's folder (`reports/2026-11-21`
beside `trends`: the two move together), an absolute `file://` address otherwise; a night
whose report is gone, or whose run recorded none, or a table with no ID to filter by, is
named without a link.

Each entry gets `nights`: [{"gaming_day", "run", "report", "link", "unlinked"}], by gaming
day then run (`report`: the recorded report.html, null if none was recorded; `link`: null
when there is none; `unlinked`: why not, null with a link).
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from auditor.results import table_key
from auditor.store import trend_reads
from auditor.store.engine import Engine
from auditor.store.runs import run_settings_text
from auditor.trends.analysis import FLAGGED, NO_DEALER, UNDATED, table_name

NO_DAY = "(none)"  # the report's gaming-day filter for findings without one

Night = tuple[str, int]  # (gaming day, run)


def add_night_links(engine: Engine, document: dict[str, Any], trends_dir: Path,
                    pair_nights: dict[tuple[str, str], set[Night]] | None = None) -> None:
    """Adds `nights` to every flagged dealer or table (outliers, changes in rate, game math)
    and to every pair listed, in place. The store's rounds are walked once, and only the
    nights of the units linked are kept; the pairs' nights are `pair_nights` as the
    document's pairs were counted (`trends_document`), else read from the store."""
    window = document["trends"]["window"]
    linked = [entry for name in ("outliers", "game_math") for entry in document.get(name, [])
              if (entry["status"] == FLAGGED
                  or (entry.get("change") or {}).get("status") == FLAGGED)
              and entry["unit"].get("kind") in ("dealer", "table")]
    wanted = {(entry["unit"]["kind"], entry["unit"]["key"]) for entry in linked}
    dealers: dict[str, set[Night]] = defaultdict(set)
    tables: dict[str, dict[Night, str]] = defaultdict(dict)  # trends' name -> report's key
    for row in trend_reads.round_nights(engine, window["since"], window["until"]):
        night = (row.date or UNDATED, row.run_id)
        if row.dealer and ("dealer", row.dealer) in wanted:
            dealers[row.dealer].add(night)
        name = table_name(row.site, row.table_id)
        if ("table", name) in wanted:
            tables[name][night] = table_key(row.site, row.table_id) or ""
    listed = {(e["unit"]["dealer"], e["unit"]["player"]) for e in document.get("pairs", [])}
    pairs: dict[tuple[str, str], set[Night]] = defaultdict(set)
    if pair_nights is not None:
        pairs.update(pair_nights)
    else:
        for row in trend_reads.pair_nights(engine, window["since"], window["until"],
                                           NO_DEALER):
            if (row.dealer, row.player) in listed:
                pairs[row.dealer, row.player].add((row.date or UNDATED, row.run_id))
    reports = Reports(engine, trends_dir)
    for entry in linked:
        unit = entry["unit"]
        if unit["kind"] == "dealer":
            entry["nights"] = reports.nights(
                (night, {"dealer": unit["key"]}) for night in dealers.get(unit["key"], ()))
        else:
            entry["nights"] = reports.nights(
                (night, {"table": key}) for night, key in tables.get(unit["key"], {}).items())
    for entry in document.get("pairs", []):
        dealer, player = entry["unit"]["dealer"], entry["unit"]["player"]
        # Rounds with no dealer named: the report can filter by the player only.
        named = {"player": player} if dealer == NO_DEALER else {"dealer": dealer,
                                                                 "player": player}
        entry["nights"] = reports.nights((night, named)
                                         for night in pairs.get((dealer, player), ()))


class Reports:
    """Each run's report.html (as its audit recorded `out`), looked up once a run."""

    def __init__(self, engine: Engine, trends_dir: Path) -> None:
        self.engine = engine
        self.base = Path(os.path.abspath(trends_dir))
        self.known: dict[int, Path | None] = {}

    def of(self, run_id: int) -> Path | None:
        if run_id not in self.known:
            text = run_settings_text(self.engine, run_id)
            try:
                out = json.loads(text or "{}").get("out")
            except (ValueError, AttributeError):
                out = None
            self.known[run_id] = Path(out) / "report.html" if isinstance(out, str) else None
        return self.known[run_id]

    def href(self, report: Path) -> str:
        """Relative when the report lies under the folder that holds trends.html's folder,
        else an absolute file:// address."""
        report = Path(os.path.abspath(report))
        if report.is_relative_to(self.base.parent):
            return quote(Path(os.path.relpath(report, self.base)).as_posix())
        return report.as_uri()

    def nights(self, wanted: Iterable[tuple[Night, dict[str, str]]]) -> list[dict[str, Any]]:
        rows = []
        for (day, run_id), unit in sorted(wanted, key=lambda item: item[0]):
            report = self.of(run_id)
            link = unlinked = None
            if report is None:
                unlinked = "no report recorded"
            elif not report.is_file():
                unlinked = "report gone"
            elif not all(unit.values()):  # its link would open the night's every finding
                unlinked = "no table ID to filter by"
            else:
                link = self.href(report) + "#" + urlencode(
                    {**unit, "day": NO_DAY if day == UNDATED else day})
            rows.append({"gaming_day": day, "run": run_id,
                         "report": None if report is None else str(report), "link": link,
                         "unlinked": unlinked})
        return rows
