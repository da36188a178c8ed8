"""Manifests: what a run folder or a case file was made from and of, by SHA-256, so anyone
holding the folder can check it (`auditor verify DIR`), and optionally sign it (Ed25519).

`manifest.json` names the auditor, the rule base (the SHA-256 of its files), every input
(its SHA-256; where it lies, or its copy in the folder), every output (its SHA-256) and the
scope the findings were taken in. Verifying hashes each again, audits the inputs again and
compares the findings found with the folder's `findings.json`; a signature (`manifest.sig`,
over the bytes of `manifest.json`) is checked with the signer's public key.

A key pair: `auditor keygen KEY` (KEY and KEY.pub, PEM), or with OpenSSL
`openssl genpkey -algorithm ed25519 -out KEY && openssl pkey -in KEY -pubout -out KEY.pub`.
"""

from __future__ import annotations

import base64
import errno
import hashlib
import json
import os
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import Any, BinaryIO

from auditor import __version__
from auditor.resources import data_dir
from auditor.shown import visible

MANIFEST = "manifest.json"
SIGNATURE = "manifest.sig"
FORMAT = "bjh-manifest/1"


class ManifestError(Exception):
    """A manifest, key or signature that cannot be read or used (exit 2)."""


def sha256_of(path: str | Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def hashed(path: str | Path, size: int | None = None) -> tuple[str, int]:
    """The SHA-256 of the file at `path` and the bytes it was taken over: with `size`, at
    most `size` + 1 bytes are read (a count over `size` says the file is larger than named,
    however large it is; a file swapped for a huge one is never read to its end)."""
    digest, count = hashlib.sha256(), 0
    left = None if size is None else size + 1
    with _opened_plain(path, "the file") as stream:
        while left is None or left > 0:
            block = stream.read(1 << 20 if left is None else min(1 << 20, left))
            if not block:
                break
            digest.update(block)
            count += len(block)
            if left is not None:
                left -= len(block)
    return digest.hexdigest(), count


# The most a file of a folder or a key is read to, beyond any this auditor writes: a file
# swapped for a huge one (or /dev/zero) is refused, never read into memory whole.
MANIFEST_AT_MOST = 256 << 20
KEY_AT_MOST = 64 << 10
SIGNATURE_AT_MOST = 1 << 10  # an Ed25519 signature in base64 is 88 characters and a newline


def _opened_plain(path: str | Path, what: str) -> BinaryIO:
    """The plain file at `path` opened to read, without waiting on a named pipe: one in
    its place (or a device, a folder) is refused, ManifestError naming it as `what`."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as error:
        raise ManifestError(f"{what} {path} cannot be read ({error.strerror})") from None
    stream = os.fdopen(descriptor, "rb")
    mode = os.fstat(descriptor).st_mode
    if not stat.S_ISREG(mode):
        stream.close()
        kind = ("a folder" if stat.S_ISDIR(mode) else "a named pipe"
                if stat.S_ISFIFO(mode) else "a device or socket")
        raise ManifestError(f"{what} {path} is {kind}, not a plain file: not read")
    os.set_blocking(descriptor, True)
    return stream


def read_plain(path: str | Path, at_most: int | None, what: str) -> bytes:
    """The bytes of the plain file at `path`, `what` it is called in a refusal: never a
    named pipe or a device (opened without waiting, told by the file opened, so one put in
    its place meanwhile is told too), never more than `at_most` bytes (None: no limit).
    ManifestError says which file and why."""
    with _opened_plain(path, what) as stream:
        data = stream.read() if at_most is None else stream.read(at_most + 1)
    if at_most is not None and len(data) > at_most:
        raise ManifestError(f"{what} {path} is larger than {at_most:,} bytes, more than any "
                            f"{what} holds: not read")
    return data


def _refuse_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    document: dict[str, Any] = {}
    for key, value in pairs:
        if key in document:
            raise _RepeatedKey(key)
        document[key] = value
    return document


class _RepeatedKey(ValueError):
    pass


def json_of(data: bytes, path: Path) -> Any:
    """The JSON document of a folder's file, as this auditor writes it: UTF-8 without a
    byte-order mark, each key once in its object (a repeated key would be read as its last
    value by this auditor and as its first by another reader). ManifestError says which
    file and what is wrong with it."""
    if data.startswith(b"\xef\xbb\xbf"):
        raise ManifestError(f"{path} begins with a byte-order mark: not JSON as this auditor "
                            "writes it (UTF-8 without one)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ManifestError(f"{path} is not UTF-8 text (byte {data[error.start]:#04x} at "
                            f"offset {error.start:,})") from None
    try:
        return json.loads(text, object_pairs_hook=_refuse_repeated_keys)
    except _RepeatedKey as repeated:
        raise ManifestError(f"{path} names the key {visible(json.dumps(str(repeated)))} twice "
                            "in one object: which is meant cannot be told") from None
    except RecursionError:
        raise ManifestError(f"{path} is nested too deep to be read") from None
    except ValueError as error:
        said = (f"line {error.lineno}, column {error.colno}: {error.msg}"
                if isinstance(error, json.JSONDecodeError) else str(error))
        raise ManifestError(f"{path} is not JSON ({visible(said)})") from None


def rule_base_sha256() -> str:
    """The SHA-256 of the rule base files (`rulebase.rule_base_version` is its first 12
    hex digits)."""
    digest = hashlib.sha256()
    for path in sorted(data_dir("rules").glob("*.toml")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def finding_signature(document: dict[str, Any], sha256_by_file: dict[str, str]) -> tuple:
    """What makes two findings the same finding of the same bytes: the input (by SHA-256,
    so a copy under another name is the same input), line, round, citation, seat, hand and
    the money. The ID is not part of it: it is an output, hashed with findings.json."""
    return (sha256_by_file.get(document.get("file") or "", document.get("file")),
            document.get("line"), document.get("round"), document.get("citation"),
            document.get("seat"), document.get("hand"), document.get("expected"),
            document.get("actual"), document.get("difference"))


def build_manifest(kind: str, folder: Path, inputs: list[dict[str, Any]],
                   outputs: Iterable[str], scope: dict[str, Any] | None = None,
                   extra: dict[str, Any] | None = None,
                   conditions: dict[str, Any] | None = None) -> dict[str, Any]:
    """The manifest of `folder`: `inputs` are {"name", "sha256", "size" (the bytes hashed),
    and "copy" (a path in the folder) or "path" (where it lies)}; `outputs` are file names
    in the folder, hashed now (their sizes in `output_sizes`); `conditions` what the
    findings were judged under (auditor/reproduce.py)."""
    from auditor.build import build_document

    measured = {name: hashed(folder / name) for name in outputs}
    return {
        "format": FORMAT,
        "kind": kind,
        "auditor": __version__,
        "build": build_document(),
        "rule_base": {"sha256": rule_base_sha256()},
        "conditions": conditions or {},
        "scope": scope or {},
        "inputs": inputs,
        "outputs": {name: digest for name, (digest, _) in measured.items()},
        "output_sizes": {name: size for name, (_, size) in measured.items()},
        **(extra or {}),
    }


def manifest_text(manifest: dict[str, Any]) -> str:
    return json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"


# ---- signatures ---------------------------------------------------------------------------

def generate_key(path: Path) -> Path:
    """A new Ed25519 key at `path` (PEM, readable by its owner only) and its public key at
    `path`.pub; the public key's path. Neither half is ever written over, nor written
    through a link: both are checked before anything is written, and each is made new
    (O_EXCL, O_NOFOLLOW). FileExistsError names the half that exists; any other OSError
    names the half that could not be written, and leaves neither."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    public = Path(f"{path}.pub")
    for half in (path, public):
        if os.path.lexists(half):  # a link counts, even one to nothing
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(half))
    key = Ed25519PrivateKey.generate()
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
    _create(path, private, 0o600)
    try:
        _create(public, key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo),
            0o644)
    except BaseException:
        path.unlink(missing_ok=True)  # made just now: a private key without its public one
        raise
    return public


