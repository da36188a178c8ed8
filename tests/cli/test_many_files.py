"""Many small files on several jobs: the work of handing files to the pool grows with the
number of files, not with its square (probe R01: 30,000 files took 4.1 × the time of
10,000).

Counted, not timed: every call of `concurrent.futures.wait` looks at each future it is
given, so the futures it is given, summed over the run, are the pool's bookkeeping. With
every file submitted at once that sum grew as the square of the files; with a window of
tasks in flight it is at most the window per file. (bench/many_files.py times the two
sizes.)
"""

from __future__ import annotations

from concurrent import futures
from pathlib import Path

import pytest

from auditor import tasks
from auditor.simulate import simulate, table_spec

FILES = 48


@pytest.fixture(scope="module")
def small_files(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    folder = tmp_path_factory.mktemp("many")
    result = simulate(folder, table_spec("standard"), tables=FILES, rounds=2, seed="many")
    return sorted(str(path) for path in result.files)


def test_futures_looked_at_grow_linearly(small_files: list[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    looked_at: list[int] = []

    def counting_wait(pending, **options):
        looked_at.append(len(pending))
        return futures.wait(pending, **options)

    monkeypatch.setattr(tasks, "wait", counting_wait)
    places = [place for place, _ in tasks.audit_in_pools(small_files, 2)]
    assert sorted(places) == list(range(FILES))  # every file, once
    window = 2 * tasks.IN_FLIGHT_PER_JOB
    assert max(looked_at) <= window
    assert sum(looked_at) <= FILES * window  # all at once: about FILES² / 2 (1,152)


def test_every_file_audited_as_alone(small_files: list[str]) -> None:
    """The window changes only when files are handed over, never what is found."""
    from auditor.audit import audit_file

    pooled = dict(tasks.audit_in_pools(small_files, 2))
    for place, path in enumerate(small_files):
        alone = audit_file(path)
        assert pooled[place].summary == alone.summary
        assert pooled[place].findings == alone.findings
    assert Path(small_files[0]).exists()
