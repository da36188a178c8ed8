"""The live page's app (auditor/live/page.py) over a LiveFloor: the snapshot, the event
stream's exact text and its sequence handling (?after=N, Last-Event-ID, a reload when the
client is too far behind, ahead, or of another server), the guard (Host header, methods,
security headers), the first paint's escaping, and the server in a thread (it starts, pushes,
stops with a stream open, and says when its port is taken).

The page in a real browser: tests/live/test_live_page_browser.py.
"""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from decimal import Decimal

import httpx2
import pytest
from starlette.testclient import TestClient

from auditor.live.floor import LiveFloor
from auditor.live.page import (
    PIECE_BYTES,
    PIECE_CHANGES,
    _piece,
    hosts_for,
    is_loopback,
    make_app,
    serve,
    serve_address,
)
from tests.helpers.live_page import LINES, PWN, UPDATED, Served, finding, table


def floor_of_three() -> LiveFloor:
    """Changes 1 (a table), 2 (a finding), 3 (a notice)."""
    floor = LiveFloor()
    floor.update_table(table())
    floor.add_finding(finding(), LINES)
    floor.notice("read again from its start: it was truncated", file="tables/t1.bjh")
    return floor


def client(floor: LiveFloor, closed: bool = True, **options) -> TestClient:
    """A client of the app; `closed`: each event stream sends what is pending and ends (as
    when the server stops), so its whole text can be read."""
    closing = threading.Event()
    if closed:
        closing.set()
    return TestClient(make_app(floor, closing=closing, **options), base_url="http://localhost")


def instance(test_client: TestClient) -> str:
    return test_client.app.state.instance


FINDING_EVENT = ('id: 2\ndata: {"sequence":2,"kind":"finding","data":{"finding":{"id":"F-1",'
                 '"citation":"20:18:15:09","rule":"payout","severity":"high",'
                 '"file":"tables/t1.bjh","line":12,"round":"3","table":"T1","seat":"s2",'
                 '"message":"paid 30, owed 20","evidence":[10]},"lines":{'
                 '"10":"09:01:01 bet s2h1 main 20","11":"09:01:02 deal s2h1 9c",'
                 '"12":"09:01:08 settle s2h1 main win 30"}}}\n\n')
NOTICE_EVENT = ('id: 3\ndata: {"sequence":3,"kind":"notice","data":{"text":"read again from '
                'its start: it was truncated","file":"tables/t1.bjh"}}\n\n')
RETRY = "retry: 1000\n\n"


# The snapshot


def test_the_snapshot_is_the_floors_with_the_servers_instance() -> None:
    test_client = client(floor_of_three())
    response = test_client.get("/snapshot.json")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    assert response.headers["cache-control"] == "no-store"
    assert response.json() == {
        "sequence": 3, "gaming_day": None,
        "tables": [{"key": "RL-1/T1", "file": "tables/t1.bjh", "game": "standard",
                    "dealer": "D-7", "last_round": "3", "open_round": "4", "rounds": 3,
                    "findings": 1, "updated": UPDATED}],
        "findings": [{"finding": finding(), "lines": {str(k): v for k, v in LINES.items()}}],
        "findings_total": 1, "flags": [],
        "notices": [{"text": "read again from its start: it was truncated",
                     "file": "tables/t1.bjh"}],
        "instance": instance(test_client)}
    assert re.fullmatch("[0-9a-f]{16}", instance(test_client))


def test_amounts_the_watcher_left_as_decimals_are_sent_as_text_not_a_server_error() -> None:
    floor = LiveFloor()
    floor.add_finding(finding(expected=Decimal("20.00"), actual=Decimal("30.00")), {})
    assert client(floor).get("/snapshot.json").json()["findings"][0]["finding"][
        "expected"] == "20.00"


def test_two_servers_have_two_instances() -> None:
    floor = LiveFloor()
    assert instance(client(floor)) != instance(client(floor))


# The event stream


def test_events_after_n_are_the_changes_after_n_each_with_its_sequence_as_id() -> None:
    response = client(floor_of_three()).get("/events?after=1")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/event-stream; charset=utf-8"
    assert response.text == RETRY + FINDING_EVENT + NOTICE_EVENT


def test_last_event_id_of_a_reconnecting_browser_wins_over_the_first_after() -> None:
    """EventSource reconnects with the URL it was opened with (?after=1) and the id of the
    last event it received: what comes after that id, nothing repeated."""
    response = client(floor_of_three()).get("/events?after=1", headers={"Last-Event-ID": "2"})
    assert response.text == RETRY + NOTICE_EVENT


def test_a_client_up_to_date_gets_nothing_but_the_retry_delay() -> None:
    assert client(floor_of_three()).get("/events?after=3").text == RETRY


def test_a_client_naming_no_sequence_gets_what_comes_from_now_on() -> None:
    assert client(floor_of_three()).get("/events").text == RETRY


