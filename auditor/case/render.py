"""The case printed: case.html from the case's model and its templates (autoescaped: record
text is untrusted), and case.pdf printed from it by the real Chromium."""

from __future__ import annotations

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

CHROMIUM = os.environ.get("BJH_CHROMIUM", "/usr/bin/chromium")
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
    return environment


def case_html(model: CaseModel) -> str:
    """case.html. Its template is `.jinja`, not `.j2`: the report compiles every `.j2`
    template with filters of its own (`html_report.load_templates`)."""
    css = Markup((templates_dir() / "case.css").read_text(encoding="utf-8"))
    return environment().get_template("case.html.jinja").render(case=model, css=css)


def print_pdf(html: Path, pdf: Path) -> None:
    """Print `html` to `pdf` with headless Chromium: the page's own footer (page numbers,
    the case's fingerprint) and no browser header or footer (no date, no file path)."""
    browser = shutil.which(CHROMIUM) or (CHROMIUM if os.access(CHROMIUM, os.X_OK) else None)
    if browser is None:
        raise PrintError(f"--pdf needs Chromium at {CHROMIUM} (scripts/install-browser.sh "
                         "installs it; BJH_CHROMIUM names another)")
    with tempfile.TemporaryDirectory(prefix="bjh-case-chromium-") as profile:
        command = [browser, "--headless", "--no-sandbox", "--disable-gpu",
                   "--disable-background-networking", "--disable-component-update",
                   "--disable-sync", "--no-first-run", "--disable-extensions",
                   f"--user-data-dir={profile}", "--no-pdf-header-footer",
                   f"--print-to-pdf={pdf.resolve()}", html.resolve().as_uri()]
        try:
            done = subprocess.run(command, capture_output=True, timeout=PRINT_SECONDS,
                                  check=False)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise PrintError(f"Chromium could not print the case ({type(error).__name__})"
                             ) from None
    if done.returncode != 0 or not pdf.is_file() or pdf.stat().st_size == 0:
        raise PrintError(f"Chromium could not print the case (exit {done.returncode})")
