"""Points play at the whole table, evaluated exactly by the table's linear sweeps, against a
seeded simulation of whole games written here from the rules (three, four and five players).

Every turn draws its outcome from points play's distribution over the deck's outcomes (the
turn is the product's; the game around it is what is checked): the simulation applies the
rules itself (scores, the Island taking from every opponent, the final round, the highest
score winning, ties shared, the race after a drop), and its seat results must agree with the
exact values within four standard errors."""

from __future__ import annotations

import numpy as np
import pytest

from solver.sabords.game_points import points_distribution
from solver.sabords.rules import load_rules
from solver.sabords.table.equilibrium import TableSolver
from solver.sabords.table.states import TableSpec
from solver.sabords.turn_lanes import deck_turns

GAMES = 20_000


def simulate(players: int, target: int, low: int, draws, own, loss, win) -> np.ndarray:
    """One game's result per seat (1 for the winner, shares of a tie); ``draws`` yields each
    turn's outcome."""
    top, low = target // 100, low // 100
    scores = [0] * players
    mover, trigger, left, racing = 0, None, 0, False
    for _, o in zip(range(100_000), draws, strict=False):
        if win[o]:
            result = np.zeros(players)
            result[mover] = 1.0
            return result
        scores[mover] = max(scores[mover] + own[o], low)
        for other in range(players):
            if other != mover:
                scores[other] = max(scores[other] - loss[o], low)
        if racing and scores[mover] >= top:
            result = np.zeros(players)
            result[mover] = 1.0
            return result
        if trigger is None and not racing and scores[mover] >= top:
            trigger, left = mover, players - 1
        elif trigger is not None:
            left -= 1
            if left == 0:
                best = max(scores)
                if best >= top:
                    tied = [p for p in range(players) if scores[p] == best]
                    result = np.zeros(players)
                    result[tied] = 1.0 / len(tied)
                    return result
                racing, trigger = True, None
        mover = (mover + 1) % players
    raise AssertionError("a game went on for 100,000 turns")


@pytest.mark.parametrize(("players", "dice", "target"), [(3, 3, 500), (4, 3, 400),
                                                         (5, 3, 300)])
def test_points_play_agrees_with_simulation(players, dice, target) -> None:
    rules = load_rules(("score-floor-zero",)).with_dice(dice)
    spec = TableSpec.of(rules, players, target)
    solver = TableSolver(spec)
    dist = points_distribution(rules)
    values = solver.play(dist)
    exact = values[solver.layout.index("normal", [0] * players)]
    assert exact.sum() == pytest.approx(1.0, abs=1e-12)
    deck = deck_turns(rules)
    rng = np.random.default_rng(players * 1000 + target)
    draws = iter(rng.choice(len(dist), size=GAMES * 200, p=dist).tolist())
    own, loss, win = deck.own.tolist(), deck.loss.tolist(), deck.win.tolist()
    results = np.array([simulate(players, target, 0, draws, own, loss, win)
                        for _ in range(GAMES)])
    mean = results.mean(axis=0)
    se = results.std(axis=0, ddof=1) / np.sqrt(GAMES)
    assert np.all(np.abs(mean - exact) <= 4 * se + 1e-12), (mean, exact, se)
