"""``make bench`` for Die Dracheninsel: route queries with full hands, swap and flight included,
and, apart, hands holding three swap cards (the router's hardest: the README's tail), each
proved optimal however long it takes, then again within the work budget (``route.WORK_BUDGET``),
then within that budget and the deadline, as the command line and the page answer
(``route.DEADLINE``).

Prints the figures (wall time, CPU time and CP-SAT's deterministic work, each as median, 95th
percentile and worst, how many took over 2 s, how many were proved optimal, how many both
were proved and took at most 2 s, and how many reached the deadline); the tests never assert
on time.
"""

from __future__ import annotations

import math
import random
import statistics
import sys
import time
from textwrap import indent

from solver.dragon.board import default_island
from solver.dragon.randgen import random_hand, random_position
from solver.dragon.route import DEADLINE, WORK_BUDGET, RouteQuery
from solver.dragon.router.rounds import cp_route
from solver.text import table

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


def _spread(values: list[float]) -> dict:
    """Median, 95th percentile (nearest rank: 95% of the figures are at most it) and worst."""
    values = sorted(values)
    return {"median": statistics.median(values),
            "p95": values[math.ceil(0.95 * len(values)) - 1], "worst": values[-1]}


def timed(qs: list[RouteQuery], label: str, budget: float | None = None,
          deadline: float | None = None) -> dict:
    """Time each query (the whole query's work within ``budget`` and its wall time within
    ``deadline``, if given): wall time, this
    process's CPU time (on a shared machine the wall time also counts other jobs' turns) and
    CP-SAT's deterministic work (the same on any machine). Print and return the median, 95th
    percentile and worst of each, how many queries took over 2 s of wall or CPU time (with
    their indices, to pin them), how many were proved optimal, how many of those took at
    most 2 s, and which reached the deadline."""
    wall, cpu, work, slow, proved, quick, late = [], [], [], [], 0, 0, []
    n = len(qs)
    for i, q in enumerate(qs):
        t0, c0 = time.perf_counter(), time.process_time()
        result = cp_route(q, budget=budget, deadline=deadline)
        dt, dc = time.perf_counter() - t0, time.process_time() - c0
        wall.append(dt)
        cpu.append(dc)
        work.append(result.work)
        proved += result.optimal
        if result.deadline_reached:
            late.append(i)
        if max(dt, dc) > 2.0:
            slow.append((i, dt, dc))
        else:
            quick += result.optimal
        if (i + 1) % 50 == 0:
            print(f"  dracheninsel bench ({label}): {i + 1}/{n}", file=sys.stderr, flush=True)
    figures = {"queries": n, "wall_s": _spread(wall), "cpu_s": _spread(cpu),
               "work": _spread(work), "over_2s": len(slow), "proved": proved,
               "proved_within_2s": quick, "deadline_reached": len(late)}
    print(f"route (CP-SAT), {n} random positions, {label}")
    rows = [[name, *(f"{figures[key][at]:.3f}{unit}" for at in ("median", "p95", "worst"))]
            for key, name, unit in (("wall_s", "wall", " s"), ("cpu_s", "CPU", " s"),
                                    ("work", "CP-SAT work", ""))]
    print(indent(table(["", "median", "95%", "worst"], rows, "lrrr", rule=False), "  "), end="")
    print(f"  over 2 s (wall or CPU): {len(slow)}"
          + "".join(f"  #{i} {dt:.1f} s ({dc:.1f} s CPU)" for i, dt, dc in slow))
    print(f"  proved optimal: {proved} of {n}; proved within 2 s (wall and CPU): {quick}")
    if deadline is not None:
        print(f"  deadline reached (answered unproved): {len(late)}"
              + "".join(f" #{i}" for i in late))
    return figures


def run(n: int = QUERIES, n_three: int = THREE_SWAP_QUERIES) -> dict:
    """Time ``n`` benchmark queries (flight and one swap card) and ``n_three`` hands with three
    swap cards, reported apart: proved optimal however long it takes (as the simulations ask),
    then within ``WORK_BUDGET``, then within it and ``DEADLINE`` (as the command line and the
    page ask)."""
    figures = timed(queries(n), "6-card hands with flight and swap cards")
    three = three_swap_queries(n_three)
    figures["three_swaps"] = timed(three, "6-card hands with three swap cards")
    figures["three_swaps_budget"] = timed(
        three, f"the same three-swap hands within the route budget ({WORK_BUDGET:g} units of work)",
        WORK_BUDGET)
    figures["three_swaps_deadline"] = timed(
        three, f"the same three-swap hands as the command line and the page ask them "
               f"({WORK_BUDGET:g} units of work, {DEADLINE:g} s)", WORK_BUDGET, DEADLINE)
    return figures


if __name__ == "__main__":
    run(int(sys.argv[1]) if len(sys.argv) > 1 else QUERIES,
        int(sys.argv[2]) if len(sys.argv) > 2 else THREE_SWAP_QUERIES)
