"""The four- and five-player rule (solver.sabords.game.table.rule) and the seat-against-seat play it
is measured with (solver.sabords.game.table.simulate), on a reduced game (three dice, target 500,
scores floored at 0)."""

from __future__ import annotations

import numpy as np
import pytest

from solver.sabords.game.points import points_play_outcomes
from solver.sabords.game.solved import solve_game, with_play
from solver.sabords.game.table.equilibrium import TableSolver
from solver.sabords.game.table.rule import against_exact, at_table, leader_play, rule_dist
from solver.sabords.game.table.simulate import fixed_play, seat_values, simulate, table_play
from solver.sabords.game.table.states import TableSpec
from solver.sabords.game.two_player import GameSpec
from solver.sabords.rules import load_rules

RULES = load_rules(("score-floor-zero",)).with_dice(3)
T = 500


@pytest.fixture(scope="module")
def three():
    solver = TableSolver(TableSpec.of(RULES, 3, T))
    return solver, solver.solve()


@pytest.fixture(scope="module")
def two():
    return with_play(solve_game(GameSpec(RULES, T)))


def test_exact_seats_of_the_equilibrium_are_the_table(three) -> None:
    solver, solution = three
    seats = seat_values(solver.layout, solver.stage_successors, [solution.dist] * 3)
    assert seats == pytest.approx(solution.seat_values(), abs=1e-13)


@pytest.mark.slow
def test_simulation_agrees_with_exact_seat_values(three) -> None:
    solver, solution = three
    layout = solver.layout
    points = points_play_outcomes(RULES)
    plays = [solution.dist, points, points]
    exact = seat_values(layout, solver.stage_successors, plays)
    sim = simulate(layout.deck, 3, layout.top, layout.low, layout.ends,
                   [table_play(layout, solution.dist), fixed_play(points), fixed_play(points)],
                   40_000, seed=7)
    assert np.all(np.abs(sim.mean - exact) <= 4 * sim.error)
    assert sim.mean.sum() == pytest.approx(1.0, abs=1e-12)
    once, again = (simulate(layout.deck, 3, layout.top, layout.low, layout.ends,
                            [fixed_play(points)] * 3, 1000, seed=7).as_dict() for _ in range(2))
    assert once == again  # seeded


def test_two_players_the_rule_is_the_table(two) -> None:
    """With two players the leader is the opponent: the rule plays the two-player table's
    own distributions, so it is worth exactly the table's value against itself."""
    solver = TableSolver(TableSpec.of(RULES, 2, T))
    mine = rule_dist(solver.layout, leader_play(two, 2))
    seats = seat_values(solver.layout, solver.stage_successors, [mine, mine])
    assert seats[0] == pytest.approx(two.first_player_wins, abs=1e-12)


def test_rule_gains_nothing_against_the_equilibrium(three, two) -> None:
    solver, solution = three
    measured = against_exact(solver, solution, two)
    assert len(measured["seats"]) == 3
    for seat in measured["seats"]:
        assert seat["cost"] >= -1e-9  # no way of playing beats the equilibrium
    assert sum(measured["everyone_rule"]) == pytest.approx(1.0, abs=1e-12)


def test_at_table_reports_every_seat(two) -> None:
    out = at_table(two, 4, 2000, seed=3)
    assert out["players"] == 4 and len(out["rule_against_points"]) == 4
    assert sum(out["points_play"]["seat_wins"]) == pytest.approx(1.0, abs=1e-12)
    assert sum(out["everyone_rule"]["seat_wins"]) == pytest.approx(1.0, abs=1e-12)
