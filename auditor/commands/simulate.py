"""`auditor simulate`: realistic records, compliant or with planted faults
(auditor/simulate/command.py)."""

from __future__ import annotations

import argparse

from auditor.commands import text_console


def add_parser(commands: argparse._SubParsersAction) -> None:
    from auditor.simulate.command import add_parser as add_simulate

    add_simulate(commands)


def run(arguments: argparse.Namespace) -> int:
    from auditor.simulate.command import run as run_simulate

    return run_simulate(arguments, text_console(soft_wrap=True))
