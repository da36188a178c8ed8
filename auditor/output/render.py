"""The four outputs of a run, written from an audit's result: what `auditor audit` writes at
the end of a run and `auditor report` writes again from the store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from auditor.audit import AuditResult
from auditor.output.files import write_atomic

OUTPUT_NAMES = ("findings.json", "findings.csv", "summary.csv", "report.html")


def write_outputs(result: AuditResult, run: dict[str, Any], out: Path) -> None:
    from auditor.output.html_report import to_html
    from auditor.output.json_report import to_json
    from auditor.output.tables import findings_frame, summary_csv, to_csv

    write_atomic(out / "findings.json", to_json(result, run))
    write_atomic(out / "findings.csv", to_csv(result.findings, result.inputs))
    write_atomic(out / "summary.csv", summary_csv(findings_frame(result.findings,
                                                                 result.inputs)))
    write_atomic(out / "report.html", to_html(result, run))
