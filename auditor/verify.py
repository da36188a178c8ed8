"""`auditor verify DIR`: a run folder or a case file checked against its manifest.

Four questions, each answered on its own lines, none assumed:

- **Whose is it?** With `--key`, the signature over manifest.json is checked with that key;
  the fingerprints of the key that signed (as the manifest names it) and of the key given
  are printed, so a folder signed again by someone else is told as such. Without a key,
  nothing proves who made the folder: whoever changes a file can change the manifest too.
- **Is it as made?** Every input, output and the manifest's own list: a file the manifest
  does not name, a link where a file was made, a missing or edited file, each named.
- **Which auditor?** The build that made it (version, and the SHA-256 of each of its files)
  against this one: each file that differs is named, a rule file apart.
- **Does it reproduce?** The inputs audited again, under the conditions recorded in the
  manifest (the selection, the approvals, the calendar), must give the findings of the
  folder's findings.json.

Above the library API (it audits), apart from the manifest that outputs write.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from auditor.manifest import (
    FORMAT,
    MANIFEST,
    MANIFEST_AT_MOST,
    SIGNATURE,
    ManifestError,
    finding_signature,
    hashed,
    json_of,
    read_plain,
    rule_base_sha256,
    signature_status,
)

# No file name holds a NUL byte (the system refuses it): a manifest naming one was not made
# by an audit or a case, and looking such a name up would fail, not answer.
_NUL_NAME = "{path} names a file with a NUL byte in its name, which no file can have"

# What each kind of folder must hold for its findings to be checked at all.
REQUIRED_OUTPUTS = {"run": ("findings.json", "findings.csv", "summary.csv", "report.html"),
                    "case": ("case.html", "findings.json")}


@dataclass
class Verdict:
    """What `verify` found. `differences` are of the folder (it was changed since it was
    made), `auditor` of this auditor against the one that made it; `signature` says whose
    the folder is: "good", "unchecked" (no key given), "other key" or "bad"."""

    differences: list[str] = field(default_factory=list)
    auditor: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what was checked, for the reader
    signature: str = "unchecked"


def manifest_bytes(folder: Path) -> bytes:
    """The bytes of the folder's manifest, read once: those parsed are those whose
    signature is checked (a manifest swapped while verify runs cannot have one version
    read and the other's signature checked)."""
    path = folder / MANIFEST
    if not os.path.lexists(path):
        raise ManifestError(f"{folder} holds no {MANIFEST}")
    return read_plain(path, MANIFEST_AT_MOST, "the manifest")


def read_manifest(folder: Path, data: bytes | None = None) -> dict[str, Any]:
    """The folder's manifest (of `data`, its bytes, when given), refused (ManifestError)
    when it is not one this auditor can check: not its format, or naming no input or not
    the outputs its kind must have."""
    path = folder / MANIFEST
    manifest = json_of(manifest_bytes(folder) if data is None else data, path)
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ManifestError(f"{path} is not a manifest of this auditor ({FORMAT})")
    for key, kind in (("inputs", list), ("outputs", dict), ("rule_base", dict),
                      ("scope", dict)):
        if not isinstance(manifest.get(key), kind):
            raise ManifestError(f"{path}: '{key}' is missing or not a {kind.__name__}")
    kind = manifest.get("kind")
    if not isinstance(kind, str) or kind not in REQUIRED_OUTPUTS:
        raise ManifestError(f"{path}: 'kind' is neither a run nor a case")
    scope = manifest["scope"]
    if not (all(isinstance(scope.get(k), str | None) for k in ("licensee", "from", "until"))
            and all(isinstance(scope.get(k) or [], list)
                    and all(isinstance(v, str) for v in scope.get(k) or [])
                    for k in ("tables", "citations"))):
        raise ManifestError(f"{path}: 'scope' is not a scope of a case")
    if not manifest["inputs"]:
        raise ManifestError(f"{path} names no input: there is nothing to check the findings "
                            "against")
    named: set[str] = set()
    for entry in manifest["inputs"]:
        if not (isinstance(entry, dict) and all(
                isinstance(entry.get(k), str | None) for k in ("path", "located", "copy",
                                                               "sha256", "name"))):
            raise ManifestError(f"{path}: an input is not a set of texts")
        if any("\x00" in (entry.get(k) or "") for k in ("path", "located", "copy")):
            raise ManifestError(_NUL_NAME.format(path=path))
        if kind == "case" and not entry.get("copy"):
            raise ManifestError(f"{path}: an input of a case is not a copy in the case")
        if entry.get("copy") and not _inside(entry["copy"]):
            raise ManifestError(f"{path}: an input's copy lies outside the folder")
        # An audit takes each file once, a case copies each once: a repeated input would
        # only be hashed and audited again as many times (hours for a long manifest).
        place = entry.get("copy") or entry.get("located") or entry.get("path") or ""
        if place and place in named:
            raise ManifestError(f"{path} names the input {shown(place)} more than once: no "
                                "folder is made so")
        named.add(place)
    for name, digest in manifest["outputs"].items():
        if "\x00" in name:
            raise ManifestError(_NUL_NAME.format(path=path))
        if not isinstance(digest, str) or not _inside(name) or name in (MANIFEST, SIGNATURE):
            raise ManifestError(f"{path}: an output is not a file of the folder with its "
                                "SHA-256")
    missing = [name for name in REQUIRED_OUTPUTS[kind] if name not in manifest["outputs"]]
    if missing:
        raise ManifestError(f"{path} does not name {', '.join(missing)}: a {kind} folder's "
                            "findings cannot be checked without")
    _sizes_are_counts(path, manifest)
    for key in ("conditions", "build"):
        if not isinstance(manifest.get(key, {}), dict):
            raise ManifestError(f"{path}: '{key}' is not a set of fields")
    _one_gaming_day_start(path, manifest)
    return manifest


def _is_count(value: Any) -> bool:
    return type(value) is int and value >= 0


def _sizes_are_counts(path: Path, manifest: dict[str, Any]) -> None:
    """Each size a manifest names is a count of bytes, and a manifest naming the outputs'
    sizes names each output's: a size that is not, or is missing, was not written by a
    case or an audit (and would let a file go unmeasured)."""
    for entry in manifest["inputs"]:
        if "size" in entry and not _is_count(entry["size"]):
            raise ManifestError(f"{path}: the input {shown(entry.get('copy') or entry.get('path'))}"
                                f"'s size {shown(entry['size'])} is not a count of bytes")
    if "output_sizes" not in manifest:
        return
    sizes = manifest["output_sizes"]
    if not isinstance(sizes, dict) or sorted(sizes) != sorted(manifest["outputs"]):
        raise ManifestError(f"{path}: 'output_sizes' does not name the size of each output, "
                            "and of no other file")
    for name, size in sizes.items():
        if not _is_count(size):
            raise ManifestError(f"{path}: the output {shown(name)}'s size {shown(size)} is "
                                "not a count of bytes")


def _one_gaming_day_start(path: Path, manifest: dict[str, Any]) -> None:
    """The scope keeps the hour the gaming day began at, and so does the conditions'
    calendar: one case, one hour. Two that differ would file a night under one date in the
    scope and another in the reproduction, so such a manifest is refused."""
    calendar = manifest.get("conditions", {}).get("calendar")
    in_scope = manifest["scope"].get("gaming_day_starts")
    if not isinstance(calendar, dict) or in_scope is None:
        return
    in_conditions = calendar.get("gaming_day_starts")
    if in_conditions is not None and in_conditions != in_scope:
        raise ManifestError(f"{path}: the scope's gaming day starts at {shown(in_scope)} and "
                            f"the conditions' calendar at {shown(in_conditions)}")


def _inside(name: str) -> bool:
    """Whether `name` is a path in the folder (no absolute path, no way up)."""
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
    """Answer the four questions (the module's docstring) of `folder`, with `public_key`
    for the signature."""
    verdict = Verdict()
    data = manifest_bytes(folder)
    try:
        manifest = read_manifest(folder, data)
    except ManifestError as refused:
        # A manifest refused as unusable may still be a signed one that was changed: with a
        # key, that is told as the change it is, not as a folder that cannot be checked.
        if public_key is None:
            raise
        _check_signature(folder, _signer_named(folder, data), public_key, verdict, data)
        if verdict.signature == "good":
            raise
        verdict.differences.append(f"{MANIFEST}: {shown(refused)}")
        return verdict
    _check_signature(folder, manifest.get("signer"), public_key, verdict, data)
    _check_auditor(manifest, verdict)
    _sizes_note(manifest, verdict)
    _check_outputs(folder, manifest, verdict)
    _check_unlisted(folder, manifest, verdict)
    paths, sha256_by_path, held = _check_inputs(folder, manifest, verdict)
    if paths:
        _reaudit(folder, manifest, paths, sha256_by_path, held, verdict)
    return verdict


def _signer_named(folder: Path, data: bytes) -> Any:
    """The signer a manifest names, read as plainly as can be (it may be refused)."""
    try:
        document = json_of(data, folder / MANIFEST)
    except ManifestError:
        return None
    return document.get("signer") if isinstance(document, dict) else None


def _check_signature(folder: Path, signer: Any, public_key: str | Path | None,
                     verdict: Verdict, data: bytes) -> None:
    named = f"key {shown(signer)}" if isinstance(signer, str) else "no key"
    if public_key is None:
        signed = (folder / SIGNATURE).is_file()
        if isinstance(signer, str) and not os.path.lexists(folder / SIGNATURE):
            # Signed when made (the manifest names its signer), its signature gone since.
            verdict.differences.append(
                f"{SIGNATURE}: missing, though the manifest names its signer ({named}): "
                "the signature was removed, or the case was not made whole")
            return
        verdict.notes.append(
            "signature: not checked (no --key given): nothing shows who made this folder; "
            "anyone who changes a file can write its manifest again"
            + (f"; the manifest names the signer's {named}" if signed else
               "; the folder is not signed"))
        return
    status, given = signature_status(folder, public_key, signer, data)
    verdict.signature = status
    if status == "good":
        verdict.notes.append(f"signature: good, made by the key given ({public_key}, "
                             f"fingerprint {given})")
    elif status == "unsigned" and (folder / SIGNATURE).is_symlink():
        verdict.differences.append(
            f"{SIGNATURE}: a link to {shown(os.readlink(folder / SIGNATURE))}, not the "
            "folder's own file: it would not go with the folder, and a change where it "
            "points changes it")
    elif status == "unsigned":
        verdict.differences.append(f"{SIGNATURE}: missing (the folder is not signed, or its "
                                   "signature was removed)")
    elif status == "unreadable":
        verdict.differences.append(
            f"{SIGNATURE}: not an Ed25519 signature in base64 (a plain file of 88 "
            f"characters and a newline; this one is {_size_of(folder / SIGNATURE)})")
    elif status == "other key":
        verdict.notes.append(
            f"signature: made by another key: the manifest names the signer's {named}; "
            f"the key given ({public_key}) has fingerprint {given}. This folder is not "
            "shown to be signed by the key you hold (ask its signer for theirs, or it was "
            "signed again by someone else)")
    else:
        verdict.differences.append(
            f"{SIGNATURE}: the signature does not match {MANIFEST} under the key given "
            f"(fingerprint {given}), the key the manifest names as its signer: the manifest "
            "or its signature was changed since it was signed")


def _size_of(path: Path) -> str:
    try:
        return f"{path.stat().st_size:,} bytes"
    except OSError as error:
        return f"not readable ({error.strerror})"


def _check_auditor(manifest: dict[str, Any], verdict: Verdict) -> None:
    from auditor import __version__
    from auditor.build import build_differences, build_fingerprint

    recorded_rules = manifest["rule_base"].get("sha256")
    build = manifest.get("build") or {}
    files = build.get("files") if isinstance(build.get("files"), dict) else None
    differing = build_differences(files) if files is not None else []
    rule_files = [d for d in differing if d.startswith("rules/")]
    other_files = [d for d in differing if not d.startswith("rules/")]
    if recorded_rules != rule_base_sha256():
        said = f": {'; '.join(rule_files)}" if rule_files else ""
        verdict.auditor.append(
            f"rule base: made under rule base {shown(recorded_rules)[:12]}, this auditor's is "
            f"{rule_base_sha256()[:12]} (another rule base){shown(said)}")
    if files is None:
        verdict.notes.append("auditor: the manifest does not name the build that made it (an "
                             "auditor before builds were recorded); its rule base is compared")
    elif other_files:
        listed = "; ".join(other_files[:10]) + (
            f"; and {len(other_files) - 10} more" if len(other_files) > 10 else "")
        verdict.auditor.append(
            f"auditor build: made by version {shown(build.get('version'))} (build "
            f"{shown(build.get('sha256'))[:16]}), this is version {__version__} (build "
            f"{build_fingerprint()[:16]}): {shown(listed)}")
    else:
        verdict.notes.append(f"auditor: the same build that made the folder (version "
                             f"{shown(build.get('version'))}, build {build_fingerprint()[:16]})")


def _sizes_note(manifest: dict[str, Any], verdict: Verdict) -> None:
    if "output_sizes" not in manifest:
        verdict.notes.append(
            "sizes: the manifest names none (made by an auditor before sizes were recorded): "
            "each file is hashed whole, so a file put in a named file's place is told only "
            "once read to its end; its SHA-256 proves the same bytes")
        return
    # `auditor report RUN` of a run stored before sizes were recorded names its outputs'
    # sizes and not its inputs'.
    unsized = [shown(entry.get("copy") or entry.get("path")) for entry in manifest["inputs"]
               if entry.get("sha256") and "size" not in entry]
    if unsized:
        verdict.notes.append(
            f"sizes: the manifest names none for {len(unsized)} input(s) (audited before "
            f"sizes were recorded: {', '.join(unsized[:5])}"
            f"{', …' if len(unsized) > 5 else ''}): each is hashed whole")


def _changed(path: Path, sha256: Any, size: int | None, edited: str) -> str | None:
    """What differs in the file at `path` from the `sha256` and `size` the manifest names
    (None when nothing does). A file of another size is told by its size, unread; of the
    named size, at most that many bytes and one more are read."""
    if size is not None:
        found = path.stat().st_size
        if found != size:
            return (f"{found:,} bytes, the manifest names {size:,} ({edited}; not read)")
    try:
        digest, count = hashed(path, size)
    except ManifestError as error:  # swapped for a pipe since it was looked at
        return shown(error)
    if size is not None and count != size:
        return (f"changed while it was read ({count:,} bytes read, the manifest names "
                f"{size:,})")
    if digest != sha256:
        return f"SHA-256 differs ({edited})"
    return None


def _absent(path: Path, manifest: dict[str, Any]) -> str | None:
    """Why a file the manifest names is not there to hash: missing, or something other
    than a file in its place (in a case, copy_problems names that: None)."""
    if not os.path.lexists(path):
        return "missing"
    if manifest["kind"] == "case":
        return None
    return ("a link to nothing" if not path.exists() else
            "a folder, not a file" if path.is_dir() else
            "not a plain file (a named pipe, a device or a socket): not read")


def _check_outputs(folder: Path, manifest: dict[str, Any], verdict: Verdict) -> None:
    sizes = manifest.get("output_sizes") or {}
    for name, recorded in manifest["outputs"].items():
        path = folder / name
        if not path.is_file():
            absent = _absent(path, manifest)
            if absent:
                verdict.differences.append(f"output {shown(name)}: {absent}")
            continue
        changed = _changed(path, recorded, sizes.get(name), "edited since it was made")
        if changed:
            verdict.differences.append(f"output {shown(name)}: {changed}")


def _check_unlisted(folder: Path, manifest: dict[str, Any], verdict: Verdict) -> None:
    """A case folder holds its manifest's files and nothing else, each its own plain file;
    a run's outputs lie in a set folder of their own (`output/publish.py`), which holds them
    and nothing else."""
    listed = {MANIFEST, SIGNATURE, *manifest["outputs"],
              *(str(e["copy"]) for e in manifest["inputs"] if e.get("copy"))}
    if manifest["kind"] == "run":
        home = (folder / MANIFEST).resolve().parent
        if home == folder.resolve():
            verdict.notes.append("files beside the run's outputs not checked (they do not lie "
                                 "in a set folder of their own)")
            return
    else:
        # A case's files are its own plain files, none a link (auditor/case/copies.py); a
        # run's stable names are links into its set folder by design.
        from auditor.case.copies import copy_problems

        verdict.differences.extend(copy_problems(folder, manifest))
        home = folder
    found: list[str] = []
    for root, folders, files in os.walk(home):
        base = Path(root)
        for name in sorted(files) + [f for f in sorted(folders) if (base / f).is_symlink()]:
            relative = (base / name).relative_to(home).as_posix()
            if relative not in listed:
                found.append(f"unlisted file {shown(relative)}: not part of the folder as "
                             "made (the manifest does not name it)")
        for name in sorted(folders):
            if not (base / name).is_symlink() and not any((base / name).iterdir()):
                relative = (base / name).relative_to(home).as_posix()
                found.append(f"unlisted folder {shown(relative)}: not part of the folder "
                             "as made")
    verdict.differences.extend(found[:20])
    if len(found) > 20:
        verdict.differences.append(f"and {len(found) - 20} more file(s) the manifest does "
                                   "not name")


def _check_inputs(folder: Path, manifest: dict[str, Any], verdict: Verdict
                  ) -> tuple[list[str], dict[str, str], set[str]]:
    """The inputs to audit again, each one's SHA-256 as the manifest names it, and those
    that hashed as named now (`held`)."""
    paths: list[str] = []
    sha256_by_path: dict[str, str] = {}
    held: set[str] = set()
    for entry in manifest["inputs"]:
        name = shown(entry.get("copy") or entry.get("path"))
        if not entry.get("sha256"):
            verdict.notes.append(f"input {name}: unreadable when audited, not checked")
            continue
        path = input_location(folder, entry)
        if not path.is_file():
            absent = _absent(path, manifest)
            if absent:
                verdict.differences.append(f"input {name}: {absent}")
            continue
        size = entry.get("size")
        changed = _changed(path, entry.get("sha256"), size, "the record was edited")
        if changed:
            verdict.differences.append(f"input {name}: {changed}")
            if size is not None and path.stat().st_size > size:
                verdict.notes.append(f"input {name}: not audited again (larger than the "
                                     "manifest names: its findings are not compared)")
                continue
        paths.append(str(path))
        sha256_by_path[str(path)] = str(entry.get("sha256"))
        if not changed:
            held.add(str(path))
    return paths, sha256_by_path, held


def _reaudit(folder: Path, manifest: dict[str, Any], paths: list[str],
             sha256_by_path: dict[str, str], held: set[str], verdict: Verdict) -> None:
    """The findings of the inputs audited again, under the manifest's conditions and in its
    scope, against those of findings.json (by input SHA-256, line, round, citation, seat,
    hand, money)."""
    from auditor.case.scope import Scope
    from auditor.reproduce import UnknownConditions, audit_again, conditions_of_run

    size = (manifest.get("output_sizes") or {}).get("findings.json")
    path = folder / "findings.json"
    try:
        if not path.is_file() or (size is not None and path.stat().st_size > size):
            return  # told above; never read past what was made
        recorded_document = json_of(read_plain(path, size, "output"), path)
        recorded_inputs = {i["path"]: i.get("sha256") for i in recorded_document["inputs"]}
        # An input not audited again (larger than named) is told above, its findings apart.
        not_audited = {e.get("sha256") for e in manifest["inputs"]} - set(
            sha256_by_path.values())
        recorded = [signature for signature in (finding_signature(f, recorded_inputs)
                                                for f in recorded_document["findings"])
                    if signature[0] not in not_audited]
    except ManifestError as error:
        verdict.differences.append(f"output findings.json: {shown(error)}")
        return
    except OSError as error:
        verdict.differences.append(f"output findings.json: cannot be read "
                                   f"({shown(error.strerror)})")
        return
    except KeyError as error:
        verdict.differences.append(f"output findings.json: not the findings of an audit (an "
                                   f"object without its {shown(json.dumps(error.args[0]))} "
                                   "field)")
        return
    except (TypeError, AttributeError):
        verdict.differences.append("output findings.json: not the findings of an audit (its "
                                   "'inputs' or 'findings' is not a list of objects)")
        return
    # An audit writes a finding's place and money as texts and numbers: anything else (a
    # list, an object) cannot be compared, and was not written by an audit.
    if not all(isinstance(part, str | int | float | None) for signature in recorded
               for part in signature):
        verdict.differences.append("output findings.json: a finding's place or money is "
                                   "neither a text nor a number (not written by an audit)")
        return
    try:
        conditions = conditions_of_run({"conditions": manifest["conditions"]}
                                       if "conditions" in manifest else {})
        found = audit_again(paths, conditions)
    except UnknownConditions as error:
        verdict.differences.append(f"conditions: {shown(error)}")
        return
    # An input that hashed as named and was read otherwise by its audit again changed in
    # between (a folder on a share someone else writes): what was compared is not it.
    swapped = [summary.path for summary in found.inputs if summary.path in
               held and summary.sha256 != sha256_by_path[summary.path]]
    for path in swapped:
        verdict.differences.append(
            f"input {shown(Path(path).relative_to(folder).as_posix())}: changed while it "
            "was verified (it hashed as named, then its audit again read other bytes): its "
            "findings are not compared")
    if swapped:
        return
    scope = Scope.of_document(manifest["scope"])
    # Each input is known by the SHA-256 the manifest gives it (an edited record is named
    # above): only the findings that its edit changed are then told apart.
    again = [finding_signature(f.as_dict(), sha256_by_path) for f in found.findings
             if scope.holds(f)]
    verdict.notes.append(f"audited {len(paths)} input(s) again under {_conditions_said(conditions)}"
                         f": {len(again)} finding(s) in scope")
    missing = Counter(recorded) - Counter(again)
    new = Counter(again) - Counter(recorded)
    if not (missing or new):
        return
    lines = [f"findings: audited again, {sum(new.values())} finding(s) not in findings.json "
             f"and {sum(missing.values())} of findings.json not found"]
    lines.extend(f"  found now: {_said(signature)}" for signature in list(new)[:10])
    lines.extend(f"  not found now: {_said(signature)}" for signature in list(missing)[:10])
    # Another auditor finding otherwise is this auditor's doing, not the folder's.
    (verdict.auditor if verdict.auditor and not verdict.differences
     else verdict.differences).extend(lines)


def _conditions_said(conditions: dict[str, Any]) -> str:
    parts = []
    if conditions.get("citations") is not None:
        chosen = "; ".join(part for part in (
            "select " + ", ".join(conditions.get("select") or []) if conditions.get("select")
            else "", "ignore " + ", ".join(conditions.get("ignore") or [])
            if conditions.get("ignore") else "") if part)
        parts.append(f"the run's selection ({shown(chosen)}: "
                     f"{len(conditions['citations'])} citation(s))")
    else:
        parts.append("every rule")
    approvals = conditions.get("approvals")
    if approvals:
        parts.append(f"{len(approvals.get('entries') or [])} approval(s) of "
                     f"{shown(approvals.get('path'))}")
    calendar = conditions.get("calendar") or {}
    parts.append(f"gaming days from {shown(calendar.get('gaming_day_starts', '06:00'))}")
    if conditions.get("finished") is True:  # `audit --finished` (recorded since it exists)
        parts.append("every file taken as finished")
    return ", ".join(parts)


def _said(signature: tuple) -> str:
    _, line, round_id, citation, seat, hand, expected, actual, _ = signature
    where = ", ".join(str(part) for part in (
        f"line {line}" if line else "", f"round {round_id}" if round_id else "",
        seat or "", hand or "") if part)
    money = f" (owed {expected}, recorded {actual})" if expected or actual else ""
    return shown(f"{citation} {where}{money}")
