"""The live page: the floor as it plays, served to the surveillance room's browsers.

An ASGI app (Starlette) over a `LiveFloor` the watcher writes from its own thread:

- `/` the page (templates/live.html.j2), server-rendered from the floor's snapshot so that it
  reads with JavaScript off; with JavaScript, templates/live.js loads `/snapshot.json` and
  follows `/events`, so findings appear as they are judged, without a reload.
- `/snapshot.json`: `LiveFloor.snapshot()`, with the app's `instance` (see below).
- `/events`: Server-Sent Events, each change of the floor after the client's sequence
  (the `Last-Event-ID` header a reconnecting browser sends, else `?after=N`), the event's id
  its sequence number. A client further behind than the changes kept, ahead of the floor, or
  holding another instance's sequence gets a `reload` event (it loads the snapshot again)
  and the stream ends. A comment every 15 s when nothing else was sent keeps proxies and the
  browser from dropping a quiet stream.

Security: the page has no authentication. It binds the loopback address unless told another
(`auditor watch --serve HOST:PORT`), and answers only requests whose Host header names the
address it was bound to (or localhost), so that a web page elsewhere cannot read it through
DNS rebinding. Every record string reaches the page through Jinja's autoescaping (first
paint) or `textContent` (live.js); the Content-Security-Policy allows only the app's own
script, stylesheet and icon; nothing comes from another origin.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import secrets
import socket
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable
from functools import cache
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from auditor.live.floor import Change, LiveFloor
from auditor.resources import templates_dir
from auditor.shown import neutral
from auditor.store.urls import shown

DEFAULT_HOST = "127.0.0.1"
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
POLL_SECONDS = 0.2
HEARTBEAT_SECONDS = 15.0
RETRY_MILLISECONDS = 1000  # how soon a browser reconnects a dropped stream
# A catch-up (the changes a client has not seen, up to the 5,000 kept) is sent in pieces of
# about PIECE_BYTES, each of at most PIECE_CHANGES changes (see _piece).
PIECE_BYTES = 64 * 1024
PIECE_CHANGES = 256
SHOWN_FINDINGS = 1000  # the newest findings the page shows; the count says how many in all

CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; "
                           "img-src 'self'; connect-src 'self'; object-src 'none'; "
                           "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
SECURITY_HEADERS = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-resource-policy", b"same-origin"),
)
# The app's own files, served from the package (never a path taken from the request).
ASSETS = {"/live.js": ("live.js", "text/javascript; charset=utf-8"),
          "/live.css": ("live.css", "text/css; charset=utf-8"),
          "/favicon.svg": ("live-icon.svg", "image/svg+xml")}


def make_app(floor: LiveFloor, store_url: str | None = None, *,
             allowed_hosts: Iterable[str] = LOOPBACK_NAMES,
             closing: threading.Event | None = None,
             poll: float = POLL_SECONDS, heartbeat: float = HEARTBEAT_SECONDS) -> Starlette:
    """The page's app over `floor`. `store_url` is shown with its password hidden.
    `allowed_hosts`: the Host header names answered ("*" for any). `closing`, once set,
    ends every event stream after what is pending (the server is stopping)."""
    instance = secrets.token_hex(8)  # a page of an earlier server reloads, never mixes
    closing = closing or threading.Event()
    store = shown(store_url) if store_url else None
    assets = {path: ((templates_dir() / name).read_bytes(), kind)
              for path, (name, kind) in ASSETS.items()}

    async def page(request: Request) -> Response:
        snapshot = floor.snapshot()
        html = _environment().get_template("live.html.j2").render(
            snapshot=snapshot, instance=instance, store=store, shown_findings=SHOWN_FINDINGS,
            findings=list(reversed(snapshot["findings"]))[:SHOWN_FINDINGS])
        return HTMLResponse(html, headers={"cache-control": "no-store"})

    async def snapshot(request: Request) -> Response:
        return _json_response({**floor.snapshot(), "instance": instance})

    async def asset(request: Request) -> Response:
        body, kind = assets[request.url.path]
        return Response(body, media_type=kind, headers={"cache-control": "no-cache"})

    async def events(request: Request) -> Response:
        try:
            after = _after(request)
        except ValueError:
            return Response("after and Last-Event-ID take a sequence number (0 or more)\n",
                            status_code=400, media_type="text/plain")
        if request.method == "HEAD":  # a stream with no body would poll until cut
            return Response(media_type="text/event-stream")
        stale = request.query_params.get("instance", instance) != instance
        return StreamingResponse(
            _stream(floor, after, stale, closing, poll, heartbeat),
            media_type="text/event-stream",
            headers={"cache-control": "no-store", "x-accel-buffering": "no"})

    routes = [Route("/", page), Route("/snapshot.json", snapshot), Route("/events", events)]
    routes += [Route(path, asset) for path in assets]
    app = Starlette(routes=routes)
    app.state.instance = instance
    app.state.closing = closing
    app.add_middleware(_Guard, allowed_hosts=tuple(allowed_hosts))
    return app


def _after(request: Request) -> int | None:
    """The sequence the client has seen: Last-Event-ID (a reconnecting EventSource) before
    ?after=N (the first connection); None when it names none; ValueError when malformed."""
    text = request.headers.get("last-event-id") or request.query_params.get("after")
    if text is None:
        return None
    if not text.isascii() or not text.isdigit() or len(text) > 18:
        raise ValueError(text)
    return int(text)


async def _stream(floor: LiveFloor, after: int | None, stale: bool, closing: threading.Event,
                  poll: float, heartbeat: float) -> AsyncIterator[str]:
    yield f"retry: {RETRY_MILLISECONDS}\n\n"
    if after is None:  # nothing named: from now on
        after = floor.sequence
    sent = time.monotonic()
    while True:
        # The floor's sequence only grows: a client ahead of it holds another floor's.
        changes = (None if stale or after > floor.sequence
                   else floor.changes_after(after, limit=PIECE_CHANGES))
        if changes is None:
            yield f"event: reload\ndata: {_dumps({'sequence': floor.sequence})}\n\n"
            return
        if changes:
            piece, after = _piece(changes)
            yield piece
            sent = time.monotonic()
            if after < floor.sequence:  # more to catch up: the next piece, once this is sent
                await asyncio.sleep(0)  # the other clients' turn
                continue
        elif time.monotonic() - sent >= heartbeat:
            yield ": heartbeat\n\n"
            sent = time.monotonic()
        if closing.is_set():
            return
        await asyncio.sleep(poll)


def _piece(changes: list[Change]) -> tuple[str, int]:
    """The events of the first changes, up to about PIECE_BYTES (at least one change), and
    the sequence of the last of them. A catch-up goes out piece by piece, each written only
    once the client took the last (the server's write waits while its buffer is full), so a
    client that never reads holds one piece of the server's memory, not the whole backlog."""
    events: list[str] = []
    size = 0
    for change in changes:
        if events and size >= PIECE_BYTES:
            break
        events.append(_event(change.sequence, change.kind, change.data))
        size += len(events[-1])
    return "".join(events), changes[len(events) - 1].sequence


def _event(sequence: int, kind: str, data: dict[str, Any]) -> str:
    # JSON on one line: its strings' line breaks are escapes, so no record text can end the
    # event or forge a field of the stream.
    return f"id: {sequence}\ndata: {_dumps({'sequence': sequence, 'kind': kind, 'data': data})}\n\n"


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def _json_response(value: Any) -> Response:
    return Response(_dumps(value), media_type="application/json",
                    headers={"cache-control": "no-store"})


class _Guard:
    """Every response gets the security headers; a request naming another host (DNS
    rebinding) or using another method than GET or HEAD is refused."""

    def __init__(self, app: ASGIApp, allowed_hosts: tuple[str, ...]) -> None:
        self.app = app
        self.allowed = {host.lower() for host in allowed_hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []),
                                                  *SECURITY_HEADERS]}
            await send(message)

        refusal = self._refusal(scope)
        if refusal is not None:
            await refusal(scope, receive, secured)
            return
        await self.app(scope, receive, secured)

    def _refusal(self, scope: Scope) -> Response | None:
        if scope["method"] not in ("GET", "HEAD"):
            return Response("the live page only reads\n", status_code=405,
                            media_type="text/plain", headers={"allow": "GET, HEAD"})
        if "*" in self.allowed:
            return None
        host = dict(scope["headers"]).get(b"host", b"").decode("latin-1").lower()
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        if name not in self.allowed:
            return Response("this page answers only to the address it was bound to\n",
                            status_code=421, media_type="text/plain")
        return None


