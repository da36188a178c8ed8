"""The run store's tables (SQLAlchemy Core). The schema's history is in migrations/versions:
change a table here and add a migration there, never one without the other."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    ForeignKey,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

runs = Table(
    "runs", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tool_version", String(40), nullable=False),
    Column("rule_base", String(80), nullable=False),
    Column("command", Text, nullable=False),
    # UTC times as ISO 8601 text, exactly as findings.json shows them.
    Column("started", String(40), nullable=False),
    Column("finished", String(40)),
    # running: begun and not (yet) finished, or killed; finished: every output written.
    Column("status", String(16), nullable=False),
    Column("exit_code", Integer),
    Column("settings", Text, nullable=False),  # JSON: how the audit was asked for
    Column("document", Text, nullable=False),  # JSON: the run as findings.json's "auditor"
    # JSON: the other top-level parts of findings.json that belong to the run as a whole
    # (waivers and their use, findings resolved since a baseline).
    Column("extras", Text, nullable=False),
)

inputs = Table(
    "inputs", metadata,
    # One row per distinct content: re-auditing a file adds a run, never a second input.
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("sha256", String(64), nullable=False, unique=True),
    Column("table_id", Text),
    Column("casino", Text),
    Column("licence", Text),
    Column("game", Text),
    Column("first_date", String(10)),
    Column("last_date", String(10)),
    Column("lines", BigInteger),
    Column("rounds", BigInteger),
)

run_inputs = Table(
    "run_inputs", metadata,
    Column("run_id", Integer, ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True),
    Column("position", Integer, primary_key=True),  # the input's place in the run
    Column("input_id", Integer, ForeignKey("inputs.id")),  # None: the file could not be read
    Column("path", Text, nullable=False),
    Column("rounds_audited", BigInteger),
    Column("error", Text),
    Column("document", Text, nullable=False),  # JSON: the input as findings.json shows it
)

findings = Table(
    "findings", metadata,
    Column("run_id", Integer, ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True),
    Column("position", Integer, primary_key=True),  # the order in which it was recorded
    # The run's order of findings, as every output lists them: the input's place, then
    # `order_key` (line, citation, seat, hand, compared byte by byte on every backend),
    # then `position`.
    Column("input_position", Integer, nullable=False),
    Column("order_key", LargeBinary, nullable=False),
    Column("finding_id", String(64), index=True),  # the stable ID
    Column("citation", String(40), nullable=False, index=True),
    Column("severity", String(8), nullable=False),
    Column("file", Text, nullable=False),
    Column("line", Integer),
    Column("round_id", Text),
    Column("table_id", Text),
    Column("dealer", Text),
    # The round's gaming day and shift (auditor/gaming_day.py), once the run is judged;
    # the calendar date is in `document`.
    Column("date", String(10)),
    Column("shift", Text),  # a name from the settings' [shifts]: any length (migration 0006)
    # Amounts in cents: exact, and summable by SQL on every backend.
    Column("expected_cents", BigInteger),
    Column("actual_cents", BigInteger),
    Column("difference_cents", BigInteger),
    # The currency of the amounts (the table header's; NULL: undeclared). Migration 0004.
    # Money is summed per currency, never across; exact amounts are in `document`.
    Column("currency", Text),
    Column("waived", Boolean, nullable=False, default=False),
    Column("baseline", String(16)),
    Column("document", Text, nullable=False),  # JSON: the finding as findings.json shows it
    # The normalised statement the finding stands on: what its stable ID is made from (not
    # in findings.json, so kept beside it).
    Column("statement", Text),
)

coverage = Table(
    "coverage", metadata,
    Column("run_id", Integer, ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True),
    Column("citation", String(40), primary_key=True),
    Column("rounds", BigInteger, nullable=False),
)

replays = Table(
    "replays", metadata,
    Column("run_id", Integer, ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True),
    Column("round_key", Text, primary_key=True),
    Column("input_position", Integer, nullable=False),
    Column("start_line", Integer, nullable=False),
    # zlib-compressed JSON of the round replayed step by step (a twentieth of its size).
    Column("document", LargeBinary, nullable=False),
)

# `auditor incidents` (auditor/incidents.py): what it has exported, so that each incident
# leaves once. Added by migration 0006.
incident_exports = Table(
    "incident_exports", metadata,
    Column("finding_id", String(64), primary_key=True),
    Column("run_id", Integer, ForeignKey("runs.id", ondelete="CASCADE"), nullable=False),
    Column("exported", String(40), nullable=False),
)

# `auditor trends` (auditor/trends/flags.py): each flag it raised, with the night of the
# window it judged (its last gaming day), so that a unit's flag history and the night a
# flag was first raised can be shown. Added by migration 0007.
trend_flags = Table(
    "trend_flags", metadata,
    Column("question", String(16), primary_key=True),  # outlier, change, pair
    Column("kind", String(8), primary_key=True),  # dealer, table, pair
    Column("unit", Text, primary_key=True),  # the dealer or table (a pair: its dealer)
    Column("partner", Text, primary_key=True),  # a pair's player; '' otherwise
    Column("night", String(10), primary_key=True),  # the gaming day judged up to
    Column("since", String(10)),  # a change: its first night
    Column("raised", String(40), nullable=False),  # UTC, ISO 8601: when it was recorded
)


# Each gaming day of a table an input records (its rounds there), and where that night
# begins in the record (`start`: the hour stamp, line and round ID of its first round):
# a later recording of the same table-night, the same night begun at the same round,
# supersedes the earlier one in `trends` and `incidents` (trend_reads.superseded_nights).
# `complete`: the record is whole (its table closed, or `audit --finished`). Migration 0008.
table_nights = Table(
    "table_nights", metadata,
    Column("run_id", Integer, ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True),
    Column("position", Integer, primary_key=True),
    Column("night", String(10), primary_key=True),  # the gaming day
    Column("site", Text),  # the table's licence, else its casino
    Column("table_id", Text),
    Column("start", Text, nullable=False),
    Column("rounds", BigInteger, nullable=False),
    Column("complete", Boolean, nullable=False),
    # Its first and last round (in the record's order), local date and time
    # ("2026-03-01 20:01:00", or to the millisecond as written: any length); NULL where a
    # round of the night has no time, or recorded
    # before migration 0009. A recording whose span lies within another's of the same
    # table-night (the night split in two files, audited whole too) is superseded.
    Column("first_round", Text),
    Column("last_round", Text),
)


# ---- tallies: what `auditor trends` counts from each input of a run (auditor/tally.py) ----
# Added by migration 0002. One set of rows per input (`position` in run_inputs); `item`
# numbers the rows of one input. Dates are the rounds' gaming dates (YYYY-MM-DD), the
# window `trends --since/--until` selects on.


def _tally_key() -> list[Column]:
    return [Column("run_id", Integer, ForeignKey("runs.id", ondelete="CASCADE"),
                   primary_key=True),
            Column("position", Integer, primary_key=True),
            Column("item", Integer, primary_key=True)]


tally_rounds = Table(
    "tally_rounds", metadata, *_tally_key(),
    Column("site", Text),  # the table's licence, else its casino
    Column("table_id", Text),
    Column("dealer", Text),
    Column("date", String(10), index=True),
    Column("shift", Text),
    Column("rounds", BigInteger, nullable=False),
)

tally_pairs = Table(
    "tally_pairs", metadata, *_tally_key(),
    Column("dealer", Text),
    Column("player", Text, nullable=False),
    Column("date", String(10), index=True),
    Column("rounds", BigInteger, nullable=False),  # rounds the player wagered at the dealer's
)

tally_seats = Table(
    "tally_seats", metadata, *_tally_key(),
    # Who sat at the seat a finding names (findings carry no player): joined on the
    # finding's file (run_inputs.path), line and seat.
    Column("line", Integer, nullable=False),
    Column("seat", Text, nullable=False),
    Column("player", Text, nullable=False),
)

tally_game = Table(
    "tally_game", metadata, *_tally_key(),
    Column("dealer", Text),
    Column("date", String(10), index=True),
    Column("decks", Integer),
    Column("hits_soft_17", Boolean, nullable=False),
    Column("statistic", String(20), nullable=False),  # dealer bust, dealer natural, …
    Column("up", Integer),  # the dealer's up card: 1 an ace, 10 a ten-value card
    Column("trials", BigInteger, nullable=False),
    Column("hits", BigInteger, nullable=False),
)

tally_shuffles = Table(
    "tally_shuffles", metadata, *_tally_key(),
    Column("site", Text),
    Column("table_id", Text),
    Column("shoe_id", Text),
    Column("date", String(10), index=True),
    Column("decks", Integer),
    Column("cards", Text, nullable=False),  # two characters a card, in the order dealt
    Column("lines", Text, nullable=False),  # JSON: each card's line, as steps from the last
    Column("rounds", Text, nullable=False),  # JSON: [index of a round's first card, round ID]
)
