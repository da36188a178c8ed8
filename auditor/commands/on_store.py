"""What the commands that read the run store share (`runs`, `report`, `diff`, `trends`,
`incidents`): the store found as an audit finds it, and what the store or the file system
refuses told in one line, exit 2 (for `trends`, 1 means "something flagged": never an
error); a failure of the auditor itself is one line, exit 3."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from auditor.commands import EXIT_CRASH, EXIT_ERROR, text_console

if TYPE_CHECKING:
    from rich.console import Console

StoreCommand = Callable[[argparse.Namespace, "Console", "Console"], int]


def run_on_store(arguments: argparse.Namespace, command: StoreCommand) -> int:
    """`command(arguments, console, errors)` on the store the settings name."""
    from auditor.settings import SettingsError
    from auditor.store import StoreError
    from auditor.store.engine import DatabaseFault, cause_of
    from auditor.store.urls import shown
    from auditor.store_location import command_store

    console = text_console(soft_wrap=True)
    errors = text_console(stderr=True)  # a message is one line
    try:
        # One floor history for every command (auditor/store_location.py).
        arguments.store = command_store(arguments.store, getattr(arguments, "config", None))
        return command(arguments, console, errors)
    except (KeyboardInterrupt, SystemExit, BrokenPipeError):
        raise
    except StoreError as error:
        message = f"auditor: {error}"
    except SettingsError as error:
        message = f"auditor: settings: {error}"
    except DatabaseFault as error:
        message = f"auditor: store {shown(arguments.store)} cannot be read ({cause_of(error)})"
    except OSError as error:
        message = f"auditor: {error.strerror or error}" + (
            f": {error.filename}" if error.filename else "")
    except Exception as error:
        print(f"auditor: the auditor itself failed ({type(error).__name__}: "
              f"{cause_of(error)})", file=sys.stderr)
        return EXIT_CRASH
    print(message, file=sys.stderr)
    return EXIT_ERROR
