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
and policy iteration need not settle: once the regret stops halving, every state whose best
turn went back and forth mixes its last two best turns (the turn's policy drawn at the start
of the turn), with the weights that make its mover indifferent between them (:class:`Mixing`,
Newton steps on the gaps); every other state plays its best response, and policy iteration
goes on around them. The solve reports which states play mixed, and the regret reached.

**When it does not settle.** The solve stops after ``max_steps`` and keeps the way of playing
with the lowest regret it met, saying so (``converged``: false): its regret is then the honest
certificate of how far from an equilibrium it is. Measured on eight dice, target 500, scores
floored at zero (64,000 states): policy iteration cycles with period four (regret 3.3e-6,
7.1e-7, 1.4e-6, 1.5e-6, again), and mixing the 125 states that went back and forth raised the
regret to 6e-5 in two steps: the mixing above does not yet settle that table.

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
STALL = 3  # steps without halving the regret before the states that cycle start to mix
CHANGED = 1e-9  # a best turn's outcome distribution moved by more: the choice changed
DIFF = 1e-6  # the step of the difference Jacobian of the indifference gaps
MAX_NEWTON = 60


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

    def solve(self, tol: float = 1e-12, max_steps: int = 30) -> TableSolution:
        """Policy iteration from points play, mixing at the states whose best responses
        cycle (see the module docstring); stops when no mover gains more than ``tol``."""
        started = time.perf_counter()
        layout = self.layout
        states = layout.states
        points = points_distribution(layout.spec.rules)
        values = self.play(points)
        points_seats = values[layout.index(NORMAL, [0] * layout.players)].copy()
        flips = np.zeros(states, dtype=np.int64)  # steps in which the best response changed
        other = np.zeros((states, layout.deck.count))  # the last best turn before the current
        mix = Mixing.none(layout.deck.count)
        previous, history = None, []
        dist = np.broadcast_to(points, (states, layout.deck.count)).copy()
        kept = None  # the way of playing with the lowest regret so far, with its values
        for step in range(1, max_steps + 1):
            best, best_dist = self.best_responses(values)
            worst = float((best - values[:states, 0]).max())
            history.append(worst)
            if kept is None or worst < kept[0]:
                kept = (worst, best, values, dist, mix)
            if self.progress:
                print(f"  whole table ({layout.players} players): step {step}, regret "
                      f"{worst:.2e}, {len(mix.rows)} states mixing "
                      f"({time.perf_counter() - started:.1f} s)", file=sys.stderr, flush=True)
            if worst <= tol:
                break
            if previous is not None:
                changed = np.abs(best_dist - previous).max(axis=1) > CHANGED
                flips += changed
                other[changed] = previous[changed]
            stalled = len(history) > STALL and worst > 0.5 * min(history[-STALL - 1:-1])
            if stalled:  # every state that went back and forth mixes its last two turns
                mix = mix.extend(np.flatnonzero(flips >= 2), best_dist, other)
            mix = mix.refresh(best_dist, values, self.succ, layout.players, tol)
            previous = best_dist
            dist = best_dist.copy()
            if len(mix.rows):
                mix, values = self._indifferent(dist, mix, values, tol / 10)
            else:
                values = self.play(dist, values)
        else:  # not converged: keep the way of playing with the lowest regret seen
            worst, best, values, dist, mix = kept
        regret = best - values[:states, 0]
        stats = {
            "players": layout.players, "steps": len(history), "regret": worst,
            "converged": worst <= tol,
            "regret_pure": float(np.delete(regret, mix.rows).max(initial=0.0)),
            "lowest_regret": float(regret.min()), "mixed_states": int(len(mix.rows)),
            "mixing": mix.report(layout), "states": int(states), "history": history,
            "points_play": points_seats.tolist(), "seconds": time.perf_counter() - started,
        }
        return TableSolution(layout, values, dist, mix.rows, stats)

    def _indifferent(self, dist: np.ndarray, mix: Mixing, values: np.ndarray, tol: float):
        """The weights at the mixing states that make each mover indifferent between its two
        turns (every other state playing ``dist``), by Newton steps on the gaps with a
        Jacobian from differences, updated by Broyden's rule; a weight that reaches 0 or 1
        leaves its state pure. Returns the mixing with its weights, and the values."""
        mover = self.layout.players - 1
        rows, first, second = mix.rows, mix.first, mix.second

        def gaps(w: np.ndarray, start: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            """The mover's first turn's value minus the second's at each mixing state, when
            they mix with weights ``w``; and the values of that way of playing."""
            dist[rows] = w[:, None] * first + (1 - w[:, None]) * second
            found = self.play(dist, start)
            nxt = found[self.succ[rows], mover]
            return ((first - second) * nxt).sum(axis=1), found

        def residual(w: np.ndarray, g: np.ndarray) -> float:
            open_ = np.where(w >= 1, np.maximum(-g, 0), np.where(w <= 0, np.maximum(g, 0),
                                                                  np.abs(g)))
            return float(open_.max(initial=0.0))

        w = mix.weights.copy()
        g, values = gaps(w, values)
        jac = np.zeros((len(w), len(w)))
        for i in range(len(w)):  # differences: one evaluation per mixing state
            probe = w.copy()
            probe[i] += DIFF if probe[i] < 0.5 else -DIFF
            jac[:, i] = (gaps(probe, values)[0] - g) / (probe[i] - w[i])
        for _ in range(MAX_NEWTON):
            if residual(w, g) <= tol:
                break
            step = np.linalg.lstsq(jac, g, rcond=None)[0]
            moved = np.clip(w - step, 0.0, 1.0)
            g_new, values = gaps(moved, values)
            dw, dg = moved - w, g_new - g
            if dw @ dw > 0:
                jac += np.outer(dg - jac @ dw, dw) / (dw @ dw)
            w, g = moved, g_new
        gaps(w, values)  # dist holds the final weights
        return mix.with_weights(w), values


@dataclass(frozen=True)
class Mixing:
    """The states that play mixed: per state, the two turns (outcome distributions) mixed and
    the weight of the first."""

    rows: np.ndarray
    first: np.ndarray
    second: np.ndarray
    weights: np.ndarray

    @staticmethod
    def none(outcomes: int) -> Mixing:
        empty = np.zeros((0, outcomes))
        return Mixing(np.zeros(0, dtype=np.int64), empty, empty, np.zeros(0))

    def extend(self, rows: np.ndarray, best: np.ndarray, previous: np.ndarray) -> Mixing:
        """Add states that cycle between their last two best turns (weights 1/2)."""
        new = np.setdiff1d(rows, self.rows)
        order = np.argsort(np.r_[self.rows, new], kind="stable")
        return Mixing(np.r_[self.rows, new][order],
                      np.r_[self.first, best[new]][order],
                      np.r_[self.second, previous[new]][order],
                      np.r_[self.weights, np.full(len(new), 0.5)][order])

    def refresh(self, best: np.ndarray, values: np.ndarray, succ: np.ndarray, players: int,
                tol: float) -> Mixing:
        """Where a mixing state's best turn now beats both its turns, it replaces the weaker
        one."""
        if not len(self.rows):
            return self
        nxt = values[succ[self.rows], players - 1]
        u_first, u_second = (self.first * nxt).sum(1), (self.second * nxt).sum(1)
        u_best = (best[self.rows] * nxt).sum(1)
        better = u_best > np.maximum(u_first, u_second) + tol
        first, second = self.first.copy(), self.second.copy()
        weaker_first = better & (u_first < u_second)
        first[weaker_first] = best[self.rows][weaker_first]
        second[better & ~weaker_first] = best[self.rows][better & ~weaker_first]
        return Mixing(self.rows, first, second, self.weights)

    def with_weights(self, weights: np.ndarray) -> Mixing:
        return Mixing(self.rows, self.first, self.second, weights)

    def report(self, layout: Layout) -> list[dict]:
        """Each mixing state: its phase, scores (points) and the weight of its first turn."""
        out = []
        for row, w in zip(self.rows.tolist(), self.weights.tolist(), strict=True):
            name, scores = layout.state_of(row)
            out.append({"phase": name, "scores": [int(x) * 100 for x in scores],
                        "weight": w})
        return out


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
