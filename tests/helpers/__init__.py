"""What the tests share: the repository's root and folders, and helper modules beside this one
(tests/helpers/*.py), imported as `tests.helpers.NAME`."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SAMPLES = ROOT / "sample_logs"  # the sample logs: two shifts of each game
SAMPLE_FILES = sorted(SAMPLES.glob("*.bjh"))
