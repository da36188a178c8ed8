"""What the commands that read the run store share (`runs`, `report`, `diff`, `trends`,
`incidents`): the store found as an audit finds it. What the store or the file system
refuses is told by the command line's guard in one line, exit 2 (for `trends`, 1 means
"something flagged": never an error); a failure of the auditor itself in one line, exit 3
(auditor/commands/guard.py)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING

from auditor.commands import text_console

if TYPE_CHECKING:
    from rich.console import Console

StoreCommand = Callable[[argparse.Namespace, "Console", "Console"], int]


def run_on_store(arguments: argparse.Namespace, command: StoreCommand) -> int:
    """`command(arguments, console, errors)` on the store the settings name."""
    from auditor.store_location import command_store

    console = text_console(soft_wrap=True)
    errors = text_console(stderr=True)  # a message is one line
    # One floor history for every command (auditor/store_location.py).
    arguments.store = command_store(arguments.store, getattr(arguments, "config", None))
    return command(arguments, console, errors)
