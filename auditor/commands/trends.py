"""`auditor trends`: units whose findings rise across nights (auditor/trends/command.py)."""

from __future__ import annotations

import argparse

from auditor.commands.on_store import run_on_store


def add_parser(commands: argparse._SubParsersAction) -> None:
    from auditor.trends.command import add_parser as add_trends

    add_trends(commands)


def run(arguments: argparse.Namespace) -> int:
    from auditor.trends.command import run as run_trends

    return run_on_store(arguments, run_trends)
