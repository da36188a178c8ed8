"""`auditor diff`: two stored runs compared; see auditor/store_cli.py."""

from __future__ import annotations

import argparse

from auditor.commands.on_store import run_on_store


def add_parser(commands: argparse._SubParsersAction) -> None:
    from auditor.store_cli import add_diff_parser

    add_diff_parser(commands)


def run(arguments: argparse.Namespace) -> int:
    from auditor.store_cli import run_command

    return run_on_store(arguments, run_command)
