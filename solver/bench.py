"""``make bench``: print each game's speed figures (never asserted in tests).

Usage: ``python -m solver.bench [PART ...]`` (names or aliases of
:data:`solver.games.PARTS`). Also holds the timing helpers the games' benchmarks share.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

from solver.games import select


def reference(seconds: float) -> str:
    """How a benchmark line quotes the reference figure it measures again
    (:mod:`solver.reference_times`)."""
    return f"(reference {seconds:.0f} s: solver/reference_times.py)"


def warm_cache_wall_times(command: list[str], warm_up: list[str], runs: int) -> list[float]:
    """Wall times of ``runs`` runs of ``treasure COMMAND``, each in a fresh process, against a new
    temporary cache that one run of ``treasure WARM_UP`` has filled first."""
    treasure = [sys.executable, "-m", "solver"]
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "TREASURE_CACHE": cache}
        subprocess.run(treasure + warm_up, capture_output=True, check=True, env=env)
        return wall_times(command, env, runs)


class Walls(list):
    """Wall times of runs in fresh processes, with each run's CPU time (``cpu``: user and
    system, what the run costs however busy the machine) and the load average after them."""

    cpu: list[float]
    load: float


def wall_times(command: list[str], env: dict, runs: int) -> Walls:
    """Wall times of ``runs`` runs of ``treasure COMMAND``, each in a fresh process, with
    ``env`` (its cache already filled)."""
    walls = Walls()
    walls.cpu = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "solver", *command], capture_output=True,
                       check=True, env=env)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        walls.cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    walls.load = os.getloadavg()[0]
    return walls


def median_and_worst(walls: list[float]) -> str:
    """``median X s, worst Y s`` for a list of wall times (and, for :class:`Walls`, the
    median CPU time and the load average: the machine is shared, and a wall time grows with
    its load)."""
    text = f"median {statistics.median(walls):.3f} s, worst {max(walls):.3f} s"
    if isinstance(walls, Walls):
        text += (f" (CPU {statistics.median(walls.cpu):.3f} s; load average "
                 f"{walls.load:.1f})")
    return text


def main(argv: list[str]) -> int:
    for part in select(argv):
        if not part.bench:
            continue
        print(f"== {part.title}")
        part.hook("bench")()
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
