"""A key pair, an audit of one sample log and a signed case of it: what the tests of
`verify` and `case` against hostile files start from (each makes them once per module)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from auditor.cli import main
from tests.helpers import SAMPLES

T11 = SAMPLES / "standard-t11-2026-11-20.bjh"


def made_key(factory: pytest.TempPathFactory) -> Path:
    made = factory.mktemp("keys") / "inspector"
    assert main(["keygen", str(made)]) == 0
    return made


def audited_t11(factory: pytest.TempPathFactory) -> Path:
    """The --out folder of an audit of T11, with a store of its own beside it."""
    out = factory.mktemp("run") / "out"
    assert main(["audit", str(T11), "--out", str(out), "--quiet", "--store",
                 str(out.parent / "history.sqlite")]) == 1
    return out


def signed_case(run: Path, key: Path, factory: pytest.TempPathFactory) -> Path:
    folder = factory.mktemp("case") / "case"
    assert main(["case", str(run), "--licensee", "RL-0412", "--out", str(folder), "--sign",
                 str(key)]) == 0
    return folder


def copy_of(folder: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy, symlinks=True)
    return copy
