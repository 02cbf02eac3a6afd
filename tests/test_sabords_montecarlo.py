"""A seeded Monte-Carlo simulation of each card's computed policy agrees with its value."""

from __future__ import annotations

import numpy as np
import pytest

from solver.engine import STOP
from solver.sabords.objective import Objective
from solver.sabords.rules import PROMO_CARDS, STANDARD_CARDS, load_rules
from solver.sabords.scoring import bust_outcomes, stop_outcomes
from tests import sabords_bruteforce as brute

TURNS = 8000


def simulate(card: str, objective: Objective, turns: int, seed: int) -> np.ndarray:
    """Play ``turns`` turns with the solved policy; return each turn's payoff."""
    from solver.sabords.turn.solve import solve_turn

    rules = load_rules()
    sol = solve_turn(card, objective, rules)
    model = sol.model
    c = model.card
    space = model.space
    problem = model.problem
    rng = np.random.default_rng(seed)
    skull = rules.face(rules.skull)
    sabre = rules.face(rules.sabre)
    payoffs = np.empty(turns)
    for t in range(turns):
        dice = np.bincount(rng.integers(0, 6, rules.dice), minlength=6)
        skulls = dice[skull] + c.extra_skulls
        island = skulls - (0 if rules.card_skulls_count_island else c.extra_skulls)
        if c.island and island >= rules.island_skulls:
            count, left, rerolls = island, rules.dice - dice[skull], c.island_rerolls
            last = dice.copy()
            last[skull] = 0
            while left >= 2 and rerolls > 0:
                roll = np.bincount(rng.integers(0, 6, left), minlength=6)
                rerolls -= 1
                last = roll.copy()
                last[skull] = 0
                if roll[skull] == 0:
                    break
                count += roll[skull]
                left -= roll[skull]
            void = c.island_sabre_void and last[sabre] > 0
            loss = 0 if void else rules.island_penalty * count * c.multiplier
            payoffs[t] = objective.payoff(0, loss, False)
            continue
        mode, kept = 0, None
        while True:
            pos = space.index(dice) - space.full[0]
            if not problem.live[mode, pos]:
                out = bust_outcomes(dice, c, rules)
                pay = float(objective.payoff(out.own, out.opponents, out.win)[0])
                if c.protect and kept is not None:
                    pay = float(objective.payoff(brute.best_protected(kept), 0, False))
                payoffs[t] = pay
                break
            action = sol.policy[mode, pos]
            if action == STOP:
                out = stop_outcomes(dice, c, rules)
                payoffs[t] = float(objective.payoff(out.own, out.opponents, out.win)[0])
                break
            keep = space.counts[problem.act_keep[action]].astype(np.int64)
            kept = "".join(letter * int(n) for letter, n in zip("CDMPSX", keep, strict=True))
            rolled = rules.dice - int(keep.sum())
            dice = keep + np.bincount(rng.integers(0, 6, rolled), minlength=6)
            mode = int(problem.act_next[action])
    return payoffs


@pytest.mark.slow
@pytest.mark.parametrize("card", STANDARD_CARDS + PROMO_CARDS)
def test_policy_value_matches_simulation(card):
    from solver.sabords.turn.solve import solve_turn

    objective = Objective("points")
    pay = simulate(card, objective, TURNS, seed=sum(map(ord, card)))
    value = solve_turn(card, objective, load_rules()).start
    se = pay.std(ddof=1) / np.sqrt(len(pay))
    assert abs(pay.mean() - value) < 4 * se, (pay.mean(), value, se)


@pytest.mark.parametrize("objective", [Objective("margin"), Objective("reach", 1000)])
def test_other_objectives_match_simulation(objective):
    from solver.sabords.turn.solve import solve_turn

    pay = simulate("captain", objective, TURNS, seed=7)
    value = solve_turn("captain", objective, load_rules()).start
    se = pay.std(ddof=1) / np.sqrt(len(pay))
    assert abs(pay.mean() - value) < 4 * se, (pay.mean(), value, se)
