"""Mille Sabords speed figures for ``make bench`` (printed, never asserted)."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

from solver.bench import median_and_worst, warm_cache_wall_times

COLD_SOLVE = """
import time
t0 = time.perf_counter()
from solver.engine import solve
from solver.sabords.model import build_model
from solver.sabords.objective import Objective
from solver.sabords.rules import STANDARD_CARDS, load_rules
t1 = time.perf_counter()
rules = load_rules()
for card in STANDARD_CARDS:
    solve(build_model(rules.card(card), rules, Objective("points")).problem)
t2 = time.perf_counter()
print(f"{t1 - t0:.4f} {t2 - t1:.4f}")
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

    from solver.sabords.certify import certificate_document
    from solver.sabords.rules import load_rules

    rules = load_rules()
    start = time.perf_counter()
    certificate_document("none", rules)
    print(f"exact certificate of one card (none): {time.perf_counter() - start:.2f} s")
