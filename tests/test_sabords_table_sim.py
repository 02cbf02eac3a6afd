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

from solver.sabords.game.points import points_play_outcomes
from solver.sabords.game.table.equilibrium import TableSolver
from solver.sabords.game.table.states import TableSpec
from solver.sabords.rules import load_rules
from solver.sabords.turn.lanes import deck_turns

GAMES = 20_000


def simulate(players: int, target: int, low: int, draws, own, loss, win,
             play_on: bool = False) -> np.ndarray:
    """One game's result per seat (1 for the winner, shares of a tie); ``draws`` yields each
    turn's outcome. ``play_on``: a trigger player below the target after the last round means
    play goes on, even with another player above it. The game's ``disputed`` flag (the
    function's attribute after the call): whether that position arose."""
    top, low = target // 100, low // 100
    scores = [0] * players
    mover, trigger, left, racing = 0, None, 0, False
    simulate.disputed = False
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
                simulate.disputed |= scores[trigger] < top <= best
                if (scores[trigger] if play_on else best) >= top:
                    tied = [p for p in range(players) if scores[p] == best]
                    result = np.zeros(players)
                    result[tied] = 1.0 / len(tied)
                    return result
                racing, trigger = True, None
        mover = (mover + 1) % players
    raise AssertionError("a game went on for 100,000 turns")


@pytest.mark.slow
@pytest.mark.parametrize(("players", "dice", "target"), [(3, 3, 500), (4, 3, 400),
                                                         (5, 3, 300)])
def test_points_play_agrees_with_simulation(players, dice, target) -> None:
    rules = load_rules(("score-floor-zero",)).with_dice(dice)
    spec = TableSpec.of(rules, players, target)
    solver = TableSolver(spec)
    dist = points_play_outcomes(rules)
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


class ToyDeck:
    """Outcomes of a turn in units: 0 to 3 points, or an Island costing every opponent 2."""

    own = np.array([0, 1, 2, 3, 0])
    loss = np.array([0, 0, 0, 0, 2])
    win = np.zeros(5, dtype=bool)
    probabilities = np.array([0.3, 0.3, 0.2, 0.1, 0.1])
    count = 5


def test_play_on_coupling_agrees_with_a_game_written_here() -> None:
    """The product's coupled measure of play-on (readings.coupled_change: how often a game
    reaches a disputed position, how often its result changes) against whole games played
    here on the same draws under both readings, on a toy deck where disputes are common."""
    from solver.sabords.game.table.readings import coupled_change
    from solver.sabords.game.table.simulate import fixed_play
    from solver.sabords.game.table.states import EndRules

    players, top, games = 3, 3, 20_000
    deck = ToyDeck()
    seats = [fixed_play(deck.probabilities)] * players
    measured = coupled_change(deck, top, 0, EndRules(True, False), EndRules(True, False, True),
                              seats, games, seed=5)
    rng = np.random.default_rng(11)
    reached, changed = np.zeros(games), np.zeros(games)
    for g in range(games):
        draws = rng.choice(5, size=400, p=deck.probabilities).tolist()
        toy = (deck.own.tolist(), deck.loss.tolist(), deck.win.tolist())
        base = simulate(players, 100 * top, 0, iter(draws), *toy)
        reached[g] = simulate.disputed
        on = simulate(players, 100 * top, 0, iter(draws), *toy, play_on=True)
        changed[g] = 0.5 * float(np.abs(base - on).sum())
    for key, here in (("disputed", reached), ("changed", changed)):
        se = np.hypot(measured[f"{key}_error"], here.std(ddof=1) / np.sqrt(games))
        assert abs(measured[key] - here.mean()) <= 4 * se, (key, measured, here.mean())
    assert measured["disputed"] > 0.005 and measured["changed"] > 0.003  # ten standard errors


def test_two_players_never_reach_a_disputed_position() -> None:
    """With two players the last turn's Island scores nothing for its player, so the trigger
    cannot drop below the target while the other is above it: the readings agree."""
    from solver.sabords.game.table.readings import play_on

    measured = play_on(load_rules(("score-floor-zero",)).with_dice(3), 2, 3000, seed=3)
    assert measured["disputed"] == 0.0 and measured["changed"] == 0.0
