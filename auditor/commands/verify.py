"""`auditor verify`: a case or run folder checked against its manifest; see
auditor/case/command.py."""

from __future__ import annotations

import argparse

from auditor.commands import text_console


def add_parser(commands: argparse._SubParsersAction) -> None:
    from auditor.case.command import add_verify_parser

    add_verify_parser(commands)


def run(arguments: argparse.Namespace) -> int:
    from auditor.case.command import run as run_case

    return run_case(arguments, text_console(soft_wrap=True), text_console(stderr=True))
