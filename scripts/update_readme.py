"""Regenerate the rule base table and the simulator's clauses in docs/rule-base.md (each
between its two marker comments)."""

from __future__ import annotations

import re
from pathlib import Path

from auditor.rules_cli import markdown_table
from auditor.simulate.clauses import clause_table

PAGE = Path(__file__).resolve().parent.parent / "docs" / "rule-base.md"
BLOCK = re.compile(r"(<!-- rule base: begin -->\n).*?(<!-- rule base: end -->)", re.S)
CLAUSES = re.compile(r"(<!-- simulator clauses: begin -->\n).*?(<!-- simulator clauses: end -->)",
                     re.S)

if __name__ == "__main__":
    text = PAGE.read_text(encoding="utf-8")
    updated = BLOCK.sub(lambda m: m.group(1) + markdown_table() + m.group(2), text)
    updated = CLAUSES.sub(lambda m: m.group(1) + clause_table() + m.group(2), updated)
    PAGE.write_text(updated, encoding="utf-8")
    print("docs/rule-base.md rule base and clauses:", "updated" if updated != text else "unchanged")
