"""The table's sweeps with the cycles of scoreless turns solved exactly (``linear.evaluate``'s
``swap``): the cycles found by following the swap outcome, checked row by row; one cycle
solved in one sweep against a linear solve written here; the same values as plain
Gauss-Seidel on whole tables, in fewer sweeps."""

from __future__ import annotations

import numpy as np
import pytest

from solver.sabords.game.points import points_play_outcomes
from solver.sabords.game.table.compact import Plays
from solver.sabords.game.table.equilibrium import TableSolver
from solver.sabords.game.table.linear import cycles, evaluate, sweep_cycles
from solver.sabords.game.table.states import TableSpec
from solver.sabords.rules import load_rules


def _solver(players: int, target: int) -> TableSolver:
    return TableSolver(TableSpec.of(load_rules(("score-floor-zero",)), players, target, 0))


@pytest.mark.parametrize(("players", "target"), [(3, 500), (4, 300)])
def test_cycles_hold_every_row_once_and_follow_the_swap_outcome(players, target) -> None:
    solver = _solver(players, target)
    layout, swap = solver.layout, solver.layout.deck.swap
    lengths = set()
    for stage in layout.stages():
        order = layout.stage_order(stage)
        succ = solver.stage_successors(stage)
        members, ptr, cyclic = cycles(order, succ.rows, succ.first, swap, players)
        assert sorted(members.tolist()) == sorted(order.tolist())
        inside = set(order.tolist())
        for g in range(len(ptr) - 1):
            group = members[ptr[g]:ptr[g + 1]].tolist()
            if cyclic[g]:
                lengths.add(len(group))
                assert players % len(group) == 0
                for k, row in enumerate(group):
                    assert succ[row][swap] == group[(k + 1) % len(group)]
                continue
            assert len(group) == 1
            row = group[0]  # a lone row: its swap successors do not come back to it
            for _ in range(players):
                row = int(succ[row][swap]) if row in inside else -1
                assert row != group[0]
    # the rotations of n distinct scores, of scores all equal, and (four players) of a, b, a, b
    assert lengths == ({1, 3} if players == 3 else {1, 2, 4})


@pytest.mark.parametrize(("players", "size"), [(3, 3), (3, 1), (4, 2), (4, 4)])
def test_a_cycle_is_solved_in_one_sweep(players, size) -> None:
    """Rows 0 .. size-1 lead round by outcome 0 (the swap), to result rows by the others;
    one sweep gives the solution of the linear system ``v_k = c_k + p_k S v_{k+1}``."""
    rng = np.random.default_rng(size * 10 + players)
    results = rng.random((3, players))
    values = np.vstack([np.zeros((size, players)), results])
    succ = np.array([[(k + 1) % size, size + k % 3, size + (k + 1) % 3] for k in range(size)],
                    dtype=np.int32)
    table = rng.random((size, 3))
    table /= table.sum(axis=1, keepdims=True)
    index = np.arange(size, dtype=np.int32)
    # the system written out: position j of row k reads position j - 1 of its successor
    n = size * players
    a, b = np.zeros((n, n)), np.zeros(n)
    for k in range(size):
        for j in range(players):
            for o in range(3):
                s, src = succ[k, o], (j - 1) % players
                if s < size:
                    a[k * players + j, s * players + src] += table[k, o]
                else:
                    b[k * players + j] += table[k, o] * values[s, src]
    exact = np.linalg.solve(np.eye(n) - a, b).reshape(size, players)
    members, ptr, cyclic = cycles(np.arange(size), succ, 0, 0, players)
    assert cyclic.tolist() == [True] and sorted(members.tolist()) == list(range(size))
    sweep_cycles(values, members, ptr, cyclic, succ, 0, index, table, 0)
    assert values[:size] == pytest.approx(exact, abs=1e-15)
    assert sweep_cycles(values, members, ptr, cyclic, succ, 0, index, table, 0) < 1e-15


@pytest.mark.parametrize(("players", "target"), [(3, 1000), (4, 300)])
def test_cycles_solved_give_the_plain_sweeps_values_in_fewer_sweeps(players, target) -> None:
    solver = _solver(players, target)
    layout = solver.layout
    dist = Plays.of(points_play_outcomes(layout.spec.rules), layout.states)
    for stage in layout.stages():
        if not stage.repeats:
            continue
        order, succ = layout.stage_order(stage), solver.stage_successors(stage)
        plain, solved = layout.empty(), layout.empty()
        plain_sweeps = evaluate(plain, order, succ, dist)
        cycle_sweeps = evaluate(solved, order, succ, dist, swap=layout.deck.swap)
        assert np.abs(solved - plain).max() < 1e-14
        assert cycle_sweeps < plain_sweeps


def test_seat_values_started_from_a_solved_table_are_those_from_zero() -> None:
    from solver.sabords.game.table.simulate import seat_values

    solver = _solver(3, 500)
    solution = solver.solve()
    points = points_play_outcomes(solver.layout.spec.rules)
    for seats in ([solution.plays] * 3, [points, solution.plays, points]):
        cold = seat_values(solver.layout, solver.stage_successors, seats)
        warm = seat_values(solver.layout, solver.stage_successors, seats, solution.values)
        assert warm == pytest.approx(cold, abs=1e-14)


@pytest.mark.parametrize("count", [2, 4])
def test_seat_values_needs_one_play_per_seat(count) -> None:
    from solver.sabords.game.table.simulate import seat_values

    solver = _solver(3, 300)
    points = points_play_outcomes(solver.layout.spec.rules)
    with pytest.raises(ValueError, match=f"3 seats, {count} given"):
        seat_values(solver.layout, solver.stage_successors, [points] * count)
