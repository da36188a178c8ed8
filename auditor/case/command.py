"""`auditor case`, `auditor verify` and `auditor keygen` on the command line."""

from __future__ import annotations

import argparse
import json
import re
import shutil
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from auditor.case import EXHIBITS_AT_MOST
from auditor.case.building import building, out_problem
from auditor.case.scope import Scope
from auditor.case.source import CaseError, open_run
from auditor.refusal import Refused

CASE_OUTPUTS = ("case.html", "findings.json")
INPUTS = "inputs"


def add_parsers(commands: argparse._SubParsersAction) -> None:
    """`case`, `verify` and `keygen`, in that order."""
    add_case_parser(commands)
    add_verify_parser(commands)
    add_keygen_parser(commands)


def add_case_parser(commands: argparse._SubParsersAction) -> None:
    case = commands.add_parser(
        "case", help="the case file of one licensee from an audited run (HTML, PDF, manifest)",
        description="Write the case file of one licensee (licence ID or casino name, as the "
                    "records' headers give them) from a run of the store or an audit's --out "
                    "folder: CASEDIR/case.html (and case.pdf), the inputs in scope copied "
                    "under CASEDIR/inputs/, findings.json of the findings in scope, and "
                    "manifest.json with the SHA-256 of each (auditor verify checks them).")
    case.add_argument("run", metavar="RUN|DIR",
                      help="a run's number in the store, or the --out folder of an audit")
    case.add_argument("--licensee", required=True, metavar="ID",
                      help="the licence ID (e.g. RL-0412) or the casino's name")
    case.add_argument("--table", action="append", default=[], metavar="T",
                      help="only this table (repeat for more)")
    case.add_argument("--from", dest="date_from", default=None, metavar="DATE",
                      help="only gaming dates on or after DATE (YYYY-MM-DD)")
    case.add_argument("--until", dest="date_until", default=None, metavar="DATE",
                      help="only gaming dates on or before DATE (YYYY-MM-DD)")
    case.add_argument("--citation", action="append", default=[], metavar="C",
                      help="only this citation, or every subsection of a section such as "
                           "20:18:15:30.10 (repeat for more)")
    case.add_argument("--store", default=None, metavar="PATH_OR_URL",
                      help="the run store holding RUN (default: $BJH_STORE, else the "
                           "settings' store, else $XDG_DATA_HOME/bjh-auditor/floor.sqlite)")
    case.add_argument("--out", required=True, metavar="CASEDIR",
                      help="a new (or empty) folder for the case")
    case.add_argument("--pdf", action="store_true",
                      help="print case.pdf too, with Chromium (/usr/bin/chromium)")
    case.add_argument("--sign", default=None, metavar="KEY",
                      help="sign manifest.json with this Ed25519 private key (PEM): "
                           "manifest.sig")
    case.add_argument("--preparer", default=None, metavar="NAME",
                      help="who prepares the case: named on its attestation page (without "
                           "it the page says the preparer is not named)")
    case.add_argument("--agency", default=None, metavar="A",
                      help="the preparer's agency, on the attestation page")
    case.add_argument("--max-exhibits", type=int, default=EXHIBITS_AT_MOST, metavar="N",
                      help=f"most exhibits a case prints (default {EXHIBITS_AT_MOST}); over "
                           "it the case holds the summary and says how to narrow it")


def add_verify_parser(commands: argparse._SubParsersAction) -> None:
    verify = commands.add_parser(
        "verify", help="check a case or run folder against its manifest",
        description="Check the signature with --key, hash every input and output again, "
                    "name every file the manifest does not, compare this auditor's build with "
                    "the one that made the folder, audit the inputs again under the run's "
                    "conditions and compare the findings with the folder's findings.json. "
                    "Exit 0: all hold and the folder is signed by the key given; 1: something "
                    "differs (each difference named); 2: the folder, manifest or key cannot "
                    "be read, or the manifest names nothing to check; 4: all hold, but no "
                    "--key was given (who made the folder is not proven); 5: all hold, but "
                    "the folder was signed by another key than the one given.")
    verify.add_argument("folder", metavar="DIR", help="a case folder or an audit's --out folder")
    verify.add_argument("--key", default=None, metavar="PUB",
                        help="the signer's Ed25519 public key (PEM): check manifest.sig")


