"""Points play: each turn maximises its expected points, whatever the scoreboard says.

Under that policy a turn's outcome does not depend on the scores, so each card's turn is one
fixed distribution over the deck's outcomes (:func:`solver.sabords.turn.lanes.deck_turns`), and
the game under points play is a Markov chain the game solver evaluates exactly
(``solve_game(spec, fixed=points_play_outcomes(rules))``). It is the baseline the whole-game
solution is compared with, and the optimal solve's starting point.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from solver.engine import evaluate
from solver.sabords.objective import Objective
from solver.sabords.rules import Rules
from solver.sabords.turn.lanes import UNIT, deck_turns
from solver.sabords.turn.solve import solve_turn


def card_distribution(card_index: int, rules: Rules) -> np.ndarray:
    """P(outcome) for one card of the deck played to maximise points."""
    deck = deck_turns(rules)
    om = deck.maps[card_index]
    card = deck.cards[card_index]
    sol = solve_turn(card, Objective("points"), rules, use_cache=False)
    problem = om.problem
    used = np.unique(np.r_[om.stop_out.ravel(), om.end_out.ravel()])
    bonus = None
    if om.protect_out is not None:
        # a bust keeps the best-scoring protected sub-multiset of the kept dice: its outcome
        own = deck.own[om.protect_out]
        best = problem.space.best_below(own.astype(np.float64)).astype(np.int64)
        index = {int(o): i for i, o in enumerate(own) if deck.loss[om.protect_out[i]] == 0}
        kept_out = np.array([om.protect_out[index[int(v)]] for v in best])
        used = np.unique(np.r_[used, kept_out])
        hit = kept_out[problem.act_keep][None, :] == used[:, None]
        bonus = hit.astype(np.float64) - (used[:, None] == om.base_out)
    stop = (om.stop_out[None] == used[:, None, None]).astype(np.float64)
    end = (om.end_out[None] == used[:, None, None]).astype(np.float64)
    probs = evaluate(problem, sol.policy, stop, end, bonus)
    out = np.zeros(deck.count)
    first = problem.space.roll_probabilities(problem.space.dice)[1]
    for s, p in enumerate(first):
        row = om.first_rows[s]
        if row:
            for o, q in row.items():
                out[o] += p * q
        else:
            out[used] += p * probs[:, 0, s]
    return out


@cache
def points_play_outcomes(rules: Rules) -> np.ndarray:
    """The probability of each of the deck's turn outcomes (:func:`deck_turns`' outcome table)
    when a card is drawn and the turn played to maximise points."""
    deck = deck_turns(rules)
    return sum(w * card_distribution(i, rules) for i, w in enumerate(deck.weights))


def expected_points(rules: Rules) -> float:
    """The deck's expected points per turn under points play (a check against the turn
    solver's deck value)."""
    deck = deck_turns(rules)
    return float(points_play_outcomes(rules) @ deck.own) * UNIT
