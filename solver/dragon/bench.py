"""``make bench`` for Die Dracheninsel: route queries with full hands, swap and flight included.

Prints the figures; the tests never assert on time.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from solver.dragon.board import default_island
from solver.dragon.randgen import random_hand, random_position
from solver.dragon.route import RouteQuery
from solver.dragon.router.rounds import cp_route

QUERIES = 200
SEED = 4242


def queries(n: int = QUERIES, seed: int = SEED) -> list[RouteQuery]:
    """Random positions; six-card hands each holding a flight and a swap card (adjacent or any,
    alternately) and four cards drawn from the deck."""
    island = default_island()
    rng = random.Random(seed)
    out = []
    for i in range(n):
        pos, mover = random_position(island, rng)
        must = ["flight", "swap-adjacent" if i % 2 else "swap-any"]
        out.append(RouteQuery(pos, mover, random_hand(rng, 6, must=must)))
    return out


def run(n: int = QUERIES) -> dict:
    """Time ``n`` route queries; print and return median, 90th percentile and worst."""
    times = []
    slow = []
    for i, q in enumerate(queries(n)):
        t0 = time.perf_counter()
        cp_route(q)
        dt = time.perf_counter() - t0
        times.append(dt)
        if dt > 2.0:
            slow.append((i, dt))
        if (i + 1) % 50 == 0:
            print(f"  dracheninsel bench: {i + 1}/{n}", file=sys.stderr, flush=True)
    times.sort()
    figures = {
        "queries": n,
        "median_s": statistics.median(times),
        "p90_s": times[int(0.9 * (n - 1))],
        "worst_s": times[-1],
        "over_2s": len(slow),
    }
    print(f"route (CP-SAT), {n} random positions, 6-card hands with flight and swap cards")
    print(f"  median {figures['median_s']:.3f} s   90% {figures['p90_s']:.3f} s   "
          f"worst {figures['worst_s']:.3f} s   over 2 s: {figures['over_2s']}")
    return figures
