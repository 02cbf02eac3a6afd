"""The engine against an independent brute force on reduced games (3 and 4 dice), exactly."""

from __future__ import annotations

from fractions import Fraction

import pytest

from solver.engine.certificate import certify
from solver.sabords.dice import parse_dice
from solver.sabords.objective import Objective
from solver.sabords.rules import load_rules
from solver.sabords.turn.certify import exact_start_value
from solver.sabords.turn.solve import solve_turn
from tests import sabords_bruteforce as brute

CARDS = ["none", "captain", "sorceress", "treasure-island", "gold", "diamond",
         "monkey-business", "sea-battle-2", "sea-battle-3", "skulls-1", "skulls-2"]


def _engine_exact(card: str, dice: int):
    rules = load_rules().with_dice(dice)
    sol = solve_turn(card, Objective("points"), rules, use_cache=False)
    cert = certify(sol.model.problem, sol.policy)
    return sol, cert, rules


@pytest.mark.parametrize("card", CARDS)
def test_three_dice_agree_exactly(card):
    values, start = brute.solve(card, 3)
    sol, cert, rules = _engine_exact(card, 3)
    space = sol.model.space
    for (mode, dice), exact in values.items():
        pos = space.index(parse_dice("".join(dice), rules, 3)) - space.full[0]
        assert Fraction(cert.numerators[mode][pos], cert.denominator) == exact, (mode, dice)
        assert abs(sol.value[mode, pos] - float(exact)) < 1e-9
    assert exact_start_value(sol.model, cert) == start
    assert abs(sol.start - float(start)) < 1e-9


@pytest.mark.slow
@pytest.mark.parametrize("card", ["none", "sorceress", "treasure-island", "skulls-2",
                                  "sea-battle-2"])
def test_four_dice_agree_exactly(card):
    values, start = brute.solve(card, 4)
    sol, cert, rules = _engine_exact(card, 4)
    assert exact_start_value(sol.model, cert) == start
    space = sol.model.space
    for (mode, dice), exact in values.items():
        pos = space.index(parse_dice("".join(dice), rules, 4)) - space.full[0]
        assert Fraction(cert.numerators[mode][pos], cert.denominator) == exact, (mode, dice)
