"""The words of a page's markup, for tests that assert what a reader of it sees."""

from __future__ import annotations

import re


def text(markup: str) -> str:
    """The words of some markup, its tags dropped and its spaces made one."""
    return " ".join(re.sub(r"<[^>]+>", " ", markup).replace("&#39;", "'").split())
