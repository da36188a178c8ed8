"""`copy_problems`: a case folder's files must be its own (auditor/case/copies.py). A real
case from a sample log, then its copy swapped for a link out of the folder (the probe
C02), its inputs/ folder for a link, a named pipe in a copy's place (never opened), a
copy outside the folder, a case input with no copy, a linked output."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from auditor.case.copies import copy_problems
from auditor.cli import main
from tests.helpers import ROOT, SAMPLES

RECORD = ROOT / "sample_logs" / "tensticks-t32-2026-11-21.bjh"
COPY = "inputs/tensticks-t32-2026-11-21.bjh"
NOT_OWN = ("not the folder's own file: it would not go with the folder, and a change where "
           "it points changes it")


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("made")
    assert main(["audit", str(RECORD), "--out", str(folder / "run"), "--quiet", "--store",
                 str(folder / "h.sqlite")]) == 1
    assert main(["case", str(folder / "run"), "--licensee", "RL-0412", "--out",
                 str(folder / "case")]) == 0
    return folder / "case"


@pytest.fixture
def case(made: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "case"
    shutil.copytree(made, copy)
    return copy


def manifest(case: Path) -> dict:
    return json.loads((case / "manifest.json").read_text(encoding="utf-8"))


def test_a_case_as_made_holds_its_own_files(case: Path) -> None:
    assert [entry["copy"] for entry in manifest(case)["inputs"]] == [COPY]
    assert copy_problems(case, manifest(case)) == []


def test_a_copy_that_links_out_of_the_folder(case: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside-copy.bjh"
    shutil.copyfile(case / COPY, outside)
    (case / COPY).unlink()
    (case / COPY).symlink_to(outside)
    assert copy_problems(case, manifest(case)) == [
        f"input {COPY}: a link to {outside}, {NOT_OWN}"]


def test_a_link_to_a_file_of_the_folder_itself_is_no_copy_either(case: Path) -> None:
    shutil.copyfile(case / COPY, case / "inputs" / "twin.bjh")
    (case / COPY).unlink()
    (case / COPY).symlink_to("twin.bjh")
    assert copy_problems(case, manifest(case)) == [
        f"input {COPY}: a link to twin.bjh, {NOT_OWN}"]


def test_an_inputs_folder_that_links_out(case: Path, tmp_path: Path) -> None:
    shutil.move(case / "inputs", tmp_path / "elsewhere")
    (case / "inputs").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    assert copy_problems(case, manifest(case)) == [
        f"input {COPY}: a link (its folder inputs) to {tmp_path / 'elsewhere'}, {NOT_OWN}"]


def test_a_named_pipe_is_named_and_never_opened(case: Path) -> None:
    (case / COPY).unlink()
    os.mkfifo(case / COPY)  # opening it would wait for a writer for ever
    assert copy_problems(case, manifest(case)) == [
        f"input {COPY}: not a plain file (a folder's files are plain files)"]


def test_copies_outside_missing_or_absent(case: Path) -> None:
    document = manifest(case)
    entry = document["inputs"][0]
    for outside in ("../../etc/passwd", "/etc/passwd"):
        assert copy_problems(case, {**document, "inputs": [{**entry, "copy": outside}]}) == [
            f"input {outside}: lies outside the folder"]
    # missing: left to the hash check
    (case / COPY).unlink()
    assert copy_problems(case, document) == []
    # a case's input with no copy (only where it once lay): not the case's own
    located = {"name": entry["name"], "sha256": entry["sha256"], "located": "/etc/passwd"}
    assert copy_problems(case, {**document, "inputs": [located]}) == [
        f"input {entry['name']}: the case holds no copy of it (a case's inputs are its own "
        "copies, under inputs/)"]
    # a run folder's manifest names inputs where they lie: nothing to say
    assert copy_problems(case, {**document, "kind": "run", "inputs": [located]}) == []


def test_a_linked_output_and_a_hostile_target_shown_escaped(case: Path,
                                                            tmp_path: Path) -> None:
    target = tmp_path / "forged\x1b[2J\ncase.html"
    target.write_text("<p>forged</p>", encoding="utf-8")
    (case / "case.html").unlink()
    (case / "case.html").symlink_to(target)
    assert copy_problems(case, manifest(case)) == [
        f"output case.html: a link to {tmp_path}/forged\\x1b[2J\\ncase.html, {NOT_OWN}"]


def test_inputs_whose_names_clash_by_case_or_normalisation_get_copies_apart(
        tmp_path: Path, capsys) -> None:
    """Café.bjh in NFC and in NFD, CAFÉ.bjh and a confusable Cafе.bjh (Cyrillic е): each
    copied under a name of its own, plain ASCII, none differing from another by case alone
    (a case unpacked on a case-insensitive disk keeps them apart), and the case verifies."""
    import unicodedata

    record = (SAMPLES / "standard-t11-2026-11-20.bjh").read_bytes()
    names = [unicodedata.normalize("NFC", "Café.bjh"), unicodedata.normalize("NFD", "Café.bjh"),
             "CAFÉ.bjh", "Caf\u0435.bjh"]
    paths = []
    for number, name in enumerate(names):
        path = tmp_path / "records" / name
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(record + f"# copy {number}\n".encode())
        paths.append(str(path))
    out = tmp_path / "run"
    assert main(["audit", *paths, "--out", str(out), "--quiet", "--store",
                 str(tmp_path / "history.sqlite")]) == 1
    assert main(["case", str(out), "--licensee", "RL-0412", "--out",
                 str(tmp_path / "case")]) == 0
    copies = sorted(p.name for p in (tmp_path / "case" / "inputs").iterdir())
    assert len(copies) == 4 and len({name.lower() for name in copies}) == 4
    assert all(name.isascii() for name in copies), copies
    capsys.readouterr()
    assert main(["verify", str(tmp_path / "case")]) == 4, capsys.readouterr()
