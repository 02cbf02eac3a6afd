"""The whole table solved: a fixed point of best responses, and its certificate.

**What is solved.** A way of playing gives every state an outcome distribution of the mover's
turn; its values follow by the linear sweeps of :mod:`solver.sabords.game.table.linear`. It is an
equilibrium when no mover can gain by playing one turn otherwise: the *regret* of a state is
the mover's best turn against the table's values (the engine's stopping problem, payoffs the
next states' entries for the mover) minus the mover's entry. The largest regret is the
certificate a solved table carries; :func:`regret` recomputes it from the values alone.

**How it is found.** From points play's values (every turn maximising its points), *policy
iteration*: every mover best-responds to the current values, then the values of that way of
playing are computed exactly (sweeps to 1e-15), and again. With two players this is Newton's
method on the zero-sum game. With three or more the best responses at a few states can chase
each other round a cycle (each mover's best turn changes another's, which changes the first's),
and policy iteration need not settle. The solve then stops after ``max_steps`` and keeps the
way of playing with the lowest regret it met, saying so (``converged``: false) and naming the
states whose best turn kept changing (``cycling``): its values are exact for that way of
playing, and its regret is the certificate of how far from an equilibrium it is.

Measured on eight dice, target 500, scores floored at zero (64,000 states): policy iteration
cycles with period four (regret 3.3e-6, 7.1e-7, 1.4e-6, 1.5e-6, again) at eleven states of
normal play around 300, 300, 400 (and its rotations); everywhere else the regret is 8e-16.
Mixing each of those states' two turns with weights that make its mover indifferent found no
weights inside (0, 1) (Newton steps on the gaps ended at 0 or 1, regret 1.4e-6), so no mixing
is offered yet; the smaller tables the tests and the report solve settle pure.

**Ties.** When a mover's options are equally good for the mover the engine's order decides
(:data:`solver.engine.batch.TIE`: stopping before rerolling, then the lattice's order); the
others' values can depend on that choice, so the rule is part of the answer.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from solver.sabords.game.points import points_distribution
from solver.sabords.game.table.linear import evaluate
from solver.sabords.game.table.states import NORMAL, Layout, TableSpec

BLOCK = 4096  # states whose turns are solved in one call
WINDOW = 4  # the steps looked back on: a state whose best turn changed twice in them cycles
CHANGED = 1e-9  # a best turn's outcome distribution moved by more: the choice changed


@dataclass
class TableSolution:
    """A solved table: one value vector per state (:class:`Layout` rows), the outcome
    distribution each state plays, and how it was found (``stats``)."""

    layout: Layout
    values: np.ndarray
    dist: np.ndarray
    stats: dict = field(default_factory=dict)

    @property
    def spec(self) -> TableSpec:
        return self.layout.spec

    def wins(self, phase: str, scores) -> np.ndarray:
        """Every player's P(win) + shares of ties, by position (units of 100 in ``scores``)."""
        return self.values[self.layout.index(phase, scores)]

    def seat_values(self) -> np.ndarray:
        """Each seat's value from the opening (everyone at 0, seat 1 to move)."""
        return self.wins(NORMAL, [0] * self.layout.players)


