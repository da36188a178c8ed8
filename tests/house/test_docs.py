"""The README and docs/ hold no dead link: every relative link names a file of the
repository, and every `#anchor` a heading of the page it points to (as GitHub makes
anchors of headings)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.helpers import ROOT

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def anchor_of(heading: str) -> str:
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    return {anchor_of(m.group(1)) for m in re.finditer(r"(?m)^#{1,6} (.+)$", text)}


def dead_links(page: Path) -> list[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    dead = []
    for target in LINK.findall(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):
            continue  # a web address or mail: not this repository's
        path, _, anchor = target.partition("#")
        destination = (page.parent / path).resolve() if path else page
        missing_part = anchor and destination.suffix == ".md" and anchor not in anchors(
            destination)
        if not destination.exists() or missing_part:
            dead.append(target)
    return dead


def test_the_readme_and_every_docs_page_link_only_to_what_is_there() -> None:
    assert {page.name: dead_links(page) for page in pages()} == {
        page.name: [] for page in pages()}


def test_a_dead_link_is_seen(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other\n\n## A part\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text("# Page\n\n[gone](missing.md) [fine](other.md#a-part) "
                    "[no part](other.md#nowhere) [here](#page) [web](https://example.org)\n",
                    encoding="utf-8")
    assert dead_links(page) == ["missing.md", "other.md#nowhere"]


def test_the_readme_stays_short() -> None:
    """What a user needs is in the README; operations, the format, the rule base and
    performance are in docs/, linked from it."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 300
    for page in sorted((ROOT / "docs").glob("*.md")):
        assert f"docs/{page.name}" in readme, f"docs/{page.name} is not linked from the README"