def test_a_client_further_behind_than_the_changes_kept_is_told_to_reload() -> None:
    floor = LiveFloor(keep=2)  # changes 2 and 3 kept, 1 forgotten
    floor.update_table(table())
    floor.add_finding(finding(), LINES)
    floor.notice("read again from its start: it was truncated", file="tables/t1.bjh")
    test_client = client(floor)
    reload = RETRY + 'event: reload\ndata: {"sequence":3}\n\n'
    assert test_client.get("/events?after=0").text == reload
    assert test_client.get("/events", headers={"Last-Event-ID": "0"}).text == reload
    # just inside what is kept: no reload
    assert test_client.get("/events?after=1").text == RETRY + FINDING_EVENT + NOTICE_EVENT


def test_a_client_ahead_of_the_floor_holds_another_floors_sequence_and_reloads() -> None:
    """A page open across a restart of the watcher: the new floor counts from 0 again; its
    changes 1… are not those the page saw."""
    test_client = client(floor_of_three())
    assert test_client.get("/events?after=9").text == (
        RETRY + 'event: reload\ndata: {"sequence":3}\n\n')
    # the longest sequence taken: 18 digits (19 are refused, below)
    assert test_client.get("/events", headers={"Last-Event-ID": "9" * 18}).text == (
        RETRY + 'event: reload\ndata: {"sequence":3}\n\n')


def test_a_client_of_another_server_instance_reloads_even_at_a_sequence_it_could_take() -> None:
    test_client = client(floor_of_three())
    assert test_client.get("/events?after=1&instance=0123456789abcdef").text == (
        RETRY + 'event: reload\ndata: {"sequence":3}\n\n')
    assert test_client.get(f"/events?after=1&instance={instance(test_client)}").text == (
        RETRY + FINDING_EVENT + NOTICE_EVENT)


@pytest.mark.parametrize("after", ["-1", "abc", "1e3", "1.0", "\u0663", "9" * 19, ""])
def test_a_malformed_sequence_is_refused(after: str) -> None:
    test_client = client(floor_of_three())
    response = test_client.get("/events", params={"after": after})
    assert (response.status_code, response.text) == (
        400, "after and Last-Event-ID take a sequence number (0 or more)\n")
    response = test_client.get("/events", headers={"Last-Event-ID": (after or "x").encode()})
    assert response.status_code == 400


def test_a_catch_up_larger_than_a_piece_comes_whole_and_in_order_in_several_pieces() -> None:
    """Each piece of a catch-up starts where the last ended: no change lost or repeated."""
    floor = LiveFloor()
    long_line = {1: "x" * 1000}
    for number in range(1, 301):  # about 380 KB of events: six pieces
        floor.add_finding(finding(id=f"F-{number}"), long_line)
    text = client(floor).get("/events?after=0").text
    ids = [int(line[4:]) for line in text.splitlines() if line.startswith("id: ")]
    assert ids == list(range(1, 301))
    pieces, after = [], 0
    while after < floor.sequence:
        piece, after = _piece(floor.changes_after(after, limit=PIECE_CHANGES))
        pieces.append(piece)
    assert RETRY + "".join(pieces) == text
    assert len(pieces) == 6
    assert all(PIECE_BYTES <= len(piece) < PIECE_BYTES + 1300 for piece in pieces[:-1])


def test_a_quiet_stream_gets_a_heartbeat_comment() -> None:
    assert client(floor_of_three(), heartbeat=0).get("/events?after=3").text == (
        RETRY + ": heartbeat\n\n")


def test_record_text_with_line_breaks_cannot_end_an_event_or_forge_one() -> None:
    floor = LiveFloor()
    forged = "x\n\nid: 99\nevent: reload\ndata: {}\r\n\r\n"
    floor.add_finding(finding(message=forged, table=PWN), {1: forged})
    text = client(floor).get("/events?after=0").text
    events = [block for block in text.split("\n\n") if block]
    assert events[0] == "retry: 1000"
    assert len(events) == 2
    fields = events[1].split("\n")
    assert fields[0] == "id: 1"
    assert len(fields) == 2 and fields[1].startswith("data: ")
    assert json.loads(fields[1].removeprefix("data: "))["data"] == {
        "finding": finding(message=forged, table=PWN), "lines": {"1": forged}}


def test_a_new_gaming_day_is_one_change_the_page_reloads_on() -> None:
    floor = floor_of_three()
    floor.new_gaming_day("2026-11-28")
    assert client(floor).get("/events?after=3").text == (
        RETRY + 'id: 4\ndata: {"sequence":4,"kind":"day","data":{"gaming_day":"2026-11-28"}}'
        '\n\n')


# The guard


