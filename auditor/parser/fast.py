"""The fast paths: regular expressions that read the common statements in one step.

Each is the grammar's reading, written for Python's regex engine, and held to Lark's by
tests/parsing/test_fast_paths.py. `_line_patterns`: a whole line as the grammar reads it, made of
the grammar's own statement terminals as Lark compiled them (`grammar_terminals`, kept in
the user's cache so that Lark is not loaded to make them); its event is built by the
builders. `_round_pattern`: a round's own statement with sound values (nearly every line)
checked and its fields captured by one match, its event built from the match.
`_run_patterns`: a run of such lines, written with single spaces, checked by one match, each
line's words then taken by `str.split`. The builders of their events are here too, each
tied to its pattern's groups or words. Which line takes which path is the batches'.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import fields as dataclass_fields
from decimal import Decimal
from functools import cache
from typing import Any

from auditor import events as ev
from auditor.parser.builders import _BUILDERS
from auditor.parser.grammar import grammar_text, lark_parser

_FREQUENT = ("DEAL", "SETTLE", "BET", "HIT", "STAND", "DRAW", "REVEAL", "END", "ROUND",
             "DOUBLE", "PEEK", "SPLIT", "LIGHT", "TRADE", "SIT", "LEAVE", "DISCARD", "TUCK")


@cache
def _line_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A whole line as the grammar reads it, from the grammar's own terminals.

    The lexer sees a line as: blanks, an optional TIME, blanks, one statement terminal,
    blanks, an optional comment (`%ignore` blanks and COMMENT; `_line: (TIME? _statement)?`).
    The statement terminals are taken as Lark compiled them, one named group each, so a
    line matches exactly when the grammar would read it as one statement, and the group
    holds the token's text. The second pattern is a line with no statement at all.
    """
    terminals = grammar_terminals()
    # No two statement terminals match the same text (each begins with its own keyword,
    # and `_EOS` keeps `cut` from reading `cutcard`), so the order of the alternatives
    # changes only the speed: the statements of every round come first.
    names = sorted(_BUILDERS, key=lambda name: (name not in _FREQUENT,
                                                _FREQUENT.index(name) if name in _FREQUENT
                                                else 0))
    statements = "|".join(f"(?P<{name}>{terminals[name]})" for name in names)
    comment = terminals["COMMENT"]
    line = re.compile(rf"[ \t]*(?:(?P<TIME>{terminals['TIME']})[ \t]*)?(?:{statements})"
                      rf"[ \t]*(?:{comment})?\Z")
    empty = re.compile(rf"[ \t]*(?:{comment})?\Z")
    return line, empty


def grammar_terminals() -> dict[str, str]:
    """The grammar's terminals as Lark compiles them, as regular expressions.

    Building the Lark parser to derive them costs about 0.1 s per process, and most
    records never need the parser itself (only a line the fast path cannot read goes
    through Lark): they are kept in the user's cache (auditor/cache.py) under a hash of the
    grammar and Lark's release, and derived from the parser only when not found there.
    Lark's release is told by the text of its `__init__.py` (which holds its
    `__version__`), read without importing Lark: a clean record never loads it."""
    from auditor.cache import key_of, private_folder, read_json, write_json

    folder = private_folder("grammar")
    path = None if folder is None else \
        folder / f"terminals-{key_of(grammar_text(), _lark_release())}.json"
    needed = {*_BUILDERS, "TIME", "COMMENT"}
    found = None if path is None else read_json(path)
    if isinstance(found, dict) and needed <= found.keys() \
            and all(isinstance(value, str) for value in found.values()):
        return found
    terminals = {t.name: t.pattern.to_regexp() for t in lark_parser().terminals}
    if path is not None:
        write_json(path, terminals)
    return terminals


