"""The batched, warm-started stopping solver (outcome payoffs) against the one-problem solver."""

from __future__ import annotations

import numpy as np
import pytest

from solver.engine import solve
from solver.engine.batch import solve_lanes
from solver.sabords.rules import load_rules
from solver.sabords.turn_lanes import deck_turns


@pytest.fixture(scope="module")
def deck():
    return deck_turns(load_rules().with_dice(5))


def test_random_payoffs_and_warm_starts_reach_the_one_problem_optimum(deck):
    """Random outcome payoffs for every card of a 5-dice deck (one card with two modes, one with
    a protect bonus, Skull and Island cards), each lane started from random values: every
    lane's values and start value are the single-problem solver's."""
    rng = np.random.default_rng(7)
    cards = len(deck.cards)
    lanes = 2 * cards
    problem = np.arange(lanes) % cards
    slot = np.arange(lanes) // cards
    pay = rng.random((lanes, deck.count))
    value, marked = deck.packed.storage(2)
    value[:] = rng.random(value.shape) * 3 - 1
    start, _, _, residual = solve_lanes(deck.packed, problem, slot, pay, value, marked,
                                        tol=1e-14)
    assert np.all(residual <= 1e-14)
    for lane in range(lanes):
        p = problem[lane]
        om = deck.maps[p]
        single = solve(om.explicit(pay[lane]))
        rows = slice(deck.packed.mode_off[p], deck.packed.mode_off[p + 1])
        got = value[slot[lane], rows]
        live = om.problem.live
        assert np.max(np.abs(np.where(live, single.value - got, 0.0))) < 1e-12, deck.cards[p]
        assert abs(om.first_roll_value(single.value, pay[lane]) - start[lane]) < 1e-12


def test_a_warm_start_at_the_solution_takes_one_update(deck):
    lanes = len(deck.cards)
    pay = np.random.default_rng(1).random((1, deck.count)).repeat(lanes, axis=0)
    store = deck.packed.storage(1)
    args = (deck.packed, np.arange(lanes), np.zeros(lanes, dtype=np.int64), pay, *store)
    solve_lanes(*args, tol=1e-15)
    rounds = solve_lanes(*args, tol=1e-12)[2]
    assert np.all(rounds == 1)


def test_outcome_distributions_and_the_marked_outcome(deck):
    """Under each lane's optimal policy, the outcome distribution dotted with the payoffs is
    the lane's value, and its mass on the marked outcome is the reported probability (stored in
    single precision: it only steers Newton steps)."""
    rng = np.random.default_rng(3)
    lanes = len(deck.cards)
    pay = rng.random((lanes, deck.count))
    store = deck.packed.storage(lanes)
    start, marked, _, _, dist, _ = solve_lanes(deck.packed, np.arange(lanes), np.arange(lanes),
                                            pay, *store, tol=1e-14, marked_tol=1e-13,
                                            distribution=True)
    assert np.allclose(dist.sum(axis=1), 1.0, atol=1e-12)
    assert np.max(np.abs((dist * pay).sum(axis=1) - start)) < 1e-12
    plain = [i for i, c in enumerate(deck.cards) if c != "treasure-island"]
    assert np.max(np.abs(dist[plain, deck.swap] - marked[plain])) < 1e-6
