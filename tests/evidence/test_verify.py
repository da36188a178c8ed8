"""`auditor verify` against tampered, re-signed and hostile folders, and against another
auditor: each question answered apart (whose, as made, which auditor, reproduces), never
"holds" for what was not checked. Real keys, real audits of the sample logs."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from auditor.cli import main
from auditor.manifest import key_fingerprint
from tests.helpers import ROOT, SAMPLES
from tests.helpers.verifying import verify

T11 = str(SAMPLES / "standard-t11-2026-11-20.bjh")
T22 = str(SAMPLES / "ladies-t22-2026-11-21.bjh")
# T11's header declares soft17=hit: this approval differs, so one record:approval.
APPROVALS = """\
[[approval]]
licence = "RL-0412"
table = "T11"
reference = "SDCGC-2026-101"
date = 2026-09-01
game = "standard"
soft17 = "stand"
"""


@pytest.fixture(scope="module")
def keys(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("keys")
    made = {}
    for name in ("inspector", "stranger"):
        assert main(["keygen", str(folder / name)]) == 0
        made[name] = folder / name
    return made


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("run") / "out"
    assert main(["audit", T11, T22, "--out", str(out), "--quiet", "--store",
                 str(out.parent / "history.sqlite")]) == 1
    return out


@pytest.fixture(scope="module")
def signed_case(run: Path, keys: dict[str, Path], tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("case") / "case"
    assert main(["case", str(run), "--licensee", "RL-0412", "--out", str(folder), "--sign",
                 str(keys["inspector"])]) == 0
    return folder


def copy_of(folder: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy, symlinks=True)
    return copy


def rewrite_manifest(folder: Path, change) -> None:
    path = folder / "manifest.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    change(manifest)
    path.write_text(json.dumps(manifest, indent=2), encoding="utf-8")


def test_signed_case_holds_with_its_key_and_says_whose(signed_case: Path, keys: dict,
                                                       capsys) -> None:
    status, said = verify(signed_case, "--key", f"{keys['inspector']}.pub", capsys=capsys)
    assert status == 0, said
    fingerprint = key_fingerprint(f"{keys['inspector']}.pub")
    assert f"signature: good, made by the key given ({keys['inspector']}.pub, fingerprint " \
           f"{fingerprint})" in said
    assert said.rstrip().endswith("and it is signed by the key given")


def test_without_a_key_authenticity_is_not_claimed(signed_case: Path, capsys) -> None:
    status, said = verify(signed_case, capsys=capsys)
    assert status == 4, said
    assert "signature: not checked (no --key given): nothing shows who made this folder" in said
    assert "who made it is not proven" in said
    assert "signed by the key given" not in said


def test_a_case_signed_again_by_another_key_is_told_as_such(signed_case: Path, keys: dict,
                                                            tmp_path: Path, capsys) -> None:
    """Counsel's move: the folder signed again with their own key, its `signer` theirs."""
    from auditor.manifest import sign_manifest, signer_of

    folder = copy_of(signed_case, tmp_path)
    stranger = signer_of(keys["stranger"])
    rewrite_manifest(folder, lambda m: m.update(signer=stranger))
    sign_manifest(folder, keys["stranger"])
    status, said = verify(folder, "--key", f"{keys['inspector']}.pub", capsys=capsys)
    assert status == 5, said
    inspector = key_fingerprint(f"{keys['inspector']}.pub")
    assert (f"signature: made by another key: the manifest names the signer's key {stranger}; "
            f"the key given ({keys['inspector']}.pub) has fingerprint {inspector}") in said
    assert "DIFFERS" not in said and "changed since" not in said
    assert said.rstrip().endswith("but it was signed by another key than the one given")
    # with the stranger's own key it is good: the fingerprint is what tells them apart
    status, said = verify(folder, "--key", f"{keys['stranger']}.pub", capsys=capsys)
    assert status == 0 and f"fingerprint {stranger}" in said


