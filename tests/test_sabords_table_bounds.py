"""The whole table's lowest-score bound (solver.sabords.game.table.bounds): the iterated upper
bound against the exact solution of the same linear equations (a dense solve written here),
and its behaviour in the lowest score, on reduced games (three dice)."""

from __future__ import annotations

import numpy as np
import pytest

from solver.sabords.game.table.bounds import hit_probability
from solver.sabords.game.table.equilibrium import TableSolver
from solver.sabords.game.table.states import TableSpec
from solver.sabords.rules import load_rules

RULES = load_rules().with_dice(3)


def solved(low: int, target: int = 300):
    solver = TableSolver(TableSpec.of(RULES, 3, target, low))
    return solver, solver.solve()


def test_the_bound_is_the_chance_of_a_hit() -> None:
    """The chance of a hit, solved densely: h = P(hit now) + P(no hit, next state) h(next),
    with every score and outcome checked here from the layout's scores."""
    solver, solution = solved(-100)
    layout = solution.layout
    deck = layout.deck
    n = layout.states
    matrix = np.eye(n)
    rhs = np.zeros(n)
    for name, phase in layout.phases.items():
        for i, scores in enumerate(layout.scores(name).tolist()):
            row = phase.start + i
            for o in range(deck.count):
                p = solution.dist[row, o]
                if p == 0.0:
                    continue
                hit = (scores[0] + deck.own[o] < layout.low
                       or min(scores[1:]) - deck.loss[o] < layout.low) and not deck.win[o]
                if hit:
                    rhs[row] += p
                elif solver.succ[row, o] < n:
                    matrix[row, solver.succ[row, o]] -= p
    exact = np.linalg.solve(matrix, rhs)
    bound = hit_probability(solution, solver)
    opening = layout.index("normal", [0, 0, 0])
    assert bound["opening"] == pytest.approx(exact[opening], abs=1e-12)
    assert bound["opening"] >= exact[opening] - 1e-15  # an upper bound, reached
    assert 0 < bound["opening"] < 1


def test_a_lower_floor_is_hit_less_often_and_the_rules_floor_never() -> None:
    bounds = [hit_probability(s, v)["from_zero"] for v, s in (solved(-100), solved(-300))]
    assert bounds[1] < bounds[0]
    floor = load_rules(("score-floor-zero",)).with_dice(3)
    solver = TableSolver(TableSpec.of(floor, 3, 300))
    assert hit_probability(solver.solve(), solver)["from_zero"] == 0.0
