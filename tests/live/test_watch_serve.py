"""`auditor watch --serve`: the live page served by the watcher itself (a real process, a
real uvicorn server): the page shows the tables and findings as the record is written and
the trend flags kept in the store; a bad address or a port taken is one line, exit 2."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from auditor.store import open_store, schema
from tests.helpers.watch_writer import audited, of_record, simulated

PAGE = re.compile(r"the live page is at (http://127\.0\.0\.1:\d+/)")


def start(folder: Path, tmp: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "auditor", "watch", str(folder), "--serve", "127.0.0.1:0",
         "--state", str(tmp / "state"), "--out", str(tmp / "out"), "--poll", "0.05",
         *extra], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)


def address_of(process: subprocess.Popen) -> str:
    line = process.stderr.readline()
    found = PAGE.search(line)
    assert found, line
    return found.group(1)


def snapshot(address: str) -> dict:
    with urllib.request.urlopen(address + "snapshot.json", timeout=5) as answer:
        return json.loads(answer.read())


def test_the_watchers_page_shows_the_record_as_written_and_the_stores_flags(tmp_path):
    store = tmp_path / "floor.sqlite"
    engine = open_store(str(store), new_store=True)
    with engine.begin() as connection:
        connection.execute(schema.trend_flags.insert(), [
            {"question": "change", "kind": "dealer", "unit": "D-1004", "partner": "",
             "night": "2026-11-19", "since": "2026-11-17", "raised": "2026-11-20T07:00:00Z"},
            {"question": "outlier", "kind": "dealer", "unit": "D-1001", "partner": "",
             "night": "2026-11-18", "since": None, "raised": "2026-11-19T07:00:00Z"}])
    engine.dispose()
    source = simulated(tmp_path / "sim", rounds=30, seed="11")
    folder = tmp_path / "floor"
    folder.mkdir()
    process = start(folder, tmp_path, "--store", str(store))
    try:
        address = address_of(process)
        (folder / source.name).write_bytes(source.read_bytes())
        expected = [f["id"] for f in of_record(audited(source), source)]
        assert expected, "the record must hold round findings for this test to mean anything"
        deadline, shown = time.monotonic() + 20, {}
        while time.monotonic() < deadline:
            shown = snapshot(address)
            if len(shown["findings"]) == len(expected) and shown["flags"]:
                break
            time.sleep(0.1)
        assert [entry["finding"]["id"] for entry in shown["findings"]] == expected
        [table] = shown["tables"]
        assert (table["key"], table["rounds"], table["last_round"]) == ("RL-SIM-01/T01", 30,
                                                                        "30")
        # the flags of the last night trends judged, and none of an earlier night
        assert shown["flags"] == [{"night": "2026-11-19", "kind": "dealer", "unit": "D-1004",
                                   "partner": None, "question": "change",
                                   "since": "2026-11-17"}]
    finally:
        process.send_signal(signal.SIGTERM)
        code = process.wait(15)
    assert code == 0
    with socket.socket() as probe:  # the page stopped with the watcher
        assert probe.connect_ex(("127.0.0.1", int(address.rsplit(":", 1)[1].strip("/")))) != 0


def test_a_bad_address_or_a_port_taken_is_one_line_and_exit_2(tmp_path):
    folder = tmp_path / "floor"
    folder.mkdir()
    bad = subprocess.run(
        [sys.executable, "-m", "auditor", "watch", str(folder), "--serve", "here:\x1b[2Jx",
         "--state", str(tmp_path / "state"), "--out", str(tmp_path / "out")],
        capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2
    [line] = bad.stderr.splitlines()
    assert line.startswith("auditor: watch: --serve here:") and "\x1b" not in line
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        busy = subprocess.run(
            [sys.executable, "-m", "auditor", "watch", str(folder), "--serve",
             f"127.0.0.1:{port}", "--state", str(tmp_path / "state"), "--out",
             str(tmp_path / "out")], capture_output=True, text=True, timeout=60,
            env={**os.environ})
    assert busy.returncode == 2
    assert busy.stderr.splitlines() == [
        f"auditor: watch: --serve 127.0.0.1:{port}: Address already in use"]
