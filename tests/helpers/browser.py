"""Chromium driven through playwright, as the browser tests share it: how it is launched
(`launched`, behind the `browser` fixture of tests/conftest.py), a report page that fails
on any console error, page error or dialog, and the page's findings, filters and print.
Chromium comes from scripts/install-browser.sh; where it or playwright is missing a test
skips, except under CI=true, where it fails (`unavailable`)."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import ROOT

ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
ARGUMENTS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run"]


def unavailable(reason: str) -> None:
    """A browser test cannot run: skipped with the reason, failed under CI=true."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}; under CI=true the browser test must run, not skip")
    pytest.skip(reason)


def launched() -> Iterator:
    """Debian's Chromium, headless, for as long as the caller holds it."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover
        unavailable("the playwright package is missing (pip install -e '.[test]')")
    if not os.access(CHROMIUM, os.X_OK):
        unavailable(f"{CHROMIUM} is missing: run scripts/install-browser.sh as root")
    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGUMENTS)
        yield instance
        instance.close()


class Page:
    """A page of the report with every console error, page error and dialog it raised."""

    def __init__(self, browser, path: Path, javascript: bool = True,
                 width: int = 1360, height: int = 900) -> None:
        self.context = browser.new_context(java_script_enabled=javascript,
                                           viewport={"width": width, "height": height})
        self.page = self.context.new_page()
        self.problems: list[str] = []
        self.dialogs: list[str] = []
        self.page.on("console", lambda m: m.type == "error" and self.problems.append(
            f"console: {m.text}"))
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        self.page.on("dialog", self._dialog)
        self.page.goto(path.as_uri())
        self.page.wait_for_load_state("load")

    def _dialog(self, dialog) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def close(self) -> None:
        self.context.close()
        assert self.problems == []
        assert self.dialogs == []


def expect(locator):
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(locator)


def visible_findings(page) -> list[str]:
    return page.eval_on_selector_all(
        "li.finding", "items => items.filter(i => i.offsetParent !== null).map(i => i.id)")


def pdf_pages(page, path: Path) -> list[str]:
    """The page printed to an A4 PDF, and each printed page's text (pdftotext)."""
    if not shutil.which("pdftotext"):
        unavailable("pdftotext is missing: run scripts/install-browser.sh as root")
    page.emulate_media(media="print")
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    page.pdf(path=str(path), format="A4", print_background=True)
    page.evaluate("window.dispatchEvent(new Event('afterprint'))")
    text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout
    return text.split("\f")[:-1]


def set_filter(page, name: str, value: str) -> None:
    page.fill(f"#filters [name={name}]", value) if name in ("table", "dealer", "q") else \
        page.select_option(f"#filters [name={name}]", value)
    page.dispatch_event(f"#filters [name={name}]", "change")
