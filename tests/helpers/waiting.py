"""Waiting for an event rather than for a time: a condition asked again and again until it
holds, with a deadline generous enough for a loaded machine (a test that waited a fixed
time and then asserted failed whenever the machine was slower than its guess)."""

from __future__ import annotations

import time
from collections.abc import Callable

WITHIN = 60.0  # seconds: only a fault waits this long; an event on time ends the wait at once


def until(condition: Callable[[], object], within: float = WITHIN, what: str = "") -> None:
    """Return once `condition()` is true; fail the test after `within` seconds."""
    deadline = time.monotonic() + within
    while not condition():
        assert time.monotonic() < deadline, f"waited {within:g} s for {what or 'an event'}"
        time.sleep(0.02)
