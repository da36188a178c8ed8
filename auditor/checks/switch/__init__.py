"""Blackjack Switch, 20:18:15:30.09 (game=switch), a module per idea: the table, its wagers
and deal (`table`), the super match wager (`super_match`), the main wagers' pay
(`payouts`) and the order of play (`play`); `common` holds what they share. The registry
of games (auditor/checks/games.py) lists each module.

The standard checks 20:18:15:03, :10, :23, :24, :25, :26, :28 and :30 also run for this
game; where a fault is one of theirs and this section speaks to it too, the finding here
carries the same subject, so that only this, the more specific citation, is kept.
"""
