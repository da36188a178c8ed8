"""A replay row's entities holding hostile text (markup, quotes, an ampersand, bidi
controls), for the tests that hold a drawing of them to the template loop it replaced."""

from __future__ import annotations

from auditor.output.replay_view import Card, Entity

HOSTILE = 'P-<b>"1"</b> & \u202eevil'


def hostile_entities() -> list[Entity]:
    """The dealer, a seat's hand with hostile cards, wagers and player, and a seat left."""
    return [
        Entity("Dealer", True, [Card("10♥", "r"), Card("A♠", "d")], 21, True,
               "hole card down", []),
        Entity("s1h1", False, [Card("9♣", ""), Card(HOSTILE, "r")], 17, False,
               "stood \u2066x", ["main 25.00 · win 25.00", HOSTILE], HOSTILE),
        Entity("s2", False, [], None, False, "left", [], HOSTILE, True),
    ]
