"""`auditor verify` against files swapped for huge (sparse) ones: the manifest names each
input's and output's size, a file of another size is told by its size without being read,
and no file is read past the size named and one byte more. An older manifest (no sizes)
still verifies, and says what it cannot bound. Real keys, real audits of the sample logs."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from auditor.cli import main
from auditor.manifest import hashed
from tests.helpers.signed_case import T11, audited_t11, copy_of, made_key, signed_case
from tests.helpers.verifying import verify

COPY = "inputs/standard-t11-2026-11-20.bjh"
HUGE = 1 << 40  # a tebibyte, sparse: read whole, verify would run for hours


@pytest.fixture(scope="module")
def keys(tmp_path_factory) -> Path:
    return made_key(tmp_path_factory)


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    return audited_t11(tmp_path_factory)


@pytest.fixture(scope="module")
def case(run: Path, keys: Path, tmp_path_factory) -> Path:
    return signed_case(run, keys, tmp_path_factory)


def manifest_of(folder: Path) -> dict:
    return json.loads((folder / "manifest.json").read_text(encoding="utf-8"))


def swap_for_huge(path: Path) -> None:
    path.unlink()
    with open(path, "wb") as stream:
        stream.truncate(HUGE)


def test_a_case_and_a_run_name_every_size(case: Path, run: Path) -> None:
    manifest = manifest_of(case)
    assert manifest["inputs"][0]["size"] == T11.stat().st_size
    assert (case / COPY).stat().st_size == T11.stat().st_size
    assert manifest["output_sizes"] == {name: (case / name).stat().st_size
                                        for name in ("case.html", "findings.json")}
    ran = manifest_of(run)
    assert [entry["size"] for entry in ran["inputs"]] == [T11.stat().st_size]
    assert sorted(ran["output_sizes"]) == sorted(ran["outputs"])
    assert all(size == (run / name).stat().st_size
               for name, size in ran["output_sizes"].items())


def test_an_input_swapped_for_a_huge_file_is_told_by_its_size_unread(
        case: Path, keys: Path, tmp_path: Path, capsys) -> None:
    folder = copy_of(case, tmp_path)
    swap_for_huge(folder / COPY)
    status, said = verify(folder, "--key", f"{keys}.pub", capsys=capsys)
    assert status == 1, said
    size = T11.stat().st_size
    assert (f"DIFFERS input {COPY}: {HUGE:,} bytes, the manifest names {size:,} (the record "
            "was edited; not read)") in said.splitlines()
    assert (f"input {COPY}: not audited again (larger than the manifest names: its findings "
            "are not compared)") in said.splitlines()
    assert "findings: audited again" not in said  # its findings are not "not found now"


@pytest.mark.parametrize("name", ["case.html", "findings.json"])
def test_an_output_swapped_for_a_huge_file_is_told_by_its_size_unread(
        case: Path, keys: Path, name: str, tmp_path: Path, capsys) -> None:
    folder = copy_of(case, tmp_path)
    size = (folder / name).stat().st_size
    swap_for_huge(folder / name)
    status, said = verify(folder, "--key", f"{keys}.pub", capsys=capsys)
    assert status == 1, said
    assert (f"DIFFERS output {name}: {HUGE:,} bytes, the manifest names {size:,} (edited "
            "since it was made; not read)") in said.splitlines()


def test_a_file_is_never_read_past_its_size_and_one_byte(tmp_path: Path) -> None:
    path = tmp_path / "grown"
    path.write_bytes(b"x" * 5000)
    assert hashed(path, 10)[1] == 11
    assert hashed(path, 5000)[1] == 5000
    assert hashed(path)[1] == 5000


def test_an_older_manifest_without_sizes_still_verifies_and_says_what_it_cannot_bound(
        case: Path, tmp_path: Path, capsys) -> None:
    folder = copy_of(case, tmp_path)
    (folder / "manifest.sig").unlink()

    def older(manifest: dict) -> None:
        manifest.pop("output_sizes")
        manifest.pop("signer")
        for entry in manifest["inputs"]:
            entry.pop("size")
    manifest = manifest_of(folder)
    older(manifest)
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    status, said = verify(folder, capsys=capsys)
    assert status == 4, said
    assert ("sizes: the manifest names none (made by an auditor before sizes were recorded): "
            "each file is hashed whole, so a file put in a named file's place is told only "
            "once read to its end; its SHA-256 proves the same bytes") in said.splitlines()


@pytest.mark.parametrize("change, refusal", [
    (lambda m: m["inputs"][0].update(size=-1), f"the input {COPY}'s size -1 is not a count"),
    (lambda m: m["inputs"][0].update(size=True), f"the input {COPY}'s size True is not a"),
    (lambda m: m["inputs"][0].update(size="12"), f"the input {COPY}'s size 12 is not a"),
    (lambda m: m["output_sizes"].update({"case.html": 1.5}),
     "the output case.html's size 1.5 is not a count of bytes"),
    (lambda m: m["output_sizes"].pop("case.html"),
     "'output_sizes' does not name the size of each output, and of no other file"),
    (lambda m: m["output_sizes"].update({"x\x1b[2J": 1}),
     "'output_sizes' does not name the size of each output"),
])
def test_a_size_that_is_no_count_of_bytes_is_refused(case: Path, change, refusal: str,
                                                     tmp_path: Path, capsys) -> None:
    folder = copy_of(case, tmp_path)
    manifest = manifest_of(folder)
    change(manifest)
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    status, said = verify(folder, capsys=capsys)
    assert status == 2 and refusal in said, said
    assert "\x1b" not in said


def test_a_file_of_its_size_but_other_bytes_is_hashed(case: Path, tmp_path: Path,
                                                      capsys) -> None:
    folder = copy_of(case, tmp_path)
    data = bytearray((folder / COPY).read_bytes())
    data[-2] ^= 1
    (folder / COPY).write_bytes(bytes(data))
    os.utime(folder / COPY)
    status, said = verify(folder, capsys=capsys)
    assert status == 1
    assert f"DIFFERS input {COPY}: SHA-256 differs (the record was edited)" in said


@pytest.mark.parametrize("ending", [b"\n", b""])
def test_the_size_is_the_bytes_hashed_whole_or_in_pieces(ending: bytes, tmp_path: Path) -> None:
    from auditor.audit import audit_file
    from auditor.split import audit_split

    path = tmp_path / "t11.bjh"
    path.write_bytes(T11.read_bytes().rstrip(b"\n") + ending)
    whole, pieces = audit_file(str(path)).summary, audit_split(str(path), 2000).summary
    assert whole.size == pieces.size == path.stat().st_size
    assert whole.sha256 == pieces.sha256


def test_a_named_pipe_is_never_opened_to_wait_for_a_writer(tmp_path: Path) -> None:
    from auditor.manifest import ManifestError

    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with pytest.raises(ManifestError) as refused:
        hashed(pipe, 10)
    assert str(refused.value) == f"the file {pipe} is a named pipe, not a plain file: not read"


@pytest.mark.parametrize("grown", [HUGE, None])
def test_a_case_of_an_input_changed_since_the_run_is_refused_by_its_size(
        grown: int | None, tmp_path: Path, capsys) -> None:
    """An input swapped for a huge file after the run is told by its size, unread; one of
    the same size and other bytes by its SHA-256."""
    record = tmp_path / "t11.bjh"
    record.write_bytes(T11.read_bytes())
    out = tmp_path / "run"
    assert main(["audit", str(record), "--out", str(out), "--quiet", "--store",
                 str(tmp_path / "history.sqlite")]) == 1
    size = record.stat().st_size
    if grown is None:
        record.write_bytes(T11.read_bytes().replace(b"T11", b"T12", 1))
    else:
        swap_for_huge(record)
    capsys.readouterr()
    assert main(["case", str(out), "--licensee", "RL-0412", "--out",
                 str(tmp_path / "case")]) == 2
    told = (f"{HUGE:,} bytes, the run audited {size:,}" if grown else "SHA-256 differs")
    assert capsys.readouterr().err == (f"auditor: input {record} has changed since the run "
                                       f"({told}): audit it again\n")
    assert not (tmp_path / "case").exists()


def test_a_run_whose_inputs_name_no_size_says_so(run: Path, tmp_path: Path, capsys) -> None:
    """As `auditor report RUN` writes for a run stored before sizes were recorded: its
    outputs' sizes, not its inputs'. It verifies, and says which inputs are hashed whole."""
    folder = tmp_path / "run"
    shutil.copytree(run.resolve(), folder)
    manifest = manifest_of(folder)
    manifest["inputs"][0].pop("size")
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    status, said = verify(folder, capsys=capsys)
    assert status == 4, said
    assert (f"sizes: the manifest names none for 1 input(s) (audited before sizes were "
            f"recorded: {T11}): each is hashed whole") in said.splitlines()


def test_an_input_swapped_between_its_hash_and_its_audit_again_differs(
        case: Path, tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    """The input hashes as named, then is swapped (a share someone else writes) before it
    is audited again: the findings compared would be another record's. Told as such; the
    window is widened by running the swap just before the real audit again."""
    import auditor.reproduce

    folder = copy_of(case, tmp_path)
    record = folder / COPY
    real = auditor.reproduce.audit_again

    def swapped_first(paths, conditions):
        record.write_bytes(record.read_bytes().replace(b"main win 20", b"main win 30", 1))
        return real(paths, conditions)

    monkeypatch.setattr(auditor.reproduce, "audit_again", swapped_first)
    status, said = verify(folder, capsys=capsys)
    assert status == 1
    assert [line for line in said.splitlines() if line.startswith("DIFFERS")] == [
        f"DIFFERS input {COPY}: changed while it was verified (it hashed as named, then its "
        "audit again read other bytes): its findings are not compared"]
