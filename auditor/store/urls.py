"""Store locations as they may be shown: a URL's password never written or printed.

A floor's store URL carries a credential (`postgresql+psycopg://auditor:PASSWORD@host/db`).
Every place a location or a command line is recorded or printed goes through `shown`,
`hide_secrets` or `command_line`: findings.json, report.html, the store's `runs.command`,
`auditor runs show`, trends.json and trends.html, and every error message.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

SUPPORTED = ("a store is a SQLite file path, sqlite:///PATH, or "
             "postgresql+psycopg://USER[:PASSWORD]@HOST[:PORT]/DATABASE "
             "(PostgreSQL needs the auditor's postgresql extra)")
HIDDEN = "***"
# scheme://user:password@ — the password is anything up to the last @ before the host.
_USERINFO = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*://[^\s:/@]*:)[^\s/]*@")


def shown(location: str) -> str:
    """`location` as it may be printed: a URL with its password replaced by ***."""
    if "://" not in location:
        return location
    from sqlalchemy.engine import make_url

    try:
        url = make_url(location)
    except Exception:  # not a URL SQLAlchemy reads: hide whatever stands for a password
        return hide_secrets(location)
    if url.password is None:
        return hide_secrets(location)
    return url.render_as_string(hide_password=True)


def hide_secrets(text: str) -> str:
    """Any `scheme://user:password@` in `text` with the password replaced by ***."""
    return _USERINFO.sub(lambda m: m.group(1) + HIDDEN + "@", text)


def command_line(argv: Sequence[str]) -> str:
    """`auditor …` as it is recorded (findings.json, report.html, the store): each argument
    that is a URL (or `--option=URL`) with its password hidden."""
    def one(argument: str) -> str:
        if "://" not in argument:
            return argument
        option, equals, value = argument.partition("=")
        if equals and option.startswith("--") and "://" in value:
            return option + "=" + shown(value)
        return shown(argument)

    return "auditor " + shlex.join(one(argument) for argument in argv)
