"""`Refused`: what a command will not do with what it was given, raised by the command and
told by the command line's one guard (auditor/commands/guard.py) in one line, exit 2. It
sits below every command's module, so that those outside auditor/commands/ (the case, the
simulator, the rule base's listing) raise it as the audit does."""

from __future__ import annotations


class Refused(Exception):
    """A refusal: its message is the whole line (`auditor: …`), escaped when printed."""
