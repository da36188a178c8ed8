"""The audit's summary on the terminal: the findings by citation with their money, the
waivers, the baseline, the patterns across nights and what fails the run (`auditor audit`
prints it unless --quiet)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Rich is loaded when something is printed (auditor/shown.py)
    from rich.console import Console

    from auditor.report.frames import RunSummary


SUMMARY_HEADERS = ("citation", "findings", "high", "medium", "low", "under-paid", "over-paid")


def print_summary(console: Console, result, out: Path, fail_on: str = "low",
                  fail_on_new: bool = False, verbose: bool = False,
                  summary: RunSummary | None = None) -> None:
    """The findings by citation with a total row, and the currency the money is in (on a
    terminal wide enough, a table; in a log or a narrow terminal, plain columns as wide as
    their widest cell, so no header or citation is ever cut); then waivers, the baseline
    and what fails the run. `summary`: the run's (auditor/report/frames.py), counted here
    only when none is given."""
    if summary is None:
        from auditor.report.frames import run_summary

        summary = run_summary(result.findings, result.inputs)

    rounds = sum(i.rounds for i in result.inputs)
    audited = sum(i.rounds_audited for i in result.inputs)
    console.print(f"Audited {len(result.inputs)} file(s): {rounds} round(s) read, "
                  f"{audited} audited, {len(result.findings)} finding(s).")
    opened = sum(1 for i in result.inputs if i.open_round is not None)
    if opened:
        console.print(f"{opened} round(s) still open at the end of a file with no `close` "
                      "(read, not judged): each is named in a warning line.")
    if summary.by("citation"):
        print_citations(console, summary)
        console.print(currency_note(result.inputs), markup=False)
    print_waivers(console, result)
    if result.resolved is not None:
        for line in baseline_lines(result):
            console.print(line, markup=False)
    if result.patterns is not None:  # across nights (auditor/baseline_runs.py)
        from auditor.patterns import summary_lines

        for line in summary_lines(result.patterns, every=verbose):
            console.print(line, markup=False)
    print_failing(console, result, fail_on, fail_on_new, verbose)
    console.print(f"Report: {out / 'report.html'}  (also findings.json, findings.csv, "
                  "summary.csv)")


def baseline_lines(result) -> list[str]:
    """The comparison with the baseline: how many findings are new, persisting and resolved;
    with a comparison in part (a run of --select/--ignore on either side), how many were
    not compared, and why (`result.not_compared`, auditor/baseline.py)."""
    from collections import Counter

    from auditor.selection import printable

    marks = Counter(f.baseline for f in result.findings)
    left_out = result.not_compared
    counts = (f"Against the baseline: {marks['new']} new, {marks['persisting']} persisting, "
              f"{len(result.resolved)} resolved")
    if left_out is None:
        return [counts + "."]
    lines = [counts + f", {marks['not compared']} not compared."]
    earlier = (f"run {left_out['run']}" if isinstance(left_out["run"], int)
               else "the baseline")
    if left_out["findings"]:
        lines.append(f"{left_out['findings']} finding(s) of this run under citations "
                     f"{earlier} did not judge ({', '.join(left_out['citations'])}) are not "
                     "compared: neither new nor persisting (--fail-on-new counts them: "
                     "they are not known to be old).")
    if left_out["earlier_findings"]:
        lines.append(f"{left_out['earlier_findings']} finding(s) of {earlier} under "
                     "citations this run did not judge "
                     f"({', '.join(left_out['earlier_citations'])}) are not compared: "
                     "neither resolved nor persisting.")
    return [printable(line) for line in lines]


def citation_lines(summary: RunSummary) -> tuple[list[list[str]], list[list[str]]]:
    """A row per citation, and the total rows: the money one amount per currency, two
    currencies never added (the total's counts, then each currency's total)."""
    from types import SimpleNamespace

    from auditor.money import MoneyTotals, currency_label

    counts: dict[str, list[int]] = {}
    money: dict[str, MoneyTotals] = {}
    overall = MoneyTotals()
    for row in (SimpleNamespace(**r) for r in summary.by("citation")):
        counted = counts.setdefault(row.citation, [0, 0, 0, 0])
        for index, value in enumerate((row.findings, row.high, row.medium, row.low)):
            counted[index] += int(value)
        under, over = Decimal(row.under_paid), Decimal(row.over_paid)
        money.setdefault(row.citation, MoneyTotals()).add_totals(row.currency, under, over)
        overall.add_totals(row.currency, under, over)
    rows = [[citation, *(f"{n:,}" for n in counted),
             money[citation].text("under", "0.00"), money[citation].text("over", "0.00")]
            for citation, counted in counts.items()]
    total = ["total", *(f"{sum(c[i] for c in counts.values()):,}" for i in range(4)),
             overall.text("under", "0.00"), overall.text("over", "0.00")]
    totals = [total]
    if len(overall.currencies()) > 1:
        total[5:] = ["", ""]
        for row in (SimpleNamespace(**r) for r in summary.by("currency")):
            amounts = MoneyTotals()
            amounts.add_totals(row.currency, Decimal(row.under_paid), Decimal(row.over_paid))
            totals.append([f"total {currency_label(row.currency)}",
                           *(f"{int(n):,}" for n in (row.findings, row.high, row.medium,
                                                     row.low)),
                           amounts.text("under", "0.00"), amounts.text("over", "0.00")])
    return rows, totals


def print_citations(console: Console, summary: RunSummary) -> None:
    """The findings by citation: on a terminal wide enough a table, else plain columns."""
    from rich.table import Table

    rows, totals = citation_lines(summary)
    lines = [list(SUMMARY_HEADERS), *rows, *totals]
    widths = [max(len(line[i]) for line in lines) for i in range(len(SUMMARY_HEADERS))]
    framed = sum(widths) + max(0, 20 - widths[0]) + 3 * len(widths) + 1  # with borders
    if console.is_terminal and framed <= console.width:
        table = Table(title="Findings by citation")
        for index, header in enumerate(SUMMARY_HEADERS):
            table.add_column(header, no_wrap=True,
                             min_width=max(len(header), 20 if index == 0 else 0),
                             justify="left" if index == 0 else "right")
        for row in rows:
            table.add_row(*row)
        table.add_section()
        for row in totals:
            table.add_row(*row, style="bold")
        console.print(table)
        return
    # a log, or a terminal too narrow for the table: plain columns, nothing cut
    console.print("Findings by citation", markup=False)
    for number, line in enumerate(lines):
        if number == len(lines) - len(totals):
            console.print("  ".join("-" * w for w in widths), markup=False)
        console.print("  ".join(cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i])
                                for i, cell in enumerate(line)).rstrip(),
                      markup=False, crop=False, overflow="ignore")


def print_waivers(console: Console, result) -> None:
    """The waivers applied, expired (not applied) and unused, if a waiver file was given."""
    if not result.waivers:
        return
    waived = sum(1 for f in result.findings if f.waiver is not None)
    status = {name: [w for w in result.waivers if w.status == name]
              for name in ("applied", "expired", "unused")}
    console.print(f"Waivers: {waived} finding(s) waived by {len(status['applied'])} "
                  f"waiver(s); {len(status['expired'])} expired (not applied), "
                  f"{len(status['unused'])} unused.")
    for waiver in status["expired"]:
        console.print(f"  EXPIRED waiver {waiver.index} (line {waiver.line}: "
                      f"{_criteria(waiver.matched_on)}) ended {waiver.expires}: "
                      f"{waiver.matches} finding(s) not waived")
    for waiver in status["unused"]:
        console.print(f"  unused waiver {waiver.index} (line {waiver.line}: "
                      f"{_criteria(waiver.matched_on)}) matched no finding")


def print_failing(console: Console, result, fail_on: str, fail_on_new: bool,
                  verbose: bool) -> None:
    """How many findings fail the run, and the first 20 high ones (every finding with
    `verbose`)."""
    from auditor.policy import fails

    failed = high = not_compared = 0
    first_high = []  # the findings are walked once: a month's are never held
    for finding in result.findings:
        if fails(finding, fail_on, fail_on_new):
            failed += 1
            not_compared += finding.baseline == "not compared"
            if finding.severity == "high":
                high += 1
                if len(first_high) < 20:
                    first_high.append(finding)
    only = ", new only" if fail_on_new else ""
    if not_compared:
        only = f", new and the {not_compared} not compared"
    console.print(f"Failing the run (--fail-on {fail_on}{only}): {failed} finding(s).")
    shown = result.findings if verbose else first_high
    if shown:
        console.print("Findings:" if verbose else "High findings that fail the run:")
        for finding in shown:
            marks = "".join([" waived" if finding.waiver else "",
                             f" {finding.baseline}" if finding.baseline else ""])
            place = f"{finding.file}:{finding.line}" if finding.line else finding.file
            console.print(f"  {finding.id}  {finding.severity:<6} {finding.citation}  "
                          f"{place}{marks}")
        if not verbose and high > 20:
            console.print(f"  … and {high - 20} more (--verbose lists every finding)")


def currency_note(inputs) -> str:
    """The currency of the amounts: each table's own, as its header declared it; totals
    are per currency."""
    currencies = sorted({i.currency for i in inputs if i.currency})
    undeclared = any(i.currency is None for i in inputs if not i.error)
    if len(currencies) == 1 and not undeclared:
        return f"Amounts in {currencies[0]}."
    if not currencies:
        return "Amounts in each table's currency (no table declared one: undeclared)."
    return (f"Amounts in each table's currency ({', '.join(currencies)}"
            f"{', and undeclared' if undeclared else ''}): each total is per currency, "
            "never added across currencies.")


def _criteria(matched_on: dict[str, str]) -> str:
    return ", ".join(f"{key} {value}" for key, value in matched_on.items())


def open_round_warning(summary) -> str | None:
    """The one line that says a file is not finished: the round it ends inside is not
    judged, and a line not yet written was set aside (the file's name escaped)."""
    from auditor.selection import printable

    opened, unwritten = summary.open_round, summary.unwritten_line
    header = getattr(summary, "open_header", None)  # (a summary of an older run lacks it)
    if opened is None and unwritten is None and header is None:
        return None
    parts = []
    if header is not None:
        parts.append("its header is still being written (no body statement yet): "
                     "not judged" if header else "it is empty: not judged")
    if opened is not None:
        parts.append(f"round {opened['round']} (line {opened['line']}) is still open: read, "
                     "not judged")
    if unwritten is not None:
        parts.append(f"line {unwritten} is not yet written (no newline): not read")
    return printable(f"auditor: {summary.path} has no `close` yet: " + "; ".join(parts)
                     + "; audit it again once finished, or with --finished if it is whole")


def regulation_unjudged(result, judged: dict) -> str | None:
    """The line that says a selection judged no round by a rule of the regulation, where the
    records held rounds of a known game (the rules selected are of other games, or the
    record alone was asked for): its clean result is no audit of the regulation."""
    from auditor.selection import printable

    readable = [i for i in result.inputs if not i.error and i.game and i.rounds]
    if not readable or any(i.rounds_audited for i in result.inputs):
        return None
    games = ", ".join(sorted({i.game for i in readable}))
    terms = " ".join([*(f"--select {t}" for t in judged.get("select", [])),
                      *(f"--ignore {t}" for t in judged.get("ignore", []))])
    if all(c.startswith("record:") for c in judged.get("judged", [])):
        why = "the record alone was asked for"
    else:
        why = f"no rule it selects applies to the games audited ({games})"
    return printable(f"auditor: {terms} judged no round by a rule of the regulation: {why}; "
                     "only the record was judged")


@contextmanager
def progress_bar(console: Console, files: int, enabled: bool) -> Iterator:
    """Files, rounds and rounds per second on a terminal; nothing when output is not one."""
    if not enabled or not console.is_terminal:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    started = time.perf_counter()
    rounds = 0
    counts = "files  {task.fields[rounds]:,} rounds  {task.fields[rate]:,.0f} rounds/s"
    columns = (TextColumn("auditing"), BarColumn(), MofNCompleteColumn(), TextColumn(counts))
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("audit", total=files, rounds=0, rate=0.0)

        def advance(result) -> None:
            nonlocal rounds
            rounds += result.summary.rounds
            elapsed = max(time.perf_counter() - started, 1e-9)
            progress.update(task, advance=1, rounds=rounds, rate=rounds / elapsed)

        yield advance
