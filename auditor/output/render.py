"""The four outputs of a run, written from an audit's result: what `auditor audit` writes at
the end of a run and `auditor report` writes again from the store."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from auditor.manifest import MANIFEST
from auditor.output.publish import publish
from auditor.results import AuditResult

if TYPE_CHECKING:
    from auditor.report.frames import RunSummary

OUTPUT_NAMES = ("findings.json", "findings.csv", "summary.csv", "report.html")


def write_outputs(result: AuditResult, run: dict[str, Any], out: Path, processes: int = 1,
                  summary: RunSummary | None = None) -> RunSummary:
    """The four outputs and the manifest, published as one set in `out`. With `processes`
    above 1, report.html is rendered by a second process while this one writes the rest.
    `summary`: the run's findings counted (auditor/report/frames.py), counted here when
    none is given, and handed to findings.json, summary.csv and report.html alike; it is
    returned for what is printed after."""
    from auditor.output.html_report import html_parts
    from auditor.output.json_report import json_parts
    from auditor.output.tables import summary_csv, to_csv
    from auditor.report.frames import run_summary

    if summary is None:
        summary = run_summary(result.findings, result.inputs)
    # Published as one set (publish.py): a reader never finds files of two runs; the
    # manifest, written last, hashes the inputs, the rule base and the four outputs.
    publish(out, {
        "findings.json": lambda: json_parts(result, run, summary),
        "findings.csv": lambda: to_csv(result.findings, result.inputs),
        "summary.csv": lambda: summary_csv(summary),
        "report.html": lambda: html_parts(result, run, summary),
    }, sealed=(MANIFEST, lambda folder: run_manifest(result, run, folder)),
        aside=("report.html",) if processes > 1 else ())
    return summary


def run_manifest(result: AuditResult, run: dict[str, Any], folder: Path) -> str:
    """manifest.json of a run folder: every input where it lay (and its SHA-256), the rule
    base and the four outputs (auditor/manifest.py). The command is left out: it may hold a
    store URL's password."""
    import os

    from auditor.manifest import build_manifest, manifest_text
    from auditor.reproduce import conditions_of_run

    inputs = [{"path": summary.path, "located": os.path.abspath(summary.path),
               "sha256": summary.sha256,
               **({"size": summary.size} if summary.size is not None else {})}
              for summary in result.inputs]
    return manifest_text(build_manifest(
        "run", folder, inputs, OUTPUT_NAMES,
        extra={"run": {key: run.get(key) for key in ("rule_base", "started", "finished")}},
        conditions=run.get("conditions") or conditions_of_run(run)))
