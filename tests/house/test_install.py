"""`pip install .` into a fresh virtual environment, outside the checkout, audits correctly:
the grammar and the rule base ship inside the package."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv

from auditor.identity import apply_identity
from auditor.run import audit_paths, collect_paths
from tests.helpers import ROOT


def test_installed_package_audits_the_samples_like_the_checkout(tmp_path) -> None:
    environment = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(environment)
    python = environment / "bin" / "python"
    wheels = tmp_path / "wheels"
    # As a user would: pip fetches the build backend into an isolated build environment.
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "-w", str(wheels), str(ROOT)], check=True)
    [wheel] = wheels.glob("*.whl")
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", str(wheel)], check=True)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    clean_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    completed = subprocess.run(
        [str(environment / "bin" / "auditor"), "audit", str(ROOT / "sample_logs"),
         "--out", str(outside / "out"), "--jobs", "1", "--quiet"],
        cwd=outside, env=clean_env, capture_output=True, text=True)
    assert completed.returncode in (0, 1), completed.stderr
    installed = json.loads((outside / "out" / "findings.json").read_text())
    located = subprocess.run([str(python), "-c", "import auditor.resources as r; "
                              "print(r.data_dir('grammars'))"], cwd=outside, env=clean_env,
                             capture_output=True, text=True, check=True).stdout
    assert str(ROOT) not in located and "_data" in located
    here = audit_paths(collect_paths([str(ROOT / "sample_logs")]), jobs=1)
    apply_identity(here)
    keys = {i.path: i.table_key for i in here.inputs}  # findings.json adds the table's key
    assert installed["findings"] == [{**f.as_dict(), "table_key": keys[f.file]}
                                     for f in here.findings]
    assert [i["sha256"] for i in installed["inputs"]] == [i.sha256 for i in here.inputs]