def add_keygen_parser(commands: argparse._SubParsersAction) -> None:
    keygen = commands.add_parser(
        "keygen", help="make an Ed25519 key pair for signing cases",
        description="Write a new Ed25519 private key to KEY (PEM, owner-readable only) and "
                    "its public key to KEY.pub. The same as: openssl genpkey -algorithm "
                    "ed25519 -out KEY && openssl pkey -in KEY -pubout -out KEY.pub")
    keygen.add_argument("key", metavar="KEY")


def run(arguments: argparse.Namespace, console, errors) -> int:
    """`auditor case`, `verify` or `keygen`. A case or manifest that cannot be used
    (`CaseError`, `ManifestError`), a folder or file that cannot be read or written, and a
    failure of the auditor itself (never told as 1, "differs") are told by the command
    line's guard in one line (auditor/commands/guard.py). `console` and `errors` are
    TextConsoles (auditor/shown.py): no markup, controls escaped, so names and record text
    print as written."""
    if arguments.command == "keygen":
        return _keygen(Path(arguments.key), console)
    if arguments.command == "verify":
        return _verify(Path(arguments.folder), arguments.key, console, errors)
    return make_case(arguments, console)


def _keygen(path: Path, console) -> int:
    from auditor.manifest import generate_key

    try:
        public = generate_key(path)
    except FileExistsError as error:
        raise Refused(f"auditor: {error.filename} exists: a key is never overwritten (nor "
                      "either half of a pair, nor a link)") from None
    except OSError as error:
        raise Refused(f"auditor: {error.filename or path} cannot be written "
                      f"({error.strerror}): no key was made") from None
    # two prints: the console shows a line break within one print as \n
    console.print(f"Private key: {path} (keep it secret)")
    console.print(f"Public key: {public} (give it to whoever verifies)")
    return 0


# `auditor verify`'s exit codes beyond 0 (holds), 1 (differs) and 2 (cannot be checked).
EXIT_NOT_AUTHENTICATED = 4
EXIT_OTHER_KEY = 5


def _verify(folder: Path, key: str | None, console, errors) -> int:
    from auditor.verify import verify_folder

    verdict = verify_folder(folder, key)
    for note in verdict.notes:
        console.print(note)
    for difference in verdict.differences + verdict.auditor:
        console.print(f"DIFFERS {difference}")
    if verdict.differences:
        console.print(f"{folder}: {len(verdict.differences)} difference(s): the folder was "
                      "changed since it was made")
        return 1
    if verdict.auditor:
        console.print(f"{folder}: every file is as its manifest says, but this auditor is not "
                      "the one that made it: verify it with the build the manifest names")
        return 1
    held = (f"{folder}: every input and output hashes as in the manifest, no other file is "
            "there, and the inputs audited again give the same findings")
    if verdict.signature == "other key":
        console.print(f"{held}; but it was signed by another key than the one given")
        return EXIT_OTHER_KEY
    if verdict.signature != "good":
        console.print(f"{held}; who made it is not proven (give --key with the signer's "
                      "public key)")
        return EXIT_NOT_AUTHENTICATED
    console.print(f"{held}, and it is signed by the key given")
    return 0


_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _date(text: str | None, flag: str) -> str | None:
    if text is None:
        return None
    try:
        if not _DATE.match(text):
            raise ValueError
        date.fromisoformat(text)
    except ValueError:
        raise CaseError(f"{flag} {text!r} is not a date (YYYY-MM-DD)") from None
    return text