def _lark_release() -> str:
    """The text of Lark's `__init__.py` (its `__version__` is there), found without
    importing Lark; "" when it cannot be read (the terminals are then keyed by the grammar
    alone, and Lark's absence is told when the parser is built)."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("lark")
        with open(spec.origin, encoding="utf-8") as file:  # type: ignore[union-attr]
            return file.read()
    except (ImportError, AttributeError, TypeError, OSError, ValueError):
        return ""


# ---- the statements of a round, read in one step ----
#
# Nearly every line is one of a round's own statements with sound values. For those, one
# regular expression both checks the line and captures its fields, so the event is built
# from the match with no splitting of words and no `implausible` call. It accepts only
# lines the grammar reads the same way with values `implausible` passes: the field
# patterns are the grammar's (tests/parsing/test_fast_paths.py holds them to grammars/bjh.lark),
# except two that are narrowed to sound values, the time stamp to a real time of day and an
# amount to at most 15 digits before its point (under MAX_AMOUNT). Any other line takes
# the general path below, which reads it, or says what is wrong, exactly as before.

#
# Written for the regex engine: every alternation an atomic group `(?>…|…)`, every repeat
# possessive, an optional part `(?>X|)`. A field is always followed by a blank, a comment
# or the line's end, none of which a field can hold, so a field matches one span of the
# line in one way only and giving up backtracking changes nothing read; the engine then
# keeps no state for the alternatives it passed (tests/parsing/test_fast_paths.py holds each field
# to the grammar's words).
ROUND_FIELDS: dict[str, str] = {
    "TARGET": r"(?>s[1-9](?>h[1-9][0-9]*+|)|dealer)",
    "HAND": r"s[1-9]h[1-9][0-9]*+",
    "SEAT": r"s[1-9]",
    "CARD": r"[A2-9TJQK][cdhs]",
    "WAGER_KIND": r"(?>supermatch|insurance|ladies|main|db21)",
    "OUTCOME": r"(?>lose|push|void|win)",
    "ID": r"[A-Za-z0-9][A-Za-z0-9_.\-]*+",
}
SOUND_AMOUNT = r"[0-9]{1,15}+(?>\.[0-9]{1,2}+|)"
SOUND_CLOCK = r"(?>[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?>\.[0-9]{1,3}+|)"

# terminal: (keyword, fields, whether a last `tip` may follow), most frequent first
ROUND_STATEMENTS: dict[str, tuple[str, tuple[str, ...], bool]] = {
    "DEAL": ("deal", ("TARGET", "CARD"), False),
    "SETTLE": ("settle", ("TARGET", "WAGER_KIND", "OUTCOME", "AMOUNT"), True),
    "BET": ("bet", ("TARGET", "WAGER_KIND", "AMOUNT"), True),
    "STAND": ("stand", ("HAND",), False),
    "HIT": ("hit", ("HAND", "CARD"), False),
    "END": ("end", (), False),
    "REVEAL": ("reveal", (), False),
    "DRAW": ("draw", ("CARD",), False),
    "DOUBLE": ("double", ("HAND", "AMOUNT", "CARD"), False),
    "PEEK": ("peek", (), False),
    "DISCARD": ("discard", ("HAND",), False),
    "SWITCH": ("switch", ("SEAT",), False),
    "SPLIT": ("split", ("HAND", "HAND", "AMOUNT"), False),
    "TUCK": ("tuck", ("HAND",), False),
    "SURRENDER": ("surrender", ("HAND",), False),
    "TRADE": ("trade", ("TARGET", "CARD"), False),
    "MISDEAL": ("misdeal", ("TARGET",), False),
    # between rounds: read in one step too (the reader places them)
    "SHUFFLE": ("shuffle", (), False),
    "CUTCARD": ("cutcard", (), False),
    "CUT": ("cut", (), False),
    "BURN": ("burn", ("CARD",), False),
    "DEALER": ("dealer", ("ID",), False),
}

_AMOUNT_CACHE: dict[str, Decimal] = {}


def _amount(text: str) -> Decimal:
    """A Decimal per amount text, shared (a Decimal never changes): a table's few stakes
    recur on most lines, and a look-up costs a fifth of building one."""
    value = _AMOUNT_CACHE.get(text)
    if value is None:
        if len(_AMOUNT_CACHE) >= 4096:
            _AMOUNT_CACHE.clear()
        value = _AMOUNT_CACHE[text] = Decimal(text)
    return value


def _round_builder(name: str, at: list[int], tipped: bool = False
                   ) -> Callable[[int, re.Match[str]], ev.Event]:
    """Build `name`'s event from a match: `at` holds its fields' group numbers; group 1 is
    the time stamp; `tipped`: whether the line ends in `tip` (bet and settle have one
    builder for each, the last group a match closes telling which).

    The event is made by `object.__new__` and its fields set here, in one Python frame
    rather than two (a builder calling the dataclass's `__init__`): the builder is most of
    the reading's cost per line. Every field of the class is set (tests/parsing/test_fast_paths.py
    compares each event with Lark's, field by field)."""
    cls = _EVENT_CLASSES[name]
    new = object.__new__
    known = _AMOUNT_CACHE.get  # `or`: a miss (or a zero) builds it
    if name == "BET":
        a, b, c = at

        def bet(n: int, m: re.Match[str]) -> ev.Event:
            e = new(cls)
            e.line = n
            e.time = m[1]
            e.target = m[a]
            e.kind = m[b]
            e.amount = known(m[c]) or _amount(m[c])
            e.tip = tipped
            return e

        return bet
    if name == "SETTLE":
        a, b, c, d = at

        def settle(n: int, m: re.Match[str]) -> ev.Event:
            e = new(cls)
            e.line = n
            e.time = m[1]
            e.target = m[a]
            e.kind = m[b]
            e.outcome = m[c]
            e.amount = known(m[d]) or _amount(m[d])
            e.tip = tipped
            return e

        return settle
    return _indexed_builder(name, at, 1)


def _indexed_builder(name: str, at: Sequence[int], time_at: int | None
                     ) -> Callable[[int, Any], ev.Event]:
    """Build `name`'s event (any round statement but bet, settle and round, whose `tip` or
    fields each source reads its own way) from what holds its fields by integer index: a
    match's groups (`_round_builder`: the time stamp is group 1) or a checked line's words
    (`_words_builder`: word 0, or no time stamp). `at` holds its fields' indices in the
    order the round pattern reads them; `time_at` the time stamp's, or None.

    The event is made by `object.__new__` and every field of its class set here, in one
    frame (see `_round_builder`)."""
    cls = _EVENT_CLASSES[name]
    new = object.__new__
    known = _AMOUNT_CACHE.get  # `or`: a miss (or a zero) builds it
    t = time_at
    if name == "DOUBLE":
        a, b, c = at

        def double(n: int, x: Any) -> ev.Event:
            e = new(cls)
            e.line = n
            e.time = x[t] if t is not None else None
            e.hand = x[a]
            e.amount = known(x[b]) or _amount(x[b])
            e.card = x[c]
            return e

        return double
    if name == "SPLIT":
        a, b, c = at

        def split(n: int, x: Any) -> ev.Event:
            e = new(cls)
            e.line = n
            e.time = x[t] if t is not None else None
            e.hand = x[a]
            e.new_hand = x[b]
            e.amount = known(x[c]) or _amount(x[c])
            return e

        return split
    fields = [f.name for f in dataclass_fields(cls)][2:]
    if not at:
        def bare(n: int, x: Any) -> ev.Event:
            e = new(cls)
            e.line = n
            e.time = x[t] if t is not None else None
            return e

        return bare
    if fields == ["target", "card"]:
        a, b = at

        def target_card(n: int, x: Any) -> ev.Event:
            e = new(cls)
            e.line = n
            e.time = x[t] if t is not None else None
            e.target = x[a]
            e.card = x[b]
            return e

        return target_card
    if fields == ["hand", "card"]:
        a, b = at

        def hand_card(n: int, x: Any) -> ev.Event:
            e = new(cls)
            e.line = n
            e.time = x[t] if t is not None else None
            e.hand = x[a]
            e.card = x[b]
            return e

        return hand_card
    # one field, by its name
    a, = at
    field_name, = fields
    if field_name == "hand":
        def hand(n: int, x: Any) -> ev.Event:
            e = new(cls)
            e.line = n
            e.time = x[t] if t is not None else None
            e.hand = x[a]
            return e

        return hand
    if field_name == "card":
        def card(n: int, x: Any) -> ev.Event:
            e = new(cls)
            e.line = n
            e.time = x[t] if t is not None else None
            e.card = x[a]
            return e

        return card
    if field_name == "dealer_id":
        def dealer(n: int, x: Any) -> ev.Event:
            e = new(cls)
            e.line = n
            e.time = x[t] if t is not None else None
            e.dealer_id = x[a]
            return e

        return dealer
    if field_name == "seat":
        def seat(n: int, x: Any) -> ev.Event:
            e = new(cls)
            e.line = n
            e.time = x[t] if t is not None else None
            e.seat = x[a]
            return e

        return seat
    assert field_name == "target", name
    return lambda n, x: cls(n, x[t] if t is not None else None, x[a])  # misdeal: rare


_EVENT_CLASSES: dict[str, type] = {
    "DEAL": ev.Deal, "SETTLE": ev.Settle, "BET": ev.Bet, "STAND": ev.Stand, "HIT": ev.Hit,
    "END": ev.RoundEnd, "REVEAL": ev.Reveal, "DRAW": ev.Draw, "DOUBLE": ev.Double,
    "PEEK": ev.Peek, "DISCARD": ev.Discard, "SWITCH": ev.Switch, "SPLIT": ev.Split,
    "TUCK": ev.Tuck, "SURRENDER": ev.Surrender, "TRADE": ev.Trade, "MISDEAL": ev.Misdeal,
    "SHUFFLE": ev.Shuffle, "CUTCARD": ev.CutCard, "CUT": ev.Cut, "BURN": ev.Burn,
    "DEALER": ev.DealerChange,
}


# Statements of one shape, all rare, that share one alternative of the round pattern: the
# keyword, captured, tells the class (one more substring for a few lines, two or three
# groups fewer for every match).
_SHARED_ALTERNATIVES: dict[str, tuple[str, ...]] = {
    "END": ("END", "REVEAL", "PEEK", "SHUFFLE", "CUTCARD", "CUT"),  # `cutcard` before `cut`
    "DISCARD": ("DISCARD", "TUCK", "SURRENDER"),
}


@cache
def _round_pattern() -> tuple[re.Pattern[str], list[Callable[[int, re.Match[str]], ev.Event]]]:
    """One pattern for a whole line holding a round's statement with sound values, and the
    builders of its events by `lastindex`: the last group a match closes tells which
    statement matched. That is the group of its last field, a group of its own where a
    last `tip` follows, or the captured keyword of statements sharing an alternative: no
    more groups than that, as every match copies every group's bounds."""
    fields = {**ROUND_FIELDS, "AMOUNT": SOUND_AMOUNT}
    builders: list = [None, None]  # group 1 is the time stamp
    alternatives = []
    group = 1

    def place(at_group: int, builder: Callable[[int, re.Match[str]], ev.Event]) -> None:
        builders.extend([None] * (at_group + 1 - len(builders)))
        builders[at_group] = builder

    shared = {name for names in _SHARED_ALTERNATIVES.values() for name in names}
    for name, (keyword, names, tip) in ROUND_STATEMENTS.items():
        members = _SHARED_ALTERNATIVES.get(name)
        if members is None and name in shared:
            continue  # read by the alternative of its first member
        at = []
        if members is not None:
            group += 1
            at.append(group)
            parts = ["((?>" + "|".join(ROUND_STATEMENTS[m][0] for m in members) + "))"]
        else:
            parts = [keyword]
        for field_name in names:
            group += 1
            at.append(group)
            parts.append(rf"[ \t]++({fields[field_name]})")
        if members is not None:
            place(group, _shared_builder(members, at))
        elif tip:  # its amount's group last without `tip`, an empty group after `tip`
            place(group, _round_builder(name, at, tipped=False))
            group += 1
            parts.append(r"(?>[ \t]++tip()|)")
            place(group, _round_builder(name, at, tipped=True))
        else:
            place(group, _round_builder(name, at))
        alternatives.append("".join(parts))
    # `round ID [time=HH:MM:SS] [dealer=ID]`, in that order, each at most once, as a record
    # opens a round: what the general path's pairs give. A date (checked as a calendar
    # date there), another order or a repeated field takes the general path. Whichever
    # of its three groups closes last, one builder reads them all.
    ident = fields["ID"]
    alternatives.append(rf"round[ \t]++({ident})(?>[ \t]++time=({SOUND_CLOCK})|)"
                        rf"(?>[ \t]++dealer=({ident})|)")
    a, b, c = group + 1, group + 2, group + 3

    def round_start(n: int, m: re.Match[str]) -> ev.Event:
        return ev.RoundStart(n, m[1], m[a], None, m[b], m[c])

    for at_group in (a, b, c):
        place(at_group, round_start)
    # Written for the regex engine's speed, the same reading: blanks taken possessively (no
    # field begins with one); `(?>X|)` for an optional part; the end of the line tried
    # first. The grammar's `_EOS` is implied: a statement must be followed by blanks, a
    # comment or the end of the line. The keywords differ, so one alternative at most
    # reads a line: the alternation is atomic.
    pattern = re.compile(rf"[ \t]*+(?>({SOUND_CLOCK})[ \t]*+|)(?>{'|'.join(alternatives)})"
                         r"(?>\Z|[ \t]*+(?>#[^\r\n]*+|)\Z)")
    assert pattern.groups == c
    return pattern, builders


def _shared_builder(members: tuple[str, ...], at: list[int]
                    ) -> Callable[[int, re.Match[str]], ev.Event]:
    """The builder of statements sharing an alternative (`_SHARED_ALTERNATIVES`): the
    captured keyword (group `at[0]`) tells the class; then no field, or one hand."""
    classes = {ROUND_STATEMENTS[name][0]: _EVENT_CLASSES[name] for name in members}
    new = object.__new__
    if len(at) == 1:
        k, = at

        def bare(n: int, m: re.Match[str]) -> ev.Event:
            e = new(classes[m[k]])
            e.line = n
            e.time = m[1]
            return e

        return bare
    k, h = at
    assert all(ROUND_STATEMENTS[name][1] == ("HAND",) for name in members)

    def hand(n: int, m: re.Match[str]) -> ev.Event:
        e = new(classes[m[k]])
        e.line = n
        e.time = m[1]
        e.hand = m[h]
        return e

    return hand


# ---- runs of lines checked by one match, each line's words taken by `str.split` ----
#
# The round pattern above, matched line by line, costs a call, a match object (32 groups'
# bounds, over pymalloc's limit) and a method call per field taken from it. Instead, a
# batch's lines (joined, each ended by a newline) are checked a run at a time: one match
# of a pattern that repeats "a sound round statement, then a newline" reads as many lines
# as it can, exactly as the round pattern reads them but with no comment, and with a time
# stamp before every line (one pattern) or before none (the other). A line either reads
# holds only its statement's words, each a field the pattern checked, between blanks
# (space or tab, no other white space): `str.split` gives them, the keyword (the first
# word, or the second after a time stamp) tells the builder, and no Python step is taken
# per line but the builder's. A line neither reads is read one by one, as before.


def _words_builder(name: str, timed: bool) -> Callable[[int, list[str]], ev.Event]:
    """Build `name`'s event from a checked line's words: [time stamp,] keyword, fields.

    As `_round_builder`, the event is made by `object.__new__` and every field of its
    class set here (tests/parsing/test_fast_paths.py compares each event with Lark's)."""
    cls = _EVENT_CLASSES.get(name, ev.RoundStart)
    new = object.__new__
    known = _AMOUNT_CACHE.get  # `or`: a miss (or a zero) builds it
    a = 2 if timed else 1  # the first field's word
    b, c, d = a + 1, a + 2, a + 3
    if name == "BET":
        tipped = c + 2  # the number of words of a bet with `tip`

        def bet(n: int, w: list[str]) -> ev.Event:
            e = new(cls)
            e.line = n
            e.time = w[0] if timed else None
            e.target = w[a]
            e.kind = w[b]
            e.amount = known(w[c]) or _amount(w[c])
            e.tip = len(w) == tipped
            return e

        return bet
    if name == "SETTLE":
        tipped = d + 2

        def settle(n: int, w: list[str]) -> ev.Event:
            e = new(cls)
            e.line = n
            e.time = w[0] if timed else None
            e.target = w[a]
            e.kind = w[b]
            e.outcome = w[c]
            e.amount = known(w[d]) or _amount(w[d])
            e.tip = len(w) == tipped
            return e

        return settle
    if name == "ROUND":
        def round_start(n: int, w: list[str]) -> ev.Event:
            # round ID [time=HH:MM:SS] [dealer=ID], in that order (an ID holds no `=`)
            clock = dealer = None
            for word in w[b:]:
                if word[0] == "t":
                    clock = word[5:]
                else:
                    dealer = word[7:]
            return ev.RoundStart(n, w[0] if timed else None, w[a], None, clock, dealer)

        return round_start
    fields = ROUND_STATEMENTS[name][1]  # in the order the line holds them
    return _indexed_builder(name, range(a, a + len(fields)), 0 if timed else None)


@cache
def _run_patterns() -> tuple[re.Pattern[str], re.Pattern[str],
                             dict[str, Callable[[int, list[str]], ev.Event]],
                             dict[str, Callable[[int, list[str]], ev.Event]]]:
    """The patterns of a run of lines with a time stamp each and of a run with none (each
    line ended by a newline), and the builders of their events by keyword.

    A line is one the round pattern (`_round_pattern`) reads, written as records write
    it: its words parted by one space, no blank before the first or after the last, no
    comment. Any other line (a tab, two spaces, a comment...) is read one by one, as
    before. Each repeat is possessive: a match ends after the last whole line read, never
    inside a line."""
    fields = {**ROUND_FIELDS, "AMOUNT": SOUND_AMOUNT}
    alternatives = []
    timed: dict[str, Callable[[int, list[str]], ev.Event]] = {}
    untimed: dict[str, Callable[[int, list[str]], ev.Event]] = {}
    for name, (keyword, names, tip) in ROUND_STATEMENTS.items():
        parts = [keyword]
        parts.extend(f" {fields[field_name]}" for field_name in names)
        if tip:
            parts.append("(?: tip|)")
        alternatives.append("".join(parts))
        timed[keyword] = _words_builder(name, timed=True)
        untimed[keyword] = _words_builder(name, timed=False)
    ident = fields["ID"]
    alternatives.append(rf"round {ident}(?: time={SOUND_CLOCK}|)(?: dealer={ident}|)")
    timed["round"] = _words_builder("ROUND", timed=True)
    untimed["round"] = _words_builder("ROUND", timed=False)
    # Its groups not atomic (measurably cheaper than atomic ones here, where the repeat
    # is possessive): what a line reads is the same, as each field ends
    # at a space or the line's end, which no field holds, and the keywords differ. A
    # literal space rather than `[ \t]++` (a call of the engine's count each): about 300.
    statement = rf"(?:{'|'.join(alternatives)})\n".replace("(?>", "(?:")
    clock = SOUND_CLOCK.replace("(?>", "(?:")
    timed_run = re.compile(rf"(?:{clock} {statement})*+")
    untimed_run = re.compile(rf"(?:{statement})*+")
    assert timed_run.groups == untimed_run.groups == 0
    return timed_run, untimed_run, timed, untimed
