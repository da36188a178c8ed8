import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """../shared beside the checkout (the specs and regulations); skipped where absent."""
    for candidate in (ROOT.parent / "shared", ROOT.parent.parent / "shared"):
        if (candidate / "spec").is_dir():
            return candidate
    pytest.skip("../shared is not beside the checkout")
