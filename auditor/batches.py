"""Items in batches: the store reads and writes them so, and findings.csv is made so.

Its own module, free of pandas and the database, because the parent imports the store
before the worker processes are forked: what it imports, each worker carries."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")


def batched(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """The items `size` at a time (the last batch may be shorter; none for no items)."""
    batch: list[T] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch
