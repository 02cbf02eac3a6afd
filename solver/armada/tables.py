"""Whole-game tables in the user cache (:mod:`solver.cache`): keyed by board, rules and
objective; a missing or damaged table is solved once (:mod:`solver.armada.wholegame`) and
cached (memory-mapped, so answering one question reads little of it). Each table is
``table[skulls, code]`` (float64; see :mod:`solver.armada.game`)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from solver.armada.game import Game


def _cache_key(game: Game, objective: str) -> tuple:
    return (game.key(), objective)


def cache_path(game: Game, objective: str) -> Path | None:
    """The cache file of a table (``None`` when the cache folder is unusable)."""
    from solver.cache import entry_path

    return entry_path("armada", _cache_key(game, objective), objective)


def load_table(
    game: Game, objective: str, rebuild: bool = False, show_progress: bool = True,
    use_cache: bool = True,
) -> np.ndarray:
    """The table from the user cache, solving and caching it if absent or damaged
    (``rebuild``: solve again and replace; ``use_cache=False``: solve, do not cache)."""
    from solver.cache import load_or_build

    def build() -> dict[str, np.ndarray]:
        from solver.armada.wholegame import layers, solve_table

        if not show_progress:
            return {"table": solve_table(game, objective)}
        import click

        total = sum(len(c) for c, _ in layers(game))
        with click.progressbar(length=total, label=f"solving {objective}",
                               file=sys.stderr) as bar:
            return {"table": solve_table(game, objective, bar.update)}

    return load_or_build("armada", _cache_key(game, objective), build, use_cache=use_cache,
                         rebuild=rebuild,
                         label="-".join([objective, *game.rules.variants]))["table"]
