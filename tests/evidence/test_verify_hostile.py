"""`auditor verify` and the keys against hostile files: a manifest, signature, findings.json
or key swapped for a named pipe, a huge file or /dev/zero is told, never waited on nor read
whole; a manifest with a byte-order mark, bytes that are not UTF-8, a key repeated in an
object, deep nesting or a huge number is refused naming the file and what is wrong; a
signature of the wrong length, a private key given as the public one, and a signed case
whose signature was removed, each told as what it is. Real keys, real audits."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from auditor.cli import main
from tests.helpers.signed_case import T11, audited_t11, copy_of, made_key, signed_case
from tests.helpers.verifying import verify

HUGE = 1 << 40


@pytest.fixture(scope="module")
def key(tmp_path_factory) -> Path:
    return made_key(tmp_path_factory)


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    return audited_t11(tmp_path_factory)


@pytest.fixture(scope="module")
def case(run: Path, key: Path, tmp_path_factory) -> Path:
    return signed_case(run, key, tmp_path_factory)


def as_pipe(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def as_huge(path: Path) -> None:
    path.unlink()
    with open(path, "wb") as stream:
        stream.truncate(HUGE)


def test_a_manifest_that_is_a_named_pipe_is_refused_unopened_for_ever(
        case: Path, key: Path, tmp_path: Path, capsys) -> None:
    folder = copy_of(case, tmp_path)
    as_pipe(folder / "manifest.json")
    status, said = verify(folder, "--key", f"{key}.pub", capsys=capsys)
    assert status == 2, said
    assert said == (f"auditor: the manifest {folder}/manifest.json is a named pipe, not a "
                    "plain file: not read\n")


def test_a_huge_manifest_is_refused_unread(case: Path, tmp_path: Path, capsys) -> None:
    folder = copy_of(case, tmp_path)
    as_huge(folder / "manifest.json")
    status, said = verify(folder, capsys=capsys)
    assert status == 2, said
    assert said == (f"auditor: the manifest {folder}/manifest.json is larger than "
                    "268,435,456 bytes, more than any the manifest holds: not read\n")


@pytest.mark.parametrize("swap", [as_pipe, as_huge])
def test_a_findings_json_swapped_is_told_never_waited_on(case: Path, key: Path, swap,
                                                        tmp_path: Path, capsys) -> None:
    folder = copy_of(case, tmp_path)
    made = (folder / "findings.json").stat().st_size
    swap(folder / "findings.json")
    status, said = verify(folder, "--key", f"{key}.pub", capsys=capsys)
    assert status == 1, said
    told = ("output findings.json: not a plain file (a folder's files are plain files)"
            if swap is as_pipe else
            f"output findings.json: {HUGE:,} bytes, the manifest names {made:,} (edited "
            "since it was made; not read)")
    assert f"DIFFERS {told}" in said.splitlines()
    assert "missing" not in said


@pytest.mark.parametrize("content, size", [(b"A" * 4000, "4,000 bytes"),
                                           (b"QUJD\n", "5 bytes"),
                                           (None, f"{HUGE:,} bytes")])
def test_a_signature_of_the_wrong_size_is_told_by_its_size(case: Path, key: Path, content,
                                                           size: str, tmp_path: Path,
                                                           capsys) -> None:
    folder = copy_of(case, tmp_path)
    if content is None:
        as_huge(folder / "manifest.sig")
    else:
        (folder / "manifest.sig").write_bytes(content)
    status, said = verify(folder, "--key", f"{key}.pub", capsys=capsys)
    assert status == 1, said
    assert (f"DIFFERS manifest.sig: not an Ed25519 signature in base64 (a plain file of 88 "
            f"characters and a newline; this one is {size})") in said.splitlines()


def test_a_public_key_that_is_a_named_pipe_is_refused(case: Path, tmp_path: Path,
                                                      capsys) -> None:
    pipe = tmp_path / "key.pub"
    os.mkfifo(pipe)
    status, said = verify(case, "--key", str(pipe), capsys=capsys)
    assert status == 2
    assert said == f"auditor: the public key {pipe} is a named pipe, not a plain file: not read\n"


def test_dev_zero_as_a_public_key_is_refused(case: Path, capsys) -> None:
    status, said = verify(case, "--key", "/dev/zero", capsys=capsys)
    assert status == 2
    assert said == ("auditor: the public key /dev/zero is a device or socket, not a plain "
                    "file: not read\n")


def test_a_private_key_given_as_the_public_key_is_told_as_such(case: Path, key: Path,
                                                               capsys) -> None:
    status, said = verify(case, "--key", str(key), capsys=capsys)
    assert status == 2
    assert said == (f"auditor: the public key {key} is a private key: give its public half "
                    "(KEY.pub); a private key is the signer's alone, never handed to whoever "
                    "verifies\n")


def test_a_signing_key_that_is_a_pipe_or_a_public_key_is_refused_before_any_work(
        run: Path, key: Path, tmp_path: Path, capsys) -> None:
    pipe = tmp_path / "key"
    os.mkfifo(pipe)
    for given, told in ((pipe, f"the signing key {pipe} is a named pipe, not a plain file: "
                               "not read"),
                        (Path(f"{key}.pub"), f"the signing key {key}.pub is a public key: "
                                             "sign with its private half")):
        capsys.readouterr()
        out = tmp_path / "case"
        assert main(["case", str(run), "--licensee", "RL-0412", "--out", str(out), "--sign",
                     str(given)]) == 2
        assert capsys.readouterr().err == f"auditor: {told}\n"
        assert not out.exists()


def rewrite(folder: Path, data: bytes) -> None:
    (folder / "manifest.sig").unlink()
    (folder / "manifest.json").write_bytes(data)


@pytest.mark.parametrize("change, told", [
    (lambda data: b"\xef\xbb\xbf" + data,
     "begins with a byte-order mark: not JSON as this auditor writes it (UTF-8 without one)"),
    (lambda data: data.replace(b'"kind"', b'"k\xffind"', 1),
     "is not UTF-8 text (byte 0xff at offset "),
    (lambda data: data.replace(b'{\n  "format"', b'{\n  "kind": "run",\n  "format"', 1),
     'names the key "kind" twice in one object: which is meant cannot be told'),
    (lambda data: b"[" * 100000 + b"]" * 100000, "is nested too deep to be read"),
    (lambda data: data.replace(b'"format"', b'"x": ' + b"9" * 5000 + b', "format"', 1),
     "is not JSON (Exceeds the limit (4300 digits) for integer string conversion"),
    (lambda data: data[:-40], "is not JSON (line "),
])
def test_a_manifest_not_as_written_is_refused_saying_what_is_wrong(
        case: Path, change, told: str, tmp_path: Path, capsys) -> None:
    folder = copy_of(case, tmp_path)
    rewrite(folder, change((folder / "manifest.json").read_bytes()))
    status, said = verify(folder, capsys=capsys)
    assert status == 2, said
    assert said.startswith(f"auditor: {folder}/manifest.json {told}"), said
    assert said.count("\n") == 1


def test_a_signed_case_whose_signature_was_removed_differs_without_a_key(
        case: Path, tmp_path: Path, capsys) -> None:
    """The manifest names its signer; with manifest.sig gone (removed, or a case killed
    between writing its manifest and its signature) the folder is not as made: never told
    as an unsigned case that holds."""
    folder = copy_of(case, tmp_path)
    signer = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))["signer"]
    (folder / "manifest.sig").unlink()
    status, said = verify(folder, capsys=capsys)
    assert status == 1, said
    assert (f"DIFFERS manifest.sig: missing, though the manifest names its signer (key "
            f"{signer}): the signature was removed, or the case was not made whole"
            ) in said.splitlines()


@pytest.mark.parametrize("put", ["a link to nothing", "a folder", "a named pipe"])
def test_an_input_copy_replaced_is_named_once_for_what_it_is(case: Path, key: Path, put: str,
                                                            tmp_path: Path, capsys) -> None:
    folder = copy_of(case, tmp_path)
    copy = folder / "inputs" / T11.name
    copy.unlink()
    if put == "a link to nothing":
        copy.symlink_to(tmp_path / "gone.bjh")
        told = (f"a link to {tmp_path}/gone.bjh, not the folder's own file: it would not go "
                "with the folder, and a change where it points changes it")
    elif put == "a folder":
        copy.mkdir()
        told = "not a plain file (a folder's files are plain files)"
    else:
        os.mkfifo(copy)
        told = "not a plain file (a folder's files are plain files)"
    status, said = verify(folder, "--key", f"{key}.pub", capsys=capsys)
    assert status == 1, said
    about = [line for line in said.splitlines() if line.startswith("DIFFERS input")]
    assert about == [f"DIFFERS input inputs/{T11.name}: {told}"]


def test_keys_of_another_type_are_refused_as_such(case: Path, run: Path, tmp_path: Path,
                                                  capsys) -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    private = ec.generate_private_key(ec.SECP256R1())
    public_path, private_path = tmp_path / "ec.pub", tmp_path / "ec"
    public_path.write_bytes(private.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    private_path.write_bytes(private.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()))
    private_path.chmod(0o600)
    status, said = verify(case, "--key", str(public_path), capsys=capsys)
    assert (status, said) == (2, f"auditor: the public key {public_path} is not an Ed25519 "
                                 "key\n")
    link = tmp_path / "link.pub"
    link.symlink_to(public_path)  # a link is followed: the key is what it points to
    status, said = verify(case, "--key", str(link), capsys=capsys)
    assert (status, said) == (2, f"auditor: the public key {link} is not an Ed25519 key\n")
    capsys.readouterr()
    out = tmp_path / "case"
    assert main(["case", str(run), "--licensee", "RL-0412", "--out", str(out), "--sign",
                 str(private_path)]) == 2
    assert capsys.readouterr().err == (f"auditor: the signing key {private_path} is not an "
                                       "Ed25519 key\n")
    assert not out.exists()


@pytest.mark.parametrize("change, told", [
    (lambda d: d.pop("findings"), 'an object without its "findings" field'),
    (lambda d: d["inputs"][0].pop("path"), 'an object without its "path" field'),
    (lambda d: d.update(inputs=7), "its 'inputs' or 'findings' is not a list of objects"),
    (lambda d: d.update(findings=["x"]), "its 'inputs' or 'findings' is not a list of objects"),
])
def test_a_findings_json_that_is_no_audits_says_what_it_lacks(
        case: Path, change, told: str, tmp_path: Path, capsys) -> None:
    folder = copy_of(case, tmp_path)
    path = folder / "findings.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    change(document)
    path.write_text(json.dumps(document), encoding="utf-8")
    status, said = verify(folder, capsys=capsys)
    assert status == 1, said
    assert f"DIFFERS output findings.json: not the findings of an audit ({told})" in said
