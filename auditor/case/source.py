"""The run a case is made from: a run of the store, or the --out folder of an audit (its
findings.json). Either gives the run's auditor object, its inputs and its findings."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from auditor.results import InputSummary



class CaseError(Exception):
    """The run or the case cannot be made as asked (exit 2, one line)."""


@dataclass
class RunSource:
    run: dict[str, Any]  # findings.json's "auditor" object
    inputs: list[InputSummary]
    findings: Any  # a callable giving the run's finding documents, in the run's order
    label: str  # what the run is, in words

    def finding_documents(self) -> Iterator[dict[str, Any]]:
        return self.findings()


def open_run(source: str, store: str | None) -> RunSource:
    """A run number (read from `store`) or an audit's --out folder (its findings.json)."""
    if source.isdigit():
        return _from_store(int(source), _store_location(store))
    from auditor.results import InputSummary

    folder = Path(source)
    path = folder / "findings.json" if folder.is_dir() else folder
    if not path.is_file():
        raise CaseError(f"{source} is neither a run number nor a folder with findings.json")
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        inputs = [InputSummary.model_validate(i) for i in document["inputs"]]
        run, findings = document["auditor"], document["findings"]
        if not isinstance(run, dict) or not isinstance(findings, list):
            raise TypeError("auditor or findings")
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError,
            RecursionError) as error:
        raise CaseError(f"{path} cannot be read as an audit's findings.json "
                        f"({type(error).__name__})") from None
    if not run.get("finished"):
        raise CaseError(f"{path} is of a run that never finished")
    return RunSource(run, inputs, lambda: iter(findings), f"the audit written to {folder}")


def _store_location(store: str | None) -> str:
    """--store, else the floor history every command uses (auditor/store_location.py)."""
    from auditor.settings import SettingsError
    from auditor.store import StoreError
    from auditor.store_location import command_store

    try:
        return command_store(store)
    except SettingsError as error:
        raise CaseError(f"settings: {error}") from None
    except StoreError as error:
        raise CaseError(str(error)) from None


def _from_store(run_id: int, location: str) -> RunSource:
    from auditor.results import InputSummary
    from auditor.store import StoreError, list_runs, open_store
    from auditor.store.runs import finding_documents, run_document, run_inputs_documents

    if "://" not in location and not Path(location).exists():
        from auditor.store_location import missing_store_hint

        raise CaseError(f"no run store at {location}{missing_store_hint(location)}")
    try:
        engine = open_store(location)
        rows = list_runs(engine, [run_id])
        if not rows:
            raise CaseError(f"the store has no run {run_id}")
        if rows[0].status != "finished":
            raise CaseError(f"run {run_id} never finished: its findings are not whole")
        run = run_document(engine, run_id)
        inputs = [InputSummary.model_validate(i) for i in run_inputs_documents(engine, run_id)]
    except StoreError as error:
        raise CaseError(str(error)) from None
    return RunSource(run, inputs, lambda: finding_documents(engine, run_id),
                     f"run {run_id} of the run store")
