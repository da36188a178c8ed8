"""Regenerate the rule base table in README.md (between its two marker comments)."""

from __future__ import annotations

import re
from pathlib import Path

from auditor.rules_cli import markdown_table

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCK = re.compile(r"(<!-- rule base: begin -->\n).*?(<!-- rule base: end -->)", re.S)

if __name__ == "__main__":
    text = README.read_text(encoding="utf-8")
    updated = BLOCK.sub(lambda m: m.group(1) + markdown_table() + m.group(2), text)
    README.write_text(updated, encoding="utf-8")
    print("README.md rule base table:", "updated" if updated != text else "unchanged")
