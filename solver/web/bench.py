"""``make bench`` for the table companion: warm answers through a real server.

The app runs under uvicorn on a free local port, in a thread, against a temporary cache; each
query is asked once to build its tables, then timed over repeated requests from a plain HTTP
client (what a page's request costs once its tables exist, without the browser's drawing).
"""

from __future__ import annotations

import json
import os
import statistics
import tempfile
import time
import urllib.request

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
        with in_thread(create_app()) as base:
            for label, (path, body) in QUERIES.items():
                while _post(base, path, body) == 202:  # a table still building
                    time.sleep(1)
                walls = []
                for _ in range(RUNS):
                    start = time.perf_counter()
                    _post(base, path, body)
                    walls.append(time.perf_counter() - start)
                print(f"  {label}: median {1000 * statistics.median(walls):.1f} ms, "
                      f"worst {1000 * max(walls):.1f} ms over {RUNS} warm requests")