SECURITY = {"content-security-policy": (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'"), "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer", "x-frame-options": "DENY",
    "cross-origin-resource-policy": "same-origin"}


@pytest.mark.parametrize("path", ["/", "/snapshot.json", "/events?after=3", "/live.js",
                                  "/live.css", "/favicon.svg", "/nothing-here"])
def test_every_response_carries_the_security_headers(path: str) -> None:
    response = client(floor_of_three()).get(path)
    assert {name: response.headers.get(name) for name in SECURITY} == SECURITY


def test_the_apps_files_have_their_types() -> None:
    test_client = client(LiveFloor())
    assert [test_client.get(path).headers["content-type"] for path in
            ("/live.js", "/live.css", "/favicon.svg")] == [
        "text/javascript; charset=utf-8", "text/css; charset=utf-8", "image/svg+xml"]


@pytest.mark.parametrize("host", ["localhost", "localhost:8765", "127.0.0.1:8765",
                                  "[::1]:8765", "LOCALHOST"])
def test_the_loopback_names_are_answered(host: str) -> None:
    assert client(LiveFloor()).get("/", headers={"host": host}).status_code == 200


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8765", "127.0.0.1.evil.example",
                                  "localhost.evil.example", "", "[::2]:8765"])
def test_another_host_name_is_refused_so_dns_rebinding_reads_nothing(host: str) -> None:
    test_client = client(floor_of_three())
    for path in ("/", "/snapshot.json", "/events?after=0"):
        response = test_client.get(path, headers={"host": host})
        assert (response.status_code, response.text) == (
            421, "this page answers only to the address it was bound to\n")


def test_a_page_bound_to_every_address_answers_any_name() -> None:
    test_client = client(LiveFloor(), allowed_hosts=hosts_for("0.0.0.0"))
    assert test_client.get("/", headers={"host": "floor-pc.casino.lan:8765"}).status_code == 200


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH"])
def test_the_page_only_reads(method: str) -> None:
    response = client(floor_of_three()).request(method, "/snapshot.json")
    # refused by the page's own guard (the router alone would say 405 too, its Allow in
    # whatever order a set of methods gives)
    assert (response.status_code, response.headers["allow"], response.text) == (
        405, "GET, HEAD", "the live page only reads\n")


# The first paint


def hostile_floor() -> LiveFloor:
    floor = LiveFloor()
    floor.update_table(table(key=PWN, dealer="D-\u202eevil", game=PWN))
    floor.add_finding(finding(message=PWN, player=PWN, table=PWN, seat=PWN), {12: PWN})
    floor.set_flags([{"question": "outlier", "kind": "dealer", "unit": PWN, "since": None}])
    floor.notice(PWN, file=PWN)
    return floor


def test_record_text_on_the_first_paint_is_escaped() -> None:
    html = client(hostile_floor()).get("/").text
    assert "<script>window" not in html
    escaped = "&lt;script&gt;window.__pwned=1&lt;/script&gt;"
    # the table's key and game, the finding's table, seat, message, player and line, the
    # flag's unit, the notice's file and text
    assert html.count(escaped) == 10
    assert "D-⟦U+202E⟧evil" in html and "\u202e" not in html


def test_the_first_paint_shows_the_floor_newest_finding_first_with_its_lines_marked() -> None:
    floor = floor_of_three()
    floor.add_finding(finding("second", id="F-2", line=11, evidence=[]), LINES)
    html = client(floor).get("/").text
    assert html.index("second") < html.index("paid 30, owed 20")
    first = html[html.index("paid 30, owed 20"):]
    assert re.findall(r'<li( class="evidence")?><span class="number">(\d+)</span>'
                      r'<span class="mark">(▶?)</span>', first)[:3] == [
        (' class="evidence"', "10", "▶"), ("", "11", ""), (' class="evidence"', "12", "▶")]
    assert ('<noscript><p class="static">JavaScript is off: this is the floor as it was when '
            'the page was loaded (change 4), and it does not update.') in html


def test_a_long_line_is_shortened_on_the_page_which_says_how_long_it_was() -> None:
    floor = LiveFloor()
    floor.add_finding(finding(), {**LINES, 11: "09:01:02 deal s2h1 " + "<b>" * 30_000})
    test_client = client(floor)
    html = test_client.get("/").text
    shown_line = ("09:01:02 deal s2h1 " + "<b>" * 30_000)[:1000]
    assert ('<li><span class="number">11</span><span class="mark"></span><code>'
            + shown_line.replace("<", "&lt;").replace(">", "&gt;") + "</code>"
            '<span class="shortened">… shortened for the page: the line has 90,019 '
            "characters</span></li>") in html
    [entry] = test_client.get("/snapshot.json").json()["findings"]
    assert (entry["lines"]["11"], entry["shortened"]) == (shown_line, {"11": 90_019})