def _named(text: str | None, flag: str) -> str | None:
    """A name given on the command line, its surrounding spaces dropped; never empty."""
    if text is None:
        return None
    if not text.strip():
        raise CaseError(f"{flag} names no one")
    return text.strip()


def make_case(arguments: argparse.Namespace, console) -> int:
    from auditor.case.render import PrintError
    from auditor.manifest import ManifestError

    scope = Scope(licensee=arguments.licensee, tables=tuple(arguments.table),
                  date_from=_date(arguments.date_from, "--from"),
                  date_until=_date(arguments.date_until, "--until"),
                  citations=tuple(arguments.citation))
    if scope.date_from and scope.date_until and scope.date_from > scope.date_until:
        raise CaseError(f"--from {scope.date_from} is after --until {scope.date_until}: no "
                        "gaming date is in between")
    if arguments.max_exhibits < 0:
        raise CaseError("--max-exhibits must be 0 or more")
    folder = Path(arguments.out)
    problem = out_problem(folder)  # before any work; checked again as the case is built
    if problem:
        raise CaseError(problem)
    if arguments.pdf:  # no Chromium is said before any work, as a bad key is
        from auditor.case.render import find_chromium

        try:
            find_chromium()
        except PrintError as error:
            raise CaseError(str(error)) from None
    if arguments.sign:  # the key is read before any work: a bad key costs nothing
        from auditor.manifest import signer_of

        signer_of(arguments.sign)
    source = open_run(arguments.run, arguments.store)
    try:
        model = write_case(source, scope, folder, arguments.pdf, arguments.sign,
                           arguments.max_exhibits,
                           preparer=_named(arguments.preparer, "--preparer"),
                           agency=_named(arguments.agency, "--agency"))
    except (PrintError, ManifestError) as error:
        raise CaseError(str(error)) from None
    made = ["case.html"] + (["case.pdf"] if arguments.pdf else [])
    console.print(f"Case {model.fingerprint}: {model.findings_in_scope} finding(s) of "
                  f"{len(model.tables)} input(s) written to {folder} ({', '.join(made)}, "
                  f"findings.json, manifest.json{', manifest.sig' if arguments.sign else ''})")
    if model.left_out:
        console.print(f"The case holds the summary only: {model.left_out} finding(s), over "
                      f"the limit of {model.exhibit_limit} exhibits, are not printed as "
                      "exhibits (all are in its findings.json); narrow it with --table, "
                      "--from/--until or --citation, or raise --max-exhibits")
    return 0


def write_case(source, scope: Scope, folder: Path, pdf: bool, key: str | None,
               limit: int = EXHIBITS_AT_MOST, *, preparer: str | None = None,
               agency: str | None = None):
    """Check the run against this auditor and its inputs, audit the inputs in scope again
    for their replays, and write the case folder; the case's model. The case is built
    beside `folder` and renamed to it whole (auditor/case/building.py): a failure, a PDF
    not printed included, leaves nothing at `folder`. `preparer` and `agency` are named on
    its attestation page."""
    with building(folder) as made:
        return _write_case_in(source, scope, made, pdf, key, limit, preparer, agency)


