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
import hashlib
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from auditor import __version__
from auditor.resources import data_dir

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
                   extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The manifest of `folder`: `inputs` are {"name", "sha256", and "copy" (a path in the
    folder) or "path" (where it lies)}; `outputs` are file names in the folder, hashed now."""
    return {
        "format": FORMAT,
        "kind": kind,
        "auditor": __version__,
        "rule_base": {"sha256": rule_base_sha256()},
        "scope": scope or {},
        "inputs": inputs,
        "outputs": {name: sha256_of(folder / name) for name in outputs},
        **(extra or {}),
    }


def manifest_text(manifest: dict[str, Any]) -> str:
    return json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"


# ---- signatures ---------------------------------------------------------------------------

def generate_key(path: Path) -> Path:
    """A new Ed25519 key at `path` (PEM, readable by its owner only) and its public key at
    `path`.pub; the public key's path."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.generate()
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as stream:
        stream.write(private)
    public = Path(f"{path}.pub")
    public.write_bytes(key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    return public


def _load_private(path: str | Path):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    try:
        key = serialization.load_pem_private_key(Path(path).read_bytes(), password=None)
    except (OSError, ValueError, TypeError) as error:
        raise ManifestError(f"the signing key {path} cannot be read as an unencrypted PEM "
                            f"private key ({type(error).__name__})") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise ManifestError(f"the signing key {path} is not an Ed25519 key")
    return key


def _load_public(path: str | Path):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        key = serialization.load_pem_public_key(Path(path).read_bytes())
    except (OSError, ValueError, TypeError) as error:
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
    signature = key.sign((folder / MANIFEST).read_bytes())
    (folder / SIGNATURE).write_text(base64.b64encode(signature).decode() + "\n",
                                    encoding="ascii")


def check_signature(folder: Path, public_path: str | Path) -> str | None:
    """None when manifest.sig is a good signature of manifest.json by the key at
    `public_path`; else what is wrong."""
    from cryptography.exceptions import InvalidSignature

    key = _load_public(public_path)
    signature_path = folder / SIGNATURE
    if not signature_path.is_file():
        return f"{SIGNATURE}: missing (the folder is not signed)"
    try:
        signature = base64.b64decode(signature_path.read_text(encoding="ascii").strip(),
                                     validate=True)
    except (ValueError, UnicodeDecodeError):
        return f"{SIGNATURE}: not a base64 signature"
    try:
        key.verify(signature, (folder / MANIFEST).read_bytes())
    except InvalidSignature:
        return (f"{SIGNATURE}: the signature does not match {MANIFEST} and the key "
                f"{public_path} (the manifest was changed, or signed by another key)")
    return None


# ---- verifying ----------------------------------------------------------------------------

@dataclass
class Verdict:
    """What `verify` found: every difference, one line each; none means the folder holds."""

    differences: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what was checked, for the reader


def read_manifest(folder: Path) -> dict[str, Any]:
    path = folder / MANIFEST
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ManifestError(f"{folder} holds no {MANIFEST}") from None
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as error:
        raise ManifestError(f"{path} cannot be read ({type(error).__name__})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ManifestError(f"{path} is not a manifest of this auditor ({FORMAT})")
    for key, kind in (("inputs", list), ("outputs", dict), ("rule_base", dict),
                      ("scope", dict)):
        if not isinstance(manifest.get(key), kind):
            raise ManifestError(f"{path}: '{key}' is missing or not a {kind.__name__}")
    scope = manifest["scope"]
    if not (all(isinstance(scope.get(k), str | None) for k in ("licensee", "from", "until"))
            and all(isinstance(scope.get(k) or [], list)
                    and all(isinstance(v, str) for v in scope.get(k) or [])
                    for k in ("tables", "citations"))):
        raise ManifestError(f"{path}: 'scope' is not a scope of a case")
    for entry in manifest["inputs"]:
        if not (isinstance(entry, dict) and all(
                isinstance(entry.get(k), str | None) for k in ("path", "located", "copy",
                                                               "sha256", "name"))):
            raise ManifestError(f"{path}: an input is not a set of texts")
        if entry.get("copy") and not _inside(folder, entry["copy"]):
            raise ManifestError(f"{path}: an input's copy lies outside the folder")
    for name, digest in manifest["outputs"].items():
        if not isinstance(digest, str) or not _inside(folder, name):
            raise ManifestError(f"{path}: an output is not a file of the folder with its "
                                "SHA-256")
    return manifest


def _inside(folder: Path, name: str) -> bool:
    """Whether `name` is a path in `folder` (no absolute path, no way up)."""
    relative = Path(name)
    return bool(name) and not relative.is_absolute() and ".." not in relative.parts


def shown(text: Any) -> str:
    """A manifest's text as a terminal may print it: its control characters (an escape
    sequence, a line break that would forge a line) as code points."""
    return "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in str(text))


def input_location(folder: Path, entry: dict[str, Any]) -> Path:
    """Where an input of the manifest is: its copy in the folder, or where it lay."""
    if entry.get("copy"):
        return folder / str(entry["copy"])
    return Path(str(entry.get("located") or entry.get("path")))


def verify_folder(folder: Path, public_key: str | Path | None = None) -> Verdict:
    """Hash every input, output and the rule base again, check the signature (with
    `public_key`), audit the inputs again and compare the findings with findings.json."""
    manifest = read_manifest(folder)
    verdict = Verdict()
    differences = verdict.differences
    if public_key is not None:
        problem = check_signature(folder, public_key)
        if problem:
            differences.append(problem)
        else:
            verdict.notes.append(f"signature: good ({SIGNATURE}, key {public_key})")
    elif (folder / SIGNATURE).is_file():
        verdict.notes.append(f"signature: not checked (give --key PUB; signer key SHA-256 "
                             f"{shown(manifest.get('signer', 'unknown'))})")
    recorded_rules = manifest["rule_base"].get("sha256")
    if recorded_rules != rule_base_sha256():
        differences.append(f"rule base: made under rule base {shown(recorded_rules)[:12]}, this "
                           f"auditor's is {rule_base_sha256()[:12]} (another rule base)")
    for name, recorded in manifest["outputs"].items():
        path = folder / name
        if not path.is_file():
            differences.append(f"output {shown(name)}: missing")
        elif sha256_of(path) != recorded:
            differences.append(f"output {shown(name)}: SHA-256 differs (edited since it was "
                               "made)")
    paths: list[str] = []
    sha256_by_path: dict[str, str] = {}
    for entry in manifest["inputs"]:
        name = shown(entry.get("copy") or entry.get("path"))
        if not entry.get("sha256"):
            verdict.notes.append(f"input {name}: unreadable when audited, not checked")
            continue
        path = input_location(folder, entry)
        if not path.is_file():
            differences.append(f"input {name}: missing")
            continue
        actual = sha256_of(path)
        if actual != entry.get("sha256"):
            differences.append(f"input {name}: SHA-256 differs (the record was edited)")
        paths.append(str(path))
        sha256_by_path[str(path)] = str(entry.get("sha256"))
    if paths and "findings.json" in manifest["outputs"]:
        differences.extend(_reaudit(folder, manifest, paths, sha256_by_path))
        verdict.notes.append(f"re-audited {len(paths)} input(s)")
    return verdict


def _reaudit(folder: Path, manifest: dict[str, Any], paths: list[str],
             sha256_by_path: dict[str, str]) -> list[str]:
    """The findings of the inputs audited again, in the manifest's scope, against those of
    findings.json (by input SHA-256, line, round, citation, seat, hand, money)."""
    from auditor.api import audit_inputs, merge
    from auditor.case.scope import Scope

    try:
        recorded_document = json.loads((folder / "findings.json").read_text(encoding="utf-8"))
        recorded_inputs = {i["path"]: i.get("sha256") for i in recorded_document["inputs"]}
        recorded = [finding_signature(f, recorded_inputs)
                    for f in recorded_document["findings"]]
    except (OSError, ValueError, KeyError, TypeError, AttributeError,
            RecursionError) as error:
        return [f"output findings.json: cannot be read ({type(error).__name__})"]
    results = [result for _, result in sorted(audit_inputs(paths),
                                              key=lambda pair: pair[0])]
    found = merge(results)
    scope = Scope.of_document(manifest["scope"])
    # Each input is known by the SHA-256 the manifest gives it (an edited record is named
    # above): only the findings that its edit changed are then told apart.
    again = [finding_signature(f.as_dict(), sha256_by_path) for f in found.findings
             if scope.holds(f)]
    missing = _counted(recorded) - _counted(again)
    new = _counted(again) - _counted(recorded)
    lines = []
    if missing or new:
        lines.append(f"findings: audited again, {sum(new.values())} finding(s) not in "
                     f"findings.json and {sum(missing.values())} of findings.json not found")
        for signature in list(new)[:10]:
            lines.append(f"  found now: {_said(signature)}")
        for signature in list(missing)[:10]:
            lines.append(f"  not found now: {_said(signature)}")
    return lines


def _counted(signatures: list[tuple]):
    from collections import Counter

    return Counter(signatures)


def _said(signature: tuple) -> str:
    _, line, round_id, citation, seat, hand, expected, actual, _ = signature
    where = ", ".join(part for part in (
        f"line {line}" if line else "", f"round {round_id}" if round_id else "",
        seat or "", hand or "") if part)
    money = f" (owed {expected}, recorded {actual})" if expected or actual else ""
    return shown(f"{citation} {where}{money}")
