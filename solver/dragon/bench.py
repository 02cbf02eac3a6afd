"""``make bench`` for Die Dracheninsel: route queries with full hands, swap and flight included,
and, apart, hands holding three swap cards (the router's hardest: the README's tail).

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
THREE_SWAP_QUERIES = 120
THREE_SWAP_SEED = 4343
# the three swap cards of a hand, in turn: Zerstörende Kräfte (adjacent) and Tosende Elemente
THREE_SWAP_MIXES = (("swap-adjacent",) * 3,
                    ("swap-adjacent", "swap-adjacent", "swap-any"),
                    ("swap-adjacent", "swap-any", "swap-any"))


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


def three_swap_queries(n: int = THREE_SWAP_QUERIES,
                       seed: int = THREE_SWAP_SEED) -> list[RouteQuery]:
    """Random positions; six-card hands with exactly three swap cards (the mixes of
    ``THREE_SWAP_MIXES`` in turn) and three other cards drawn from the deck."""
    island = default_island()
    rng = random.Random(seed)
    out = []
    for i in range(n):
        pos, mover = random_position(island, rng)
        must = list(THREE_SWAP_MIXES[i % len(THREE_SWAP_MIXES)])
        limit = {use: must.count(use) for use in ("swap-adjacent", "swap-any")}
        out.append(RouteQuery(pos, mover, random_hand(rng, 6, must=must, limit=limit)))
    return out


def timed(qs: list[RouteQuery], label: str) -> dict:
    """Time each query; print and return median, 90th percentile, worst and how many took
    over 2 s (with their indices, to pin them)."""
    times = []
    slow = []
    n = len(qs)
    for i, q in enumerate(qs):
        t0 = time.perf_counter()
        cp_route(q)
        dt = time.perf_counter() - t0
        times.append(dt)
        if dt > 2.0:
            slow.append((i, dt))
        if (i + 1) % 50 == 0:
            print(f"  dracheninsel bench ({label}): {i + 1}/{n}", file=sys.stderr, flush=True)
    times.sort()
    figures = {
        "queries": n,
        "median_s": statistics.median(times),
        "p90_s": times[int(0.9 * (n - 1))],
        "worst_s": times[-1],
        "over_2s": len(slow),
    }
    print(f"route (CP-SAT), {n} random positions, {label}")
    print(f"  median {figures['median_s']:.3f} s   90% {figures['p90_s']:.3f} s   "
          f"worst {figures['worst_s']:.3f} s   over 2 s: {figures['over_2s']}"
          + "".join(f"  #{i} {dt:.1f} s" for i, dt in slow))
    return figures


def run(n: int = QUERIES, n_three: int = THREE_SWAP_QUERIES) -> dict:
    """Time ``n`` benchmark queries (flight and one swap card) and ``n_three`` hands with three
    swap cards, reported apart."""
    figures = timed(queries(n), "6-card hands with flight and swap cards")
    figures["three_swaps"] = timed(three_swap_queries(n_three),
                                   "6-card hands with three swap cards")
    return figures


if __name__ == "__main__":
    run(int(sys.argv[1]) if len(sys.argv) > 1 else QUERIES,
        int(sys.argv[2]) if len(sys.argv) > 2 else THREE_SWAP_QUERIES)
