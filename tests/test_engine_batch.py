"""The batched, warm-started stopping solver (outcome payoffs) against the one-problem solver,
on the engine's own dice game (:mod:`tests.engine_dice`)."""

from __future__ import annotations

import numpy as np
import pytest

from solver.engine import solve
from solver.engine.batch import LANES, _groups, solve_lanes
from tests.engine_dice import dice_deck


@pytest.fixture(scope="module")
def deck():
    return dice_deck()


# Each card's value before the first roll when every outcome pays its points, as the solver
# gave them when its kernels took positional arguments (float.hex: exact), and the Bellman
# updates from a cold start; the island card's outcome distribution. A change here is a
# change of the numbers every game table is made of: only ever on purpose.
PINNED_START = ("0x1.24ae79ef85afbp+2", "0x1.24ae79ef85afcp+2", "0x1.65bcf077c402dp+2",
                "0x1.695c4f21fb951p+2", "0x1.2dd7c4f2de4adp+2", "0x1.20236a221711ap+2")
PINNED_ROUNDS = (6, 6, 7, 6, 5, 6)
PINNED_ISLAND = ("0x1.3ca681b71e9b1p-5", "0x1.92f17f908ecb5p-5", "0x1.ef19fa89b27e4p-5",
                 "0x1.0cd7a51ee8a9cp-4", "0x1.a7219ac579733p-3", "0x1.a36cc3e2b0c18p-3",
                 "0x1.a260824dd641ep-3", "0x1.af10d04fb6c7ap-4", "0x1.a6610fcd13d4fp-5",
                 "0x1.86bc9b1d3ec0cp-7", "0x1.b62bdc9f7b092p-10", "0x0.0p+0", "0x0.0p+0",
                 "0x0.0p+0", "0x0.0p+0")


def test_a_small_solve_gives_the_pinned_numbers_bit_for_bit(deck):
    cards = len(deck.cards)
    pay = np.tile(deck.points(), (cards, 1))
    out = solve_lanes(deck.packed, np.arange(cards), np.zeros(cards, dtype=np.int64), pay,
                      deck.packed.storage(1), tol=1e-13, distribution=True)
    assert tuple(float(x).hex() for x in out.start) == PINNED_START
    assert tuple(int(r) for r in out.rounds) == PINNED_ROUNDS
    island = deck.cards.index("island")
    assert tuple(float(x).hex() for x in out.dist[island]) == PINNED_ISLAND


def test_the_deck_uses_every_feature_of_the_solver(deck):
    """Two modes (a forced reroll, a rule held by the dice shown), a protect bonus, a first
    roll that ends the turn, faces the lattice folds, and a twin."""
    maps = {name: om for name, om in zip(deck.cards, deck.maps, strict=True)}
    assert maps["sorceress"].problem.modes == maps["battle"].problem.modes == 2
    assert maps["island"].protect_out is not None
    assert any(maps["storm"].first_rows)
    assert all(o.count < len(o.space.counts) for o in deck.packed.orbits)
    assert list(deck.packed.twin) == [0, 0, 2, 3, 4, 5]


@pytest.mark.parametrize("before", ["random values", "another payoff's policy"])
def test_random_payoffs_and_warm_starts_reach_the_one_problem_optimum(deck, before):
    """Random outcome payoffs for every card, each lane started from random values, or from
    the values and policy solved for other random payoffs (the policy is then evaluated
    first): every lane's values and start value are the single-problem solver's."""
    rng = np.random.default_rng(7)
    cards = len(deck.cards)
    lanes = 2 * cards
    problem = np.arange(lanes) % cards
    slot = np.arange(lanes) // cards
    pay = rng.random((lanes, deck.count))
    value = deck.packed.storage(2)
    value.values[:] = rng.random(value.values.shape) * 3 - 1
    if before == "another payoff's policy":
        other = pay + rng.random(pay.shape) * 0.3
        solve_lanes(deck.packed, problem, slot, other, value, tol=1e-14)
        assert np.all(value.policy >= -1)
    out = solve_lanes(deck.packed, problem, slot, pay, value, tol=1e-14)
    assert out.dist is None and np.all(out.residual <= 1e-14)
    for lane in range(lanes):
        p = problem[lane]
        om = deck.maps[p]
        single = solve(om.explicit(pay[lane]))
        got = deck.packed.values(value.values[slot[lane]], p)
        live = om.problem.live
        assert np.max(np.abs(np.where(live, single.value - got, 0.0))) < 1e-12, deck.cards[p]
        assert abs(om.first_roll_value(single.value, pay[lane]) - out.start[lane]) < 1e-12


