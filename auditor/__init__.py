"""The blackjack compliance auditor: BJH hand histories against S.D. Admin. R. 20:18:15."""

__version__ = "0.1.0"
