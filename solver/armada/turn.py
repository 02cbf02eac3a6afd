"""One turn in one board state: the value of ending on each final dice, the best keep, and the
chance of each way the turn can end (a pier's doubloon, or a skull).

An *option* is a token the turn could end with: taking the next doubloon of pier ``i`` is
worth ``value + sign * next_value``, a skull ``skull_value + sign * next_value`` (see
:mod:`solver.armada.wholegame` for ``sign`` and the objectives). The final value of dice ``F``
is the best option among the tokens ``F`` may take (:mod:`solver.armada.takes`, the rule).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from solver.armada.game import OBJECTIVES, SKULL, Game
from solver.armada.takes import finals
from solver.engine.horizon import carry

Continuation = Callable[[tuple[int, ...], int], Any]  # (levels, skulls) -> value of next state


def options(
    game: Game, levels: tuple[int, ...], skulls: int, sign: Any, cont: Continuation
) -> tuple[list[Any], Any]:
    """Per pier the option value (``None`` if the pier is empty), and the skull option."""
    piers: list[Any] = []
    for i, pier in enumerate(game.board.piers):
        if levels[i] >= pier.doubloons:
            piers.append(None)
            continue
        nxt = levels[:i] + (levels[i] + 1,) + levels[i + 1 :]
        piers.append(pier.values[levels[i]] + sign * cont(nxt, skulls))
    return piers, game.rules.skull_value + sign * cont(levels, skulls + 1)


def table_continuation(game: Game, table: np.ndarray | None) -> Continuation:
    """Next-state values read from a whole-game table (``None``: the turn objective)."""
    if table is None:
        return lambda levels, skulls: 0.0
    return lambda levels, skulls: float(table[skulls, game.code(levels)])


@dataclass
class TurnAnalysis:
    """Everything the ``hold`` command reports for one state and objective."""

    game: Game
    objective: str
    levels: tuple[int, ...]
    skulls: int
    pier_options: list[Any]
    skull_option: float
    final: np.ndarray  # (F,)
    target: np.ndarray  # (F,)
    keep: list[np.ndarray | None]  # keep[r] (M,) value of each keep with r rolls to come
    reach: list[np.ndarray | None]  # reach[r] (T, M): chance of each target (piers..., skull)

    @property
    def value(self) -> float:
        """The expected value of the turn before its first roll."""
        return float(self.keep[self.game.rules.rolls][0])

    def start_reach(self) -> np.ndarray:
        """Chance of each target (piers, then skull) before the first roll."""
        return self.reach[self.game.rules.rolls][:, 0]


def analyse(
    game: Game, levels: tuple[int, ...], skulls: int, objective: str, table: np.ndarray | None
) -> TurnAnalysis:
    """Solve one turn in floats under ``objective`` with next-state values from ``table``."""
    sign = OBJECTIVES[objective]
    piers, skull = options(game, levels, skulls, sign, table_continuation(game, table))
    # one state: the plain rule is a millisecond, and no numba kernel to load (a second)
    best, target = finals(game, levels, piers, skull)
    final, target_arr = np.array(best, dtype=np.float64), np.array(target, dtype=np.int64)
    n_piers = len(game.board.piers)
    payload = np.zeros((n_piers + 1, len(final)))
    payload[np.where(target_arr == SKULL, n_piers, target_arr), np.arange(len(final))] = 1.0
    _, keep = game.horizon.stages(final)
    reach = carry(game.horizon, final, payload)
    return TurnAnalysis(game, objective, levels, skulls, piers, skull, final, target_arr, keep,
                        reach)
