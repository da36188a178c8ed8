"""`replay.changes.round_changes` written plainly, for tests to hold its shortcuts to: every
entity of every step made again from the step itself and compared with the step before's."""

from __future__ import annotations


def changes_made_plainly(evidence) -> dict:
    """`changes.round_changes` with nothing kept between steps: every entity of every step
    made again from the step itself."""
    from auditor.replay.changes import seated_before

    previous = seated_before(evidence)
    seated, lines = list(previous.items()), []
    for line, _ in evidence.lines:
        step = evidence.steps.get(line)
        if step is None:
            continue
        current: dict = {}
        dealer = step["dealer"]
        if dealer["cards"]:
            current["dealer"] = (tuple(dealer["cards"]), dealer["total"], dealer["revealed"])
        by_target: dict = {}
        for wager in step["wagers"]:
            by_target.setdefault(wager["target"], []).append(
                (wager["kind"], wager["tip"], wager["amount"], wager["settled"]))
        for hand in step["hands"]:
            current["hand:" + hand["hand"]] = (
                tuple(hand["cards"]), hand["total"], hand["soft"], hand["status"],
                tuple(by_target.pop(hand["hand"], ())), hand.get("doubled", ""))
        for target, items in by_target.items():
            current["hand:" + target] = ((), None, False, "", tuple(items), "")
        for seat, player in step.get("players", {}).items():
            current["seat:" + seat] = (player,)
        lines.append((line, [(key, state) for key, state in current.items()
                             if previous.get(key) != state],
                      sorted(previous.keys() - current.keys())))
        previous = current
    return {"seated": seated, "lines": lines}
