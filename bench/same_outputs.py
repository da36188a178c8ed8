"""Whether two revisions write the same outputs, byte for byte, on one fixed workload.

    .venv/bin/python bench/same_outputs.py REV [REV2] [--fault-rate F] [--rounds R]

A speed change must not change what the auditor says. This runs `auditor audit DIR --out
OUT --quiet --jobs 1` once for REV and once for REV2 (default: the working tree) on
bench/compare.py's workload, then compares every file each run wrote (findings.json,
findings.csv, summary.csv, report.html, ...) line by line, after putting placeholders for
what names the run rather than the audit: the folders of the workload, the checkout and
the output, the times and versions of the run, and the build (the digests of the auditor's
own files, which any change to its code changes). It prints each file as `same` or with
its first differing lines, and exits 0 only when every file is the same.
A benchmark's companion, never a unit test.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import compare  # bench/compare.py: the workload and the checkouts

# What differs from run to run of one revision: times, durations, the auditor's version
# (a checkout and the working tree name it differently) and what is a digest of those (the
# report's fingerprint, its style's hash in the page's security policy, the manifest's
# digests of the files that hold a time).
_VOLATILE = (
    (re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?"),
     "<time>"),
    (re.compile(r'"(auditor_version|auditor|version|revision|duration|seconds|elapsed)": '
                r'("[^"]*"|[0-9.]+)'), r'"\1": <run>'),
    (re.compile(r"bjh-auditor [0-9][^ \"<]*"), "bjh-auditor <version>"),
    (re.compile(r"(fingerprint\W+(?:<code>)?|report |<dt>Report fingerprint</dt><dd><code>)"
                r"[0-9a-f]{16}"), r"\1<fingerprint>"),
    (re.compile(r"\((?:\d+ h )?(?:\d+ min )?\d+ s\)"), "(<duration>)"),
    (re.compile(r"'sha256-[A-Za-z0-9+/=]{44}'"), "'<style digest>'"),
    (re.compile(r'"(findings\.json|report\.html)": "[0-9a-f]{64}"'), r'"\1": "<digest>"'),
    # the build: a digest of the auditor's own files, which a change to the code changes
    (re.compile(r'"build": "[0-9a-f]{64}"'), '"build": "<build>"'),
    (re.compile(r"build <code>[0-9a-f]{16}</code>"), "build <code><build></code>"),
)


def _normalised(text: str, places: dict[str, str], name: str) -> list[str]:
    if name.endswith("manifest.json"):  # its build: the digests of the auditor's own files
        with contextlib.suppress(ValueError):
            manifest = json.loads(text)
            if isinstance(manifest, dict):
                manifest.pop("build", None)
                text = json.dumps(manifest, indent=2)
    for place, name in places.items():
        text = text.replace(place, name)
    lines = text.splitlines()
    for pattern, replacement in _VOLATILE:
        lines = [pattern.sub(replacement, line) for line in lines]
    return lines


def _audit(tree: Path, folder: Path, out: Path) -> None:
    env = compare.child_environment(tree, XDG_DATA_HOME=str(out.parent / "data"))
    done = subprocess.run([sys.executable, "-m", "auditor", "audit", str(folder), "--out",
                           str(out), "--quiet", "--jobs", "1"], env=env, cwd=out.parent,
                          capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):
        raise SystemExit(f"the audit of {tree} failed ({done.returncode}):\n"
                         f"{done.stderr[-3000:]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rev", help="a git revision (the baseline)")
    parser.add_argument("rev2", nargs="?", help="another revision (default: the working tree)")
    parser.add_argument("--rounds", type=int, default=20_000)
    parser.add_argument("--fault-rate", type=float, default=compare.FAULTS)
    arguments = parser.parse_args(argv)
    folder, _ = compare.workload(arguments.rounds, False, arguments.fault_rate)
    with tempfile.TemporaryDirectory(prefix="bjh-same-") as temporary:
        base = Path(temporary)
        trees = [compare.checkout(arguments.rev, base)]
        trees.append(compare.checkout(arguments.rev2, base) if arguments.rev2
                     else compare.compiled(compare.ROOT))
        outs = []
        try:
            for number, tree in enumerate(trees):
                out = base / f"run-{number}" / "out"
                out.parent.mkdir()
                _audit(tree, folder, out)
                outs.append(out)
        finally:
            for tree in trees:
                if tree != compare.ROOT:
                    compare.remove(tree)
        # .runs/ holds each run's copy of the same files under the run's own name
        names = sorted({p.relative_to(o).as_posix() for o in outs for p in o.rglob("*")
                        if p.is_file() and ".runs" not in p.relative_to(o).parts})
        differing = 0
        for name in names:
            texts = []
            for number, out in enumerate(outs):
                path = out / name
                places = {str(folder): "<workload>", str(out): "<out>",
                          str(trees[number]): "<tree>"}
                texts.append(_normalised(path.read_text(errors="replace"), places, name)
                             if path.exists() else ["<missing>"])
            if texts[0] == texts[1]:
                print(f"same       {name}")
                continue
            differing += 1
            diff = list(difflib.unified_diff(texts[0], texts[1], "before", "after",
                                             lineterm="", n=0))
            print(f"DIFFERENT  {name} ({len(diff)} diff lines); the first:")
            for line in diff[:40]:
                print(f"    {line[:200]}")
    print("every output the same" if not differing else f"{differing} outputs differ")
    return 0 if not differing else 1


if __name__ == "__main__":
    raise SystemExit(main())
