"""A run's stored replays read back: where each round is, at once; the rest (its lines and
changes for the report, every step for a case file) only when it is shown."""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, bindparam, select

import auditor.store.schema as schema
from auditor.replay.changes import read_back
from auditor.replay.trace import RoundEvidence
from auditor.store.engine import reading

# A replay whose JSON is longer than this is read with its shared entries (_SharedEntries);
# a shorter one, read one at a time (the report holds one while it draws it), stays small
# without them, and their hook in Python costs four times the decoding.
_SHARED_OVER = 1 << 20


class _SharedEntries:
    """A JSON object hook that gives equal objects one Python object, as the replay had them
    before it was stored: a step shares with the step before it every hand, wager and seat
    that did not change (`Snapshots`). Read back without it, a long replay takes ten times
    the memory. Objects are compared by their items, nested objects by identity (they were
    made one already) and lists by their contents."""

    def __init__(self) -> None:
        self.seen: dict[tuple, dict[str, Any]] = {}

    def __call__(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        key = tuple((name, self._key(value)) for name, value in pairs)
        found = self.seen.get(key)
        if found is None:
            found = self.seen[key] = dict(pairs)
        return found

    def _key(self, value: Any) -> Any:
        if isinstance(value, dict):
            return ("object", id(value))
        if isinstance(value, list):
            return ("list", *map(self._key, value))
        return value


@dataclass(frozen=True)
class StoredReplay:
    """A stored replay as a run is read back: where its round is. A night records hundreds
    of replays, a month thousands, and the report shows a few hundred
    (report/replays.py): only those are read again, the report's without their steps
    (`shown`), the case file's whole (`whole`), so memory does not grow with the replays a
    run recorded."""

    file: str
    round_id: str
    start_line: int
    last_line: int | None
    key: str
    reader: _ReplayReader
    # what the report shows of it, as this process recorded it (`load_result`)
    known: RoundEvidence | None = None

    @classmethod
    def recorded(cls, key: str, shown: RoundEvidence, reader: _ReplayReader) -> StoredReplay:
        return cls(shown.file, shown.round_id, shown.start_line, shown.last_line, key,
                   reader, shown)

    @classmethod
    def of(cls, key: str, document: bytes, reader: _ReplayReader) -> StoredReplay:
        text = zlib.decompress(document)
        # Where the round is stands before its steps, the bulk of the document (see
        # _evidence_document): only that part is decoded. No JSON string can hold the
        # bytes `,"steps":` (its quotes would be escaped), so the first is the key.
        steps = text.find(b',"steps":')
        found = json.loads(text[:steps] + b"}" if steps > 0 else text)
        lines = found["lines"]
        return cls(found["file"], found["round_id"], found["start_line"],
                   lines[-1][0] if lines else None, key, reader)

    def whole(self) -> RoundEvidence:
        return _whole(zlib.decompress(self.reader.document(self.key)))

    def changes(self) -> dict[str, Any]:
        return self.shown().changes()

    def shown(self) -> RoundEvidence:
        """The round's lines and what each changed (`replay.changes`), the steps not read: a
        replay stored before the changes were is read whole, its changes made from it."""
        if self.known is not None:
            return self.known
        text = zlib.decompress(self.reader.document(self.key))
        # No JSON string holds `,"steps":` or `,"changes":` (its quotes would be escaped):
        # the first is the key of the steps, and the last the key of the changes, which
        # come after them and hold no object.
        steps, changes = text.find(b',"steps":'), text.rfind(b',"changes":')
        if steps < 0 or changes < steps:
            return _whole(text)
        found = json.loads(text[:steps] + b"}")
        found["steps"] = {}
        evidence = _evidence(found)
        evidence.recorded_changes = read_back(json.loads(b"{" + text[changes + 1:])["changes"])
        return evidence


def _whole(text: bytes) -> RoundEvidence:
    if len(text) <= _SHARED_OVER:  # the common replay: read at the decoder's speed
        return _evidence(json.loads(text))
    return _evidence(json.loads(text, object_pairs_hook=_SharedEntries()))


class _ReplayReader:
    """Reads one stored replay of a run again, by its round key."""

    def __init__(self, engine: Engine, run_id: int) -> None:
        self.engine, self.run_id = engine, run_id
        replays = schema.replays
        self.select = select(replays.c.document).where(  # made once: hundreds are read
            replays.c.run_id == run_id, replays.c.round_key == bindparam("key"))

    def document(self, key: str) -> bytes:
        with reading(self.engine).connect() as connection:
            return connection.execute(self.select, {"key": key}).scalar_one()


def _evidence(document: dict[str, Any]) -> RoundEvidence:
    return RoundEvidence(document["file"], document["round_id"], document["start_line"],
                         [(number, text) for number, text in document["lines"]],
                         {int(line): step for line, step in document["steps"].items()})
