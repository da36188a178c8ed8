"""The report at size, in the real browser: how big report.html is, how long headless
Chromium takes to open it, and how long a filter change takes.

    .venv/bin/python bench/report_browser.py [--tables 80] [--rounds 640] [--faults 0.2]
                                             [--repeat 3] [--out bench/report_browser.json]

The workload is a bad night made by the simulator: `tables` records (a quarter of each
game, seeded) of `rounds` rounds with a planted fault in `faults` of the rounds, audited by
`auditor audit DIR --jobs 2`. The defaults give about 10,000 findings. Then for `repeat`
fresh pages of Debian's Chromium (/usr/bin/chromium, driven by Playwright):

- load: from navigation start to the end of the load event, and until the filters answer
  (the page's script has run: `#filter-status` says "Showing all ...");
- elements: the DOM's element count once loaded;
- filter changes: a citation, a severity, a table, a dealer and a search each set through
  the form's own change event, timed to the next frame (script, style, layout and paint);
  and clearing them again;
- expand all: the "Expand all" button, timed the same way.

It reads the form's fields by name, so it measures older reports (selects) and newer ones
(searchable inputs) alike. Figures are the median of `repeat` pages; the machine is shared,
so take each as +-15 %. This is a script, never a unit test.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
ARGUMENTS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
GAMES = ("standard", "switch", "db21", "tensticks")


def make_workload(folder: Path, tables: int, rounds: int, faults: float) -> None:
    for number, game in enumerate(GAMES):
        count = tables // len(GAMES) + (1 if number < tables % len(GAMES) else 0)
        subprocess.run([sys.executable, "-m", "auditor", "simulate", "--game", game,
                        "--rounds", str(rounds), "--tables", str(count), "--faults", str(faults),
                        "--seed", f"night-{game}", "--out", str(folder), "--quiet"], check=True,
                       cwd=ROOT)
    for truth in folder.glob("*.truth.json"):
        truth.unlink()


def audit(folder: Path, out: Path) -> float:
    started = time.perf_counter()
    completed = subprocess.run([sys.executable, "-m", "auditor", "audit", str(folder), "--out",
                                str(out), "--quiet", "--jobs", "2"], cwd=ROOT,
                               env=dict(os.environ, XDG_DATA_HOME=str(out)))  # store in out
    if completed.returncode not in (0, 1):
        raise SystemExit(f"auditor audit exited {completed.returncode}")
    return time.perf_counter() - started


# Timed to the frame after the change: the script's work, style, layout and paint.
NEXT_FRAME = """new Promise(done => requestAnimationFrame(() => setTimeout(() =>
    done(performance.now() - start), 0)))"""
CHANGE = """([name, value]) => {
    const form = document.getElementById('filters');
    const field = form.elements[name];
    const start = performance.now();
    field.value = value;
    field.dispatchEvent(new Event('change', {bubbles: true}));
    return NEXT_FRAME; }""".replace("NEXT_FRAME", NEXT_FRAME)

EXPAND = """() => {
    const start = performance.now();
    document.querySelector('#filters button[data-action=expand]').click();
    return NEXT_FRAME; }""".replace("NEXT_FRAME", NEXT_FRAME)


def measure_page(browser, path: Path, findings: list[dict]) -> dict:
    context = browser.new_context(viewport={"width": 1360, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    started = time.perf_counter()
    page.goto(path.as_uri(), timeout=300_000)
    page.wait_for_function("(document.getElementById('filter-status') || {}).textContent"
                           " && document.getElementById('filter-status').textContent"
                           ".startsWith('Showing all')", timeout=300_000)
    ready = time.perf_counter() - started
    timing = page.evaluate("""() => {
        const n = performance.getEntriesByType('navigation')[0];
        return {load: n.loadEventEnd, nodes: document.getElementsByTagName('*').length}; }""")
    first = findings[0]
    dealer = next((f["dealer"] for f in findings if f.get("dealer")), "")
    table_value = page.evaluate("""() => {
        const field = document.getElementById('filters').elements.table;
        if (field.tagName === 'SELECT') { return field.options[1].value; }
        const list = document.getElementById(field.getAttribute('list'));
        return list.options[0].value; }""")
    citation_value = page.evaluate("""() => {
        const field = document.getElementById('filters').elements.citation;
        return field.options[1].value; }""")
    changes = {}
    for label, name, value in (("citation", "citation", citation_value),
                               ("severity", "severity", "high"),
                               ("table", "table", table_value),
                               ("dealer", "dealer", dealer),
                               ("search", "q", first["message"].split()[1])):
        page.evaluate("() => document.getElementById('filters').reset()")
        page.wait_for_timeout(50)
        changes[label] = page.evaluate(CHANGE, [name, value])
    changes["clear"] = page.evaluate(CHANGE, ["q", ""])
    expand = page.evaluate(EXPAND)
    context.close()
    if errors:
        raise SystemExit(f"page errors: {errors[:3]}")
    return {"ready_s": ready, "load_ms": timing["load"], "elements": timing["nodes"],
            "filter_ms": changes, "expand_all_ms": expand}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=80)
    parser.add_argument("--rounds", type=int, default=640)
    parser.add_argument("--faults", type=float, default=0.2)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--report", type=Path, help="measure this report.html instead "
                        "(with findings.json beside it)")
    parser.add_argument("--keep", type=Path, help="keep the workload's report folder here")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "report_browser.json")
    arguments = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="bench-report-") as temporary:
        audit_seconds = None
        if arguments.report:
            report = arguments.report
        else:
            folder = Path(temporary) / "logs"
            out = arguments.keep or Path(temporary) / "out"
            make_workload(folder, arguments.tables, arguments.rounds, arguments.faults)
            audit_seconds = audit(folder, out)
            report = out / "report.html"
        findings = json.loads((report.parent / "findings.json").read_text("utf-8"))["findings"]
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGUMENTS)
            runs = [measure_page(browser, report, findings) for _ in range(arguments.repeat)]
            browser.close()
        size = report.stat().st_size
    median = statistics.median
    result = {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
                   f"{platform.system()} {platform.release()}",
        "chromium": subprocess.run([CHROMIUM, "--version"], capture_output=True,
                                   text=True).stdout.strip(),
        "workload": {"tables": arguments.tables, "rounds": arguments.rounds,
                     "faults": arguments.faults, "findings": len(findings)},
        "audit_s": audit_seconds,
        "report_mb": round(size / 1e6, 2),
        "ready_s": round(median(r["ready_s"] for r in runs), 2),
        "load_ms": round(median(r["load_ms"] for r in runs)),
        "elements": runs[0]["elements"],
        "filter_ms": {key: round(median(r["filter_ms"][key] for r in runs))
                      for key in runs[0]["filter_ms"]},
        "expand_all_ms": round(median(r["expand_all_ms"] for r in runs)),
    }
    print(json.dumps(result, indent=2))
    arguments.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