def test_a_long_night_shows_the_newest_thousand_and_says_how_many_in_all() -> None:
    floor = LiveFloor()
    for number in range(1002):
        floor.add_finding(finding(f"finding {number:04}"), {})
    html = client(floor).get("/").text
    assert "1002 this gaming day, the newest 1000 shown" in html
    assert "finding 1001" in html and "finding 0002" in html and "finding 0001" not in html


def test_the_store_is_shown_without_its_password() -> None:
    html = TestClient(make_app(LiveFloor(), "postgresql+psycopg://auditor:s3cret@db/floor"),
                      base_url="http://localhost").get("/").text
    assert "postgresql+psycopg://auditor:***@db/floor" in html and "s3cret" not in html


def test_the_page_asks_for_nothing_from_another_origin() -> None:
    test_client = client(floor_of_three())
    html = test_client.get("/").text
    assert re.findall(r'(?:src|href)="([^"]*)"', html) == ["/favicon.svg", "/live.css",
                                                           "/live.js"]
    for path in ("/live.js", "/live.css"):
        text = test_client.get(path).text
        # no absolute or protocol-relative address
        assert re.search(r"(?:https?|wss?|ftp|data):|[\"'(`]//", text) is None
        assert "url(" not in text and "@import" not in text
    assert "innerHTML" not in test_client.get("/live.js").text


# The address


@pytest.mark.parametrize(("text", "address"), [
    ("8765", ("127.0.0.1", 8765)), (":8765", ("127.0.0.1", 8765)),
    ("localhost:8765", ("localhost", 8765)), ("0.0.0.0:80", ("0.0.0.0", 80)),
    ("[::1]:8765", ("::1", 8765)), ("10.0.0.5:0", ("10.0.0.5", 0))])
def test_the_serve_address(text: str, address: tuple[str, int]) -> None:
    assert serve_address(text) == address


@pytest.mark.parametrize("text", ["", "host:", "host:http", "host:65536", "host:-1", "::1",
                                  "[::1:8765", "::1]:8765"])
def test_a_wrong_serve_address_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="--serve takes PORT, HOST:PORT or"):
        serve_address(text)


def test_which_addresses_are_loopback() -> None:
    assert [is_loopback(h) for h in ("127.0.0.1", "127.8.0.1", "::1", "localhost",
                                     "0.0.0.0", "10.0.0.5", "::", "floor-pc")] == [
        True, True, True, True, False, False, False, False]
    assert hosts_for("10.0.0.5") == ("localhost", "127.0.0.1", "[::1]", "10.0.0.5")
    assert hosts_for("::") == ("*",)


def test_the_server_pushes_a_change_and_stops_with_a_stream_open() -> None:
    floor = floor_of_three()
    served = Served(floor)
    try:
        with httpx2.Client(base_url=served.url, timeout=5) as http, \
                http.stream("GET", "/events?after=3") as stream:
            lines = stream.iter_lines()
            assert next(lines) == "retry: 1000"
            added = time.monotonic()
            floor.notice("the store failed: retrying")
            while (line := next(lines)) in ("",):
                pass
            latency = time.monotonic() - added
            assert line == "id: 4"
            assert next(lines) == ('data: {"sequence":4,"kind":"notice","data":{"text":'
                                   '"the store failed: retrying","file":null}}')
            assert latency < 1.0, f"pushed {latency:.2f} s after the change"
            stopped = served.close()
    finally:
        served.stop.set()
    assert stopped < 3, f"serve() took {stopped:.1f} s to stop with a stream open"


def test_a_port_taken_is_an_error_of_serve_not_a_silent_thread() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        with pytest.raises(OSError):
            serve(LiveFloor(), "127.0.0.1", port, threading.Event())


def test_head_of_the_stream_ends_so_the_connection_serves_the_next_request() -> None:
    """A HEAD's answer has no body: a stream held behind it would keep the connection (kept
    alive by the client) from serving the next request."""
    served = Served(floor_of_three())
    try:
        with httpx2.Client(base_url=served.url, timeout=3) as http:
            head = http.head("/events?after=0")
            assert (head.status_code, head.headers["content-type"]) == (
                200, "text/event-stream; charset=utf-8")
            assert http.get("/snapshot.json").json()["sequence"] == 3
    finally:
        served.close()


def test_a_finding_of_no_one_round_is_placed_by_its_line_not_as_round_none() -> None:
    """The header's findings and those between rounds are judged live too: the first paint
    places them by their line (or as the record's), never as `round None`."""
    floor = LiveFloor()
    floor.add_finding(finding("burned 6h past the count", id="F-2", round=None, line=115),
                      {115: "18:07:05 burn 6h"})
    floor.add_finding(finding("the file has no line", id="F-3", round=None, line=None), {})
    html = client(floor).get("/").text
    assert "round None" not in html
    assert '<span class="where">T1 · line 115' in html
    assert '<span class="where">T1 · the record' in html
