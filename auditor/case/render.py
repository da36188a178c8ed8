"""The case printed: case.html from the case's model and its templates (autoescaped: record
text is untrusted), and case.pdf printed from it by the real Chromium."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader
from markupsafe import Markup

from auditor.case.model import CaseModel
from auditor.money import grouped_text
from auditor.resources import templates_dir

CHROMIUM = "/usr/bin/chromium"  # unless BJH_CHROMIUM names another (read as it prints)
PRINT_SECONDS = 300


class PrintError(Exception):
    """The PDF could not be printed (no browser, or it failed): one line, exit 2."""


def money(amount: Decimal | None) -> str:
    """An amount as written, exactly: two decimals unless it has more (never rounded)."""
    return "—" if amount is None else grouped_text(amount)


def visible(value: Any) -> Any:
    """Text with its control and format characters (a bidi override, an escape) shown as
    code points, so a record's text can neither reorder nor hide what the page says."""
    if not isinstance(value, str) or isinstance(value, Markup) or value.isprintable():
        return value
    return "".join(c if c.isprintable() or c in "\t\n" else f"\\u{ord(c):04x}"
                   for c in value)


def utc(stamp: str | None) -> str:
    """An ISO time stamp in UTC as a person reads it."""
    if not stamp:
        return "not recorded"
    return str(stamp).replace("T", " ").removesuffix("+00:00") + " UTC"


@cache
def environment() -> Environment:
    environment = Environment(loader=FileSystemLoader(templates_dir()), autoescape=True,
                              trim_blocks=True, lstrip_blocks=True, auto_reload=False,
                              finalize=visible)
    environment.filters["money"] = money
    environment.filters["utc"] = utc
    environment.filters["zoned"] = zoned_time
    environment.filters["zone_described"] = zone_said
    return environment


def zoned_time(clock: str | None, zone_name: str | None, day: str | None) -> str | None:
    """A record's time with its zone's abbreviation on its date (auditor/clock.py); a
    zone this machine does not know leaves the time as written."""
    from auditor.clock import ZoneError, zoned

    try:
        return zoned(zone_name, day, clock)
    except ZoneError:
        return clock


def zone_said(zone_name: str) -> str:
    from auditor.clock import ZoneError, zone_described

    try:
        return zone_described(zone_name)
    except ZoneError:
        return f"{zone_name} (a zone this machine's database does not hold)"


def case_html(model: CaseModel) -> str:
    """case.html. Its template is `.jinja`, not `.j2`: the report compiles every `.j2`
    template with filters of its own (`html_report.load_templates`)."""
    css = Markup((templates_dir() / "case.css").read_text(encoding="utf-8"))
    return environment().get_template("case.html.jinja").render(case=model, css=css)


def find_chromium() -> str:
    """The Chromium program to print with (BJH_CHROMIUM, else /usr/bin/chromium), or
    PrintError saying why there is none: checked before a case is made, and again as it
    is printed."""
    chromium = os.environ.get("BJH_CHROMIUM") or CHROMIUM  # read now, not at import
    if os.path.isdir(chromium):
        raise PrintError(f"--pdf: BJH_CHROMIUM names {chromium}, a folder, not Chromium's "
                         "program")
    browser = shutil.which(chromium) or (
        chromium if os.path.isfile(chromium) and os.access(chromium, os.X_OK) else None)
    if browser is None:
        raise PrintError(f"--pdf needs Chromium at {chromium} (scripts/install-browser.sh "
                         "installs it; BJH_CHROMIUM names another)")
    return browser


def print_pdf(html: Path, pdf: Path) -> None:
    """Print `html` to `pdf` with headless Chromium: the page's own footer (page numbers,
    the case's fingerprint) and no browser header or footer (no date, no file path)."""
    browser = find_chromium()
    with tempfile.TemporaryDirectory(prefix="bjh-case-chromium-") as profile:
        command = [browser, "--headless", "--no-sandbox", "--disable-gpu",
                   "--disable-background-networking", "--disable-component-update",
                   "--disable-sync", "--no-first-run", "--disable-extensions",
                   f"--user-data-dir={profile}", "--no-pdf-header-footer",
                   f"--print-to-pdf={pdf.resolve()}", html.resolve().as_uri()]
        try:
            returncode = _printed(command)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise PrintError(f"Chromium could not print the case ({type(error).__name__})"
                             ) from None
    if returncode != 0:
        raise PrintError(f"Chromium could not print the case (exit {returncode})")
    if not _whole_pdf(pdf):
        raise PrintError("Chromium exited without printing the whole case (no PDF, or one "
                         "without its end)")


def _printed(command: list[str]) -> int:
    """Run Chromium in a process group of its own; its exit status. Chromium is a family of
    processes (renderers, its GPU and zygote helpers): one that outlives PRINT_SECONDS, or
    whose case stops meanwhile (an interrupt, an error), is killed with its whole group,
    never left printing behind a case given up. Its output is not kept: a helper holding
    the pipe after Chromium ended would keep a reader of it waiting until the deadline."""
    import signal

    with subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL, process_group=0) as process:
        try:
            return process.wait(timeout=PRINT_SECONDS)
        except BaseException:
            # the leader is not reaped yet, so its group's number is still the group's
            with contextlib.suppress(OSError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            raise


def _whole_pdf(pdf: Path) -> bool:
    """A PDF that begins as one and ends with its end-of-file marker (a printer stopped
    half-way leaves neither end)."""
    try:
        with open(pdf, "rb") as stream:
            head = stream.read(5)
            stream.seek(0, os.SEEK_END)
            stream.seek(max(0, stream.tell() - 1024))
            tail = stream.read()
    except OSError:
        return False
    return head == b"%PDF-" and b"%%EOF" in tail
