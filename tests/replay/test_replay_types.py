"""The replay's modules type-check under mypy (issue 44: the types a compiler such as mypyc
would trust must be true: `view.dealer` a DealerHand, the handler tables' callables, a
result's words a text or a template). Skipped, with the reason, where mypy is not installed
(a test dependency, not the auditor's)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT

REPLAY_MODULES = ["engine", "view", "state", "outcomes", "round_end", "table_events",
                  "switch", "tensticks", "ladies", "under"]


def _mypy(*paths: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--follow-imports=silent", "--no-incremental",
         "--no-error-summary", "--hide-error-context", *map(str, paths)],
        cwd=ROOT, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def mypy_present() -> None:
    pytest.importorskip("mypy", reason="mypy is not installed: the replay's types unchecked")


def test_the_replay_modules_type_check(mypy_present: None) -> None:
    paths = [ROOT / "auditor" / "replay" / f"{name}.py" for name in REPLAY_MODULES]
    result = _mypy(*paths)
    assert (result.returncode, result.stdout) == (0, "")


def test_a_wrong_type_is_caught(mypy_present: None, tmp_path: Path) -> None:
    """The check can fail: the dealer's hand taken for a player's Hand, as on_deal once
    declared it, is an error."""
    wrong = tmp_path / "wrong_dealer.py"
    wrong.write_text("from auditor.replay.view import Hand, RoundView\n\n\n"
                     "def dealer_of(view: RoundView) -> Hand:\n"
                     "    return view.dealer\n")
    result = _mypy(wrong)
    assert result.returncode == 1
    assert ('wrong_dealer.py:5: error: Incompatible return value type (got "DealerHand", '
            'expected "Hand")  [return-value]') in result.stdout