def test_a_changed_manifest_under_its_signers_key_is_a_change(signed_case: Path, keys: dict,
                                                              tmp_path: Path, capsys) -> None:
    folder = copy_of(signed_case, tmp_path)
    rewrite_manifest(folder, lambda m: m["case"].update(findings=0))
    status, said = verify(folder, "--key", f"{keys['inspector']}.pub", capsys=capsys)
    assert status == 1
    assert "DIFFERS manifest.sig: the signature does not match manifest.json under the key " \
           "given" in said
    assert said.rstrip().endswith("the folder was changed since it was made")


def test_a_removed_signature(signed_case: Path, keys: dict, tmp_path: Path, capsys) -> None:
    folder = copy_of(signed_case, tmp_path)
    (folder / "manifest.sig").unlink()
    status, said = verify(folder, capsys=capsys)  # the manifest names its signer
    assert status == 1 and "DIFFERS manifest.sig: missing, though the manifest names" in said
    status, said = verify(folder, "--key", f"{keys['inspector']}.pub", capsys=capsys)
    assert status == 1 and "DIFFERS manifest.sig: missing" in said


@pytest.mark.parametrize("name", ["case.pdf", "inputs/extra-T12.bjh", "findings-final.json",
                                  "notes/read-me.txt"])
def test_a_file_the_manifest_does_not_name_fails(signed_case: Path, keys: dict, name: str,
                                                 tmp_path: Path, capsys) -> None:
    folder = copy_of(signed_case, tmp_path)
    (folder / name).parent.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text("%PDF-1.4\n% forged: RL-0412 owes nothing\n")
    status, said = verify(folder, "--key", f"{keys['inspector']}.pub", capsys=capsys)
    assert status == 1, said
    assert f"DIFFERS unlisted file {name}: not part of the folder as made" in said


def test_an_input_copy_that_is_a_link_fails(signed_case: Path, keys: dict, tmp_path: Path,
                                            capsys) -> None:
    folder = copy_of(signed_case, tmp_path)
    copy = folder / "inputs" / "standard-t11-2026-11-20.bjh"
    outside = tmp_path / "outside.bjh"
    shutil.copyfile(copy, outside)
    copy.unlink()
    copy.symlink_to(outside)
    status, said = verify(folder, "--key", f"{keys['inspector']}.pub", capsys=capsys)
    assert status == 1
    assert (f"DIFFERS input inputs/standard-t11-2026-11-20.bjh: a link to {outside}, not "
            "the folder's own file") in said


@pytest.mark.parametrize("change, refusal", [
    (lambda m: m["outputs"].pop("findings.json"), "does not name findings.json"),
    (lambda m: m.update(inputs=[], outputs={}), "names no input"),
    (lambda m: m["inputs"][0].pop("copy"), "an input of a case is not a copy in the case"),
    (lambda m: m["outputs"].update({"manifest.json": "0" * 64}),
     "an output is not a file of the folder"),
])
def test_a_manifest_that_names_nothing_to_check_is_refused(signed_case: Path, keys: dict,
                                                           change, refusal: str,
                                                           tmp_path: Path, capsys) -> None:
    folder = copy_of(signed_case, tmp_path)
    rewrite_manifest(folder, change)
    status, said = verify(folder, capsys=capsys)
    assert status == 2 and refusal in said
    assert "same findings" not in said
    # with the key, the change itself is told
    status, said = verify(folder, "--key", f"{keys['inspector']}.pub", capsys=capsys)
    assert status == 1 and "DIFFERS manifest.sig: the signature does not match" in said
    assert f"DIFFERS manifest.json: {folder}/manifest.json" in said and refusal in said