def test_a_warm_start_at_the_solution_takes_one_update(deck):
    lanes = len(deck.cards)
    pay = np.random.default_rng(1).random((1, deck.count)).repeat(lanes, axis=0)
    store = deck.packed.storage(1)
    args = (deck.packed, np.arange(lanes), np.zeros(lanes, dtype=np.int64), pay, store)
    solve_lanes(*args, tol=1e-15)
    rounds = solve_lanes(*args, tol=1e-12).rounds
    assert np.all(rounds == 1)


def test_outcome_distributions_give_the_values_back(deck):
    """Under each lane's optimal policy, the outcome distribution dotted with the payoffs is
    the lane's value; a lane whose policy did not change keeps the distribution it is given."""
    rng = np.random.default_rng(3)
    lanes = len(deck.cards)
    pay = rng.random((lanes, deck.count))
    store = deck.packed.storage(lanes)
    args = (deck.packed, np.arange(lanes), np.arange(lanes))
    out = solve_lanes(*args, pay, store, tol=1e-14, distribution=True)
    assert np.allclose(out.dist.sum(axis=1), 1.0, atol=1e-12)
    assert np.max(np.abs((out.dist * pay).sum(axis=1) - out.start)) < 1e-12
    # the same payoffs again: every policy hashes the same (values within engine's TIE are
    # ties, kept on the first action, so rounding noise changes no choice) and keeps the row
    marked = out.memo()._replace(dist=np.full_like(out.dist, 7.0))
    again = solve_lanes(*args, pay, store, tol=1e-14, distribution=True, known=marked)
    assert np.array_equal(again.hashes, out.hashes) and np.all(again.dist == 7.0)
    # other payoffs change some policy: that lane's row is pushed again
    other = solve_lanes(*args, rng.random(pay.shape), store, tol=1e-14, distribution=True,
                        known=marked)
    changed = other.hashes != out.hashes
    assert changed.any() and np.allclose(other.dist[changed].sum(axis=1), 1.0)


def test_a_kept_distribution_is_the_one_a_new_push_gives(deck):
    """A lane skips the push only when its policy agrees with the last one on every state the
    last push reached: the row it keeps is then what pushing again would give (to rounding:
    a push takes the nodes in the order of the lane's values, which moved)."""
    rng = np.random.default_rng(5)
    lanes = 4 * len(deck.cards)
    problem = np.tile(np.arange(len(deck.cards)), 4)
    pay = rng.random((lanes, deck.count))
    store = deck.packed.storage(lanes)
    args = (deck.packed, problem, np.arange(lanes))
    first = solve_lanes(*args, pay, store, tol=1e-14, distribution=True)
    moved = pay + rng.normal(0.0, 1e-9, pay.shape)
    kept = solve_lanes(*args, moved, store.copy(), tol=1e-14, distribution=True,
                       known=first.memo())
    fresh = solve_lanes(*args, moved, store.copy(), tol=1e-14, distribution=True)
    same = kept.hashes == first.hashes
    assert same.any()
    assert np.max(np.abs(kept.dist - fresh.dist)) <= 1e-15
    assert np.array_equal(kept.hashes, fresh.hashes)
    assert np.array_equal(kept.reached, fresh.reached)


