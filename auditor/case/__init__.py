"""`auditor case`: the case file of one licensee from an audited run, made for print and for
a hearing: the findings in scope as exhibits, their inputs copied beside them, a manifest
(auditor/manifest.py) that anyone can verify, optionally signed."""

EXHIBITS_AT_MOST = 500
"""Exhibits a case prints at most: over it, the case holds the summary and says how many
findings it leaves without an exhibit and how to narrow it (a case of thousands of exhibits
is no longer read, and prints for an hour)."""
