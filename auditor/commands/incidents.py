"""`auditor incidents`: a run's findings as the surveillance room's incidents
(auditor/incidents.py)."""

from __future__ import annotations

import argparse

from auditor.commands.on_store import run_on_store


def add_parser(commands: argparse._SubParsersAction) -> None:
    from auditor.incidents import add_parser as add_incidents

    add_incidents(commands)


def run(arguments: argparse.Namespace) -> int:
    from auditor.incidents import run as run_incidents

    return run_on_store(arguments, run_incidents)
