"""Treasure Island: the dice to protect come from the engine's lattice walk; here they are
checked against plain enumeration of every sub-multiset of every keep (an independent
version: no lattice, no ranks)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from solver.sabords.objective import parse_objective
from solver.sabords.rules import load_rules
from solver.sabords.scoring import protected_outcomes
from solver.sabords.turn.advice import protect_choices
from solver.sabords.turn.solve import solve_turn


def _enumerated(sol, keep: np.ndarray) -> tuple[int, ...]:
    """The skull-free sub-multiset of ``keep`` with the best bust payoff, then the most dice,
    then the last in face order (the rule the advice promises)."""
    model = sol.model
    best, best_key = None, None
    ranges = [range(int(c) + 1) if f != model.skull else range(1) for f, c in enumerate(keep)]
    for sub in itertools.product(*ranges):
        out = protected_outcomes(np.array([sub]), model.card, model.rules)
        pay = float(np.asarray(model.objective.payoff(out.own, out.opponents, out.win)).ravel()[0])
        key = (pay, sum(sub), sub)
        if best_key is None or key > best_key:
            best, best_key = sub, key
    return best


@pytest.mark.parametrize("objective", ["points", "reach:1000"])
def test_lattice_walk_matches_enumeration(objective):
    rules = load_rules()
    sol = solve_turn("treasure-island", parse_objective(objective), rules)
    space = sol.model.space
    choices = protect_choices(sol)
    rng = np.random.default_rng(3)
    nodes = rng.choice(len(space.counts), size=300, replace=False)
    for node in nodes:
        keep = space.counts[node]
        got = tuple(int(c) for c in space.counts[choices[node]])
        assert got == _enumerated(sol, keep), keep