def test_a_deleted_finding_is_named_without_a_key(signed_case: Path, tmp_path: Path,
                                                  capsys) -> None:
    """The finding deleted and findings.json's SHA-256 written into the manifest again:
    without a key the hashes hold, but the audit again finds the finding."""
    from auditor.manifest import sha256_of

    folder = copy_of(signed_case, tmp_path)
    path = folder / "findings.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    removed = document["findings"].pop(0)
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    rewrite_manifest(folder, lambda m: m["outputs"].update({"findings.json": sha256_of(path)}))
    status, said = verify(folder, capsys=capsys)
    assert status == 1
    assert "DIFFERS findings: audited again, 1 finding(s) not in findings.json and 0" in said
    assert f"found now: {removed['citation']} line {removed['line']}" in said


@pytest.mark.parametrize("flags, judged", [
    (["--select", "20:18:15:06"], "the run's selection (select 20:18:15:06"),
    (["--ignore", "20:18:15:26"], "the run's selection (ignore 20:18:15:26"),
    (["--approved", "APPROVALS"], "1 approval(s) of"),
    (["--select", "standard", "--approved", "APPROVALS"], "the run's selection (select standard"),
])
def test_an_untouched_run_with_a_selection_or_approvals_verifies(flags: list[str], judged: str,
                                                                 tmp_path: Path, keys: dict,
                                                                 capsys) -> None:
    approvals = tmp_path / "approved.toml"
    approvals.write_text(APPROVALS, encoding="utf-8")
    flags = [str(approvals) if flag == "APPROVALS" else flag for flag in flags]
    out = tmp_path / "out"
    assert main(["audit", T11, "--out", str(out), "--quiet", "--store",
                 str(tmp_path / "h.sqlite"), *flags]) == 1
    status, said = verify(out, capsys=capsys)
    assert status == 4, said
    assert judged in said and "DIFFERS" not in said
    document = json.loads((out / "findings.json").read_text(encoding="utf-8"))
    if "--approved" in flags:
        assert [f["citation"] for f in document["findings"]].count("record:approval") == 1
    # the case of that run is made, and holds the same
    case = tmp_path / "case"
    assert main(["case", str(out), "--licensee", "RL-0412", "--out", str(case), "--sign",
                 str(keys["inspector"])]) == 0
    status, said = verify(case, "--key", f"{keys['inspector']}.pub", capsys=capsys)
    assert status == 0, said
    # and the approval file moved or edited later changes nothing: the run holds what it read
    approvals.write_text("", encoding="utf-8")
    assert verify(out, capsys=capsys)[0] == 4


def test_a_narrowed_selection_written_into_an_unsigned_manifest(run: Path, tmp_path: Path,
                                                                capsys) -> None:
    """Without a key anyone can write a manifest again: a narrower selection there and the
    findings it drops removed hash as written; verify says what it audited under, and that
    who made the folder is not proven."""
    folder = copy_of(run, tmp_path)
    rewrite_manifest(folder, lambda m: m["conditions"].update(citations=["20:18:15:06"],
                                                               select=["20:18:15:06"]))
    status, said = verify(folder, capsys=capsys)
    assert "the run's selection (select 20:18:15:06: 1 citation(s))" in said
    assert status == 1  # findings.json still holds what the narrower selection drops


def _other_auditor(tmp_path: Path, file: str, old: str, new: str) -> Path:
    other = tmp_path / "other-auditor"
    for name in ("auditor", "rules", "grammars"):
        shutil.copytree(ROOT / name, other / name,
                        ignore=shutil.ignore_patterns("__pycache__", "_data"))
    path = other / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return other


def test_another_build_is_named_by_the_file_that_differs(signed_case: Path, keys: dict,
                                                         tmp_path: Path) -> None:
    """A pay table changed in the installed code (3:2 paid as 7:5): verify names the module,
    puts the findings that differ on the auditor, and never says the folder was changed."""
    other = _other_auditor(tmp_path, "auditor/blackjack.py", '"3:2": Decimal("1.5")',
                           '"3:2": Decimal("1.4")')
    done = subprocess.run([sys.executable, "-m", "auditor", "verify", str(signed_case),
                           "--key", f"{keys['inspector']}.pub"],
                          cwd=other, env={**os.environ, "PYTHONPATH": str(other)},
                          capture_output=True, text=True, timeout=300)
    said = done.stdout + done.stderr
    assert done.returncode == 1, said
    assert "DIFFERS auditor build: made by version" in said
    assert ": auditor/blackjack.py differs" in said
    assert "DIFFERS findings: audited again" in said
    assert "changed since it was made" not in said
    assert "this auditor is not the one that made it" in said
    assert "DIFFERS rule base" not in said


