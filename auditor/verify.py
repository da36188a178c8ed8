"""`auditor verify DIR`: a run folder or a case file checked against its manifest. Every
input and output hashed again, the rule base compared, the inputs audited again and their
findings compared with the folder's findings.json, the signature checked with the signer's
public key. Above the library API (it audits), apart from the manifest that outputs write."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from auditor.manifest import (
    FORMAT,
    MANIFEST,
    SIGNATURE,
    ManifestError,
    check_signature,
    finding_signature,
    rule_base_sha256,
    sha256_of,
)


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