class TableSolver:
    """The iterations of a whole-table solve (see the module docstring)."""

    def __init__(self, spec: TableSpec, progress: bool = False) -> None:
        self.layout = Layout(spec)
        self.progress = progress
        layout = self.layout
        self.lanes = layout.deck.lanes
        self.succ = np.zeros((layout.states, layout.deck.count), dtype=np.int64)
        for name, phase in layout.phases.items():
            rows = slice(phase.start, phase.start + phase.size)
            self.succ[rows] = layout.successors(name, layout.scores(name))
        self.order = layout.order

    @cached_property
    def store(self):
        """Warm starts of every state's turns (only a solve that best-responds needs them)."""
        return self.lanes.storage(self.layout.states)

    @cached_property
    def memo(self):
        return self.lanes.memo(self.layout.states)

    def play(self, dist: np.ndarray, values: np.ndarray | None = None) -> np.ndarray:
        """The values of playing ``dist`` (one row per state, or one row for every state)."""
        layout = self.layout
        dist = np.broadcast_to(dist, (layout.states, layout.deck.count))
        values = layout.empty() if values is None else values.copy()
        evaluate(values, self.order, self.succ, np.ascontiguousarray(dist))
        return values

    def best_responses(self, values: np.ndarray, tol: float = 1e-14) -> tuple:
        """Every state's best turn against ``values``: its value for the mover and its
        outcome distribution."""
        layout = self.layout
        best = np.zeros(layout.states)
        dist = np.zeros((layout.states, layout.deck.count))
        mover = layout.players - 1  # the mover's column in the next rows
        for lo in range(0, layout.states, BLOCK):
            rows = np.arange(lo, min(lo + BLOCK, layout.states))
            pay = values[self.succ[rows], mover]
            solved = self.lanes.solve(pay, rows, self.store, tol, distribution=True,
                                      memo=self.memo)
            best[rows], dist[rows] = solved.values, solved.dist
        return best, dist

    def solve(self, tol: float = 1e-12, max_steps: int = 30) -> TableSolution:
        """Policy iteration from points play (see the module docstring): until no mover gains
        more than ``tol``, or ``max_steps``, keeping the way of playing with the lowest
        regret."""
        started = time.perf_counter()
        layout = self.layout
        states = layout.states
        points = points_distribution(layout.spec.rules)
        values = self.play(points)
        points_seats = values[layout.index(NORMAL, [0] * layout.players)].copy()
        recent: list[np.ndarray] = []  # per step of the last WINDOW: which best turns changed
        previous, history, kept = None, [], None
        dist = np.broadcast_to(points, (states, layout.deck.count)).copy()
        for step in range(1, max_steps + 1):
            best, best_dist = self.best_responses(values)
            worst = float((best - values[:states, 0]).max())
            history.append(worst)
            if kept is None or worst < kept[0]:
                kept = (worst, best, values, dist)
            if self.progress:
                print(f"  whole table ({layout.players} players): step {step}, regret "
                      f"{worst:.2e} ({time.perf_counter() - started:.1f} s)", file=sys.stderr,
                      flush=True)
            if worst <= tol:
                break
            if previous is not None:
                changed = np.abs(best_dist - previous).max(axis=1) > CHANGED
                recent = [*recent[-(WINDOW - 1):], changed]
            previous = dist = best_dist
            values = self.play(dist, values)
        worst, best, values, dist = kept
        cycling = np.flatnonzero(np.sum(recent, axis=0) >= 2) if worst > tol and recent \
            else np.zeros(0, dtype=np.int64)
        regret = best - values[:states, 0]
        stats = {
            "players": layout.players, "steps": len(history), "regret": worst,
            "converged": worst <= tol, "states": int(states), "history": history,
            "regret_elsewhere": float(np.delete(regret, cycling).max(initial=0.0)),
            "lowest_regret": float(regret.min()),
            "cycling": [_where(layout, row) for row in cycling.tolist()],
            "points_play": points_seats.tolist(), "seconds": time.perf_counter() - started,
        }
        return TableSolution(layout, values, dist, stats)


def _where(layout: Layout, row: int) -> dict:
    """A state as its phase and scores (points)."""
    name, scores = layout.state_of(row)
    return {"phase": name, "scores": [int(x) * 100 for x in scores]}


def solve_table(spec: TableSpec, tol: float = 1e-12, progress: bool = False) -> TableSolution:
    """The whole table solved for ``spec`` (see the module docstring)."""
    return TableSolver(spec, progress).solve(tol)


def regret(solution: TableSolution, rows: np.ndarray | None = None) -> np.ndarray:
    """Per state (all, or ``rows``): the most the mover could gain by playing their turn
    otherwise against the table's values, every turn solved again from scratch."""
    solver = TableSolver(solution.spec)
    layout = solver.layout
    rows = np.arange(layout.states) if rows is None else np.asarray(rows)
    lanes = solver.lanes
    best = np.empty(len(rows))
    for lo in range(0, len(rows), BLOCK):
        part = rows[lo:lo + BLOCK]
        pay = solution.values[solver.succ[part], layout.players - 1]
        best[lo:lo + len(part)] = lanes.solve(pay, np.arange(len(part)),
                                              lanes.storage(len(part)), 1e-14).values
    return best - solution.values[rows, 0]