@cache
def _environment() -> Environment:
    return Environment(loader=FileSystemLoader(templates_dir()),
                       autoescape=select_autoescape(default=True, default_for_string=True),
                       trim_blocks=True, lstrip_blocks=True, auto_reload=False,
                       finalize=_shown_text)


def _shown_text(value: Any) -> Any:
    """Bidi controls in record text shown as markers (live.js does the same)."""
    return neutral(value) if isinstance(value, str) else value


# The address to serve on.


def serve_address(text: str) -> tuple[str, int]:
    """`--serve` as given: `PORT` (the loopback address), `HOST:PORT` or `[IPv6]:PORT`."""
    host, colon, port = text.rpartition(":")
    if not colon:
        host, port = DEFAULT_HOST, text
    bracketed = host.startswith("[") and host.endswith("]")
    host = host[1:-1] if bracketed else host
    if (":" in host and not bracketed) or not port.isascii() or not port.isdigit() \
            or not 0 <= int(port) <= 65535:
        raise ValueError(f"--serve takes PORT, HOST:PORT or [IPv6]:PORT, not {text!r}")
    return host or DEFAULT_HOST, int(port)


def is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def hosts_for(host: str) -> tuple[str, ...]:
    """The Host header names the page answers when bound to `host`: the loopback names and
    the address itself; any name when bound to every address (0.0.0.0 or ::), since the
    operator then reaches it by whatever name the room's network gives the machine."""
    if host in ("0.0.0.0", "::", ""):
        return ("*",)
    named = f"[{host}]" if ":" in host else host
    return (*LOOPBACK_NAMES, named.lower())


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on host:port (an OSError, such as the port taken, raised here)."""
    family, kind, protocol, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    sock = socket.socket(family, kind, protocol)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def serve(floor: LiveFloor, host: str, port: int, stop: threading.Event, *,
          store_url: str | None = None, sock: socket.socket | None = None,
          started: Callable[[int], None] | None = None) -> None:
    """Serve the page of `floor` on host:port until `stop` is set (for a thread of the
    watcher). `sock`: a socket already listening (`listen`, called before the thread starts
    so that a port taken is told at once), then `host` only names the Host header answered.
    `started` is called with the port once the server accepts connections."""
    import uvicorn

    sock = sock or listen(host, port)
    closing = threading.Event()
    app = make_app(floor, store_url, allowed_hosts=hosts_for(host), closing=closing)
    # log_config None: uvicorn's few warnings go through the watcher's own logging, which
    # uvicorn's configuration would otherwise replace for its loggers.
    config = uvicorn.Config(app, log_config=None, log_level="warning", access_log=False,
                            lifespan="off", http="h11", ws="none", loop="asyncio",
                            server_header=False, timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)

    async def run() -> None:
        serving = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started and not serving.done():
            await asyncio.sleep(0.02)
        if started is not None and server.started:
            started(sock.getsockname()[1])
        while not stop.is_set() and not serving.done():
            await asyncio.sleep(0.1)
        closing.set()  # the event streams end, so the server stops at once
        server.should_exit = True
        await serving

    try:
        asyncio.run(run())
    finally:
        sock.close()
