"""report.html: the inspector's report, rendered from templates/report.html.j2 (autoescaped)."""

from __future__ import annotations

from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

from auditor.audit import AuditResult, round_key
from auditor.output.tables import findings_frame, summary_by
from auditor.resources import templates_dir
from auditor.rulebase import rule_entries


def environment() -> Environment:
    return Environment(loader=FileSystemLoader(templates_dir()),
                       autoescape=select_autoescape(default=True, default_for_string=True),
                       trim_blocks=True, lstrip_blocks=True)


def to_html(result: AuditResult, run: dict[str, Any]) -> str:
    frame = findings_frame(result.findings)
    entries = rule_entries()
    findings = []
    for finding in result.findings:
        entry = entries.get(finding.citation)
        key = round_key(finding.file, finding.round, 0)
        evidence = next((e for k, e in result.evidence.items()
                         if finding.round is not None and k.startswith(finding.file + ":")
                         and k.endswith(":" + finding.round)), None) if finding.round else None
        findings.append({"finding": finding, "words": entry.text if entry else "",
                         "title": entry.title if entry else "", "evidence": evidence,
                         "key": key})
    summaries = {column: summary_by(frame, column).to_dict("records")
                 for column in ("citation", "table", "dealer", "shift")}
    return environment().get_template("report.html.j2").render(
        run=run, inputs=result.inputs, findings=findings, summaries=summaries,
        total_rounds=sum(i.rounds for i in result.inputs),
        audited_rounds=sum(i.rounds_audited for i in result.inputs))
