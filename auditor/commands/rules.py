"""`auditor rules`: the rule base, what checks each citation (auditor/rules_cli.py)."""

from __future__ import annotations

import argparse

from auditor.commands import text_console


def add_parser(commands: argparse._SubParsersAction) -> None:
    rules = commands.add_parser("rules", help="the rule base: what checks each citation")
    rules.add_argument("action", nargs="?", choices=["list", "show"], default="list")
    rules.add_argument("citation", nargs="?")
    rules.add_argument("--markdown", action="store_true", help="print the list as Markdown")
    rules.add_argument("--as-of", default=None, metavar="DATE",
                       help="the rules in force on this gaming date (YYYY-MM-DD), and those "
                            "whose text is in force only later")


def run(arguments: argparse.Namespace) -> int:
    from auditor.rules_cli import show_rules

    return show_rules(arguments.action, arguments.citation, text_console(soft_wrap=True),
                      arguments.markdown, arguments.as_of)
