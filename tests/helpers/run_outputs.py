"""The four outputs of an audit, and what differs between two runs of the same audit."""

from __future__ import annotations

import re

OUTPUTS = ("findings.json", "findings.csv", "summary.csv", "report.html")
# What differs between two runs of the same audit: when it ran and where it wrote.
RUN_CLOCK = re.compile(r'"(started|finished|command)": "[^"]*"'
                       r"|\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\+00:00| UTC)"
                       r"|\(\d+ s\)|--out \S+|--jobs \d+")
