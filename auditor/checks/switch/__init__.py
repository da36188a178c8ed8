"""Blackjack Switch, 20:18:15:30.09 (game=switch): a module per idea.

The standard checks 20:18:15:03, :10, :23, :24, :25, :26, :28 and :30 also run for this
game; where a fault is one of theirs and this section speaks to it too, the finding here
carries the same subject, so that only this, the more specific citation, is kept.
"""
