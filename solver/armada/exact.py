"""Exact rational solves: single turns and whole games on small boards.

The same recursions as the float solvers, in exact arithmetic (``fractions.Fraction`` by
default), for certificates and for checking the float tables.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

from solver.armada.game import OBJECTIVES, Game
from solver.armada.takes import finals
from solver.armada.turn import options


def exact_turn(
    game: Game, levels: tuple[int, ...], skulls: int, sign: int, cont, one: Any = Fraction(1)
) -> Any:
    """The exact value of one turn given exact next-state values ``cont(levels, skulls)``."""
    piers, skull = options(game, levels, skulls, sign * one, cont)
    best, _ = finals(game, levels, piers, skull)
    return game.horizon.exact_value([one * v for v in best], one)


def exact_game(game: Game, objective: str, one: Any = Fraction(1)):
    """A memoised function ``(levels, skulls) -> exact value`` of every state."""
    sign = int(OBJECTIVES[objective])

    @cache
    def value(levels: tuple[int, ...], skulls: int) -> Any:
        if game.over(levels, skulls):
            return 0 * one
        return exact_turn(game, levels, skulls, sign, value if sign else _zero(one), one)

    return value


def _zero(one: Any):
    return lambda levels, skulls: 0 * one


def all_states(game: Game) -> list[tuple[tuple[int, ...], int]]:
    """Every non-terminal state, tokens taken descending (solve order)."""
    out = []
    for code in range(game.n_codes):
        levels = game.levels(code)
        for skulls in range(game.rules.skulls):
            if not game.over(levels, skulls):
                out.append((levels, skulls))
    out.sort(key=lambda st: -(sum(st[0]) + st[1]))
    return out


def requirement_chance(game: Game, pier: int, level: int, one: Any = Fraction(1)) -> Any:
    """Exact chance of meeting one requirement within a turn, playing for it alone."""
    final = [one if q else 0 * one for q in game.qualify[pier, level].tolist()]
    return game.horizon.exact_value(final, one)
