"""``make bench``: ``treasure sabords review`` of a 40-turn two-player game at the default
target, in fresh processes with the game table cached (printed, never asserted)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

TURNS = 40


def run() -> None:
    from solver.bench import median_and_worst, wall_times
    from solver.sabords.answers import game_table
    from solver.sabords.review.report import SEED, example_record

    source = game_table()
    for seed in range(SEED, SEED + 50):  # the first seeded game that lasts 40 turns
        text = example_record(source, seed, turns=TURNS)
        if len(text.strip().split("\n\n", 1)[1].splitlines()) == TURNS:
            break
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.txt"
        path.write_text(text, encoding="utf-8")
        command = ["sabords", "review", str(path), "--json"]
        wall_times(command, dict(os.environ), 1)  # the table into the cache, if it was not
        walls = wall_times(command, dict(os.environ), 5)
    print(f"`treasure sabords review` of a {TURNS}-turn two-player game (seed {seed}), "
          f"fresh process, warm cache: {median_and_worst(walls)}  goal < 5 s")
