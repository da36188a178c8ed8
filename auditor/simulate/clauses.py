"""The clauses the simulator plants, as a table for the documentation: the faults of
auditor/simulate/faults/ and the header faults of auditor/simulate/table.py, above both
(`make readme` writes it into docs/rule-base.md)."""

from __future__ import annotations

from auditor.checks.base import citation_sort_key
from auditor.simulate.faults import ALL_GAMES, INJECTORS, clause_words
from auditor.simulate.spec import HEADER_CITATIONS, HEADER_CLAUSES


def clause_table() -> str:
    """Markdown: every clause the simulator plants, by citation, with the games it plants
    it in (README.md, `scripts/update_readme.py`)."""
    def games_of(games: frozenset[str]) -> str:
        return "all" if games == ALL_GAMES else ", ".join(sorted(games))

    planted = [(citation, clause_words(variant.__name__), variant.games)
               for citation, variants in INJECTORS.items() for variant in variants]
    planted += [(HEADER_CITATIONS.get(clause, "record:header"),
                 f"{clause_words(clause)} (`--header-fault`)", games)
                for clause, games in HEADER_CLAUSES.items()]
    rows = ["| citation | clause planted | games |", "|---|---|---|"]
    rows += [f"| {citation} | {words} | {games_of(games)} |" for citation, words, games
             in sorted(planted, key=lambda row: citation_sort_key(row[0]))]
    return "\n".join(rows) + "\n"
