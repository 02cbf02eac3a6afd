"""The movers' exact ties that matter to another player (solver/sabords/game/table/ties.py), on
a small table (three dice, three players, target 300, scores floored at zero). The solved
table has none, and the tie rules agree on every one of its turns. Ties are then built into
its values (the table's values with the mover's column replaced) and counted. The count is
checked against the range of the other player's value over all the mover's turns, found by
direct solves, and against the turns that the tie rules choose differently."""

from __future__ import annotations

import numpy as np
import pytest

from solver.sabords.game.table.equilibrium import TableSolver
from solver.sabords.game.table.payoff import TIES
from solver.sabords.game.table.solution import TableSolution
from solver.sabords.game.table.states import TableSpec
from solver.sabords.game.table.ties import MATTERS, mover_ties, tied_turns
from solver.sabords.rules import load_rules

SPEC = TableSpec.of(load_rules(("score-floor-zero",)).with_dice(3), 3, 300)
MOVER, NEXT, PREVIOUS = 2, 0, 1  # a successor row's columns: the last mover, the two others


@pytest.fixture(scope="module")
def solved():
    solver = TableSolver(SPEC)
    return solver, solver.solve()


def built(solution: TableSolution, mover, previous=None) -> TableSolution:
    """The solution's values (results' rows too) with the mover's column of every next state
    replaced by ``mover(values)`` and, if given, the previous player's by ``previous``."""
    values = solution.values.copy()
    values[:, MOVER] = mover(solution.values)
    if previous is not None:
        values[:, PREVIOUS] = previous
    return TableSolution(solution.layout, values, solution.dist, {})


def turns(solver: TableSolver, pay: np.ndarray) -> np.ndarray:
    """Per state and card of the deck: the outcome distribution of the turn maximising
    ``pay`` (per state and outcome)."""
    lanes = solver.lanes
    states = len(pay)
    found = lanes.solve(pay, np.arange(states), lanes.storage(states), 1e-14,
                        distribution=True).per_card
    return lanes.per_card(found)


def worth(solver: TableSolver, solution: TableSolution, dist: np.ndarray, column: int):
    """Each turn's value (``dist``, per state and card) to the player at a successor's
    ``column``."""
    return np.einsum("sco,so->sc", dist, solution.values[solver.succ, column])


def value_range(solver: TableSolver, solution: TableSolution, column: int) -> np.ndarray:
    """Per state and card: how far the value of the player at ``column`` moves over every turn
    of the mover (the turns best and worst for that player, solved directly)."""
    pay = solution.values[solver.succ, column]
    return (worth(solver, solution, turns(solver, pay), column)
            - worth(solver, solution, turns(solver, -pay), column))


def test_the_solved_table_has_no_tie_that_matters(solved) -> None:
    """No turn ties in a way that matters, and the tie rules' best responses are the
    engine's everywhere (so the spread finds one equilibrium here from every tie rule)."""
    solver, solution = solved
    counted = mover_ties(solution)
    assert counted["turns"] == counted["states"] == counted["near"] == 0
    assert counted["of"] == solver.layout.states * len(solver.layout.deck.cards)
    engine = turns(solver, solver._pay(solution.values, solver.succ))
    for tie in ("next", "previous"):
        rule = TableSolver(SPEC, tie=tie)
        assert np.abs(turns(rule, rule._pay(solution.values, rule.succ)) - engine).max() < 1e-9


def test_built_ties_are_counted_where_the_others_values_can_move(solved) -> None:
    """The mover's value the same after every outcome: every turn ties, and it matters
    exactly where another player's value moves over the mover's turns by more than MATTERS
    (up to the probes' resolution, ties.py)."""
    solver, solution = solved
    table = built(solution, lambda v: 0.5)
    tied, near = tied_turns(table)
    moves = np.maximum(value_range(solver, table, NEXT), value_range(solver, table, PREVIOUS))
    assert not near.any()
    assert np.all(moves[tied] > MATTERS)
    assert np.all(tied[moves > 3e-4])
    assert tied.sum() > 1000 and not tied.all()  # many turns, not every turn, have a choice
    assert mover_ties(table)["turns"] == tied.sum()


def test_the_tie_rules_choose_differently_only_at_counted_ties(solved) -> None:
    """At the built ties the tie rules matter: a rule's turn is worth something else to
    another player than the engine's at some turns, and each of them is counted."""
    solver, solution = solved
    table = built(solution, lambda v: 0.5)
    tied, _ = tied_turns(table)
    engine = turns(solver, solver._pay(table.values, solver.succ))
    for tie in TIES:
        rule = TableSolver(SPEC, tie=tie)
        chosen = turns(rule, rule._pay(table.values, rule.succ))
        moved = np.maximum(*(np.abs(worth(solver, table, chosen, c)
                                    - worth(solver, table, engine, c)) for c in (NEXT, PREVIOUS)))
        if tie == "engine":
            assert not moved.any()
        else:
            assert (moved > MATTERS).sum() > 100, tie
            assert np.all(tied[moved > MATTERS]), tie


def test_a_near_tie_is_not_a_tie(solved) -> None:
    """The mover's value is 1e-11 of the next player's (plus a constant), and the previous
    player's value is the same everywhere: turning the next player's best turn into the worst
    costs the mover 1e-11 times their range. That is a tie up to a range of 0.1 (a cost of at
    most TIED, 1e-12), and a near tie beyond it."""
    solver, solution = solved
    table = built(solution, lambda v: 0.5 + 1e-11 * v[:, NEXT], previous=0.25)
    tied, near = tied_turns(table)
    moves = value_range(solver, table, NEXT)
    assert near.sum() > 100 and tied.sum() > 100
    assert np.all(moves[near] > 0.09) and np.all(moves[tied] < 0.11)
    assert np.all(near[moves > 0.11])
    assert np.all(tied[(moves > 3e-4) & (moves < 0.09)])
