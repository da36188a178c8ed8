"""A replay as the report lays it out: cards as a person writes them (10♥), each hand's
wagers in words, the whole table in seat order at a fault, and in a large audit each line as
one line of aligned text. From the model's raw replay (`report.model.Replay`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, lru_cache
from operator import attrgetter
from typing import Any

from markupsafe import Markup, escape

from auditor.output.formatting import money
from auditor.report.model import FaultRef, Replay, TableEntity
from auditor.shown import neutral

_SUITS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}

# Plain slotted objects, not dicts: the template reads their attributes hundreds of thousands
# of times in a large audit, and Jinja reads an attribute much faster than a missing one.


@dataclass(slots=True, frozen=True)
class Card:
    text: str  # 10♥
    css: str  # "r" for a red suit, "d" for a hole card still face down


@dataclass(slots=True)
class Entity:
    name: str  # a hand, a seat, or "Dealer"
    dealer: bool
    cards: list[Card]
    total: int | None
    soft: bool
    status: str
    wagers: list[str]
    player: str = ""  # the player in the seat (a seat's entity; a hand's in the whole table)
    seat: bool = False  # the entity is a seat's player, not a hand or wagers
    html: str = field(default="", init=False, compare=False, repr=False)  # `entity_span`, made once


@dataclass(slots=True)
class ReplayRow:
    line: int
    time: str
    text: str
    changes: list[Entity]
    faults: list[dict[str, Any]]
    supports: list[str]
    state: list[Entity] | None  # the whole table, on a fault's line
    plain: str = ""  # the row as one line of aligned text (lean replays)
    state_lines: list[str] = field(default_factory=list)  # the whole table, as text lines


def reference(fault: FaultRef) -> dict[str, Any]:
    return {"ref": f"F-{fault.number:04d}", "id": f"f-{fault.number}",
            "citation": fault.citation, "severity": fault.severity, "message": fault.message}


def replay_view(replay: Replay, lean: bool = False) -> dict[str, Any]:
    """The replay as the templates and the page's data read it. `lean` also sets each row
    as one line of aligned text (`plain`)."""
    shown: dict[tuple[str, int], Entity] = {}  # each state drawn once

    def drawn(entity: TableEntity) -> Entity:
        found = shown.get((entity.key, id(entity.state)))
        if found is None:
            found = shown[(entity.key, id(entity.state))] = display_entity(entity.key,
                                                                           entity.state)
        if entity.left:  # a player left
            return Entity(found.name, False, [], None, False, "left", [], found.player, True)
        return found

    rows = []
    known = shown.get
    for line in replay.lines:
        # (a comprehension is a call: most rows have no fault, no support and one change)
        rows.append(ReplayRow(
            line.line, line.time, line.text,
            [known((entity.key, id(entity.state))) or drawn(entity)
             if not entity.left else drawn(entity) for entity in line.changes],
            list(map(reference, line.faults)) if line.faults else [],
            list(map("F-{:04d}".format, line.supports)) if line.supports else [],
            table_order([drawn(entity) for entity in line.state])
            if line.state is not None else None))
    if lean:
        set_plain_text(rows)
    return {"id": f"r-{replay.number}", "number": replay.number, "file": replay.file,
            "round": replay.round, "first_line": replay.first_line,
            "last_line": replay.last_line, "table": replay.table, "date": replay.date,
            "dealer": replay.dealer, "rows": rows, "text_of": {row.line: row for row in rows},
            "findings": [{"ref": f"F-{f.number:04d}", "id": f"f-{f.number}",
                          "citation": f.citation, "severity": f.severity, "line": f.line}
                         for f in replay.findings]}


def set_plain_text(rows: list[ReplayRow]) -> None:
    """Each row as one line of aligned text: line, time, statement, what changed."""
    line_width = max(map(len, map(str, map(_LINE, rows))), default=1)
    time_width = max(map(len, map(_TIME, rows)), default=0)
    text_width = min(max(map(len, map(_TEXT, rows)), default=0), 44)
    for row in rows:
        changes = "   ".join(map(entity_text, row.changes))
        row.plain = (f"{row.line:>{line_width}}  {row.time:<{time_width}}  "
                     f"{row.text:<{text_width}}  {changes}").rstrip()
        if row.state is not None:
            name_width = max((len(e.name) for e in row.state), default=0)
            row.state_lines = [f"{e.name:<{name_width}}  {entity_text(e, named=False)}"
                               for e in row.state]


def entity_text(entity: Entity, named: bool = True) -> str:
    """A hand, the dealer or a seat as text: a face-down card in parentheses."""
    parts = [entity.name] if named else []
    if entity.player:
        parts.append(f"({entity.player})" if not entity.seat else entity.player)
    cards = entity.cards
    if cards:  # (a face-down card is rare: the others by `map`, no call of Python's)
        if "d" in " ".join(map(_CSS, cards)).split():
            parts += [f"({c.text})" if "d" in c.css.split() else c.text for c in cards]
        else:
            parts += map(_TEXT, cards)
    if entity.total is not None:
        parts.append(f"{'soft ' if entity.soft else ''}{entity.total}")
    if entity.status:
        parts.append(entity.status)
    if entity.wagers:
        parts += map("[{}]".format, entity.wagers)
    return " ".join(parts)


_LINE, _TIME, _TEXT, _CSS = (attrgetter("line"), attrgetter("time"), attrgetter("text"),
                             attrgetter("css"))


def display_entity(key: str, raw: Any) -> Entity:
    """An entity as the replay shows it: a name, cards, total, status and wagers."""
    if key.startswith("seat:"):
        return Entity(key[5:], False, [], None, False, "", [], raw[0], True)
    if key == "dealer":
        codes, total, revealed = raw
        cards = list(map(card_parts, codes))
        down = not revealed and len(cards) > 1
        if down:
            cards[1] = Card(cards[1].text, (cards[1].css + " d").strip())
        return Entity("Dealer", True, cards, total, False, "hole card down" if down else "", [])
    codes, total, soft, status, wagers, doubled = raw
    # A hand's double is added to its player's main wager, never to the dealer's tip on
    # it: a tip's stake is its own amount (judging.stake_of, the auditor's reading).
    texts = [_wager_text(*wager, doubled=doubled if wager[0] == "main" and not wager[1] else "")
             for wager in wagers]
    return Entity(key.split(":", 1)[1], False, list(map(card_parts, codes)),
                  total if codes else None, soft, status, texts)


def table_order(shown: list[Entity]) -> list[Entity]:
    """The whole table: the dealer first, then seat by seat each hand with its player, seat
    wagers, and a seated player with no hand."""
    players = {e.name: e.player for e in shown if e.seat}
    entities = [e for e in shown if not e.seat]
    held = {e.name[:2] for e in entities if not e.dealer}
    entities += [e for e in shown if e.seat and e.name not in held]
    ordered = []
    for entity in sorted(entities, key=lambda e: (not e.dealer, e.name)):
        if not entity.dealer and not entity.seat:  # `replace`, written out
            entity = Entity(entity.name, False, entity.cards, entity.total, entity.soft,
                            entity.status, entity.wagers, players.get(entity.name[:2], ""))
        ordered.append(entity)
    return ordered


def entity_spans(entities: list[Entity]) -> Markup:
    """What a replay row's line changed, as `<span class="e">` elements one after another:
    the row's last cell (_replays.html.j2). Written here rather than as a loop of the
    template: a replay's rows draw tens of thousands of these, and the template yielded and
    escaped each of their dozen parts apart; an entity shared by several rows is
    drawn once."""
    return Markup(_spans(entities))


def _spans(entities: list[Entity]) -> str:
    return "".join([entity.html or entity_span(entity) for entity in entities])


def row_blocks(rows: list[ReplayRow]) -> list[tuple[Markup, ReplayRow | None]]:
    """A replay's table rows (`replay_row`) run together, a line apart, up to each row of
    a fault, which comes with them for its note (_replays.html.j2): the template's loop
    then turns once per fault, not once per row."""
    blocks: list[tuple[Markup, ReplayRow | None]] = []
    run: list[str] = []
    for row in rows:
        run.append(_row_html(row))
        if row.faults:
            blocks.append((Markup("\n".join(run)), row))
            run = []
    if run:
        blocks.append((Markup("\n".join(run)), None))
    return blocks


def replay_row(row: ReplayRow) -> Markup:
    """A replay's row as a table row (`<tr>`: line, time, statement, what it changed),
    each value shown as `{{ value }}` shows it (the time through `_shown`: it recurs, row
    after row): written here rather than in the template, which yielded and escaped each
    of its dozen parts apart."""
    return Markup(_row_html(row))


def _row_html(row: ReplayRow) -> str:
    """`replay_row` as text: `row_blocks` makes one Markup of a run of rows (markupsafe's
    `Markup` and `escape` are Python calls; escaping by `_HTML_ESCAPES` is not, and gives
    what `escape` gives for a text)."""
    marked = (f' class="fault" data-l="{row.line}"' if row.faults else
              f' class="ev" data-l="{row.line}"' if row.supports else "")
    evidence = (' <span class="evtag">evidence · ' + ", ".join(map(escape, row.supports))
                + "</span>" if row.supports else "")
    return (f"<tr{marked}><td>{row.line}</td><td>{_shown(row.time)}</td><td>"
            f"{neutral(row.text).translate(_HTML_ESCAPES)}{evidence}</td><td>"
            f"{_spans(row.changes)}</td></tr>")


# markupsafe.escape of a text, by str.translate
_HTML_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;",
                               "'": "&#39;"})


_STATE_HEAD = ('<table class="state">\n<thead><tr><th scope="col">Hand</th><th scope="col">'
               'Player</th><th scope="col">Cards</th><th scope="col">Total</th><th scope="col">'
               'Wagers</th></tr></thead>\n<tbody>\n')


def table_state(entities: list[Entity]) -> Markup:
    """The whole table at a fault's line (`<table class="state">`: a row per entity), each
    value shown as `{{ value }}` shows it: written here rather than as the template's macro,
    whose loops yielded and escaped each card and wager apart."""
    if not entities:
        return Markup('<p class="muted">Nothing on the table yet.</p>\n')
    parts = [_STATE_HEAD]
    for entity in entities:
        parts += ['<tr><th scope="row">', _shown(entity.name), '</th><td class="pl">',
                  _shown(entity.player), '</td><td class="cards">',
                  " ".join([f'<i class="{_shown(card.css)}">{_shown(card.text)}</i>'
                            if card.css else _shown(card.text) for card in entity.cards]),
                  "</td>\n<td>"]
        if entity.total is not None:
            parts += ["soft " if entity.soft else "", _shown(entity.total)]
        if entity.status:
            parts += [" <em>", _shown(entity.status), "</em>"]
        parts.append("</td>\n<td>")
        parts += [f'<span class="w">{_shown(wager)}</span> ' for wager in entity.wagers]
        parts.append("</td></tr>\n")
    parts.append("</tbody>\n</table>\n")
    return Markup("".join(parts))


def entity_span(entity: Entity) -> str:
    """One entity as the template would print it: each value shown as `{{ value }}` shows
    it (bidi controls marked, then HTML-escaped)."""
    parts = ['<span class="e dl"><b>' if entity.dealer else '<span class="e"><b>',
             _shown(entity.name), "</b>"]
    if entity.player:
        parts += [' <span class="pl">', _shown(entity.player), "</span>"]
    for card in entity.cards:
        if card.css:
            parts += [' <i class="', _shown(card.css), '">', _shown(card.text), "</i>"]
        else:
            parts += [" ", _shown(card.text)]
    if entity.total is not None:
        parts += [" <strong>soft " if entity.soft else " <strong>", _shown(entity.total),
                  "</strong>"]
    if entity.status:
        parts += [" <em>", _shown(entity.status), "</em>"]
    for wager in entity.wagers:
        parts += [' <span class="w">', _shown(wager), "</span>"]
    parts.append("</span>")
    entity.html = html = "".join(parts)
    return html


@lru_cache(maxsize=8192, typed=True)
def _shown(value: Any) -> str:
    """`{{ value }}` in the report's templates (html_report.shown_text, then autoescape).
    Cached: the same card, name and wager texts recur on every row."""
    return escape(neutral(value) if isinstance(value, str) else value)


@lru_cache(maxsize=4096)
def _wager_text(kind: str, tip: bool, amount: str, settled: str, doubled: str = "") -> str:
    """`main 25.00 + double 25.00 · lose 50.00`: the wager, and its settlement once made.
    Cached: a replay shows the same few wagers thousands of times (216 distinct in 25,000)."""
    text = f"{'tip ' if tip else ''}{kind} {money(amount)}"
    if doubled:
        text += f" + double {money(doubled)}"
    if settled:
        outcome, _, paid = settled.partition(" ")
        text += f" · {outcome} {money(paid) if paid else ''}".rstrip()
    return text


@cache
def card_parts(code: str) -> Card:
    """`Th` -> 10♥, red: the replay shows cards as a person writes them."""
    if len(code) != 2 or code[1] not in _SUITS:
        return Card(code, "")
    rank = "10" if code[0] == "T" else code[0]
    return Card(rank + _SUITS[code[1]], "r" if code[1] in "dh" else "")
