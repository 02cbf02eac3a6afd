"""The generic dice engine: multisets, roll probabilities, the lattice walk, keep pairs."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from math import comb, prod

import numpy as np
import pytest

from solver.engine import STOP, DiceSpace, StoppingProblem, solve


@pytest.mark.parametrize(("faces", "dice"), [(6, 3), (6, 5), (6, 8), (4, 4)])
def test_levels_have_the_multiset_counts(faces, dice):
    space = DiceSpace.of(faces, dice)
    for m in range(dice + 1):
        assert len(space.levels[m]) == comb(m + faces - 1, faces - 1)
    probs = space.roll_probabilities(dice)[1]
    assert probs.sum() == pytest.approx(1.0)


def test_expect_matches_enumeration_of_ordered_rolls():
    space = DiceSpace.of(6, 4)
    rng = np.random.default_rng(1)
    values = rng.random(len(space.full))
    full_pos = {tuple(space.counts[n]): i for i, n in enumerate(space.full)}
    expected = space.expect(values)
    for node in rng.choice(len(space.counts), 40):
        kept = space.counts[node].astype(int)
        rolled = 4 - kept.sum()
        total = 0.0
        for roll in product(range(6), repeat=rolled):
            counts = kept + np.bincount(np.array(roll, dtype=int), minlength=6)
            total += values[full_pos[tuple(counts)]]
        assert expected[node] == pytest.approx(total / 6**rolled)


def test_expect_exact_agrees_with_fractions():
    space = DiceSpace.of(6, 3)
    nums = list(range(len(space.full)))
    exact = space.expect_exact(nums)
    floats = space.expect(np.array(nums, dtype=float))
    for node in range(len(space.counts)):
        scale = 6 ** (3 - int(space.size[node]))
        assert Fraction(exact[node], scale) == Fraction(floats[node]).limit_denominator(10**6)


def test_keep_pairs_are_all_sub_multisets():
    space = DiceSpace.of(6, 5)
    states, keeps, rolled = space.keep_pairs()
    total = sum(prod(int(c) + 1 for c in space.counts[s]) for s in space.full)
    assert len(states) == total
    assert np.all(space.counts[keeps] + space.counts[rolled] == space.counts[states])


def test_stopping_solves_a_cycle_by_hand():
    """One two-faced die; stopping pays 0 on face 0 and 10 on face 1; a reroll (keeping
    nothing) can return to the same state. Rerolling from face 0 until a 1 shows is optimal:
    both values are 10."""
    space = DiceSpace.of(2, 1)
    # full nodes: (1,0) = face 0, (0,1) = face 1
    problem = StoppingProblem(
        space=space,
        live=np.array([[True, True]]),
        stop_value=np.array([[0.0, 10.0]]),
        terminal_value=np.zeros((1, 2)),
        act_mode=np.array([0, 0]),
        act_state=np.array([0, 1]),
        act_keep=np.array([0, 0]),
        act_next=np.array([0, 0]),
    )
    sol = solve(problem)
    # V(0) = max(0, (V(0) + V(1)) / 2) and V(1) = max(10, same): V(0) = V(1) = 10
    assert sol.value[0] == pytest.approx([10.0, 10.0])
    assert sol.policy[0, 1] == STOP and sol.policy[0, 0] != STOP
