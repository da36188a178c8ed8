"""A record audited by the command line (a real store, a job count) and its findings as
(citation, round, line, message) rows: what a differential review pins exactly."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.audits import audit, findings_of, written


def finding_rows(folder: Path, text: str, jobs: int = 1,
                 name: str = "record.bjh") -> list[tuple[str, str | None, int | None, str]]:
    """`text` written as `folder/name`, audited with `--jobs jobs` into a new store; its
    findings' (citation, round, line, message), in findings.json's order."""
    path = written(folder, text, name)
    out = folder / f"out-{jobs}"
    audit(path, out=out, store=folder / f"store-{jobs}.sqlite", jobs=jobs,
          more=["--new-store", "--fail-on", "never"])
    return [(f["citation"], f["round"], f["line"], f["message"])
            for f in findings_of(out)["findings"]]
