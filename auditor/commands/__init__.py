"""The commands of `auditor`, one module each (auditor/cli.py names them): `add_parser`
adds the command's parser to the top parser's, `run` runs it and returns the exit code.
A module is imported only when its command is asked for, so that each stays cheap to start."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Rich is loaded when something is printed (auditor/shown.py)
    from rich.console import Console

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR, EXIT_CRASH = 0, 1, 2, 3


def text_console(**options) -> Console:
    """A console whose untrusted text is escaped (auditor/shown.py)."""
    from auditor.shown import TextConsole

    return TextConsole(**options)
