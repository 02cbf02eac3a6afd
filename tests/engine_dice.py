"""A small press-your-luck dice game of the engine's own, for the batched solver's tests
(:mod:`solver.engine.batch`), so that they import no game.

Five dice of six faces: skulls, coins, diamonds, stars, parrots and monkeys. Three skulls bust
the turn; skulls stay on the table (no rule lets a reroll move them); a keep leaves at least two
dice to roll. Stopping scores a coin 1, a diamond 2, a star 1, and three or more parrots (or
monkeys) 2: parrots and monkeys score alike, so the lattice folds them together. Each card is
one problem, chosen so that every feature of the batched solver is used:

* ``plain``: the rules above; ``swapped``: coins score 2 and diamonds 1 (``plain``'s twin up to
  swapping the two faces);
* ``sorceress``: two modes; in the first, one skull may be rolled again (then the second);
* ``battle``: once two stars show, the turn goes on in a second mode where stopping pays 3
  more;
* ``island``: a protect bonus: a bust after a keep pays the best score of the kept dice (a
  sub-multiset of them), as Mille Sabords' Treasure Island does;
* ``storm``: a first roll with three skulls or more ends the turn at once, in one of two
  outcomes (half and half).

An outcome is a key in one table shared by the cards (:class:`DiceDeck`), so that one payoff
row serves every card.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property

import numpy as np

from solver.engine.keeps import KeepRule, expand
from solver.engine.multiset import DiceSpace
from solver.engine.outcomes import OutcomeMap
from solver.engine.stopping import StoppingProblem

FACES = ("skull", "coin", "diamond", "star", "parrot", "monkey")
DICE = 5
BUST = 3
SKULL, COIN, DIAMOND, STAR, PARROT, MONKEY = range(6)
CARDS = ("plain", "swapped", "sorceress", "battle", "island", "storm")


def score(counts: np.ndarray, coin: int = 1, diamond: int = 2) -> np.ndarray:
    """Points of the dice ``counts`` (rows of face counts), skulls aside."""
    counts = np.atleast_2d(counts).astype(np.int64)
    return (coin * counts[:, COIN] + diamond * counts[:, DIAMOND] + counts[:, STAR]
            + 2 * (counts[:, PARROT] >= 3) + 2 * (counts[:, MONKEY] >= 3))


class _Table:
    """A growing table of outcome keys."""

    def __init__(self) -> None:
        self.index: dict[tuple, int] = {}

    def of(self, kind: str, values) -> np.ndarray:
        return np.array([self.index.setdefault((kind, int(v)), len(self.index))
                         for v in np.ravel(values)], dtype=np.int64)


def _rule(mode: int, next_mode: int, forced: int = 0, **bounds) -> KeepRule:
    free = tuple(f != SKULL for f in range(len(FACES)))
    return KeepRule(mode, next_mode, (forced,) + (0,) * (len(FACES) - 1), free, 0, DICE - 2,
                    **bounds)


def _card(name: str, space: DiceSpace, table: _Table) -> OutcomeMap:
    full = space.counts[space.full].astype(np.int64)
    skulls = full[:, SKULL]
    alive = skulls < BUST
    coin, diamond = (2, 1) if name == "swapped" else (1, 2)
    points = score(full, coin, diamond)
    rules: tuple[KeepRule, ...] = (_rule(0, 0),)
    modes = 1
    stop_points = points[None, :]
    if name == "sorceress":
        modes = 2
        rules = (_rule(0, 0), _rule(0, 1, forced=1), _rule(1, 1))
        stop_points = np.stack([points, points])
    elif name == "battle":
        modes = 2
        few, many = (9, 9, 9, 1, 9, 9), (0, 0, 0, 2, 0, 0)
        rules = (_rule(0, 0, shown_max=few), _rule(0, 1, shown_min=many), _rule(1, 1))
        stop_points = np.stack([points, points + 3])
    live = np.repeat(alive[None, :], modes, axis=0)
    stop_out = table.of("points", stop_points).reshape(modes, -1)
    end_out = table.of("points", np.zeros(live.shape)).reshape(modes, -1)
    act_mode, act_state, act_keep, act_next = expand(space, live, rules)
    bonus_mask = protect_out = None
    base_out = -1
    if name == "island":
        bonus_mask = ~live
        protect_out = table.of("points", score(space.counts))
        base_out = int(end_out[0, 0])
    first_rows: list[dict[int, float]] = [{} for _ in range(len(space.full))]
    if name == "storm":
        calm, lost = table.of("points", [1])[0], table.of("loss", [skulls.max()])[0]
        for pos in np.flatnonzero(~alive):
            first_rows[pos] = {int(calm): 0.5, int(lost): 0.5}
    zeros = np.zeros(live.shape)
    problem = StoppingProblem(space, live, zeros, zeros, act_mode, act_state, act_keep,
                              act_next, None, bonus_mask, rules)
    return OutcomeMap(problem, stop_out, end_out, first_rows, protect_out, base_out)


@dataclass(frozen=True, eq=False)
class DiceDeck:
    """Every card's turn over one shared outcome table: ``keys[o]`` is outcome ``o``,
    ``("points", n)`` or ``("loss", n)``."""

    cards: tuple[str, ...]
    maps: tuple[OutcomeMap, ...]
    keys: tuple[tuple[str, int], ...]

    @property
    def count(self) -> int:
        return len(self.keys)

    def points(self) -> np.ndarray:
        """A payoff row: each outcome's points, a loss counting against."""
        return np.array([n if kind == "points" else -n for kind, n in self.keys], dtype=float)

    @cached_property
    def packed(self):
        from solver.engine.batch import Packed

        return Packed.of(list(self.maps))


@cache
def dice_deck() -> DiceDeck:
    space = DiceSpace.of(len(FACES), DICE)
    table = _Table()
    maps = tuple(_card(name, space, table) for name in CARDS)
    return DiceDeck(CARDS, maps, tuple(sorted(table.index, key=table.index.get)))
