"""Whole-game tables in the user cache: keyed by board, rules and objective, loaded
memory-mapped so that answering one question does not read (or import the solver for) all of
it; a missing table is solved once (:mod:`solver.armada.wholegame`) and cached."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import numpy as np

from solver.armada.game import Game
from solver.util import atomic_write_bytes, cache_dir, cache_key


def cache_path(game: Game, objective: str) -> Path:
    key = cache_key("armada", game.key(), objective)
    return cache_dir() / "armada" / f"{objective}-{key}.npy"


def load_table(
    game: Game, objective: str, rebuild: bool = False, show_progress: bool = True
) -> np.ndarray:
    """The table from the user cache (memory-mapped), solving and caching it if absent."""
    path = cache_path(game, objective)
    if path.exists() and not rebuild:
        return np.load(path, mmap_mode="r")
    from solver.armada.wholegame import layers, solve_table

    if show_progress:
        import click

        total = sum(len(c) for c, _ in layers(game))
        with click.progressbar(length=total, label=f"solving {objective}", file=sys.stderr) as bar:
            table = solve_table(game, objective, bar.update)
    else:
        table = solve_table(game, objective)
    buf = io.BytesIO()
    np.save(buf, table)
    atomic_write_bytes(path, buf.getvalue())
    return table
