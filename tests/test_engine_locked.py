"""The locked keep (dice set aside stay aside) against plain enumeration of ordered dice."""

from __future__ import annotations

from functools import cache
from itertools import product

import numpy as np
import pytest

from solver.engine.horizon import Horizon
from solver.engine.locked import locked_stages, locked_value
from solver.engine.multiset import DiceSpace


def _plain(faces: int, dice: int, rolls: int, final: dict, cap: int, stop: bool,
           locked: bool) -> float:
    """Dice as an ordered tuple; after each roll choose which positions to set aside (a
    superset of those already aside when ``locked``), or stop when allowed."""

    @cache
    def after_roll(shown: tuple, aside: frozenset, left: int) -> float:
        end = final[tuple(sorted(shown))]
        if left == 0:
            return end
        best = end if stop else -np.inf
        for mask in range(1 << dice):
            keep = frozenset(i for i in range(dice) if mask >> i & 1)
            if len(keep) > cap or (locked and not aside <= keep):
                continue
            free = [i for i in range(dice) if i not in keep]
            total = 0.0
            for roll in product(range(faces), repeat=len(free)):
                new = list(shown)
                for i, f in zip(free, roll, strict=True):
                    new[i] = f
                total += after_roll(tuple(new), keep, left - 1)
            best = max(best, total / faces ** len(free))
        return best

    return sum(after_roll(roll, frozenset(), rolls - 1)
               for roll in product(range(faces), repeat=dice)) / faces**dice


@pytest.mark.parametrize(("faces", "dice", "rolls", "min_reroll", "stop"), [
    (3, 3, 3, 0, False), (3, 3, 3, 0, True), (2, 4, 3, 1, False), (3, 3, 4, 1, True),
])
def test_locked_keep_matches_plain_enumeration(faces, dice, rolls, min_reroll, stop):
    space = DiceSpace.of(faces, dice)
    h = Horizon(space, rolls, min_reroll, stop)
    rng = np.random.default_rng(faces * 10 + dice + rolls)
    values = rng.integers(-3, 10, size=len(space.full)).astype(float)
    final = {tuple(f for f in range(faces) for _ in range(int(c[f]))): v
             for c, v in zip(space.counts[space.full], values, strict=True)}
    cap = dice - min_reroll
    got = locked_value(h, values)
    assert abs(got - _plain(faces, dice, rolls, final, cap, stop, True)) < 1e-12
    free = h.value(values)
    assert abs(free - _plain(faces, dice, rolls, final, cap, stop, False)) < 1e-12
    assert got <= free + 1e-12


def test_two_rolls_lock_nothing():
    """With two rolls the only keep is the first, made with nothing aside: no difference."""
    space = DiceSpace.of(6, 5)
    h = Horizon(space, 2)
    values = np.random.default_rng(3).random(len(space.full))
    assert abs(locked_value(h, values) - h.value(values)) < 1e-12
    keep = locked_stages(Horizon(space, 3, 1), values)
    assert np.isneginf(keep[3][space.full]).all()  # above the cap: never a keep
