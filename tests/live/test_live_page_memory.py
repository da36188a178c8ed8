"""What a client that never reads costs the live page's server: a catch-up of the 5,000
changes kept (about 12 MB here) goes out piece by piece, so each stalled client holds about
one piece of the server's memory, and the page keeps answering the others. The server runs
in a process of its own so that its memory (VmRSS) is its own alone."""

from __future__ import annotations

import fcntl
import select
import socket
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import httpx2

ROOT = Path(__file__).resolve().parents[2]
FINDINGS = 5000  # the changes the floor keeps
STALLED = 20
HELD_PER_CLIENT = 1024 * 1024  # far above a piece (64 KiB) and its buffers, far below 12 MB


def resident(pid: int) -> int:
    """The process's resident memory, in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def queued(sock: socket.socket) -> int:
    """The bytes waiting in the socket's receive queue, not read."""
    return struct.unpack("i", fcntl.ioctl(sock, termios.FIONREAD, b"\0\0\0\0"))[0]


def catch_up(port: int) -> list[int]:
    """The ids of the events a reading client gets after 0, up to the last kept."""
    ids = []
    with httpx2.Client(timeout=60) as http, \
            http.stream("GET", f"http://127.0.0.1:{port}/events?after=0") as stream:
        for line in stream.iter_lines():
            if line.startswith("id: "):
                ids.append(int(line[4:]))
                if ids[-1] == FINDINGS:
                    return ids
    raise AssertionError(f"the stream ended after {ids[-1:]}")


def snapshot(port: int) -> tuple[int, int]:
    """The snapshot's sequence and the number of findings it holds."""
    taken = httpx2.get(f"http://127.0.0.1:{port}/snapshot.json", timeout=60).json()
    return taken["sequence"], len(taken["findings"])


def stalled_client(port: int) -> socket.socket:
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before connect: it holds
    sock.connect(("127.0.0.1", port))
    sock.sendall(b"GET /events?after=0 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    return sock


def test_clients_that_never_read_hold_a_piece_each_and_the_page_answers_the_others() -> None:
    server = subprocess.Popen([sys.executable, "-m", "tests.helpers.floor_server",
                               str(FINDINGS), "100"], cwd=ROOT, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    clients: list[socket.socket] = []
    try:
        port = int(server.stdout.readline())
        # warmed: what any client costs (a catch-up, a snapshot) is counted before
        assert catch_up(port) == list(range(1, FINDINGS + 1))
        assert snapshot(port) == (FINDINGS, FINDINGS)
        before = resident(server.pid)
        clients = [stalled_client(port) for _ in range(STALLED)]
        # each has its catch-up begun: more waiting unread than the stream's first line
        bound = time.monotonic() + 60
        while any(queued(client) < 1024 for client in clients):
            assert time.monotonic() < bound, "the stalled clients were not answered in 60 s"
            select.select(clients, [], [], 0.5)
            time.sleep(0.05)
        # another client is served its whole catch-up meanwhile, and the snapshot
        assert catch_up(port) == list(range(1, FINDINGS + 1))
        grown = resident(server.pid) - before
        assert snapshot(port) == (FINDINGS, FINDINGS)
        assert grown < STALLED * HELD_PER_CLIENT, (
            f"{STALLED} clients that never read grew the server by {grown / 2**20:.1f} MiB")
    finally:
        for client in clients:
            client.close()
        server.stdin.close()
        server.wait(30)
