"""The command line: the top parser built from the commands' modules (auditor/commands/
and auditor/live/command.py), and the command run by name under the one guard that tells
what it raises in one line with its exit code (auditor/commands/guard.py)."""

from __future__ import annotations

import argparse
import gc
import sys
from importlib import import_module
from types import ModuleType

from auditor import __version__
from auditor.commands import EXIT_CLEAN, EXIT_CRASH, EXIT_ERROR, EXIT_FINDINGS
from auditor.commands.guard import CRASH_LOG, guarded

# Each command's module, in the order `auditor --help` lists them: `add_parser(subparsers)`
# adds its parser, `run(arguments) -> int` runs it. A module is imported only when its
# command is asked for (tests/house/test_lean_audit.py, tests/house/test_after_speed.py).
COMMAND_MODULES = {
    "audit": "auditor.commands.audit",
    "rules": "auditor.commands.rules",
    "simulate": "auditor.commands.simulate",
    "runs": "auditor.commands.runs",
    "report": "auditor.commands.report",
    "diff": "auditor.commands.diff",
    "trends": "auditor.commands.trends",
    "case": "auditor.commands.case",
    "verify": "auditor.commands.verify",
    "keygen": "auditor.commands.keygen",
    "incidents": "auditor.commands.incidents",
    "watch": "auditor.live.command",
}
COMMANDS = tuple(COMMAND_MODULES)

__all__ = ["COMMANDS", "CRASH_LOG", "EXIT_CLEAN", "EXIT_CRASH", "EXIT_ERROR", "EXIT_FINDINGS",
           "build_parser", "command_line", "exit_code", "main"]


def command_module(name: str) -> ModuleType:
    return import_module(COMMAND_MODULES[name])


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with `command` "audit", that command's alone: it parses
    `auditor audit ...` as the whole parser does (a command's parser knows nothing of the
    others), and the other commands' modules are not loaded."""
    parser = argparse.ArgumentParser(
        prog="auditor", description="Audit BJH blackjack hand histories against "
                                    "S.D. Admin. R. chapter 20:18:15.")
    parser.add_argument("--version", action="version", version=f"auditor {__version__}")
    # Named in full in the usage line, even when only the audit's parser is built (the
    # usage printed with an unknown option's error is the same).
    commands = parser.add_subparsers(dest="command", required=True,
                                     metavar="{" + ",".join(COMMANDS) + "}"
                                     if command == "audit" else None)
    for name in ("audit",) if command == "audit" else COMMANDS:
        command_module(name).add_parser(commands)
    return parser


def command_line() -> int:
    """The `auditor` command and `python -m auditor`: `main`, then every object left moved
    out of the collector's reach. The interpreter's exit still runs its handlers and closes
    its modules, but its last collections (a twentieth of a one-round audit, measured)
    walk nothing: whatever the run wrote is closed before `main` returns."""
    code = main()
    gc.freeze()
    return code


def main(argv: list[str] | None = None) -> int:
    # Importing what a command needs makes most of a process's long-lived objects and next
    # to no cycles: the collector's youngest generation is walked every 20,000 allocations
    # rather than 700 meanwhile (as in the audit itself, auditor/commands/audit.py), and as
    # before after.
    threshold = gc.get_threshold()
    gc.set_threshold(20_000, 20, 10)
    try:
        return _main(argv)
    finally:
        gc.set_threshold(*threshold)


def _main(argv: list[str] | None) -> int:
    words = sys.argv[1:] if argv is None else argv
    # The first word is the command unless it is an option (--version, --help).
    arguments = build_parser(words[0] if words else None).parse_args(argv)
    arguments.words = words  # as given: the audit records them
    module = command_module(arguments.command)
    return guarded(module.run, arguments, getattr(module, "OS_ERRORS_REFUSED", True),
                   getattr(module, "STORE_FAULTS_REFUSED", True))


def exit_code(result, fail_on: str = "low", new_only: bool = False) -> int:
    """The run's exit code (auditor/commands/audit.py), named here for the scripts and tests
    that import it from the command line."""
    from auditor.commands.audit import exit_code as audit_exit_code

    return audit_exit_code(result, fail_on, new_only)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
