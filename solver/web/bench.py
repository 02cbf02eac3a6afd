"""``make bench`` for the table companion: warm answers through a real server, one at a time
and 200 at once.

One at a time: the app runs under uvicorn on a free local port, in a thread, against a
temporary cache; each query is asked once to build its tables, then timed over repeated
requests from a plain HTTP client (what a page's request costs once its tables exist, without
the browser's drawing).

Under load: ``treasure serve`` in a process of its own (so the 200 client threads do not share
its interpreter lock), its tables warm; 200 threads each send one ``hold`` request at the same
moment (a barrier), each on its own connection, and the latencies' median, p95 and worst are
printed: the same query 200 times (a table whose phones all ask about the same dice: answered
from :mod:`solver.web.answers` after the first), then 200 different dice (each computed), each
without and with scores (the same scoreboard: the turn solved at it is kept, as within a
player's turn), and 200 different scoreboards (each a turn solved, tens of ms each);
``GET /api/health`` 200 times is the HTTP stack's own cost. Each line also gives the server's
CPU time per request (what an answer costs, however busy the machine) and the load average
(the machine is shared: the latencies grow with it). The goal is p95 under 1 s without
scores.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from itertools import combinations_with_replacement

QUERIES = {
    "sabords hold, no scores (captain CCDMPSXX)":
        ("/api/sabords/hold", {"card": "captain", "dice": "CCDMPSXX"}),
    "sabords hold, 5400 against 5900 (shipped game table)":
        ("/api/sabords/hold", {"card": "captain", "dice": "CCDMPSXX", "me": 5400,
                               "opponent": 5900}),
    "armada hold, turn objective (BBOPA, 2 rolls left)":
        ("/api/armada/hold", {"dice": "BBOPA", "rolls_left": 2, "objective": "turn"}),
}
RUNS = 20


def _post(base: str, path: str, body: dict) -> int:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=600) as response:
        response.read()
        return response.status


def run() -> None:
    from solver.web.app import create_app
    from solver.web.serve import in_thread

    with tempfile.TemporaryDirectory() as cache:
        os.environ["TREASURE_CACHE"] = cache
        app = create_app()
        with in_thread(app) as base:
            for label, (path, body) in QUERIES.items():
                while _post(base, path, body) == 202:  # a table still building
                    time.sleep(1)
                for kept in (False, True):
                    walls = []
                    for _ in range(RUNS):
                        if not kept:
                            app.state.answers.clear()  # computed, not the kept answer
                        start = time.perf_counter()
                        _post(base, path, body)
                        walls.append(time.perf_counter() - start)
                    print(f"  {label}, {'kept answer' if kept else 'computed'}: median "
                          f"{1000 * statistics.median(walls):.1f} ms, worst "
                          f"{1000 * max(walls):.1f} ms over {RUNS} warm requests")
    load()


CONCURRENT = 200
SCORES = {"me": 5400, "opponent": 5900}


def _ask(port: int, method: str, path: str, body: dict | None = None) -> int:
    """One request on a connection of its own; the status."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    try:
        connection.request(method, path, None if body is None else json.dumps(body),
                           {"Content-Type": "application/json"})
        reply = connection.getresponse()
        reply.read()
        return reply.status
    finally:
        connection.close()


def _cpu_seconds(pid: int) -> float | None:
    """The process's CPU time so far (user and system), from /proc; None where there is none."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _at_once(port: int, requests: list[tuple[str, str, dict | None]],
             server: int | None = None) -> str:
    """Send every request at the same moment, one thread each: latencies in one line, with
    the ``server`` process's CPU time per request (what the answers cost it, whatever else the
    machine runs) and the load average."""
    before = None if server is None else _cpu_seconds(server)
    barrier = threading.Barrier(len(requests))
    walls: list[float] = []
    failed: list[int] = []

    def one(method: str, path: str, body: dict | None) -> None:
        barrier.wait()
        start = time.perf_counter()
        status = _ask(port, method, path, body)
        walls.append(time.perf_counter() - start)
        if status != 200:
            failed.append(status)

    threads = [threading.Thread(target=one, args=r) for r in requests]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    after = None if server is None else _cpu_seconds(server)
    walls.sort()
    p95 = walls[max(0, int(0.95 * len(walls)) - 1)]
    bad = f"; {len(failed)} not 200: {sorted(set(failed))}" if failed else ""
    cpu = ("" if before is None or after is None else
           f", server CPU {1000 * (after - before) / len(requests):.2f} ms a request")
    return (f"median {statistics.median(walls):.3f} s, p95 {p95:.3f} s, worst "
            f"{walls[-1]:.3f} s{bad}{cpu}, load average {os.getloadavg()[0]:.1f}")


def _dice(count: int) -> list[str]:
    """``count`` different rolls of eight dice with at most two skulls (each a live turn)."""
    rolls = ["".join(r) for r in combinations_with_replacement("CDMPSX", 8)
             if r.count("X") <= 2]
    return rolls[:: max(1, len(rolls) // count)][:count]


def load() -> None:
    """The figures under load (see the module's docstring)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "TREASURE_CACHE": cache}
        server = subprocess.Popen([sys.executable, "-m", "solver", "serve", "--port",
                                   str(port)], stdout=subprocess.DEVNULL, env=env)
        try:
            _load(port, server.pid)
        finally:
            server.terminate()
            server.wait(10)


def _positions(count: int) -> list[dict]:
    """``count`` different scoreboards of the shipped game (target 6000): each a turn of its
    own to solve."""
    pairs = [(me, opponent) for me in range(0, 6000, 300) for opponent in range(0, 6000, 300)
             if (me, opponent) != (SCORES["me"], SCORES["opponent"])]
    return [{"me": me, "opponent": opponent} for me, opponent in pairs[:count]]


def _load(port: int, server: int) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            _ask(port, "GET", "/api/health")
            break
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
    hold = "/api/sabords/hold"
    rolls = _dice(CONCURRENT)
    for card in ("captain", "none"):  # the turn tables, and the whole game's shipped table
        for scores in ({}, SCORES):
            while _ask(port, "POST", hold, {"card": card, "dice": rolls[0], **scores}) == 202:
                time.sleep(1)
    print(f"  {CONCURRENT} requests at once, `treasure serve` in its own process, warm tables:")
    cases = [
        ("GET /api/health (the HTTP stack alone)", [("GET", "/api/health", None)] * CONCURRENT),
        ("hold, no scores, the same query", [("POST", hold, {"card": "captain",
                                                             "dice": "CCDMPSXX"})] * CONCURRENT),
        ("hold, no scores, 200 different dice",
         [("POST", hold, {"card": "none", "dice": d}) for d in rolls]),
        ("hold, 5400 to 5900, the same query",
         [("POST", hold, {"card": "captain", "dice": "CCDMPSXX", **SCORES})] * CONCURRENT),
        ("hold, 5400 to 5900, 200 different dice",
         [("POST", hold, {"card": "captain", "dice": d, **SCORES}) for d in rolls]),
        ("hold, 200 different scoreboards (each turn solved)",
         [("POST", hold, {"card": "captain", "dice": "CCDMPSXX", **p})
          for p in _positions(CONCURRENT)]),
    ]
    for label, requests in cases:
        print(f"    {label}: {_at_once(port, requests, server)}")
