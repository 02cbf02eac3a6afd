"""Gold Armada speed figures for ``make bench`` (printed, never asserted)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from solver.bench import median_and_worst, reference, warm_cache_wall_times
from solver.reference_times import ARMADA_TABLE_SECONDS

SOLVE = """
import resource, sys, time
t0 = time.perf_counter()
from numba import get_num_threads
from solver.armada.game import default_game
from solver.armada.wholegame import layers, solve_table
game = default_game()
solve_table(game.reduced(piers=["barrels"], skulls=1), sys.argv[1])  # compile / load the JIT
t1 = time.perf_counter()
table = solve_table(game, sys.argv[1])
t2 = time.perf_counter()
live = sum(len(c) for c, _ in layers(game))
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{t1 - t0:.3f} {t2 - t1:.3f} {live} {peak:.0f} {get_num_threads()} {table[0, 0]:.6f}")
"""


def run() -> None:
    env = dict(os.environ)
    for objective in ("solo", "duel"):
        out = subprocess.run([sys.executable, "-c", SOLVE, objective], capture_output=True,
                             text=True, check=True, env=env).stdout.split()
        setup, solve, live, peak, threads, opening = out
        rate = int(live) / float(solve)
        print(f"whole-game {objective} solve: {float(solve):.2f} s for {int(live):,} three-roll "
              f"sub-problems = {rate:,.0f} per s on {threads} threads "
              f"({rate / int(threads):,.0f} per thread); peak memory {peak} MB; "
              f"imports + JIT {float(setup):.2f} s (in all {float(setup) + float(solve):.1f} s "
              f"{reference(ARMADA_TABLE_SECONDS)}); opening {opening}  goal < 30 s, < 2 GB")

    import numpy as np

    from solver.armada.game import default_game

    horizon = default_game().horizon
    batch = np.random.default_rng(0).normal(size=(4000, len(horizon.space.full)))
    start = time.perf_counter()
    horizon.value(batch)
    numpy_rate = len(batch) / (time.perf_counter() - start)
    print(f"for comparison, the same three-roll sub-problem in plain batched numpy "
          f"(solver.engine.horizon): {numpy_rate:,.0f} per s")

    hold = ["armada", "hold", "--board-state", "0000000000/0", "--rolls-left", "2", "BBOPA"]
    walls = warm_cache_wall_times(hold, warm_up=["armada", "solve"], runs=5)
    print(f"`treasure armada hold --objective solo`, cold process, warm cache: "
          f"{median_and_worst(walls)}  goal < 0.5 s")
    floor = []
    for _ in range(5):  # what any command pays before it starts: Python, click and numpy
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import numpy, solver.cli"], check=True)
        floor.append(time.perf_counter() - start)
    print(f"  of which a process that only imports numpy and the CLI: {median_and_worst(floor)}")
