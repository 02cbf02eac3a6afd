"""The batched, warm-started stopping solver against the one-problem solver."""

from __future__ import annotations

import numpy as np

from solver.engine import solve
from solver.engine.batch import LaneProblem, solve_many
from solver.engine.stopping import StoppingProblem
from solver.sabords.model import build_model
from solver.sabords.objective import Objective
from solver.sabords.rules import load_rules


def _with_payoffs(problem: StoppingProblem, stop, end, bonus=None) -> StoppingProblem:
    return StoppingProblem(problem.space, problem.live, stop, end, problem.act_mode,
                           problem.act_state, problem.act_keep, problem.act_next,
                           None if bonus is None else bonus[problem.act_keep],
                           problem.bonus_mask)


def test_random_payoffs_and_warm_starts_reach_the_same_values():
    """Random payoffs on three cards (one with two modes, one with a bonus), each lane started
    from random values: every lane ends at the single-problem solver's optimum."""
    rules = load_rules().with_dice(5)
    rng = np.random.default_rng(7)
    for card in ("none", "sorceress", "treasure-island"):
        problem = build_model(rules.card(card), rules, Objective("points")).problem
        lanes = LaneProblem.of(problem)
        batch = 5
        stop = rng.random((batch,) + problem.live.shape)
        stop[:, ~problem.live] = 0.0
        end = rng.random((batch,) + problem.live.shape) * 0.5
        bonus = None
        if problem.act_bonus is not None:
            bonus = rng.random((batch, len(problem.space.counts))) * 0.2
        value = rng.random((batch,) + problem.live.shape) * 3 - 1
        rounds, residual = solve_many(lanes, stop, end, value, bonus, tol=1e-14)
        assert np.all(residual <= 1e-14)
        for b in range(batch):
            single = solve(_with_payoffs(problem, stop[b], end[b],
                                         None if bonus is None else bonus[b]))
            assert np.max(np.abs(single.value - value[b])) < 1e-12, (card, b)


def test_a_warm_start_at_the_solution_takes_one_update():
    rules = load_rules().with_dice(5)
    problem = build_model(rules.card("none"), rules, Objective("reach", 500)).problem
    lanes = LaneProblem.of(problem)
    stop, end = problem.stop_value[None].astype(float), problem.terminal_value[None]
    value = np.zeros_like(stop)
    solve_many(lanes, stop, end.astype(float), value, tol=1e-15)
    rounds, _ = solve_many(lanes, stop, end.astype(float), value, tol=1e-12)
    assert rounds[0] == 1
