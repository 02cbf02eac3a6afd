"""Mille Sabords speed figures for ``make bench`` (printed, never asserted)."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

from solver.bench import median_and_worst, reference, wall_times, warm_cache_wall_times
from solver.reference_times import GAME_PLAY_SECONDS, THREE_PLAYER_SECONDS, WHOLE_GAME_SECONDS
from solver.sabords.turn.lanes import UNIT

COLD_SOLVE = """
import time
t0 = time.perf_counter()
from solver.engine import solve
from solver.sabords.turn.model import build_model
from solver.sabords.objective import Objective
from solver.sabords.rules import STANDARD_CARDS, load_rules
t1 = time.perf_counter()
rules = load_rules()
for card in STANDARD_CARDS:
    solve(build_model(rules.card(card), rules, Objective("points")).problem)
t2 = time.perf_counter()
print(f"{t1 - t0:.4f} {t2 - t1:.4f}")
"""

GAME_PLAY = """
import time
from solver.sabords.game.solved import load_game
from solver.sabords.game.table.positions import load_play
from solver.sabords.game.two_player import GameSpec
from solver.sabords.rules import load_rules
table = load_game(GameSpec(load_rules()))
start = time.perf_counter()
load_play(table)
print(f"{time.perf_counter() - start:.3f}")
"""


def run() -> None:
    env = dict(os.environ)
    runs = []
    for _ in range(5):
        out = subprocess.run([sys.executable, "-c", COLD_SOLVE], capture_output=True, text=True,
                             check=True, env=env).stdout.split()
        runs.append((float(out[0]), float(out[1])))
    imports = statistics.median(r[0] for r in runs)
    solves = statistics.median(r[1] for r in runs)
    print(f"all 12 cases, points objective, from nothing: {solves:.3f} s "
          f"(median of 5 fresh processes; imports {imports:.3f} s more)  goal < 0.5 s")

    hold = ["sabords", "hold", "--card", "captain", "CCDMPSSX"]
    walls = warm_cache_wall_times(hold, warm_up=hold, runs=7)
    print(f"`treasure sabords hold`, cold process, warm cache: {median_and_worst(walls)}"
          f"  goal < 0.3 s")

    whole_game()
    whole_table()
    from solver.sabords.review.bench import run as review_bench

    review_bench()

    from solver.sabords.rules import load_rules
    from solver.sabords.turn.certify import certificate_document

    rules = load_rules()
    start = time.perf_counter()
    certificate_document("none", rules)
    print(f"exact certificate of one card (none): {time.perf_counter() - start:.2f} s")


def whole_game() -> None:
    """The two-player game at target 6000 from nothing (a fresh process and an empty cache),
    then `hold` with the scoreboard against the table it cached."""
    import json
    import tempfile

    treasure = [sys.executable, "-m", "solver"]
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "TREASURE_CACHE": cache}
        # numba compiles the kernels once per install (its cache then lives beside the
        # sources): a small game first, so the figure below is the solve's alone
        start = time.perf_counter()
        subprocess.run(treasure + ["sabords", "game", "--target", "300", "--json"],
                       capture_output=True, check=True, env=env)
        print(f"the whole game at target 300, a fresh process (compiling the kernels if this "
              f"install has not yet): {time.perf_counter() - start:.0f} s wall")
        start = time.perf_counter()
        out = subprocess.run(treasure + ["sabords", "game", "--json"], capture_output=True,
                             text=True, check=True, env=env).stdout
        wall = time.perf_counter() - start
        doc = json.loads(out)
        solve = doc["solve"]
        pairs = ((6000 - solve["lowest_score"]) // UNIT) ** 2
        print(f"the whole two-player game, target 6000, from nothing: {wall:.0f} s wall on "
              f"{os.cpu_count()} cores {reference(WHOLE_GAME_SECONDS)} (goal < 60 s, set for "
              f"about 6,800 score pairs; scores kept from {solve['lowest_score']}: {pairs:,} "
              f"pairs); Newton steps {solve['newton_steps']}; Bellman residual "
              f"{solve['residual']}; first player wins {doc['first_player_wins']:.6f}")
        play = subprocess.run([sys.executable, "-c", GAME_PLAY], capture_output=True,
                              text=True, check=True, env=env).stdout
        print(f"its play for the four- and five-player rule (every turn solved again at the "
              f"table's values), the table cached: {float(play):.0f} s wall "
              f"{reference(GAME_PLAY_SECONDS)}")
        hold = ["sabords", "hold", "--card", "captain", "--me", "5400", "--opponent", "5900",
                "CCDMPSSX"]
        subprocess.run([sys.executable, "-m", "solver", *hold], capture_output=True,
                       check=True, env=env)  # fills the cache with the table
        walls = wall_times(hold, env, 7)
        print(f"`treasure sabords hold --me 5400 --opponent 5900`, warm cache: "
              f"{median_and_worst(walls)}  goal < 0.3 s")


TABLE_SOLVE = """
import json, resource, sys
from dataclasses import asdict
from solver.sabords.game.table.equilibrium import TableSolver
from solver.sabords.game.table.states import TableSpec
from solver.sabords.rules import load_rules
solver = TableSolver(TableSpec.of(load_rules(sys.argv[2:]), 3, int(sys.argv[1])))
stats = solver.solve().stats
stats["peak_gb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 ** 2
stats["turn_cost"] = {name: asdict(cost) for name, cost in solver.turn_cost.items()}
print(json.dumps(stats))
"""


def turn_costs(costs: dict) -> str:
    """Each stage's turn solving (a :class:`~solver.sabords.turn.lanes.TurnCost` as a dict):
    CPU milliseconds per state solved (a state of a repeating stage once per step) and Bellman
    updates per lane."""
    return "; ".join(f"{name} {1000 * c['seconds'] / max(c['states'], 1):.2f} ms CPU a state "
                     f"({c['states']:,} solved, {c['rounds'] / max(c['lanes'], 1):.2f} "
                     f"updates a lane)" for name, c in costs.items())


def whole_table() -> None:
    """The three-player table the report solves exactly, from nothing in a fresh process (time,
    peak memory, policy-iteration steps, regret), a warm three-player `hold`, the table at 6000
    with scores floored at zero as `make solve` built it, and the size of the default tables at
    6000 that are not solved yet."""
    import json
    import resource
    import tempfile

    from solver.sabords.game.table.report import SMALL_TARGET, SMALL_VARIANTS
    from solver.sabords.game.table.states import Layout, TableSpec
    from solver.sabords.rules import load_rules

    flags = ["--target", str(SMALL_TARGET)] + [f"--variant={v}" for v in SMALL_VARIANTS]
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "TREASURE_CACHE": cache}
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", TABLE_SOLVE, str(SMALL_TARGET),
                              *SMALL_VARIANTS], capture_output=True, text=True, check=True,
                             env=env).stdout
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        stats = json.loads(out)
        print(f"the three-player table, target {SMALL_TARGET} ({', '.join(SMALL_VARIANTS)}), "
              f"solved from nothing (not the shipped file): {wall:.0f} s wall ({cpu:.0f} s CPU;"
              f" load average {os.getloadavg()[0]:.1f}) {reference(THREE_PLAYER_SECONDS)}, "
              f"peak memory {stats['peak_gb']:.2f} GB,"
              f" {stats['states']:,} states, steps {stats['stage_steps']}, {stats['sweeps']:,} "
              f"sweeps, converged {stats['converged']}, regret {stats['regret']:.1e}")
        print(f"  its turns solved, by stage: {turn_costs(stats['turn_cost'])}")
        hold = ["sabords", "hold", "--card", "captain", "--scores", "200,100,0",
                "CCDMPSSX"] + flags
        subprocess.run([sys.executable, "-m", "solver", *hold], capture_output=True,
                       check=True, env=env)  # fills the cache with the table
        walls = wall_times(hold, env, 7)
        print(f"`treasure sabords hold --scores 200,100,0`, warm cache: "
              f"{median_and_worst(walls)}  goal < 0.5 s")
    table = at_target()
    costs = None if table is None else turn_floor(table)
    for low in (-2000, -6000, -9500):
        layout = Layout(TableSpec.of(load_rules(), 3, 6000, low))
        stages = layout.stages()
        again = sum(s.stop - s.start for s in stages if s.repeats)
        print(f"the three-player table at 6000 with scores down to {low}: {layout.states:,} "
              f"states, {again:,} of them solved again at every policy-iteration step (not "
              f"solved yet){floor_text(stages, costs)}")


def at_target():
    """The three-player table at 6000 with scores floored at zero: its solve's own figures
    (wall time, steps, settling, regret) from the cache, where ``make solve`` left it (an
    hour's solve: not solved here again). Returns the table (None when not in the cache)."""
    from solver.sabords.game.table.positions import load_table, table_path
    from solver.sabords.game.table.report import at_target_spec

    spec = at_target_spec()
    path = table_path(spec)
    name = f"the three-player table at {spec.game.target} with scores floored at zero"
    if path is None or not path.exists():
        print(f"{name}: not in the cache (`make solve` builds it)")
        return None
    table = load_table(spec)
    stats = table.stats
    print(f"{name}, as `make solve` built it (from the cache): {stats['seconds'] / 60:.0f} min "
          f"wall, {stats['states']:,} states, steps {stats['stage_steps']}, "
          f"{len(stats['cycling'])} cycling, {stats['settle_rounds']} settling rounds, "
          f"{len(stats['mixed'])} mixed, regret {stats['regret']:.1e}")
    sizes = {s.names[0]: s.stop - s.start for s in table.layout.stages() if s.repeats}
    print("  turns solved in its repeating stages: " + "; ".join(
        f"{stage} {sum(counts):,} ({sum(counts) / sizes[stage]:.1f} a state)"
        for stage, counts in sorted(stats["turns_solved"].items())))
    return table


FLOOR_SAMPLE = 2048  # states a stage of the cached table whose turns are timed


def turn_floor(solution) -> list[tuple[tuple[str, ...], float, float]]:
    """Per stage of ``solution`` (:func:`at_target`'s table), timed on a seeded sample of its
    states: the stage's phases and the CPU seconds a state for every card's turn solved cold
    (what the regret certificate does), and solved again from that very policy (the engine's
    cheapest solve: one Bellman update confirms it)."""
    import numpy as np

    from solver.sabords.game.table.equilibrium import TableSolver

    solver = TableSolver(solution.spec)
    lanes, movers = solver.lanes, solver.layout.players - 1
    rng = np.random.default_rng(2026)
    lanes.solve(solution.values[solver.successors(np.arange(8)), movers], np.arange(8),
                lanes.storage(8), 1e-14)  # compiled before the clock starts
    costs = []
    for stage in solver.layout.stages():
        rows = np.sort(rng.choice(np.arange(stage.start, stage.stop), FLOOR_SAMPLE, False))
        pay = solution.values[solver.successors(rows), movers]
        store = lanes.storage(len(rows))
        seconds = []
        for _ in range(2):  # cold, then from the policy just found
            start = time.process_time()
            lanes.solve(pay, np.arange(len(rows)), store, 1e-14)
            seconds.append((time.process_time() - start) / len(rows))
        costs.append((stage.names, *seconds))
    print("every card's turn at one state of the table at 6000, floor 0 (CPU ms, a sample of "
          f"{FLOOR_SAMPLE:,} states a stage): " + "; ".join(
              f"{'/'.join(names)} {1e3 * cold:.2f} cold, {1e3 * warm:.2f} from its own policy"
              for names, cold, warm in costs))
    return costs


def floor_text(stages, costs) -> str:
    """What solving the turns of every state of the repeating stages once would cost, at the
    per-state costs measured by :func:`turn_floor` (its stages in the same order). A solve of
    the table does it at every policy-iteration step, and solves the other stages besides
    (once each distinct payoff row): a floor, not an estimate."""
    if costs is None or [s.names for s in stages] != [c[0] for c in costs]:
        return ""
    again = [(s.stop - s.start) * s.repeats for s in stages]
    cold = sum(n * c[1] for n, c in zip(again, costs, strict=True))
    warm = sum(n * c[2] for n, c in zip(again, costs, strict=True))
    return (f"; their turns solved once: {cold / 120:.0f} min on 2 cores cold, "
            f"{warm / 120:.0f} min each from its own policy (a perfect guess)")
