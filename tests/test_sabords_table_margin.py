"""The regret bound that lets policy iteration leave turns unsolved
(solver/sabords/game/table/margin.py): its drift by hand; the bound against every turn solved
again from scratch on a small table (it holds everywhere, is exact when nothing moved, and
above the regret by exactly what it must give away when the stage moves alike); and solves
that skip turns against the solve that skips none."""

from __future__ import annotations

import numpy as np
import pytest

from solver.sabords.game.table.equilibrium import TableSolver, regret
from solver.sabords.game.table.linear import Successors
from solver.sabords.game.table.margin import RegretBound, _add_drift
from solver.sabords.game.table.states import NORMAL, TableSpec
from solver.sabords.rules import load_rules

SPEC = TableSpec.of(load_rules(("score-floor-zero",)).with_dice(3), 3, 500)


def test_the_drift_adds_each_state_s_largest_rise_by_hand() -> None:
    """A stage of rows 10..12; rows outside it (3, 20) do not move (a rise of 0)."""
    succ = np.array([[10, 11, 3], [12, 12, 12], [11, 20, 10]], dtype=np.int64)
    rise = np.array([0.5, -1.0, -2.0])
    drift = np.array([1.0, 0.0, 0.0])
    _add_drift(drift, succ, 10, 10, rise)
    assert drift.tolist() == [1.5, -2.0, 0.5]  # max(.5, -1, 0); max(-2, -2, -2); max(-1, 0, .5)


@pytest.fixture(scope="module")
def solved():
    """The small table solved with every turn solved at every step."""
    solver = TableSolver(SPEC)
    solver.resolve = None
    return solver, solver.solve()


def exact_best(solver: TableSolver, values: np.ndarray, rows: np.ndarray,
               distribution: bool = False):
    """Every state's best turn's payoff against ``values``, solved from scratch (and its
    outcome distribution)."""
    lanes = solver.lanes
    pay = solver._pay(values, solver.successors(rows))
    solved = lanes.solve(pay, np.arange(len(rows)), lanes.storage(len(rows)), 1e-14,
                         distribution=distribution)
    return (solved.values, solved.dist) if distribution else solved.values


def test_the_bound_holds_is_exact_when_nothing_moved_and_tight_under_a_shift(solved) -> None:
    solver, solution = solved
    stage = next(s for s in solver.layout.stages() if NORMAL in s.names)
    rows = np.arange(stage.start, stage.stop)
    succ = Successors(solver.successors(rows), stage.start)
    values = solution.values.copy()
    bound = RegretBound(succ, stage.start, stage.stop, solver.weights)
    bound.track(values)
    assert np.all(np.isinf(bound.bound(values[rows, 0])))  # nothing solved: no bound
    bound.solved(np.arange(len(rows)), exact_best(solver, values, rows))
    bound.track(values)  # nothing moved: the bound is the regret itself
    before = bound.bound(values[rows, 0])
    assert before == pytest.approx(exact_best(solver, values, rows) - values[rows, 0],
                                   abs=1e-15)
    rng = np.random.default_rng(3)
    for scale in (1e-9, 1e-3):  # two moves of the values, the bound tracking both
        values[rows] += scale * rng.normal(size=(len(rows), values.shape[1]))
        bound.track(values)
        exact = exact_best(solver, values, rows) - values[rows, 0]
        assert np.all(bound.bound(values[rows, 0]) >= exact - 1e-15)
        assert np.median(bound.bound(values[rows, 0]) - exact) < 10 * scale  # not vacuous
    # every row of the stage shifted alike by c: the bound keeps the regret as it was, and
    # the exact regret falls by c times the chance that the best turn leaves the stage (its
    # outcomes there do not move): the bound is exactly that much above it (it would be
    # exact where the best turn stays in the stage; here every turn may reach the target)
    shifted = solution.values.copy()
    shift = RegretBound(succ, stage.start, stage.stop, solver.weights)
    shift.track(shifted)
    best, dist = exact_best(solver, shifted, rows, distribution=True)
    shift.solved(np.arange(len(rows)), best)
    leaves = np.sum(dist * ((succ.rows < stage.start) | (succ.rows >= stage.stop)), axis=1)
    c = 1e-7
    shifted[rows] += c
    shift.track(shifted)
    exact = exact_best(solver, shifted, rows) - shifted[rows, 0]
    got = shift.bound(shifted[rows, 0])
    assert got == pytest.approx(before, abs=1e-15)
    assert np.all(got >= exact - 1e-15)
    assert got - exact == pytest.approx(c * leaves, abs=1e-15)
    assert leaves.min() < 0.2 and leaves.max() > 0.5


@pytest.mark.parametrize("resolve", [0.0, 1.0])
def test_skipping_turns_keeps_the_table_and_a_sound_certificate(solved, resolve) -> None:
    """A step solves only the turns whose bound exceeds ``resolve`` times the regret it
    expects (0: the tolerance): the table found is the one every turn solved gives (values
    within 1e-9), its certificate at most the tolerance and at least the regret recomputed
    from scratch."""
    _, reference = solved
    solver = TableSolver(SPEC)
    solver.resolve = resolve
    solution = solver.solve()
    stats = solution.stats
    assert stats["converged"] and stats["regret"] <= 1e-12
    assert np.abs(solution.values - reference.values).max() <= 1e-9
    rows = np.concatenate([np.arange(s.start, s.stop) for s in solution.layout.stages()
                           if s.repeats])
    assert regret(solution, rows).max() <= stats["regret"] + 1e-15
    sizes = {"/".join(s.names): s.stop - s.start for s in solution.layout.stages()}
    assert all(n == sizes[name] for name, counts in reference.stats["turns_solved"].items()
               for n in counts)
    for name, counts in stats["turns_solved"].items():
        assert all(n == sizes[name] for n in counts[:2])  # the first two steps solve all
        assert all(0 <= n <= sizes[name] for n in counts)
    if resolve:
        assert any(n < sizes[name] for name, counts in stats["turns_solved"].items()
                   for n in counts)