def _write_case_in(source, scope: Scope, folder: Path, pdf: bool, key: str | None,
                   limit: int, preparer: str | None, agency: str | None):
    from auditor.case.model import build_case
    from auditor.case.render import case_html, print_pdf
    from auditor.findings import Finding
    from auditor.manifest import (
        MANIFEST,
        build_manifest,
        finding_signature,
        hashed,
        manifest_text,
        rule_base_sha256,
        sign_manifest,
        signer_of,
    )
    from auditor.output.files import write_atomic
    from auditor.reproduce import (
        UnknownConditions,
        audit_again,
        conditions_of_run,
        for_licences,
    )
    from auditor.rulebase import rule_base_version

    run = source.run
    try:  # the gaming days the run gave its findings, for those audited again below
        scope = scope.under_calendar_of(run)
    except ValueError as error:
        raise CaseError(f"the run's calendar cannot be read: {error}") from None
    if run.get("rule_base") != rule_base_version():
        raise CaseError(f"the run was audited under rule base {run.get('rule_base')}; this "
                        f"auditor's is {rule_base_version()}: audit the inputs again")
    inputs = [summary for summary in source.inputs if scope.takes_input(summary)]
    if not inputs:
        raise CaseError(f"no input of {source.label} is of licensee {scope.licensee!r} "
                        "in the scope asked for")
    inputs = _one_licensee(inputs, scope.licensee, source.label)
    for summary in inputs:
        path = Path(summary.path)
        if not path.is_file():
            raise CaseError(f"input {summary.path} of the run is not there any more")
        # Its size first (runs since sizes were recorded): one grown huge is never read.
        size = path.stat().st_size
        if summary.size is not None and size != summary.size:
            raise CaseError(f"input {summary.path} has changed since the run ({size:,} "
                            f"bytes, the run audited {summary.size:,}): audit it again")
        if hashed(path, summary.size)[0] != summary.sha256:
            raise CaseError(f"input {summary.path} has changed since the run (SHA-256 "
                            "differs): audit it again")
    paths = {summary.path for summary in inputs}
    try:
        findings = [Finding.model_validate(document)
                    for document in source.finding_documents()
                    if isinstance(document, dict) and document.get("file") in paths]
    except ValueError as error:  # pydantic's ValidationError: a findings.json edited by hand
        raise CaseError(f"a finding of {source.label} cannot be read "
                        f"({type(error).__name__})") from None
    findings = [f for f in findings if scope.holds(f)]
    if scope.citations:  # a case about some citations holds the tables that show them
        shown = {f.file for f in findings}
        inputs = [summary for summary in inputs if summary.path in shown]
        if not inputs:
            raise CaseError(f"no finding of licensee {scope.licensee!r} in {source.label} "
                            "is of the citations asked for")
    # The inputs in scope audited again: the rounds' replays for the exhibits, and the proof
    # that this auditor finds what the run found (what `verify` will check).
    # Under the run's conditions (its selection, approvals and calendar), those of other
    # licensees left out: what `verify` will audit again with.
    try:
        conditions = for_licences(conditions_of_run(run),
                                  {s.licence for s in inputs if s.licence})
        again = audit_again([s.path for s in inputs], conditions)
    except UnknownConditions as error:
        raise CaseError(str(error)) from None
    sha256_by_path = {s.path: s.sha256 or "" for s in inputs}
    recorded = sorted(finding_signature(f.as_dict(), sha256_by_path) for f in findings)
    found = sorted(finding_signature(f.as_dict(), sha256_by_path) for f in again.findings
                   if scope.holds(f))
    if recorded != found:
        from collections import Counter

        lost = sum((Counter(recorded) - Counter(found)).values())
        raise CaseError(f"the inputs in scope audited again give {len(found)} finding(s), the "
                        f"run {len(recorded)}, {lost} of which not found again: widen the "
                        "case (a finding may depend on another record of the run) or audit "
                        "again")
    copies, sizes = _copy_inputs(inputs, folder)
    sources = {s.path: _lines(folder / copies[s.path]) for s in inputs}
    made = datetime.now(UTC).isoformat(timespec="seconds")
    model = build_case(scope, run, source.label, rule_base_sha256(), made, inputs, copies,
                       findings, again.evidence, sources, limit, preparer=preparer,
                       agency=agency, signer=signer_of(key) if key else None,
                       conditions=conditions)
    write_atomic(folder / "case.html", case_html(model))
    write_atomic(folder / "findings.json", json.dumps(
        _findings_document(model, run, inputs, copies, findings), indent=2,
        ensure_ascii=False) + "\n")
    outputs = list(CASE_OUTPUTS)
    if pdf:
        print_pdf(folder / "case.html", folder / "case.pdf")
        outputs.append("case.pdf")
    extra: dict[str, Any] = {"case": {"fingerprint": model.fingerprint, "made": made,
                                      "run": source.label,
                                      "findings": model.findings_in_scope,
                                      "exhibits": len(model.exhibits)}}
    if key:
        extra["signer"] = signer_of(key)
    manifest = build_manifest(
        "case", folder, [{"name": s.path, "copy": copies[s.path], "sha256": s.sha256,
                          "size": sizes[s.path]} for s in inputs],
        outputs, scope.as_document(), extra, conditions)
    write_atomic(folder / MANIFEST, manifest_text(manifest))
    if key:
        sign_manifest(folder, key)
    return model


