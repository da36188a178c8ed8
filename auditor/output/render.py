"""The four outputs of a run, written from an audit's result: what `auditor audit` writes at
the end of a run and `auditor report` writes again from the store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from auditor.audit import AuditResult
from auditor.output.publish import publish

OUTPUT_NAMES = ("findings.json", "findings.csv", "summary.csv", "report.html")


def write_outputs(result: AuditResult, run: dict[str, Any], out: Path) -> None:
    from auditor.output.html_report import html_parts
    from auditor.output.json_report import json_parts
    from auditor.output.tables import summary_csv, summary_frame, to_csv

    # Published as one set (publish.py): a reader never finds files of two runs.
    publish(out, {
        "findings.json": lambda: json_parts(result, run),
        "findings.csv": lambda: to_csv(result.findings, result.inputs),
        "summary.csv": lambda: summary_csv(summary_frame(result.findings, result.inputs)),
        "report.html": lambda: html_parts(result, run),
    })