def test_another_rule_file_is_named(signed_case: Path, tmp_path: Path) -> None:
    other = _other_auditor(tmp_path, "rules/20-18-15-standard.toml", "must be paid",
                           "shall be paid")
    done = subprocess.run([sys.executable, "-m", "auditor", "verify", str(signed_case)],
                          cwd=other, env={**os.environ, "PYTHONPATH": str(other)},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stdout + done.stderr
    assert ("(another rule base): rules/20-18-15-standard.toml differs" in done.stdout)
    assert done.stdout.count("DIFFERS") == 1


def test_a_signature_that_is_not_base64(signed_case: Path, keys: dict, tmp_path: Path,
                                        capsys) -> None:
    folder = copy_of(signed_case, tmp_path)
    (folder / "manifest.sig").write_text("not a signature at all!\n", encoding="ascii")
    status, said = verify(folder, "--key", f"{keys['inspector']}.pub", capsys=capsys)
    assert status == 1 and ("DIFFERS manifest.sig: not an Ed25519 signature in base64 (a "
                            "plain file of 88 characters and a newline; this one is 24 "
                            "bytes)") in said


@pytest.mark.parametrize("copy", ["../../etc/passwd", "/etc/passwd", "inputs/../../x.bjh"])
def test_an_input_copy_outside_the_folder_is_refused(signed_case: Path, copy: str,
                                                     tmp_path: Path, capsys) -> None:
    folder = copy_of(signed_case, tmp_path)
    rewrite_manifest(folder, lambda m: m["inputs"][0].update(copy=copy))
    status, said = verify(folder, capsys=capsys)
    assert status == 2 and "an input's copy lies outside the folder" in said


@pytest.mark.parametrize("name", ["../report.html", "/tmp/report.html"])
def test_an_output_outside_the_folder_is_refused(signed_case: Path, name: str,
                                                 tmp_path: Path, capsys) -> None:
    folder = copy_of(signed_case, tmp_path)
    rewrite_manifest(folder, lambda m: m["outputs"].update({name: "0" * 64}))
    status, said = verify(folder, capsys=capsys)
    assert status == 2 and "an output is not a file of the folder" in said


def test_a_deleted_input_with_no_finding_is_named(run: Path, tmp_path: Path, capsys) -> None:
    """A run whose second input has no finding of its own: the input deleted is named, though
    the findings audited again are the same."""
    record = tmp_path / "records" / "clean.bjh"
    record.parent.mkdir()
    text = (SAMPLES / "standard-t11-2026-11-20.bjh").read_text(encoding="utf-8")
    lines = text.split("\n")
    last_end = max(i for i, line in enumerate(lines[:80]) if line.endswith(" end"))
    clean = "\n".join(lines[:last_end + 1]) + "\n"  # the header and the first rounds: no fault
    record.write_text(clean, encoding="utf-8")
    out = tmp_path / "out"
    main(["audit", str(record), T22, "--out", str(out), "--quiet", "--store",
          str(tmp_path / "h.sqlite")])
    document = json.loads((out / "findings.json").read_text(encoding="utf-8"))
    assert not [f for f in document["findings"] if f["file"] == str(record)]
    record.unlink()
    status, said = verify(out, capsys=capsys)
    assert status == 1 and f"DIFFERS input {record}: missing" in said


@pytest.mark.parametrize("field, value", [("expected", "999.00"), ("actual", "0.00"),
                                          ("seat", "s7"), ("line", 1), ("citation", "20:18:15:07")])
def test_a_finding_changed_in_findings_json_is_named(signed_case: Path, field: str, value,
                                                     tmp_path: Path, capsys) -> None:
    """A finding's amount (or place) changed and findings.json hashed into the manifest
    again: without a key the hashes hold, the findings audited again do not."""
    from auditor.manifest import sha256_of

    folder = copy_of(signed_case, tmp_path)
    path = folder / "findings.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    target = next(f for f in document["findings"] if f.get("expected"))
    target[field] = value
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    rewrite_manifest(folder, lambda m: m["outputs"].update({"findings.json": sha256_of(path)}))
    status, said = verify(folder, capsys=capsys)
    assert status == 1, said
    assert "DIFFERS findings: audited again, 1 finding(s) not in findings.json and 1 of " \
           "findings.json not found" in said


def test_a_refused_manifest_signed_by_the_key_given_is_refused(signed_case: Path, keys: dict,
                                                               tmp_path: Path, capsys) -> None:
    """A manifest that names nothing to check, yet signed by the key given: nothing was
    changed since it was signed, so it is refused (2), not told as a change (1)."""
    from auditor.manifest import sign_manifest

    folder = copy_of(signed_case, tmp_path)
    rewrite_manifest(folder, lambda m: m.update(inputs=[]))
    sign_manifest(folder, keys["inspector"])
    status, said = verify(folder, "--key", f"{keys['inspector']}.pub", capsys=capsys)
    assert status == 2, said
    assert said.strip() == (f"auditor: {folder}/manifest.json names no input: there is "
                            "nothing to check the findings against")


def _build_changed(folder: Path, count: int) -> list[str]:
    """`count` files of the build given another SHA-256 in the manifest: their names."""
    names: list[str] = []

    def change(manifest: dict) -> None:
        files = manifest["build"]["files"]
        names.extend(sorted(n for n in files if n.startswith("auditor/"))[:count])
        files.update({name: "0" * 64 for name in names})

    rewrite_manifest(folder, change)
    assert len(names) == count
    return names


@pytest.mark.parametrize("count", [10, 11])
def test_the_files_of_another_build_are_named_ten_at_most(run: Path, count: int,
                                                          tmp_path: Path) -> None:
    from auditor.verify import verify_folder

    folder = copy_of(run, tmp_path)
    names = _build_changed(folder, count)
    verdict = verify_folder(folder)
    assert verdict.differences == []
    [said] = verdict.auditor
    listed = "; ".join(f"{name} differs" for name in names[:10])
    assert said.endswith(f"): {listed}" + ("; and 1 more" if count == 11 else ""))


@pytest.mark.parametrize("count", [20, 23])
def test_unlisted_files_are_named_twenty_at_most(signed_case: Path, count: int,
                                                 tmp_path: Path) -> None:
    from auditor.verify import verify_folder

    folder = copy_of(signed_case, tmp_path)
    for number in range(count):
        (folder / f"extra-{number:02d}.txt").write_text("x", encoding="utf-8")
    differences = verify_folder(folder).differences
    assert differences[:20] == [f"unlisted file extra-{n:02d}.txt: not part of the folder as "
                                "made (the manifest does not name it)" for n in range(20)]
    assert differences[20:] == (["and 3 more file(s) the manifest does not name"]
                                if count == 23 else [])


def test_an_input_unreadable_when_audited_is_not_checked(tmp_path: Path, capsys) -> None:
    """An input that could not be read has no SHA-256 in the manifest: verify says it was
    not checked, and holds for the rest (the binary file is still there, unchanged)."""
    binary = tmp_path / "binary.bjh"
    binary.write_bytes(b"bjh 1\n\x00\x01")
    out = tmp_path / "out"
    assert main(["audit", T22, str(binary), "--out", str(out), "--quiet", "--store",
                 str(tmp_path / "h.sqlite")]) == 2
    status, said = verify(out, capsys=capsys)
    assert status == 4, said
    assert f"input {binary}: unreadable when audited, not checked" in said
    assert "DIFFERS" not in said


def test_a_case_with_two_gaming_day_starts_is_refused(signed_case: Path, tmp_path: Path,
                                                      capsys) -> None:
    manifest = json.loads((signed_case / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["scope"]["gaming_day_starts"] == "06:00"
    assert manifest["conditions"]["calendar"]["gaming_day_starts"] == "06:00"
    status, said = verify(copy_of(signed_case, tmp_path / "same"), capsys=capsys)
    assert status == 4 and "gaming day starts" not in said  # holds, only unsigned-checked
    folder = copy_of(signed_case, tmp_path / "two")
    rewrite_manifest(folder, lambda m: m["scope"].update(gaming_day_starts="04:00"))
    status, said = verify(folder, capsys=capsys)
    assert status == 2
    assert ("the scope's gaming day starts at 04:00 and the conditions' calendar at 06:00"
            in said)


@pytest.mark.parametrize("name", ["manifest.json", "manifest.sig"])
def test_a_manifest_or_signature_that_is_a_link_fails(signed_case: Path, keys: dict, name: str,
                                                      tmp_path: Path, capsys) -> None:
    """The signed manifest (or its signature) moved out and a link left in its place: the
    bytes still verify while the file elsewhere is there, but the folder no longer holds its
    own manifest (moved or handed over, it loses it; whoever changes the file elsewhere
    changes the case)."""
    folder = copy_of(signed_case, tmp_path)
    outside = tmp_path / f"outside-{name}"
    shutil.move(folder / name, outside)
    (folder / name).symlink_to(outside)
    status, said = verify(folder, "--key", f"{keys['inspector']}.pub", capsys=capsys)
    assert status == 1, said
    differences = [line for line in said.splitlines() if line.startswith("DIFFERS")]
    assert differences == [
        f"DIFFERS {name}: a link to {outside}, not the folder's own file: it would not go "
        "with the folder, and a change where it points changes it"]
    assert said.rstrip().endswith("1 difference(s): the folder was changed since it was made")


def test_a_manifest_naming_an_input_twice_is_refused_before_any_audit(signed_case: Path,
                                                                      keys: dict,
                                                                      tmp_path: Path,
                                                                      capsys) -> None:
    """No audit or case names one input twice (an audit takes each file once): a manifest
    that does, say ten thousand times, would have verify hash and audit it again each time
    (hours), for a folder that is not as made anyway."""
    folder = copy_of(signed_case, tmp_path)
    rewrite_manifest(folder, lambda m: m.update(inputs=m["inputs"] * 3))
    status, said = verify(folder, capsys=capsys)
    assert status == 2, said
    assert said.endswith("manifest.json names the input inputs/standard-t11-2026-11-20.bjh "
                         "more than once: no folder is made so\n"), said
    assert "audited" not in said
    # with the signer's key, the change is told (the manifest is not the one signed)
    status, said = verify(folder, "--key", f"{keys['inspector']}.pub", capsys=capsys)
    assert status == 1, said
    assert "DIFFERS manifest.sig: the signature does not match manifest.json" in said
    assert "audited" not in said


@pytest.mark.parametrize("change", [
    lambda m: m["inputs"][0].update(copy="inputs/a\x00b.bjh"),
    lambda m: m["outputs"].update({"notes\x00.txt": "0" * 64}),
    lambda m: m.update(kind="run", inputs=[{"path": "a\x00.bjh", "sha256": "0" * 64}],
                       outputs={n: "0" * 64 for n in ("findings.json", "findings.csv",
                                                      "summary.csv", "report.html")}),
])
def test_a_name_with_a_nul_is_refused_not_a_crash(signed_case: Path, keys: dict, change,
                                                   tmp_path: Path, capsys) -> None:
    """No file name holds a NUL byte: a manifest that names one was not made by an audit or
    a case. Refused (exit 2), or with the signer's key told as the change it is (exit 1);
    the auditor never fails on it (exit 3)."""
    folder = copy_of(signed_case, tmp_path)
    rewrite_manifest(folder, change)
    status, said = verify(folder, capsys=capsys)
    assert status == 2, said
    assert said.endswith("manifest.json names a file with a NUL byte in its name, which no "
                         "file can have\n"), said
    status, said = verify(folder, "--key", f"{keys['inspector']}.pub", capsys=capsys)
    assert status == 1, said
    assert ("DIFFERS manifest.json: " + str(folder / "manifest.json") + " names a file with a "
            "NUL byte in its name, which no file can have") in said


@pytest.mark.parametrize("kind", [[], {}, ["case"], {"case": 1}])
def test_a_kind_that_is_not_a_word_is_refused_not_a_crash(signed_case: Path, kind,
                                                          tmp_path: Path, capsys) -> None:
    folder = copy_of(signed_case, tmp_path)
    rewrite_manifest(folder, lambda m: m.update(kind=kind))
    status, said = verify(folder, capsys=capsys)
    assert status == 2, said
    assert said.endswith("manifest.json: 'kind' is neither a run nor a case\n"), said


@pytest.mark.parametrize("field, value", [("citation", []), ("line", {"a": 1}),
                                          ("seat", 1), ("hand", True)])
def test_a_finding_of_findings_json_that_is_no_finding_is_a_change(
        signed_case: Path, keys: dict, field: str, value, tmp_path: Path, capsys) -> None:
    """findings.json edited so a finding's place is a list, an object or a number: under
    the signer's key it is the change it is (exit 1), never the auditor failing (exit 3)."""
    folder = copy_of(signed_case, tmp_path)
    path = folder / "findings.json"
    made = path.stat().st_size
    document = json.loads(path.read_text(encoding="utf-8"))
    document["findings"][0][field] = value
    path.write_text(json.dumps(document), encoding="utf-8")
    status, said = verify(folder, "--key", f"{keys['inspector']}.pub", capsys=capsys)
    assert status == 1, said
    assert (f"DIFFERS output findings.json: {path.stat().st_size:,} bytes, the manifest "
            f"names {made:,} (edited since it was made; not read)") in said
    assert said.rstrip().endswith("the folder was changed since it was made")


@pytest.mark.parametrize("how", ["moved", "cp -a", "zip and unzip"])
def test_a_genuine_case_handed_over_still_verifies(signed_case: Path, keys: dict, how: str,
                                                   tmp_path: Path, monkeypatch,
                                                   capsys) -> None:
    """The case moved to another folder, copied by `cp -a`, or zipped and unzipped
    elsewhere, and verified from its new parent by a relative path: exit 0, every question
    answered as for the folder as made."""
    if how == "zip and unzip" and not (shutil.which("zip") and shutil.which("unzip")):
        pytest.skip("zip and unzip are not installed")
    made = tmp_path / "made" / "case file é"
    shutil.copytree(signed_case, made)
    there = tmp_path / "elsewhere"
    there.mkdir()
    if how == "moved":
        shutil.move(made, there / "RL-0412")
    elif how == "cp -a":
        subprocess.run(["cp", "-a", str(made), str(there / "RL-0412")], check=True)
    else:
        subprocess.run(["zip", "-qr", str(tmp_path / "case.zip"), made.name], check=True,
                       cwd=made.parent)
        subprocess.run(["unzip", "-q", str(tmp_path / "case.zip")], check=True, cwd=there)
        (there / made.name).rename(there / "RL-0412")
    monkeypatch.chdir(there)
    status, said = verify(Path("RL-0412"), "--key", f"{keys['inspector']}.pub",
                          capsys=capsys)
    assert status == 0, said
    assert said.rstrip().splitlines()[-1] == (
        "RL-0412: every input and output hashes as in the manifest, no other file is "
        "there, and the inputs audited again give the same findings, and it is signed by "
        "the key given")
