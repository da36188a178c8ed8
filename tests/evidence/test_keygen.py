"""`auditor keygen` never writes over either half of a key pair, nor through a link, and
leaves no private key without its public one; `--sign` refuses a private key that others
may read (as ssh does). Real keys, real files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from auditor.cli import main
from tests.helpers import ROOT

RECORD = ROOT / "sample_logs" / "tensticks-t32-2026-11-21.bjh"


def said(capsys: pytest.CaptureFixture) -> list[str]:
    captured = capsys.readouterr()
    return (captured.out + captured.err).splitlines()


def keygen(key: Path, capsys: pytest.CaptureFixture) -> tuple[int, list[str]]:
    capsys.readouterr()
    status = main(["keygen", str(key)])
    return status, said(capsys)


def test_keygen_makes_a_private_and_a_public_key_and_says_so_on_two_lines(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    key = tmp_path / "inspector.key"
    old = os.umask(0)  # whatever the umask, the private key is the owner's alone
    try:
        status, lines = keygen(key, capsys)
    finally:
        os.umask(old)
    assert status == 0
    assert lines == [f"Private key: {key} (keep it secret)",
                     f"Public key: {key}.pub (give it to whoever verifies)"]
    assert key.stat().st_mode & 0o777 == 0o600
    assert key.read_bytes().startswith(b"-----BEGIN PRIVATE KEY-----")
    assert Path(f"{key}.pub").read_bytes().startswith(b"-----BEGIN PUBLIC KEY-----")


def test_neither_half_is_written_over(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    key = tmp_path / "k"
    assert keygen(key, capsys)[0] == 0
    private, public = key.read_bytes(), Path(f"{key}.pub").read_bytes()
    assert keygen(key, capsys) == (2, [f"auditor: {key} exists: a key is never overwritten "
                                       "(nor either half of a pair, nor a link)"])
    # KEY.pub alone exists (the commission's trusted key of another signer): kept, and no
    # private key is made beside it
    key.unlink()
    assert keygen(key, capsys) == (2, [f"auditor: {key}.pub exists: a key is never "
                                       "overwritten (nor either half of a pair, nor a link)"])
    assert not key.exists() and Path(f"{key}.pub").read_bytes() == public
    assert private  # (the first pair was whole)


@pytest.mark.parametrize("half", ["", ".pub"])
def test_no_half_is_written_through_a_link(tmp_path: Path, capsys: pytest.CaptureFixture,
                                           half: str) -> None:
    """A link at KEY or KEY.pub, to nothing or to a file: refused, nothing written where
    it points, no other half made."""
    key = tmp_path / "k"
    for target in (tmp_path / "nowhere", tmp_path / "victim"):
        link = Path(f"{key}{half}")
        link.symlink_to(target)
        status, lines = keygen(key, capsys)
        assert (status, lines) == (2, [f"auditor: {link} exists: a key is never "
                                       "overwritten (nor either half of a pair, nor a link)"])
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
            [link.name] + (["victim"] if target.name == "victim" else []))
        if target.name == "victim":
            assert target.read_bytes() == b"trusted"
        link.unlink()
        (tmp_path / "victim").write_bytes(b"trusted")


def test_a_public_half_that_cannot_be_written_leaves_no_private_one(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """KEY.pub a folder: refused before anything is written. KEY.pub a name one too long
    for the file system (KEY itself is not): the private key made is removed again, and
    the message names KEY.pub."""
    (tmp_path / "y.pub").mkdir()
    assert keygen(tmp_path / "y", capsys) == (2, [
        f"auditor: {tmp_path}/y.pub exists: a key is never overwritten (nor either half of "
        "a pair, nor a link)"])
    assert not (tmp_path / "y").exists()
    longest = os.pathconf(tmp_path, "PC_NAME_MAX")
    key = tmp_path / ("k" * (longest - 2))  # KEY fits, KEY.pub does not
    status, lines = keygen(key, capsys)
    assert (status, lines) == (2, [f"auditor: {key}.pub cannot be written (File name too "
                                   "long): no key was made"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["y.pub"]
    assert keygen(tmp_path / "z", capsys)[0] == 0  # and a pair can be made after


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o620])
def test_sign_refuses_a_key_others_may_read(tmp_path: Path, capsys: pytest.CaptureFixture,
                                            mode: int) -> None:
    key = tmp_path / "k"
    assert keygen(key, capsys)[0] == 0
    run = tmp_path / "run"
    assert main(["audit", str(RECORD), "--out", str(run), "--quiet"]) == 1
    key.chmod(mode)
    capsys.readouterr()
    out = tmp_path / "case"
    assert main(["case", str(run), "--licensee", "RL-0412", "--out", str(out), "--sign",
                 str(key)]) == 2
    assert said(capsys) == [f"auditor: the signing key {key} may be read or written by "
                            f"others (mode {mode:04o}): it is not used; make it the "
                            f"owner's alone (chmod 600 {key})"]
    assert not out.exists()
    key.chmod(0o400)  # the owner's alone, read-only: used
    assert main(["case", str(run), "--licensee", "RL-0412", "--out", str(out), "--sign",
                 str(key)]) == 0
    capsys.readouterr()
    assert main(["verify", str(out), "--key", f"{key}.pub"]) == 0