def _one_licensee(inputs: list, asked: str | None, label: str) -> list:
    """The inputs of the one licensee `asked` names. A licence ID is that licence's alone,
    even where another casino is named as it; a casino name two licences share (or one
    licence and a table of no licence) names more than one licensee: refused, as a case of
    both would put one licensee's tables before a hearing about another."""
    licensed = [summary for summary in inputs if summary.licence == asked]
    if licensed:
        return licensed
    licences = sorted({summary.licence or "" for summary in inputs},
                      key=lambda licence: (not licence, licence))  # "no licence" last
    if len(licences) > 1:
        named = ", ".join(licence or f"none (casino {asked!r})" for licence in licences)
        raise CaseError(f"{asked!r} names more than one licensee in {label} (licences "
                        f"{named}): a case is of one licensee; give its licence with "
                        "--licensee")
    return inputs


def _copy_inputs(inputs, folder: Path) -> tuple[dict[str, str], dict[str, int]]:
    """Each input copied under inputs/, by its own name made safe (a number added where two
    share one); the copy's path in the folder and its size, by input path. Each copy is
    hashed again: an input changed after it was checked, while it was copied, is refused,
    never a copy that is not the record the run audited."""
    from auditor.manifest import hashed

    target = folder / INPUTS
    target.mkdir()
    copies: dict[str, str] = {}
    sizes: dict[str, int] = {}
    taken: set[str] = set()
    for summary in inputs:
        name = re.sub(r"[^A-Za-z0-9._-]", "_", Path(summary.path).name).lstrip(".") or "input"
        stem, _, suffix = name.rpartition(".") if "." in name else (name, "", "")
        candidate, number = name, 2
        while candidate.lower() in taken:
            candidate = f"{stem}-{number}" + (f".{suffix}" if suffix else "")
            number += 1
        taken.add(candidate.lower())
        shutil.copyfile(summary.path, target / candidate)
        digest, sizes[summary.path] = hashed(target / candidate)
        if digest != summary.sha256:
            raise CaseError(f"input {summary.path} changed while it was copied into the "
                            "case (SHA-256 differs from the run's): audit it again")
        copies[summary.path] = f"{INPUTS}/{candidate}"
    return copies, sizes


def _lines(path: Path) -> list[str]:
    """The record's lines as numbered by the audit (LF or CRLF ends a line)."""
    return [line.removesuffix(b"\r").decode("utf-8", errors="replace")
            for line in path.read_bytes().split(b"\n")]


def _findings_document(model, run: dict[str, Any], inputs, copies: dict[str, str],
                       findings) -> dict[str, Any]:
    """findings.json of the case: its findings in scope, its inputs; the run's command is
    left out (it names the run's other inputs, and may hold a store's password)."""
    return {
        "auditor": {key: run.get(key) for key in ("version", "rule_base", "started",
                                                  "finished")},
        "case": {"fingerprint": model.fingerprint, "scope": model.scope.as_document(),
                 "made": model.made, **model.attestation_document()},
        "inputs": [{**s.model_dump(mode="json"), "copy": copies[s.path]} for s in inputs],
        "findings": [f.as_dict() for f in findings],
    }
