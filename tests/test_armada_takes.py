"""Which token a final roll takes: the numba kernel against the plain exact version, on random
positions with exact ties between piers and between a pier and the skull, under both readings
of a compulsory take."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from solver.armada.game import SKULL, default_game
from solver.armada.takes import finals, finals_batch, legal_takes


@pytest.mark.parametrize("variants", [(), ("may-take-skull",)])
def test_kernel_and_exact_version_take_the_same_token(variants):
    game = default_game(variants)
    rng = random.Random(7)
    piers = game.board.piers
    levels_rows, option_rows, skulls, exact = [], [], [], []
    for _ in range(300):
        levels = tuple(rng.randint(0, p.doubloons) for p in piers)  # some piers empty
        # small integer options so that ties are frequent
        options = [None if lv >= p.doubloons else Fraction(rng.randint(-3, 3), 2)
                   for lv, p in zip(levels, piers, strict=True)]
        skull = Fraction(rng.randint(-3, 3), 2)
        levels_rows.append(levels)
        option_rows.append([-np.inf if o is None else float(o) for o in options])
        skulls.append(float(skull))
        exact.append(finals(game, levels, options, skull))
    final, target = finals_batch(game, np.array(levels_rows), np.array(option_rows),
                                 np.array(skulls))
    for b, (best, chosen) in enumerate(exact):
        assert target[b].tolist() == chosen
        assert final[b].tolist() == [float(x) for x in best]


@pytest.mark.parametrize("variants", [(), ("may-take-skull",)])
def test_the_token_taken_is_allowed_and_ties_go_to_the_first_pier(variants):
    game = default_game(variants)
    levels = tuple(0 for _ in game.board.piers)
    allowed = legal_takes(game, levels)
    options = [Fraction(1)] * len(game.board.piers)  # every pier ties
    best, target = finals(game, levels, options, Fraction(1))
    for k, t in enumerate(target):
        assert allowed[t, k]
        first = np.flatnonzero(allowed[:-1, k])
        # a tie with the skull keeps the pier; with no pier allowed, the skull
        assert t == (int(first[0]) if len(first) else SKULL)
    if game.rules.must_take:
        assert all(allowed[-1] == ~allowed[:-1].any(axis=0))
    else:
        assert allowed[-1].all()