def _create(path: Path, data: bytes, mode: int) -> None:
    """`data` in a new file at `path` (never an existing file, never through a link);
    removed again if it cannot be written whole. An OSError names `path`."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    descriptor = os.open(path, flags, mode)  # an OSError of its own names the path
    try:
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
    except OSError as error:
        path.unlink(missing_ok=True)
        raise OSError(error.errno, error.strerror, str(path)) from None
    except BaseException:
        path.unlink(missing_ok=True)
        raise


def _load_private(path: str | Path):
    """The Ed25519 private key at `path`. Refused, like ssh does, when its file may be read
    by anyone but its owner (a key others can read is no longer the signer's alone)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    text = read_plain(path, KEY_AT_MOST, "the signing key")
    if b"PUBLIC KEY-----" in text:
        raise ManifestError(f"the signing key {path} is a public key: sign with its private "
                            "half")
    mode = os.stat(path).st_mode
    if mode & 0o077:
        raise ManifestError(f"the signing key {path} may be read or written by others "
                            f"(mode {stat.S_IMODE(mode):04o}): it is not used; make it the "
                            f"owner's alone (chmod 600 {path})")
    try:
        key = serialization.load_pem_private_key(text, password=None)
    except (ValueError, TypeError) as error:
        raise ManifestError(f"the signing key {path} cannot be read as an unencrypted PEM "
                            f"private key ({type(error).__name__})") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise ManifestError(f"the signing key {path} is not an Ed25519 key")
    return key


def _load_public(path: str | Path):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    text = read_plain(path, KEY_AT_MOST, "the public key")
    if b"PRIVATE KEY-----" in text:
        raise ManifestError(f"the public key {path} is a private key: give its public half "
                            "(KEY.pub); a private key is the signer's alone, never handed "
                            "to whoever verifies")
    try:
        key = serialization.load_pem_public_key(text)
    except (ValueError, TypeError) as error:
        raise ManifestError(f"the public key {path} cannot be read as a PEM public key "
                            f"({type(error).__name__})") from None
    if not isinstance(key, Ed25519PublicKey):
        raise ManifestError(f"the public key {path} is not an Ed25519 key")
    return key


def public_key_sha256(public_key) -> str:
    from cryptography.hazmat.primitives import serialization

    raw = public_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()


def signer_of(key_path: str | Path) -> str:
    """The SHA-256 of the raw public key of the private key at `key_path`: written into the
    manifest, so a reader knows which public key to ask for."""
    return public_key_sha256(_load_private(key_path).public_key())


def sign_manifest(folder: Path, key_path: str | Path) -> None:
    """Write `manifest.sig`: the Ed25519 signature of manifest.json's bytes, in base64."""
    key = _load_private(key_path)
    signature = key.sign(read_plain(folder / MANIFEST, MANIFEST_AT_MOST, "the manifest"))
    (folder / SIGNATURE).write_text(base64.b64encode(signature).decode() + "\n",
                                    encoding="ascii")


def key_fingerprint(public_path: str | Path) -> str:
    """The fingerprint of the Ed25519 public key at `public_path` (as `signer_of` gives a
    private key's): the SHA-256 of its raw 32 bytes."""
    return public_key_sha256(_load_public(public_path))


def signature_status(folder: Path, public_path: str | Path, signer: Any,
                     manifest: bytes | None = None) -> tuple[str, str]:
    """Whether manifest.sig signs manifest.json (its bytes `manifest`, as read by whoever
    parsed them, when given) with the key at `public_path`, and that
    key's fingerprint. "good"; "unsigned" (no manifest.sig); "unreadable" (not a plain
    file of 64 bytes in base64);
    "other key": it does not verify and the manifest names another signer, so the folder
    was signed by a key other than the one given; "bad": it does not verify under the key
    the manifest names as its signer (or names none), so the manifest or its signature was
    changed."""
    from cryptography.exceptions import InvalidSignature

    key = _load_public(public_path)
    given = public_key_sha256(key)
    signature_path = folder / SIGNATURE
    if not signature_path.is_file() or signature_path.is_symlink():
        return "unsigned", given
    try:
        signature = base64.b64decode(
            read_plain(signature_path, SIGNATURE_AT_MOST, "the signature").strip(),
            validate=True)
    except (ManifestError, ValueError):
        return "unreadable", given
    if len(signature) != 64:  # an Ed25519 signature's length
        return "unreadable", given
    try:
        key.verify(signature, manifest if manifest is not None else
                   read_plain(folder / MANIFEST, MANIFEST_AT_MOST, "the manifest"))
    except InvalidSignature:
        named_other = isinstance(signer, str) and signer != given
        return ("other key" if named_other else "bad"), given
    return "good", given