def test_a_looser_push_leaves_at_most_its_tolerance_and_is_pushed_again(deck):
    """A push stopped at ``push_tol`` misses less than that much mass and is within it of the
    full push, outcome by outcome; its hash records the tolerance, so a row pushed loosely is
    pushed again when a tighter one is asked for, even where the policy is the same."""
    rng = np.random.default_rng(11)
    lanes = 3 * len(deck.cards)
    problem = np.tile(np.arange(len(deck.cards)), 3)
    pay = rng.random((lanes, deck.count))
    args = (deck.packed, problem, np.arange(lanes), pay)
    store = deck.packed.storage(lanes)
    loose = solve_lanes(*args, store, tol=1e-14, distribution=True, push_tol=1e-4)
    full = solve_lanes(*args, store.copy(), tol=1e-14, distribution=True)
    missing = 1.0 - loose.dist.sum(axis=1)
    assert np.all(missing >= -1e-12) and np.all(missing < 1e-4)
    assert np.max(np.abs(loose.dist - full.dist)) < 1e-4
    assert missing.max() > 1e-12  # the test means something: some mass was left in play
    again = solve_lanes(*args, store.copy(), tol=1e-14, distribution=True, known=loose.memo())
    assert np.array_equal(again.dist, full.dist) and np.array_equal(again.hashes, full.hashes)


def test_twins_are_the_problems_equal_up_to_a_face_swap(deck):
    """``plain`` and ``swapped`` are found twins (a coin under one is a diamond under the
    other) and nothing else is; the one-problem solver, on the explicit actions (no folding,
    no twins), gives twins the same turn value and the same outcome distribution for any
    payoffs."""
    twin = deck.packed.twin
    pairs = [(deck.cards[q], deck.cards[p]) for q, p in enumerate(twin) if p != q]
    assert pairs == [("swapped", "plain")]
    rng = np.random.default_rng(11)
    plain, swapped = deck.cards.index("plain"), deck.cards.index("swapped")
    for _ in range(3):
        pay = rng.random(deck.count)
        a, b = (solve(deck.maps[c].explicit(pay)) for c in (plain, swapped))
        va = deck.maps[plain].first_roll_value(a.value, pay)
        vb = deck.maps[swapped].first_roll_value(b.value, pay)
        assert abs(va - vb) < 1e-13
    lanes = solve_lanes(deck.packed, np.array([plain, swapped]), np.arange(2),
                        np.tile(pay, (2, 1)), deck.packed.storage(2), tol=1e-14,
                        distribution=True)
    assert np.max(np.abs(lanes.dist[0] - lanes.dist[1])) < 1e-13


@pytest.mark.parametrize("seed", range(20))
def test_groups_hold_every_lane_once_one_problem_each_interleaved(seed):
    """Lanes go in groups of LANES of one problem, in order, the last group of a problem
    padded with -1; the k-th groups of all problems come before the (k+1)-th."""
    rng = np.random.default_rng(seed)
    problems = int(rng.integers(1, 12))
    problem = rng.integers(0, problems, int(rng.integers(0, 300)))
    group_problem, group_lanes = _groups(problem, problems)
    assert group_lanes.shape == (len(group_problem), LANES)
    held = group_lanes[group_lanes >= 0]
    assert sorted(held) == list(range(len(problem)))
    seen = {p: 0 for p in range(problems)}
    expected_order = []
    for g, p in enumerate(group_problem):
        lanes = group_lanes[g][group_lanes[g] >= 0]
        assert len(lanes) > 0 and np.all(problem[lanes] == p)
        mine = np.flatnonzero(problem == p)
        assert list(lanes) == list(mine[seen[p] * LANES:(seen[p] + 1) * LANES])
        assert np.all(group_lanes[g][len(lanes):] == -1)
        expected_order.append((seen[p], p))
        seen[p] += 1
    assert expected_order == sorted(expected_order)
