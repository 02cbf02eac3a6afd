"""The whole table solved: a fixed point of best responses, and its certificate.

**What is solved.** A way of playing gives every state an outcome distribution of the mover's
turn; its values follow by the linear sweeps of :mod:`solver.sabords.table.linear`. It is an
equilibrium when no mover can gain by playing one turn otherwise: the *regret* of a state is
the mover's best turn against the table's values (the engine's stopping problem, payoffs the
next states' entries for the mover) minus the mover's entry. The largest regret is the
certificate a solved table carries; :func:`regret` recomputes it from the values alone.

**How it is found.** From points play's values (every turn maximising its points), *policy
iteration*: every mover best-responds to the current values, then the values of that way of
playing are computed exactly (sweeps to 1e-15), and again. With two players this is Newton's
method on the zero-sum game. With three or more the best responses at a few states can chase
each other round a cycle (each mover's best turn changes another's, which changes the first's),
and policy iteration need not settle: once a state's best response keeps changing, that state
plays the running average of its best responses instead (a shrinking step ``1 / (k + 1)``,
fictitious play at those states only), which is a mixed way of playing: the turn's policy is
drawn at the start of the turn with the averaged weights. Every other state plays its best
response. The solve reports which states play mixed, and the regret reached.

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

from solver.sabords.game_points import points_distribution
from solver.sabords.table.linear import evaluate
from solver.sabords.table.states import NORMAL, Layout, TableSpec

BLOCK = 4096  # states whose turns are solved in one call
PURE_STEPS = 12  # policy-iteration steps before states that keep changing start to average


@dataclass
class TableSolution:
    """A solved table: one value vector per state (:class:`Layout` rows), the outcome
    distribution each state plays, and how it was found (``stats``)."""

    layout: Layout
    values: np.ndarray
    dist: np.ndarray
    mixed: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
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

    def solve(self, tol: float = 1e-12, max_steps: int = 400) -> TableSolution:
        started = time.perf_counter()
        layout = self.layout
        points = points_distribution(layout.spec.rules)
        values = self.play(points)
        points_seats = values[layout.index(NORMAL, [0] * layout.players)].copy()
        dist = np.broadcast_to(points, (layout.states, layout.deck.count)).copy()
        last_best = np.zeros_like(dist)
        changes = np.zeros(layout.states, dtype=np.int64)  # times the best response changed
        averaged = np.zeros(layout.states, dtype=np.int64)  # averaging steps taken
        history = []
        for step in range(1, max_steps + 1):
            best, best_dist = self.best_responses(values)
            regret = best - values[:layout.states, 0]
            worst = float(regret.max())
            history.append(worst)
            if self.progress:
                print(f"  whole table ({layout.players} players): step {step}, regret "
                      f"{worst:.2e}, {int((averaged > 0).sum())} states mixing "
                      f"({time.perf_counter() - started:.1f} s)", file=sys.stderr, flush=True)
            if worst <= tol:
                break
            changed = np.abs(best_dist - last_best).max(axis=1) > 1e-9
            if step > 1:
                changes += changed
            last_best = best_dist
            mixing = (changes >= PURE_STEPS // 2) if step > PURE_STEPS else np.zeros_like(changed)
            averaged += mixing
            weight = 1.0 / (averaged[mixing] + 1.0)
            dist[~mixing] = best_dist[~mixing]
            dist[mixing] += weight[:, None] * (best_dist[mixing] - dist[mixing])
            values = self.play(dist, values)
        final_best, _ = self.best_responses(values)
        regret = final_best - values[:layout.states, 0]
        mixed = np.flatnonzero(averaged > 0)
        stats = {
            "players": layout.players, "steps": len(history), "regret": float(regret.max()),
            "regret_pure": float(np.delete(regret, mixed).max(initial=0.0)),
            "lowest_regret": float(regret.min()), "mixed_states": int(len(mixed)),
            "states": int(layout.states), "history": history,
            "points_play": points_seats.tolist(), "seconds": time.perf_counter() - started,
        }
        return TableSolution(layout, values, dist, mixed, stats)


def solve_table(spec: TableSpec, tol: float = 1e-12, progress: bool = False) -> TableSolution:
    """The whole table solved for ``spec`` (see the module docstring)."""
    return TableSolver(spec, progress).solve(tol)


def regret(solution: TableSolution) -> np.ndarray:
    """Per state: the most the mover could gain by playing their turn otherwise against the
    table's values (every turn solved again from scratch)."""
    solver = TableSolver(solution.spec)
    best, _ = solver.best_responses(solution.values)
    return best - solution.values[:solver.layout.states, 0]
