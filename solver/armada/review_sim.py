"""Seeded simulated Gold Armada games written as records (:mod:`solver.armada.review`), for
the tests and the example: each decision the best option of the turn ``hold`` solves or, with
probability ``blunder``, a random one."""

from __future__ import annotations

import numpy as np

from solver.armada.game import Game
from solver.armada.review import options_at, pier_names
from solver.armada.turn import analyse


def simulate_record(game: Game, players: tuple[str, ...], table: np.ndarray, seed: int,
                    blunder: float = 0.0, turns: int | None = None) -> str:
    """A record of a seeded game on ``game`` (until it ends, or ``turns`` turns), one player
    (``table``: the solo table) or two (the duel table)."""
    rng = np.random.default_rng(seed)
    objective = "solo" if len(players) == 1 else "duel"
    levels, skulls = game.opening
    lines = ["game armada", "players " + ", ".join(players),
             *[f"variant {v}" for v in game.rules.variants], ""]
    names = pier_names(game)
    index = 0
    while not game.over(levels, skulls) and (turns is None or index < turns):
        a = analyse(game, levels, skulls, objective, table)
        _, keep = game.horizon.stages(a.final)
        counts = _roll(game, game.rules.dice, rng)
        steps = [game.dice_text(counts)]
        for roll in range(1, game.rules.rolls + 1):
            sp = game.space
            row = int(np.flatnonzero(sp.full == sp.index(counts))[0])
            options = options_at(game, a, keep, row, game.rules.rolls - roll)
            pick = max(range(len(options)), key=lambda i: options[i][1])
            if blunder and rng.random() < blunder:
                pick = int(rng.integers(len(options)))
            kind, what = options[pick][2]
            if kind == "take":
                steps.append(f"take {names[what]}")
                if what < 0:
                    skulls += 1
                else:
                    levels = levels[:what] + (levels[what] + 1,) + levels[what + 1:]
                break
            kept = sp.counts[what].astype(np.int64)
            counts = kept + _roll(game, game.rules.dice - int(kept.sum()), rng)
            mark = f"keep {game.dice_text(kept)}" if kept.sum() else \
                f"reroll {steps[-1].split()[-1]}"
            steps.append(f"{mark} {game.dice_text(counts)}")
        index += 1
        lines.append(f"{players[(index - 1) % len(players)]}: " + ", ".join(steps))
    return "\n".join(lines) + "\n"


def _roll(game: Game, dice: int, rng) -> np.ndarray:
    return np.bincount(rng.integers(len(game.board.symbols), size=dice),
                       minlength=len(game.board.symbols)).astype(np.int64)
